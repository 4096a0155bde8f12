"""Charts of slotted and round-based schedules: OASiS (slots), Hadar (rounds/slots), Gavel (rounds).

Gantt bars carry a ``gid`` ("slot", "round") so that the drawn intervals can be recovered;
heatmaps carry a colorbar and integer ticks on their discrete axes.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import a_type
from ._common import integer_ticks, job_colors, job_handles, method_name, new_axes, require_pyplot, start_at_zero
from .intervals import MAX_BARS, MAX_LABELLED_BARS, check_bars, draw_segments, time_scale

if TYPE_CHECKING:
    from matplotlib.artist import Artist

__all__ = ["oasis_gantt", "allocation_heatmap", "hadar_gantt", "gavel_gantt", "gavel_allocation_heatmap"]


def oasis_gantt(instance: Any, solution: Any, ax: Any = None, *, title: str | None = None,
                labels: bool | None = None) -> Any:
    """Per-job allocation of an OASiS solution over time slots.

    One row per job; slot ``t`` in which job i has workers is a bar ``[t - 0.5, t + 0.5)``
    (gid "slot") labelled ``workers/PS`` (sum_h y_ih(t) / sum_k z_ik(t)).  A triangle marks each
    job's arrival slot a_i; jobs that were not admitted (x_i = 0) have no bar.

    Parameters
    ----------
    instance : OasisInstance
    solution : OasisSolution
        From any OASiS method (``simulate(inst, "oasis")``, ``solve_exact``, ``simulate(inst, "drf")``, ...).
    ax : matplotlib Axes, optional
    title : str, optional
    labels : bool, optional
        Write the worker/PS counts in the bars (default: at most 60 bars).

    Returns
    -------
    matplotlib Axes
    """
    if not hasattr(solution, "schedules"):
        raise TypeError(f"solution is {a_type(solution)}; expected an OasisSolution")
    inst = instance
    I = inst.n_jobs
    ax = new_axes(ax, (9, 1.0 + 0.4 * I))
    colors = job_colors(I)
    segs: dict[tuple[float, Any], list] = defaultdict(list)
    texts = []
    for i, s in solution.schedules.items():
        nw, nz = np.asarray(s.workers).sum(axis=0), np.asarray(s.ps).sum(axis=0)
        for t0 in np.flatnonzero(nw > 0):
            t = int(t0) + 1
            segs[(int(i), colors[int(i)])].append((t - 0.5, 1.0))
            texts.append((t, int(i), f"{nw[t0]}/{nz[t0]}"))
    draw_segments(ax, segs, 0.7, "slot", edgecolor="black", linewidth=0.4)
    if labels if labels is not None else len(texts) <= MAX_LABELLED_BARS:
        for t, i, txt in texts:
            ax.text(t, i, txt, ha="center", va="center", fontsize=6, clip_on=True)
    arr = np.asarray(inst.arrival, dtype=float)
    ax.scatter(arr - 0.5, np.arange(I), marker=">", color="black", s=25, zorder=3, label="arrival slot a_i")
    admitted = set(int(i) for i in solution.admitted)
    names = [f"J{i}" if i in admitted else f"J{i} (not admitted)" for i in range(I)]
    integer_ticks(ax, "y", labels=names)
    integer_ticks(ax, "x")
    ax.set_ylim(-0.6, I - 0.4)
    ax.set_xlim(0.5, inst.horizon + 0.5)
    ax.set_xlabel("time slot t [slot]")
    ax.set_ylabel("job")
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Artist] = [Patch(facecolor=colors[i], edgecolor="black", label=f"J{i}")
                             for i in sorted(admitted)[:19]]
    handles.append(Line2D([], [], marker=">", color="black", ls="none", label="arrival slot a_i"))
    if len(handles) > 1:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7,
                  title="bar text: workers/PS")
    ax.set_title(title if title is not None else f"{method_name(solution)}: total utility {solution.total_utility:.4g}")
    return ax


def allocation_heatmap(instance: Any, solution: Any, job: int | None = None, *, side: str = "workers",
                       ax: Any = None, crop: bool = True, title: str | None = None) -> Any:
    """Heatmap of y_ih(t) (or z_ik(t)) of an OASiS schedule: servers x slots, with a colorbar.

    Parameters
    ----------
    instance : OasisInstance
    solution : OasisSolution or JobSchedule
        A whole solution, or one job's schedule (e.g. ``best_schedule(...).schedule``).
    job : int, optional
        The job of ``solution`` to draw; None sums every admitted job (the server load in
        workers or parameter servers).
    side : {"workers", "ps"}
        y_ih(t) on the worker servers or z_ik(t) on the PS servers.
    ax : matplotlib Axes, optional
    crop : bool
        Show only the slots from the first busy slot (or the arrival, if earlier) to the last
        busy slot (True, default), or the whole horizon 1..T.
    title : str, optional

    Returns
    -------
    matplotlib Axes
        The heatmap's image is ``ax.images[0]``; its colorbar is ``ax.images[0].colorbar``.
    """
    if side not in ("workers", "ps"):
        raise ValueError(f"side is {side!r}; expected 'workers' or 'ps'")
    inst = instance
    n_servers = inst.n_worker_servers if side == "workers" else inst.n_ps_servers
    if hasattr(solution, "schedules"):
        if job is None:
            mats = [np.asarray(getattr(s, side)) for s in solution.schedules.values()]
            M = np.sum(mats, axis=0) if mats else np.zeros((n_servers, inst.horizon), dtype=int)
            first = min((int(inst.arrival[i]) for i in solution.schedules), default=1)
            what = "all admitted jobs"
        else:
            if job not in solution.schedules:
                raise ValueError(f"job is {job!r}; the admitted jobs are {sorted(solution.schedules)}")
            M = np.asarray(getattr(solution.schedules[job], side))
            first, what = int(inst.arrival[job]), f"job {job}"
    elif hasattr(solution, "workers") and hasattr(solution, "ps"):
        M = np.asarray(getattr(solution, side))
        first, what = int(inst.arrival[solution.job]), f"job {solution.job}"
    else:
        raise TypeError(f"solution is {a_type(solution)}; expected an OasisSolution or a JobSchedule")
    T = M.shape[1]
    busy = np.flatnonzero(M.sum(axis=0) > 0)
    if crop and busy.size:
        c0, c1 = min(first - 1, int(busy[0])), int(busy[-1]) + 1
    else:
        c0, c1 = 0, T
    ax = new_axes(ax, (7, 1.2 + 0.3 * M.shape[0]))
    vmax = max(1, int(M.max()) if M.size else 1)
    cmap = require_pyplot().get_cmap("Blues", vmax + 1)
    im = ax.imshow(M[:, c0:c1], aspect="auto", cmap=cmap, vmin=-0.5, vmax=vmax + 0.5, interpolation="nearest",
                   extent=(c0 + 0.5, c1 + 0.5, M.shape[0] - 0.5, -0.5))
    sym = "y_ih(t)" if side == "workers" else "z_ik(t)"
    cb = ax.figure.colorbar(im, ax=ax, ticks=range(0, vmax + 1))
    cb.set_label(f"{'workers' if side == 'workers' else 'parameter servers'} {sym} [count]")
    integer_ticks(ax, "y", n=M.shape[0])
    integer_ticks(ax, "x")
    ax.set_xlabel("time slot t [slot]")
    ax.set_ylabel(f"{'worker' if side == 'workers' else 'PS'} server {'h' if side == 'workers' else 'k'} [index]")
    ax.set_title(title if title is not None else f"{sym}, {what}")
    return ax


def _hadar_rounds(instance: Any, result: Any) -> tuple[list[tuple[float, float, np.ndarray]], str]:
    """(start s, length s, J x H x R allocation) of every round or slot, and the result's name."""
    if getattr(result, "rounds", None) is not None and hasattr(result, "round_length"):
        if not result.rounds:
            raise ValueError("result.rounds is empty; run hadar.simulate with record_rounds=True")
        return ([(float(r["start"]), float(result.round_length), np.asarray(r["allocation"])) for r in result.rounds],
                result.policy or result.solver)
    sched = getattr(result, "schedule", None)
    if isinstance(sched, np.ndarray) and sched.ndim == 4:
        L = float(instance.slot_length)
        used = np.flatnonzero(sched.sum(axis=(0, 1, 2)) > 0)
        return [(t * L, L, sched[:, :, :, t]) for t in used], result.solver
    raise TypeError(f"result is {a_type(result)}; expected a hadar SimulationResult (simulate) "
                    "or a HadarSolution (solve_exact)")


