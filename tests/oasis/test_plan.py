"""The plan-first route (hetopt.oasis.plan) cross-checked against the Pyomo model's optima."""

import dataclasses

import numpy as np
import pytest

from hetopt import Status
from hetopt.oasis import check_schedule, generate_instance, solve_exact
from hetopt.oasis import plan as plan_mod
from hetopt.oasis.arrays import build_offline_arrays

from .conftest import tiny_instance

OBJ_RTOL = 1e-6


def _small(seed, n_jobs=5):
    return generate_instance(n_jobs=n_jobs, horizon=5, n_worker_servers=3, n_ps_servers=3, seed=seed, resources=("gpu", "cpu", "bandwidth"), epochs_range=(1, 3),
                             chunks_range=(2, 6), minibatches_range=(10, 30))


def _instances():
    for seed in range(4):
        yield tiny_instance(seed, n_jobs=4, horizon=5, servers=2)
    for seed in range(4):
        yield _small(10 + seed, n_jobs=6)


@pytest.mark.parametrize("k", range(8))
def test_plan_engine_matches_pyomo_and_its_bound_holds(k):
    inst = list(_instances())[k]
    ref = solve_exact(inst, engine="pyomo")
    assert ref.is_optimal
    s = solve_exact(inst, engine="plan")
    assert s.solver == "offline-plan" and s.is_optimal and check_schedule(inst, s).ok
    assert s.total_utility == pytest.approx(ref.total_utility, rel=OBJ_RTOL, abs=1e-9)
    # the plan relaxation bounds the optimum from above
    rel = plan_mod.plan_relaxation(inst, build_offline_arrays(inst, tighten=True), time_limit=None, threads=1)
    assert rel.bound >= ref.total_utility - 1e-7 * max(1.0, abs(ref.total_utility))
    assert s.bound >= s.total_utility - 1e-9


def test_wrong_plan_falls_back_to_the_full_milp(monkeypatch):
    """A plan that admits no job cannot reach the bound: the full MILP must still find the optimum."""
    inst = _small(21, n_jobs=6)
    ref = solve_exact(inst, engine="pyomo")
    real = plan_mod.plan_relaxation

    def empty_plan(inst_, arr, **kw):
        sol = real(inst_, arr, **kw)
        x = sol.info["x"].copy()
        x[arr.x_off:arr.x_off + inst_.n_jobs] = 0.0
        return dataclasses.replace(sol, info={**sol.info, "x": x})

    monkeypatch.setattr(plan_mod, "plan_relaxation", empty_plan)
    s = solve_exact(inst, engine="plan")
    assert ref.total_utility > 0
    assert s.info["route"] == "plan relaxation + full MILP"
    assert s.is_optimal and s.total_utility == pytest.approx(ref.total_utility, rel=OBJ_RTOL)


def test_time_limited_plan_route_is_not_called_optimal_without_proof():
    inst = generate_instance(n_jobs=12, horizon=8, n_worker_servers=6, n_ps_servers=6, seed=3, resources=("gpu", "cpu", "bandwidth"), epochs_range=(5, 20))
    s = solve_exact(inst, engine="plan", time_limit=0.05)
    assert check_schedule(inst, s).ok
    if s.status is Status.OPTIMAL:  # only with a schedule at a proven bound
        assert s.bound is not None and s.total_utility >= s.bound * (1 - 1e-6)
    else:
        assert s.status in (Status.TIME_LIMIT, Status.FEASIBLE)
    assert s.bound is None or s.bound >= s.total_utility - 1e-9


def test_unknown_engine_names_the_choices():
    with pytest.raises(ValueError, match="plan"):
        solve_exact(tiny_instance(0, n_jobs=2, horizon=3, servers=2), engine="nope")
    assert np.isfinite(solve_exact(tiny_instance(0, n_jobs=2, horizon=3, servers=2), engine="plan").total_utility)


@pytest.mark.slow
def test_plan_route_certifies_the_hard_30_job_seed():
    """bench_instance(30, seed=2): the seed the Pyomo model did not prove within 60 s.  1183.0630567
    is the Pyomo model's certified optimum from an unlimited run (93 s), an independent route."""
    from hetopt.oasis.experiments.bench import bench_instance

    inst = bench_instance(30, seed=2)
    s = solve_exact(inst, engine="plan")
    assert s.is_optimal and check_schedule(inst, s).ok
    assert s.total_utility == pytest.approx(1183.0630567396709, rel=1e-7)
    assert s.info["plan_bound"] >= s.total_utility * (1 - 1e-9)


def test_options_that_do_not_apply_are_errors():
    inst = tiny_instance(0)
    with pytest.raises(ValueError, match="runs on HiGHS"):
        solve_exact(inst, engine="plan", solver="scip")
    with pytest.raises(ValueError, match="runs on HiGHS"):
        solve_exact(inst, engine="arrays", solver="scip")
    with pytest.raises(ValueError, match="mip_gap does not apply"):
        solve_exact(inst, engine="plan", mip_gap=0.01)
    with pytest.raises(ValueError, match="tighten applies"):
        solve_exact(inst, engine="pyomo", tighten=True)


@pytest.mark.parametrize("engine", ["plan", "arrays", "pyomo"])
def test_node_limit_reaches_every_highs_milp_of_the_route(monkeypatch, engine):
    """solve_exact(node_limit=N) hands mip_max_nodes = N to each HiGHS MILP (a deterministic limit), none by default."""
    import hetopt.oasis.offline as offline_mod

    seen = []
    real_milp, real_model = plan_mod.solve_milp, offline_mod.solve_model

    def milp(*args, options=None, **kw):
        seen.append(dict(options or {}))
        return real_milp(*args, options=options, **kw)

    def model(*args, options=None, **kw):
        seen.append(dict(options or {}))
        return real_model(*args, options=options, **kw)

    monkeypatch.setattr(plan_mod, "solve_milp", milp)
    monkeypatch.setattr(offline_mod, "solve_model", model)
    inst = _small(11, n_jobs=6)
    limited = solve_exact(inst, engine=engine, node_limit=7)
    assert seen and all(o.get("mip_max_nodes") == 7 for o in seen)
    seen.clear()
    free = solve_exact(inst, engine=engine)
    assert seen and not any("mip_max_nodes" in o for o in seen)
    # this instance is solved at the root: the limit changes nothing
    assert limited.is_optimal and limited.total_utility == pytest.approx(free.total_utility, rel=OBJ_RTOL)


@pytest.mark.parametrize("bad", [0, -3, 1.5, True, "10"])
def test_node_limit_must_be_a_positive_integer(bad):
    from hetopt.errors import ArgumentError

    with pytest.raises(ArgumentError, match="node_limit"):
        solve_exact(_small(11), node_limit=bad)


def test_node_limit_is_refused_with_scip():
    from hetopt.errors import ArgumentError

    with pytest.raises(ArgumentError, match="node_limit applies to solver='highs'"):
        solve_exact(_small(11), solver="scip", node_limit=10)
