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
from .result import Solution, Status

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


def compare(instance: Any, methods: Iterable[str] | None = None, *, policies: Mapping[str, Callable] | None = None,
            include_paper_methods: bool = True, time_limit: float | None = None) -> Table:
    """Run methods of the instance's kind on it, and your own policies, and tabulate the results.

    Parameters
    ----------
    instance : instance object, path, bundled instance name or dict
        Anything :func:`hetopt.load_instance` takes, or an instance already loaded.
    methods : iterable of str, optional
        Names from :func:`hetopt.methods` (default: every method of the kind, in its order).
    policies : mapping of str to callable, optional
        Your own methods, name -> ``f(instance)`` returning a solution of the kind (the type the
        paper's methods return, e.g. a ``HareSolution``; each paper's card documents its
        plug-in protocol).  Every result is checked by the kind's ``check_schedule``: an
        infeasible one gets status ``"infeasible"`` and its first violation as the message,
        and never a ``vs_optimum``.  Category ``"user"``.
    include_paper_methods : bool
        Run the paper's methods (``methods``, or all of them) besides ``policies`` (default);
        False runs ``policies`` only (``vs_optimum`` then needs an exact method in ``methods``
        and is empty otherwise).
    time_limit : float, optional
        Seconds, passed to every method that takes a ``time_limit`` (the exact solvers).

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
    names = (list(table) if methods is None else list(methods)) if include_paper_methods else []
    if not include_paper_methods and methods is not None:
        raise HetoptError("methods names paper methods but include_paper_methods is False; pass one or the other")
    unknown = [n for n in names if n not in table]
    if unknown:
        raise HetoptError(f"unknown {kind} methods {unknown}; expected some of {', '.join(table)}")
    user = _user_methods(policies, table)
    if not names and not user:
        raise HetoptError("nothing to compare: give methods, policies, or include_paper_methods=True")
    results = []
    for m in [table[n] for n in names] + user:
        opts = {"time_limit": time_limit} if time_limit is not None and _accepts(m.func, "time_limit") else {}
        t0 = time.perf_counter()
        try:
            sol = m(inst, **opts)
        except HetoptError as exc:
            results.append((m, None, f"{type(exc).__name__}: {exc}", time.perf_counter() - t0))
            continue
        if m.category == "user" and not isinstance(sol, Solution):
            raise HetoptError(f"policy {m.name!r} returned a {type(sol).__name__}; expected the solution type of "
                              f"the paper's methods (a hetopt Solution, which check_schedule of {kind} cannot read "
                              "otherwise)")
        msg = sol.message
        if m.category == "user":
            report = _check(kind, inst, sol)
            if not report.ok:
                results.append((m, sol, f"infeasible: {report.violations[0]}", time.perf_counter() - t0))
                continue
        results.append((m, sol, msg, time.perf_counter() - t0))
    optimum = [s for m, s, msg, _ in results if s is not None and m.category == "exact" and s.status is Status.OPTIMAL
               and s.objective is not None]
    ref = optimum[0] if optimum else None
    out = Table(f"{kind}: methods compared on one instance", list(COLUMNS))
    for m, sol, msg, wall in results:
        if sol is None:
            out.add(m.name, m.category, "refused", None, None, None, None, wall, "", msg)
            continue
        if msg and msg.startswith("infeasible: ") and m.category == "user":
            out.add(m.name, m.category, "infeasible", sol.objective, None, None, None, wall, sol.solver, msg)
            continue
        out.add(m.name, m.category, sol.status.value, sol.objective, sol.bound, sol.gap,
                _ratio(sol, ref), sol.wall_time or wall, sol.solver, msg)
    if ref is not None:
        out.notes.append(f"certified optimum {ref.objective:.6g} ({ref.sense}) from {ref.solver}; "
                         "vs_optimum = objective / optimum for min, optimum / objective for max")
    else:
        out.notes.append("no method proved an optimum on this instance: vs_optimum is empty")
    return out


def _user_methods(policies: Mapping[str, Callable] | None, table: Mapping[str, Any]) -> list:
    from .api import Method

    if policies is None:
        return []
    if not isinstance(policies, Mapping):
        raise HetoptError(f"policies is a {type(policies).__name__}; expected a mapping name -> callable(instance)")
    out = []
    for name, f in policies.items():
        if not isinstance(name, str) or not name:
            raise HetoptError(f"policies has the key {name!r}; expected non-empty strings")
        if name in table:
            raise HetoptError(f"policies names {name!r}, a method of the paper; choose another name")
        if not callable(f):
            raise HetoptError(f"policies[{name!r}] is a {type(f).__name__}; expected a callable(instance)")
        out.append(Method(name, f, "user", "your policy"))
    return out


def _check(kind: str, inst: Any, sol: Any) -> Any:
    import importlib

    check = importlib.import_module(f"hetopt.{kind}").check_schedule
    try:
        return check(inst, sol)
    except (TypeError, AttributeError, ValueError) as exc:
        raise HetoptError(f"a policy returned a {type(sol).__name__} that check_schedule of {kind} cannot read "
                          f"({type(exc).__name__}: {exc}); return the solution type of the paper's methods") from None


def _ratio(sol: Any, ref: Any) -> float | None:
    if ref is None or sol.objective is None or not sol.status.has_solution or type(sol) is not type(ref):
        return None
    num, den = (sol.objective, ref.objective) if ref.sense == "min" else (ref.objective, sol.objective)
    if den == 0:
        return 1.0 if abs(num) <= 1e-12 else math.inf
    return num / den


def _is_instance(obj: Any) -> bool:
    return type(obj).__module__.startswith("hetopt.") and hasattr(obj, "to_dict")
