"""Problem P1 of Section IV-B: two communication tasks, Theorems 1 and 2 (eqs. (9)-(14)).

Two all-reduce tasks of sizes ``m1 <= m2`` (MB) arrive at time 0 on the same servers; the
latency ``a`` is neglected.  Case C1 starts the smaller task first and the larger one at
``t in [0, t1]``; case C2 starts the larger task first and the smaller one at
``t in [0, t2]``, where ``t_i = b m_i``.  Theorem 1: in C1, ``t = t1`` is optimal
(eq. (10c) decreases in t).  Theorem 2: in C2, ``t = 0`` is optimal iff
``m1 / m2 < b / (2 (b + eta))`` (eq. (13)), else ``t = t2``.  Comparing the three candidate
minima (14a)-(14c), C1 with ``t = t1`` (smaller first, no overlap) is optimal overall.

:func:`two_task_fluid` simulates the fluid sharing of eq. (5) for a given start offset, an
independent check of the closed forms (:func:`two_task_fluid_optimum` scans a grid of
offsets).

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Section IV-B.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ArgumentError
from ..inputs import check_positive, check_size
from .comm import fluid_completion_times

__all__ = [
    "TwoTaskCase",
    "two_task_cases",
    "two_task_schedule",
    "adadual_threshold",
    "starts_immediately",
    "two_task_fluid",
    "two_task_fluid_optimum",
]


@dataclass(frozen=True)
class TwoTaskCase:
    """A candidate minimum of Theorems 1-2.

    Attributes
    ----------
    name : str
        "C1" (eq. (14a)), "C2a" (eq. (14b)) or "C2b" (eq. (14c)).
    first : int
        The task (1 or 2, in the caller's numbering) started at time 0.
    offset : float
        Start time of the other task.
    average_completion : float
        ``(T1 + T2) / 2``, eq. (9).
    """

    name: str
    first: int
    offset: float
    average_completion: float


def _check(m1: float, m2: float, b: float, eta: float) -> tuple[float, float, float, float]:
    return (check_positive(m1, "m1"), check_positive(m2, "m2"), check_positive(b, "b"),
            check_positive(eta, "eta", allow_zero=True))


def _check_first(first) -> int:
    if isinstance(first, (bool, np.bool_)) or not isinstance(first, (int, np.integer)) or first not in (1, 2):
        raise ArgumentError(f"first is {first!r}; expected 1 or 2")
    return int(first)


def adadual_threshold(b: float, eta: float) -> float:
    """The threshold ``b / (2 (b + eta))`` of eq. (13) and line 13 of Algorithm 2."""
    return _threshold_of(check_positive(b, "b"), check_positive(eta, "eta", allow_zero=True))


def _threshold_of(b: float, eta: float) -> float:
    """:func:`adadual_threshold` on checked arguments (the simulator's)."""
    return b / (2.0 * (b + eta))


def _starts_below(m_new: float, m_old: float, threshold: float) -> bool:
    """:func:`starts_immediately` on checked arguments, with the threshold computed once."""
    return m_old > 0 and m_new / m_old < threshold


def starts_immediately(m_new: float, m_old: float, b: float, eta: float) -> bool:
    """Theorem 2 / eq. (13): start a new task of size ``m_new`` next to one with ``m_old`` left.

    True iff ``m_new / m_old < b / (2 (b + eta))``.  This is AdaDUAL's test (Algorithm 2,
    line 13).
    """
    return _starts_below(check_positive(m_new, "m_new", allow_zero=True), check_positive(m_old, "m_old", allow_zero=True),
                        adadual_threshold(b, eta))


def two_task_cases(m1: float, m2: float, b: float, eta: float) -> list[TwoTaskCase]:
    """The three candidate minima (14a)-(14c) of Theorems 1 and 2.

    Parameters
    ----------
    m1, m2 : float
        Message sizes (MB), > 0, in any order; the formulas use the smaller as M1.
    b, eta : float
        Parameters of eq. (5) (s/MB).

    Returns
    -------
    list of TwoTaskCase
        C1 (smaller first, other at ``t1``), C2a (larger first, smaller at 0), C2b (larger
        first, smaller at ``t2``), with ``first`` in the caller's numbering.
    """
    m1, m2, b, eta = _check(m1, m2, b, eta)
    small, large = (1, 2) if m1 <= m2 else (2, 1)
    ms, ml = min(m1, m2), max(m1, m2)
    return [
        TwoTaskCase("C1", small, b * ms, (2 * b * ms + b * ml) / 2),
        TwoTaskCase("C2a", large, 0.0, ((3 * b + 2 * eta) * ms + b * ml) / 2),
        TwoTaskCase("C2b", large, b * ml, (b * ms + 2 * b * ml) / 2),
    ]


def two_task_schedule(m1: float, m2: float, b: float, eta: float) -> tuple[int, float, float]:
    """Optimal schedule of P1: ``(first, offset, average_completion)``.

    The minimum of the candidates (14a)-(14c); ties are broken in the order C1, C2a, C2b
    (so the smaller task goes first, and task 1 when ``m1 == m2``).

    Examples
    --------
    >>> two_task_schedule(1.0, 3.0, b=1.0, eta=0.5)
    (1, 1.0, 2.5)
    """
    best = min(two_task_cases(m1, m2, b, eta), key=lambda c: c.average_completion)
    return best.first, best.offset, best.average_completion


def two_task_fluid(m1: float, m2: float, b: float, eta: float, first: int, offset: float) -> tuple[float, float]:
    """End times ``(T1, T2)`` of the two tasks under the fluid model of eq. (5), ``a = 0``.

    Task ``first`` starts at 0 and the other at ``offset`` (>= 0); both use the same server.
    """
    m1, m2, b, eta = _check(m1, m2, b, eta)
    first = _check_first(first)
    offset = check_positive(offset, "offset", allow_zero=True)
    starts = (0.0, offset) if first == 1 else (offset, 0.0)
    ends = fluid_completion_times([m1, m2], starts, [[0], [0]], 0.0, b, eta)
    return float(ends[0]), float(ends[1])


#: Most offsets per case of :func:`two_task_fluid_optimum` (each is one fluid simulation).
MAX_GRID = 10**7


def two_task_fluid_optimum(
    m1: float, m2: float, b: float, eta: float, *, n_grid: int = 201, first: int | None = None
) -> tuple[int, float, float]:
    """Best ``(first, offset, average)`` over a grid of offsets, by fluid simulation.

    For each choice of the task started at time 0, the other starts at ``n_grid`` equally
    spaced offsets in ``[0, b * m_first]`` (the case's interval in P1).  The average
    completion time is piecewise linear in the offset with breakpoints at the interval ends
    and at ``b (m2 - m1)``, which are added to the grid, so the grid minimum is exact.

    Parameters
    ----------
    first : {1, 2}, optional
        Restrict to one case (e.g. the larger task already running, as in Theorem 2).
    """
    m1, m2, b, eta = _check(m1, m2, b, eta)
    n_grid = check_size(n_grid, "n_grid", minimum=2, maximum=MAX_GRID)
    if first is not None:
        first = _check_first(first)
    best: tuple[int, float, float] | None = None
    for f in (1, 2) if first is None else (first,):
        m_first = m1 if f == 1 else m2
        grid = set(np.linspace(0.0, b * m_first, n_grid).tolist())
        kink = b * abs(m2 - m1)
        if kink <= b * m_first:
            grid.add(kink)
        for off in sorted(grid):
            t1, t2 = two_task_fluid(m1, m2, b, eta, f, off)
            avg = (t1 + t2) / 2
            if best is None or avg < best[2] - 1e-12 * abs(avg):  # relative at every magnitude (issue 31)
                best = (f, off, avg)
    assert best is not None
    return best
