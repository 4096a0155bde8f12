"""Contention's exact routes at every magnitude (issue 25): x1e6, x1e-6, 1e-10 beside 1, random magnitudes.

Every exact route (``exact`` / ``exact_cpsat``: CP-SAT, ``exact_milp``: the time-indexed MILP,
``contention_bound``: the contention-aware relaxation) either returns a schedule that passes the
checker with a bound at most the true optimum (brute force of ``tests.contention.brute``:
every start order of the tasks) and OPTIMAL only when the objective is that optimum, or refuses
with a named error (the MILP's slot grid: SizeLimitError).
"""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hetopt
from hetopt.api import load_instance
from hetopt.certify import Status
from hetopt.contention import (
    ContentionInstance,
    check_schedule,
    simulate,
    solve_contention_bound,
    solve_exact,
    tiny_instance,
)
from hetopt.contention.timescale import above
from hetopt.errors import InstanceError, SizeLimitError
from tests.contention.brute import brute_force_optimum, n_tasks

REL = 1e-9


def _scaled(inst: ContentionInstance, f: float) -> ContentionInstance:
    """Every time multiplied by f: arrivals, t_f, t_b, and a, b, eta (a + b sigma and eq. (5) scale too)."""
    return dataclasses.replace(inst, arrival=inst.arrival * f, t_f=inst.t_f * f, t_b=inst.t_b * f, a=inst.a * f,
                               b=inst.b * f, eta=inst.eta * f)


def _valid(inst, sol, optimum: float | None = None, *, contention_free: bool = True) -> None:
    """The schedule passes the checker; the bound is at most the optimum; OPTIMAL only at the optimum."""
    rep = check_schedule(inst, sol, max_concurrent=1 if contention_free else None)
    assert rep.ok, rep.violations[:3]
    assert rep.objective == pytest.approx(sol.objective, rel=1e-9)
    # at most the objective up to the float error of sum_k (F_k - A_k) (arrivals of 1e6 s lose 1e-10 s)
    assert sol.bound is not None and not above(sol.bound, sol.objective, inst, sol.finish)
    if optimum is not None:
        assert sol.bound <= optimum * (1 + REL)
        if contention_free:
            assert sol.objective >= optimum * (1 - REL)
        if sol.status is Status.OPTIMAL:
            assert sol.objective == pytest.approx(optimum, rel=1e-6)


# ---------------------------------------------------------------- the issue's case: 1e-10 beside 1
def _issue_instance() -> ContentionInstance:
    return ContentionInstance(n_servers=2, gpus_per_server=1, gpu_memory=16384.0, a=0.0, b=1.0, eta=0.5,
                              arrival=[0.0, 0.0], n_gpus=[1, 1], iterations=[2, 1], t_f=[1e-10, 1.0],
                              t_b=[1e-10, 1.0], model_size=[1.0, 1.0], memory=[1.0, 1.0])


# By hand: the jobs run on their own GPUs (one server each, no all-reduce), job 0 for 2 x 2e-10 s and
# job 1 for 2 s, so the optimum is 2 + 4e-10 = 2.0000000004 (also brute force, and SRSF(1)'s value).
ISSUE_OPTIMUM = 2.0000000004


@pytest.mark.parametrize("method", ["exact", "exact_cpsat", "contention_bound"])
def test_issue_case_tiny_task_beside_one_second(method):
    # before: exact / exact_cpsat raised InfeasibleError (1e-10 taken as a whole unit by an absolute
    # tolerance of 1e-6), contention_bound raised "bound 6.0 above ..."
    inst = _issue_instance()
    p = simulate(inst, "srsf1").placement
    assert brute_force_optimum(inst, p) == pytest.approx(ISSUE_OPTIMUM, rel=1e-12)
    sol = hetopt.solve(inst, method)
    assert sol.status is Status.OPTIMAL
    assert sol.objective == pytest.approx(ISSUE_OPTIMUM, rel=1e-12)
    _valid(inst, sol, ISSUE_OPTIMUM, contention_free=method != "contention_bound")
    assert sol.info["exact_scaling"] is False  # 1e-10 rounded down, certified on the true data


def test_issue_case_milp_refuses_the_grid_with_the_way_out():
    with pytest.raises(SizeLimitError, match=r"MILP_MAX_SLOTS.*engine='cpsat'"):
        hetopt.solve(_issue_instance(), "exact_milp")
    with pytest.raises(InstanceError, match=r"t_f\[0\] is 1e-10.*slot = 1"):
        solve_exact(_issue_instance(), engine="milp", slot=1.0)


