"""The teaching notebook runs headless."""

from pathlib import Path

from hetopt.testing import check_notebook_figures, run_notebook

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "contention.ipynb"


def test_notebook_runs():
    nb = run_notebook(NOTEBOOK, timeout=120)
    check_notebook_figures(nb)  # the figures a reader sees, none blank
    outputs = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "True" in outputs  # eq. (5) equals the fluid simulation
    assert "contention-free optimum" in outputs
    assert "gain appears only with the published accounting: True" in outputs
