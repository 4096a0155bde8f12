"""OASiS's exact routes at every magnitude (issue 25): brute force, invariance, underflow.

Every exact route (``solve_exact`` with the plan, arrays, Pyomo/HiGHS and Pyomo/SCIP engines) must
give the brute-force optimum of ``tests/oasis/brute.py`` (every schedule combination) with a bound
at or above it, and ``lp_bound`` / ``compact_lp_bound`` a bound at or above it, whatever the
magnitudes: utilities from 1e-300 to 1e6, a job worth 1e-10 of another, sigmoids whose tail
underflows, resources and bandwidths of 1e-9 next to 1.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hetopt.certify import OPTIMAL_RTOL, Status
from hetopt.oasis import (
    OasisInstance,
    SigmoidUtility,
    TabulatedUtility,
    check_schedule,
    compact_lp_bound,
    lp_bound,
    solve_exact,
)
from tests.oasis.brute import brute_force, well_posed
from tests.oasis.conftest import tiny_instance

#: The exact routes of solve_exact.
ROUTES = {
    "plan": {"engine": "plan"},
    "arrays": {"engine": "arrays"},
    "arrays+cuts": {"engine": "arrays", "tighten": True},
    "pyomo-highs": {"engine": "pyomo"},
    "pyomo-scip": {"engine": "pyomo", "solver": "scip"},
}
REL = 1e-6


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= REL * max(abs(a), abs(b)) or a == b


def _check_route(inst: OasisInstance, name: str, opt: float):
    sol = solve_exact(inst, **ROUTES[name])
    rep = check_schedule(inst, sol)
    assert rep.ok, (name, rep.violations)
    assert sol.is_optimal, (name, sol.status, sol.info)
    assert _close(sol.total_utility, opt), (name, sol.total_utility, opt)
    assert sol.bound >= opt * (1 - REL), (name, sol.bound, opt)
    return sol


def _check_bounds(inst: OasisInstance, opt: float, *, engines=("arrays", "pyomo")) -> None:
    for engine in engines:
        lb = lp_bound(inst, engine=engine, time_limit=None, max_iterations=200)
        assert lb.bound >= opt * (1 - REL), (engine, lb.bound, opt)
    assert compact_lp_bound(inst) >= opt * (1 - REL)


def _utilities(inst: OasisInstance, factors) -> OasisInstance:
    """Each job's utility times ``factors[i]`` (a table, so any factor is exact up to one rounding)."""
    utils = [TabulatedUtility(inst.utility_table(i) * f, target=inst.utility[i].target) for i, f in enumerate(factors)]
    return dataclasses.replace(inst, utility=utils)


def _resources(inst: OasisInstance, scale: float, bandwidth: float = 1.0) -> OasisInstance:
    """Every amount of resource times ``scale``, bandwidths (and gradient sizes, so transfer times stay) times ``bandwidth``."""
    d = inst.to_dict()
    bw = inst.bandwidth_index
    for key in ("worker_capacity", "ps_capacity", "worker_demand", "ps_demand"):
        a = np.asarray(d[key], float)
        f = np.full(a.shape[1], scale)
        f[bw] = bandwidth
        d[key] = (a * f).tolist()
    d["gradient_size"] = (np.asarray(d["gradient_size"]) * bandwidth).tolist()
    return OasisInstance.from_dict(d)


def _busy(seed: int) -> OasisInstance:
    """A tiny instance (H = K = 1) in which jobs fit and compete (seeds chosen for it)."""
    return tiny_instance(seed, n_jobs=3, horizon=3, servers=1)


SEEDS = (2, 3, 5)


