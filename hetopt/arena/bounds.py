"""Lower bounds on the makespan and the average JCT that hold for every policy of the arena's execution model.

:func:`makespan_lower_bound` and :func:`jct_lower_bound` solve the fluid interval LPs of
:mod:`hetopt.arena.fluid` with HiGHS and certify the result themselves: the bound is the weak-duality
bound of HiGHS's row duals, evaluated with its rounding error accounted for
(:func:`~hetopt.arena.lagrangian.dual_bound`), and combined with the closed-form per-job bound
(:func:`completion_lower_bounds`: no job completes before it ran from its arrival at its fastest
gang rate).  The derivation (why every schedule of every policy maps to a feasible LP point) is in
``models/arena.md``, *Certified bounds*.  The bounds hold for every policy that gives a job at most
one gang of ``scale_factor`` GPUs at a time and each GPU to at most one job; with ``packing=True``
they hold when two jobs may share a GPU, each at most at its own rate (Gavel's packing policies:
no pair of its measured table runs a job faster than alone).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ArgumentError
from ..inputs import (
    check_choice,
    check_flag,
    check_size,
    check_threads,
    check_time_limit,
    numeric_array,
    takes_instance,
)
from ..solvers import solve_lp_duals
from .fluid import JobData, LPArrays, jct_breakpoints, jct_lp, job_data, makespan_breakpoints, makespan_lp
from .lagrangian import dual_bound
from .workload import Workload

__all__ = ["Bound", "makespan_lower_bound", "jct_lower_bound", "completion_lower_bounds", "RULES",
           "MAKESPAN_INTERVALS", "JCT_INTERVALS"]

#: Gang rules of the execution model: ``"single"`` (a gang on one type per round, Gavel's) and
#: ``"bottleneck"`` (a gang may span types at its slowest type's rate).  A bound for ``"bottleneck"``
#: holds for both.
RULES = ("bottleneck", "single")
#: Most intervals of :func:`jct_lower_bound`'s even grid (its LP has about ``J * R * intervals / 2`` columns).
MAX_JCT_INTERVALS = 10**6
#: Default number of time intervals of the LPs: (M) is cut at arrivals (thinned evenly by rank), (W)
#: evenly up to its horizon with a geometric head; each has about ``J * R * intervals / 2`` columns.
MAKESPAN_INTERVALS, JCT_INTERVALS = 24, 48


@dataclass(frozen=True)
class Bound:
    """A lower bound, in seconds, on one metric of every run of the execution model.

    Attributes
    ----------
    metric : str
        ``"makespan"`` (the last completion) or ``"average_jct"`` (the ``weights``-weighted mean of
        completion minus arrival; the plain mean with unit weights).
    value : float
        The bound (s): the larger of the LP's certified dual bound and the per-job bound. Always a
        valid lower bound, whatever ``certified`` says.
    certified : bool
        True when the LP was solved to optimality, so that ``value`` is the full bound this module
        promises; False when the LP stopped (time limit, failure) and ``value`` is the weaker bound
        its last duals and the per-job bound give.
    per_job : float
        The closed-form per-job bound alone (s).
    lp : float or None
        The LP's bound from HiGHS's duals, rescaled to seconds (None when the LP was not solved).
    lp_objective : float or None
        HiGHS's primal objective, rescaled (it meets ``lp`` up to solver tolerances when optimal).
    lp_status : str
        HiGHS's model status ("Optimal", "Time limit reached", ...).
    gang_rule : str
        The gang rule the bound was computed for (``"bottleneck"`` holds for both rules).
    packing : bool
        Whether it also holds when two jobs share a GPU.
    intervals : int
        Time intervals of the LP.
    size : tuple of int
        (rows, columns) of the LP.
    wall_time : float
        Seconds.
    info : dict
        ``completion``: per-job completion lower bounds (s); ``time_unit``: the LP's unit of time (s);
        ``breakpoints``: the LP's interval breakpoints (s; the last interval of (M) ends at the
        makespan, that of (W) at infinity).
    """

    metric: str
    value: float
    certified: bool
    per_job: float
    lp: float | None
    lp_objective: float | None
    lp_status: str
    gang_rule: str
    packing: bool
    intervals: int
    size: tuple[int, int]
    wall_time: float
    info: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def source(self) -> str:
        """``"lp"`` when the LP gave the value, ``"per-job"`` when the closed form did."""
        return "lp" if self.lp is not None and self.lp > self.per_job else "per-job"


def _check_rule(gang_rule: Any) -> str:
    return str(check_choice(gang_rule, "gang_rule", RULES))


def _weights(w: Workload, weights: Any) -> np.ndarray:
    if weights is None:
        return np.asarray(w.weight, dtype=float)
    a = numeric_array("weights", weights)
    if a.shape != (w.n_jobs,) or not np.all(np.isfinite(a)) or np.any(a <= 0):
        raise ArgumentError(f"weights has shape {a.shape} or an entry <= 0; expected {w.n_jobs} positive numbers "
                            "(one per job) or None for the workload's weights")
    return a


@takes_instance(Workload)
def completion_lower_bounds(w: Workload, *, gang_rule: str = "bottleneck") -> np.ndarray:
    """Per job, the earliest completion any run can give it (s): ``arrival_j + steps_j / rate_j``.

    ``rate_j`` is the fastest rate of the job's gang under ``gang_rule`` (``"single"``: its best type
    with at least ``scale_factor`` GPUs; ``"bottleneck"``: the largest ``throughput[j, r]`` such
    that the types at least as fast hold ``scale_factor`` GPUs, which is at least the former).
    """
    d = job_data(w, _check_rule(gang_rule))
    return d.origin + (d.arrival + d.shortest) * d.theta


#: HiGHS options of the fluid LPs: its interior point method without crossover (on a 951-job trace 8 times
#: faster than the dual simplex; the duals it stops with are certified as any others).
LP_OPTIONS = {"solver": "ipm", "run_crossover": "off"}


def _solve(lp: LPArrays, time_limit: float | None, threads: int | None) -> tuple[float | None, float | None, str]:
    """(certified dual bound, HiGHS's objective, HiGHS's status) of ``min c x`` in scaled units (offset included)."""
    try:
        out = solve_lp_duals(lp.c, lp.A, lp.row_lo, lp.row_hi, lp.col_lo, lp.col_hi, threads=threads,
                             time_limit=time_limit, options=LP_OPTIONS)
    except Exception as exc:  # noqa: BLE001 - a failed LP leaves the per-job bound, reported as not certified
        return None, None, f"failed ({type(exc).__name__}: {exc})"
    y = out.row_dual if out.row_dual.size == lp.row_lo.size else np.zeros(lp.row_lo.size)
    bound = dual_bound(lp.c, lp.A, lp.row_lo, lp.row_hi, lp.col_lo, lp.col_hi, y)
    objective = out.objective + lp.offset if out.status == "Optimal" else None
    return (bound + lp.offset if math.isfinite(bound) else None), objective, out.status


def _info(d: JobData, points: np.ndarray) -> dict[str, Any]:
    """Per-job completion lower bounds, the LP's time unit and its breakpoints (seconds)."""
    return {"completion": d.origin + (d.arrival + d.shortest) * d.theta, "time_unit": d.theta,
            "breakpoints": d.origin + points * d.theta}


