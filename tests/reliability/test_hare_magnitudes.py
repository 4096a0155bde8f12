"""Hare's exact routes at every magnitude (issue 25): the true optimum or an honest status, never a wrong OPTIMAL.

Every exact route (CP-SAT, the big-M MILP with HiGHS and with SCIP, brute force) is compared with
an independent optimum: brute force over (assignment, order) pairs, or a hand computation.  A
result is accepted when its schedule passes the checker, its objective is at least the optimum,
its bound at most the optimum (relative ``1e-9``), and, when it says OPTIMAL, its objective is
the optimum within ``OPTIMAL_RTOL``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hetopt.certify import OPTIMAL_RTOL, Status
from hetopt.hare import HareInstance, brute_force, check_schedule, generate_instance, solve_exact
from hetopt.hare.exact import job_colgen_bound, time_indexed_bound
from hetopt.hare.exact.scaling import scaling

#: Relative slack of "objective >= optimum" and "bound <= optimum" (float evaluation only).
VALID_RTOL = 1e-9

ROUTES = {
    "exact": solve_exact,
    "cpsat": lambda inst: solve_exact(inst, engine="cpsat"),
    "milp_highs": lambda inst: solve_exact(inst, engine="milp"),
    "milp_scip": lambda inst: solve_exact(inst, solver="scip"),
    "brute_force": brute_force,
}


def _accept(inst: HareInstance, sol, optimum: float, route: str, *, optimal: bool = False) -> None:
    """The checks of the module docstring; ``optimal``: the route must also prove the optimum."""
    rep = check_schedule(inst, sol).raise_if_invalid()
    assert rep.objective == pytest.approx(sol.objective, rel=1e-9), route
    assert sol.objective >= optimum * (1 - VALID_RTOL), (route, sol.objective, optimum)
    assert sol.bound is not None, route
    assert sol.bound <= optimum * (1 + VALID_RTOL), (route, sol.status, sol.bound, optimum)
    if sol.status is Status.OPTIMAL:
        assert sol.objective <= optimum * (1 + OPTIMAL_RTOL), (route, sol.objective, optimum)
    if optimal:
        assert sol.status is Status.OPTIMAL, (route, sol.status, sol.objective, sol.bound, sol.message)


# ---------------------------------------------------------------- the issue's cases, optima by hand
ISSUE_CASES = {
    # job 1 first: C_1 = 2, C_0 = 3, so 1e-10 * 3 + 2 (job 0 first: 1e-10 + 3)
    "weight_1e-10": (dict(arrival=[0, 0], weight=[1e-10, 1], rounds=[1, 1], tasks_per_round=[1, 1],
                          compute_time=[[1], [2]], sync_time=[[0], [0]]), 2.0000000003),
    # Smith: job 0 (ratio 1.5e-7) first: 3e-7 * 2 + 1e-7 * 3 = 9e-7 (the other order 1e-6)
    "weights_3e-7_1e-7": (dict(arrival=[0, 0], weight=[3e-7, 1e-7], rounds=[1, 1], tasks_per_round=[1, 1],
                               compute_time=[[2], [1]], sync_time=[[0], [0]]), 9e-7),
    # job 0's two rounds of two 1e-9 tasks on both GPUs first (C_0 = 2e-9), then job 1: 2e-9 + 2
    "compute_1e-9": (dict(arrival=[0, 0], weight=[1, 1], rounds=[2, 1], tasks_per_round=[2, 2],
                          compute_time=[[1e-9, 1e-9], [1, 2]], sync_time=[[0, 0], [0, 0]]), 2.000000004),
    # Smith's order 2, 1, 0 (ratios 1.25e-7, 1e-7, 5e-8): C = 2, 3, 6: 2.5e-7 * 2 + 1e-7 * 3 + 1.5e-7 * 6
    "weights_1.5e-7_1e-7_2.5e-7": (dict(arrival=[0, 0, 0], weight=[1.5e-7, 1e-7, 2.5e-7], rounds=[1, 1, 1],
                                        tasks_per_round=[1, 1, 1], compute_time=[[3], [1], [2]],
                                        sync_time=[[0], [0], [0]]), 1.7e-6),
}


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("case", ISSUE_CASES)
def test_issue_cases_give_the_true_optimum(case, route):
    """Before: CP-SAT OPTIMAL 3.0000000001 (bound 4), 1e-6 (bound 4e-6), 4.000000001; HiGHS bounds 1e-6 and 2.5e-6."""
    data, optimum = ISSUE_CASES[case]
    inst = HareInstance(**data)
    assert brute_force(inst).objective == pytest.approx(optimum, rel=1e-12)
    sol = ROUTES[route](inst)
    _accept(inst, sol, optimum, route, optimal=True)
    assert sol.objective == pytest.approx(optimum, rel=1e-9)


def test_cpsat_scales_the_issue_cases_exactly():
    """The data's own decimals: weights x1e10 and x1e7, times x1e9, each exact within the integer range."""
    for case, (time_scale, weight_scale) in {"weight_1e-10": (1, 10**10), "weights_3e-7_1e-7": (1, 10**7),
                                             "compute_1e-9": (10**9, 1)}.items():
        sc = scaling(HareInstance(**ISSUE_CASES[case][0]))
        assert sc.exact and sc.allowance == 0 and (sc.time, sc.weight) == (time_scale, weight_scale), case


