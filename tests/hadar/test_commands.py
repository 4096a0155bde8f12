"""The commands module of the CLI contract."""

import hetopt
import json

import pytest

from hetopt.data import load_json
from hetopt.hadar import commands
from hetopt.report import Table


@pytest.fixture(scope="module")
def inst():
    return hetopt.load_instance(load_json("hadar2024_small"))


def test_kind_and_methods(inst):
    assert commands.KIND == "hadar"
    assert {"exact", "hadar", "hadare", "gavel", "tiresias", "yarn_cs"} <= set(commands.METHODS)


@pytest.mark.parametrize("method", ["exact", "hadar", "hadare", "gavel", "tiresias", "yarn_cs"])
def test_solve_and_summary_are_json(inst, method):
    sol = hetopt.solve(inst, method)
    summary = commands.solution_summary(sol)
    json.dumps(summary)
    assert summary["objective"] > 0


def test_offline_dominates_policies_on_the_small_instance(inst):
    opt = hetopt.solve(inst, "exact").objective
    from hetopt.hadar import hadar_p1_schedule

    assert opt >= hadar_p1_schedule(inst)[1].objective * (1 - 1e-9)


def test_validate_table():
    t = commands.validate(3, seed=0)
    assert isinstance(t, Table) and len(t.rows) == 3
    assert all(r[-1] is True for r in t.rows)  # 2*alpha held on these certified instances


def test_bench_quick():
    tables = commands.bench(quick=True)
    assert len(tables) == 3 and all(len(t.rows) > 0 for t in tables)
    p1 = tables[2]
    # HiGHS and SCIP certify the same optimum wherever both prove one
    by_size = {}
    for a in p1.attempts:
        if a.certified:
            by_size.setdefault(a.size, []).append(a.objective)
    assert by_size and all(max(v) - min(v) <= 1e-6 * max(1.0, abs(max(v))) for v in by_size.values())


def test_export_model_writes_lp(inst, tmp_path):
    m = commands.export_model(inst)
    out = tmp_path / "p1.lp"
    m.write(str(out), format="lp", io_options={"symbolic_solver_labels": True})
    assert out.stat().st_size > 0


def test_cli_dispatch_once_registered(monkeypatch, tmp_path, capsys):
    """What `hetopt ... hadar` will do once the lead adds the PAPERS entry."""
    from hetopt import cli
    from hetopt.data import instance_path

    monkeypatch.setattr(cli, "PAPERS", {"hadar": "hetopt.hadar.commands"})
    path = str(instance_path("hadar2024_small"))
    assert cli.main(["solve", path, "--method", "hadar", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["policy"] == "hadar"
    assert cli.main(["validate", "hadar", "--n", "2", "--seed", "5"]) == 0
    out = tmp_path / "p1.mps"
    assert cli.main(["export", path, "--format", "mps", "-o", str(out)]) == 0
    assert out.stat().st_size > 0
