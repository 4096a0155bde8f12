"""Price functions of the primal-dual online algorithms, drawn against utilisation.

The curves come from the paper's plot adapter (``hetopt.oasis.experiments.plot.price_curve``,
``hetopt.hadar.experiments.plot.price_curve``); this module only draws them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ArgumentError
from ._common import legend_if_many, new_axes

__all__ = ["draw_price_curves", "utilisation_grid", "MAX_LOG_PRICE"]

#: Largest |ln p| drawn as p on a log axis; beyond it (exp overflows a double) ln p is drawn.
MAX_LOG_PRICE = 700.0


def utilisation_grid(points: int) -> np.ndarray:
    """``points`` utilisations evenly spaced in [0, 1]; ArgumentError unless ``points`` is an integer >= 2."""
    if isinstance(points, bool) or not isinstance(points, (int, np.integer)) or points < 2:
        raise ArgumentError(f"points is {points!r}; expected an integer >= 2")
    return np.linspace(0.0, 1.0, int(points))


def draw_price_curves(u: np.ndarray, curves: Sequence[tuple[str, np.ndarray | None]], ax: Any = None, *,
                      title: str, yname: str, unit: str, xlabel: str,
                      marks: Sequence[tuple[str, np.ndarray, np.ndarray]] | None = None) -> Any:
    """Draw log-prices ``curves`` (label, ln p over ``u``) on a log axis, or ln p when p overflows a double.

    ``marks`` are points (label, utilisations, ln p) drawn as dots.  A curve of None (``ln L =
    -inf``: price 0 below capacity) is not drawn.  Returns the matplotlib Axes.
    """
    ax = new_axes(ax, (6, 3.5))
    finite = [c for _, c in curves if c is not None]
    extreme = max((float(np.max(np.abs(c))) for c in finite), default=0.0)
    in_logs = extreme > MAX_LOG_PRICE
    for label, c in curves:
        if c is None:
            continue
        ax.plot(u, c if in_logs else np.exp(c), label=label)
    for label, xs, lc in marks or []:
        ax.plot(xs, lc if in_logs else np.exp(lc), "o", ms=5, label=label)
    if not in_logs:
        ax.set_yscale("log")
        ax.set_ylabel(f"{yname} {unit} (log scale)")
    else:
        ax.set_ylabel(f"ln({yname} {unit})")
    ax.set_xlim(0.0, 1.0)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=9)
    legend_if_many(ax, fontsize=7)
    return ax
