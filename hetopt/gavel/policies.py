"""Gavel's heterogeneity-aware allocation policies as CVXPY linear programs.

Every policy has the same signature::

    policy(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None)

and returns the J x R allocation matrix ``X`` of time fractions: ``X[j, r]`` is the
fraction of wall-clock time job ``j`` should spend on GPUs of type ``r``.  Every
allocation satisfies Gavel's base constraints

* ``X >= 0``;
* ``sum_r X[j, r] <= 1`` (a job runs on at most one type at a time);
* ``sum_j scale_factor[j] * X[j, r] <= capacity[r]`` (a job with scale factor ``s``
  occupies ``s`` GPUs of the type it runs on).

The four policies are max-min fairness (heterogeneity-aware LAS), max-sum-throughput,
min-total-duration (makespan) and FIFO.  Builders ``build_*`` return the CVXPY problem
(constraints labelled with the equation tags of ``models/gavel.md``); the policy
functions solve it through :func:`hetopt.solvers.solve_problem`.

References
----------
D. Narayanan, K. Santhanam, F. Kazhamiaka, A. Phanishayee, M. Zaharia,
"Heterogeneity-Aware Cluster Scheduling Policies for Deep Learning Workloads", OSDI 2020.
"""

from __future__ import annotations

import numpy as np

from ..errors import InstanceError
from ..solvers import solve_problem

__all__ = [
    "check_policy_inputs",
    "isolated_allocation",
    "build_max_min_fairness",
    "build_max_sum_throughput",
    "build_min_total_duration",
    "build_fifo_step",
    "max_min_fairness",
    "max_sum_throughput",
    "min_total_duration",
    "fifo",
    "POLICIES",
]

#: Relative slack when FIFO fixes an earlier job's normalized throughput before the next LP.
FIFO_FIX_RTOL = 1e-7


def check_policy_inputs(throughput, scale_factor, capacity, priority_weight=None, remaining_steps=None):
    """Validate and convert the common policy arguments.

    Returns
    -------
    tuple of numpy arrays
        ``(throughput (J, R) float, scale_factor (J,) float, capacity (R,) float,
        priority_weight (J,) float or None, remaining_steps (J,) float or None)``.

    Raises
    ------
    InstanceError
        Naming the argument and index of the first malformed entry.
    """
    T = np.asarray(throughput, dtype=float)
    if T.ndim != 2 or T.shape[0] == 0 or T.shape[1] == 0:
        raise InstanceError(f"throughput has shape {T.shape}; expected a non-empty J x R matrix")
    J, R = T.shape
    bad = np.argwhere(~np.isfinite(T) | (T < 0))
    if bad.size:
        j, r = bad[0]
        raise InstanceError(f"throughput[{j}, {r}] is {T[j, r]}; throughputs must be finite and >= 0")
    dead = np.flatnonzero(T.max(axis=1) <= 0)
    if dead.size:
        raise InstanceError(f"throughput[{dead[0]}, :] is all zero; every job must run on some GPU type")
    s = np.asarray(scale_factor, dtype=float)
    if s.shape != (J,):
        raise InstanceError(f"scale_factor has shape {s.shape}; expected ({J},)")
    bad = np.flatnonzero(~np.isfinite(s) | (s < 1) | (s != np.round(s)))
    if bad.size:
        raise InstanceError(f"scale_factor[{bad[0]}] is {s[bad[0]]}; scale factors must be integers >= 1")
    c = np.asarray(capacity, dtype=float)
    if c.shape != (R,):
        raise InstanceError(f"capacity has shape {c.shape}; expected ({R},)")
    bad = np.flatnonzero(~np.isfinite(c) | (c < 0))
    if bad.size:
        raise InstanceError(f"capacity[{bad[0]}] is {c[bad[0]]}; GPU counts must be >= 0")
    w = None
    if priority_weight is not None:
        w = np.asarray(priority_weight, dtype=float)
        if w.shape != (J,):
            raise InstanceError(f"priority_weight has shape {w.shape}; expected ({J},)")
        bad = np.flatnonzero(~np.isfinite(w) | (w <= 0))
        if bad.size:
            raise InstanceError(f"priority_weight[{bad[0]}] is {w[bad[0]]}; weights must be > 0")
    steps = None
    if remaining_steps is not None:
        steps = np.asarray(remaining_steps, dtype=float)
        if steps.shape != (J,):
            raise InstanceError(f"remaining_steps has shape {steps.shape}; expected ({J},)")
        bad = np.flatnonzero(~np.isfinite(steps) | (steps <= 0))
        if bad.size:
            raise InstanceError(f"remaining_steps[{bad[0]}] is {steps[bad[0]]}; remaining steps must be > 0")
    return T, s, c, w, steps


