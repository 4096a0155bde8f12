"""One call to compare every method of an instance's kind: objective, status, bound, time.

>>> import hetopt
>>> t = hetopt.compare(hetopt.load_instance("liu2024_table2"), methods=["exact", "has", "optimus"])
>>> [row[0] for row in t.rows]
['exact', 'has', 'optimus']
>>> t.rows[0][3], round(t.rows[0][4])
('optimal', 10592)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .api import as_instance
from .certify import Status
from .contract import Method
from .errors import ArgumentError, HetoptError, a_type
from .inputs import check_size, check_time_limit
from .registry import kind_of
from .report import Table
from .result import Solution

__all__ = ["compare"]

COLUMNS = ("method", "category", "objective_is", "status", "objective", "bound", "gap", "vs_optimum", "wall_time",
           "solver", "message")


def compare(instance: Any, methods: Iterable[str] | None = None, *, policies: Mapping[str, Callable] | None = None,
            include_paper_methods: bool = True, time_limit: float | None = None,
            max_size: int | None = None) -> Table:
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
    max_size : int, optional
        The size guard, passed to every method that takes ``max_size`` (the exact routes whose cost
        grows combinatorially); an ArgumentError when none of the compared methods takes it.

    Returns
    -------
    Table
        One row per method: ``method``, ``category`` (exact / heuristic / baseline / user),
        ``objective_is`` (what the objective measures, :attr:`hetopt.contract.Method.objective`),
        ``status``, ``objective``, ``bound``, ``gap``, ``vs_optimum``, ``wall_time`` (s),
        ``solver`` and ``message``.  ``vs_optimum`` is the objective over a certified optimum
        *of the same objective* (oriented so that >= 1 is worse), and empty when no exact method
        proved one; the notes say which optimum each objective is ranked against, and which
        rows have none.  A method that refuses the instance (e.g. a size guard) gets status
        ``"refused"`` and its error as the message.

    Raises
    ------
    ArgumentError
        An unknown or repeated method (the message lists the kind's methods), a bad policy, time limit or
        ``max_size``, or a ``max_size`` that no compared method takes.
    InstanceError
        The instance cannot be loaded.
    """
    inst = as_instance(instance)
    kind = kind_of(inst)
    time_limit = check_time_limit(time_limit)
    if not include_paper_methods and methods is not None:
        raise ArgumentError("methods names paper methods but include_paper_methods is False; pass one or the other")
    names = _method_names(kind, methods) if include_paper_methods else []
    user = _user_methods(policies, {m.name for m in kind.methods})
    if not names and not user:
        raise ArgumentError("nothing to compare: give methods, policies, or include_paper_methods=True")
    if max_size is not None:
        check_size(max_size, "max_size")
        if not any(kind.method(n).accepts("max_size") for n in names):
            raise ArgumentError(f"max_size is given but none of the compared {kind.name} methods has a size guard "
                                "(a max_size option); drop it")
    results: list[tuple[Method, Solution | None, str, float]] = []
    for m in [kind.method(n) for n in names] + user:
        opts: dict[str, Any] = {"time_limit": time_limit} if time_limit is not None and m.accepts("time_limit") else {}
        if max_size is not None and m.accepts("max_size"):
            opts["max_size"] = max_size
        t0 = time.perf_counter()
        try:
            sol = m(inst, **opts) if m.category != "user" else m.func(inst)
        except HetoptError as exc:
            results.append((m, None, f"{type(exc).__name__}: {exc}", time.perf_counter() - t0))
            continue
        if not isinstance(sol, Solution):
            raise ArgumentError(f"policy {m.name!r} returned {a_type(sol)}; expected the solution type of "
                                f"the paper's methods (a hetopt Solution, which check_schedule of {kind.name} "
                                "cannot read otherwise)")
        msg = sol.message
        if m.category == "user":
            report = _check(kind.check_schedule, kind.name, inst, sol)
            if not report.ok:
                results.append((m, sol, f"infeasible: {report.violations[0]}", time.perf_counter() - t0))
                continue
        results.append((m, sol, msg, time.perf_counter() - t0))
    labels = _objective_labels(results)
    optima: dict[str, tuple[Method, Solution]] = {}
    for m, sol, _, _ in results:
        if sol is not None and m.category == "exact" and sol.status is Status.OPTIMAL and sol.objective is not None:
            optima.setdefault(labels[m.name], (m, sol))
    out = Table(f"{kind.name}: methods compared on one instance", list(COLUMNS))
    for m, sol, msg, wall in results:
        label = labels[m.name]
        if sol is None:
            out.add(m.name, m.category, label, "refused", None, None, None, None, wall, "", msg)
            continue
        if msg and msg.startswith("infeasible: ") and m.category == "user":
            out.add(m.name, m.category, label, "infeasible", sol.objective, None, None, None, wall, sol.solver, msg)
            continue
        ref = optima.get(label)
        out.add(m.name, m.category, label, sol.status.value, sol.objective, sol.bound, sol.gap,
                _ratio(sol, ref[1] if ref else None), sol.wall_time or wall, sol.solver, msg)
    for label, (m, optimum) in optima.items():
        out.notes.append(f"certified optimum {optimum.objective:.6g} of {label!r} from {m.name}; "
                         f"vs_optimum = objective / optimum for min, optimum / objective for max")
    unranked = sorted({labels[m.name] for m, s, _, _ in results if s is not None} - set(optima))
    for label in unranked:
        rows = [m.name for m, s, _, _ in results if s is not None and labels[m.name] == label]
        out.notes.append(f"no method proved an optimum of {label!r}: vs_optimum is empty for {', '.join(rows)}")
    if len({labels[m.name] for m, _, _, _ in results}) > 1:
        out.notes.append("the rows measure different objectives (column objective_is): compare objectives only "
                         "between rows of the same objective_is")
    return out


