"""solve_exact: the certified minimum makespan (a feasible allocation and a dual bound that meet).

Expected values come from scipy's linprog on Gavel's equations written independently
(``hetopt.gavel.experiments.checks.makespan_lp_hours``) or from hand derivations.
"""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hetopt
from hetopt.certify import OPTIMAL_RTOL, Status
from hetopt.data import list_instances, load_json
from hetopt.errors import ArgumentError
from hetopt.gavel import (
    GavelAllocation,
    GavelInstance,
    allocate,
    certify_min_total_duration,
    check_schedule,
    dual_makespan_bound,
    feasible_allocation,
    generate_instance,
    makespan_of,
    solve_exact,
    solve_min_total_duration,
)
from hetopt.gavel import makespan as makespan_mod
from hetopt.gavel.experiments.checks import makespan_lp_hours
from hetopt.result import Solution

GAVEL_STEMS = [s for s in list_instances() if s.startswith("gavel2020_")]


def _reference(inst):
    return makespan_lp_hours(inst.effective_throughput(), inst.scale_factor, inst.capacity, inst.total_steps)


def test_hand_example_one_job_per_gpu():
    # three one-GPU jobs of 3600 steps at 1 step/s on 3 GPUs: each runs alone on a GPU, 3600 s; no job can be
    # faster than 3600 s (its fastest rate is 1 step/s), so 3600 s is optimal.
    sol = solve_exact(hetopt.load_instance("gavel2020_three_jobs"))
    assert sol.status is Status.OPTIMAL
    assert sol.objective == pytest.approx(3600.0, rel=1e-9) and sol.bound == pytest.approx(3600.0, rel=1e-9)


def test_two_jobs_time_share_one_gpu():
    # one GPU; J0 runs 1 step/s, J1 2 steps/s, 2 steps each: with time fractions x0 + x1 <= 1 and x0 M >= 2,
    # 2 x1 M >= 2, the makespan is M >= 2 / 1 + 2 / 2 = 3 s, reached by x = (2/3, 1/3).
    inst = GavelInstance(["gpu"], [1], ["A", "B"], [1, 1], [2.0, 2.0], [0.0, 0.0], [[1.0], [2.0]])
    sol = solve_exact(inst)
    assert sol.status is Status.OPTIMAL and sol.objective == pytest.approx(3.0, rel=1e-9)
    np.testing.assert_allclose(sol.allocation, [[2 / 3], [1 / 3]], rtol=1e-6)
    assert sol.bound <= sol.objective and sol.gap <= OPTIMAL_RTOL


@pytest.mark.parametrize("stem", GAVEL_STEMS)
def test_bundled_instances_match_an_independent_lp_and_their_expected_value(stem):
    inst = hetopt.load_instance(stem)
    sol = solve_exact(inst)
    assert sol.status is Status.OPTIMAL
    ref = _reference(inst)
    assert sol.objective == pytest.approx(ref, rel=1e-6) and sol.bound == pytest.approx(ref, rel=1e-6)
    assert load_json(stem)["expected"]["exact"] == pytest.approx(sol.objective, rel=1e-9)
    assert check_schedule(inst, sol).ok


def test_certificate_is_valid_whatever_the_solver_says():
    """The bound comes from multipliers checked here: any nonnegative multipliers give a bound below the optimum."""
    inst = hetopt.load_instance("gavel2020_static8")
    T, s, c, steps = inst.effective_throughput(), inst.scale_factor, inst.capacity, inst.total_steps
    opt = _reference(inst)
    rng = np.random.default_rng(0)
    for _ in range(50):
        lam, nu = rng.exponential(size=inst.n_jobs), rng.exponential(size=inst.n_types) * rng.integers(0, 2, 3)
        assert dual_makespan_bound(T, s, c, steps, lam, nu) <= opt * (1 + 1e-12)
    assert dual_makespan_bound(T, s, c, steps, np.zeros(inst.n_jobs), np.zeros(inst.n_types)) == 0.0


