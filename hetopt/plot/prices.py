"""Price functions of the primal-dual online algorithms: OASiS (22) and Hadar (5)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import a_type
from ._common import legend_if_many, new_axes

__all__ = ["price_curve"]

#: Largest |ln p| drawn as p on a log axis; beyond it (exp overflows a double) ln p is drawn.
MAX_LOG_PRICE = 700.0


def _oasis_curves(obj: Any, side: str, resources: Sequence[str] | None, u: np.ndarray):
    from ..oasis.prices import PriceBounds, price_bounds

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


def _hadar_curves(obj: Any, u: np.ndarray):
    from ..hadar.price import PriceParameters, price_parameters

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


def price_curve(instance: Any, ax: Any = None, *, side: str = "workers", resources: Sequence[str] | None = None,
                points: int = 201, title: str | None = None) -> Any:
    """Price against utilisation of the online primal-dual algorithms of OASiS and Hadar.

    OASiS (eq. (22)): ``P_h^r(g) = L (U^r / L)^(g / c_h^r)``, one curve per resource, for the
    worker servers (``side="workers"``, U_1^r, L_1) or the parameter servers (``"ps"``, U_2^r,
    L_2).  Hadar (eq. (5)): ``k(gamma) = U_min (U_max / U_min)^(gamma / c)``, the same for
    every type, with a point at each whole number of GPUs ``gamma`` for the capacities of the
    instance.  The price axis is logarithmic; when ``ln(U / L)`` is so large that the prices
    overflow a double (OASiS with the paper's utilities: ln(U/L) ~ 1,600), ``ln p`` is drawn
    on a linear axis instead (the label says so).

    Parameters
    ----------
    instance : OasisInstance, oasis PriceBounds, HadarInstance or hadar PriceParameters
    ax : matplotlib Axes, optional
    side : {"workers", "ps"}
        OASiS only.
    resources : sequence of str, optional
        OASiS only: the resources drawn (default all).
    points : int
        Points per curve (>= 2).
    title : str, optional

    Returns
    -------
    matplotlib Axes
    """
    from ..hadar.instance import HadarInstance
    from ..hadar.price import PriceParameters
    from ..oasis.instance import OasisInstance
    from ..oasis.prices import PriceBounds

    if side not in ("workers", "ps"):
        raise ValueError(f"side is {side!r}; expected 'workers' or 'ps'")
    if isinstance(points, bool) or not isinstance(points, (int, np.integer)) or points < 2:
        raise ValueError(f"points is {points!r}; expected an integer >= 2")
    u = np.linspace(0.0, 1.0, int(points))
    if isinstance(instance, (OasisInstance, PriceBounds)):
        curves, default_title, yname, unit, xlabel, marks = _oasis_curves(instance, side, resources, u)
    elif isinstance(instance, (HadarInstance, PriceParameters)):
        curves, default_title, yname, unit, xlabel, marks = _hadar_curves(instance, u)
    else:
        raise TypeError(f"instance is {a_type(instance)}; expected an OasisInstance, oasis PriceBounds, "
                        "HadarInstance or hadar PriceParameters")
    ax = new_axes(ax, (6, 3.5))
    finite = [c for _, c in curves if c is not None]
    extreme = max((float(np.max(np.abs(c))) for c in finite), default=0.0)
    in_logs = extreme > MAX_LOG_PRICE
    for label, c in curves:
        if c is None:  # ln L = -inf: price 0 below capacity (nothing to draw on a log axis)
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
    ax.set_title(title if title is not None else default_title, fontsize=9)
    legend_if_many(ax, fontsize=7)
    return ax
