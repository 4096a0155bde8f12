"""The figures of Hadar: GPUs given to each job in every round, and the price function (5)."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import a_type
from ...plot._common import (
    integer_ticks,
    job_colors,
    job_handles,
    new_axes,
    start_at_zero,
)
from ...plot.bars import MAX_BARS, check_bars, draw_segments, time_scale
from ...plot.prices import draw_price_curves

if TYPE_CHECKING:
    pass

__all__ = ['gantt', 'price_curve']


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
    raise TypeError(f"result is {a_type(result)}; expected a HadarSimulation (simulate) "
                    "or a HadarSolution (solve_exact)")


def gantt(instance: Any, result: Any, ax: Any = None, *, title: str | None = None, time_unit: str = "s",
                max_bars: int | None = MAX_BARS) -> Any:
    """The GPUs given to each job in every round (or slot) of a Hadar schedule.

    One row per physical GPU (machine h, type r, unit u, from ``capacity``); in every round the
    ``w^r_jh`` GPUs of type r on machine h given to job j fill that machine's type-r rows in
    job order, and each one is a bar of one round (gid "round") coloured by job.

    Parameters
    ----------
    instance : HadarInstance
    result : HadarSimulation or HadarSolution
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


def _curves(obj: Any, u: np.ndarray):
    from ..price import PriceParameters, price_parameters

    if isinstance(obj, PriceParameters):
        p, caps = obj, []
    else:
        p = price_parameters(obj)
        c = np.asarray(obj.capacity, dtype=int)
        caps = sorted(set(int(v) for v in c.ravel() if v > 0))
    log_lo, log_hi = math.log(p.u_min), math.log(p.u_max)
    curve = log_lo + u * (log_hi - log_lo)  # ln k(u) = ln U_min + u ln(U_max / U_min), eq. (5)
    points = [(f"c = {c} GPUs: gamma = 0..{c}", np.arange(c + 1) / c, log_lo + np.arange(c + 1) / c * (log_hi - log_lo))
              for c in caps[:4]]
    return [("k(gamma / c)", curve)], "Hadar unit price k (eq. 5)", "unit price k", "[utility per GPU-slot]", \
        "utilisation gamma / c of a (machine, GPU type) [fraction of capacity]", points


def price_curve(instance: Any, ax: Any = None, *, points: int = 201, title: str | None = None) -> Any:
    """Hadar unit price (eq. (5)) against utilisation, with a point at each whole number of GPUs.

    ``k(gamma) = U_min (U_max / U_min)^(gamma / c)``, the same for every type; the dots are
    ``gamma = 0..c`` for the capacities ``c`` of the instance.  The price axis is logarithmic.

    Parameters
    ----------
    instance : HadarInstance or PriceParameters
    ax : matplotlib Axes, optional
    points : int
        Points per curve (>= 2).
    title : str, optional

    Returns
    -------
    matplotlib Axes
    """
    from ...plot.prices import utilisation_grid
    from ..instance import HadarInstance
    from ..price import PriceParameters

    u = utilisation_grid(points)
    if not isinstance(instance, (HadarInstance, PriceParameters)):
        raise TypeError(f"instance is {a_type(instance)}; expected a HadarInstance or hadar PriceParameters")
    curves, default_title, yname, unit, xlabel, marks = _curves(instance, u)
    return draw_price_curves(u, curves, ax, title=title if title is not None else default_title, yname=yname,
                             unit=unit, xlabel=xlabel, marks=marks)
