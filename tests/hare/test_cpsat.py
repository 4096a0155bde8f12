"""The CP-SAT engine against brute force, the big-M MILP and the bundled instances."""

import math

import numpy as np
import pytest

from hetopt.certify import Status
from hetopt.data import instance_path
from hetopt.errors import ArgumentError
from hetopt.hare import HareInstance, brute_force, check_schedule, generate_instance, solve_exact
from hetopt.hare.exact.scaling import scaled_instance, scaling

OBJ_RTOL = 1e-6


def _agree(a, b):
    """Same optimum, or one's bound below the other's incumbent (both ways)."""
    if a.status is Status.OPTIMAL and b.status is Status.OPTIMAL:
        assert a.objective == pytest.approx(b.objective, rel=OBJ_RTOL)
    assert a.bound <= b.objective * (1 + OBJ_RTOL)
    assert b.bound <= a.objective * (1 + OBJ_RTOL)


@pytest.mark.parametrize("seed", range(6))
def test_cpsat_matches_brute_force(seed):
    inst = generate_instance(seed=seed, n_jobs=3, n_gpus=2, max_total_tasks=5, homogeneous=bool(seed % 2))
    bf = brute_force(inst)
    cp = solve_exact(inst, engine="cpsat")
    assert cp.status is Status.OPTIMAL and cp.solver == "cpsat"
    assert check_schedule(inst, cp).objective == pytest.approx(bf.objective, rel=OBJ_RTOL)
    assert cp.bound == pytest.approx(bf.objective, rel=OBJ_RTOL)


@pytest.mark.parametrize("seed", range(4))
def test_cpsat_matches_milp_random(seed):
    inst = generate_instance(seed=seed, n_jobs=4, n_gpus=3, max_rounds=2, max_tasks=2, max_total_tasks=8)
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
    base = generate_instance(seed=1, n_jobs=3, n_gpus=2, max_total_tasks=5)
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
    inst = generate_instance(seed=0, n_jobs=2, n_gpus=2, max_total_tasks=3)
    with pytest.raises(ArgumentError, match="engine"):
        solve_exact(inst, engine="gurobi")
    with pytest.raises(ArgumentError, match="solver"):
        solve_exact(inst, solver="scip", engine="cpsat")
    assert solve_exact(inst, solver="highs").solver == "highs"
    assert solve_exact(inst).solver == "cpsat"


@pytest.mark.parametrize("seed", range(4))
def test_coarse_rounded_down_bound_is_valid(seed):
    """The coarse model's bound never exceeds the optimum; the solve stays exact with it."""
    inst = generate_instance(seed=seed, n_jobs=3, n_gpus=2, max_total_tasks=5, homogeneous=bool(seed % 2))
    bf = brute_force(inst)
    cp = solve_exact(inst, engine="cpsat")
    from hetopt.hare.exact.cpsat import solve_cpsat_exact

    co = solve_cpsat_exact(inst, coarse=True)
    assert co.info["coarse_time_scale"] < co.info["time_scale"]
    assert co.info["coarse_bound"] <= bf.objective * (1 + 1e-12)
    assert co.status is Status.OPTIMAL and co.objective == pytest.approx(bf.objective, rel=OBJ_RTOL)
    assert cp.objective == pytest.approx(co.objective, rel=OBJ_RTOL)


def test_engine_table_certifies_small_sizes():
    """The engine table: both engines certify 6 and 8 tasks (a time in each cell), optimum given."""
    from hetopt.hare.experiments.bench import engine_table

    t = engine_table((6, 8), 30.0)
    assert t.columns[:4] == ["tasks", "jobs", "cpsat [s]", "milp [s]"]
    assert len(t.rows) == 2
    for row in t.rows:
        assert isinstance(row[2], float) and isinstance(row[3], float) and row[4] > 0


def test_grid_table_bounds_below_the_certified_optimum():
    """The grid table at 8 tasks: the schedule is certified (and equals the MILP engine's optimum),
    every grid's bound lies below it, CP-SAT's own bound too; a step off the data's unit is refused."""
    from hetopt.hare.experiments.bench import bench_instance, grid_table

    t = grid_table((8,), (0.1, 0.05), 30.0)
    assert [r[2] for r in t.rows] == [0.1, 0.05]
    milp = solve_exact(bench_instance(8), engine="milp", time_limit=60)
    assert milp.status is Status.OPTIMAL
    for row in t.rows:
        bound, best, status, own = row[3], row[7], row[8], row[9]
        assert status == "optimal" and best == pytest.approx(milp.objective, rel=OBJ_RTOL)
        assert 0 < bound <= best * (1 + 1e-9) and own <= best * (1 + 1e-9)
    with pytest.raises(ValueError, match="steps"):
        grid_table((8,), (0.0001,), 1.0)
    for args, field in ((((1,), (0.1,), 1.0), "sizes"), ((("8",), (0.1,), 1.0), "sizes"),
                        (((8,), (-0.1,), 1.0), "steps"), (((8,), (0.1,), -1.0), "limit"),
                        (((8,), (0.1,), None), "limit")):
        with pytest.raises(ValueError, match=field):
            grid_table(*args)


