""""Largest instance certified within a time limit": one table helper that every paper's bench can use.

:func:`largest_certified` runs each engine on growing sizes (``make_instance(size)``, the same
instance for every engine) with a time limit and records the time to a proof of optimality
(or ``-`` when the engine did not prove it in time); once an engine fails at a size it is
run once more one size further (the table's last column shows its gap at the limit there)
and then skipped for larger sizes.  Times measured on a shared machine are inflated; ratios
between engines come from the same run.

Example
-------
>>> from hetopt.bench.scale import largest_certified
>>> t = largest_certified(lambda n: n, [1, 2], {"toy": lambda inst, time_limit: _toy(inst)}, time_limit=1.0)
>>> t.rows[0][0], t.rows[0][-2], t.rows[0][-1]
('toy', 2, 'all certified')
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..certify import Status
from ..report import Table
from ..result import Solution

__all__ = ["Attempt", "largest_certified", "run_attempt"]


@dataclass(frozen=True)
class Attempt:
    """One engine on one size: status, time, objective, bound and relative gap (None if unknown)."""

    engine: str
    size: Any
    status: str
    seconds: float
    objective: float | None
    bound: float | None
    gap: float | None

    @property
    def certified(self) -> bool:
        """True when the engine proved an optimum within the limit (status OPTIMAL)."""
        return self.status == Status.OPTIMAL.value


def _gap(sol: Solution) -> float | None:
    if sol.gap is not None:
        return float(sol.gap)
    if sol.objective is None or sol.bound is None:
        return None
    denom = max(abs(sol.objective), abs(sol.bound), 1e-12)
    return abs(sol.objective - sol.bound) / denom


def run_attempt(engine: str, size: Any, solve: Callable[..., Solution], inst: Any, time_limit: float) -> Attempt:
    """Run ``solve(inst, time_limit=...)`` and record it; OPTIMAL counts only when proven within the limit."""
    t0 = time.perf_counter()
    sol = solve(inst, time_limit=time_limit)
    el = time.perf_counter() - t0
    status = sol.status.value if isinstance(sol.status, Status) else str(sol.status)
    if status == Status.OPTIMAL.value and el > time_limit * 1.05:  # a solver that overran its limit
        status = Status.TIME_LIMIT.value
    obj = None if sol.objective is None else float(sol.objective)
    bnd = None if sol.bound is None or not math.isfinite(sol.bound) else float(sol.bound)
    return Attempt(engine, size, status, el, obj, bnd, _gap(sol))


def largest_certified(make_instance: Callable[[Any], Any], sizes: Sequence[Any],
                      engines: Mapping[str, Callable[..., Solution]], *, time_limit: float = 60.0,
                      title: str = "largest instance certified", size_name: str = "size") -> Table:
    """Table of size x engine: seconds to a proven optimum, '-' otherwise, and the gap one size further.

    Parameters
    ----------
    make_instance : callable
        ``make_instance(size)`` -> instance (called once per size, shared by the engines).
    sizes : sequence
        Increasing sizes.
    engines : mapping of name -> callable
        ``solve(inst, time_limit=seconds)`` returning a :class:`~hetopt.result.Solution`.
    time_limit : float
        Seconds per attempt.

    Returns
    -------
    Table
        Columns: engine, then one per size (seconds to proof or '-'; '' when not run), then the
        largest certified size and the gap at the limit at the first size not certified.
        ``table.attempts`` holds every :class:`Attempt`.
    """
    insts = {}
    attempts: list[Attempt] = []
    rows: list[Sequence[Any]] = []
    for name, solve in engines.items():
        cells: list[str | float] = []
        largest, failed_gap = None, None
        stopped = False
        for size in sizes:
            if stopped:
                cells.append("")
                continue
            if size not in insts:
                insts[size] = make_instance(size)
            a = run_attempt(name, size, solve, insts[size], time_limit)
            attempts.append(a)
            if a.certified:
                cells.append(round(a.seconds, 2))
                largest = size
            else:
                cells.append("-")
                failed_gap = ("n/a" if a.gap is None else f"{100 * a.gap:.3g}%") + f" at {size}"
                stopped = True
        rows.append((name, *cells, "none" if largest is None else largest, failed_gap or "all certified"))
    t = Table(title, ["engine", *[f"{size_name}={s}" for s in sizes], "largest certified",
                      f"gap at {time_limit:g} s limit"], rows)
    t.notes.append(f"cells: seconds to a proven optimum within {time_limit:g} s ('-': not proven; blank: not run "
                   "after the first failure). Shared CPU: absolute times are inflated; compare engines within a run.")
    t.attempts = attempts  # type: ignore[attr-defined]
    return t


def _toy(inst: Any) -> Solution:
    return Solution(status=Status.OPTIMAL, objective=float(inst), bound=float(inst), gap=0.0, solver="toy", sense="min")
