"""Hare's registration (``hetopt.hare.KIND``): its methods, the policy registry behind the baselines, verbs."""

import functools
import json

import pytest

import hetopt
from hetopt.errors import ArgumentError
from hetopt.hare import KIND, POLICIES, HareSolution, check_schedule, generate_instance, simulate
from hetopt.hare.kind import export_model, validate

FIG1_OPTIMUM = 8.5  # printed in the paper (Fig. 1(c)) and the certified optimum of the bundled instance


def test_contract_names():
    names = [m.name for m in KIND.methods]
    for name in ("exact", "algorithm1", "algorithm1_lp", "algorithm1_esf", "gavel_fifo", "srtf", "sched_homo",
                 "sched_allox", "srtf_round", "sched_homo_offline", "sched_allox_offline"):
        assert name in names
    assert KIND.default_method.name == "exact" and KIND.simulate is simulate and KIND.policies is POLICIES


def test_one_policy_registry_feeds_the_baselines():
    """Every baseline method is ``partial(simulate, policy=name)`` of a POLICIES entry, and nothing else is."""
    baselines = {m.name: m for m in KIND.methods if m.category == "baseline"}
    assert list(baselines) == list(POLICIES)
    for name, m in baselines.items():
        assert isinstance(m.func, functools.partial) and m.func.func is simulate
        assert m.func.keywords == {"policy": name}
    assert {m.name for m in KIND.methods if m.category == "heuristic"} == {
        "algorithm1", "algorithm1_lp", "algorithm1_esf", "algorithm1_lp_esf", "algorithm1_ef", "algorithm1_lp_ef"}


@pytest.mark.parametrize("seed", range(3))
def test_baseline_methods_give_the_policies_schedules(seed):
    """The methods through the simulator return what the scheduling functions return (same results as before)."""
    inst = generate_instance(seed=seed, n_jobs=4, n_gpus=3, max_total_tasks=10)
    for name, policy in POLICIES.items():
        direct, via = policy(inst), hetopt.solve(inst, method=name)
        assert via.objective == direct.objective and via.start.tolist() == direct.start.tolist()
        assert via.gpu.tolist() == direct.gpu.tolist() and via.method == name


def test_solve_every_method_on_fig1():
    inst = hetopt.load_instance("hare2022_fig1")
    values = {}
    for m in KIND.methods:
        if m.name == "brute_force":
            continue  # 7 tasks on 3 GPUs is beyond its limit
        sol = hetopt.solve(inst, method=m.name)
        assert isinstance(sol, HareSolution)
        summary = sol.summary()
        json.dumps(summary)
        assert summary["objective"] == pytest.approx(check_schedule(inst, sol).raise_if_invalid().objective)
        assert summary["method"] == sol.method and len(summary["tasks"]) == inst.n_tasks
        values[m.name] = sol.objective
    assert values["exact"] == pytest.approx(FIG1_OPTIMUM)
    assert values["exact_scip"] == pytest.approx(FIG1_OPTIMUM)
    assert min(values.values()) >= FIG1_OPTIMUM - 1e-6
    assert all("-" not in name for name in values)
    with pytest.raises(hetopt.HetoptError, match="methods are"):
        hetopt.solve(inst, method="magic")


def test_solution_json_round_trip_keeps_the_schedule():
    inst = hetopt.load_instance("hare2022_fig1")
    for name in ("exact", "algorithm1", "srtf"):
        sol = hetopt.solve(inst, method=name)
        back = type(sol).from_dict(json.loads(json.dumps(sol.to_dict())))  # srtf: a HareSimulation
        assert isinstance(back, HareSolution)
        assert back.to_dict() == json.loads(json.dumps(sol.to_dict()))
        assert back.instance.to_dict() == inst.to_dict() and back.status == sol.status
        assert back.start.tolist() == sol.start.tolist() and back.gpu.dtype.kind == "i"
        check_schedule(inst, back).raise_if_invalid()


