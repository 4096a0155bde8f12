"""hetopt.gavel.fastlp_packed hands ECOS the arrays CVXPY builds for Gavel's packed max-min fairness, to the last bit."""

import itertools

import cvxpy as cp
import numpy as np
import pytest

import hetopt.gavel.packing as packing
from hetopt.arena.engine import execute
from hetopt.arena.policies import make_policy
from hetopt.errors import ArgumentError
from hetopt.gavel import fastlp_packed as FP
from tests.arena.test_presence import msr

from .test_fastlp import _bits


def _instance(rng, trial):
    J, R = int(rng.integers(1, 8)), int(rng.integers(1, 4))
    T = rng.uniform(0.1, 5.0, (J, R)) * (rng.random((J, R)) > 0.25)  # zeros: jobs that cannot run on a type
    T[T.sum(axis=1) == 0, 0] = 1.0
    s = rng.choice([1, 2, 4], J)  # pairs of different scale factors: rows held at 0 (equality rows)
    c = rng.integers(1, 12, R).astype(float)
    every = list(itertools.combinations(range(J), 2))
    pairs = every if trial % 2 else sorted(p for p in every if rng.random() < 0.6)  # equal or unequal row counts
    pt = rng.uniform(0.0, 3.0, (len(pairs), R, 2)) * (rng.random((len(pairs), R, 2)) > 0.2)
    w = None if trial % 3 else rng.choice([1.0, 2.0, 0.5], J)
    return T, s, c, w, pairs, pt


@pytest.mark.parametrize("seed", range(4))
def test_the_arrays_and_the_allocation_are_cvxpys(seed, monkeypatch):
    problems = []
    solve_problem = packing.solve_problem

    def spy(problem, *args, **kwargs):
        problems.append(problem)
        return solve_problem(problem, *args, **kwargs)

    monkeypatch.setattr(packing, "solve_problem", spy)
    rng = np.random.default_rng(seed)
    for trial in range(10):
        T, s, c, w, pairs, pt = _instance(rng, trial)
        expected = packing.max_min_fairness_packed(T, s, c, w, pairs=pairs, pair_throughput=pt)
        data, _, _ = problems[-1].get_problem_data(cp.ECOS)
        lp = FP.mmf_packed_lp(packing.packed_problem(T, s, c, w, pairs=pairs, pair_throughput=pt))
        G, A = data["G"], data["A"]
        assert G.shape == (lp.n_rows, lp.c.size) and data["dims"].nonneg == lp.l and not data["dims"].soc
        assert _bits(data["c"], lp.c) and _bits(data["h"], lp.h)
        assert _bits(G.data, lp.data) and _bits(G.indices, lp.indices) and _bits(G.indptr, lp.indptr)
        if A is None:
            assert lp.b is None
        else:
            assert _bits(A.data, lp.a_data) and _bits(A.indices, lp.a_indices) and _bits(A.indptr, lp.a_indptr)
            assert _bits(data["b"], lp.b) and A.shape == (lp.b.size, lp.c.size)
        got = FP.max_min_fairness_packed(T, s, c, w, pairs=pairs, pair_throughput=pt)
        assert _bits(got, expected)


@pytest.mark.parametrize("policy", ["max_min_fairness_packed", "max_sum_throughput_normalized_by_cost_packed_slos",
                                    pytest.param("finish_time_fairness_packed", marks=pytest.mark.slow),  # 2.5 s
                                    pytest.param("max_min_fairness_water_filling_packed", marks=pytest.mark.slow),
                                    pytest.param("min_total_duration_packed", marks=pytest.mark.slow)])
def test_the_arena_runs_the_same_with_either_path(policy):
    w = msr(40, shrink=30)
    a = execute(w, make_policy(policy, lp="cvxpy"), seed=0)
    b = execute(w, make_policy(policy), seed=0)
    assert a.n_resets > 10 and a.completion.tolist() == b.completion.tolist()


