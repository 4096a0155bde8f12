"""Summary charts: JCT CDFs, ratios against a paper's bound, and claims-ledger sweeps."""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import a_type
from ..result import Certificate
from ._common import legend_if_many, new_axes
from .bars import time_scale

__all__ = ["jct_cdf", "ratio_vs_bound", "sweep"]


def _jcts(name: str, value: Any) -> np.ndarray:
    """The JCT array of a result or an array-like; ValueError naming the series when unusable."""
    v = getattr(value, "jct", value)
    try:
        a = np.asarray(v, dtype=float).ravel()
    except (TypeError, ValueError) as exc:
        raise ValueError(f"results[{name!r}] is {a_type(value)}; expected an array of JCTs or a result "
                         "with a .jct array") from exc
    if a.size == 0 or not np.all(np.isfinite(a)):
        raise ValueError(f"results[{name!r}] has {a.size} JCTs; expected a non-empty array of finite numbers")
    return a


def jct_cdf(results: Mapping[str, Any], ax: Any = None, *, time_unit: str = "s", log: bool = False,
            xlabel: str | None = None, title: str | None = None) -> Any:
    """Empirical CDFs of job completion times, one step line per method.

    Parameters
    ----------
    results : mapping name -> array of JCTs (seconds), or -> result with a ``.jct`` array
        E.g. ``{"Ada-SRSF": sol.jct, "SRSF(1)": other}`` (any contention, Hadar, Gavel or
        Hare simulation result, or a placement solution).
    ax : matplotlib Axes, optional
    time_unit : {"s", "ms", "min", "h"}
        The JCTs are in seconds; the axis shows ``time_unit``.
    log : bool
        Logarithmic time axis.
    xlabel, title : str, optional

    Returns
    -------
    matplotlib Axes
        Line ``k`` (``ax.lines[k]``) steps from 0 to 1 through the sorted JCTs of the k-th method:
        ``F(x) = #{jobs with JCT <= x} / n``.
    """
    if not isinstance(results, Mapping) or not results:
        raise ValueError(f"results is {a_type(results)}; expected a non-empty mapping name -> JCTs")
    scale = time_scale(time_unit)
    ax = new_axes(ax, (6, 3.5))
    for name, value in results.items():
        x = np.sort(_jcts(str(name), value)) / scale
        f = np.arange(1, x.size + 1) / x.size
        ax.step(np.concatenate(([x[0]], x)), np.concatenate(([0.0], f)), where="post", label=str(name))
    if log:
        ax.set_xscale("log")
    ax.set_ylim(0.0, 1.02)
    ax.set_xlabel(xlabel or f"job completion time [{time_unit}]{' (log scale)' if log else ''}")
    ax.set_ylabel("fraction of jobs completed (CDF) [-]")
    if title:
        ax.set_title(title)
    legend_if_many(ax, fontsize=8)
    return ax


def _series(name: str, values: Any) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None, np.ndarray | None]:
    """(ratios, limits or None, proven flags or None, holds flags or None) of one series."""
    vals = list(values) if not isinstance(values, np.ndarray) else values
    if len(vals) and all(isinstance(getattr(c, "vs_optimum", None), Certificate) for c in vals):
        vals = [c.vs_optimum for c in vals]  # hare RatioReport: the certificate against the optimum
    if len(vals) and all(isinstance(c, Certificate) for c in vals):
        r = np.array([c.ratio for c in vals], dtype=float)
        lim = np.array([np.nan if c.limit is None else c.limit for c in vals], dtype=float)
        proven = np.array([c.proven for c in vals], dtype=bool)
        holds = np.array([c.holds is False for c in vals], dtype=bool)
        return r, (lim if np.any(np.isfinite(lim)) else None), proven, holds
    try:
        r = np.asarray(vals, dtype=float).ravel()
    except (TypeError, ValueError) as exc:
        raise ValueError(f"ratios[{name!r}] holds {type(vals[0]).__name__ if len(vals) else 'nothing'}; expected "
                         "numbers or hetopt Certificates") from exc
    if r.size == 0:
        raise ValueError(f"ratios[{name!r}] is empty")
    return r, None, None, None


