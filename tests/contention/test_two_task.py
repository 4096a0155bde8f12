"""Problem P1: Theorems 1-2 (eqs. (10)-(14)) against the fluid simulation of eq. (5)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hetopt.contention import (
    adadual,
    adadual_threshold,
    starts_immediately,
    two_task_cases,
    two_task_fluid,
    two_task_fluid_optimum,
    two_task_schedule,
)
from hetopt.errors import ArgumentError

REL = 1e-9
sizes = st.floats(0.5, 1000.0)
params = dict(m1=sizes, m2=sizes, b=st.floats(1e-3, 2.0), eta=st.floats(0.0, 2.0))


def test_known_answer_by_hand():
    # m1 = 1, m2 = 3, b = 1, eta = 0.5: C1 = (2 + 3)/2, C2a = (4 + 3)/2, C2b = (1 + 6)/2
    cases = {c.name: c for c in two_task_cases(1.0, 3.0, 1.0, 0.5)}
    assert cases["C1"].average_completion == 2.5 and cases["C1"].offset == 1.0
    assert cases["C2a"].average_completion == 3.5 and cases["C2a"].offset == 0.0
    assert cases["C2b"].average_completion == 3.5 and cases["C2b"].offset == 3.0
    assert two_task_schedule(1.0, 3.0, 1.0, 0.5) == (1, 1.0, 2.5)
    assert two_task_schedule(3.0, 1.0, 1.0, 0.5) == (2, 1.0, 2.5)


def test_eq10_by_hand():
    # C1 with t = 0.5: T1 = 0.5 + 2.5 * 0.5 = 1.75; T2 = 1.75 + (3 - 0.5) = 4.25
    t1, t2 = two_task_fluid(1.0, 3.0, 1.0, 0.5, first=1, offset=0.5)
    assert (t1, t2) == (pytest.approx(1.75), pytest.approx(4.25))


@settings(derandomize=True, deadline=None, max_examples=60)
@given(**params)
def test_closed_form_equals_fluid_optimum(m1, m2, b, eta):
    first, offset, avg = two_task_schedule(m1, m2, b, eta)
    f2, off2, avg2 = two_task_fluid_optimum(m1, m2, b, eta, n_grid=41)
    assert avg == pytest.approx(avg2, rel=REL)
    t1, t2 = two_task_fluid(m1, m2, b, eta, first, offset)
    assert (t1 + t2) / 2 == pytest.approx(avg, rel=REL)


@settings(derandomize=True, deadline=None, max_examples=60)
@given(**params)
def test_every_case_formula_matches_simulation(m1, m2, b, eta):
    for case in two_task_cases(m1, m2, b, eta):
        t1, t2 = two_task_fluid(m1, m2, b, eta, case.first, case.offset)
        assert (t1 + t2) / 2 == pytest.approx(case.average_completion, rel=REL)


@settings(derandomize=True, deadline=None, max_examples=60)
@given(**params)
def test_theorem2_and_adadual_rule_match_eq13(m1, m2, b, eta):
    small, large = min(m1, m2), max(m1, m2)
    ratio = small / large
    thr = adadual_threshold(b, eta)
    if abs(ratio - thr) < 1e-6:
        return  # a tie: both offsets optimal
    # the larger task runs; the best start of the smaller one by simulation
    _, offset, _ = two_task_fluid_optimum(small, large, b, eta, first=2, n_grid=41)
    assert (offset == 0.0) == (ratio < thr) == starts_immediately(small, large, b, eta)
    assert adadual([{"old"}], {"old": large}, small, b, eta) == (ratio < thr)


def test_adadual_cases():
    assert adadual([set(), set()], {}, 5.0, 1.0, 0.0)
    assert not adadual([{1, 2}, set()], {1: 100.0, 2: 100.0}, 1.0, 1.0, 0.0)
    # two different single tasks: must pass the test against both
    assert adadual([{1}, {2}], {1: 100.0, 2: 100.0}, 1.0, 1.0, 0.0)
    assert not adadual([{1}, {2}], {1: 100.0, 2: 1.0}, 1.0, 1.0, 0.0)


def test_bad_input():
    with pytest.raises(ArgumentError, match="m1"):
        two_task_schedule(-1.0, 2.0, 1.0, 0.0)
    with pytest.raises(ArgumentError, match="eta"):
        two_task_schedule(1.0, 2.0, 1.0, -0.5)