def test_rounding_mode_bound_is_valid_and_certified():
    """Seventeen significant digits next to 1e6: no exact scaling fits 2^62, the rounding mode certifies."""
    inst = HareInstance(arrival=[0, 0, 0.1234567890123], weight=[np.pi / 7, 1e-3 * np.e, 2.0],
                        rounds=[1, 2, 1], tasks_per_round=[1, 1, 2],
                        compute_time=[[1e6 / 3, 2e5 * np.sqrt(2)], [0.1 / 3, 0.2], [1.1, 3.3]],
                        sync_time=[[0, 1e-3 / 7], [0, 0], [0.5, 0.25]])
    sc = scaling(inst)
    assert not sc.exact and sc.allowance > 0
    opt = brute_force(inst).objective
    sol = solve_exact(inst, engine="cpsat")
    _accept(inst, sol, opt, "cpsat", optimal=True)


# ---------------------------------------------------------------- invariance x1e6, x1e-6, and mixed magnitudes
def _scaled(inst: HareInstance, times: float = 1.0, weights: float = 1.0) -> HareInstance:
    return dataclasses.replace(inst, arrival=inst.arrival * times, weight=inst.weight * weights,
                               compute_time=inst.compute_time * times, sync_time=inst.sync_time * times)


BASES = [generate_instance(seed=s, n_jobs=3, n_gpus=2, max_total_tasks=5, homogeneous=bool(s % 2)) for s in range(2)]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("times,weights", [(1e6, 1.0), (1e-6, 1.0), (1.0, 1e6), (1.0, 1e-6), (1e6, 1e-6),
                                           (1e-6, 1e6)])
def test_invariance_under_units(route, times, weights):
    """Times and weights x1e6 and x1e-6: the same optimum in the new units, proven by every route."""
    for base in BASES:
        opt = brute_force(base).objective * times * weights
        inst = _scaled(base, times, weights)
        sol = ROUTES[route](inst)
        _accept(inst, sol, opt, route, optimal=True)
        assert sol.objective == pytest.approx(opt, rel=OPTIMAL_RTOL)


def _mixed(base: HareInstance) -> HareInstance:
    """1e-10 next to 1: one weight x1e-10, one job's compute and sync times x1e-9, an arrival of 1e-9."""
    w, tc, ts, a = base.weight.copy(), base.compute_time.copy(), base.sync_time.copy(), base.arrival.copy()
    w[0] *= 1e-10
    tc[1] *= 1e-9
    ts[1] *= 1e-9
    a[-1] = 1e-9
    return dataclasses.replace(base, weight=w, compute_time=tc, sync_time=ts, arrival=a)


@pytest.mark.parametrize("route", ROUTES)
def test_mixed_magnitudes(route):
    """Data of 1e-10 next to 1 in one instance: every route against brute force."""
    for base in BASES:
        inst = _mixed(base)
        opt = brute_force(inst).objective
        _accept(inst, ROUTES[route](inst), opt, route, optimal=route != "milp_scip")


@pytest.mark.parametrize("times,weights", [(1e-6, 1.0), (1e6, 1e-6)])
def test_grid_bounds_stay_below_the_optimum_at_other_magnitudes(times, weights):
    """The time-indexed LP bound and the column-generation bound scale with the data and stay valid."""
    base = BASES[0]
    inst = _scaled(base, times, weights)
    opt = brute_force(inst).objective
    for b, b0 in ((time_indexed_bound(inst), time_indexed_bound(base)), (job_colgen_bound(inst), job_colgen_bound(base))):
        assert b.bound is not None and b.bound <= opt * (1 + VALID_RTOL)
        assert b.bound == pytest.approx(b0.bound * times * weights, rel=1e-3)


# ---------------------------------------------------------------- property test against brute force
def _log_uniform(lo: float, hi: float, digits: int | None) -> st.SearchStrategy[float]:
    """10^e for e uniform in [lo, hi]; rounded to ``digits`` significant digits when given."""
    def value(e: float) -> float:
        v = float(10.0 ** e)
        return v if digits is None else float(f"{v:.{digits - 1}e}")

    return st.floats(lo, hi, allow_nan=False).map(value)