def _objective_labels(results: list) -> dict[str, str]:
    """Each row's objective: the method's own; a user policy's is that of the paper's methods of the same type."""
    by_type: dict[type, str] = {}
    for m, sol, _, _ in results:
        if m.category != "user" and sol is not None:
            by_type.setdefault(type(sol), m.objective)
    out = {}
    for m, sol, _, _ in results:
        if m.category != "user":
            out[m.name] = m.objective
        else:
            out[m.name] = by_type.get(type(sol), f"as returned by the policy ({type(sol).__name__})")
    return out


def _method_names(kind: Any, methods: Iterable[str] | None) -> list[str]:
    """The names of ``methods`` (None: every method of ``kind``); ArgumentError for an unknown or repeated one."""
    if isinstance(methods, (str, bytes)) or not (methods is None or isinstance(methods, Iterable)):
        raise ArgumentError(f"methods is {methods!r}; expected a list of method names or None")
    names = [m.name for m in kind.methods] if methods is None else list(methods)
    unknown = [n for n in names if n not in {m.name for m in kind.methods}]
    if unknown:
        raise ArgumentError(f"unknown {kind.name} methods {unknown}; expected some of "
                            f"{', '.join(m.name for m in kind.methods)}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ArgumentError(f"methods names {', '.join(map(repr, repeated))} more than once; name each method once")
    return names


def _user_methods(policies: Mapping[str, Callable] | None, taken: set[str]) -> list[Method]:
    if policies is None:
        return []
    if not isinstance(policies, Mapping):
        raise ArgumentError(f"policies is {a_type(policies)}; expected a mapping name -> callable(instance)")
    out = []
    for name, f in policies.items():
        if not isinstance(name, str) or not name:
            raise ArgumentError(f"policies has the key {name!r}; expected non-empty strings")
        if name in taken:
            raise ArgumentError(f"policies names {name!r}, a method of the paper; choose another name")
        if not callable(f):
            raise ArgumentError(f"policies[{name!r}] is {a_type(f)}; expected a callable(instance)")
        out.append(Method(name, f, "user", "Your policy.", "as returned by the policy"))
    return out


def _check(check: Callable[..., Any], kind: str, inst: Any, sol: Any) -> Any:
    try:
        return check(inst, sol)
    except (TypeError, AttributeError, ValueError) as exc:
        raise ArgumentError(f"a policy returned {a_type(sol)} that check_schedule of {kind} cannot read "
                            f"({type(exc).__name__}: {exc}); return the solution type of the paper's methods") from None


def _ratio(sol: Any, ref: Any) -> float | None:
    if ref is None or sol.objective is None or not sol.status.has_solution or not isinstance(sol, type(ref)):
        return None  # a simulation (a subclass of the exact route's type) is ranked too
    num, den = (sol.objective, ref.objective) if ref.sense == "min" else (ref.objective, sol.objective)
    if den == 0:
        return 1.0 if abs(num) <= 1e-12 else math.inf
    return num / den
