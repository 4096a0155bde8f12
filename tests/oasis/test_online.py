"""Alg. 1, the price functions (22)-(26) and Theorem 4."""

import math

import numpy as np
import pytest

from hetopt.data import instance_path
from hetopt.errors import ArgumentError
from hetopt.oasis import (
    POLICIES,
    OasisInstance,
    OasisPolicy,
    Prices,
    Usage,
    best_schedule,
    best_schedule_ilp,
    check_schedule,
    competitive_bound,
    estimated_bounds,
    fig5_setting,
    price,
    price_bounds,
    prices_from_usage,
    simulate,
    solve_exact,
)
from hetopt.oasis.schedule import schedule_cost

from .conftest import tiny_instance

UTIL_TOL = 1e-7


def test_price_function_hits_L_at_zero_and_U_at_capacity():
    inst = fig5_setting(seed=1)
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
    inst = fig5_setting(seed=2)
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
    on, off = simulate(inst, "oasis"), solve_exact(inst)
    assert on.admitted == (0,) and on.total_utility == pytest.approx(1e-3)
    assert off.total_utility / on.total_utility > competitive_bound(inst)
    assert simulate(inst, "oasis", options={"oracle": best_schedule_ilp}).total_utility == pytest.approx(off.total_utility)


@pytest.mark.parametrize("seed", range(4))
def test_offline_dominates_online_and_baselines(seed):
    inst = tiny_instance(seed, n_jobs=4, horizon=5) if seed % 2 else fig5_setting(seed=seed)
    off = solve_exact(inst)
    assert off.is_optimal and check_schedule(inst, off).ok
    for name in POLICIES:
        s = simulate(inst, name)
        rep = check_schedule(inst, s)
        assert rep.ok, (s.solver, rep.violations)
        assert s.total_utility <= off.total_utility + UTIL_TOL, s.solver
        assert s.bound is None


def test_online_outputs_and_payoffs():
    inst = fig5_setting(seed=4)
    sol = simulate(inst, "oasis")
    assert set(sol.payoffs) == set(range(inst.n_jobs))
    assert all((sol.payoffs[i] > 0) == (i in sol.admitted) for i in range(inst.n_jobs))
    for i in sol.admitted:
        s = sol.schedules[i]
        assert s.workers.shape == (inst.n_worker_servers, inst.horizon) and s.workers.dtype.kind == "i"
        assert sol.timeliness[i] == pytest.approx(s.completion - inst.arrival[i] - inst.utility[i].gamma3)
    assert simulate(inst, OasisPolicy(inst)).total_utility == sol.total_utility  # deterministic
    assert sorted(sol.info["unfinished"]) == sorted(set(range(inst.n_jobs)) - set(sol.admitted))  # the rejected jobs
    assert set(sol.info) >= {"bounds", "alpha", "alpha_used", "decision_time", "usage", "events"}


def test_estimated_bounds():
    inst = fig5_setting(seed=5)
    exact = price_bounds(inst)
    est = estimated_bounds(inst, 0.5)
    used = exact.log_U1 > exact.log_L1
    assert np.allclose((est.log_U1 - est.log_L1)[used], (exact.log_U1 - exact.log_L1)[used] + math.log(0.5))
    assert check_schedule(inst, simulate(inst, "oasis", options={"estimates": 0.5})).ok
    with pytest.raises(ValueError):
        estimated_bounds(inst, -1.0)


