"""Communication model: Table I, eqs. (2) and (5), the fluid form."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hetopt.contention import allreduce_cost, allreduce_time, fluid_completion_times, transfer_rate
from hetopt.errors import ArgumentError

REL = 1e-9


def test_table_one_by_hand():
    # N = 4: log N = 2
    assert allreduce_cost("binary_tree", 1.0, 2.0, 3.0, 4) == (4.0, 14.0)
    assert allreduce_cost("recursive_doubling", 1.0, 2.0, 3.0, 4) == (2.0, 10.0)
    a, b = allreduce_cost("recursive_halving_doubling", 1.0, 2.0, 3.0, 4)
    assert (a, b) == (4.0, pytest.approx(4.0 - 7.0 / 4 + 3.0))
    a, b = allreduce_cost("ring", 1.0, 2.0, 3.0, 4)
    assert (a, b) == (6.0, pytest.approx(3.0 + 2.25))


def test_table_one_bad_input():
    with pytest.raises(ArgumentError, match="power of two"):
        allreduce_cost("ring", 1.0, 1.0, 0.0, 3)
    with pytest.raises(ArgumentError, match="algorithm"):
        allreduce_cost("butterfly", 1.0, 1.0, 0.0, 4)
    with pytest.raises(ArgumentError, match="beta"):
        allreduce_cost("ring", 1.0, -1.0, 0.0, 4)


def test_eq5_reduces_to_eq2():
    assert allreduce_time(100.0, 0.5, 0.01, 0.3, 1) == pytest.approx(1.5)
    assert allreduce_time(100.0, 0.5, 0.01, 0.3, 3) == pytest.approx(0.5 + 3.0 + 60.0)


@pytest.mark.parametrize("bad", [dict(message_size=-1.0), dict(k=0), dict(eta=-0.1), dict(b=0.0)])
def test_eq5_bad_input(bad):
    args = dict(message_size=1.0, a=0.0, b=1.0, eta=0.0, k=1) | bad
    with pytest.raises(ArgumentError):
        allreduce_time(**args)


@settings(derandomize=True, deadline=None, max_examples=40)
@given(k=st.integers(1, 8), m=st.floats(0.1, 1000), a=st.floats(0, 1), b=st.floats(1e-4, 1), eta=st.floats(0, 1))
def test_fluid_equal_tasks_give_eq5(k, m, a, b, eta):
    ends = fluid_completion_times([m] * k, [0.0] * k, [[0, 1]] * k, a, b, eta)
    assert np.allclose(ends, allreduce_time(m, a, b, eta, k), rtol=REL)


def test_fluid_disjoint_servers_do_not_interact():
    ends = fluid_completion_times([10.0, 10.0], [0.0, 0.0], [[0, 1], [2, 3]], 0.0, 1.0, 5.0)
    assert np.allclose(ends, [10.0, 10.0])


def test_fluid_max_over_servers():
    # task 0 on servers 0,1 shares server 0 with task 1 and server 1 with task 2: k = 2 for all
    ends = fluid_completion_times([1.0, 1.0, 1.0], [0.0] * 3, [[0, 1], [0], [1]], 0.0, 1.0, 0.0)
    assert np.allclose(ends, [2.0, 2.0, 2.0])
    assert not math.isnan(ends.sum())


@pytest.mark.parametrize("k", [0, -1, 1.5, True])
def test_transfer_rate_rejects_bad_k(k):
    with pytest.raises(ArgumentError, match="k is"):
        transfer_rate(k, 1e-3, 1e-4)


@pytest.mark.parametrize("b, eta", [(0.0, 1e-4), (float("nan"), 1e-4), (1e-3, float("inf")), (1e-3, -1.0)])
def test_transfer_rate_rejects_bad_constants(b, eta):
    with pytest.raises(ArgumentError, match="b is|eta is"):
        transfer_rate(2, b, eta)


@pytest.mark.parametrize("field, kwargs", [
    ("sizes", dict(sizes=[float("nan")])), ("sizes", dict(sizes=[float("inf")])),
    ("starts", dict(starts=[float("nan")])), ("b", dict(b=float("inf"))), ("b", dict(b=0.0)),
    ("eta", dict(eta=float("nan"))), ("a", dict(a=float("nan"))), ("servers", dict(servers=[[]])),
])
def test_fluid_completion_times_rejects_non_finite_input(field, kwargs):
    args = dict(sizes=[100.0], starts=[0.0], servers=[[0, 1]], a=0.0, b=1e-3, eta=1e-4)
    args.update(kwargs)
    with pytest.raises(ArgumentError, match=field):
        fluid_completion_times(**args)
