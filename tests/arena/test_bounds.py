"""The certified bounds: below every run (exact optima, random runs of both rules), cross-checked, magnitude-free."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from scipy.optimize import linprog

from hetopt.arena import fluid
from hetopt.arena.bounds import completion_lower_bounds, jct_lower_bound, makespan_lower_bound
from hetopt.arena.checker import check_schedule
from hetopt.arena.exact import solve_exact
from hetopt.errors import ArgumentError

from .formulation import fastest_rate, second_formulation
from .random_runs import packed_run, random_run
from .small import replace, small_workload, workloads

#: A certified bound may exceed a run's metric by rounding only.
BOUND_RTOL = 1e-9


def _below_exact(seeds, rule):
    for seed in seeds:
        w = small_workload(seed)
        span, jct = makespan_lower_bound(w, gang_rule=rule), jct_lower_bound(w, gang_rule=rule)
        assert span.certified and jct.certified
        assert span.value <= solve_exact(w, objective="makespan").objective * (1 + BOUND_RTOL), seed
        assert jct.value <= solve_exact(w).objective * (1 + BOUND_RTOL), seed


@pytest.mark.parametrize("rule", ["bottleneck", "single"])
def test_bounds_below_the_exact_optimum(rule):
    _below_exact(range(15), rule)


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["bottleneck", "single"])
def test_bounds_below_the_exact_optimum_on_hundreds(rule):
    _below_exact(range(15, 315), rule)


def _below_random_runs(seeds, rule):
    for seed in seeds:
        w = small_workload(seed, jobs=(2, 8), single_fit=rule == "single", types=(2, 3))
        span, jct = makespan_lower_bound(w, gang_rule=rule), jct_lower_bound(w, gang_rule=rule)
        plain = jct_lower_bound(w, gang_rule=rule, weights=np.ones(w.n_jobs))
        for k in range(5):
            run = random_run(w, 1000 * seed + k, rule=rule)
            assert check_schedule(w, run).ok
            assert span.value <= run.makespan * (1 + BOUND_RTOL), (seed, k)
            assert jct.value <= run.average_jct * (1 + BOUND_RTOL), (seed, k)
            assert plain.value <= float(np.mean(run.jct)) * (1 + BOUND_RTOL), (seed, k)
            assert np.all(span.info["completion"] <= run.completion * (1 + BOUND_RTOL))


@pytest.mark.parametrize("rule", ["bottleneck", "single"])
def test_bounds_below_random_runs(rule):
    """Runs of random policies, rounds of random lengths, gangs spread over types under the bottleneck rule."""
    _below_random_runs(range(10), rule)


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["bottleneck", "single"])
def test_bounds_below_random_runs_on_hundreds(rule):
    _below_random_runs(range(10, 210), rule)


@settings(derandomize=True, deadline=None, max_examples=25)
@given(w=workloads())
def test_bounds_below_runs_on_drawn_workloads(w):
    """Equal arrivals, zero throughputs, gangs spread over types: the bounds below random runs and the exact optimum."""
    span, jct = makespan_lower_bound(w), jct_lower_bound(w)
    assert span.certified and jct.certified
    for k in range(2):
        run = random_run(w, k, rule="bottleneck")
        assert span.value <= run.makespan * (1 + BOUND_RTOL)
        assert jct.value <= run.average_jct * (1 + BOUND_RTOL)
    fits = all(np.any((w.throughput[j] > 0) & (w.capacity >= w.scale_factor[j])) for j in range(w.n_jobs))
    if fits:
        assert jct_lower_bound(w, gang_rule="single").value <= solve_exact(w).objective * (1 + BOUND_RTOL)
        assert makespan_lower_bound(w, gang_rule="single").value <= \
            solve_exact(w, objective="makespan").objective * (1 + BOUND_RTOL)


def test_packing_bounds_hold_for_packed_runs():
    """Two jobs on the same GPUs, each at most at its own rate: below the packing bounds."""
    for seed in range(6):
        w = small_workload(seed, jobs=(4, 8))
        span, jct = makespan_lower_bound(w, packing=True), jct_lower_bound(w, packing=True, weights=np.ones(w.n_jobs))
        assert span.packing and span.value <= makespan_lower_bound(w).value * (1 + BOUND_RTOL)
        for k in range(4):
            completion, makespan = packed_run(w, 100 * seed + k)
            assert span.value <= makespan * (1 + BOUND_RTOL)
            assert jct.value <= float(np.mean(completion - w.arrival)) * (1 + BOUND_RTOL)


def test_packing_breaks_the_plain_bound():
    """Two one-hour jobs on one GPU, packed at 0.9 of their rates, end at 1.11 h; alone they need 2 h."""
    w = replace(small_workload(0, jobs=(2, 2), types=(1, 1)), server_type=np.array([0]), server_gpus=np.array([1]),
                link_bandwidth=np.array([np.inf]), scale_factor=np.array([1, 1]), throughput=np.ones((2, 1)),
                steps=np.full(2, 3600.0), arrival=np.zeros(2))
    packed = 3600.0 / 0.9
    plain = makespan_lower_bound(w).value
    assert plain == pytest.approx(7200.0, rel=1e-9) and plain > packed
    assert makespan_lower_bound(w, packing=True).value <= packed


def test_gavels_pairs_never_run_a_job_faster_than_alone():
    """The assumption of packing=True, on Gavel's measured table (hetopt/tables/gavel_simulation_throughputs.json)."""
    import json
    from importlib.resources import files

    table = json.loads(files("hetopt.tables").joinpath("gavel_simulation_throughputs.json").read_text())
    checked = 0
    for g in table["gpu_types"]:
        single = table["single"][g]
        for i, k, a, b in table["pairs"][g]:
            if single[i] and single[k]:
                assert a <= single[i] * (1 + 1e-12) and b <= single[k] * (1 + 1e-12), (g, i, k)
                checked += 1
    assert checked > 1000