def ratio_vs_bound(ratios: Any, bound: Any = None, ax: Any = None, *, sort: bool = False, x: Sequence[Any] | None = None,
                   xlabel: str | None = None, ylabel: str = "ratio to the optimum or bound (>= 1) [-]",
                   bound_label: str = "bound claimed by the paper", yscale: str = "auto",
                   title: str | None = None) -> Any:
    """Ratios per instance with the paper's bound as a horizontal line (or one mark per instance).

    Parameters
    ----------
    ratios : sequence of numbers or of :class:`~hetopt.result.Certificate`, or a mapping name -> such
        One series, or one per method (a hare ``RatioReport`` counts as its ``vs_optimum``
        certificate).  Certificates contribute their ``ratio``, their ``limit``
        (used when ``bound`` is None), ``proven`` (a ratio whose reference is not certified is
        drawn hollow) and ``holds`` (a violated bound is marked with a red cross).
    bound : float or sequence of floats, optional
        The claimed bound: one number (a horizontal line) or one per instance (a mark per
        instance, e.g. OASiS's 2 alpha, which depends on the instance).  Default: the
        certificates' limits.
    ax : matplotlib Axes, optional
    sort : bool
        Sort each series by ratio (x is then the rank) instead of the given order (seed).
    x : sequence, optional
        x positions (e.g. the seeds); default 0..n-1.
    xlabel, ylabel, bound_label, title : str, optional
    yscale : {"auto", "linear", "log"}
        "auto": logarithmic when the largest value drawn is over 50 times the smallest.

    Returns
    -------
    matplotlib Axes
    """
    if yscale not in ("auto", "linear", "log"):
        raise ValueError(f"yscale is {yscale!r}; expected 'auto', 'linear' or 'log'")
    groups = dict(ratios) if isinstance(ratios, Mapping) else {"ratio": ratios}
    if not groups:
        raise ValueError("ratios is empty; expected numbers, Certificates, or a mapping name -> those")
    ax = new_axes(ax, (6, 3.5))
    drawn: list[float] = []
    limits_seen = None
    for k, (name, values) in enumerate(groups.items()):
        r, lim, proven, violated = _series(str(name), values)
        order = np.argsort(r, kind="stable") if sort else np.arange(r.size)
        if x is not None and not sort:
            xs = np.asarray(x, dtype=float)
            if xs.shape != r.shape:
                raise ValueError(f"x has {xs.size} positions; series {name!r} has {r.size} ratios")
        else:
            xs = np.arange(r.size, dtype=float)
        r = r[order]
        color = f"C{k}"
        if proven is None or proven.all():
            ax.plot(xs, r, "o", color=color, label=str(name))
        else:
            p = proven[order]
            ax.plot(xs[p], r[p], "o", color=color, label=str(name))
            ax.plot(xs[~p], r[~p], "o", mfc="none", color=color, label=f"{name} (reference not certified)")
        if violated is not None and violated.any():
            v = violated[order]
            ax.plot(xs[v], r[v], "x", color="red", ms=10, mew=2, label="bound violated")
        drawn += list(r[np.isfinite(r)])
        if lim is not None and limits_seen is None:
            limits_seen = (xs, lim[order])
    b = bound
    if b is None and limits_seen is not None:
        xs, lim = limits_seen
        fin = lim[np.isfinite(lim)]
        b = lim[0] if fin.size == lim.size and np.allclose(fin, fin[0]) else (xs, lim)
    if b is not None:
        if isinstance(b, tuple):
            xs_b, vals_b = b
        elif np.ndim(b) == 0 and math.isfinite(float(b)):
            xs_b, vals_b = None, float(b)
        elif np.ndim(b) == 0:  # one infinite bound: a mark per instance says so
            n = max(len(list(v)) if not isinstance(v, (int, float)) else 1 for v in groups.values())
            xs_b = np.asarray(x, dtype=float) if x is not None else np.arange(n, dtype=float)
            vals_b = np.full(xs_b.size, math.inf)
        else:
            vals_b = np.asarray(b, dtype=float)
            xs_b = np.asarray(x, dtype=float) if x is not None else np.arange(vals_b.size, dtype=float)
        if xs_b is None:
            ax.axhline(vals_b, color="red", ls="--", label=f"{bound_label} = {vals_b:.4g}")
            drawn.append(vals_b)
        else:
            fin = np.isfinite(vals_b)
            ax.plot(xs_b[fin], vals_b[fin], "_", color="red", ms=18, mew=2, label=bound_label)
            drawn += list(vals_b[fin])
            if (~fin).any():  # alpha = inf: the paper's bound says nothing there; show it, do not drop it
                from matplotlib.transforms import blended_transform_factory

                top = blended_transform_factory(ax.transData, ax.transAxes)
                ax.plot(xs_b[~fin], np.full((~fin).sum(), 0.97), "^", color="red", mfc="none", ms=9,
                        transform=top, clip_on=False, label=f"{bound_label} = inf (says nothing)")
                for xv in xs_b[~fin]:
                    ax.annotate("bound = inf", (xv, 0.97), xycoords=top, xytext=(0, -12), textcoords="offset points",
                                ha="center", fontsize=7, color="red")
    ax.axhline(1.0, color="grey", lw=0.8, ls=":", label="ratio 1 (optimal)")
    pos = [d for d in drawn if d > 0]
    if yscale == "log" or (yscale == "auto" and pos and max(pos) > 50 * min(pos)):
        ax.set_yscale("log")
    ax.set_xlabel(xlabel or ("instance (sorted by ratio) [rank]" if sort else "instance (seed) [index]"))
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    legend_if_many(ax, fontsize=7)
    return ax


