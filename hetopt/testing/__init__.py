"""Helpers for the test suites of every paper: formulation-card checks, notebook runs.

A formulation card (``models/<paper>.md``) lists the model components in a Markdown table
whose header is ``| builder | component | equation |``; each row names a builder key, a
component name and the paper's equation label, e.g.::

    | builder | component | equation |
    |---|---|---|
    | `build_p1` | `samples_assigned` | (8a) |

:func:`check_card` checks that every listed component exists in the model built by that
builder and that its ``doc`` carries the equation label.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["card_rows", "check_card", "run_notebook", "notebook_images", "check_notebook_figures", "notebook_errors",
           "notebook_text", "notebook_answer", "check_stored_notebook"]

_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|\s*([^|]+?)\s*\|")


def card_rows(card: str | Path) -> list[tuple[str, str, str]]:
    """The (builder, component, equation) rows of a formulation card's component table."""
    rows, inside = [], False
    for line in Path(card).read_text(encoding="utf-8").splitlines():
        if re.match(r"^\|\s*builder\s*\|\s*component\s*\|\s*equation\s*\|", line):
            inside = True
            continue
        if inside:
            m = _ROW.match(line)
            if m:
                rows.append((m.group(1), m.group(2), m.group(3)))
            elif not line.startswith("|"):
                inside = False
    return rows


def check_card(card: str | Path, models: Mapping[str, Any]) -> int:
    """Assert that every component of the card exists with its equation label in its doc.

    ``models`` maps builder names to built models: Pyomo models (components looked up with
    ``find_component``) or CVXPY problems (constraints looked up by label).  Returns the
    number of rows checked; raises ``AssertionError`` naming the first mismatch.
    """
    rows = card_rows(card)
    assert rows, f"{card}: no '| builder | component | equation |' table found"
    for builder, comp, eq in rows:
        assert builder in models, f"{card}: builder {builder!r} was not built by the test"
        model = models[builder]
        if hasattr(model, "find_component"):
            c = model.find_component(comp)
            assert c is not None, f"{card}: {builder} has no component {comp!r}"
            doc = c.doc or ""
        else:  # CVXPY problem: constraints by label, or the objective
            labels = {getattr(c, "label", None) or str(c.constr_id): c for c in model.constraints}
            assert comp in labels, f"{card}: {builder} has no constraint labelled {comp!r}"
            doc = labels[comp].label or ""
        assert eq in doc, f"{card}: {builder}.{comp} doc {doc!r} does not cite {eq}"
    return len(rows)


#: The kernel's matplotlib backend: Jupyter's inline backend, so that figures become image/png
#: outputs exactly as in Jupyter (a notebook must not choose a backend itself).
INLINE_BACKEND = "module://matplotlib_inline.backend_inline"


def run_notebook(path: str | Path, timeout: int = 600) -> Any:
    """Execute a notebook headless (nbclient, kernel python3) and return it.

    The kernel runs with Jupyter's inline matplotlib backend whatever ``MPLBACKEND`` the
    calling process has, so the executed notebook holds the figures a reader would see.
    """
    import os

    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(str(path), as_version=4)
    saved = os.environ.get("MPLBACKEND")
    os.environ["MPLBACKEND"] = INLINE_BACKEND
    try:
        NotebookClient(nb, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(Path(path).parent)}}).execute()
    finally:
        if saved is None:
            os.environ.pop("MPLBACKEND", None)
        else:
            os.environ["MPLBACKEND"] = saved
    return nb


def notebook_images(nb: Any) -> list[Any]:
    """Every ``image/png`` output of an executed notebook, decoded to an RGBA array."""
    import base64
    import io

    import matplotlib.image as mpimg

    out = []
    for cell in nb.cells:
        for o in cell.get("outputs", []) if cell.cell_type == "code" else []:
            data = o.get("data", {}).get("image/png")
            if data:
                out.append(mpimg.imread(io.BytesIO(base64.b64decode(data)), format="png"))
    return out


def check_notebook_figures(nb: Any, min_count: int = 1) -> int:
    """Assert the executed notebook shows at least ``min_count`` figures and none is blank.

    A figure is blank when nearly all its pixels have one colour (an empty canvas); returns
    the number of figures.
    """
    import numpy as np

    images = notebook_images(nb)
    assert len(images) >= min_count, f"the notebook shows {len(images)} figures; expected at least {min_count}"
    for k, img in enumerate(images):
        flat = np.asarray(img).reshape(-1, np.asarray(img).shape[-1])
        # each pixel's colour rounded to 3 decimals as one integer (np.unique over rows is 10x slower)
        levels = np.rint(np.round(flat, 3) * 1000).astype(np.int64)
        code = np.zeros(len(flat), dtype=np.int64)
        for channel in levels.T:
            code = code * 1001 + channel
        _, counts = np.unique(code, return_counts=True)
        assert counts.max() < 0.995 * len(flat), f"figure {k + 1} of the notebook is blank"
    return len(images)


def notebook_errors(nb: Any) -> list[str]:
    """The errors an executed notebook shows, as ``"Name: value"`` strings (empty when none)."""
    return [f"{o.get('ename')}: {o.get('evalue')}" for c in nb.cells if c.cell_type == "code"
            for o in c.get("outputs", []) if o.get("output_type") == "error"]


def notebook_text(nb: Any) -> str:
    """Everything the executed notebook's code cells printed (stream outputs), in order."""
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))


def notebook_answer(nb: Any, name: str) -> Any:
    """The value of ``name`` that an executed notebook shows.

    Either the cell that assigns ``name`` ends with the expression ``name`` (its displayed
    value is read back with :func:`ast.literal_eval`), or a cell printed a line
    ``ANSWERS {"name": ...}`` (JSON).  Raises AssertionError when the notebook shows neither.
    """
    import ast
    import json
    import re

    for cell in nb.cells:
        if cell.cell_type == "code" and re.search(rf"^{re.escape(name)} = ", cell.source, re.M):
            for o in cell.get("outputs", []):
                if o.get("output_type") == "execute_result":
                    return ast.literal_eval(o["data"]["text/plain"])
    for line in notebook_text(nb).splitlines():
        if line.startswith("ANSWERS "):
            answers = json.loads(line[len("ANSWERS "):])
            if name in answers:
                return answers[name]
    raise AssertionError(f"the notebook shows no value of {name}")


def check_stored_notebook(path: str | Path) -> int:
    """Assert a stored notebook has no outputs, execution counts or backend choice; return its number of code cells.

    The notebook must never choose a matplotlib backend (``matplotlib.use``: the reader's Jupyter decides).
    """
    import nbformat

    nb = nbformat.read(str(path), as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    stored = [k for k, c in enumerate(code) if c.get("outputs") or c.get("execution_count") is not None]
    assert not stored, f"{path}: code cells {stored} are stored with outputs"
    assert not any("matplotlib.use" in c.source for c in code), f"{path} calls matplotlib.use"
    return len(code)