def test_log_L_of_the_shipped_fig3_instance_matches_eq25_by_hand():
    """(25) recomputed from the sigmoid parameters (not through the package's utilities): on the
    Section V-A instance ln L1 is in the hundreds below zero, so prices (22) are negligible until a
    server is nearly full; the cap option raises L to max_r U^r / e^cap and keeps U."""
    inst = OasisInstance.from_json(instance_path("oasis2018_drf_beats_oasis"))
    T, a = inst.horizon, inst.arrival
    m = inst.minibatches * (inst.minibatch_time + 2 * inst.gradient_size / inst.worker_demand[:, -1])
    work = np.ceil(inst.epochs * inst.chunks * m - 1e-9)
    slots = np.ceil(inst.epochs * m - 1e-9)
    ok = slots - 1 <= T - a  # jobs that can finish by T
    sw = inst.worker_demand.sum(axis=1)
    g1 = np.array([u.gamma1 for u in inst.utility])
    g2 = np.array([u.gamma2 for u in inst.utility])
    g3 = np.array([u.gamma3 for u in inst.utility])
    log_f_T = np.log(g1) - np.logaddexp(0.0, g2 * ((T - a) - g3))
    eta = max(1.0, float(np.max(T * inst.worker_capacity.sum() / (work[ok] * sw[ok]))))
    log_L1 = float(np.min(log_f_T[ok] - np.log(work[ok] * sw[ok]))) - math.log(4 * eta)
    b = price_bounds(inst)
    assert b.log_L1 == pytest.approx(log_L1, rel=1e-12)
    assert b.log_L1 < -200  # T = 100: L1 ~ 1e-214, representable; prices still negligible below ~95% use
    capped = price_bounds(inst, log_ratio_cap=15.0)
    assert np.max(capped.log_U1) == pytest.approx(np.max(b.log_U1))
    assert capped.log_L1 == pytest.approx(np.max(b.log_U1) - 15.0)
    assert np.all(capped.log_U1 >= capped.log_L1) and np.all(capped.log_U2 >= capped.log_L2)
    assert np.max(capped.log_U1 - capped.log_L1) <= 15.0 + 1e-12 and np.max(capped.log_U2 - capped.log_L2) <= 15.0 + 1e-12


def test_simulate_refuses_bad_policies_and_options():
    inst = fig5_setting(seed=0)
    with pytest.raises(ArgumentError, match="policy is 'nope'; expected one of oasis, fifo"):
        simulate(inst, "nope")
    with pytest.raises(ArgumentError, match="takes no option 'time_limit'; its options are: workers, seed"):
        simulate(inst, "fifo", options={"time_limit": 3})
    with pytest.raises(ArgumentError, match="apply to a policy name"):
        simulate(inst, OasisPolicy(inst), options={"log_ratio_cap": 15.0})
    with pytest.raises(ArgumentError, match="another instance"):
        simulate(fig5_setting(seed=1), OasisPolicy(inst))
    with pytest.raises(ArgumentError, match="expected one of oasis"):
        simulate(inst, object())
    with pytest.raises(ArgumentError, match="options is"):
        simulate(inst, "oasis", options=[("log_ratio_cap", 15.0)])
    with pytest.raises(ArgumentError, match="expects a OasisInstance"):
        simulate(None, "oasis")
    with pytest.raises(ArgumentError, match="estimates"):
        OasisPolicy(inst, "high")


def test_reserved_schedules_run_as_reserved():
    """A reservation runs slot by slot and completes in its last slot with a worker, whatever the work left."""
    inst = OasisInstance.from_json(instance_path("oasis2018_theorem4_in_premise"))

    class Reserve:
        name = "reserve"

        def __call__(self, cl, t, arrived, completed):
            for i in arrived:
                y = np.zeros((inst.n_worker_servers, inst.horizon), dtype=int)
                z = np.zeros((inst.n_ps_servers, inst.horizon), dtype=int)
                y[0, t - 1:t + 3], z[0, t - 1:t + 3] = 10, 10  # 4 slots of 10 workers: 40 >= 30 worker-slots
                cl.reserve(i, y, z)
                with pytest.raises(ArgumentError, match="already"):
                    cl.reserve(i, y, z)

    sol = simulate(inst, Reserve())
    assert sol.schedules[0].completion == 4 and check_schedule(inst, sol).ok
    assert sol.total_utility == pytest.approx(inst.utility_of(0, 4))
