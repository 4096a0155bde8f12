"""The figures of Liu et al.: a static placement as a Gantt chart, and per-job throughput bars."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import a_type
from ...plot._common import (
    fmt_count,
    integer_ticks,
    job_colors,
    job_handles,
    method_name,
    new_axes,
    start_at_zero,
)
from ...plot.bars import MAX_LABELLED_BARS, draw_segments, time_scale

if TYPE_CHECKING:
    pass

__all__ = ['gantt', 'throughput_bars']


def gantt(instance: Any, solution: Any, ax: Any = None, *, title: str | None = None,
                    time_unit: str = "s", rate_ax: Any = None) -> Any:
    """Static placement as a Gantt chart: worker k busy for job i from 0 to its JCT Lambda_i.

    A placement (Liu et al.) is static: every worker trains its job's share ``|pi_{i,k}|`` of
    the samples and all workers of a job end together at ``Lambda_i`` (eq. (7)).  One bar per
    worker (gid "busy"), coloured by job, labelled with its samples; unassigned workers have
    no bar.  With ``rate_ax`` the per-job throughput ``V_i`` is drawn there too
    (:func:`throughput_bars`).  When ``ax`` is None a figure with both panels is created and
    the Gantt axes are returned (the rate axes are ``ax.figure.axes[1]``).

    A run of :func:`hetopt.placement.simulate` (a result with ``events``) is drawn as the
    placement of each period between reset events: worker k runs the job the event gave it
    from the event's time until the next event or the job's completion; there are no rate
    bars then (the rates change at every reset).

    Returns
    -------
    matplotlib Axes
    """
    static = all(hasattr(solution, a) for a in ("assignment", "jct", "samples", "throughput"))
    dynamic = hasattr(solution, "events") and hasattr(solution, "completion")
    if not (static or dynamic):
        raise TypeError(f"solution is {a_type(solution)}; expected a PlacementSolution or a "
                        "PlacementSimulation")
    inst = instance
    scale = time_scale(time_unit)
    if ax is None and static:
        from ...plot._common import require_pyplot

        plt = require_pyplot()
        fig, (ax, rate_ax) = plt.subplots(1, 2, figsize=(12, min(12.0, 1.5 + 0.4 * inst.n_workers)),
                                          gridspec_kw={"width_ratios": (2, 1)}, layout="constrained")
    else:
        ax = new_axes(ax, (8, 1.2 + 0.4 * inst.n_workers))
    colors = job_colors(inst.n_jobs)
    segs: dict[tuple[float, Any], list] = defaultdict(list)
    if static:
        for k, i in enumerate(np.asarray(solution.assignment)):
            segs[(k, colors[int(i)])].append((0.0, float(solution.jct[int(i)]) / scale))
    else:
        for e, (t0, k, i) in _dynamic_periods(solution):
            segs[(k, colors[i])].append((t0 / scale, (e - t0) / scale))
    draw_segments(ax, segs, 0.7, "busy", edgecolor="black", linewidth=0.5)
    if static and inst.n_workers <= MAX_LABELLED_BARS:
        for k, i in enumerate(np.asarray(solution.assignment)):
            ax.text(float(solution.jct[int(i)]) / scale / 2, k, f"{fmt_count(float(solution.samples[k]))} samples",
                    ha="center", va="center", fontsize=7, clip_on=True)
    integer_ticks(ax, "y", labels=list(inst.worker_names))
    ax.set_ylim(-0.6, inst.n_workers - 0.4)
    start_at_zero(ax)
    ax.set_xlabel(f"time [{time_unit}]")
    ax.set_ylabel("worker")
    handles = job_handles(list(inst.job_names), colors)
    if len(handles) > 1:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, title="job")
    name = method_name(solution) or ("dynamic (reset at completions)" if dynamic else "")
    ax.set_title(title if title is not None else f"{name}: average JCT {solution.average_jct:.4g} s")
    if rate_ax is not None and static:
        throughput_bars(instance, solution, ax=rate_ax)
    return ax


def _dynamic_periods(result: Any) -> list[tuple[float, tuple[float, int, int]]]:
    """(end, (start, worker, job)) of every worker's period in a placement simulation."""
    events = list(result.events)
    if not events or any("assignment" not in ev for ev in events):
        raise ValueError("result.events hold no worker assignment (the Gavel baseline records GPU types only); "
                         "expected a run of hetopt.placement.simulate with a placement policy")
    done = np.asarray(result.completion, dtype=float)
    out = []
    for n, ev in enumerate(events):
        t0 = float(ev["time"])
        nxt = float(events[n + 1]["time"]) if n + 1 < len(events) else np.inf
        for k, i in enumerate(ev["assignment"]):
            end = min(nxt, float(done[int(i)]))
            if end > t0:
                out.append((end, (t0, k, int(i))))
    return out


def throughput_bars(instance: Any, solution: Any, ax: Any = None) -> Any:
    """Per-job throughput V_i (eq. (13)) of a placement, stacked by the workers contributing.

    Each worker k of job i contributes ``rho_{i,k}`` samples/s to the stack of job i, drawn in
    the job's colour (the palette of :func:`gantt`, so both panels read alike) and
    labelled with the worker's name; the black outline is ``solution.throughput`` (V_i), equal
    to the stack under the proportional split (eq. (12)) and ``K_i min_k rho_{i,k}`` under
    Optimus' equal split.

    Returns
    -------
    matplotlib Axes
    """
    inst = instance
    ax = new_axes(ax, (4, 3))
    a = np.asarray(solution.assignment)
    bottom = np.zeros(inst.n_jobs)
    colors = job_colors(inst.n_jobs)
    for k in range(inst.n_workers):
        i = int(a[k])
        if i < 0:
            continue
        rate = float(inst.throughput[i, k])
        ax.bar([i], [rate], bottom=[bottom[i]], color=colors[i], edgecolor="white", linewidth=1.0,
               gid="worker_rate")
        if inst.n_workers <= MAX_LABELLED_BARS:
            ax.text(i, bottom[i] + rate / 2, str(inst.worker_names[k]), ha="center", va="center", fontsize=6,
                    clip_on=True)
        bottom[i] += rate
    ax.bar(range(inst.n_jobs), np.asarray(solution.throughput, dtype=float), fill=False, edgecolor="black",
           linewidth=1.5, label="V_i (eq. 13)", gid="throughput")
    integer_ticks(ax, "x", labels=list(inst.job_names))
    ax.set_xlabel("job")
    ax.set_ylabel("throughput [samples/s]")
    ax.set_title("per-job throughput, stacked by worker", fontsize=9)
    ax.legend(fontsize=7, loc="best")
    return ax