def test_mixed_magnitudes_with_an_all_reduce():
    # a 1e-10 s job beside jobs of 1 s that share a server network: CP-SAT and the bound stay valid
    base = tiny_instance(seed=3, n_jobs=3)
    inst = dataclasses.replace(base, t_f=[1e-10, *base.t_f[1:]], t_b=[1e-10, *base.t_b[1:]])
    p = simulate(inst, "srsf1").placement
    opt = brute_force_optimum(inst, p, max_tasks=16) if n_tasks(inst, p) <= 16 else None
    sol = solve_exact(inst, placement=p)
    _valid(inst, sol, opt)
    bound = solve_contention_bound(inst, placement=p)
    _valid(inst, bound, None, contention_free=False)
    assert bound.bound <= sol.objective * (1 + REL)  # the contention-free optimum bounds the contention-aware one


def test_large_arrival_beside_short_jobs():
    # found by the long property test: an arrival of 1e6 s beside JCTs of 20 s; sum_k (F_k - A_k) loses
    # 4e-11 s in floats, which the certificate's sanity check must not take for a bound above the objective
    inst = ContentionInstance(n_servers=2, gpus_per_server=1, gpu_memory=100.0, a=0.0, b=1.0, eta=1.0,
                              arrival=[1e6, 0.0], n_gpus=[1, 1], iterations=[1, 1], t_f=[10 ** 1.25, 1.0],
                              t_b=[1.0, 1.0], model_size=[1.0, 1.0], memory=[1.0, 1.0])
    opt = 10 ** 1.25 + 1.0 + 2.0  # by hand: the jobs never meet on GPU 0
    for engine in ("cpsat", "milp"):
        try:
            sol = solve_exact(inst, placement=[[0], [0]], engine=engine)
        except SizeLimitError:
            assert engine == "milp"  # 10**1.25 has no common slot with 1 s
            continue
        assert sol.status is Status.OPTIMAL and sol.objective == pytest.approx(opt, rel=1e-9)
        _valid(inst, sol, opt)


def test_bound_against_a_simulated_schedule_feasible_within_tolerance():
    # found by the long property test: SRSF(2)'s event-driven schedule ends job 1 a few 1e-9 s early (feasible
    # within the checker's tolerance), so its total JCT sits 1.6e-8 below the optimum and the relaxation's
    # valid bound above it; the route raised "relaxation not valid" and now keeps min(bound, objective)
    inst = ContentionInstance(n_servers=2, gpus_per_server=1, gpu_memory=100.0, a=0.0, b=1.678445834763523e-4,
                              eta=22.383612018447558, arrival=[22.383612018447558, 0.0], n_gpus=[1, 1],
                              iterations=[2, 1], t_f=[1.02329299, 2.34557424e-09], t_b=[9.23120315e-08, 22.383612],
                              model_size=[0.316227766, 1.67844583e-04], memory=[1.0, 1.0])
    p = [[0], [0]]
    opt = brute_force_optimum(inst, p)
    sol = solve_contention_bound(inst, placement=p)
    _valid(inst, sol, None, contention_free=False)
    assert sol.bound <= opt * (1 + REL) and sol.objective == pytest.approx(opt, rel=1e-6)


def test_completion_cuts_exact_beyond_two_to_the_53():
    # found by the long property test: two all-reduces of 702,184 s on a shared network, 1e8 units; the
    # completion cut's right-hand side (squares of 1.4e8) was a float rounded up, which cut off the optimum:
    # CP-SAT's bound was 2106557.48 above the optimum 2106557.4755 (SolverError "certificate does not hold")
    inst = ContentionInstance(n_servers=2, gpus_per_server=1, gpu_memory=100.0, a=702184.3163360327,
                              b=0.1754976540471347, eta=1.0, arrival=[0.0, 0.0], n_gpus=[2, 2], iterations=[1, 1],
                              t_f=[0.22209802, 1.0], t_b=[320.30945939, 1.0000023], model_size=[1.0, 1.0],
                              memory=[1.0, 1.0])
    p = [[0, 1], [0, 1]]
    opt = brute_force_optimum(inst, p)  # by hand: job 1's all-reduce first, 702186.49 + 1404370.98
    sol = solve_exact(inst, placement=p)
    assert sol.status is Status.OPTIMAL and sol.objective == pytest.approx(opt, rel=1e-12)
    _valid(inst, sol, opt)
    _valid(inst, solve_contention_bound(inst, placement=p), None, contention_free=False)


