"""The CLI contract (called directly; the lead registers "oasis" in hetopt.cli)."""

import hetopt
import json

import pytest

from hetopt.data import load_json
from hetopt.oasis import commands, fig3_data, fig4_data
from hetopt.oasis.validate import ratio_sweep
from hetopt.report import Table


def test_solve_every_method_on_a_bundled_instance():
    inst = hetopt.load_instance(load_json("oasis2018_theorem1_counterexample"))
    for method in commands.METHODS:
        sol = hetopt.solve(inst, method)
        summary = commands.solution_summary(sol)
        json.dumps(summary)
        assert summary["total_utility"] <= 8.0 + 1e-9
    assert commands.solution_summary(hetopt.solve(inst, "exact"))["completion"] == {0: 2}
    with pytest.raises(hetopt.HetoptError, match="methods are"):
        hetopt.solve(inst, "nope")


def test_export_model_writes_lp(tmp_path):
    inst = hetopt.load_instance(load_json("oasis2018_theorem4_violation"))
    m = commands.export_model(inst)
    out = tmp_path / "m.lp"
    m.write(str(out), format="lp", io_options={"symbolic_solver_labels": True})
    assert "work_done" in out.read_text()


def test_bench_quick():
    tables = commands.bench(quick=True)
    assert len(tables) == 6 and all(isinstance(t, Table) for t in tables)
    assert all(r[3] for r in tables[2].rows)  # every scheme feasible
    scale, seeds, colgen = tables[3], tables[4], tables[5]
    assert len({r[-1] for r in seeds.rows}) == 1  # every engine certifies the same optima
    assert all(a.objective <= a.bound * (1 + 1e-9) + 1e-9 for a in scale.attempts if a.bound is not None)
    # same instance, both engines converged: the same LP value
    arrays, pyomo = colgen.rows[0], colgen.rows[1]
    if arrays[6] and pyomo[6]:
        assert abs(arrays[7] - pyomo[7]) <= 1e-6 * max(1.0, abs(pyomo[7]))
    assert all(r[8] >= r[7] - 1e-6 for r in colgen.rows)  # every bound above its master LP value


def test_validate_table():
    t = commands.validate(n=1, seed=3)
    seed, ratio, limit, holds = t.rows[0][0], t.rows[0][-3], t.rows[0][-2], t.rows[0][-1]
    assert seed == 3 and t.rows[0][5] == "optimum"  # a certified optimum: the claim is decided
    assert holds is (ratio <= limit * (1 + 1e-9))
    rows = ratio_sweep([4])
    assert rows[0]["ratio"] >= 1 - 1e-9 and "instance" in rows[0]


def test_reproduce_is_gone_the_ledger_has_the_claims():
    assert not hasattr(commands, "reproduce")
    from hetopt.claims import claims

    assert len(claims("oasis")) >= 10


def test_figure_data_small():
    f3 = fig3_data([6, 12], horizon=20, servers=6, schemes=["oasis", "fifo", "drf"])
    assert set(f3) == {"oasis", "fifo", "drf"} and all(len(v) == 2 for v in f3.values())
    f4 = fig4_data(n_per_class=5, horizon=20, servers=6, schemes=["oasis", "drf"])
    assert set(f4["oasis"]) == {"sensitive", "critical"}
