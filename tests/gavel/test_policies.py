"""Gavel's policies against hand-solved allocations and the isolated-share property."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hetopt.errors import ArgumentError, InstanceError
from hetopt.gavel import (
    CERT_RTOL,
    POLICIES,
    build_max_min_fairness,
    build_min_total_duration,
    fairness_coefficients,
    fifo,
    isolated_allocation,
    makespan_of,
    max_min_fairness,
    max_min_fairness_objective,
    max_sum_throughput,
    min_total_duration,
    proportional_allocation,
    solve_min_total_duration,
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
    # weights (1, 2): rho_0 / 1 = rho_1 / 2 -> 2 x0 = x1 -> (1/3, 2/3).  Gavel's reference is the
    # throughput on the whole (proportional) type, T_j, so the objective is x0 = 1/3; the isolated
    # reference is half of it (two jobs share one GPU), so the objective is 2/3.
    for normalization, value in (("gavel", 1 / 3), ("isolated", 2 / 3)):
        problem, x = build_max_min_fairness(T, [1, 1], [1], [1.0, 2.0], normalization=normalization)
        solve_problem(problem)
        np.testing.assert_allclose(x.value, [[1 / 3], [2 / 3]], atol=ALLOC_ATOL)
        assert problem.value == pytest.approx(value, rel=OBJ_RTOL)


def test_max_sum_throughput_hand_solved():
    # value = (a + c) + a + (b + d) <= 3, reached only at a = d = 1.
    T = np.array([[2.0, 1.0], [1.0, 1.0]])
    np.testing.assert_allclose(max_sum_throughput(T, [1, 1], [1, 1]), [[1, 0], [0, 1]], atol=ALLOC_ATOL)


def test_min_total_duration_hand_solved_makespan():
    # job 0 needs 4 steps at most 2 steps/s -> makespan >= 2; job 1 (1 step) fits on type 1.
    T = np.array([[2.0, 1.0], [1.0, 1.0]])
    problem, x, ref = build_min_total_duration(T, [1, 1], [1, 1], [4.0, 1.0])
    solve_problem(problem)
    assert ref / problem.value == pytest.approx(2.0, rel=OBJ_RTOL)
    for solver in ("ecos", "highs"):
        X = min_total_duration(T, [1, 1], [1, 1], remaining_steps=[4.0, 1.0], method="exact", solver=solver)
        assert X[0, 0] == pytest.approx(1.0, abs=ALLOC_ATOL)
        assert (T[1] @ X[1]) * 2.0 >= 1.0 - ALLOC_ATOL


def test_min_total_duration_bisection_is_gavels():
    # Gavel bisects from [100 s, 1e6 s] to a 5 % bracket: steps x 1000 -> optimum 2000 s, found within 5 %.
    from hetopt.gavel.lp import gavel_min_total_duration
    from hetopt.gavel.makespan import makespan_of

    T = np.array([[2.0, 1.0], [1.0, 1.0]])
    steps = np.array([4000.0, 1000.0])
    X, M, lps = gavel_min_total_duration(T, np.array([1, 1]), np.array([1.0, 1.0]), steps)
    assert 2000.0 <= M <= 2000.0 * 1.05 and lps > 5
    assert makespan_of(X, T, steps) <= M * (1 + 1e-6)
    np.testing.assert_allclose(min_total_duration(T, [1, 1], [1, 1], remaining_steps=steps), X)
    # below Gavel's bracket the bisection cannot go: an optimum of 2 s comes back as about 100 s
    _, M_small, _ = gavel_min_total_duration(T, np.array([1, 1]), np.array([1.0, 1.0]), steps / 1000)
    assert 100.0 <= M_small <= 105.0


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
    """The isolated reading of max-min fairness never does worse than the equal share (objective
    >= 1), and equals it (objective exactly 1) when the types are indistinguishable."""
    rng = np.random.default_rng(seed)
    T = rng.uniform(0.5, 5.0, size=(J, R))
    s = rng.choice([1, 2, 4], size=J)
    c = rng.integers(1, 6, size=R) * 2
    problem, x = build_max_min_fairness(T, s, c, normalization="isolated")
    solve_problem(problem)
    _feasible(x.value, s, c)
    _feasible(isolated_allocation(s, c), s, c)
    assert problem.value >= 1 - OBJ_RTOL
    flat = np.repeat(T[:, :1], R, axis=1)  # same throughput on every type: a homogeneous cluster
    problem, x = build_max_min_fairness(flat, s, c, normalization="isolated")
    solve_problem(problem)
    assert problem.value == pytest.approx(1.0, rel=OBJ_RTOL)


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_every_policy_is_feasible(name):
    from .policy_calls import call, feasible

    rng = np.random.default_rng(3)
    T = rng.uniform(0.1, 3.0, size=(7, 3))
    s = np.array([1, 2, 1, 4, 1, 2, 1]) if name != "allox" else np.ones(7, dtype=int)  # AlloX's gangs may overflow
    c = np.array([4, 2, 3])
    X, pairs = call(POLICIES[name], T, s, c)
    if name == "proportional":  # Gavel's normalization reference, c / sum(c) on every row: not capacity-feasible
        np.testing.assert_allclose(X, np.tile(c / c.sum(), (7, 1)))
        return
    if name == "fifo_random":  # Gavel's reading piles the jobs on its last open type, beyond capacity (models/gavel.md)
        assert (s @ X)[2] > c[2]
        from hetopt.gavel.heuristics import fifo_random

        X = fifo_random(T, s, c, reading="drawn")
    feasible(X, s, c, pairs)


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
    with pytest.raises(ArgumentError, match="remaining_steps"):
        max_min_fairness(T, [1, 1], [1], remaining_steps=[1, 1])
    with pytest.raises(ArgumentError, match="priority_weight"):
        min_total_duration(T, [1, 1], [1], [1.0, 1.0])
    with pytest.raises(ArgumentError, match="priority_weight"):
        fifo(T, [1, 1], [1], [1.0, 1.0])


# ---------------------------------------------------------------- Gavel's normalization (issue 10, item 1)
def _gavel_mmf_linprog(T, s, c, w=None):
    """Gavel's MaxMinFairnessPolicyWithPerf written directly from its equations with scipy's linprog.

    max z s.t. z <= sum_r s_j T_jr / (w_j sum_r T_jr c_r / C) X_jr, sum_r X_jr <= 1,
    sum_j s_j X_jr <= c_r, X >= 0.  Variables: X row-major, then z.
    """
    from scipy.optimize import linprog

    T, s, c = np.asarray(T, float), np.asarray(s, float), np.asarray(c, float)
    J, R = T.shape
    w = np.ones(J) if w is None else np.asarray(w, float)
    prop_tput = T @ (c / c.sum())
    n = J * R + 1
    rows, rhs = [], []
    for j in range(J):
        row = np.zeros(n)
        row[j * R:(j + 1) * R] = -s[j] * T[j] / (w[j] * prop_tput[j])
        row[-1] = 1.0
        rows.append(row), rhs.append(0.0)
        row = np.zeros(n)
        row[j * R:(j + 1) * R] = 1.0
        rows.append(row), rhs.append(1.0)
    for r in range(R):
        row = np.zeros(n)
        row[[j * R + r for j in range(J)]] = s
        rows.append(row), rhs.append(c[r])
    cost = np.zeros(n)
    cost[-1] = -1.0
    res = linprog(cost, A_ub=np.array(rows), b_ub=np.array(rhs), bounds=[(0, None)] * (J * R) + [(None, None)],
                  method="highs")
    assert res.status == 0, res.message
    return -res.fun


def test_hand_example_gavel_objective_four_thirds():
    # Proportional share (1/2, 1/2) gives both jobs 1.5; coefficients (4/3, 2/3) and (8/3, 4/3).
    # Job 0 is capped at 4/3 (X_00 = 1) and job 1 still reaches 2 on the remaining capacity: optimum 4/3.
    T, s, c = [[2.0, 1.0], [2.0, 1.0]], [1, 2], [2, 2]
    X = max_min_fairness(T, s, c)
    _feasible(X, s, c)
    assert max_min_fairness_objective(X, T, s, c) == pytest.approx(4 / 3, rel=OBJ_RTOL)
    # the isolated reading's optimum gives both jobs rate 5/3 and scores 10/9 on Gavel's objective
    Xi = max_min_fairness(T, s, c, normalization="isolated")
    np.testing.assert_allclose(np.sum(np.asarray(T) * Xi, axis=1), [5 / 3, 5 / 3], rtol=1e-6)
    assert max_min_fairness_objective(Xi, T, s, c) == pytest.approx(10 / 9, rel=OBJ_RTOL)


def test_proportional_allocation_is_capacity_share_whatever_the_contention():
    np.testing.assert_allclose(proportional_allocation([1, 3], 2), [[0.25, 0.75]] * 2)
    np.testing.assert_allclose(proportional_allocation([1, 3], 50), [[0.25, 0.75]] * 50)
    with pytest.raises(ArgumentError, match="n_jobs"):
        proportional_allocation([1, 3], -1)
    A = fairness_coefficients([[2.0, 1.0]], [2], [2, 2], [4.0])
    np.testing.assert_allclose(A, [[2 * 2 / (4 * 1.5), 2 * 1 / (4 * 1.5)]])


CASES = [(J, R, contention, seed) for J, R in ((1, 1), (2, 2), (3, 4), (6, 3), (12, 2), (30, 4))
         for contention in ("low", "high") for seed in (0, 1)]


@pytest.mark.parametrize("J, R, contention, seed", CASES)
def test_max_min_fairness_reaches_gavels_optimum(J, R, contention, seed):
    rng = np.random.default_rng(1000 * J + 10 * R + seed)
    T = rng.uniform(0.2, 8.0, size=(J, R)) * rng.choice([1.0, 1.0, 0.0], size=(J, R))
    T[np.arange(J), rng.integers(R, size=J)] = rng.uniform(0.2, 8.0, size=J)  # every job runs somewhere
    s = rng.choice([1, 2, 4, 8], size=J)
    base = max(1, int(s.sum()) // R)
    c = rng.integers(1, 4, size=R) * (4 * base if contention == "low" else max(1, base // 8))
    w = rng.uniform(0.5, 2.0, size=J) if seed else None
    X = max_min_fairness(T, s, c, w)
    _feasible(X, s, c)
    ref = _gavel_mmf_linprog(T, s, c, w)
    assert max_min_fairness_objective(X, T, s, c, w) == pytest.approx(ref, rel=OBJ_RTOL)


def test_normalizations_agree_when_every_job_is_contended():
    # J s_j >= C for every job: the two coefficient matrices differ by the constant J / C.
    rng = np.random.default_rng(5)
    T = rng.uniform(0.5, 4.0, size=(6, 3))
    s, c = np.array([2, 2, 4, 2, 2, 2]), np.array([4, 2, 4])
    Ag = fairness_coefficients(T, s, c)
    Ai = fairness_coefficients(T, s, c, normalization="isolated")
    np.testing.assert_allclose(Ai / Ag, np.full_like(Ag, 6 / 10))
    X = max_min_fairness(T, s, c, normalization="isolated")
    assert max_min_fairness_objective(X, T, s, c) == pytest.approx(_gavel_mmf_linprog(T, s, c), rel=OBJ_RTOL)


def test_unknown_normalization_is_an_error():
    with pytest.raises(ArgumentError, match="normalization"):
        max_min_fairness([[1.0]], [1], [1], normalization="fair")


# ---------------------------------------------------------------- FIFO (Gavel's greedy)
def test_gavel_fifo_takes_fastest_free_type_in_arrival_order():
    # job 0 -> type 1 (fastest); job 1 (fastest type 1, now full) -> type 0; job 2 finds no GPU.
    T = [[1.0, 3.0], [2.0, 5.0], [9.0, 9.0]]
    np.testing.assert_array_equal(fifo(T, [1, 1, 1], [1, 1]), [[0, 1], [1, 0], [0, 0]])


def test_gavel_fifo_blocks_behind_a_job_that_does_not_fit():
    # job 1 needs 2 GPUs and one is free per type: FIFO stops, job 2 does not jump ahead.
    # The lexicographic reading time-shares instead: job 1 runs half the time on each type
    # (2 x 0.5 = 1 GPU of each type on average), so its normalized rate is 1.
    T, s, c = [[1.0, 2.0], [1.0, 1.0], [3.0, 1.0]], [1, 2, 1], [1, 2]
    np.testing.assert_array_equal(fifo(T, s, c), [[0, 1], [0, 0], [0, 0]])
    lex = fifo(T, s, c, semantics="lexicographic")
    # the LP reading keeps earlier floors within FIFO_FIX_RTOL/ATOL (1e-6): shares move by a few 1e-6
    np.testing.assert_allclose(lex[:2], [[0, 1], [0.5, 0.5]], atol=1e-5)


# ---------------------------------------------------------------- min-total-duration at real magnitudes
from hetopt.gavel.experiments.checks import makespan_lp_hours as _makespan_linprog_hours  # noqa: E402  (scipy's linprog on Gavel's equations)


def _trace():
    from hetopt.hadar.workloads import trace_workload

    inst = trace_workload(480, seed=0, n_machines=15)
    per_type = inst.capacity.sum(axis=0)
    T = inst.throughput * inst.gpus[:, None]
    T[inst.gpus[:, None] > per_type[None, :]] = 0.0
    return T, inst.gpus, per_type, inst.total_iterations.astype(float)


def test_min_total_duration_on_the_480_job_trace_matches_an_independent_lp():
    T, s, c, steps = _trace()
    assert steps.max() > 1e6  # the magnitudes that broke the unscaled LP
    r = solve_min_total_duration(T, s, c, steps)
    ref = _makespan_linprog_hours(T, s, c, steps)
    assert r.makespan == pytest.approx(ref, rel=1e-6)
    assert makespan_of(r.allocation, T, steps) == pytest.approx(r.makespan, rel=1e-12)
    assert r.gap <= CERT_RTOL
    _feasible(r.allocation, s, c)
    # every step count x 1e6 -> makespan x 1e6
    big = solve_min_total_duration(T, s, c, steps * 1e6)
    assert big.makespan == pytest.approx(r.makespan * 1e6, rel=1e-6)


@settings(derandomize=True, deadline=None, max_examples=20)
@given(st.integers(1, 8), st.integers(1, 3), st.integers(0, 10_000), st.sampled_from([1e-3, 1.0, 1e6, 1e9]))
def test_min_total_duration_scales_with_the_data(J, R, seed, k):
    rng = np.random.default_rng(seed)
    T = rng.uniform(0.1, 50.0, size=(J, R))
    s = rng.choice([1, 2], size=J)
    c = rng.integers(2, 5, size=R)
    steps = 10 ** rng.uniform(0, 7, size=J)  # step counts spanning seven orders of magnitude
    base = solve_min_total_duration(T, s, c, steps)
    assert base.makespan == pytest.approx(_makespan_linprog_hours(T, s, c, steps), rel=1e-6)
    assert solve_min_total_duration(T, s, c, steps * k).makespan == pytest.approx(base.makespan * k, rel=1e-6)
    assert solve_min_total_duration(T * k, s, c, steps).makespan == pytest.approx(base.makespan / k, rel=1e-6)


def test_max_sum_throughput_is_invariant_to_throughput_units():
    rng = np.random.default_rng(2)
    T = rng.uniform(0.1, 5.0, size=(9, 3))
    s, c = rng.choice([1, 2], size=9), np.array([3, 2, 4])
    X1 = max_sum_throughput(T, s, c)
    X2 = max_sum_throughput(T * 1e6, s, c)
    assert np.sum(T * X2) == pytest.approx(np.sum(T * X1), rel=1e-7)


def test_makespan_errors_name_the_problem():
    # job 1 runs only on type 1, which has no GPUs: it can never finish
    with pytest.raises(InstanceError, match="job 1"):
        solve_min_total_duration([[1.0, 0.0], [0.0, 2.0]], [1, 1], [2, 0], [1.0, 1.0])
    with pytest.raises(InstanceError, match="remaining_steps"):
        solve_min_total_duration([[1.0]], [1], [1], [0.0])
    with pytest.raises(InstanceError, match="allocation"):
        makespan_of(np.ones((2, 2)), np.ones((2, 3)), [1.0, 1.0])


def test_unknown_fifo_semantics_is_an_error():
    with pytest.raises(ArgumentError, match="semantics"):
        fifo([[1.0]], [1], [1], semantics="lifo")