@pytest.mark.parametrize("seed", range(3))
def test_min_total_duration_arrays_and_allocation_are_cvxpys(seed, monkeypatch):
    problems = []
    solve_problem = packing.solve_problem

    def spy(problem, *args, **kwargs):
        problems.append(problem)
        return solve_problem(problem, *args, **kwargs)

    monkeypatch.setattr(packing, "solve_problem", spy)
    rng = np.random.default_rng(10 + seed)
    for trial in range(6):
        T, s, c, _, pairs, pt = _instance(rng, trial)
        steps = rng.uniform(100.0, 1e5, T.shape[0])
        expected = packing.min_total_duration_packed(T, s, c, remaining_steps=steps, pairs=pairs, pair_throughput=pt)
        lp = FP.mtd_packed_lp(packing.packed_problem(T, s, c, pairs=pairs, pair_throughput=pt))
        for problem in problems[-3:]:  # the last LPs of the bisection: h = -steps / mid, read back from CVXPY's
            data, _, _ = problem.get_problem_data(cp.ECOS)
            G = data["G"]
            assert data["A"] is None and data["dims"].nonneg == lp.l and G.shape == (lp.n_rows, lp.c.size)
            assert _bits(data["c"], lp.c) and _bits(data["h"][:-T.shape[0]], lp.h[:-T.shape[0]])
            assert _bits(G.data, lp.data) and _bits(G.indices, lp.indices) and _bits(G.indptr, lp.indptr)
        problems.clear()
        got = FP.min_total_duration_packed(T, s, c, remaining_steps=steps, pairs=pairs, pair_throughput=pt)
        assert _bits(got, expected)
    with pytest.raises(ArgumentError, match="priority_weight"):
        FP.min_total_duration_packed(T, s, c, np.ones(T.shape[0]), remaining_steps=steps, pairs=pairs,
                                     pair_throughput=pt)


@pytest.mark.parametrize("seed", range(3))
def test_max_sum_throughput_by_cost_arrays_and_allocation_are_cvxpys(seed, monkeypatch):
    problems = []
    solve_problem = packing.solve_problem

    def spy(problem, *args, **kwargs):
        problems.append(problem)
        return solve_problem(problem, *args, **kwargs)

    monkeypatch.setattr(packing, "solve_problem", spy)
    rng = np.random.default_rng(20 + seed)
    for trial in range(8):
        T, s, c, _, pairs, pt = _instance(rng, trial)
        R = T.shape[1]
        kw = {"pairs": pairs, "pair_throughput": pt, "gpu_types": [f"t{r}" for r in range(R)],
              "instance_costs": None if trial % 2 else {f"t{r}": float(rng.uniform(0.5, 3.0)) for r in range(R)}}
        expected = packing.max_sum_throughput_normalized_by_cost_packed_slos(T, s, c, **kw)
        data, _, _ = problems[-1].get_problem_data(cp.ECOS)
        cost = None if kw["instance_costs"] is None else np.array(list(kw["instance_costs"].values()))
        lp = FP.mst_packed_lp(packing.packed_problem(T, s, c, pairs=pairs, pair_throughput=pt), cost)
        G = data["G"]
        assert data["A"] is None and data["dims"].nonneg == lp.l and G.shape == (lp.n_rows, lp.c.size)
        assert _bits(data["c"], lp.c) and _bits(data["h"], lp.h)
        assert _bits(G.data, lp.data) and _bits(G.indices, lp.indices) and _bits(G.indptr, lp.indptr)
        assert _bits(FP.max_sum_throughput_normalized_by_cost_packed_slos(T, s, c, **kw), expected)
        # with an SLO the CVXPY function itself runs (its SLO rows are not built here)
        slo = np.full(T.shape[0], np.nan)
        slo[0] = 1e6
        steps = np.full(T.shape[0], 10.0)
        assert _bits(FP.max_sum_throughput_normalized_by_cost_packed_slos(T, s, c, time_to_slo=slo,
                                                                          remaining_steps=steps, **kw),
                     packing.max_sum_throughput_normalized_by_cost_packed_slos(T, s, c, time_to_slo=slo,
                                                                               remaining_steps=steps, **kw))


def _same_packed_data(problem, lp) -> None:
    data, _, _ = problem.get_problem_data(cp.ECOS)
    G, A = data["G"], data["A"]
    assert G.shape == (lp.n_rows, lp.c.size) and data["dims"].nonneg == lp.l and list(data["dims"].soc) == lp.q
    assert _bits(data["c"], lp.c) and _bits(data["h"], lp.h)
    assert _bits(G.data, lp.data) and _bits(G.indices, lp.indices) and _bits(G.indptr, lp.indptr)
    if A is None:
        assert lp.b is None
    else:
        assert _bits(A.data, lp.a_data) and _bits(A.indices, lp.a_indices) and _bits(A.indptr, lp.a_indptr)
        assert _bits(data["b"], lp.b) and A.shape == (lp.b.size, lp.c.size)


