"""Alg. 1, the price functions (22)-(26) and Theorem 4."""

import math

import numpy as np
import pytest

from hetopt.data import instance_path
from hetopt.oasis import (OasisInstance, Prices, Usage, best_schedule, best_schedule_ilp, check_schedule, competitive_bound,
                          dorm, drf, estimated_bounds, fifo, fig5_setting, online, price, price_bounds, prices_from_usage,
                          rrh, solve_offline)
from hetopt.oasis.schedule import schedule_cost

from .conftest import tiny_instance

UTIL_TOL = 1e-7


def test_price_function_hits_L_at_zero_and_U_at_capacity():
    inst = fig5_setting(1)
    b = price_bounds(inst)
    zero = prices_from_usage(inst, b, Usage.empty(inst))
    assert np.allclose(zero.p, b.L1) and np.allclose(zero.q, b.L2)
    full = Usage(np.broadcast_to(inst.worker_capacity, (inst.horizon,) + inst.worker_capacity.shape).copy(),
                 np.broadcast_to(inst.ps_capacity, (inst.horizon,) + inst.ps_capacity.shape).copy())
    pf = prices_from_usage(inst, b, full)
    pos = inst.worker_capacity > 0
    assert np.allclose(pf.p[:, pos], np.broadcast_to(b.U1, pf.p.shape)[:, pos])
    # rising with allocation
    g = np.linspace(0, 1, 11)
    vals = price(b.log_L1, b.log_U1[1], g * 10.0, 10.0)
    assert np.all(np.diff(vals) > 0)


def test_full_resource_gives_non_positive_payoff():
    """Appendix A: a schedule using a server whose resource r is exhausted (price U_1^r) has
    payoff <= 0; a job with no free resource at all gets no schedule."""
    inst = fig5_setting(2)
    b = price_bounds(inst)
    i = int(np.argmax([inst.utility_of(j, int(inst.arrival[j])) for j in range(inst.n_jobs)]))
    res = best_schedule(inst, i, Prices.zeros(inst))
    assert res.schedule is not None
    used = Usage.empty(inst)
    r = int(np.argmax(inst.worker_demand[i] > 0))
    used.g[:, :, r] = inst.worker_capacity[None, :, r]  # resource r exhausted everywhere
    pr = prices_from_usage(inst, b, used)
    payoff = inst.utility_of(i, res.schedule.completion) - schedule_cost(inst, res.schedule, pr.p, pr.q)
    assert payoff <= UTIL_TOL
    assert best_schedule(inst, i, pr, used).schedule is None
    # the same with Alg. 1: every job arriving into a full cluster is rejected
    assert all(best_schedule(inst, j, pr, used).payoff <= 0 for j in range(inst.n_jobs) if inst.worker_demand[j, r] > 0)


def test_price_bounds_by_hand():
    """oasis2018_theorem4_violation: T = 3, one server of capacity (100, 100), w = s = (1, 1),
    workload E N m = 5 x 1 x 0.4 = 2: eta = 3 x 200 / (2 x 2) = 150, L = f(2) / (4 eta 2 x 2)
    = 1e-3 / 2400, U = f(ceil(2) - 1) / 1 = 10, alpha = ln(2.4e7)."""
    inst = OasisInstance.from_json(instance_path("oasis2018_theorem4_violation"))
    b = price_bounds(inst)
    assert b.eta1 == pytest.approx(150.0) and b.L1 == pytest.approx(1e-3 / 2400)
    assert np.allclose(b.U1, 10.0) and np.allclose(b.U2, 10.0)
    assert competitive_bound(inst) == pytest.approx(2 * math.log(2.4e7))


def test_theorem4_violated_on_shipped_instance():
    """Alg. 2's integer chunks finish the job in slot 3 (utility 1e-3) instead of slot 2
    (utility 10): OPT / OASiS = 1e4 > 2 alpha = 34.  With the exact oracle (27) OASiS is optimal."""
    inst = OasisInstance.from_json(instance_path("oasis2018_theorem4_violation"))
    on, off = online(inst), solve_offline(inst)
    assert on.admitted == (0,) and on.total_utility == pytest.approx(1e-3)
    assert off.total_utility / on.total_utility > competitive_bound(inst)
    assert online(inst, oracle=best_schedule_ilp).total_utility == pytest.approx(off.total_utility)


@pytest.mark.parametrize("seed", range(4))
def test_offline_dominates_online_and_baselines(seed):
    inst = tiny_instance(seed, n_jobs=4, horizon=5) if seed % 2 else fig5_setting(seed)
    off = solve_offline(inst)
    assert off.is_optimal and check_schedule(inst, off).ok
    for fn in (online, fifo, drf, rrh, dorm):
        s = fn(inst)
        rep = check_schedule(inst, s)
        assert rep.ok, (s.solver, rep.violations)
        assert s.total_utility <= off.total_utility + UTIL_TOL, s.solver
        assert s.bound is None


def test_online_outputs_and_payoffs():
    inst = fig5_setting(4)
    sol = online(inst)
    assert set(sol.payoffs) == set(range(inst.n_jobs))
    assert all((sol.payoffs[i] > 0) == (i in sol.admitted) for i in range(inst.n_jobs))
    for i in sol.admitted:
        s = sol.schedules[i]
        assert s.workers.shape == (inst.n_worker_servers, inst.horizon) and s.workers.dtype.kind == "i"
        assert sol.timeliness[i] == pytest.approx(s.completion - inst.arrival[i] - inst.utility[i].gamma3)
    assert online(inst).total_utility == sol.total_utility  # deterministic


def test_estimated_bounds():
    inst = fig5_setting(5)
    exact = price_bounds(inst)
    est = estimated_bounds(inst, 0.5)
    used = exact.log_U1 > exact.log_L1
    assert np.allclose((est.log_U1 - est.log_L1)[used], (exact.log_U1 - exact.log_L1)[used] + math.log(0.5))
    assert check_schedule(inst, online(inst, 0.5)).ok
    with pytest.raises(ValueError):
        estimated_bounds(inst, -1.0)


def test_fig3_claim_fails_on_shipped_instance():
    """Finding (models/oasis2018.md): OASiS is beaten by DRF on this Section V-A instance; its
    rejected jobs found no capacity left at all (reservations made at near-zero prices)."""
    inst = OasisInstance.from_json(instance_path("oasis2018_drf_beats_oasis"))
    on, fair = online(inst), drf(inst)
    assert check_schedule(inst, on).ok and check_schedule(inst, fair).ok
    assert fair.total_utility > on.total_utility
    rejected = [i for i in range(inst.n_jobs) if i not in on.admitted]
    assert all(on.payoffs[i] == -math.inf for i in rejected)
