"""Shared helpers of :mod:`hetopt.plot`: the lazy matplotlib import, axes, colours, legends.

matplotlib is imported only when a figure is drawn (the ``plot`` extra); no backend is ever
chosen here and ``plt.show()`` is never called, so the caller's (or Jupyter's) backend
decides where figures go.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..errors import a_type

__all__ = ["require_pyplot", "new_axes", "job_colors", "integer_ticks", "legend_if_many", "MISSING_MATPLOTLIB"]

#: Message of the ImportError raised when matplotlib is missing.
MISSING_MATPLOTLIB = ('hetopt.plot needs matplotlib, which is not installed; install the plot extra: '
                      'pip install "hetopt[plot]"')


#: New figures are at most this many inches wide and high (charts with hundreds of rows).
MAX_FIGURE_INCHES = 12.0


def require_pyplot() -> Any:
    """``matplotlib.pyplot``, or an ImportError that names ``pip install "hetopt[plot]"``."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - exercised by monkeypatching in the tests
        raise ImportError(MISSING_MATPLOTLIB) from exc
    return plt


def new_axes(ax: Any, figsize: tuple[float, float]) -> Any:
    """``ax`` itself, or the axes of a new figure of ``figsize`` inches when ``ax`` is None."""
    if ax is not None:
        if not hasattr(ax, "barh") or not hasattr(ax, "figure"):
            raise TypeError(f"ax is {a_type(ax)}; expected a matplotlib Axes or None")
        return ax
    plt = require_pyplot()
    w, h = figsize
    _, ax = plt.subplots(figsize=(min(w, MAX_FIGURE_INCHES), min(h, MAX_FIGURE_INCHES)), layout="constrained")
    return ax


def start_at_zero(ax: Any) -> None:
    """Start the time axis at 0, unless the axes share x with others.

    Axes that share x are left to autoscaling, so that stacked charts of different lengths keep
    one common range.
    """
    if len(ax.get_shared_x_axes().get_siblings(ax)) <= 1:
        ax.set_xlim(left=0)


def job_colors(n: int) -> list[Any]:
    """``n`` distinct colours: tab10 up to 10 jobs, tab20 up to 20, then a continuous map."""
    plt = require_pyplot()
    if n <= 10:
        cmap = plt.get_cmap("tab10")
        return [cmap(i) for i in range(n)]
    if n <= 20:
        cmap = plt.get_cmap("tab20")
        return [cmap(i) for i in range(n)]
    cmap = plt.get_cmap("turbo")
    return [cmap(x) for x in np.linspace(0.05, 0.95, n)]


def integer_ticks(ax: Any, axis: str = "y", labels: Sequence[str] | None = None, n: int | None = None) -> None:
    """Integer ticks on a discrete axis (servers, GPUs, jobs, slots).

    With ``labels`` (or ``n``) one tick per index ``0..n-1`` is placed; otherwise matplotlib
    chooses integer-only positions.
    """
    from matplotlib.ticker import MaxNLocator

    target = ax.yaxis if axis == "y" else ax.xaxis
    if labels is not None:
        count = len(labels)
    elif n is not None:
        count = int(n)
    else:
        target.set_major_locator(MaxNLocator(integer=True))
        return
    setter = ax.set_yticks if axis == "y" else ax.set_xticks
    if labels is not None and count <= 40:
        setter(range(count), labels=list(labels))
    elif count <= 40:
        setter(range(count))
    else:
        target.set_major_locator(MaxNLocator(integer=True))


def legend_if_many(ax: Any, handles: Iterable[Any] | None = None, **kwargs: Any) -> Any:
    """Add a legend when the axes show more than one labelled series (or ``handles``); return it."""
    if handles is not None:
        handles = list(handles)
        if len(handles) > 1:
            return ax.legend(handles=handles, **kwargs)
        return None
    h, labels = ax.get_legend_handles_labels()
    if len(labels) > 1:
        return ax.legend(**kwargs)
    return None


def job_handles(names: Sequence[str], colors: Sequence[Any], max_entries: int = 20) -> list[Any]:
    """Legend patches for jobs (at most ``max_entries``, then one "... n more" entry)."""
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=c, edgecolor="black", label=str(nm)) for nm, c in zip(names, colors, strict=True)]
    if len(handles) > max_entries:
        extra = len(handles) - max_entries + 1
        handles = handles[: max_entries - 1] + [Patch(facecolor="white", edgecolor="white", label=f"... {extra} more")]
    return handles


def method_name(solution: Any) -> str:
    """The method that produced ``solution``: the name recorded in ``info["method"]``, else its solver or policy.

    The front door records the method's name there (``hetopt.solve(inst, "exact")`` -> ``"exact"``);
    otherwise the solver or policy the solution reports is used.
    """
    info = getattr(solution, "info", None) or {}
    return str(info.get("method") or getattr(solution, "policy", "") or getattr(solution, "solver", "") or "")


def fmt_count(x: float) -> str:
    """A count for a label in one format everywhere: thousands separated, no exponent (``20,000``)."""
    return f"{x:,.0f}" if abs(x) >= 1 else f"{x:.3g}"
