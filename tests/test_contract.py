"""The contract of CONTRIBUTING.md: one registration makes a seventh kind appear everywhere.

The toy kind of ``tests/toy_kind.py`` is registered once; the front door, the command line,
``compare``, the hypothesis strategies, the ledger, the plots, the benchmarks and the README's
methods table then know it, with no other edit.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

import hetopt
from hetopt import claims, registry
from hetopt.cli import main
from hetopt.contract import Kind, Method
from hetopt.errors import ArgumentError

from . import toy_kind


@pytest.fixture
def toy():
    registry.register(toy_kind.KIND)
    yield toy_kind.KIND
    registry.unregister("toy")


def test_front_door_knows_the_toy(toy):
    assert list(hetopt.methods("toy")) == ["exact", "fifo", "spt"]
    inst = hetopt.load_instance({"kind": "toy", "schema_version": 1, "release": [0, 0], "processing": [3, 1]})
    assert hetopt.solve(inst).objective == 5.0  # 1 + 4, shortest first
    assert hetopt.solve(inst, "fifo").objective == 7.0  # 3 + 4
    assert "toy" in hetopt.api.methods_table().to_markdown()


def test_cli_knows_the_toy(toy, capsys, tmp_path):
    assert main(["solve", "--list-methods", "toy"]) == 0
    assert "spt" in capsys.readouterr().out
    f = tmp_path / "toy.json"
    f.write_text(json.dumps({"kind": "toy", "schema_version": 1, "release": [0, 0], "processing": [3, 1]}))
    assert main(["solve", str(f), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["objective"] == 5.0
    assert main(["bench", "toy"]) == 0
    assert "toy: exact vs fifo" in capsys.readouterr().out


def test_compare_knows_the_toy(toy):
    t = hetopt.compare({"kind": "toy", "schema_version": 1, "release": [0, 0], "processing": [3, 1]})
    rows = {r[0]: r for r in t.rows}
    assert set(rows) == {"exact", "fifo", "spt"}
    assert rows["fifo"][t.columns.index("vs_optimum")] == pytest.approx(7 / 5)


def test_strategies_know_the_toy(toy):
    from hetopt.testing.strategies import instances

    @settings(max_examples=5, derandomize=True, deadline=None)
    @given(instances("toy"))
    def check(inst):
        assert isinstance(inst, toy_kind.ToyInstance)
        assert toy.check_schedule(inst, hetopt.solve(inst)).ok

    check()


def test_ledger_knows_the_toy(toy):
    assert "toy" in claims.papers()
    (c,) = claims.claims("toy")
    assert c.run().outcome.verdict is c.verdict
    assert c.run(flip=True).outcome.verdict is c.flip.verdict is not c.verdict
    (conf,) = claims.conformance("toy")
    assert conf.run().ok


def test_plot_knows_the_toy(toy):
    pytest.importorskip("matplotlib")
    import hetopt.plot

    inst = toy_kind.example(0, 0)
    ax = hetopt.plot.gantt(inst, hetopt.solve(inst))
    assert ax.get_xlabel() == "time"


def test_unregistered_toy_is_gone():
    registry.unregister("toy")
    assert "toy" not in registry.kinds()
    with pytest.raises(hetopt.InstanceError, match="kind is 'toy'"):
        hetopt.load_instance({"kind": "toy"})


def test_a_kind_checks_its_own_declaration():
    m = toy_kind.KIND.methods[0]
    with pytest.raises(ArgumentError, match="exactly one method must be the default"):
        Kind(**{**toy_kind.KIND.__dict__, "methods": (Method("a", m.func, "exact", "A.", "x"),)})
    with pytest.raises(ArgumentError, match="category"):
        Method("a", m.func, "magic", "A.", "x")
    with pytest.raises(ArgumentError, match="registered already"):
        registry.register(Kind(**{**registry.get_kind("hare").__dict__, "title": "another hare"}))
