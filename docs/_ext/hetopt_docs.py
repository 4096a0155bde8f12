"""Sphinx extension of the hetopt site: pages generated from the package at build time.

* ``config-inited``: writes one API page per public namespace (``hetopt`` and every subpackage
  that declares ``__all__``) into ``docs/api/``: the namespace's docstring, then each export
  (classes, functions, exceptions, data) through autodoc, numpydoc rendering the docstrings.
* The ``hetopt-claims`` directive renders the claims ledger from :mod:`hetopt.claims`: the
  summary counts and, per paper, one row per claim (id, location and statement, the paper's
  number, the recorded verdict, the diagnosis).  ``:paper: NAME`` renders one paper's table.
* ``autodoc-process-docstring``: ``|x|`` in a docstring (plain-text math) is text, not a
  reStructuredText substitution.
* The formulation cards of ``models/`` are included as they are (they cite the papers; the
  test of the site checks that no page points to a paper's text outside the repository).
"""

from __future__ import annotations

import importlib
import json
import inspect
import pkgutil
import re
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

#: Modules that are public namespaces without being packages (documented when importable): every
#: namespace the README names has a page (tests/docs/test_site.py compares the two lists).
EXTRA_NAMESPACES = ("hetopt.plot", "hetopt.registry", "hetopt.contract", "hetopt.result", "hetopt.certify",
                    "hetopt.errors", "hetopt.inputs", "hetopt.solvers", "hetopt.validate", "hetopt.data",
                    "hetopt.report", "hetopt.testing.strategies", "hetopt.claims.cards")



# -- API pages --------------------------------------------------------------------------------
def public_namespaces() -> list[tuple[str, list[str]]]:
    """``(module name, exported names)`` of ``hetopt`` and of each subpackage with ``__all__``."""
    import hetopt

    out = [("hetopt", list(hetopt.__all__))]
    names = [f"hetopt.{m.name}" for m in pkgutil.iter_modules(hetopt.__path__) if m.ispkg]
    names += [n for n in EXTRA_NAMESPACES if n not in names and importlib.util.find_spec(n) is not None]
    for name in sorted(names):
        exports = getattr(importlib.import_module(name), "__all__", None)
        if exports:
            out.append((name, list(exports)))
    return out


def _kind(obj) -> str:
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if callable(obj):
        return "function"
    return "data"


_SECTIONS = (("class", "Classes"), ("function", "Functions"), ("exception", "Exceptions"), ("data", "Data"))


def _api_page(module: str, exports: list[str]) -> str:
    """One page per namespace: its docstring, then every export grouped by kind (autodoc)."""
    mod = importlib.import_module(module)
    # Submodules exported by name (``hetopt.registry``) have their own page: listing them here too
    # would describe the same object twice.
    names = [n for n in exports if not (n.startswith("__") and n.endswith("__"))
             and not inspect.ismodule(getattr(mod, n))]
    by_kind: dict[str, list[str]] = {}
    for name in names:
        by_kind.setdefault(_kind(getattr(mod, name)), []).append(name)
    title = f"``{module}``"
    lines = [title, "=" * len(title), "", f".. automodule:: {module}", "   :no-members:", "",
             f".. currentmodule:: {module}", ""]
    for kind, heading in _SECTIONS:
        if not by_kind.get(kind):
            continue
        lines += [heading, "-" * len(heading), ""]
        for name in by_kind[kind]:
            lines.append(f".. auto{kind}:: {name}")
            if kind in ("class", "exception"):
                lines.append("   :members:")
            lines.append("")
    return "\n".join(lines) + "\n"


def write_api_pages(app: Sphinx, config) -> None:
    """Write ``docs/api/<module>.rst`` for every public namespace (only when its text changed)."""
    api = Path(app.srcdir) / "api"
    api.mkdir(exist_ok=True)
    wanted = {}
    for module, exports in public_namespaces():
        wanted[f"{module}.rst"] = _api_page(module, exports)
    for stale in api.glob("hetopt*.rst"):
        if stale.name not in wanted:
            stale.unlink()
    for name, text in wanted.items():
        path = api / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


# -- instance formats -------------------------------------------------------------------------


def _error_examples(kind: str, data: dict) -> list[tuple[str, str]]:
    """Real messages of the loader on three broken copies of the example (a missing field, an
    unknown key, a value of the wrong type): what a user sees, computed, not written by hand."""
    import copy

    import hetopt
    from hetopt.schema import _fields

    fields = [f for f in _fields(kind) if f.required and f.name in data]
    cases = []
    if fields:
        missing = copy.deepcopy(data)
        missing.pop(fields[0].name)
        cases.append((f"without `{fields[0].name}`", missing))
    cases.append(("with a misspelt key `wieght`", {**copy.deepcopy(data), "wieght": 1}))
    numeric = next((f for f in fields if f.type in ("number", "integer")), None)
    if numeric is not None:
        broken = copy.deepcopy(data)
        value = broken[numeric.name]
        path = []
        while isinstance(value, list):
            path.append(0)
            value = value[0]
        target = broken
        for k in [numeric.name, *path[:-1]]:
            target = target[k]
        if path:
            target[0] = "3"
        else:
            broken[numeric.name] = "3"
        cases.append((f"with the string \"3\" in `{numeric.name}`", broken))
    out = []
    for what, case in cases:
        try:
            hetopt.load_instance(case)
            msg = "(accepted)"
        except hetopt.HetoptError as exc:
            msg = f"{type(exc).__name__}: {exc}"
        out.append((what, msg))
    return out


