"""The Hadar notebook runs headless."""

from pathlib import Path

from hetopt.testing import run_notebook

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "hadar.ipynb"


def test_notebook_runs():
    nb = run_notebook(NOTEBOOK, timeout=120)
    assert any(c.get("outputs") for c in nb.cells if c.cell_type == "code")
