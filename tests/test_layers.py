"""The import graph of hetopt/: no cycle anywhere, imports only downward, papers apart.

Every ``import`` statement counts, at module level or inside a function (a lazy import is still
a dependency); only imports under ``if TYPE_CHECKING:`` are left out.  The layers are those of
CONTRIBUTING.md.
"""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

import networkx as nx

import hetopt
from hetopt.registry import kinds

ROOT = Path(hetopt.__file__).resolve().parent

GROUND = {"errors", "result", "inputs", "solvers", "report", "data", "validate", "scaling", "contract", "registry", "schema",
          "tables", "certify", "files"}
FRONT = {"api", "compare", "plot", "testing", "claims", "bench"}
ABOVE = {"arena"}
PAPERS = set(kinds()) - ABOVE  # the arena is a kind but sits on the experiments floor


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules(root: Path) -> dict[str, Path]:
    return {_module_name(p, root): p for p in root.rglob("*.py")}


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                skip.update(id(n) for n in ast.walk(child))
    return skip


def _resolve(current: str, is_package: bool, level: int, module: str | None) -> str:
    base = current.split(".") if is_package else current.split(".")[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def import_graph(sources) -> nx.DiGraph:
    """Module -> module edges of every hetopt import (names imported from a package's __init__
    are edges to the package; submodules imported by name are edges to the submodule); built once per root
    from the ``sources`` fixture's parsed files."""
    return _graph_of(ROOT, sources)


@functools.cache
def _graph_of(root: Path, sources) -> nx.DiGraph:
    mods = _modules(root)
    graph = nx.DiGraph()
    for name, path in mods.items():
        graph.add_node(name)
        tree = sources.tree(path)
        skip = _type_checking_nodes(tree)
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, is_package, node.level, node.module) if node.level else (node.module or "")
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in mods]
                targets = subs if len(subs) == len(node.names) else [base, *subs]
            for t in targets:
                while t and t not in mods:
                    t = t.rpartition(".")[0]
                if t and t != name and t.startswith("hetopt"):
                    graph.add_edge(name, t)
    return graph


def _layer(module: str) -> tuple[int, str]:
    """(floor, group): 0 ground, 1 a paper's core, 2 the front door, 3 experiments and the arena, 4 cli, 5 the package."""
    parts = module.split(".")
    if len(parts) == 1:
        return 5, "hetopt"
    top = parts[1]
    if top == "cli":
        return 4, "cli"
    if top in PAPERS:
        return (3, f"{top}.experiments") if len(parts) > 2 and parts[2] == "experiments" else (1, top)
    if top in ABOVE:
        return 3, top
    if top in FRONT:
        return 2, top
    if top in GROUND:
        return 0, top
    raise AssertionError(f"{module} is in no layer of CONTRIBUTING.md")


def test_every_module_has_a_layer():
    for module in _modules(ROOT):
        _layer(module)


def test_no_import_cycle(sources):
    graph = import_graph(sources)
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert cycles == [], f"import cycles: {cycles}"


def _paper(group: str) -> str:
    return group.removesuffix(".experiments")


def test_imports_go_downward(sources):
    graph = import_graph(sources)
    allowed = {(k.name, d) for k in kinds().values() for d in k.depends_on}
    bad = []
    for a, b in graph.edges:
        (la, ga), (lb, gb) = _layer(a), _layer(b)
        if la < lb:
            bad.append(f"{a} -> {b} (upward)")
        elif la == lb == 1 and ga != gb and (ga, gb) not in allowed:
            bad.append(f"{a} -> {b} (another paper, not in {ga}'s Kind.depends_on)")
        elif la == 3 and ga.endswith(".experiments") and lb in (1, 3) and _paper(gb) != _paper(ga) \
                and (_paper(ga), _paper(gb)) not in allowed:
            bad.append(f"{a} -> {b} (an experiment imports another paper, not a declared baseline)")
        elif la == lb == 3 and ga.endswith(".experiments") and gb in ABOVE and (_paper(ga), gb) not in allowed:
            bad.append(f"{a} -> {b} (an experiment imports the arena, not in its Kind.depends_on)")
    assert bad == [], bad


def test_a_core_never_imports_its_experiments(sources):
    bad = [f"{a} -> {b}" for a, b in import_graph(sources).edges if _layer(a)[0] == 1 and _layer(b)[0] == 3]
    assert bad == [], bad


def test_no_paper_imports_plot_or_the_front_door(sources):
    bad = [f"{a} -> {b}" for a, b in import_graph(sources).edges if _layer(a)[0] == 1 and _layer(b)[0] >= 2]
    assert bad == [], bad


def test_the_graph_sees_a_cycle(tmp_path, monkeypatch, sources):
    """The checker must be able to fail: a module pair that imports each other is a cycle."""
    pkg = tmp_path / "hetopt"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "errors.py").write_text("from .result import X\n")
    (pkg / "result.py").write_text("def f():\n    from .errors import Y\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", pkg)
    graph = import_graph(sources)
    assert any(len(c) > 1 for c in nx.strongly_connected_components(graph))