@st.composite
def tiny_instances(draw: st.DrawFn, lo: float = -9.0, hi: float = 6.0, digits: int | None = None) -> HareInstance:
    """2-3 jobs, 1-2 GPUs, at most 5 tasks; every value log-uniform in 10^lo..10^hi, mixed within the instance."""
    n = draw(st.integers(2, 3))
    m = draw(st.integers(1, 2))
    rounds = [draw(st.integers(1, 2)) for _ in range(n)]
    tasks = [draw(st.integers(1, 2)) for _ in range(n)]
    while sum(r * k for r, k in zip(rounds, tasks, strict=True)) > 5:
        j = int(np.argmax([r * k for r, k in zip(rounds, tasks, strict=True)]))
        if rounds[j] > 1:
            rounds[j] -= 1
        else:
            tasks[j] -= 1
    value = _log_uniform(lo, hi, digits)
    maybe_zero = st.one_of(st.just(0.0), value)
    arrival = [0.0] + [draw(maybe_zero) for _ in range(n - 1)]
    weight = [draw(value) for _ in range(n)]
    tc = [[draw(value) for _ in range(m)] for _ in range(n)]
    ts = [[draw(maybe_zero) for _ in range(m)] for _ in range(n)]
    return HareInstance(arrival=arrival, weight=weight, rounds=rounds, tasks_per_round=tasks, compute_time=tc,
                        sync_time=ts)


def _property(inst: HareInstance, routes: tuple[str, ...]) -> None:
    assert inst.n_tasks <= 5
    opt = brute_force(inst).objective
    for route in routes:
        _accept(inst, ROUTES[route](inst), opt, route)


@settings(max_examples=12, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_instances())
def test_property_exact_routes_against_brute_force(inst):
    """Random magnitudes: every route's objective >= the optimum, bound <= it, OPTIMAL only at it."""
    _property(inst, ("exact", "cpsat", "milp_highs", "milp_scip"))


@pytest.mark.slow
@settings(max_examples=400, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_instances())
def test_property_exact_routes_against_brute_force_long(inst):
    """The same property on many more instances."""
    _property(inst, ("exact", "cpsat", "milp_highs", "milp_scip"))


@settings(max_examples=12, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_instances(-3.0, 3.0, digits=3))
def test_property_cpsat_certifies_decimal_data_at_mixed_magnitudes(inst):
    """Three significant digits from 1e-3 to 1e3: the exact scaling fits, so CP-SAT proves the optimum."""
    assert scaling(inst).exact
    opt = brute_force(inst).objective
    _accept(inst, ROUTES["cpsat"](inst), opt, "cpsat", optimal=True)


@pytest.mark.parametrize("times,weights", [(1e6, 1.0), (1e-6, 1.0), (1.0, 1e-6), (1e6, 1e-6)])
def test_relaxation_is_invariant_under_units(times, weights):
    """Hare_Sched_RL in other units: the same bound in them, the same x-hat order (Algorithm 1 unchanged)."""
    from hetopt.hare import schedule, solve_relaxation

    base = BASES[0]
    inst = _scaled(base, times, weights)
    a, b = solve_relaxation(base), solve_relaxation(inst)
    assert b.status is Status.OPTIMAL and b.bound == pytest.approx(a.bound * times * weights, rel=1e-6)
    assert schedule(inst, b).objective == pytest.approx(schedule(base, a).objective * times * weights, rel=1e-9)


def test_default_route_falls_back_to_the_milp_when_the_rounding_leaves_the_certificate_open():
    """Values spread over 15 orders of magnitude: CP-SAT's rounded model cannot certify; ``exact`` then runs
    the MILP in normalized floats and proves the brute-force optimum (``info["fallback"]``)."""
    inst = HareInstance(arrival=[0.0, 0.0], weight=[1e6, 1e-9], rounds=[1, 2], tasks_per_round=[2, 1],
                        compute_time=[[3.7e-9, 1e-9], [2e5 * np.pi, 1e6 / 7]], sync_time=[[0.0, 1e-9 / 3], [0.5, 0.0]])
    opt = brute_force(inst).objective
    cp = ROUTES["cpsat"](inst)
    _accept(inst, cp, opt, "cpsat")
    sol = solve_exact(inst)
    _accept(inst, sol, opt, "exact", optimal=True)
    assert cp.status is Status.FEASIBLE and not cp.info["exact_scaling"]  # rounded: 0.003986 against 0.002619
    assert "fallback" in sol.info and sol.info["cpsat_result"]["objective"] == cp.objective
