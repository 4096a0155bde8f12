"""The notebook figure check can fail: no figure, or a blank one."""

import base64
import io

import matplotlib.pyplot as plt  # the backend comes from MPLBACKEND (tests/conftest.py)
import nbformat
import pytest

from hetopt.testing import check_notebook_figures


def _png(draw: bool) -> str:
    fig, ax = plt.subplots(figsize=(3, 2))
    if draw:
        ax.plot([0, 1, 2], [1, 0, 2], label="a line")
        ax.set_xlabel("x")
        ax.legend()
    else:
        ax.set_axis_off()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def _notebook(*pngs: str):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("plot()")
    cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": p}) for p in pngs]
    nb.cells.append(cell)
    return nb


def test_figures_are_counted_and_checked():
    assert check_notebook_figures(_notebook(_png(True), _png(True)), min_count=2) == 2


def test_no_figure_fails():
    with pytest.raises(AssertionError, match="shows 0 figures"):
        check_notebook_figures(_notebook())


def test_blank_figure_fails():
    with pytest.raises(AssertionError, match="blank"):
        check_notebook_figures(_notebook(_png(True), _png(False)))