def hadar_gantt(instance: Any, result: Any, ax: Any = None, *, title: str | None = None, time_unit: str = "s",
                max_bars: int | None = MAX_BARS) -> Any:
    """The GPUs given to each job in every round (or slot) of a Hadar schedule.

    One row per physical GPU (machine h, type r, unit u, from ``capacity``); in every round the
    ``w^r_jh`` GPUs of type r on machine h given to job j fill that machine's type-r rows in
    job order, and each one is a bar of one round (gid "round") coloured by job.

    Parameters
    ----------
    instance : HadarInstance
    result : hadar SimulationResult or HadarSolution
        ``simulate(inst, policy)`` (with ``record_rounds=True``) or ``solve_exact(inst)``
        (slots of ``slot_length`` seconds).
    ax : matplotlib Axes, optional
    title : str, optional
    time_unit : {"s", "ms", "min", "h"}
    max_bars : int or None
        Refuse to draw more bars (GPU-rounds) than this (default ``MAX_BARS``).

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    hetopt.errors.SizeLimitError
        When the schedule needs more than ``max_bars`` bars.
    """
    rounds, name = _hadar_rounds(instance, result)
    check_bars(int(sum(int(A.sum()) for _, _, A in rounds)), max_bars, "GPU-rounds")
    inst = instance
    scale = time_scale(time_unit)
    cap = np.asarray(inst.capacity, dtype=int)
    H, R = cap.shape
    row0 = {}
    names: list[str] = []
    for h in range(H):
        for r in range(R):
            row0[(h, r)] = len(names)
            names += [f"M{h}/{inst.gpu_types[r]}#{u}" for u in range(cap[h, r])]
    ax = new_axes(ax, (9, 1.0 + 0.3 * len(names)))
    colors = job_colors(inst.n_jobs)
    segs: dict[tuple[float, Any], list] = defaultdict(list)
    for start, length, A in rounds:
        for h in range(H):
            for r in range(R):
                u = 0
                for j in range(inst.n_jobs):
                    for _ in range(int(A[j, h, r])):
                        if u >= cap[h, r]:
                            raise ValueError(f"round at {start:g} s gives machine {h} more {inst.gpu_types[r]} GPUs "
                                             f"than its capacity {cap[h, r]}")
                        segs[(row0[(h, r)] + u, colors[j])].append((start / scale, length / scale))
                        u += 1
    draw_segments(ax, segs, 0.8, "round", edgecolor="black", linewidth=0.3)
    integer_ticks(ax, "y", labels=names)
    ax.set_ylim(-0.6, len(names) - 0.4)
    start_at_zero(ax)
    ax.set_xlabel(f"time [{time_unit}]")
    ax.set_ylabel("GPU (machine/type#unit)")
    handles = job_handles(list(inst.job_names), colors)
    if len(handles) > 1:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, title="job")
    ax.set_title(title if title is not None else f"{name}: {len(rounds)} rounds")
    return ax


def gavel_gantt(instance: Any, result: Any, ax: Any = None, *, title: str | None = None, time_unit: str = "h",
                max_bars: int | None = MAX_BARS) -> Any:
    """Gavel's rounds: per job, the rounds in which it ran, coloured by the GPU type it ran on.

    One row per job; each round ``[start, end)`` of ``result.rounds`` in which the job was
    placed is a bar (gid "round") coloured by the GPU type (legend).  A job placed in a round
    may stop before the round's end (its last steps); the bar shows the whole round.  A static
    allocation (``hetopt.solve(inst, "max_min_fairness")``, no rounds) is drawn as its
    allocation matrix instead (:func:`gavel_allocation_heatmap`).

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
            return gavel_allocation_heatmap(instance, result, ax=ax, title=title)
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


def gavel_allocation_heatmap(instance: Any, result: Any, ax: Any = None, *, title: str | None = None) -> Any:
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