def _seconds(d: JobData, scaled: float, shift: float = 0.0) -> float:
    """``shift + scaled * theta`` (a time in the LP's units back to seconds), rounded down by two ulps."""
    return float(np.nextafter(np.nextafter(shift + scaled * d.theta, -np.inf), -np.inf))


@takes_instance(Workload)
def makespan_lower_bound(w: Workload, *, gang_rule: str = "bottleneck", packing: bool = False,
                         intervals: int = MAKESPAN_INTERVALS, time_limit: float | None = None,
                         threads: int | None = 1) -> Bound:
    """The makespan no run of ``w`` can beat (s): the fluid LP (M) and the per-job bound.

    Parameters
    ----------
    w : Workload
    gang_rule : {"bottleneck", "single"}
        The gang rule the bound must hold for; ``"bottleneck"`` (default) holds for both.
    packing : bool
        Hold also for policies that pack two jobs on a GPU (each at most at its own rate): the
        capacity rows count two jobs per GPU.
    intervals : int
        At most this many release-date intervals (the breakpoints are the distinct arrivals, thinned
        evenly by rank beyond it); fewer only weakens the bound.
    time_limit : float, optional
        Seconds for HiGHS; a stopped LP gives a valid but uncertified bound.
    threads : int, optional

    Returns
    -------
    Bound
        ``value`` in seconds from time 0 (the makespan is the last completion time).
    """
    rule, intervals = _check_rule(gang_rule), check_size(intervals, "intervals")
    limit, threads, packing = check_time_limit(time_limit), check_threads(threads), check_flag(packing, "packing")
    start = time.perf_counter()
    d = job_data(w, rule, packing)
    per_job = float(np.max(d.arrival + d.shortest))
    points = makespan_breakpoints(d, intervals)
    lp = makespan_lp(d, points)
    bound, objective, status = _solve(lp, limit, threads)
    if bound is not None:  # T <= its upper bound is part of the LP: a bound above it only says "at least that"
        bound = min(bound, float(lp.col_hi[-1]))
    best = max(per_job, bound) if bound is not None else per_job
    return Bound(metric="makespan", value=_seconds(d, best, d.origin), certified=status == "Optimal" and
                 bound is not None, per_job=_seconds(d, per_job, d.origin),
                 lp=None if bound is None else _seconds(d, bound, d.origin),
                 lp_objective=None if objective is None else d.origin + objective * d.theta, lp_status=status,
                 gang_rule=rule, packing=packing, intervals=int(points.size), size=lp.shape,
                 wall_time=time.perf_counter() - start,
                 info=_info(d, points))


