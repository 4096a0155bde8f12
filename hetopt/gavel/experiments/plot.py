"""The figures of Gavel: rounds per job by GPU type, and the allocation matrix as a heatmap."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import a_type
from ...plot._common import (
    integer_ticks,
    job_colors,
    job_handles,
    new_axes,
)
from ...plot.bars import MAX_BARS, check_bars, draw_segments, time_scale

if TYPE_CHECKING:
    pass

__all__ = ['gantt', 'allocation_heatmap']


def gantt(instance: Any, result: Any, ax: Any = None, *, title: str | None = None, time_unit: str = "h",
                max_bars: int | None = MAX_BARS) -> Any:
    """Gavel's rounds: per job, the rounds in which it ran, coloured by the GPU type it ran on.

    One row per job; each round ``[start, end)`` of ``result.rounds`` in which the job was
    placed is a bar (gid "round") coloured by the GPU type (legend).  A job placed in a round
    may stop before the round's end (its last steps); the bar shows the whole round.  A static
    allocation (``hetopt.solve(inst, "max_min_fairness")``, no rounds) is drawn as its
    allocation matrix instead (:func:`allocation_heatmap`).

    Parameters
    ----------
    instance : GavelInstance
    result : GavelSimulation or a Gavel allocation
        ``gavel.simulate(inst, policy)`` (with ``record_rounds=True``), or the result of
        ``hetopt.solve(inst, policy)`` with an ``allocation`` matrix.
    ax : matplotlib Axes, optional
    title : str, optional
    time_unit : {"s", "ms", "min", "h"}
        Default hours (Gavel's jobs run for hours).
    max_bars : int or None
        Refuse to draw more bars (job-rounds) than this (default ``MAX_BARS``).

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    hetopt.errors.SizeLimitError
        When the rounds need more than ``max_bars`` bars.
    """
    if not hasattr(result, "rounds"):
        if hasattr(result, "allocation"):
            return allocation_heatmap(instance, result, ax=ax, title=title)
        raise TypeError(f"result is {a_type(result)}; expected a GavelSimulation or a Gavel allocation")
    if not result.rounds:
        raise ValueError("result.rounds is empty; run gavel.simulate with record_rounds=True")
    inst = instance
    scale = time_scale(time_unit)
    check_bars(sum(len(rd["placement"]) for rd in result.rounds), max_bars, "job-rounds")
    ax = new_axes(ax, (9, 1.0 + 0.35 * inst.n_jobs))
    tcolors = job_colors(inst.n_types)
    segs: dict[tuple[float, Any], list] = defaultdict(list)
    for rd in result.rounds:
        s, e = float(rd["start"]) / scale, float(rd["end"]) / scale
        for j, r in rd["placement"].items():
            segs[(int(j), tcolors[int(r)])].append((s, e - s))
    draw_segments(ax, segs, 0.7, "round", edgecolor="black", linewidth=0.3)
    arr = np.asarray(inst.arrival, dtype=float) / scale
    ax.scatter(arr, np.arange(inst.n_jobs), marker=">", color="black", s=20, zorder=3)
    ax.scatter(np.asarray(result.completion, dtype=float) / scale, np.arange(inst.n_jobs), marker="|", color="red",
               s=80, zorder=3)
    labels = [f"J{j} {inst.job_types[j]}"[:32] for j in range(inst.n_jobs)]
    integer_ticks(ax, "y", labels=labels)
    ax.set_ylim(-0.6, inst.n_jobs - 0.4)
    ax.set_xlabel(f"time [{time_unit}]")
    ax.set_ylabel("job")
    from matplotlib.lines import Line2D

    handles = job_handles(list(inst.gpu_types), tcolors) + [
        Line2D([], [], marker=">", color="black", ls="none", label="arrival"),
        Line2D([], [], marker="|", color="red", ls="none", markersize=10, label="completion")]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, title="GPU type")
    ax.set_title(title if title is not None else f"{result.policy}: average JCT {result.average_jct / scale:.3g} "
                                                 f"{time_unit}, {len(result.rounds)} rounds")
    return ax


def allocation_heatmap(instance: Any, result: Any, ax: Any = None, *, title: str | None = None) -> Any:
    """Gavel's allocation matrix X (jobs x GPU types, time fractions) as a heatmap with a colorbar.

    Parameters
    ----------
    instance : GavelInstance
    result : result with an ``allocation`` (J x R) matrix, or the matrix itself
        E.g. ``hetopt.solve(inst, "max_min_fairness")``.
    ax : matplotlib Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib Axes
        The image is ``ax.images[0]``, its colorbar ``ax.images[0].colorbar``.
    """
    X = np.asarray(result.allocation if hasattr(result, "allocation") else result, dtype=float)
    inst = instance
    if X.shape != (inst.n_jobs, inst.n_types):
        raise ValueError(f"allocation has shape {X.shape}; expected ({inst.n_jobs}, {inst.n_types}) (jobs x GPU types)")
    ax = new_axes(ax, (1.5 + 1.2 * inst.n_types, 1.0 + 0.35 * inst.n_jobs))
    im = ax.imshow(X, aspect="auto", cmap="Greens", vmin=0.0, vmax=1.0, interpolation="nearest")
    cb = ax.figure.colorbar(im, ax=ax)
    cb.set_label("time fraction X_jr [fraction of time]")
    if X.size <= 120:
        for j in range(X.shape[0]):
            for r in range(X.shape[1]):
                ax.text(r, j, f"{X[j, r]:.2f}", ha="center", va="center", fontsize=7,
                        color="white" if X[j, r] > 0.6 else "black")
    integer_ticks(ax, "x", labels=list(inst.gpu_types))
    integer_ticks(ax, "y", labels=[f"J{j}" for j in range(inst.n_jobs)])
    ax.set_xlabel("GPU type")
    ax.set_ylabel("job")
    ax.set_title(title if title is not None else f"{getattr(result, 'policy', '')} allocation X")
    return ax
