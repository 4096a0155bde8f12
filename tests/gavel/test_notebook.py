"""The Gavel notebook runs headless and draws its figure."""

from pathlib import Path

from hetopt.testing import check_notebook_figures, run_notebook

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "gavel.ipynb"


def test_notebook_runs_and_plots(monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = run_notebook(NOTEBOOK, timeout=180)
    check_notebook_figures(nb)  # the figures a reader sees, none blank
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs)
