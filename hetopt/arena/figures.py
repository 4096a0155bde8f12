"""The arena's figures: the JCT CDF per policy, and the average JCT against the load with the bound as a line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..plot import jct_cdf

__all__ = ["jct_cdf_figure", "jct_vs_load"]


def jct_cdf_figure(jcts: Mapping[str, Any], ax: Any = None, *, title: str | None = None) -> Any:
    """Empirical CDF of the JCTs of each policy (hours, logarithmic axis); ``jcts``: policy -> JCTs (s)."""
    return jct_cdf(jcts, ax, time_unit="h", log=True, title=title)


def jct_vs_load(loads: Sequence[float], avg_jct: Mapping[str, Sequence[float]], bound: Sequence[float | None] | None,
                ax: Any = None, *, title: str | None = None, bound_label: str = "lower bound (every policy)",
                dashed: Sequence[str] = ()) -> Any:
    """Average JCT (h) of each policy against the load, and the certified bound as a black line where known.

    Parameters
    ----------
    loads : sequence of float
        Jobs/hour.
    avg_jct : mapping
        Policy -> average JCT (s) at each load.
    bound : sequence of float or None, optional
        The lower bound on the average JCT (s) at each load (None where there is none): drawn as a
        line, labelled ``bound_label``.
    dashed : sequence of str
        Policies drawn dashed (the page: those the bound does not cover).
    """
    from ..plot._common import new_axes

    ax = new_axes(ax, (7, 4.5))
    x = np.asarray(loads, dtype=float)
    for name, ys in avg_jct.items():
        ax.plot(x, np.asarray(ys, dtype=float) / 3600.0, marker="o", ms=3, lw=1, label=name,
                ls="--" if name in dashed else "-")
    if bound is not None and any(b is not None for b in bound):
        b = np.array([np.nan if v is None else float(v) for v in bound]) / 3600.0
        ax.plot(x, b, color="black", lw=2.5, label=bound_label)
    ax.set_xlabel("load (jobs/hour)")
    ax.set_ylabel("average JCT (h)")
    ax.set_yscale("log")
    if title:
        ax.set_title(title)
    ax.legend(fontsize=6, ncol=2, loc="upper left")
    return ax
