"""Independent references for the Gavel claims: Gavel's equations written directly for scipy's linprog.

Nothing here calls the CVXPY builders of :mod:`hetopt.gavel`: each function restates one of
Gavel's policies (``scheduler/policies/*.py`` of stanford-futuredata/gavel) from its equations,
so that the claims compare two formulations, not one with itself.  Also: the unscaled
min-total-duration LP hetopt used before (``max z = 1/M`` with raw step counts) and Gavel's
own bisection on the makespan, kept as diagnostics.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import lil_matrix

__all__ = ["random_policy_instance", "contended_instance", "gavel_mmf_optimum", "max_sum_optimum", "makespan_lp_hours",
           "trace_instance", "unscaled_makespan", "gavel_bisection_makespan", "HAND_EXAMPLE"]

#: Issue 10's hand example: (throughput, scale_factor, capacity).
HAND_EXAMPLE = ([[2.0, 1.0], [2.0, 1.0]], [1, 2], [2, 2])


def random_policy_instance(J: int, R: int, contention: str, *, seed: int):
    """``(T, s, c)`` of a random policy instance.

    Throughputs 0.2-8 with a third of the entries 0 (every job runs somewhere), scale factors
    1/2/4/8; ``contention="low"`` gives 4-12x the GPUs the jobs ask for per type, ``"high"``
    about 1/8 of it.
    """
    rng = np.random.default_rng(1000 * J + 10 * R + seed)
    T = rng.uniform(0.2, 8.0, size=(J, R)) * rng.choice([1.0, 1.0, 0.0], size=(J, R))
    T[np.arange(J), rng.integers(R, size=J)] = rng.uniform(0.2, 8.0, size=J)
    s = rng.choice([1, 2, 4, 8], size=J)
    base = max(1, int(s.sum()) // R)
    c = rng.integers(1, 4, size=R) * (4 * base if contention == "low" else max(1, base // 8))
    return T, s, c


def contended_instance(J: int, R: int, *, seed: int):
    """``(T, s, c)`` with every job contended, ``J s_j >= C``: ``C = J min_j s_j`` split over the types."""
    if J < R:
        raise ValueError(f"J={J} < R={R}: cannot give every type a GPU and keep the cluster contended")
    rng = np.random.default_rng(7919 * seed + 31 * J + R)
    T = rng.uniform(0.2, 8.0, size=(J, R))
    s = rng.choice([1, 2, 4], size=J)
    budget = J * int(s.min())
    c = 1 + rng.multinomial(budget - R, np.full(R, 1.0 / R))
    return T, s, c


def _base_rows(J, R, s, c, n):
    A = lil_matrix((J + R, n))
    b = np.zeros(J + R)
    for j in range(J):
        A[j, j * R:(j + 1) * R] = 1.0
        b[j] = 1.0
    for r in range(R):
        for j in range(J):
            A[J + r, j * R + r] = s[j]
        b[J + r] = c[r]
    return A, b


def gavel_mmf_optimum(T, s, c, w=None) -> float:
    """Optimum of ``MaxMinFairnessPolicyWithPerf``: ``max min_j s_j T_j.X_j / (w_j T_j.(c/C))``."""
    T, s, c = np.asarray(T, float), np.asarray(s, float), np.asarray(c, float)
    J, R = T.shape
    w = np.ones(J) if w is None else np.asarray(w, float)
    prop = T @ (c / c.sum())
    n = J * R + 1
    A0, b0 = _base_rows(J, R, s, c, n)
    A = lil_matrix((J, n))
    for j in range(J):
        A[j, j * R:(j + 1) * R] = -s[j] * T[j] / (w[j] * prop[j])
        A[j, n - 1] = 1.0
    from scipy.sparse import vstack

    cost = np.zeros(n)
    cost[-1] = -1.0
    res = linprog(cost, A_ub=vstack([A0.tocsr(), A.tocsr()]), b_ub=np.concatenate([b0, np.zeros(J)]),
                  bounds=[(0, None)] * (J * R) + [(None, None)], method="highs")
    if res.status != 0:
        raise RuntimeError(f"reference LP failed: {res.message}")
    return float(-res.fun)


def max_sum_optimum(T, s, c) -> float:
    """Optimum of ``ThroughputSumWithPerf``: ``max sum_j T_j . X_j`` under the base constraints."""
    T, s, c = np.asarray(T, float), np.asarray(s, float), np.asarray(c, float)
    J, R = T.shape
    A, b = _base_rows(J, R, s, c, J * R)
    res = linprog(-T.ravel(), A_ub=A.tocsr(), b_ub=b, bounds=[(0, None)] * (J * R), method="highs")
    if res.status != 0:
        raise RuntimeError(f"reference LP failed: {res.message}")
    return float(-res.fun)


def makespan_lp_hours(T, s, c, steps) -> float:
    """Min-total-duration written in hours over ``Y = M X`` (hours on each type), in seconds.

    ``min M`` s.t. ``sum_r (T_jr / Tmax_j) Y_jr >= steps_j / (3600 Tmax_j)``,
    ``sum_r Y_jr <= M``, ``sum_j s_j Y_jr <= c_r M``, ``Y >= 0``.
    """
    T, s, c, steps = (np.asarray(a, float) for a in (T, s, c, steps))
    J, R = T.shape
    tmax = T.max(axis=1)
    n = J * R + 1
    A = lil_matrix((2 * J + R, n))
    b = np.zeros(2 * J + R)
    for j in range(J):
        A[j, j * R:(j + 1) * R] = -T[j] / tmax[j]
        b[j] = -steps[j] / (3600 * tmax[j])
        A[J + j, j * R:(j + 1) * R] = 1.0
        A[J + j, n - 1] = -1.0
    for r in range(R):
        for j in range(J):
            A[2 * J + r, j * R + r] = s[j]
        A[2 * J + r, n - 1] = -c[r]
    cost = np.zeros(n)
    cost[-1] = 1.0
    res = linprog(cost, A_ub=A.tocsr(), b_ub=b, bounds=[(0, None)] * n, method="highs")
    if res.status != 0:
        raise RuntimeError(f"reference LP failed: {res.message}")
    return float(res.fun * 3600)


def trace_instance():
    """Hadar's 480-job trace as Gavel's inputs ``(T, s, c, steps)``.

    Gang throughput, gang size, GPUs per type and total iterations, as
    :class:`hetopt.hadar.policies.GavelPolicy` builds them from
    ``hetopt.hadar.workloads.trace_workload(480, seed=0, n_machines=15)``; frozen in
    ``hetopt/tables/hadar_trace480_gavel_inputs.json`` so that Gavel's checks import no other paper
    (``tests/test_scaling.py`` rebuilds it from the generator and compares).
    """
    import json

    from ...data import table_text

    d = json.loads(table_text("hadar_trace480_gavel_inputs.json"))
    return (np.array(d["throughput"], dtype=float), np.array(d["scale_factor"], dtype=float),
            np.array(d["capacity"], dtype=float), np.array(d["steps"], dtype=float))


def unscaled_makespan(T, s, c, steps) -> tuple[float, float]:
    """Hetopt's former LP: ``max z`` s.t. base constraints and ``T_j . X_j >= steps_j z`` (raw data).

    Returns ``(1 / z, recomputed makespan of its allocation)``.
    """
    T, s, c, steps = (np.asarray(a, float) for a in (T, s, c, steps))
    J, R = T.shape
    n = J * R + 1
    A0, b0 = _base_rows(J, R, s, c, n)
    A = lil_matrix((J, n))
    for j in range(J):
        A[j, j * R:(j + 1) * R] = -T[j]
        A[j, n - 1] = steps[j]
    from scipy.sparse import vstack

    cost = np.zeros(n)
    cost[-1] = -1.0
    res = linprog(cost, A_ub=vstack([A0.tocsr(), A.tocsr()]), b_ub=np.concatenate([b0, np.zeros(J)]),
                  bounds=[(0, None)] * n, method="highs")
    if res.status != 0:
        raise RuntimeError(f"unscaled LP failed: {res.message}")
    X = np.clip(res.x[:-1].reshape(J, R), 0.0, None)
    rate = np.sum(T * X, axis=1)
    made = float(np.max(steps / rate)) if np.all(rate > 0) else float("inf")
    return float(1.0 / res.x[-1]) if res.x[-1] > 0 else float("inf"), made


def _feasible_at(T, s, c, steps, M) -> bool:
    J, R = T.shape
    A0, b0 = _base_rows(J, R, s, c, J * R)
    A = lil_matrix((J, J * R))
    for j in range(J):
        A[j, j * R:(j + 1) * R] = -T[j]
    from scipy.sparse import vstack

    res = linprog(np.zeros(J * R), A_ub=vstack([A0.tocsr(), A.tocsr()]), b_ub=np.concatenate([b0, -steps / M]),
                  bounds=[(0, None)] * (J * R), method="highs")
    return res.status == 0


def gavel_bisection_makespan(T, s, c, steps) -> tuple[float, int]:
    """Gavel's ``MinTotalDurationPolicyWithPerf`` search on the makespan.

    Bisects ``T`` in [100, 1e6] s until the bracket is within 5%, moving to [1e6, 1e7], ... while
    nothing is feasible.

    Returns ``(smallest feasible T found, number of feasibility LPs)``.
    """
    T, s, c, steps = (np.asarray(a, float) for a in (T, s, c, steps))
    max_T, min_T, last_max_T = 1e6, 100.0, 1e6
    best, n_lps = None, 0
    while best is None:
        while 1.05 * min_T < max_T:
            mid = (min_T + max_T) / 2.0
            n_lps += 1
            if _feasible_at(T, s, c, steps, mid):
                best, max_T = mid, mid
            else:
                min_T = mid
        max_T, min_T = last_max_T * 10.0, last_max_T
        last_max_T *= 10.0
        if last_max_T > 1e15:
            raise RuntimeError("bisection found no feasible makespan below 1e15 s")
    return best, n_lps