@pytest.mark.parametrize("seed", SEEDS)
def test_brute_force_instances_are_contested(seed):
    inst = _busy(seed)
    assert brute_force(inst) > 0


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("factor", [1e6, 1e-6])
def test_utility_scaling_invariance_every_route(seed, factor):
    """x1e6 and x1e-6 utilities: the same schedules, the objective and the bound scaled."""
    inst = _busy(seed)
    scaled = _utilities(inst, [factor] * inst.n_jobs)
    opt = brute_force(inst)
    assert _close(brute_force(scaled), opt * factor)
    for name in ROUTES:
        a = _check_route(inst, name, opt)
        b = _check_route(scaled, name, opt * factor)
        assert {i: s.completion for i, s in a.schedules.items()} == {i: s.completion for i, s in b.schedules.items()}, name
        assert _close(b.bound, a.bound * factor), name
    la = lp_bound(inst, time_limit=None, max_iterations=200)
    lb = lp_bound(scaled, time_limit=None, max_iterations=200)
    assert lb.bound == pytest.approx(la.bound * factor, rel=1e-5)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("tiny", [1e-10, 1e-300])
def test_mixed_utility_magnitudes_every_route(seed, tiny):
    """A job worth 1e-10 (or 1e-300) of the others: the optimum within OPTIMAL_RTOL, a valid bound."""
    inst = _utilities(_busy(seed), [tiny, 1.0, 1.0])
    opt = brute_force(inst)
    for name in ROUTES:
        _check_route(inst, name, opt)
    _check_bounds(inst, opt)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("level", [1e-300, 1e6])
def test_whole_instance_at_extreme_utilities(seed, level):
    """Every utility at 1e-300 (HiGHS used to read the costs as 0 and report OPTIMAL 0, or raise) or 1e6."""
    inst = _utilities(_busy(seed), [level] * 3)
    opt = brute_force(inst)
    assert opt > 0
    for name in ROUTES:
        _check_route(inst, name, opt)
    _check_bounds(inst, opt)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("scale, bandwidth", [(1e-9, 1.0), (1.0, 1e-9), (1e9, 1e9), (1e-9, 1e6)])
def test_resource_and_bandwidth_magnitudes_every_route(seed, scale, bandwidth):
    """Capacities and demands at 1e-9 or 1e9, bandwidths at 1e-9: the checker, the brute force and every route agree.

    Before issue 25 bandwidths of 1e-9 let every route run workers without parameter servers (the
    absolute tolerance 1e-6 of the checker and of HiGHS covered b_i y <= B_i z): OPTIMAL 13.68 or 26.87 where
    the optimum is 9.21 or 22.69.
    """
    base = _busy(seed)
    inst = _resources(base, scale, bandwidth)
    opt = brute_force(inst)
    assert _close(opt, brute_force(base))
    for name in ROUTES:
        _check_route(inst, name, opt)
    _check_bounds(inst, opt, engines=("arrays",))


def test_sigmoid_tail_below_double_range():
    """A time-critical sigmoid that underflows where the job can complete is worth 0, another job 1e-300."""
    base = _busy(3)
    utils = list(base.utility)
    utils[0] = SigmoidUtility(1.0, 6.0, -130.0)  # f(d) = 1 / (1 + e^{6 (d + 130)}) < 1e-300 for every d >= 0
    utils[1] = SigmoidUtility(1e-300, 0.0, 1.0)
    inst = dataclasses.replace(base, utility=utils)
    assert inst.utility_of(0, inst.horizon) == 0.0
    opt = brute_force(inst)
    for name in ROUTES:
        _check_route(inst, name, opt)
    _check_bounds(inst, opt, engines=("arrays",))


def test_ps_ratio_far_below_one_needs_a_parameter_server():
    """b_i / B_i = 1e-12: one parameter server still serves the job's workers, and no worker runs without one."""
    inst = _busy(2)
    d = inst.to_dict()
    bw = inst.bandwidth_index
    for i in range(inst.n_jobs):
        d["ps_demand"][i][bw] = d["worker_demand"][i][bw] * 1e12
    d["ps_capacity"] = [[c if r != bw else 1e13 for r, c in enumerate(row)] for row in d["ps_capacity"]]
    inst = OasisInstance.from_dict(d)
    opt = brute_force(inst)
    for name in ROUTES:
        sol = _check_route(inst, name, opt)
        for s in sol.schedules.values():
            assert np.all((s.workers.sum(axis=0) == 0) | (s.ps.sum(axis=0) >= 1))


# ----------------------------------------------------------------------------- property test

