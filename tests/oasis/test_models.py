"""The offline MILP (1)-(13) and the schedule LPs (14)-(20), cross-checked."""

import itertools

import numpy as np
import pytest

from hetopt.data import instance_path
from hetopt.oasis import (
    OasisInstance,
    Prices,
    build_dual,
    build_offline,
    build_primal,
    check_schedule,
    schedules_by_end,
    solve_exact,
)
from hetopt.solvers import solve_model
from hetopt.testing import check_card

from .conftest import tiny_instance

OBJ_RTOL = 1e-6
CARD = __file__.rsplit("/tests/", 1)[0] + "/models/oasis2018.md"


def brute_force(inst):
    """max sum f_i over admitted jobs by enumerating worker and PS counts (one server of each kind)."""
    assert inst.n_worker_servers == 1 and inst.n_ps_servers == 1
    T = inst.horizon
    per_job = []
    for i in range(inst.n_jobs):
        a, N = int(inst.arrival[i]), int(inst.chunks[i])
        opts = [(0, 0)] + [(w, z) for w in range(1, N + 1) for z in range(1, w + 1)
                           if w * inst.worker_bandwidth[i] <= z * inst.ps_bandwidth[i] + 1e-9]
        plans = [None]  # not admitted
        for combo in itertools.product(opts, repeat=T - a + 1):
            ws = [c[0] for c in combo]
            if sum(ws) < inst.workload[i] - 1e-9:
                continue
            last = max(t for t, w in enumerate(ws) if w > 0)
            plans.append((a, combo, inst.utility_of(i, a + last)))
        per_job.append(plans)
    best = 0.0
    for choice in itertools.product(*per_job):
        gw = np.zeros((T, inst.n_resources))
        gp = np.zeros((T, inst.n_resources))
        util = 0.0
        for i, plan in enumerate(choice):
            if plan is None:
                continue
            a, combo, u = plan
            for k, (w, z) in enumerate(combo):
                gw[a - 1 + k] += w * inst.worker_demand[i]
                gp[a - 1 + k] += z * inst.ps_demand[i]
            util += u
        if np.all(gw <= inst.worker_capacity[0] + 1e-9) and np.all(gp <= inst.ps_capacity[0] + 1e-9):
            best = max(best, util)
    return best


@pytest.mark.parametrize("seed", range(6))
def test_offline_milp_equals_brute_force(seed):
    inst = tiny_instance(seed, n_jobs=2, horizon=3, servers=1)
    sol = solve_exact(inst)
    assert sol.is_optimal and check_schedule(inst, sol).ok
    assert sol.total_utility == pytest.approx(brute_force(inst), rel=OBJ_RTOL, abs=1e-9)


def test_offline_known_answers():
    """Hand-derived: 2.0 worker-slots at 1 worker per slot finish in slot 2: f(1) = 10 and 8."""
    for name, opt in (("oasis2018_theorem4_violation", 10.0), ("oasis2018_theorem1_counterexample", 8.0)):
        inst = OasisInstance.from_json(instance_path(name))
        sol = solve_exact(inst)
        assert sol.is_optimal and sol.total_utility == pytest.approx(opt)
        assert sol.schedules[0].completion == 2


def test_offline_extracted_schedules_match_solver_objective():
    inst = tiny_instance(11, n_jobs=4, horizon=5, servers=2)
    sol = solve_exact(inst)
    rep = check_schedule(inst, sol)
    assert rep.ok, rep.violations
    assert sol.info["solver_objective"] == pytest.approx(sol.total_utility, rel=OBJ_RTOL, abs=1e-9)


def _columns(inst, seed):
    rng = np.random.default_rng(seed)
    cols = {}
    for i in range(inst.n_jobs):
        p = Prices(rng.uniform(0, 2, (inst.horizon, inst.n_worker_servers, inst.n_resources)),
                   rng.uniform(0, 2, (inst.horizon, inst.n_ps_servers, inst.n_resources)))
        cols[i] = [r.schedule for r in schedules_by_end(inst, i, p)] + [r.schedule for r in schedules_by_end(inst, i, Prices.zeros(inst))]
    return {i: c for i, c in cols.items() if c}


@pytest.mark.parametrize("seed", range(6))
def test_strong_duality_of_schedule_lps(seed):
    inst = tiny_instance(seed, n_jobs=4, horizon=5)
    cols = _columns(inst, seed)
    primal, dual = build_primal(inst, cols, relax=True), build_dual(inst, cols)
    sp, sd = solve_model(primal, threads=1), solve_model(dual, threads=1)
    assert sp.objective == pytest.approx(sd.objective, rel=OBJ_RTOL, abs=1e-7)
    # the integer program over the same schedules is feasible for (1) and below the optimum
    ip = build_primal(inst, cols)
    si = solve_model(ip, threads=1)
    assert si.objective <= sp.objective + 1e-7
    assert si.objective <= solve_exact(inst).total_utility + 1e-7


def test_card_components():
    inst = tiny_instance(2, n_jobs=3, horizon=4)
    cols = _columns(inst, 2)
    from hetopt.oasis import Usage, build_oracle

    n = check_card(CARD, {"build_offline": build_offline(inst), "build_primal": build_primal(inst, cols),
                          "build_dual": build_dual(inst, cols),
                          "build_oracle": build_oracle(inst, 0, Prices.zeros(inst), Usage.empty(inst))})
    assert n >= 20


def test_offline_scip_agrees_with_highs():
    inst = tiny_instance(8, n_jobs=3, horizon=4)
    a, b = solve_exact(inst), solve_exact(inst, solver="scip")
    assert a.is_optimal and b.is_optimal
    assert a.total_utility == pytest.approx(b.total_utility, rel=OBJ_RTOL, abs=1e-9)
