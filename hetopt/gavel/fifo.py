"""Heterogeneity-aware FIFO: Gavel's greedy (default) and a lexicographic LP reading.

``semantics="gavel"`` follows ``FIFOPolicyWithPerf`` (``scheduler/policies/fifo.py``, mode
``perf``): the allocation is rebuilt from scratch; jobs are taken in arrival (row) order;
each gets ``X = 1`` on the type with the highest throughput among the types with at least
``s_j`` free GPUs (first such type on ties); when no type has room for the job at the head
of the queue, allocation stops (no later job jumps ahead).  A job whose best free type
gives throughput 0 is skipped.  The allocation is 0/1.

``semantics="lexicographic"`` is a fractional reading: job 0 maximizes its normalized
throughput ``T_j . X_j / max_r T_jr``, then job 1 without lowering job 0's, and so on
(J LPs, :func:`build_fifo_step`).  It agrees with Gavel's greedy when every job fits on its
fastest free type, and differs otherwise: it time-shares and lets later jobs use GPUs the
head of the queue cannot (conformance check ``gavel2021.policy_fifo.semantics_reading``).  Its
coefficients are normalized throughputs in ``[0, 1]``, so it has no scaling hazard.
"""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentError
from ..inputs import check_array, check_size
from ..solvers import solve_problem
from .inputs import ROUNDOFF, base_constraints, check_policy_inputs, no_steps

__all__ = ["FIFO_FIX_ATOL", "FIFO_FIX_RTOL", "FIFO_SEMANTICS", "build_fifo_step", "gavel_fifo_allocation", "fifo"]

#: Slack when the lexicographic FIFO fixes an earlier job's normalized throughput v before the next LP:
#: the floor is ``v (1 - FIFO_FIX_RTOL) - FIFO_FIX_ATOL``.  It must exceed the LP solver's primal
#: feasibility tolerance (HiGHS: 1e-7 absolute), else a floor read off a solution that violates a
#: row by that tolerance makes a later LP infeasible (seen with a relative 1e-7 at a 47-job state,
#: tests/gavel/test_fifo_numerics.py).
FIFO_FIX_RTOL = 1e-6
FIFO_FIX_ATOL = 1e-6
#: Readings accepted by ``fifo(semantics=...)``.
FIFO_SEMANTICS = ("gavel", "lexicographic")


def build_fifo_step(throughput, scale_factor, capacity, job: int, floors):
    """One LP of the lexicographic FIFO sequence.

    Maximizes job ``job``'s normalized throughput ``T_j . X_j / max_r T_jr`` subject to
    (G1)-(G3) and (G6): every earlier job ``k < job`` keeps at least ``floors[k]`` of its
    normalized throughput.  Returns ``(problem, x)``.
    """
    import cvxpy as cp

    T, s, c, _, _ = check_policy_inputs(throughput, scale_factor, capacity)
    J, R = T.shape
    job = check_size(job, "job", minimum=0, maximum=J - 1)
    floors = check_array(floors, "floors", (None,), minimum=0.0)
    if floors.size < job:
        raise ArgumentError(f"floors has {floors.size} entries; expected one per earlier job ({job})")
    norm = T / T.max(axis=1, keepdims=True)
    x = cp.Variable((J, R), name="X")
    cons = base_constraints(x, s, c, "fifo")
    if job > 0:
        keep = cp.sum(cp.multiply(norm[:job], x[:job]), axis=1) >= np.asarray(floors[:job], dtype=float)
        keep.set_label("(G6) earlier jobs keep their lexicographically optimal throughput")
        cons.append(keep)
    return cp.Problem(cp.Maximize(norm[job] @ x[job]), cons), x


def gavel_fifo_allocation(throughput, scale_factor, capacity) -> np.ndarray:
    """Gavel's ``FIFOPolicyWithPerf`` allocation (0/1), jobs in row order.

    Examples
    --------
    The head job needs 2 GPUs and only 1 is free on each type: nothing after it runs.

    >>> gavel_fifo_allocation([[1, 2], [1, 1], [3, 1]], [1, 2, 1], [1, 2]).tolist()
    [[0.0, 1.0], [0.0, 0.0], [0.0, 0.0]]
    """
    T, s, c, _, _ = check_policy_inputs(throughput, scale_factor, capacity)
    J, R = T.shape
    free = c.copy()
    open_types = [r for r in range(R) if free[r] > 0]
    X = np.zeros((J, R))
    for j in range(J):
        if not open_types:
            break
        fits = [r for r in open_types if free[r] >= s[j]]
        if not fits:
            break  # head-of-line blocking: FIFO lets no later job jump ahead
        best = fits[0]
        for r in fits[1:]:
            if T[j, r] > T[j, best]:
                best = r
        if T[j, best] > 0:
            X[j, best] = 1.0
            free[best] -= s[j]
            if free[best] == 0:
                open_types.remove(best)
    return X


def fifo(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
         semantics: str = "gavel") -> np.ndarray:
    """Heterogeneity-aware FIFO, jobs in row (arrival) order.

    Parameters
    ----------
    throughput, scale_factor, capacity
        As for :func:`~hetopt.gavel.max_min_fairness`.
    priority_weight, remaining_steps : None
        Not used (row order is the priority); must be None.
    semantics : {"gavel", "lexicographic"}
        ``"gavel"`` (default): Gavel's greedy 0/1 allocation (:func:`gavel_fifo_allocation`);
        ``"lexicographic"``: the J-LP fractional reading (module docstring).

    Returns
    -------
    numpy.ndarray, shape (J, R)
    """
    if priority_weight is not None:
        raise ArgumentError("priority_weight is not used by fifo (row order is the priority); pass None")
    no_steps("fifo", remaining_steps)
    if semantics not in FIFO_SEMANTICS:
        raise ArgumentError(f"semantics is {semantics!r}; expected one of {FIFO_SEMANTICS}")
    if semantics == "gavel":
        return gavel_fifo_allocation(throughput, scale_factor, capacity)
    T, s, c, _, _ = check_policy_inputs(throughput, scale_factor, capacity)
    floors = np.zeros(T.shape[0])
    X = np.zeros_like(T)
    for j in range(T.shape[0]):
        problem, x = build_fifo_step(T, s, c, j, floors)
        solve_problem(problem, "HIGHS")
        floors[j] = max(0.0, max(0.0, float(problem.value)) * (1 - FIFO_FIX_RTOL) - FIFO_FIX_ATOL)
        X = np.asarray(x.value, dtype=float)
    X[np.abs(X) < ROUNDOFF] = 0.0
    return X
