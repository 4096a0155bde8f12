"""The independent checkers compare a reported objective relatively, at 1e-12 and at 1e12 (issue 31, item 6).

Before, Hadar's and OASiS's checkers allowed an absolute 1e-9 beside the relative one: with utilities
near 1e-12 a total reported 100 times the true one passed.  Each checker is given a true report (it
passes) and the same report times 100 and times 1 + 1e-6 (each rejected), at both magnitudes.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from hetopt.certify import same_value
from hetopt.hadar import HadarInstance, Utility, check_schedule, simulate, solve_exact
from hetopt.oasis import TabulatedUtility
from hetopt.oasis import check_schedule as oasis_check
from hetopt.oasis import solve_exact as oasis_exact
from tests.oasis.conftest import tiny_instance

SCALES = [1e-12, 1e12]
WRONG = [100.0, 1 + 1e-6]


def _hadar(scale: float) -> HadarInstance:
    """Two one-GPU jobs on one GPU; sigmoid utilities of height ``scale`` and ``2 scale``."""
    return HadarInstance(capacity=[[1]], arrival=[0, 0], gpus=[1, 1], epochs=[60, 60], iterations_per_epoch=[1, 1],
                         throughput=[[1.0], [1.0]], slot_length=60.0,
                         utility=Utility("sigmoid", np.column_stack([(scale, 2 * scale), (0.01, 0.01), (60.0, 60.0)])))


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("factor", WRONG)
def test_hadar_checker_is_relative_on_a_solution(scale, factor):
    inst = _hadar(scale)
    sol = solve_exact(inst)
    assert sol.total_utility is not None and scale < sol.total_utility < 4 * scale
    assert check_schedule(inst, sol).ok
    rep = check_schedule(inst, dataclasses.replace(sol, total_utility=sol.total_utility * factor))
    assert any("total utility" in v for v in rep.violations), rep.violations


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("factor", WRONG)
def test_hadar_checker_is_relative_on_a_simulation(scale, factor):
    inst = _hadar(scale)
    res = simulate(inst, "hadar", record_rounds=True)
    assert check_schedule(inst, res).ok
    rep = check_schedule(inst, dataclasses.replace(res, total_utility=res.total_utility * factor))
    assert any("total utility" in v for v in rep.violations), rep.violations


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("factor", WRONG)
def test_oasis_checker_is_relative(scale, factor):
    base = tiny_instance(0)
    inst = dataclasses.replace(base, utility=[TabulatedUtility(base.utility_table(i) * scale,
                                                               target=base.utility[i].target)
                                              for i in range(base.n_jobs)])
    sol = oasis_exact(inst)
    assert sol.total_utility > 0 and oasis_check(inst, sol).ok
    rep = oasis_check(inst, dataclasses.replace(sol, total_utility=sol.total_utility * factor))
    assert any("total utility" in v for v in rep.violations), rep.violations


def test_same_value_has_no_absolute_floor():
    assert same_value(1e-12, 1e-12) and same_value(1e12 * (1 + 1e-10), 1e12)
    assert not same_value(1e-10, 1e-12) and not same_value(1e12 * (1 + 1e-8), 1e12)
    assert not same_value(1e-300, 0.0) and same_value(0.0, 0.0)
    assert same_value(1e-7, 0.0, terms=[1e9, -1e9])  # a cancelling sum keeps its summands' rounding
    assert not same_value(float("nan"), 1.0)