def _cp_sat_wrong_infeasibility_instance():
    # found by the long property test (another hypothesis seed): 7 tasks, times rounded down to 1e-9 s
    return ContentionInstance(n_servers=2, gpus_per_server=1, gpu_memory=100.0, a=0.0, b=0.0015118456017763735,
                              eta=9685.676545228958, arrival=[0.0, 0.0], n_gpus=[2, 1], iterations=[1, 1],
                              t_f=[2.56414876e-06] * 2, t_b=[24.54871877] * 2, model_size=[9685.67655, 1.0],
                              memory=[1.0, 1.0])


def test_units_keep_cp_sat_reliable():
    # at 1e9 units CP-SAT (linearization_level 2) declared this feasible model INFEASIBLE for seeds 0, 2, 6, ...:
    # solve_exact raised InfeasibleError with no upper bound; the units are now capped at 1e8
    inst, p = _cp_sat_wrong_infeasibility_instance(), [[0, 1], [0]]
    opt = brute_force_optimum(inst, p)
    for seed in (0, 2, 6):
        sol = solve_exact(inst, placement=p, seed=seed)
        _valid(inst, sol, opt)
        assert "fallback" not in sol.info


def test_wrong_infeasibility_falls_back(monkeypatch):
    # the same model at 1e9 units: the SRSF(1) hint is a feasible point, so CP-SAT's INFEASIBLE is its failure;
    # the route solves again with linearization_level 1 and says so
    import functools

    import hetopt.contention.cpsat as cpsat
    from hetopt.contention.timescale import choose_scale

    monkeypatch.setattr(cpsat, "choose_scale", functools.partial(choose_scale, limit=10**9))
    inst, p = _cp_sat_wrong_infeasibility_instance(), [[0, 1], [0]]
    sol = solve_exact(inst, placement=p, seed=0)
    assert "linearization_level 1" in sol.info["fallback"]
    _valid(inst, sol, brute_force_optimum(inst, p))


# ---------------------------------------------------------------- x1e6 and x1e-6: the same problem
@pytest.mark.parametrize("factor", [1e6, 1e-6])
@pytest.mark.parametrize("seed", [0, 2])
@pytest.mark.parametrize("engine", ["cpsat", "milp"])
def test_contention_free_routes_are_scale_invariant(engine, seed, factor):
    inst = tiny_instance(seed=seed, n_jobs=3)
    p = simulate(inst, "srsf1").placement
    base = solve_exact(inst, placement=p, engine=engine)
    other = _scaled(inst, factor)
    sol = solve_exact(other, placement=p, engine=engine)
    assert base.status is sol.status is Status.OPTIMAL
    assert sol.objective == pytest.approx(base.objective * factor, rel=1e-9)
    assert sol.bound == pytest.approx(base.bound * factor, rel=1e-9)
    _valid(other, sol, brute_force_optimum(other, p, max_tasks=40) if n_tasks(other, p) <= 12 else None)


@pytest.mark.parametrize("factor", [1e6, 1e-6])
@pytest.mark.parametrize("name", ["wang2019_contention_beats_milp", "wang2019_authors_accounting_one_waiter"])
def test_contention_bound_is_scale_invariant(name, factor):
    inst = load_instance(name)
    p = simulate(inst, "srsf1").placement
    base = solve_contention_bound(inst, placement=p, search=False)
    other = _scaled(inst, factor)
    sol = solve_contention_bound(other, placement=p, search=False)
    assert sol.status is base.status
    assert sol.objective == pytest.approx(base.objective * factor, rel=1e-9)
    assert sol.bound == pytest.approx(base.bound * factor, rel=1e-6)
    _valid(other, sol, None, contention_free=False)


def test_checker_sees_violations_below_a_microsecond():
    # the checker's tolerance floor was 1 s x 1e-6: on an instance in units of 1e-7 s a backward pass that
    # starts 0.9 t_f before its forward pass ends passed as feasible
    inst = _scaled(tiny_instance(seed=0), 1e-7)
    sol = simulate(inst, "srsf1", record=True)
    assert check_schedule(inst, sol).ok
    i, r = next((i, r) for i, r in enumerate(sol.trace) if r.kind == "b")
    fwd = next(q for q in sol.trace if q.kind == "f" and (q.job, q.iteration, q.where) == (r.job, r.iteration, r.where))
    shift = 0.9 * (fwd.end - fwd.start)
    bad = list(sol.trace)
    bad[i] = r._replace(start=r.start - shift, end=r.end - shift)
    rep = check_schedule(inst, dataclasses.replace(sol, trace=tuple(bad)))
    assert any("before forward ends" in v for v in rep.violations)


