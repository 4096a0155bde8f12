"""The Hadar notebook runs headless."""

from pathlib import Path

from hetopt.testing import check_notebook_figures, run_notebook

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "hadar.ipynb"


def test_notebook_runs():
    nb = run_notebook(NOTEBOOK, timeout=120)
    check_notebook_figures(nb)  # the figures a reader sees, none blank
    assert any(c.get("outputs") for c in nb.cells if c.cell_type == "code")
