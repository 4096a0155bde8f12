from pathlib import Path

from hetopt.testing import check_notebook_figures, run_notebook

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "oasis.ipynb"


def test_notebook_runs():
    nb = run_notebook(NOTEBOOK, timeout=120)
    check_notebook_figures(nb)  # the figures a reader sees, none blank
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
