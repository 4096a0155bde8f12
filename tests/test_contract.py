"""The contract of CONTRIBUTING.md: a seventh kind, installed as a package of its own, appears everywhere.

The toy kind lives in its own distribution (``tests/plugin``: the package ``hetopt_toy`` and a
``pyproject.toml`` that declares ``toy = "hetopt_toy:KIND"`` in the entry-point group
``hetopt.kinds``).  The fixture installs it the way pip lays an installed distribution out (the
package and its ``.dist-info`` with ``entry_points.txt`` in a directory on ``sys.path``); the front
door, the command line, ``compare``, the hypothesis strategies, the ledger, the plots, the
benchmarks, the docs and the README's methods table then know it, with no edit of hetopt.  The
slow test installs it with pip itself and runs the ``hetopt`` command in a new process.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings

import hetopt
from hetopt import claims, registry
from hetopt.cli import main
from hetopt.contract import Kind, Method
from hetopt.errors import ArgumentError

PLUGIN = Path(__file__).resolve().parent / "plugin"


def install_toy(site: Path) -> None:
    """Lay the toy distribution out in ``site`` as an installer does: the package and its .dist-info."""
    import tomllib

    meta = tomllib.loads((PLUGIN / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    shutil.copytree(PLUGIN / "hetopt_toy", site / "hetopt_toy")
    info = site / f"hetopt_toy-{meta['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n")
    points = meta["entry-points"]["hetopt.kinds"]
    (info / "entry_points.txt").write_text("[hetopt.kinds]\n" + "".join(f"{k} = {v}\n" for k, v in points.items()))


@pytest.fixture
def toy(tmp_path, monkeypatch):
    install_toy(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.reload()
    kind = registry.get_kind("toy")
    yield kind
    registry.unregister("toy")
    monkeypatch.undo()
    sys.modules.pop("hetopt_toy", None)
    registry.reload()


@pytest.fixture
def toy_kind(toy):
    import hetopt_toy

    return hetopt_toy


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


def test_strategies_know_the_toy(toy, toy_kind):
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


def test_plot_knows_the_toy(toy, toy_kind):
    pytest.importorskip("matplotlib")
    import hetopt.plot

    inst = toy_kind.example(seed=0, size=0)
    ax = hetopt.plot.gantt(inst, hetopt.solve(inst))
    assert ax.get_xlabel() == "time"


def test_the_toy_is_only_where_it_is_installed(toy):
    registry.unregister("toy")
    assert "toy" not in registry.kinds()
    with pytest.raises(hetopt.InstanceError, match="kind is 'toy'"):
        hetopt.load_instance({"kind": "toy"})
    registry.register(toy)
    assert "toy" in registry.names()


def test_uninstalled_toy_is_gone():
    registry.reload()
    assert "toy" not in registry.kinds()
    with pytest.raises(hetopt.InstanceError, match="kind is 'toy'"):
        hetopt.load_instance({"kind": "toy"})


def test_a_kind_checks_its_own_declaration(toy, toy_kind):
    m = toy_kind.KIND.methods[0]
    with pytest.raises(ArgumentError, match="exactly one method must be the default"):
        Kind(**{**toy_kind.KIND.__dict__, "methods": (Method("a", m.func, "exact", "A.", "x"),)})
    with pytest.raises(ArgumentError, match="category"):
        Method("a", m.func, "magic", "A.", "x")
    with pytest.raises(ArgumentError, match="registered already"):
        registry.register(Kind(**{**registry.get_kind("hare").__dict__, "title": "another hare"}))


def test_docs_pages_know_the_toy(toy, tmp_path):
    """The docs extension writes the toy's paper page from its Kind (card, claims) with no edit of the docs."""
    import types

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs" / "_ext"))
    try:
        import hetopt_docs
    finally:
        sys.path.pop(0)
    app = types.SimpleNamespace(srcdir=str(tmp_path))
    (tmp_path / "notebooks").mkdir()
    hetopt_docs.write_paper_pages(app, None)
    page = (tmp_path / "papers" / "toy.md").read_text()
    assert "tests/plugin/README.md" in page and ":paper: toy" in page
    assert "toy" in (tmp_path / "papers" / "index.md").read_text()


@pytest.mark.slow
def test_pip_installed_toy_reaches_a_new_hetopt_process(tmp_path):
    """pip builds and installs the toy distribution; a new ``hetopt`` process lists its methods."""
    import subprocess

    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(target), str(PLUGIN)], check=True)
    env = {**__import__("os").environ, "PYTHONPATH": str(target)}
    out = subprocess.run([sys.executable, "-m", "hetopt.cli", "solve", "--list-methods", "toy"], env=env,
                         capture_output=True, text=True, check=True).stdout
    assert "spt" in out and "fifo" in out