def test_feasible_allocation_only_shrinks_and_meets_the_constraints():
    rng = np.random.default_rng(3)
    for _ in range(20):
        X = rng.uniform(-0.01, 1.0, size=(5, 3))
        s, c = rng.integers(1, 4, size=5), rng.integers(1, 4, size=3)
        Y = feasible_allocation(X, s, c)
        assert np.all(Y >= 0) and np.all(Y <= np.clip(X, 0, None) + 1e-15)
        assert np.all(Y.sum(axis=1) <= 1) and np.all(s @ Y <= c)


@settings(derandomize=True, deadline=None, max_examples=15)
@given(st.integers(1, 6), st.integers(1, 3), st.integers(0, 10_000))
def test_random_lps_are_certified_and_agree_with_scipy(J, R, seed):
    rng = np.random.default_rng(seed)
    T = rng.uniform(0.1, 50.0, size=(J, R)) * (rng.random((J, R)) < 0.7)
    T[np.arange(J), rng.integers(R, size=J)] = rng.uniform(0.1, 50.0, size=J)
    s = rng.choice([1, 2], size=J)
    c = rng.integers(2, 5, size=R)
    steps = 10 ** rng.uniform(0, 7, size=J)
    cert = certify_min_total_duration(T, s, c, steps)
    assert cert.status is Status.OPTIMAL and cert.gap <= OPTIMAL_RTOL
    assert cert.lower_bound <= cert.makespan
    assert cert.makespan == pytest.approx(makespan_lp_hours(T, s, c, steps), rel=1e-6)
    assert makespan_of(cert.allocation, T, steps) == cert.makespan
    assert np.all(cert.allocation >= 0) and np.all(cert.allocation.sum(axis=1) <= 1) and np.all(s @ cert.allocation <= c)


def test_agrees_with_the_policy_and_the_min_total_duration_method():
    inst = hetopt.load_instance("gavel2020_workload12")
    sol = solve_exact(inst)
    r = solve_min_total_duration(inst.effective_throughput(), inst.scale_factor, inst.capacity, inst.total_steps)
    assert sol.objective == pytest.approx(r.makespan, rel=1e-9)
    method = allocate(inst, "min_total_duration")  # Gavel's bisection: within its 5 % bracket of the optimum
    assert method.status is Status.FEASIBLE and sol.objective * (1 - 1e-9) <= method.objective <= 1.05 * sol.objective
    assert hetopt.solve(inst).objective == pytest.approx(sol.objective, rel=1e-12)  # the kind's default method


def _stopped(problem, solver="HIGHS", **options):
    """A solve stopped by the time limit before any allocation or dual came back."""
    return Solution(status=Status.TIME_LIMIT, solver="highs", message="user_limit")


def test_time_limit_gives_an_incumbent_and_a_proven_bound(monkeypatch):
    inst = hetopt.load_instance("gavel2020_static8")
    monkeypatch.setattr(makespan_mod, "solve_problem", _stopped)
    sol = solve_exact(inst, time_limit=1.0)
    assert sol.status is Status.TIME_LIMIT
    opt = _reference(inst)
    assert sol.bound <= opt * (1 + 1e-12) <= sol.objective * (1 + 1e-12)  # a true bracket of the optimum
    assert np.isfinite(sol.objective) and sol.gap > OPTIMAL_RTOL
    assert check_schedule(inst, sol).ok  # the fallback allocation (isolated equal share) is feasible


def test_time_limit_is_passed_to_the_solver(monkeypatch):
    seen = []
    real = makespan_mod.solve_problem

    def spy(problem, solver="HIGHS", **options):
        seen.append(options.get("time_limit"))
        return real(problem, solver, **options)

    monkeypatch.setattr(makespan_mod, "solve_problem", spy)
    solve_exact(hetopt.load_instance("gavel2020_three_jobs"), time_limit=30)
    assert seen and 0 < seen[0] <= 30
    seen.clear()
    solve_exact(hetopt.load_instance("gavel2020_three_jobs"))
    assert seen == [None]