@pytest.mark.parametrize("seed", range(4))
def test_finish_time_fairness_arrays_and_allocation_are_cvxpys(seed, monkeypatch):
    from hetopt.gavel.lp import gavel_isolated_throughput

    problems = []
    solve_problem = packing.solve_problem

    def spy(problem, *args, **kwargs):
        problems.append(problem)
        return solve_problem(problem, *args, **kwargs)

    monkeypatch.setattr(packing, "solve_problem", spy)
    rng = np.random.default_rng(30 + seed)
    for trial in range(10):
        T, s, c, w, pairs, pt = _instance(rng, trial)
        J = T.shape[0]
        steps, since = rng.uniform(10.0, 1e6, J), rng.uniform(0.0, 1e5, J)
        kw = {"remaining_steps": steps, "times_since_start": since, "pairs": pairs, "pair_throughput": pt}
        expected = packing.finish_time_fairness_packed(T, s, c, w, **kw)
        assert _bits(FP.finish_time_fairness_packed(T, s, c, w, **kw), expected)
        if J > 1:  # one job: the CVXPY class itself (its objective is no maximum)
            pp = packing.packed_problem(T, s, c, w, pairs=pairs, pair_throughput=pt)
            iso = gavel_isolated_throughput(pp.T, pp.s, pp.c)
            _same_packed_data(problems[-1], FP.ftf_packed_lp(pp, since, steps,
                                                             np.concatenate([steps[i] / iso[i] for i in range(J)])))


def test_finish_time_fairness_keeps_gavels_state():
    """Jobs arriving and leaving, pairs among those present: the CVXPY class's allocations, call by call."""
    rng = np.random.default_rng(8)
    T = rng.uniform(0.1, 5.0, (10, 3))
    s, c = rng.choice([1, 2], 10), np.array([3.0, 2.0, 4.0])
    steps = rng.uniform(1e4, 1e6, 10)
    ref, got = packing.FinishTimeFairnessPacked(), FP.FinishTimeFairnessPacked()
    for k, jobs in enumerate([[0], [0, 1, 2], [1, 2, 3, 4, 5], [2, 3, 5, 6, 7, 8], [8, 9]]):
        steps[jobs] *= 0.9
        pairs = [p for p in itertools.combinations(range(len(jobs)), 2) if rng.random() < 0.7]
        kw = {"remaining_steps": steps[jobs], "times_since_start": np.full(len(jobs), 360.0 * k), "job_ids": jobs,
              "pairs": pairs, "pair_throughput": rng.uniform(0.0, 3.0, (len(pairs), 3, 2))}
        assert _bits(got(T[jobs], s[jobs], c, **kw), ref(T[jobs], s[jobs], c, **kw)), jobs


def _water_filling_case(monkeypatch, T, s, c, w, pairs, pt, solver):
    """Every LP of the packed water filling (CVXPY's, spied) against this module's, and the allocations."""
    problems, lps = [], []
    solve_problem, build = packing.solve_problem, FP.wf_packed_lp

    def spy(problem, *args, **kwargs):
        if not problem.is_mixed_integer():
            problems.append(problem)
        return solve_problem(problem, *args, **kwargs)

    def spy_lp(*args):
        lps.append(build(*args))
        return lps[-1]

    monkeypatch.setattr(packing, "solve_problem", spy)
    monkeypatch.setattr(FP, "wf_packed_lp", spy_lp)
    kw = {"pairs": pairs, "pair_throughput": pt, "bottleneck_solver": solver}
    expected = packing.max_min_fairness_water_filling_packed(T, s, c, w, **kw)
    assert _bits(FP.max_min_fairness_water_filling_packed(T, s, c, w, **kw), expected)
    assert len(problems) == len(lps) >= 1
    for problem, lp in zip(problems, lps, strict=True):  # the later LPs' h holds the earlier problems' values
        _same_packed_data(problem, lp)
    return len(lps)


@pytest.mark.parametrize("seed", range(4))
def test_water_filling_arrays_and_allocation_are_cvxpys(seed, monkeypatch):
    rng = np.random.default_rng(40 + seed)
    n_lps = 0
    for trial in range(8):
        T, s, c, w, pairs, pt = _instance(rng, trial)
        n_lps += _water_filling_case(monkeypatch, T, s, c, w, pairs, pt, None if trial % 2 else "highs")
    assert n_lps > 8 + 4  # with pairs, the second LP (every job held at its level); with the MILP, more


def test_water_filling_value_is_cvxpys_on_long_sums(monkeypatch):
    """Jobs in 40 rows or more: the objective at x summed as CVXPY's numpy sum (pairwise beyond 8 and 128 terms)."""
    rng = np.random.default_rng(50)
    J, R = 45, 3
    T = rng.uniform(0.1, 5.0, (J, R))
    pairs = list(itertools.combinations(range(J), 2))
    pt = rng.uniform(0.0, 3.0, (len(pairs), R, 2))
    assert _water_filling_case(monkeypatch, T, np.ones(J, dtype=int), np.array([20.0, 15.0, 25.0]), None, pairs, pt,
                               None) == 2
