"""Write a teaching notebook (no outputs) from a list of ("md" | "code", source) cells.

Kept outside the package: ``python notebooks/generate/<paper>.py`` regenerates
``notebooks/<paper>.ipynb`` (stable cell ids, no outputs); edit the generator, not the notebook JSON.
The test ``tests/test_notebook_contents.py`` executes the written notebooks.
"""

from __future__ import annotations

import sys
from pathlib import Path
from textwrap import dedent

import nbformat

NOTEBOOKS = Path(__file__).resolve().parents[1]


class Cells(list):
    """The cells of a notebook in order, as ("md" | "code", source) pairs."""

    def md(self, text: str) -> None:
        self.append(("md", text))

    def code(self, text: str) -> None:
        self.append(("code", text))


def build(name: str, cells: list[tuple[str, str]], *, papers: tuple[str, ...] = (), min_figures: int = 1,
          title: str = "") -> nbformat.NotebookNode:
    """The notebook of ``cells`` (no outputs, cell ids ``<name>-NN``).

    ``metadata["hetopt"]`` records the kinds it teaches (``papers``: the docs link it from their pages),
    the least number of figures it shows (``min_figures``: the tests hold it) and the link text
    (``title``) on a paper page other than its own.
    """
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["hetopt"] = {"papers": list(papers), "min_figures": int(min_figures), "title": title}
    for kind, src in cells:
        src = dedent(src).strip("\n")
        nb.cells.append(nbformat.v4.new_markdown_cell(src) if kind == "md" else nbformat.v4.new_code_cell(src))
    for k, cell in enumerate(nb.cells):
        cell["id"] = f"{name}-{k:02d}"
    nbformat.validate(nb)
    return nb


def write(name: str, cells: list[tuple[str, str]], *, papers: tuple[str, ...] = (), min_figures: int = 1,
          title: str = "") -> Path:
    """Write ``notebooks/<name>.ipynb`` from ``cells`` (metadata as :func:`build`) and return its path."""
    nb = build(name, cells, papers=papers, min_figures=min_figures, title=title)
    path = NOTEBOOKS / f"{name}.ipynb"
    nbformat.write(nb, str(path))
    print(f"wrote {path} ({len(nb.cells)} cells)", file=sys.stderr)
    return path