def _instance_page(kind_name: str) -> str:
    from hetopt.registry import get_kind
    from hetopt.schema import field_table, json_schema

    kind = get_kind(kind_name)
    stem = kind.example_instance
    lines = [f"# Writing a `{kind_name}` instance", "",
             f"An instance of kind `{kind_name}` ({kind.title}) is one JSON object. `hetopt.load_instance(PATH)`, "
             f"`hetopt solve PATH` and every method read it; the loader checks every field and names the one that "
             f"is wrong. Besides the fields below, every instance carries `\"kind\": \"{kind_name}\"` and "
             f"`\"schema_version\"`, and may carry `description`, `source` (free text) and `expected` (method "
             f"-> its certified objective).", "",
             "## Fields", "", field_table(kind_name), ""]
    if stem:
        from hetopt.data import instance_path

        path = instance_path(stem)
        data = json.loads(path.read_text(encoding="utf-8"))
        lines += ["## Example", "", f"The bundled instance `{stem}` (`hetopt solve {stem}`):", "",
                  "```json", json.dumps(data, indent=1), "```", "",
                  "## What the loader says when a field is wrong", ""]
        for what, msg in _error_examples(kind_name, data):
            lines += [f"- {what}:", "", "  ```text", f"  {msg}", "  ```", ""]
    lines += ["## JSON Schema", "",
              f"Editors validate files with this schema (`hetopt schema {kind_name} > {kind_name}.schema.json`). "
              "The loader also checks what a schema cannot say (shapes that must agree between fields).", "",
              "```json", json.dumps(json_schema(kind_name), indent=1), "```", ""]
    return "\n".join(lines)


