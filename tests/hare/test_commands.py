import json

import pytest

from hetopt.hare import commands, fig1_instance
from hetopt.hare.checker import check_schedule


def test_contract_names():
    assert commands.KIND == "hare"
    for name in ("exact", "algorithm1", "algorithm1_lp", "gavel_fifo", "srtf", "sched_homo", "sched_allox"):
        assert name in commands.METHODS


def test_solve_every_method_on_fig1():
    inst = commands.load_instance(json.loads(fig1_instance().to_json()))
    values = {}
    for name in commands.METHODS:
        if name == "brute_force":
            continue  # 7 tasks on 3 GPUs is beyond its limit
        sol = commands.solve(inst, name)
        summary = commands.solution_summary(sol)
        json.dumps(summary)
        assert summary["objective"] == pytest.approx(check_schedule(inst, sol))
        values[name] = sol.objective
    assert values["exact"] == pytest.approx(8.5)
    assert values["exact_scip"] == pytest.approx(8.5)
    assert min(values.values()) >= 8.5 - 1e-6
    with pytest.raises(ValueError):
        commands.solve(inst, "magic")


def test_reproduce_tables():
    tables = commands.reproduce()
    assert len(tables) == 3
    thm = {r[0]: r for r in tables[1].rows}
    assert thm["Algorithm 1 / certified optimum <= alpha(2+alpha)"][-1] is False  # the finding
    assert thm["same, with (9) on every subset: Algorithm 1 / optimum"][-1] is True
    fig1 = {r[0]: r for r in tables[0].rows}
    assert fig1["(a) heterogeneity-oblivious: total JCT"][-1] is True
    assert fig1["(c) best schedule: total JCT = certified optimum"][-1] is True
    assert fig1["(c) makespan"][-1] is False  # documented: not recoverable
    for t in tables:
        assert all(isinstance(r[-1], bool) for r in t.rows)


def test_bench_quick():
    tables = commands.bench(quick=True)
    assert len(tables) == 2
    assert tables[0].rows[0][3] == "optimal"
    names = [r[0] for r in tables[1].rows]
    assert "srtf" in names and "algorithm1 (lp ordering)" in names


def test_validate_small(tmp_path):
    t = commands.validate(2, 0, save_dir=str(tmp_path), executor="serial")
    assert len(t.rows) == 2


def test_export_model():
    m = commands.export_model(fig1_instance())
    assert m.find_component("round_barrier") is not None
