"""The figures of Hare (Chen et al.): the Gantt chart of a schedule, one row per GPU."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from ...errors import a_type
from ...plot._common import (
    integer_ticks,
    job_colors,
    job_handles,
    new_axes,
    start_at_zero,
)
from ...plot.bars import MAX_LABELLED_BARS, draw_segments, time_scale

if TYPE_CHECKING:
    pass

__all__ = ['gantt']


def gantt(instance: Any, solution: Any, ax: Any = None, *, title: str | None = None, time_unit: str = "s",
               labels: bool | None = None) -> Any:
    """Gantt chart of a Hare schedule: one row per GPU, one bar per task, coloured by job.

    Compute ``[x_i, x_i + T^c_{i,m})`` is a solid bar (gid "compute"); synchronization
    ``[x_i + T^c, x_i + T^c + T^s)`` a thin hatched bar (gid "sync"; it may overlap the next task
    of the GPU, constraint (8) reserves only the compute time).

    Parameters
    ----------
    instance : HareInstance
    solution : HareSolution (HareSimulation included) or HareReplay
        A schedule (any Hare method) or a replay (its ``executed`` schedule is drawn).
    ax : matplotlib Axes, optional
    title : str, optional
        Default: the method and sum_n w_n C_n.
    time_unit : {"s", "ms", "min", "h"}
        Unit of the instance's times is taken as seconds; the axis shows ``time_unit``.
    labels : bool, optional
        Write ``job/round`` in every bar (default: when there are at most 60 tasks).

    Returns
    -------
    matplotlib Axes
    """
    sol = getattr(solution, "executed", solution)
    if not all(hasattr(sol, a) for a in ("start", "gpu", "compute_end", "sync_end")):
        raise TypeError(f"solution is {a_type(solution)}; expected a HareSolution or a HareReplay")
    inst = instance
    scale = time_scale(time_unit)
    ax = new_axes(ax, (8, 0.8 + 0.45 * inst.n_gpus))
    colors = job_colors(inst.n_jobs)
    compute: dict[tuple[float, Any], list] = defaultdict(list)
    sync: dict[tuple[float, Any], list] = defaultdict(list)
    for i in range(inst.n_tasks):
        j, m = int(inst.task_job[i]), int(sol.gpu[i])
        s, c, e = float(sol.start[i]) / scale, float(sol.compute_end[i]) / scale, float(sol.sync_end[i]) / scale
        compute[(m, colors[j])].append((s, c - s))
        if e > c:
            sync[(m, colors[j])].append((c, e - c))
    draw_segments(ax, compute, 0.7, "compute", edgecolor="black", linewidth=0.5)
    for (y, color), segs in sync.items():
        coll = ax.broken_barh(segs, (y - 0.15, 0.3), facecolors="none", edgecolor=color, hatch="///", linewidth=0.5)
        coll.set_gid("sync")
    if labels if labels is not None else inst.n_tasks <= MAX_LABELLED_BARS:
        for i in range(inst.n_tasks):
            s, c = float(sol.start[i]) / scale, float(sol.compute_end[i]) / scale
            ax.text((s + c) / 2, int(sol.gpu[i]), f"{inst.job_names[int(inst.task_job[i])]}/r{int(inst.task_round[i])}",
                    ha="center", va="center", fontsize=7, clip_on=True)
    integer_ticks(ax, "y", labels=list(inst.gpu_names))
    ax.set_ylim(-0.6, inst.n_gpus - 0.4)
    start_at_zero(ax)
    ax.set_xlabel(f"time [{time_unit}]")
    ax.set_ylabel("GPU")
    handles = job_handles(list(inst.job_names), colors)
    if sync:
        from matplotlib.patches import Patch

        handles.append(Patch(facecolor="none", edgecolor="black", hatch="///", label="synchronization"))
    if len(handles) > 1:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, title="job")
    method = getattr(sol, "method", "") or getattr(sol, "solver", "")
    ax.set_title(title if title is not None else f"{method}: sum w C = {sol.objective:.4g}")
    return ax