def test_single_rule_bounds_are_at_least_the_bottleneck_ones():
    for seed in range(10):
        w = small_workload(seed)
        single = completion_lower_bounds(w, gang_rule="single")
        assert np.all(single >= completion_lower_bounds(w, gang_rule="bottleneck"))


def test_per_job_bound_is_the_fastest_gang():
    for seed in range(20):
        w = small_workload(seed, types=(2, 3))
        for rule in ("bottleneck", "single"):
            expected = [w.arrival[j] + w.steps[j] / fastest_rate(w, j, rule) for j in range(w.n_jobs)]
            assert completion_lower_bounds(w, gang_rule=rule) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("rule", ["bottleneck", "single"])
def test_a_second_formulation_gives_the_same_optimum(rule):
    """Pyomo in seconds and GPU-seconds, solved by SCIP, on the same breakpoints."""
    for seed in range(6):
        w = small_workload(seed, jobs=(3, 5))
        span = makespan_lower_bound(w, gang_rule=rule)
        other = second_formulation(w, rule, span.info["breakpoints"], makespan=True)
        assert span.lp_objective == pytest.approx(other, rel=1e-6)
        assert span.lp <= other * (1 + BOUND_RTOL)
        jct = jct_lower_bound(w, gang_rule=rule)
        other = second_formulation(w, rule, jct.info["breakpoints"], makespan=False)
        assert jct.lp_objective == pytest.approx(other, rel=1e-6)
        assert jct.lp <= other * (1 + BOUND_RTOL)


