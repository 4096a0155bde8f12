"""The figures of Wang et al.: per-GPU compute tasks and per-server all-reduces."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from ...errors import a_type
from ...plot._common import (
    integer_ticks,
    job_colors,
    job_handles,
    method_name,
    new_axes,
)
from ...plot.bars import MAX_BARS, check_bars, draw_segments, time_scale

if TYPE_CHECKING:
    pass

__all__ = ['gantt']


def gantt(instance: Any, solution: Any, ax: Any = None, *, title: str | None = None,
                     time_unit: str = "s", max_bars: int | None = MAX_BARS) -> Any:
    """Gantt chart of a contention schedule: per-GPU compute tasks and per-server all-reduces.

    Rows ``0..G-1`` are the GPUs (forward passes solid, gid "forward"; backward passes lighter,
    gid "backward"); the rows above are the servers' network links, where each all-reduce is a
    hatched bar on every server it spans (gid "allreduce").  Colours are jobs.

    Parameters
    ----------
    instance : ContentionInstance
    solution : ContentionSolution
        With a recorded ``trace``: ``simulate(inst, policy, record=True)`` (kept by default on small
        instances) or ``solve_exact``.
    ax : matplotlib Axes, optional
    title : str, optional
    time_unit : {"s", "ms", "min", "h"}
    max_bars : int or None
        Refuse to draw more bars than this (default :data:`MAX_BARS`).

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    ValueError
        When the solution has no trace (run the policy with ``record=True``).
    hetopt.errors.SizeLimitError
        When the trace needs more than ``max_bars`` bars.
    """
    trace = getattr(solution, "trace", None)
    if trace is None:
        raise TypeError(f"solution is {a_type(solution)}; expected a ContentionSolution")
    if len(trace) == 0:
        raise ValueError("solution.trace is empty; run the policy with record=True (e.g. simulate(inst, 'ada_srsf', record=True))")
    inst = instance
    scale = time_scale(time_unit)
    check_bars(sum(len(r.where) if r.kind == "c" else 1 for r in trace), max_bars, "tasks and all-reduces")
    G, S = inst.n_total_gpus, inst.n_servers
    ax = new_axes(ax, (10, 1.0 + 0.3 * (G + S)))
    colors = job_colors(inst.n_jobs)
    groups: dict[str, dict[tuple[float, Any], list]] = {"f": defaultdict(list), "b": defaultdict(list),
                                                        "c": defaultdict(list)}
    for r in trace:
        seg = (r.start / scale, (r.end - r.start) / scale)
        if r.kind == "c":
            for s in r.where:
                groups["c"][(G + int(s), colors[r.job])].append(seg)
        else:
            groups[r.kind][(int(r.where), colors[r.job])].append(seg)
    draw_segments(ax, groups["f"], 0.8, "forward", edgecolor="black", linewidth=0.3)
    draw_segments(ax, groups["b"], 0.8, "backward", edgecolor="black", linewidth=0.3, alpha=0.55)
    draw_segments(ax, groups["c"], 0.8, "allreduce", edgecolor="black", linewidth=0.3, hatch="//", alpha=0.8)
    names = [f"S{inst.server_of(g)}/GPU{g % inst.gpus_per_server}" for g in range(G)] + [f"S{s} network" for s in range(S)]
    integer_ticks(ax, "y", labels=names)
    ax.axhline(G - 0.5, color="grey", lw=0.8)
    ax.set_ylim(-0.6, G + S - 0.4)
    ax.set_xlabel(f"time [{time_unit}]")
    ax.set_ylabel("GPU (bottom) / server link (top)")
    from matplotlib.patches import Patch

    job_names = [f"J{k} {n}" if n else f"J{k}" for k, n in enumerate(inst.names)]
    handles = job_handles(job_names, colors) + [
        Patch(facecolor="lightgrey", edgecolor="black", label="forward"),
        Patch(facecolor="lightgrey", edgecolor="black", alpha=0.55, label="backward"),
        Patch(facecolor="lightgrey", edgecolor="black", hatch="//", label="all-reduce"),
    ]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7)
    method = method_name(solution)
    ax.set_title(title if title is not None else f"{method}: average JCT {solution.average_jct:.4g} s")
    return ax
