"""The CLI contract (commands module), called directly."""

import hetopt
import json

import pytest

from hetopt.contention import commands
from hetopt.contention.instance import ContentionInstance
from hetopt.data import load_json


@pytest.mark.parametrize("name", ["wang2019_tiny", "wang2019_contention_beats_milp"])
def test_solve_every_method_on_bundled_instances(name):
    inst = hetopt.load_instance(load_json(name))
    for method in commands.METHODS:
        sol = hetopt.solve(inst, method)
        summary = commands.solution_summary(sol)
        json.dumps(summary)
        assert summary["total_jct"] == pytest.approx(sum(summary["jct"]))


def test_bundled_workload_is_section_5a():
    inst = hetopt.load_instance(load_json("wang2019_workload_seed0"))
    assert inst.n_jobs == 160 and inst.n_total_gpus == 64
    ours, bundled = commands.generate_workload(seed=0).to_dict(), inst.to_dict()
    for key in ("description", "source"):  # documentation, not data
        ours.pop(key, None), bundled.pop(key, None)
    assert bundled == ours and inst.gpu_memory == 32768.0  # the authors' simulator's 32 GB GPUs


def test_unknown_method():
    with pytest.raises(hetopt.HetoptError, match="method"):
        hetopt.solve(hetopt.load_instance(load_json("wang2019_tiny")), "magic")


def test_reproduce_is_gone_the_ledger_replaces_it():
    assert not hasattr(commands, "reproduce")


def test_validate_sweep():
    table = commands.validate(n=3, seed=0)
    assert len(table.rows) == 3
    assert all(bool(r[-1]) for r in table.rows)  # contention-free heuristics >= MILP optimum


def test_bench_quick():
    tables = commands.bench(quick=True)
    main = tables[0]
    assert [r[0] for r in main.rows][0] == "Ada-SRSF"
    assert main.rows[0][8] == pytest.approx(1.0)


def test_export_model_writes_lp(tmp_path):
    model = commands.export_model(hetopt.load_instance(load_json("wang2019_tiny")))
    out = tmp_path / "m.lp"
    model.write(str(out), format="lp", io_options={"symbolic_solver_labels": True})
    assert "network_capacity" in out.read_text()
    assert commands.KIND == ContentionInstance.from_dict(load_json("wang2019_tiny")).to_dict()["kind"]


def test_cli_dispatch(monkeypatch, capsys, tmp_path):
    from hetopt import cli
    from hetopt.data import instance_path

    monkeypatch.setitem(cli.PAPERS, "contention", "hetopt.contention.commands")
    assert cli.main(["solve", str(instance_path("wang2019_contention_beats_milp")), "--method", "exact", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "optimal" and out["total_jct"] == pytest.approx(47.0)
    lp = tmp_path / "tiny.lp"
    assert cli.main(["export", str(instance_path("wang2019_tiny")), "-o", str(lp)]) == 0
    assert lp.exists()
