"""Gantt charts of schedules in continuous time: Hare, contention (Wang et al.), placement (Liu et al.).

Every bar is one interval of the schedule, drawn with ``Axes.broken_barh``; the collections
carry a ``gid`` naming what they show ("compute", "sync", "forward", "backward",
"allreduce", "busy") so that tests and readers can recover the drawn intervals.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import a_type
from ._common import fmt_count, integer_ticks, job_colors, job_handles, method_name, new_axes, start_at_zero

__all__ = ["hare_gantt", "contention_gantt", "placement_gantt", "throughput_bars", "TIME_UNITS"]

#: Time units accepted by ``time_unit=``: seconds per unit.
TIME_UNITS: Mapping[str, float] = {"s": 1.0, "ms": 1e-3, "min": 60.0, "h": 3600.0}

#: Text labels are written inside bars only when there are at most this many bars.
MAX_LABELLED_BARS = 60

#: Default limit on the bars of one chart (about 30 s to draw 500,000 on one core).
MAX_BARS = 500_000


def check_bars(n: int, max_bars: int | None, what: str) -> None:
    """SizeLimitError when a chart would draw more than ``max_bars`` bars (None: no limit)."""
    if max_bars is not None and n > max_bars:
        from ..errors import SizeLimitError

        raise SizeLimitError(f"the chart would draw {n} bars ({what}); max_bars is {max_bars}: pass a larger "
                             "max_bars=, or None, or draw a smaller instance")


def time_scale(time_unit: str) -> float:
    """Seconds per ``time_unit``; ValueError naming the accepted units."""
    if time_unit not in TIME_UNITS:
        raise ValueError(f"time_unit is {time_unit!r}; expected one of {', '.join(TIME_UNITS)}")
    return TIME_UNITS[time_unit]


def draw_segments(ax: Any, segments: Mapping[tuple[float, Any], list[tuple[float, float]]], height: float,
                  gid: str, **style: Any) -> None:
    """One ``broken_barh`` per (row, colour) key: ``segments[(y, color)] = [(left, width), ...]``."""
    for (y, color), segs in segments.items():
        coll = ax.broken_barh(segs, (y - height / 2, height), facecolors=color, **style)
        coll.set_gid(gid)


def hare_gantt(instance: Any, solution: Any, ax: Any = None, *, title: str | None = None, time_unit: str = "s",
               labels: bool | None = None) -> Any:
    """Gantt chart of a Hare schedule: one row per GPU, one bar per task, coloured by job.

    Compute ``[x_i, x_i + T^c_{i,m})`` is a solid bar (gid "compute"); synchronization
    ``[x_i + T^c, x_i + T^c + T^s)`` a thin hatched bar (gid "sync"; it may overlap the next task
    of the GPU, constraint (8) reserves only the compute time).

    Parameters
    ----------
    instance : HareInstance
    solution : HareSolution or hare SimulationResult
        A schedule (any Hare method) or a simulator run (its ``executed`` schedule is drawn).
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
        raise TypeError(f"solution is {a_type(solution)}; expected a HareSolution or a hare SimulationResult")
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


def contention_gantt(instance: Any, solution: Any, ax: Any = None, *, title: str | None = None,
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


def placement_gantt(instance: Any, solution: Any, ax: Any = None, *, title: str | None = None,
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
        from ._common import require_pyplot

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
    the job's colour (the palette of :func:`placement_gantt`, so both panels read alike) and
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