# ---------------------------------------------------------------- random magnitudes against brute force
def _log_uniform(lo: float = 1e-9, hi: float = 1e6):
    return st.floats(math.log10(lo), math.log10(hi)).map(lambda e: float(10.0 ** e))


@st.composite
def _magnitude_instances(draw, max_tasks: int = 10):
    n_jobs = 2
    n_servers, gps = draw(st.sampled_from([(2, 1), (2, 2), (3, 1)]))
    total = n_servers * gps
    n_gpus = [draw(st.integers(1, min(2, total))) for _ in range(n_jobs)]
    iterations = [draw(st.integers(1, 2)) for _ in range(n_jobs)]
    arrival = [draw(st.one_of(st.just(0.0), _log_uniform())) for _ in range(n_jobs)]
    inst = ContentionInstance(
        n_servers=n_servers, gpus_per_server=gps, gpu_memory=100.0,
        a=draw(st.one_of(st.just(0.0), _log_uniform())), b=draw(_log_uniform()), eta=draw(_log_uniform()),
        arrival=arrival, n_gpus=n_gpus, iterations=iterations,
        t_f=[draw(_log_uniform()) for _ in range(n_jobs)], t_b=[draw(_log_uniform()) for _ in range(n_jobs)],
        model_size=[draw(_log_uniform()) for _ in range(n_jobs)], memory=[1.0] * n_jobs,
        description="random magnitudes")
    placement = simulate(inst, "srsf1").placement
    if n_tasks(inst, placement) > max_tasks:  # at most 2 x (2 x 2 + 1) = 10 tasks with one iteration each
        inst = dataclasses.replace(inst, iterations=[1] * n_jobs)
        placement = simulate(inst, "srsf1").placement
    return inst, placement


@settings(max_examples=25, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_magnitude_instances())
def test_cpsat_against_brute_force_at_random_magnitudes(case):
    inst, p = case
    opt = brute_force_optimum(inst, p, max_tasks=14)
    _valid(inst, solve_exact(inst, placement=p), opt)


@settings(max_examples=25, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_magnitude_instances())
def test_milp_against_brute_force_at_random_magnitudes(case):
    inst, p = case
    try:
        sol = solve_exact(inst, placement=p, engine="milp")
    except SizeLimitError as exc:  # random magnitudes rarely have a common slot: the named refusal
        assert "MILP_MAX_SLOTS" in str(exc) or "max_size" in str(exc)
        return
    _valid(inst, sol, brute_force_optimum(inst, p, max_tasks=14))


@settings(max_examples=15, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_magnitude_instances())
def test_contention_bound_against_brute_force_at_random_magnitudes(case):
    inst, p = case
    opt = brute_force_optimum(inst, p, max_tasks=14)  # the contention-free optimum: >= the contention-aware one
    sol = solve_contention_bound(inst, placement=p, search=False)
    _valid(inst, sol, None, contention_free=False)
    assert sol.bound <= opt * (1 + REL)


@pytest.mark.slow
@settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_magnitude_instances(max_tasks=12))
def test_every_exact_route_against_brute_force_long(case):
    inst, p = case
    opt = brute_force_optimum(inst, p, max_tasks=16)
    for engine in ("cpsat", "milp"):
        try:
            sol = solve_exact(inst, placement=p, engine=engine)
        except SizeLimitError:
            assert engine == "milp"
            continue
        _valid(inst, sol, opt)
    sol = solve_contention_bound(inst, placement=p)
    _valid(inst, sol, None, contention_free=False)
    assert sol.bound <= opt * (1 + REL)


def test_an_arrival_of_1e_9_seconds_is_not_merged_into_time_0():
    """Found by the MILP sweep: events within 1e-9 s of time 0 were one instant, so a job arriving at 1e-9 s
    started at 0 (the simulator's merge window was relative to max(1, t), an absolute floor)."""
    inst = ContentionInstance(n_servers=2, gpus_per_server=2, gpu_memory=100.0, a=0.0, b=5.596793177280688e-07,
                              eta=0.0008428381613549817, arrival=[1e-9, 0.0], n_gpus=[2, 1], iterations=[1, 1],
                              t_f=[2302.86609091, 10.0], t_b=[1.0, 1.0], model_size=[1.0, 1.0], memory=[1.0, 1.0])
    sim = simulate(inst, "srsf1", placement=[[2, 3], [0]], record=True)
    assert check_schedule(inst, sim, max_concurrent=1).ok
    assert min(r.start for r in sim.trace if r.job == 0) >= 1e-9