def test_scipy_highs_gives_the_same_lp_optimum():
    """The arrays of (M) and (W) solved by scipy's linprog: the certified dual bound meets its optimum."""
    for seed in range(6):
        w = small_workload(seed, jobs=(4, 6))
        d = fluid.job_data(w, "bottleneck")
        span = makespan_lower_bound(w)
        lp = fluid.makespan_lp(d, (span.info["breakpoints"] - d.origin) / d.theta)
        up, lower = np.isfinite(lp.row_hi), np.isfinite(lp.row_lo)
        res = linprog(lp.c, A_ub=np.vstack([lp.A[up].toarray(), -lp.A[lower].toarray()]),
                      b_ub=np.concatenate([lp.row_hi[up], -lp.row_lo[lower]]),
                      bounds=list(zip(lp.col_lo, lp.col_hi, strict=True)), method="highs")
        assert res.status == 0
        assert d.origin + res.fun * d.theta == pytest.approx(span.lp, rel=1e-7)
        jct = jct_lower_bound(w)
        lp = fluid.jct_lp(d, (jct.info["breakpoints"] - d.origin) / d.theta, w.weight / w.weight.sum())
        eq = np.isfinite(lp.row_lo) & (lp.row_lo == lp.row_hi)
        up = np.isfinite(lp.row_hi) & ~eq
        lo = np.isfinite(lp.row_lo) & ~eq
        res = linprog(lp.c, A_ub=np.vstack([lp.A[up].toarray(), -lp.A[lo].toarray()]),
                      b_ub=np.concatenate([lp.row_hi[up], -lp.row_lo[lo]]), A_eq=lp.A[eq].toarray(), b_eq=lp.row_lo[eq],
                      bounds=list(zip(lp.col_lo, lp.col_hi, strict=True)), method="highs")
        assert res.status == 0
        assert res.fun * d.theta == pytest.approx(jct.lp, rel=1e-7)


@pytest.mark.parametrize("scale", [1e-6, 1e6])
def test_bounds_scale_with_the_data(scale):
    """Steps and times multiplied by ``scale``: the bounds are multiplied by it (the LPs are the same numbers)."""
    for seed in range(6):
        base, scaled = small_workload(seed), small_workload(seed, scale=scale)
        for f in (makespan_lower_bound, jct_lower_bound):
            a, b = f(base), f(scaled)
            assert b.certified
            assert b.value == pytest.approx(a.value * scale, rel=1e-9)


def test_bounds_at_large_magnitudes():
    """Steps of 1e7 and throughputs of 1e-3..1e3 on the same cluster: certified, below a greedy run."""
    rng = np.random.default_rng(7)
    for seed in range(4):
        w = small_workload(seed, jobs=(5, 6))
        T = np.where(w.throughput > 0, 10.0 ** rng.uniform(-3, 3, w.throughput.shape), 0.0)
        w = replace(w, throughput=T, steps=np.full(w.n_jobs, 1e7), arrival=w.arrival * 1e4)
        span, jct = makespan_lower_bound(w), jct_lower_bound(w)
        assert span.certified and jct.certified
        assert span.value >= span.per_job and jct.value >= jct.per_job
        run = random_run(w, seed, round_length=1e7)
        assert span.value <= run.makespan * (1 + BOUND_RTOL)
        assert jct.value <= run.average_jct * (1 + BOUND_RTOL)


def test_a_stopped_lp_gives_a_valid_uncertified_bound():
    w = small_workload(2, jobs=(6, 6))
    big = replace(w, arrival=np.zeros(w.n_jobs))
    full = jct_lower_bound(big, intervals=400)
    stopped = jct_lower_bound(big, intervals=400, time_limit=1e-4, horizon=1e5)
    if stopped.lp_status == "Optimal":
        pytest.skip("the LP finished within the limit")
    assert not stopped.certified
    assert stopped.per_job <= stopped.value <= full.value * (1 + BOUND_RTOL)


@pytest.mark.parametrize("kwargs", [{"gang_rule": "gang"}, {"intervals": 0}, {"time_limit": -1.0},
                                    {"weights": [1.0, 2.0]}, {"horizon": -5.0}, {"threads": 0},
                                    {"packing": 1}])
def test_bad_arguments(kwargs):
    w = small_workload(0)
    with pytest.raises(ArgumentError):
        (jct_lower_bound if "weights" in kwargs or "horizon" in kwargs else makespan_lower_bound)(w, **kwargs)