def isolated_allocation(scale_factor, capacity) -> np.ndarray:
    """Each job's equal share of the cluster (the allocation max-min fairness normalizes by).

    ``X_iso[j, r] = (c_r / C) * min(1, C / (J * s_j))`` with ``C = sum_r c_r``: every job
    receives the same GPU-time ``min(C/J, s_j)`` per unit of time, spread over the types in
    proportion to their GPU counts.  It satisfies every base constraint.  When the cluster
    is contended (``J * s_j >= C`` for every job) it is Gavel's proportional allocation
    ``c_r / C`` times the same constant ``C / J`` for every job weighted by ``1/s_j``, so
    max-min fairness normalized by it has the allocation of Gavel's
    ``MaxMinFairnessPolicyWithPerf`` (the two objectives differ by a constant factor).
    """
    s = np.asarray(scale_factor, dtype=float)
    c = np.asarray(capacity, dtype=float)
    C = c.sum()
    if C <= 0:
        return np.zeros((s.size, c.size))
    share = np.minimum(1.0, C / (s.size * s))
    return np.outer(share, c / C)


def _base_constraints(x, s, c, tag: str):
    import cvxpy as cp

    cons = [
        x >= 0,
        cp.sum(x, axis=1) <= 1,
        s @ x <= c,
    ]
    cons[0].set_label(f"(G1) {tag}: time fractions are non-negative")
    cons[1].set_label(f"(G2) {tag}: each job's time fractions sum to at most 1")
    cons[2].set_label(f"(G3) {tag}: GPUs of each type, counting scale factors, within capacity")
    return cons


def build_max_min_fairness(throughput, scale_factor, capacity, priority_weight=None):
    """Max-min fairness (heterogeneity-aware LAS): maximize the minimum normalized throughput.

    ``max_X min_j (1/w_j) * (T_j . X_j) / (T_j . X_iso_j)`` subject to (G1)-(G3), written
    with an epigraph variable ``z``: ``z <= (T_j . X_j) / (w_j T_j . X_iso_j)`` labelled (G4).
    Returns ``(problem, x)``.
    """
    import cvxpy as cp

    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    J, R = T.shape
    w = np.ones(J) if w is None else w
    iso = np.sum(T * isolated_allocation(s, c), axis=1)
    stuck = np.flatnonzero(iso <= 0)
    if stuck.size:
        raise InstanceError(f"job {stuck[0]} has zero throughput on every GPU type with capacity > 0; "
                            "max-min fairness cannot normalize it")
    coef = T / (w * iso)[:, None]
    x = cp.Variable((J, R), name="X")
    z = cp.Variable(name="z")
    cons = _base_constraints(x, s, c, "max-min fairness")
    fair = z <= cp.sum(cp.multiply(coef, x), axis=1)
    fair.set_label("(G4) z is below every job's normalized throughput")
    cons.append(fair)
    return cp.Problem(cp.Maximize(z), cons), x


def build_max_sum_throughput(throughput, scale_factor, capacity, priority_weight=None):
    """Max-sum-throughput: ``max sum_j w_j T_j . X_j`` subject to (G1)-(G3).  Returns ``(problem, x)``."""
    import cvxpy as cp

    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    J, R = T.shape
    w = np.ones(J) if w is None else w
    x = cp.Variable((J, R), name="X")
    cons = _base_constraints(x, s, c, "max-sum-throughput")
    return cp.Problem(cp.Maximize(cp.sum(cp.multiply(T * w[:, None], x))), cons), x


def build_min_total_duration(throughput, scale_factor, capacity, remaining_steps=None):
    """Min-total-duration: minimize the makespan ``M`` with ``T_j . X_j >= steps_j / M``.

    With ``z = 1/M`` the problem is the LP ``max z`` s.t. (G1)-(G3) and
    (G5) ``T_j . X_j >= steps_j * z``.  ``remaining_steps=None`` means one unit of work
    per job.  Returns ``(problem, x)``; the makespan is ``1 / problem.value``.
    """
    import cvxpy as cp

    T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, None, remaining_steps)
    J, R = T.shape
    steps = np.ones(J) if steps is None else steps
    x = cp.Variable((J, R), name="X")
    z = cp.Variable(name="z", nonneg=True)
    cons = _base_constraints(x, s, c, "min-total-duration")
    done = cp.sum(cp.multiply(T, x), axis=1) >= steps * z
    done.set_label("(G5) every job finishes its remaining steps within the makespan 1/z")
    cons.append(done)
    return cp.Problem(cp.Maximize(z), cons), x