def write_instance_pages(app: Sphinx, config) -> None:
    """Write ``docs/instances/<kind>.md`` (fields, example, errors, schema) for every kind with FIELDS."""
    from hetopt.registry import kinds

    folder = Path(app.srcdir) / "instances"
    folder.mkdir(exist_ok=True)
    pages = {}
    for name, kind in kinds().items():
        if getattr(kind.instance, "FIELDS", None):
            pages[f"{name}.md"] = _instance_page(name)
    index = ["# Write your own instance", "",
             "One page per kind: every field of the JSON file with its shape, unit, range and meaning, an "
             "example that the tests load, the loader's messages on a broken file, and the JSON Schema.", "",
             "```{toctree}", ":maxdepth: 1", "", *[p[:-3] for p in sorted(pages)], "```", ""]
    pages["index.md"] = "\n".join(index)
    for stale in folder.glob("*.md"):
        if stale.name not in pages:
            stale.unlink()
    for name, text in pages.items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def _notebooks_of(srcdir: Path) -> dict[str, list[tuple[str, str]]]:
    """kind -> [(notebook name, link text)] from the notebooks' own metadata ("hetopt": papers, title)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for nb in sorted((srcdir / "notebooks").glob("*.ipynb")):
        meta = json.loads(nb.read_text(encoding="utf-8")).get("metadata", {}).get("hetopt", {})
        for paper in meta.get("papers", []):
            out.setdefault(paper, []).append((nb.stem, meta.get("title") or ""))
    return out


def _paper_page(name: str, kind, notebooks: list[tuple[str, str]]) -> str:
    card = Path(kind.card)
    lines = [f"```{{include}} ../../{card.as_posix()}", "```", "", "## In this documentation", ""]
    for nb, title in sorted(notebooks, key=lambda n: n[0] != name):
        lines.append(f"- {'Notebook' if nb == name else title or 'Notebook'}: {{doc}}`../notebooks/{nb}`")
    package = kind.instance.__module__.rpartition(".")[0]
    lines += [f"- API: {{doc}}`../api/{package}`", f"- Card source: `{card.as_posix()}` of the repository", ""]
    if kind.claims:
        lines += ["## Claims of this paper", "",
                  f"Recorded verdicts from {{mod}}`hetopt.claims` (`hetopt claims {name} --run` recomputes them).", "",
                  "```{hetopt-claims}", f":paper: {name}", "```", ""]
    return "\n".join(lines)


def write_paper_pages(app: Sphinx, config) -> None:
    """Write ``docs/papers/<kind>.md`` (card, notebooks, API, claims) and the index for every kind with a card."""
    from hetopt.registry import kinds

    srcdir = Path(app.srcdir)
    folder = srcdir / "papers"
    folder.mkdir(exist_ok=True)
    notebooks = _notebooks_of(srcdir)
    pages = {f"{name}.md": _paper_page(name, kind, notebooks.get(name, []))
             for name, kind in kinds().items() if kind.card}
    index = ["# Papers", "",
             "One page per paper: its formulation card (notation, every equation and the code that states it, the "
             "readings chosen where the paper is ambiguous, the findings), then its notebook, its API and its claims.",
             "", "```{toctree}", ":maxdepth: 1", "", *[p[:-3] for p in pages], "```", ""]
    pages["index.md"] = "\n".join(index)
    for stale in folder.glob("*.md"):
        if stale.name not in pages:
            stale.unlink()
    for page, text in pages.items():
        path = folder / page
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


# -- docstrings -------------------------------------------------------------------------------
_TABLE_ROW = re.compile(r"\s*(\+[-=+]|\|(\s|$))")  # grid-table rows and line blocks stay as they are
_LITERAL = re.compile(r"(``.+?``)")
_BARS = re.compile(r"(?<![\\|])\|(?=[^\s|`])([^|`\n]*?[^\s|\\])\|(?![|_])")


def escape_bars(app: Sphinx, what: str, name: str, obj, options, lines: list[str]) -> None:
    """Render ``|Psi|`` (a cardinality or an absolute value) as text, not a substitution.

    The docstrings write math in plain text, and the package defines no reStructuredText
    substitutions, so ``|x|`` outside inline literals is always meant literally.
    """
    for k, line in enumerate(lines):
        if "|" in line and not _TABLE_ROW.match(line):
            parts = _LITERAL.split(line)
            lines[k] = "".join(p if p.startswith("``") else _BARS.sub(r"\\|\1\\|", p) for p in parts)


# -- claims ledger ----------------------------------------------------------------------------
def _para(text: str, *, literal: bool = False, strong: bool = False) -> nodes.paragraph:
    inner = nodes.literal(text, text) if literal else nodes.strong(text, text) if strong else nodes.Text(text)
    return nodes.paragraph("", "", inner)


def _table(headers: list[str], rows: list[list[nodes.Node | list[nodes.Node]]], widths: list[int],
           classes: list[str]) -> nodes.table:
    table = nodes.table(classes=["hetopt-table", "colwidths-given", *classes])
    group = nodes.tgroup(cols=len(headers))
    table += group
    for w in widths:
        group += nodes.colspec(colwidth=w)
    head = nodes.thead()
    group += head
    row = nodes.row()
    for h in headers:
        row += nodes.entry("", _para(h))
    head += row
    body = nodes.tbody()
    group += body
    for cells in rows:
        row = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            entry.extend(cell if isinstance(cell, list) else [cell])
            row += entry
        body += row
    return table


def summary_node(items) -> nodes.table:
    """The counts of verdicts per paper, as :func:`hetopt.claims.summary_table` computes them."""
    from hetopt.claims import summary_table

    t = summary_table(items)
    rows = [[_para(str(v)) for v in row] for row in t.rows]
    return _table(list(t.columns), rows, [1] * len(t.columns), ["hetopt-claims-summary"])


def claims_node(items) -> nodes.table:
    """One row per claim: id, location and statement, paper's number, verdict, diagnosis, flip.

    A claim hetopt adds beyond the paper says so under its location; the flip names the one input
    of the experiment it changes, the value, and the verdict that run computes.
    """
    rows = []
    for c in items:
        ident = _para(c.id, literal=True)
        ident["ids"].append(nodes.make_id(c.id))
        where = [_para(c.location, strong=True), _para(c.statement)]
        if c.beyond:
            where.append(_para("beyond the paper (hetopt's own claim, counted apart)"))
        verdict = _para(c.verdict.value)
        verdict["classes"].append(f"verdict-{c.verdict.value}")
        flip = _para(f"{c.flip.input} = {c.flip.value!r} -> {c.flip.verdict.value}: {c.flip.change}") if c.flip else _para("")
        rows.append([ident, where, _para(c.paper_value), verdict, _para(c.diagnosis), flip])
    return _table(["id", "location", "paper value", "verdict", "diagnosis", "flip: input = value -> verdict"], rows,
                  [14, 18, 10, 10, 32, 16], ["hetopt-claims"])


class ClaimsDirective(SphinxDirective):
    """``hetopt-claims``: the ledger (summary + one section per paper) or one paper's table."""

    has_content = False
    option_spec = {"paper": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        from hetopt.claims import claims, papers

        known = papers()
        self.env.note_dependency(str(Path(importlib.import_module("hetopt.claims").__file__)))
        paper = self.options.get("paper")
        if paper is not None:
            if paper not in known:
                raise self.error(f"hetopt-claims: paper is {paper!r}; expected one of {', '.join(known)}")
            items = claims(paper)
            return [summary_node(items), claims_node(items)]
        out: list[nodes.Node] = [summary_node(claims())]
        for name in known:
            items = claims(name)
            if not items:
                continue
            sec = nodes.section(ids=[f"claims-{name}"], names=[f"claims-{name}"])
            sec += nodes.title("", f"{name} ({len(items)} claims)")
            sec += claims_node(items)
            out.append(sec)
        return out


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", write_api_pages)
    app.connect("config-inited", write_instance_pages)
    app.connect("config-inited", write_paper_pages)
    app.connect("autodoc-process-docstring", escape_bars, priority=400)
    app.add_directive("hetopt-claims", ClaimsDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