def test_reproduce_is_gone_the_ledger_has_the_claims():
    from hetopt.claims import claims, conformance

    ids = {c.id for c in claims("hare")}
    assert {"hare2022.fig1.c_makespan", "hare2022.theorem4.ratio_release_dates", "hare2022.fig12.reduction_range"} <= ids
    # issue 21: the Fig. 1 numbers on the reconstruction built to give them are conformance checks
    assert "hare2022.fig1.a_total_jct" in {c.id for c in conformance("hare")}


def test_bench_quick():
    from hetopt.hare.experiments.bench import bench

    tables = bench(quick=True)
    assert len(tables) == 6
    assert tables[0].columns[2:4] == ["cpsat [s]", "milp [s]"] and len(tables[0].rows) >= 1
    bound_row = dict(zip(tables[1].columns, tables[1].rows[0], strict=True))
    assert bound_row["TI LP bound"] <= bound_row["cpsat incumbent"] * (1 + 1e-9)
    assert bound_row["colgen bound"] <= bound_row["cpsat incumbent"] * (1 + 1e-9)
    assert bound_row["best bound"] >= bound_row["colgen bound"]
    for row in tables[2].rows:  # the grid table
        grid_row = dict(zip(tables[2].columns, row, strict=True))
        assert grid_row["colgen bound"] <= grid_row["best schedule"] * (1 + 1e-9)
    options = tables[3]  # the CP-SAT option table (issue 25): the four variants on the same instances
    assert [c.split(" [")[0] for c in options.columns[4:8]] == ["neither", "parameters", "round bound", "both"]
    assert all(isinstance(r[1], int) and r[1] <= 12 for r in options.rows)  # the actual task counts
    assert tables[4].rows[0][3] == "optimal"
    names = [r[0] for r in tables[5].rows]
    assert "srtf" in names and "algorithm1 (lp ordering)" in names


def test_validate_small(tmp_path):
    t = validate(2, seed=0, save_dir=str(tmp_path), executor="serial")
    assert len(t.rows) == 2 and t.violations == 0


def test_export_model():
    m = export_model(hetopt.load_instance("hare2022_fig1"))
    assert m.find_component("round_barrier") is not None
    with pytest.raises(ArgumentError, match="inst"):
        export_model({"kind": "hare"})


def test_generate_instance_checks_its_arguments():
    assert generate_instance(seed=3).to_dict() == generate_instance(seed=3).to_dict()
    for kwargs, name in (({"n_jobs": 0}, "n_jobs"), ({"n_gpus": 1.5}, "n_gpus"), ({"max_rounds": True}, "max_rounds"),
                         ({"seed": -1}, "seed"), ({"seed": 2.0}, "seed"), ({"speed_spread": float("nan")}, "speed_spread"),
                         ({"homogeneous": 1}, "homogeneous"), ({"max_total_tasks": 0}, "max_total_tasks")):
        with pytest.raises(ArgumentError, match=name):
            generate_instance(**kwargs)


def test_solve_exact_checks_its_arguments(tiny):
    from hetopt.hare import solve_exact

    for kwargs, name in (({"time_limit": -1}, "time_limit"), ({"time_limit": True}, "time_limit"),
                         ({"engine": "gurobi"}, "engine"), ({"solver": "cplex"}, "solver"),
                         ({"mip_gap": 2.0, "engine": "milp"}, "mip_gap"), ({"threads": 0}, "threads")):
        with pytest.raises(ArgumentError, match=name):
            solve_exact(tiny, **kwargs)
    with pytest.raises(TypeError):
        solve_exact(tiny, "highs")  # every option is keyword-only


def test_every_solution_type_round_trips_through_json(tiny):
    """HareSolution, HareRelaxation, LPOrdering, TimeIndexedBound and JobColgenBound: to_dict -> JSON -> from_dict."""
    from hetopt.hare import job_colgen_bound, lp_ordering, solve_relaxation, time_indexed_bound

    for res in (solve_relaxation(tiny), lp_ordering(tiny), time_indexed_bound(tiny), job_colgen_bound(tiny),
                simulate(tiny, "srtf", switch_overhead=0.5)):
        data = json.loads(json.dumps(res.to_dict()))
        back = type(res).from_dict(data)
        assert json.loads(json.dumps(back.to_dict())) == data, type(res).__name__
        assert back.bound == res.bound and back.status == res.status
        assert isinstance(res.summary(), dict)
