"""Min-total-duration (makespan), scaled so that it is exact at any magnitude, and certified.

The LP is ``min M`` s.t. (G1)-(G3) and ``T_j . X_j >= steps_j / M``.  With raw data and
``z = 1/M`` its coefficients are step counts (1e6-1e7 on the Hadar trace) and ``z`` is
~1e-7, below HiGHS's tolerances: the solver reported "optimal" for an allocation whose
makespan was 1.83x the optimum.  Here every job's constraint is written in its own units
and time in units of a lower bound ``D`` of the makespan (:func:`makespan_reference`)::

    (T_j / Tmax_j) . X_j >= (D_j / D) z,    D_j = steps_j / Tmax_j,   z = D / M in (0, 1]

so the coefficients lie in ``[0, 1]`` and ``z`` is O(1).  The returned allocation's makespan
is recomputed from the data (:func:`makespan_of`) and compared with the LP's ``D / z``
(:func:`solve_min_total_duration`); Gavel itself bisects on ``M`` with feasibility LPs
(``scheduler/policies/min_total_duration.py``), which ends within 5% of the optimum.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InstanceError, SolverError
from .inputs import base_constraints, check_policy_inputs, solved_allocation

__all__ = ["CERT_RTOL", "MakespanResult", "makespan_of", "makespan_reference", "build_min_total_duration",
           "solve_min_total_duration", "min_total_duration"]

#: Largest relative difference accepted between the LP's makespan and the recomputed one.
CERT_RTOL = 1e-6


@dataclass(frozen=True)
class MakespanResult:
    """A min-total-duration allocation with its certified makespan.

    Attributes
    ----------
    allocation : numpy.ndarray, shape (J, R)
    makespan : float
        ``max_j steps_j / (T_j . X_j)`` recomputed from the returned allocation (time units
        of ``steps / throughput``, e.g. seconds).
    lp_makespan : float
        The LP's value ``reference / z``.
    reference : float
        The time unit ``D`` of the solved LP.
    """

    allocation: np.ndarray
    makespan: float
    lp_makespan: float
    reference: float

    @property
    def gap(self) -> float:
        """``|makespan - lp_makespan| / lp_makespan``."""
        return abs(self.makespan - self.lp_makespan) / self.lp_makespan


def makespan_of(allocation, throughput, remaining_steps) -> float:
    """The time every job needs to finish at the rates of ``allocation``: ``max_j steps_j / T_j . X_j``.

    ``inf`` when some job gets rate 0.
    """
    X = np.asarray(allocation, dtype=float)
    T = np.asarray(throughput, dtype=float)
    steps = np.asarray(remaining_steps, dtype=float)
    if X.shape != T.shape or steps.shape != (T.shape[0],):
        raise InstanceError(f"allocation {X.shape}, throughput {T.shape}, remaining_steps {steps.shape} do not agree")
    rate = np.sum(T * X, axis=1)
    if np.any(rate <= 0):
        return float("inf")
    return float(np.max(steps / rate))


def _per_job(T, c, steps):
    usable = c > 0
    tmax = np.where(usable[None, :], T, 0.0).max(axis=1)
    stuck = np.flatnonzero(tmax <= 0)
    if stuck.size:
        raise InstanceError(f"job {stuck[0]} has zero throughput on every GPU type with capacity > 0; "
                            "it can never finish")
    return tmax, steps / tmax


def makespan_reference(throughput, scale_factor, capacity, remaining_steps=None) -> float:
    """A lower bound ``D`` of the optimal makespan, used as the LP's unit of time.

    ``D = max(max_j D_j, sum_j s_j D_j / C)`` with ``D_j = steps_j / max_r T_jr`` (over types
    with GPUs): no job finishes faster than on its fastest type full time, and the jobs
    together need at least ``sum_j s_j D_j`` GPU-time from ``C`` GPUs.
    """
    T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, None, remaining_steps)
    steps = np.ones(T.shape[0]) if steps is None else steps
    _, D = _per_job(T, c, steps)
    return float(max(D.max(), np.sum(s * D) / c.sum()))


def build_min_total_duration(throughput, scale_factor, capacity, remaining_steps=None, *, reference=None):
    """Min-total-duration as the scaled LP ``max z`` s.t. (G1)-(G3) and (G5).

    (G5) is ``(T_j / Tmax_j) . X_j >= (D_j / D) z``; the makespan is ``D / z``.
    ``remaining_steps=None`` means one unit of work per job; ``reference`` (the time unit
    ``D``) defaults to :func:`makespan_reference`.

    Returns
    -------
    tuple
        ``(problem, x, reference)``: the CVXPY problem, the allocation variable and ``D``.
    """
    import cvxpy as cp

    T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, None, remaining_steps)
    J, R = T.shape
    steps = np.ones(J) if steps is None else steps
    tmax, D = _per_job(T, c, steps)
    ref = makespan_reference(T, s, c, steps) if reference is None else float(reference)
    if not np.isfinite(ref) or ref <= 0:
        raise InstanceError(f"reference is {reference}; expected a positive time unit")
    x = cp.Variable((J, R), name="X")
    z = cp.Variable(name="z", nonneg=True)
    cons = base_constraints(x, s, c, "min-total-duration")
    done = cp.sum(cp.multiply(T / tmax[:, None], x), axis=1) >= (D / ref) * z
    done.set_label("(G5) every job finishes its remaining steps within the makespan D/z")
    cons.append(done)
    return cp.Problem(cp.Maximize(z), cons), x, ref


def solve_min_total_duration(throughput, scale_factor, capacity, remaining_steps=None) -> MakespanResult:
    """Solve min-total-duration and certify the makespan of the returned allocation.

    The LP is solved in units of :func:`makespan_reference`; if the recomputed makespan
    differs from the LP's by more than :data:`CERT_RTOL` (relative), it is solved once more
    in units of the recomputed makespan (so that ``z`` is about 1).

    Raises
    ------
    SolverError
        If the two makespans still differ by more than :data:`CERT_RTOL`.

    Examples
    --------
    >>> r = solve_min_total_duration([[2, 1], [1, 1]], [1, 1], [1, 1], [4e6, 1e6])
    >>> round(r.makespan, 3), r.gap < 1e-6
    (2000000.0, True)
    """
    T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, None, remaining_steps)
    steps = np.ones(T.shape[0]) if steps is None else steps
    ref = None
    for _ in range(2):
        problem, x, ref = build_min_total_duration(T, s, c, steps, reference=ref)
        X = solved_allocation(problem, x)
        z = float(problem.value)
        if z <= 0:
            raise SolverError(f"min-total-duration LP returned z = {z}; no finite makespan")
        result = MakespanResult(X, makespan_of(X, T, steps), ref / z, ref)
        if result.gap <= CERT_RTOL:
            return result
        ref = result.makespan if np.isfinite(result.makespan) else result.lp_makespan
    raise SolverError(f"min-total-duration: recomputed makespan {result.makespan:.9g} differs from the LP's "
                      f"{result.lp_makespan:.9g} by {result.gap:.2e} (> {CERT_RTOL})")


def min_total_duration(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None) -> np.ndarray:
    """Allocation minimizing the time to finish every job's ``remaining_steps`` (makespan).

    The allocation of :func:`solve_min_total_duration` (which also returns the certified
    makespan).  ``priority_weight`` is not used by this policy and must be None;
    ``remaining_steps`` (shape (J,), > 0) defaults to one unit of work per job.
    """
    if priority_weight is not None:
        raise InstanceError("priority_weight is not used by min_total_duration; pass None")
    return solve_min_total_duration(throughput, scale_factor, capacity, remaining_steps).allocation