def build_fifo_step(throughput, scale_factor, capacity, job: int, floors):
    """One LP of FIFO's lexicographic sequence.

    Maximizes job ``job``'s normalized throughput ``T_j . X_j / max_r T_jr`` subject to
    (G1)-(G3) and (G6): every earlier job ``k < job`` keeps at least ``floors[k]`` of its
    normalized throughput.  Returns ``(problem, x)``.
    """
    import cvxpy as cp

    T, s, c, _, _ = check_policy_inputs(throughput, scale_factor, capacity)
    J, R = T.shape
    norm = T / T.max(axis=1, keepdims=True)
    x = cp.Variable((J, R), name="X")
    cons = _base_constraints(x, s, c, "fifo")
    if job > 0:
        keep = cp.sum(cp.multiply(norm[:job], x[:job]), axis=1) >= np.asarray(floors[:job], dtype=float)
        keep.set_label("(G6) earlier jobs keep their lexicographically optimal throughput")
        cons.append(keep)
    return cp.Problem(cp.Maximize(norm[job] @ x[job]), cons), x


def _solved(problem, x) -> np.ndarray:
    solve_problem(problem, "HIGHS")
    X = np.asarray(x.value, dtype=float)
    # HiGHS returns vertex solutions within its feasibility tolerance; values like -1e-12
    # are round-off of exact zeros, not a violated bound.
    X[np.abs(X) < 1e-10] = 0.0
    return X


def max_min_fairness(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None) -> np.ndarray:
    """Allocation of heterogeneity-aware max-min fairness (Gavel's LAS policy).

    Parameters
    ----------
    throughput : array_like, shape (J, R)
        ``throughput[j, r]``: iterations/s of job ``j`` on ``scale_factor[j]`` GPUs of type ``r``
        (0 where it cannot run there).
    scale_factor : array_like, shape (J,)
        GPUs a job occupies when it runs (all of one type).
    capacity : array_like, shape (R,)
        GPUs of each type.
    priority_weight : array_like, shape (J,), optional
        The objective is ``min_j rho_j / w_j`` (Gavel's ``1/w_m`` weighting): when every
        job is tight, ``rho_j`` is proportional to ``w_j``, so a larger weight gets more.
    remaining_steps : None
        Not used by this policy; must be None (accepted for the common signature).

    Returns
    -------
    numpy.ndarray, shape (J, R)
        Time fractions.

    References
    ----------
    Narayanan et al., OSDI 2020, Section 4.1 (LAS with heterogeneity).
    """
    _no_steps("max_min_fairness", remaining_steps)
    return _solved(*build_max_min_fairness(throughput, scale_factor, capacity, priority_weight))


def max_sum_throughput(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None) -> np.ndarray:
    """Allocation maximizing the (weighted) sum of effective throughputs; see :func:`max_min_fairness`."""
    _no_steps("max_sum_throughput", remaining_steps)
    return _solved(*build_max_sum_throughput(throughput, scale_factor, capacity, priority_weight))


def min_total_duration(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None) -> np.ndarray:
    """Allocation minimizing the time to finish every job's ``remaining_steps`` (makespan).

    ``priority_weight`` is not used by this policy and must be None; ``remaining_steps``
    (shape (J,), > 0) defaults to one unit of work per job.
    """
    if priority_weight is not None:
        raise InstanceError("priority_weight is not used by min_total_duration; pass None")
    return _solved(*build_min_total_duration(throughput, scale_factor, capacity, remaining_steps))


def fifo(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None) -> np.ndarray:
    """Heterogeneity-aware FIFO: jobs in row order (arrival order) lexicographically.

    Job 0 first gets the largest normalized throughput ``T_j . X_j / max_r T_jr`` it can,
    then job 1 the largest it can without lowering job 0's, and so on: J LPs
    (:func:`build_fifo_step`).  A job that arrives first and fits runs full time on its
    fastest type, as in Gavel's FIFO.  ``priority_weight`` and ``remaining_steps`` must be None.
    """
    if priority_weight is not None:
        raise InstanceError("priority_weight is not used by fifo (row order is the priority); pass None")
    _no_steps("fifo", remaining_steps)
    T, s, c, _, _ = check_policy_inputs(throughput, scale_factor, capacity)
    floors = np.zeros(T.shape[0])
    X = np.zeros_like(T)
    for j in range(T.shape[0]):
        problem, x = build_fifo_step(T, s, c, j, floors)
        solve_problem(problem, "HIGHS")
        floors[j] = max(0.0, float(problem.value)) * (1 - FIFO_FIX_RTOL)
        X = np.asarray(x.value, dtype=float)
    X[np.abs(X) < 1e-10] = 0.0
    return X


def _no_steps(name: str, remaining_steps) -> None:
    if remaining_steps is not None:
        raise InstanceError(f"remaining_steps is not used by {name}; pass None")


#: Policy name -> function, all with the common signature.
POLICIES = {
    "max_min_fairness": max_min_fairness,
    "max_sum_throughput": max_sum_throughput,
    "min_total_duration": min_total_duration,
    "fifo": fifo,
}