def _log_uniform(draw, lo: float = -9.0, hi: float = 6.0) -> float:
    return float(10.0 ** draw(st.floats(lo, hi)))


@st.composite
def magnitude_instances(draw):
    """2-3 jobs, T <= 4 (3 with 3 jobs), H = K = 1, values log-uniform in 1e-9..1e6, mixed in one instance."""
    n = draw(st.integers(2, 3))
    T = draw(st.integers(2, 4 if n == 2 else 3))
    m_cpu = _log_uniform(draw)
    units = st.sampled_from([0.5, 1.0, 1.5, 2.0])
    wcap = [m_cpu * draw(st.sampled_from([2.0, 3.0, 4.0])), 0.0]
    pcap = [m_cpu * draw(st.sampled_from([2.0, 3.0, 4.0])), 0.0]
    wd, sd, util = [], [], []
    for _ in range(n):
        own = draw(st.booleans())  # this job's demand at its own magnitude (usually far above or below the server's)
        wd.append([_log_uniform(draw) if own else m_cpu * draw(units), 0.0])
        sd.append([m_cpu * draw(units), 0.0])
        b = _log_uniform(draw)
        B = b * draw(st.sampled_from([1.0, 1.5, 2.0, 3.0, 1e3, 1e12]))
        wd[-1][1], sd[-1][1] = b, B
        g1 = _log_uniform(draw)
        if draw(st.booleans()):
            util.append(SigmoidUtility(g1, draw(st.sampled_from([0.0, 0.5, 2.0, 6.0])), draw(st.floats(0.0, 3.0))))
        else:
            steps = [draw(st.sampled_from([1.0, 0.9, 0.5, 1e-3, 1e-9, 0.0])) for _ in range(T)]
            util.append(TabulatedUtility(g1 * np.cumprod([1.0, *steps[:-1]])))
    wcap[1] = max(r[1] for r in wd) * draw(st.sampled_from([1.0, 2.0, 4.0]))
    pcap[1] = max(r[1] for r in sd) * draw(st.sampled_from([1.0, 2.0, 4.0]))
    return OasisInstance(
        horizon=T, worker_capacity=[wcap], ps_capacity=[pcap],
        arrival=[draw(st.integers(1, max(1, T // 2))) for _ in range(n)],
        epochs=[draw(st.integers(1, 2)) for _ in range(n)], chunks=[draw(st.integers(1, 3)) for _ in range(n)],
        minibatches=[1] * n, minibatch_time=[draw(st.sampled_from([0.25, 0.5, 1.0, 1.5])) for _ in range(n)],
        gradient_size=[0.0] * n, worker_demand=wd, ps_demand=sd, utility=util, resource_names=("cpu", "bandwidth"))


def _property(inst: OasisInstance) -> None:
    # a job using ~1e-6 of a full server's capacity has no optimum to the solvers' precision (1e-6): skipped
    assume(well_posed(inst))
    opt = brute_force(inst)
    for name in ROUTES:
        _check_route(inst, name, opt)
    lb = lp_bound(inst, time_limit=None, max_iterations=200)
    assert lb.bound >= opt * (1 - REL), (lb.bound, opt)
    assert compact_lp_bound(inst) >= opt * (1 - REL)


@settings(max_examples=30, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(magnitude_instances())
def test_every_route_equals_brute_force_at_random_magnitudes(inst):
    _property(inst)


@pytest.mark.slow
@settings(max_examples=600, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(magnitude_instances())
def test_every_route_equals_brute_force_at_random_magnitudes_long(inst):
    _property(inst)


def test_optimal_means_bound_meets_objective_on_true_data():
    """The status check: a route never returns OPTIMAL with a bound below its objective or off by > OPTIMAL_RTOL."""
    inst = _utilities(_busy(5), [1e-300, 1e-300, 1e-300])
    for name in ROUTES:
        sol = solve_exact(inst, **ROUTES[name])
        assert sol.status is Status.OPTIMAL
        assert sol.bound >= sol.objective and (sol.bound - sol.objective) <= OPTIMAL_RTOL * sol.bound
        assert math.isfinite(sol.bound)