@pytest.mark.parametrize("bad", [0, -1.0, "10", True, float("nan")])
def test_bad_time_limit_is_an_argument_error(bad):
    with pytest.raises(ArgumentError, match="time_limit"):
        solve_exact(hetopt.load_instance("gavel2020_three_jobs"), time_limit=bad)


def test_not_an_instance_is_an_argument_error():
    with pytest.raises(ArgumentError, match="GavelInstance"):
        solve_exact(load_json("gavel2020_three_jobs"))
    with pytest.raises(ArgumentError, match="policy"):
        allocate(hetopt.load_instance("gavel2020_three_jobs"), "srtf")


def test_allocation_round_trip_and_summary():
    inst = hetopt.load_instance("gavel2020_static8")
    for sol in (solve_exact(inst), allocate(inst, "max_min_fairness"), allocate(inst, "fifo")):
        again = GavelAllocation.from_dict(json.loads(json.dumps(sol.to_dict())))
        assert again == sol and again.to_dict() == sol.to_dict()
        assert again.allocation.dtype == float and again.allocation.shape == (inst.n_jobs, inst.n_types)
        summary = sol.summary()
        assert summary["policy"] == sol.policy and summary["status"] == sol.status.value
        json.dumps(summary, allow_nan=False)
    assert solve_exact(inst) != allocate(inst, "max_min_fairness")


def test_checker_names_broken_allocations():
    inst = hetopt.load_instance("gavel2020_static8")
    sol = solve_exact(inst)
    assert check_schedule(inst, sol).ok
    X = sol.allocation.copy()
    X[0, 0] += 1.0  # job 0 over all of its time, type 0 over its GPUs
    from dataclasses import replace

    bad = check_schedule(inst, replace(sol, allocation=X))
    assert any(v.startswith("(G2)") for v in bad.violations) and any(v.startswith("(G3)") for v in bad.violations)
    lie = check_schedule(inst, replace(sol, status=Status.FEASIBLE, objective=sol.objective * 0.9, bound=None, gap=None))
    assert any("reported makespan" in v for v in lie.violations)
    low = check_schedule(inst, replace(sol, status=Status.FEASIBLE, bound=sol.objective * 1.5, gap=None))
    assert any("below the reported lower bound" in v for v in low.violations)
    with pytest.raises(ArgumentError, match="sol"):
        check_schedule(inst, object())


def test_example_instances_are_solved_exactly():
    for seed in range(3):
        inst = hetopt.registry.get_kind("gavel").example(seed=seed, size=1)
        sol = solve_exact(inst, time_limit=60)
        assert sol.status is Status.OPTIMAL and check_schedule(inst, sol).ok
        assert sol.objective == pytest.approx(_reference(inst), rel=1e-6)


def test_generate_instance_arguments_are_checked():
    with pytest.raises(ArgumentError, match="n_jobs"):
        generate_instance(n_jobs=0, seed=0)
    with pytest.raises(ArgumentError, match="seed"):
        generate_instance(n_jobs=3, seed=-1)
    with pytest.raises(ArgumentError, match="jobs_per_hour"):
        generate_instance(n_jobs=3, seed=0, jobs_per_hour=-1.0)
    with pytest.raises(ArgumentError, match="capacity"):
        generate_instance(n_jobs=3, seed=0, capacity=(2, 2))
    with pytest.raises(ArgumentError, match="capacity"):
        generate_instance(n_jobs=3, seed=0, capacity=(0, 0, 0))
    with pytest.raises(ArgumentError, match="multi_gpu"):
        generate_instance(n_jobs=3, seed=0, multi_gpu=1)
    with pytest.raises(TypeError):
        generate_instance(3, seed=0)  # every parameter is keyword-only
    gen = np.random.default_rng(4)
    assert generate_instance(n_jobs=3, seed=gen).n_jobs == 3
