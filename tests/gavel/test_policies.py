"""Gavel's LP policies against hand-solved allocations and the isolated-share property."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from hetopt.errors import InstanceError
from hetopt.gavel import (
    POLICIES,
    build_max_min_fairness,
    build_min_total_duration,
    fifo,
    isolated_allocation,
    max_min_fairness,
    max_sum_throughput,
    min_total_duration,
)
from hetopt.solvers import solve_problem

ALLOC_ATOL = 1e-6
OBJ_RTOL = 1e-6


def _feasible(X, s, c):
    assert np.all(X >= -ALLOC_ATOL)
    assert np.all(X.sum(axis=1) <= 1 + ALLOC_ATOL)
    assert np.all(np.asarray(s) @ X <= np.asarray(c) + ALLOC_ATOL)


def test_max_min_fairness_two_jobs_on_their_fast_types():
    # iso throughput of each job = (4 + 1)/2 = 2.5; running full time on its fast type gives 4,
    # i.e. normalized 1.6 each, the largest job 0 can reach at all: unique optimum.
    T = np.array([[4.0, 1.0], [1.0, 4.0]])
    X = max_min_fairness(T, [1, 1], [1, 1])
    np.testing.assert_allclose(X, np.eye(2), atol=ALLOC_ATOL)


def test_max_min_fairness_one_type_equal_shares_and_weights():
    # One GPU, throughputs 1 and 2: rho_0 = 2 x0, rho_1 = 2 x1, x0 + x1 <= 1 -> halves.
    T = np.array([[1.0], [2.0]])
    np.testing.assert_allclose(max_min_fairness(T, [1, 1], [1]), [[0.5], [0.5]], atol=ALLOC_ATOL)
    # weights (1, 2): rho_0 / 1 = rho_1 / 2 -> 2 x0 = x1 -> (1/3, 2/3), objective 2/3.
    problem, x = build_max_min_fairness(T, [1, 1], [1], [1.0, 2.0])
    solve_problem(problem)
    np.testing.assert_allclose(x.value, [[1 / 3], [2 / 3]], atol=ALLOC_ATOL)
    assert problem.value == pytest.approx(2 / 3, rel=OBJ_RTOL)


def test_max_sum_throughput_hand_solved():
    # value = (a + c) + a + (b + d) <= 3, reached only at a = d = 1.
    T = np.array([[2.0, 1.0], [1.0, 1.0]])
    np.testing.assert_allclose(max_sum_throughput(T, [1, 1], [1, 1]), [[1, 0], [0, 1]], atol=ALLOC_ATOL)


def test_min_total_duration_hand_solved_makespan():
    # job 0 needs 4 steps at most 2 steps/s -> makespan >= 2; job 1 (1 step) fits on type 1.
    T = np.array([[2.0, 1.0], [1.0, 1.0]])
    problem, x = build_min_total_duration(T, [1, 1], [1, 1], [4.0, 1.0])
    solve_problem(problem)
    assert 1 / problem.value == pytest.approx(2.0, rel=OBJ_RTOL)
    X = min_total_duration(T, [1, 1], [1, 1], remaining_steps=[4.0, 1.0])
    assert X[0, 0] == pytest.approx(1.0, abs=ALLOC_ATOL)
    assert (T[1] @ X[1]) * 2.0 >= 1.0 - ALLOC_ATOL


def test_fifo_first_job_takes_its_fastest_type():
    T = np.array([[1.0, 2.0], [1.0, 4.0]])
    np.testing.assert_allclose(fifo(T, [1, 1], [1, 1]), [[0, 1], [1, 0]], atol=ALLOC_ATOL)


def test_scale_factor_counts_against_capacity():
    # a 2-GPU job on a 2-GPU type can only run half the time when another 2-GPU job shares it.
    T = np.array([[1.0], [1.0]])
    X = max_min_fairness(T, [2, 2], [2])
    np.testing.assert_allclose(X, [[0.5], [0.5]], atol=ALLOC_ATOL)


@settings(derandomize=True, deadline=None, max_examples=25)
@given(st.integers(1, 6), st.integers(1, 3), st.integers(0, 10_000))
def test_isolated_share_property(J, R, seed):
    """Max-min fairness never does worse than the isolated equal share (objective >= 1), and
    equals it (objective exactly 1, iso allocation optimal) when the types are indistinguishable."""
    rng = np.random.default_rng(seed)
    T = rng.uniform(0.5, 5.0, size=(J, R))
    s = rng.choice([1, 2, 4], size=J)
    c = rng.integers(1, 6, size=R) * 2
    problem, x = build_max_min_fairness(T, s, c)
    solve_problem(problem)
    _feasible(x.value, s, c)
    _feasible(isolated_allocation(s, c), s, c)
    assert problem.value >= 1 - OBJ_RTOL
    flat = np.repeat(T[:, :1], R, axis=1)  # same throughput on every type: a homogeneous cluster
    problem, x = build_max_min_fairness(flat, s, c)
    solve_problem(problem)
    assert problem.value == pytest.approx(1.0, rel=OBJ_RTOL)


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_every_policy_is_feasible(name):
    rng = np.random.default_rng(3)
    T = rng.uniform(0.1, 3.0, size=(7, 3))
    s = np.array([1, 2, 1, 4, 1, 2, 1])
    c = np.array([4, 2, 3])
    _feasible(POLICIES[name](T, s, c), s, c)


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(throughput=[[1.0, -1.0]], scale_factor=[1], capacity=[1, 1]), "throughput[0, 1]"),
        (dict(throughput=[[0.0, 0.0]], scale_factor=[1], capacity=[1, 1]), "throughput[0, :]"),
        (dict(throughput=[[1.0, 1.0]], scale_factor=[0], capacity=[1, 1]), "scale_factor[0]"),
        (dict(throughput=[[1.0, 1.0]], scale_factor=[1], capacity=[1, -2]), "capacity[1]"),
        (dict(throughput=[[1.0, 1.0]], scale_factor=[1, 1], capacity=[1, 1]), "scale_factor"),
    ],
)
def test_bad_input_names_the_field(kwargs, field):
    with pytest.raises(InstanceError, match=field.replace("[", r"\[").replace("]", r"\]")):
        max_min_fairness(**kwargs)


def test_unused_arguments_are_rejected_not_ignored():
    T = np.ones((2, 1))
    with pytest.raises(InstanceError, match="remaining_steps"):
        max_min_fairness(T, [1, 1], [1], remaining_steps=[1, 1])
    with pytest.raises(InstanceError, match="priority_weight"):
        min_total_duration(T, [1, 1], [1], [1.0, 1.0])
