"""One call to compare every method of an instance's kind: objective, status, bound, time.

>>> import hetopt
>>> t = hetopt.compare(hetopt.load_instance("liu2024_table2"), methods=["exact", "has", "optimus"])
>>> [row[0] for row in t.rows]
['exact', 'has', 'optimus']
>>> t.rows[0][2], round(t.rows[0][3])
('optimal', 10592)
"""

from __future__ import annotations

import inspect
import math
import time
from functools import partial
from typing import Any, Callable, Iterable, Mapping

from .errors import HetoptError
from .report import Table
from .result import Status

__all__ = ["compare"]

COLUMNS = ("method", "category", "status", "objective", "bound", "gap", "vs_optimum", "wall_time", "solver", "message")


def _accepts(func: Any, name: str) -> bool:
    while isinstance(func, partial):
        if name in (func.keywords or {}):
            return False  # fixed by the method's name
        func = func.func
    try:
        params = inspect.signature(func).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def compare(instance: Any, methods: Iterable[str] | None = None, *, time_limit: float | None = None,
            extra: Mapping[str, Callable[[Any], Any]] | None = None, include_paper_methods: bool = True) -> Table:
    """Run methods of the instance's kind on it and tabulate the results.

    Parameters
    ----------
    instance : instance object, path, bundled instance name or dict
        Anything :func:`hetopt.load_instance` takes, or an instance already loaded.
    methods : iterable of str, optional
        Names from :func:`hetopt.methods` (default: every method of the kind, in its order).
    time_limit : float, optional
        Seconds, passed to every method that takes a ``time_limit`` (the exact solvers).
    extra : mapping of str to callable, optional
        A user's own policies, ``name -> f(instance) -> Solution`` (the paper's plug-in
        protocol wrapped to return a solution of the kind, see the card); their rows come
        after the package's methods, with category ``"user"``, and are compared with the
        same certified optimum.
    include_paper_methods : bool
        False runs only the methods named in ``methods`` (none by default) and ``extra``.

    Returns
    -------
    Table
        One row per method: ``method``, ``category`` (exact / heuristic / baseline),
        ``status``, ``objective``, ``bound``, ``gap``, ``vs_optimum`` (objective over the
        certified optimum, oriented so that >= 1 is worse, when some exact method proved
        one and the row's result is of the same type, i.e. the same objective; else None), ``wall_time`` (s), ``solver`` and ``message``.  A method that
        refuses the instance (e.g. a size guard) gets status ``"refused"`` and its error as
        the message; the notes give the certified optimum used.

    Raises
    ------
    HetoptError
        An unknown method (the message lists the kind's methods) or a bad instance.
    """
    from . import api

    inst = instance if _is_instance(instance) else api.load_instance(instance)
    kind = api.kind_of(inst)
    table = api.methods(kind)
    names = list(methods) if methods is not None else (list(table) if include_paper_methods else [])
    extra = dict(extra or {})
    clash = [n for n in extra if n in names or not callable(extra[n])]
    if clash:
        raise HetoptError(f"extra policies {clash} clash with a method name or are not callable; "
                          "extra must map new names to functions f(instance) -> Solution")
    unknown = [n for n in names if n not in table]
    if unknown:
        raise HetoptError(f"unknown {kind} methods {unknown}; expected some of {', '.join(table)}")
    results = []
    for name in names:
        m = table[name]
        opts = {"time_limit": time_limit} if time_limit is not None and _accepts(m.func, "time_limit") else {}
        t0 = time.perf_counter()
        try:
            sol = m(inst, **opts)
        except HetoptError as exc:
            results.append((m, None, f"{type(exc).__name__}: {exc}", time.perf_counter() - t0))
            continue
        results.append((m, sol, sol.message, time.perf_counter() - t0))
    for name, func in extra.items():
        m = _UserMethod(name, func)
        t0 = time.perf_counter()
        sol = func(inst)
        wall = time.perf_counter() - t0
        if not hasattr(sol, "status") or not hasattr(sol, "objective"):
            raise HetoptError(f"extra policy {name!r} returned {type(sol).__name__}; expected a hetopt Solution "
                              f"of kind {kind} (see the card's plug-in protocol)")
        results.append((m, sol, getattr(sol, "message", ""), wall))
    optimum = [s for m, s, _, _ in results if s is not None and m.category == "exact" and s.status is Status.OPTIMAL
               and s.objective is not None]
    ref = optimum[0] if optimum else None
    out = Table(f"{kind}: methods compared on one instance", list(COLUMNS))
    for m, sol, msg, wall in results:
        if sol is None:
            out.add(m.name, m.category, "refused", None, None, None, None, wall, "", msg)
            continue
        out.add(m.name, m.category, sol.status.value, sol.objective, sol.bound, sol.gap,
                _ratio(sol, ref), sol.wall_time or wall, sol.solver, msg)
    if ref is not None:
        out.notes.append(f"certified optimum {ref.objective:.6g} ({ref.sense}) from {ref.solver}; "
                         "vs_optimum = objective / optimum for min, optimum / objective for max")
    else:
        out.notes.append("no method proved an optimum on this instance: vs_optimum is empty")
    return out


class _UserMethod:
    """A row of ``compare`` for a user's policy (category "user")."""

    category = "user"

    def __init__(self, name: str, func: Callable[[Any], Any]) -> None:
        self.name, self.func = name, func


def _ratio(sol: Any, ref: Any) -> float | None:
    if ref is None or sol.objective is None or not sol.status.has_solution or type(sol) is not type(ref):
        return None
    num, den = (sol.objective, ref.objective) if ref.sense == "min" else (ref.objective, sol.objective)
    if den == 0:
        return 1.0 if abs(num) <= 1e-12 else math.inf
    return num / den


def _is_instance(obj: Any) -> bool:
    return type(obj).__module__.startswith("hetopt.") and hasattr(obj, "to_dict")
