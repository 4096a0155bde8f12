"""The CP-SAT engine against brute force, the big-M MILP and the bundled instances."""

import numpy as np
import pytest

from hetopt.hare import HareInstance, brute_force, check_schedule, random_instance, solve_exact
from hetopt.hare.cpsat import scaled_instance, scaling
from hetopt.data import instance_path
from hetopt.result import Status

OBJ_RTOL = 1e-6


def _agree(a, b):
    """Same optimum, or one's bound below the other's incumbent (both ways)."""
    if a.status is Status.OPTIMAL and b.status is Status.OPTIMAL:
        assert a.objective == pytest.approx(b.objective, rel=OBJ_RTOL)
    assert a.bound <= b.objective * (1 + OBJ_RTOL)
    assert b.bound <= a.objective * (1 + OBJ_RTOL)


@pytest.mark.parametrize("seed", range(6))
def test_cpsat_matches_brute_force(seed):
    inst = random_instance(seed=seed, n_jobs=3, n_gpus=2, max_total_tasks=5, homogeneous=bool(seed % 2))
    bf = brute_force(inst)
    cp = solve_exact(inst, engine="cpsat")
    assert cp.status is Status.OPTIMAL and cp.solver == "cpsat"
    assert check_schedule(inst, cp).objective == pytest.approx(bf.objective, rel=OBJ_RTOL)
    assert cp.bound == pytest.approx(bf.objective, rel=OBJ_RTOL)


@pytest.mark.parametrize("seed", range(4))
def test_cpsat_matches_milp_random(seed):
    inst = random_instance(seed=seed, n_jobs=4, n_gpus=3, max_rounds=2, max_tasks=2, max_total_tasks=8)
    cp, milp = solve_exact(inst, engine="cpsat"), solve_exact(inst, engine="milp", time_limit=60)
    check_schedule(inst, cp).raise_if_invalid()
    check_schedule(inst, milp).raise_if_invalid()
    assert cp.status is Status.OPTIMAL
    _agree(cp, milp)


@pytest.mark.parametrize("stem", ["hare2022_fig1", "hare2022_theorem4_counterexample", "hare2022_theorem4_release_dates"])
def test_cpsat_matches_milp_bundled(stem):
    inst = HareInstance.from_json(str(instance_path(stem)))
    cp, milp = solve_exact(inst, engine="cpsat", time_limit=60), solve_exact(inst, engine="milp", time_limit=60)
    check_schedule(inst, cp).raise_if_invalid()
    check_schedule(inst, milp).raise_if_invalid()
    _agree(cp, milp)


def test_smith_rule_cpsat():
    """One GPU, one task per job, all arrive at 0: Smith's order (hand formula)."""
    p, w = np.array([3.0, 1.0, 4.0, 2.0]), np.array([1.0, 2.0, 3.0, 1.0])
    inst = HareInstance(arrival=np.zeros(4), weight=w, rounds=np.ones(4, int), tasks_per_round=np.ones(4, int),
                        compute_time=p[:, None], sync_time=np.zeros((4, 1)))
    order = np.argsort(-w / p, kind="stable")
    assert solve_exact(inst, engine="cpsat").objective == pytest.approx(float(np.sum(w[order] * np.cumsum(p[order]))))


def test_inexact_scaling_bound_is_valid():
    """Times with many decimals: rounded-up durations, a bound lowered by the rounding allowance."""
    base = random_instance(seed=1, n_jobs=3, n_gpus=2, max_total_tasks=5)
    rng = np.random.default_rng(0)
    inst = HareInstance(arrival=base.arrival + rng.uniform(0, 1e-4, 3) * (base.arrival > 0), weight=base.weight / 3,
                        rounds=base.rounds, tasks_per_round=base.tasks_per_round,
                        compute_time=base.compute_time * np.pi / 3, sync_time=base.sync_time * np.e / 2)
    sc = scaling(inst)
    assert not sc.exact_times and not sc.exact_weights and sc.chain_error == 1 + 2 * inst.n_tasks
    up = scaled_instance(inst, sc)
    assert np.all(up.compute_time >= inst.compute_time * sc.time)
    assert np.all(up.weight <= inst.weight * sc.weight)
    bf = brute_force(inst)
    cp = solve_exact(inst, engine="cpsat")
    check_schedule(inst, cp).raise_if_invalid()
    assert cp.info["rounding_allowance"] > 0
    assert cp.bound <= bf.objective * (1 + 1e-12)
    assert cp.objective == pytest.approx(bf.objective, rel=1e-5)


def test_engine_arguments():
    inst = random_instance(seed=0, n_jobs=2, n_gpus=2, max_total_tasks=3)
    with pytest.raises(ValueError, match="engine"):
        solve_exact(inst, engine="gurobi")
    with pytest.raises(ValueError, match="solver"):
        solve_exact(inst, "scip", engine="cpsat")
    assert solve_exact(inst, "highs").solver == "highs"
    assert solve_exact(inst).solver == "cpsat"


@pytest.mark.parametrize("seed", range(4))
def test_coarse_rounded_down_bound_is_valid(seed):
    """The coarse model's bound never exceeds the optimum; the solve stays exact with it."""
    inst = random_instance(seed=seed, n_jobs=3, n_gpus=2, max_total_tasks=5, homogeneous=bool(seed % 2))
    bf = brute_force(inst)
    cp = solve_exact(inst, engine="cpsat")
    from hetopt.hare.cpsat import solve_cpsat_exact

    co = solve_cpsat_exact(inst, coarse=True)
    assert co.info["coarse_time_scale"] < co.info["time_scale"]
    assert co.info["coarse_bound"] <= bf.objective * (1 + 1e-12)
    assert co.status is Status.OPTIMAL and co.objective == pytest.approx(bf.objective, rel=OBJ_RTOL)
    assert cp.objective == pytest.approx(co.objective, rel=OBJ_RTOL)


def test_engine_bench_quick_rows_agree():
    """The quick engine table: both engines certify each size, with the same optimum."""
    from hetopt.hare.commands import _engine_bench

    t = _engine_bench(quick=True)
    assert t.columns[:4] == ["tasks", "jobs", "engine", "status"]
    rows = [dict(zip(t.columns, r)) for r in t.rows]
    assert len(rows) == 6 and {r["engine"] for r in rows} == {"cpsat", "milp"}
    for a, b in zip(rows[::2], rows[1::2]):
        assert a["tasks"] == b["tasks"] and a["status"] == b["status"] == "optimal"
        assert a["objective"] == pytest.approx(b["objective"], rel=OBJ_RTOL)
