"""The figures of OASiS: per-job allocation over slots, y/z heatmaps, and the price functions (22)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import a_type
from ...plot._common import (
    integer_ticks,
    job_colors,
    method_name,
    new_axes,
    require_pyplot,
)
from ...plot.bars import MAX_LABELLED_BARS, draw_segments
from ...plot.prices import draw_price_curves

if TYPE_CHECKING:
    from matplotlib.artist import Artist

__all__ = ['gantt', 'allocation_heatmap', 'price_curve']


def gantt(instance: Any, solution: Any, ax: Any = None, *, title: str | None = None,
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


def _curves(obj: Any, side: str, resources: Sequence[str] | None, u: np.ndarray):
    from ..prices import PriceBounds, price_bounds

    if isinstance(obj, PriceBounds):
        b, names = obj, None
    else:
        b, names = price_bounds(obj), list(obj.resource_names)
    log_U = b.log_U1 if side == "workers" else b.log_U2
    log_L = b.log_L1 if side == "workers" else b.log_L2
    names = names or [f"resource {r}" for r in range(log_U.size)]
    if resources is not None:
        unknown = [r for r in resources if r not in names]
        if unknown:
            raise ValueError(f"resources {unknown} are not among {names}")
    curves = []
    for r, name in enumerate(names):
        if resources is not None and name not in resources:
            continue
        label = name if log_U[r] > log_L else f"{name} (no job uses it: U = L)"
        # ln P(u) = ln L + u (ln U - ln L), eq. (22) in logarithms
        curves.append((label, log_L + u * (float(log_U[r]) - log_L) if math.isfinite(log_L) else None))
    what = "worker servers" if side == "workers" else "PS servers"
    sym = "p_h^r" if side == "workers" else "q_k^r"
    return curves, f"OASiS price {sym} (eq. 22), {what}", "price", "[utility per unit of resource per slot]", \
        f"utilisation g / c of a {'worker' if side == 'workers' else 'PS'} server [fraction of capacity]", None


def price_curve(instance: Any, ax: Any = None, *, side: str = "workers", resources: Sequence[str] | None = None,
                points: int = 201, title: str | None = None) -> Any:
    """OASiS price (eq. (22)) against utilisation, one curve per resource.

    ``P_h^r(g) = L (U^r / L)^(g / c_h^r)`` for the worker servers (``side="workers"``, U_1^r,
    L_1) or the parameter servers (``"ps"``, U_2^r, L_2).  The price axis is logarithmic; when
    ``ln(U / L)`` is so large that the prices overflow a double (the paper's utilities give
    ln(U/L) ~ 1,600), ``ln p`` is drawn on a linear axis instead (the label says so).

    Parameters
    ----------
    instance : OasisInstance or PriceBounds
    ax : matplotlib Axes, optional
    side : {"workers", "ps"}
    resources : sequence of str, optional
        The resources drawn (default all).
    points : int
        Points per curve (>= 2).
    title : str, optional

    Returns
    -------
    matplotlib Axes
    """
    from ...plot.prices import utilisation_grid
    from ..instance import OasisInstance
    from ..prices import PriceBounds

    if side not in ("workers", "ps"):
        raise ValueError(f"side is {side!r}; expected 'workers' or 'ps'")
    u = utilisation_grid(points)
    if not isinstance(instance, (OasisInstance, PriceBounds)):
        raise TypeError(f"instance is {a_type(instance)}; expected an OasisInstance or oasis PriceBounds")
    curves, default_title, yname, unit, xlabel, marks = _curves(instance, side, resources, u)
    return draw_price_curves(u, curves, ax, title=title if title is not None else default_title, yname=yname,
                             unit=unit, xlabel=xlabel, marks=marks)