@takes_instance(Workload)
def jct_lower_bound(w: Workload, *, weights: Any = None, gang_rule: str = "bottleneck", packing: bool = False,
                    intervals: int = JCT_INTERVALS, horizon: float | None = None, time_limit: float | None = None,
                    threads: int | None = 1) -> Bound:
    """The weighted average JCT no run of ``w`` can beat (s): the interval LP (W) and the per-job bound.

    Parameters
    ----------
    w : Workload
    weights : array_like, optional
        One positive weight per job (default: the workload's ``weight``; ``numpy.ones(J)`` for the
        plain average JCT).
    gang_rule : {"bottleneck", "single"}
        The gang rule the bound must hold for; ``"bottleneck"`` (default) holds for both.
    packing : bool
        Hold also for policies that pack two jobs on a GPU (as :func:`makespan_lower_bound`).
    intervals : int
        At most this many time intervals (an even grid up to ``horizon``, its first interval split
        geometrically); more make the bound tighter and the LP larger.
    horizon : float, optional
        Seconds after the earliest arrival that the intervals cover (default: 1.5 times the span
        of the fluid makespan bound (M)); work after it is priced at its start, with no capacity.
    time_limit : float, optional
        Seconds for HiGHS (each LP); a stopped LP gives a valid but uncertified bound.
    threads : int, optional

    Returns
    -------
    Bound
        ``value``: ``sum_j w_j (C_j - a_j) / sum_j w_j`` is at least this in every run.
    """
    rule, intervals = _check_rule(gang_rule), check_size(intervals, "intervals", maximum=MAX_JCT_INTERVALS)
    limit, threads, packing = check_time_limit(time_limit), check_threads(threads), check_flag(packing, "packing")
    wt = _weights(w, weights)
    start = time.perf_counter()
    d = job_data(w, rule, packing)
    if horizon is None:
        span = makespan_lower_bound(w, gang_rule=rule, packing=packing, time_limit=limit, threads=threads)
        end = 1.5 * (span.value - d.origin) / d.theta
    else:
        end = float(check_time_limit(horizon, "horizon") or np.inf) / d.theta
        if not math.isfinite(end):
            raise ArgumentError("horizon is inf; expected a finite number of seconds or None")
    end = max(end, float(np.max(d.arrival + d.shortest)))
    points = jct_breakpoints(d, intervals, end)
    norm = wt / wt.sum()
    lp = jct_lp(d, points, norm)
    per_job = float(norm @ d.shortest)
    bound, objective, status = _solve(lp, limit, threads)
    best = max(per_job, bound) if bound is not None else per_job
    return Bound(metric="average_jct", value=_seconds(d, best), certified=status == "Optimal" and bound is not None,
                 per_job=_seconds(d, per_job), lp=None if bound is None else _seconds(d, bound),
                 lp_objective=None if objective is None else objective * d.theta, lp_status=status, gang_rule=rule,
                 packing=packing,
                 intervals=int(points.size), size=lp.shape, wall_time=time.perf_counter() - start,
                 info=_info(d, points))