# a unit at the end of a column name: "[...]" or a short parenthesised token without spaces ("(ms)", "(GPU-h)");
# "(1 + waiters)" is part of the name, not a unit
_UNIT = re.compile(r"\s*(\[[^\]]+\]|\([^()\s]{1,12}\))\s*$")


def _number(v: Any) -> float:
    if isinstance(v, bool) or v is None:
        return math.nan
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def _is_numeric_column(rows: Sequence[Sequence[Any]], j: int) -> bool:
    vals = [r[j] for r in rows]
    return bool(vals) and all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
                              for v in vals)


def sweep(table: Any, x: str | None = None, y: str | Sequence[str] | None = None, by: str | Sequence[str] | None = None,
          ax: Any = None, *, xlabel: str | None = None, ylabel: str | None = None, title: str | None = None,
          logx: bool = False) -> Any:
    """Line plot of a claims-ledger sweep table (:class:`hetopt.report.Table`).

    Parameters
    ----------
    table : hetopt.report.Table
        E.g. ``hetopt.claims.get_sweep("hare.heterogeneity").run(quick=True)``.
    x : str, optional
        Column on the x axis (default: the first column).  A non-numeric column is drawn
        as categories in the order of first appearance.
    y : str or sequence of str, optional
        Column(s) drawn; default every numeric column other than ``x`` and ``by``.
    by : str or sequence of str, optional
        Column(s) whose values split the rows into series (one line per value and ``y``).
    ax : matplotlib Axes, optional
    xlabel, ylabel, title : str, optional
        Defaults: the column names (they carry the units, e.g. ``"vs srtf [%]"``); with several
        ``y`` columns sharing a unit, ``"value [unit]"``; the table's title.
    logx : bool

    Returns
    -------
    matplotlib Axes
        One line per (``by`` value, ``y`` column), points in the table's row order.
    """
    if not hasattr(table, "columns") or not hasattr(table, "rows"):
        raise TypeError(f"table is {a_type(table)}; expected a hetopt.report.Table")
    cols = list(table.columns)
    rows = [list(r) for r in table.rows]
    if not rows:
        raise ValueError(f"table {table.title!r} has no rows")

    def index(name: str, what: str) -> int:
        if name not in cols:
            raise ValueError(f"{what} is {name!r}; the table's columns are {cols}")
        return cols.index(name)

    xi = index(x, "x") if x is not None else 0
    by_names = [] if by is None else ([by] if isinstance(by, str) else list(by))
    bi = [index(b, "by") for b in by_names]
    if y is None:
        yi = [j for j in range(len(cols)) if j != xi and j not in bi and _is_numeric_column(rows, j)]
        if not yi:
            raise ValueError(f"table {table.title!r} has no numeric column besides x and by; pass y=")
    else:
        yi = [index(c, "y") for c in ([y] if isinstance(y, str) else list(y))]
    ax = new_axes(ax, (7, 3.8))
    numeric_x = _is_numeric_column(rows, xi)
    if numeric_x:
        def xpos(v: Any) -> float:
            return float(v)
    else:
        cats = list(dict.fromkeys(str(r[xi]) for r in rows))

        def xpos(v: Any) -> float:
            return float(cats.index(str(v)))
    groups: dict[tuple, list[list[Any]]] = {}
    for r in rows:
        groups.setdefault(tuple(r[j] for j in bi), []).append(r)
    markers = "osd^v<>pPX*h"
    for g, (key, grp) in enumerate(groups.items()):
        for k, j in enumerate(yi):
            name = _UNIT.sub("", cols[j]) if len(yi) > 1 else cols[j]
            parts = [" ".join(str(v) for v in key)] if key else []
            if len(yi) > 1 or not key:
                parts.append(name)
            ax.plot([xpos(r[xi]) for r in grp], [_number(r[j]) for r in grp], marker=markers[g % len(markers)],
                    ls="-" if g == 0 else ["--", ":", "-."][g % 3], color=f"C{k if len(yi) > 1 else g}",
                    label=": ".join(parts))
    if not numeric_x:
        ax.set_xticks(range(len(cats)), labels=cats, rotation=30 if max(len(c) for c in cats) > 6 else 0)
    elif all(float(r[xi]).is_integer() for r in rows):
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if logx:
        ax.set_xscale("log")
    ax.set_xlabel(xlabel or cols[xi])
    if ylabel is None:
        units = {m.group(1) if (m := _UNIT.search(cols[j])) else None for j in yi}
        ylabel = cols[yi[0]] if len(yi) == 1 else (f"value {units.pop()}" if len(units) == 1 and None not in units
                                                   else "value (see legend)")
    ax.set_ylabel(ylabel)
    ax.set_title(title if title is not None else "\n".join(textwrap.wrap(str(table.title), 70)), fontsize=9)
    legend_if_many(ax, fontsize=6, ncol=2 if len(ax.lines) > 6 else 1)
    return ax
