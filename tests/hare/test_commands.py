import hetopt
import json

import pytest

from hetopt.hare import commands, fig1_instance
from hetopt.hare.checker import check_schedule


def test_contract_names():
    assert commands.KIND == "hare"
    for name in ("exact", "algorithm1", "algorithm1_lp", "algorithm1_esf", "gavel_fifo", "srtf", "sched_homo",
                 "sched_allox", "srtf_round", "sched_homo_offline", "sched_allox_offline"):
        assert name in commands.METHODS


def test_solve_every_method_on_fig1():
    inst = hetopt.load_instance(json.loads(fig1_instance().to_json()))
    values = {}
    for name in commands.METHODS:
        if name == "brute_force":
            continue  # 7 tasks on 3 GPUs is beyond its limit
        sol = hetopt.solve(inst, name)
        summary = commands.solution_summary(sol)
        json.dumps(summary)
        assert summary["objective"] == pytest.approx(check_schedule(inst, sol).raise_if_invalid().objective)
        values[name] = sol.objective
    assert values["exact"] == pytest.approx(8.5)
    assert values["exact_scip"] == pytest.approx(8.5)
    assert min(values.values()) >= 8.5 - 1e-6
    assert all("-" not in name for name in commands.METHODS)
    with pytest.raises(hetopt.HetoptError, match="methods are"):
        hetopt.solve(inst, "magic")


def test_reproduce_is_gone_the_ledger_has_the_claims():
    assert not hasattr(commands, "reproduce")
    from hetopt.claims import claims

    ids = {c.id for c in claims("hare")}
    assert {"hare2022.fig1.a_total_jct", "hare2022.theorem4.ratio_release_dates", "hare2022.fig12.reduction_range"} <= ids


def test_bench_quick():
    tables = commands.bench(quick=True)
    assert len(tables) == 5
    assert tables[0].columns[2:4] == ["cpsat [s]", "milp [s]"] and len(tables[0].rows) >= 1
    bound_row = dict(zip(tables[1].columns, tables[1].rows[0]))
    assert bound_row["TI LP bound"] <= bound_row["cpsat incumbent"] * (1 + 1e-9)
    assert bound_row["colgen bound"] <= bound_row["cpsat incumbent"] * (1 + 1e-9)
    assert bound_row["best bound"] >= bound_row["colgen bound"]
    for row in tables[2].rows:  # the grid table
        grid_row = dict(zip(tables[2].columns, row))
        assert grid_row["colgen bound"] <= grid_row["best schedule"] * (1 + 1e-9)
    assert tables[3].rows[0][3] == "optimal"
    names = [r[0] for r in tables[4].rows]
    assert "srtf" in names and "algorithm1 (lp ordering)" in names


def test_validate_small(tmp_path):
    t = commands.validate(2, seed=0, save_dir=str(tmp_path), executor="serial")
    assert len(t.rows) == 2


def test_export_model():
    m = commands.export_model(fig1_instance())
    assert m.find_component("round_barrier") is not None
