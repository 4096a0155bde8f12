"""The registration of the contention paper (hetopt.contention.kind), its validate table and bench, called directly."""

import json

import numpy as np
import pytest

import hetopt
from hetopt.contention import POLICIES, ContentionInstance, ContentionSolution, generate_instance, simulate, solve_exact
from hetopt.contention.kind import KIND, export_model
from hetopt.contention.validate import validate
from hetopt.data import load_json


@pytest.mark.parametrize("name", ["wang2019_tiny", "wang2019_contention_beats_milp"])
def test_solve_every_method_on_bundled_instances(name):
    inst = hetopt.load_instance(load_json(name))
    for method in KIND.methods:
        sol = hetopt.solve(inst, method.name)
        assert isinstance(sol, ContentionSolution)
        assert KIND.check_schedule(inst, sol).ok, (method.name, KIND.check_schedule(inst, sol).violations[:2])
        summary = sol.summary()
        json.dumps(summary)
        assert summary["total_jct"] == pytest.approx(sum(summary["jct"]))
        again = type(sol).from_dict(json.loads(json.dumps(sol.to_dict())))  # a ContentionSimulation for a policy
        assert again.to_dict() == sol.to_dict()


def test_methods_come_from_the_registry_and_the_exact_engines():
    names = [m.name for m in KIND.methods]
    assert names[:4] == ["exact", "exact_cpsat", "exact_milp", "contention_bound"]
    assert names[4:] == list(POLICIES)
    assert KIND.default_method.name == "exact" and KIND.solve_exact is solve_exact
    for name in POLICIES:
        assert f"policy={name!r}" in KIND.method(name).runs
    assert "engine='milp'" in KIND.method("exact_milp").runs


def test_exact_method_is_solve_exact_on_lwf1_under_srsf1():
    inst = hetopt.load_instance(load_json("wang2019_contention_beats_milp"))
    sol = hetopt.solve(inst)
    ref = simulate(inst, "srsf1")
    assert sol.placement == ref.placement and sol.status == "optimal"
    assert sol.objective == pytest.approx(solve_exact(inst, placement=ref.placement).objective)


def test_bundled_workload_is_section_5a():
    inst = hetopt.load_instance(load_json("wang2019_workload_seed0"))
    assert inst.n_jobs == 160 and inst.n_total_gpus == 64
    assert KIND.generate_instance is generate_instance
    ours, bundled = generate_instance(seed=0).to_dict(), inst.to_dict()
    for key in ("description", "source"):  # documentation, not data
        ours.pop(key, None), bundled.pop(key, None)
    assert bundled == ours and inst.gpu_memory == 32768.0  # the authors' simulator's 32 GB GPUs


def test_unknown_method():
    with pytest.raises(hetopt.HetoptError, match="method"):
        hetopt.solve(hetopt.load_instance(load_json("wang2019_tiny")), "magic")


def test_validate_sweep():
    table = validate(n=3, seed=0)
    assert KIND.validate is validate
    assert len(table.rows) == 3
    assert all(bool(r[-2]) for r in table.rows)  # contention-free heuristics >= the exact optimum
    assert all(bool(r[-1]) for r in table.rows) and table.violations == 0  # engines agree


def test_bench_quick():
    from hetopt.contention.experiments.bench import bench
    from hetopt.contention.experiments.paper import PAPER_AVG_JCT

    tables = bench(quick=True)
    pivot, engines, shared, main = tables
    assert [r[0] for r in pivot.rows] == sorted({r[0] for r in engines.rows})
    assert [r[0] for r in main.rows][0] == "Ada-SRSF"
    assert main.rows[0][8] == pytest.approx(1.0)
    paper = {r[0]: r[9] for r in main.rows}
    assert paper["SRSF(1)"] == PAPER_AVG_JCT["SRSF(1)"] == 1374.84 and paper["LWF-2+Ada"] is None
    assert {r[2] for r in engines.rows} == {"cpsat", "milp"}
    for r in engines.rows:
        if r[3] == "optimal":
            assert r[5] == pytest.approx(r[4])
        elif r[5] is not None:
            assert r[5] <= r[4] + 1e-9
    assert any("largest certified" in n for n in engines.notes)
    for r in shared.rows:
        assert r[7] is not None and r[7] <= r[4] + 1e-9  # proven bound below the best schedule
        assert (r[3] == "optimal") == (r[7] >= r[4] - 1e-6)


def test_export_model_writes_lp(tmp_path):
    model = export_model(hetopt.load_instance(load_json("wang2019_tiny")))
    assert KIND.export_model is export_model
    out = tmp_path / "m.lp"
    model.write(str(out), format="lp", io_options={"symbolic_solver_labels": True})
    assert "network_capacity" in out.read_text()
    assert KIND.name == ContentionInstance.KIND == ContentionInstance.from_dict(load_json("wang2019_tiny")).to_dict()["kind"]


def test_cli_dispatch(capsys, tmp_path):
    from hetopt import cli
    from hetopt.data import instance_path

    assert cli.main(["solve", str(instance_path("wang2019_contention_beats_milp")), "--method", "exact", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "optimal" and out["total_jct"] == pytest.approx(47.0)
    assert cli.main(["solve", str(instance_path("wang2019_contention_beats_milp")), "--method", "ada_srsf", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "feasible" and out["total_jct"] == pytest.approx(44.2)
    lp = tmp_path / "tiny.lp"
    assert cli.main(["export", str(instance_path("wang2019_tiny")), "-o", str(lp)]) == 0
    assert lp.exists()


def test_example_sizes():
    for seed in range(3):
        assert KIND.example(seed=seed, size=0).n_jobs == 2 and KIND.example(seed=seed, size=1).n_jobs == 3
        assert np.isfinite(solve_exact(KIND.example(seed=seed, size=1)).objective)


@pytest.mark.parametrize("name", ["wang2019_tiny", "wang2019_contention_beats_milp",
                                  "wang2019_authors_accounting_one_waiter"])
def test_bundled_instances_carry_their_certified_values(name):
    data = load_json(name)
    inst = hetopt.load_instance(data)
    assert {"exact", "exact_cpsat"} <= set(data["expected"])
    for method, value in data["expected"].items():
        sol = hetopt.solve(inst, method)
        assert sol.status == "optimal" and sol.objective == pytest.approx(value, rel=1e-9)
