"""Fast paths of OASiS cross-checked against the Pyomo models: the array-built offline MILP (with
and without the valid inequalities), exact DP pricing of (27), the in-place column-generation master."""

import dataclasses

import numpy as np
import pytest

from hetopt.oasis import (
    OasisInstance,
    Prices,
    Usage,
    best_schedule_ilp,
    build_primal,
    check_schedule,
    generate_instance,
    lp_bound,
    solve_exact,
)
from hetopt.oasis.arrays import CUTS, build_offline_arrays
from hetopt.oasis.pricing import JobPricer
from hetopt.solvers import solve_model

from .conftest import tiny_instance

OBJ_RTOL = 1e-6


def _small(seed):
    return generate_instance(n_jobs=4, horizon=5, n_worker_servers=3, n_ps_servers=3, seed=seed, resources=("gpu", "cpu", "bandwidth"), epochs_range=(1, 3),
                             chunks_range=(2, 6), minibatches_range=(10, 30))


@pytest.mark.parametrize("seed", range(4))
def test_arrays_engine_matches_pyomo_model(seed):
    inst = tiny_instance(seed, n_jobs=3, horizon=4, servers=2) if seed % 2 else _small(seed)
    ref = solve_exact(inst, engine="pyomo")
    assert ref.is_optimal
    for tighten in (False, True):
        for warm in (False, True):
            s = solve_exact(inst, engine="arrays", tighten=tighten, warm_start=warm)
            assert s.solver == "offline-arrays"
            assert s.is_optimal and check_schedule(inst, s).ok
            assert s.total_utility == pytest.approx(ref.total_utility, rel=OBJ_RTOL, abs=1e-9)


def test_each_cut_alone_keeps_the_optimum():
    inst = tiny_instance(5, n_jobs=4, horizon=5, servers=2)
    ref = solve_exact(inst, engine="pyomo").total_utility
    for cut in CUTS:
        assert solve_exact(inst, engine="arrays", tighten=(cut,)).total_utility == pytest.approx(ref, rel=OBJ_RTOL, abs=1e-9)


def test_arrays_lp_relaxation_equals_pyomo_and_cuts_only_tighten():
    from hetopt.oasis import compact_lp_bound
    from hetopt.solvers import solve_milp

    inst = _small(7)
    lp = compact_lp_bound(inst)
    assert lp == pytest.approx(compact_lp_bound(inst, engine="pyomo"), rel=OBJ_RTOL)
    arr = build_offline_arrays(inst, tighten=True)
    tight = solve_milp(arr.c, sense="max", A_ub=arr.A_ub, b_ub=arr.b_ub, A_eq=arr.A_eq, b_eq=arr.b_eq, lb=arr.lb, ub=arr.ub)
    assert tight.objective <= lp + 1e-7
    assert tight.objective >= solve_exact(inst).total_utility - 1e-7


def test_identical_servers_get_symmetry_rows():
    inst = tiny_instance(3, n_jobs=2, horizon=3, servers=2)
    d = inst.to_dict()
    d["worker_capacity"] = [d["worker_capacity"][0]] * 3
    inst = OasisInstance.from_dict(d)
    arr = build_offline_arrays(inst, tighten=("V5",))
    assert arr.rows["worker_symmetry"] == 2
    assert solve_exact(inst, engine="arrays", tighten=("V5",)).total_utility == pytest.approx(solve_exact(inst, engine="pyomo").total_utility,
                                                                              rel=OBJ_RTOL, abs=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_dp_pricing_equals_ilp_oracle(seed):
    inst = tiny_instance(seed, n_jobs=3, horizon=5, servers=2) if seed % 2 else _small(seed)
    rng = np.random.default_rng(seed)
    for i in range(inst.n_jobs):
        for scale in (0.0, 0.3, 3.0):
            pr = Prices(rng.uniform(0, scale, (inst.horizon, inst.n_worker_servers, inst.n_resources)),
                        rng.uniform(0, scale, (inst.horizon, inst.n_ps_servers, inst.n_resources)))
            dp = JobPricer(inst, i).price(pr.p, pr.q)
            ilp = best_schedule_ilp(inst, i, pr, Usage.empty(inst))
            if ilp.schedule is None:
                assert dp.schedule is None
                continue
            assert dp.payoff == pytest.approx(ilp.payoff, rel=OBJ_RTOL, abs=1e-7)
            assert check_schedule(inst, {i: dp.schedule}).ok


@pytest.mark.parametrize("seed", range(3))
def test_colgen_arrays_converges_to_the_pyomo_master_value(seed):
    inst = tiny_instance(seed, n_jobs=4, horizon=5, servers=2)
    lb = lp_bound(inst, max_iterations=500, time_limit=None, compact=False)
    assert lb.converged
    # the restricted master's value, recomputed by the Pyomo primal over the generated columns
    m = build_primal(inst, lb.columns, relax=True)
    assert solve_model(m, threads=1).objective == pytest.approx(lb.lp_value, rel=OBJ_RTOL, abs=1e-7)
    assert lb.bound == pytest.approx(lb.lp_value, rel=1e-5, abs=1e-6)
    opt = solve_exact(inst).total_utility
    assert lb.bound >= opt - 1e-7
    old = lp_bound(inst, engine="pyomo", max_iterations=60)
    # both engines bound the same LP: each certified bound is above the other's master value
    assert old.bound >= lb.lp_value - 1e-6 and lb.bound >= old.lp_value - 1e-6


def test_colgen_stopped_early_still_bounds_the_optimum():
    inst = tiny_instance(4, n_jobs=4, horizon=5, servers=2)
    lb = lp_bound(inst, max_iterations=1, compact=False)
    assert lb.bound >= solve_exact(inst).total_utility - 1e-7 and lb.iterations == 1


def test_scaling_invariance():
    """Resource units scaled by 1e4 and utilities by 1e-3 (coefficients over seven orders of magnitude):
    the same schedules stay optimal, the optimum scales by 1e-3, the LP bound likewise."""
    inst = _small(3)
    d = inst.to_dict()
    for key in ("worker_capacity", "ps_capacity", "worker_demand", "ps_demand"):
        a = np.asarray(d[key], float)
        a[:, :-1] *= 1e4  # not the bandwidth column (it sets transfer times)
        d[key] = a.tolist()
    scaled = OasisInstance.from_dict(d)
    scaled = dataclasses.replace(scaled, utility=[dataclasses.replace(u, gamma1=u.gamma1 * 1e-3) for u in scaled.utility])
    a, b = solve_exact(inst), solve_exact(scaled)
    assert a.is_optimal and b.is_optimal
    assert b.total_utility == pytest.approx(a.total_utility * 1e-3, rel=OBJ_RTOL)
    la, lb_ = lp_bound(inst, time_limit=None, compact=False), lp_bound(scaled, time_limit=None, compact=False)
    assert lb_.bound == pytest.approx(la.bound * 1e-3, rel=1e-5)