def test_time_limit_is_never_optimal_and_bound_combines_lp(monkeypatch):
    """20 tasks, CP-SAT stopped by a deterministic limit (no wall-clock dependence): FEASIBLE, never
    OPTIMAL, with the larger of the LP and CP-SAT bounds; and a tiny wall-clock limit: TIME_LIMIT.

    The column-generation bound is computed once: without a time limit its stage would spend the rest
    of its 60 s budget on a grid twice as fine (LP_REFINE_FACTOR), which this test does not need (it
    took 53 s of the suite)."""
    from hetopt.hare.exact import cpsat
    from hetopt.hare.exact.cpsat import solve_cpsat_exact
    from hetopt.hare.experiments.bench import bench_instance

    monkeypatch.setattr(cpsat, "LP_REFINE_FACTOR", math.inf)
    inst = bench_instance(20)
    sol = solve_cpsat_exact(inst, options={"max_deterministic_time": 0.2})
    check_schedule(inst, sol).raise_if_invalid()
    assert sol.status is Status.FEASIBLE
    assert sol.info["lp_bound"] is not None and sol.bound >= sol.info["lp_bound"]
    assert sol.bound <= sol.objective
    assert sol.objective <= sol.info["hint_objective_scaled"] / (sol.info["time_scale"] * sol.info["weight_scale"]) * (1 + 1e-9)
    stopped = solve_cpsat_exact(inst, time_limit=0.5)
    assert stopped.status is Status.TIME_LIMIT and stopped.bound <= stopped.objective


@pytest.mark.parametrize("seed", range(3))
def test_identical_gpu_symmetry_and_cumulative_keep_the_optimum(seed):
    """Identical GPUs (homogeneous instance): relabelling symmetry breaking and the implied
    cumulative leave the optimum unchanged (brute force)."""
    from hetopt.hare.exact.cpsat import build_cpsat
    from hetopt.hare.exact.scaling import scaled_instance, scaling
    from hetopt.solvers import solve_cpsat

    inst = generate_instance(seed=seed, n_jobs=3, n_gpus=3, max_total_tasks=5, homogeneous=True)
    up = scaled_instance(inst, scaling(inst))
    bf = brute_force(up).objective
    for kw in ({"gpu_symmetry": True, "redundant": True}, {"gpu_symmetry": False, "redundant": False}):
        model, _ = build_cpsat(up, **kw)
        res = solve_cpsat(model)
        assert res.status is Status.OPTIMAL and res.objective == pytest.approx(bf, rel=1e-9)


def test_failing_stages_fall_back_with_the_reason(monkeypatch):
    """A column-generation master that fails: CP-SAT alone, the reason in info; CP-SAT that fails: the best
    cheap schedule with the trivial bound, FEASIBLE, the reason in info (issue 25: no exact route raises)."""
    import hetopt.hare.exact.cpsat as cpsat_mod
    from hetopt.errors import SolverError
    from hetopt.result import Solution

    inst = generate_instance(seed=0, n_jobs=3, n_gpus=2, max_total_tasks=5)
    opt = brute_force(inst).objective

    def broken_master(*args, **kwargs):
        raise SolverError("job-level master LP: HiGHS status Empty")

    monkeypatch.setattr(cpsat_mod, "job_colgen_bound", broken_master)
    sol = cpsat_mod.solve_cpsat_exact(inst, lp_bound=True)
    assert sol.status is Status.OPTIMAL and sol.objective == pytest.approx(opt, rel=1e-9)
    assert "HiGHS status Empty" in sol.info["lp_failure"]

    def broken_cpsat(model, **kwargs):
        return Solution(status=Status.ERROR, message="MODEL_INVALID: test", info={"values": None})

    monkeypatch.setattr(cpsat_mod, "solve_cpsat", broken_cpsat)
    sol = cpsat_mod.solve_cpsat_exact(inst)
    check_schedule(inst, sol).raise_if_invalid()
    assert sol.status is Status.FEASIBLE and "MODEL_INVALID" in sol.info["cpsat_failure"]
    assert sol.bound is not None and sol.bound <= opt <= sol.objective


def test_round_length_bound_by_hand():
    """K = 3 tasks, GPU times T^c = (1, 3), T^s = (0.5, 0): two on GPU 0 end at 2.5, the third on GPU 1 at 3,
    so 3 (all three on GPU 0: 3.5); the bound never cuts an optimum (brute force, with and without)."""
    from hetopt.hare.bounds import round_length_bound
    from hetopt.hare.exact.cpsat import solve_cpsat_exact

    inst = HareInstance(arrival=[0, 0], weight=[1, 1], rounds=[1, 2], tasks_per_round=[3, 1],
                        compute_time=[[1, 3], [2, 1]], sync_time=[[0.5, 0], [0, 0]])
    assert round_length_bound(inst).tolist() == [3.0, 1.0]
    opt = brute_force(inst).objective
    for rb in (True, False):
        assert solve_cpsat_exact(inst, round_bound=rb).objective == pytest.approx(opt, rel=1e-12)
