"""Instance-derived bounds on start and completion times (tight big-M constants).

Every bound here holds for *every* solution whose objective is at most a known feasible
value ``UB``, so adding them to a model never cuts off an optimal solution, of the exact
problem or of its relaxation:

* a task of round ``r`` (0-based) of job ``n`` cannot start before ``a_n + r d_n`` with
  ``d_n = min_m (T^c_{n,m} + T^s_{n,m})``, by (4) and (7);
* ``C_n >= LB_n = a_n + |R_n| d_n``, so a solution of value ``<= UB`` has
  ``C_n <= (UB - sum_{k != n} w_k LB_k) / w_n`` (weights are positive);
* by (6)-(7), task ``i`` of round ``r`` then starts no later than ``C_n - (|R_n| - r) d_n``.

``UB`` comes from a cheap feasible schedule (:func:`greedy_schedule`).

With ``round_bound=True`` the length of a round is bounded per job by :func:`round_length_bound`
instead of ``d_n``: the job alone, its ``K`` tasks spread over the GPUs, ``k`` tasks stacked on
GPU ``m`` ending at ``k T^c_{n,m} + T^s_{n,m}`` (issue 25, item 6).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..inputs import check_flag, check_positive
from .instance import HareInstance

__all__ = ["TimeBounds", "time_bounds", "greedy_schedule", "round_length_bound", "serial_horizon", "trivial_bound"]

#: Relative margin of :func:`trivial_bound` for its float evaluation (and reading floats as decimals).
TRIVIAL_MARGIN = 1e-12

#: Relative slack added to the derived upper bounds against floating-point round-off.
BOUND_SLACK = 1e-7


def greedy_schedule(inst: HareInstance) -> tuple[np.ndarray, np.ndarray]:
    """A feasible schedule for the big-M constants: Smith-ratio job order, earliest finish.

    Jobs in non-increasing ``w_n / (|R_n| |D_r| min_m T^c_{n,m})``; every task goes to the
    GPU on which its compute ends first.  Returns ``(start, gpu)``.
    """
    work = inst.rounds * inst.tasks_per_round * inst.compute_time.min(axis=1)
    order = np.lexsort((np.arange(inst.n_jobs), -(inst.weight / work)))
    free = np.zeros(inst.n_gpus)
    start = np.zeros(inst.n_tasks)
    gpu = np.zeros(inst.n_tasks, dtype=int)
    for n in order:
        ready = float(inst.arrival[n])
        for r in range(int(inst.rounds[n])):
            next_ready = ready
            for i in inst.round_tasks(n, r):
                s = np.maximum(free, ready)
                m = int(np.argmin(s + inst.compute_time[n]))
                start[i], gpu[i] = s[m], m
                free[m] = s[m] + inst.compute_time[n, m]
                next_ready = max(next_ready, free[m] + inst.sync_time[n, m])
            ready = next_ready
    return start, gpu


def serial_horizon(inst: HareInstance) -> float:
    """``max_n a_n + sum_i max_m (T^c_{i,m} + T^s_{i,m})``: every semi-active schedule completes by it.

    In a semi-active schedule every task starts at the later of its ready time and its GPU's
    last compute end, so by induction over the starts, every task ends by the last arrival plus
    the durations of the tasks started before it.  Some optimal schedule is semi-active, so
    capping completions at this horizon keeps an optimal schedule.

    Parameters
    ----------
    inst : HareInstance
        The instance.

    Returns
    -------
    float
    """
    return float(inst.arrival.max() + ((inst.rounds * inst.tasks_per_round)
                                       * (inst.compute_time + inst.sync_time).max(axis=1)).sum())


def round_length_bound(inst: HareInstance) -> np.ndarray:
    """Per job, the least time from a round's ready time to its end: ``min_k max_m (k_m T^c_{n,m} + T^s_{n,m})``.

    The ``K = |D_r|`` tasks of a round start at or after the round's ready time; the ``k_m`` of
    them on GPU ``m`` compute one after another (8), so the last ends synchronizing at least
    ``k_m T^c_{n,m} + T^s_{n,m}`` later.  The least over the ways of spreading ``K`` tasks over the
    GPUs (``sum_m k_m = K``) is the smallest ``T`` at which the GPUs can hold ``K`` tasks,
    ``#{(m, k >= 1): k T^c_{n,m} + T^s_{n,m} <= T} >= K``.  For ``K = 1`` it is ``d_n``.

    Parameters
    ----------
    inst : HareInstance
        The instance.

    Returns
    -------
    numpy.ndarray, shape (N,)
        At least ``min_m (T^c_{n,m} + T^s_{n,m})``.
    """
    out = np.empty(inst.n_jobs)
    for n in range(inst.n_jobs):
        K = int(inst.tasks_per_round[n])
        tc, ts = inst.compute_time[n], inst.sync_time[n]
        cands = np.sort((np.arange(1, K + 1)[:, None] * tc[None, :] + ts[None, :]).ravel())
        out[n] = cands[K - 1]  # the K-th smallest end: K slots (m, k) end by it, fewer by anything earlier
    return out


def trivial_bound(inst: HareInstance) -> float:
    """``sum_n w_n (a_n + |R_n| L_n)`` lowered by a relative ``1e-12``: a lower bound on every schedule.

    ``L_n`` is :func:`round_length_bound` (at least ``d_n = min_m (T^c + T^s)``): each job alone,
    its rounds one after another.  The exact engines report at least this bound.

    Parameters
    ----------
    inst : HareInstance
        The instance.

    Returns
    -------
    float
    """
    return float(inst.weight @ (inst.arrival + inst.rounds * round_length_bound(inst))) * (1 - TRIVIAL_MARGIN)


@dataclass(frozen=True)
class TimeBounds:
    """Bounds on start times ``x`` (per task) and completion times ``C`` (per job)."""

    x_lower: np.ndarray
    x_upper: np.ndarray
    c_lower: np.ndarray
    c_upper: np.ndarray
    upper_objective: float


def time_bounds(inst: HareInstance, upper_objective: float | None = None, *, round_bound: bool = False,
                horizon: bool = False) -> TimeBounds:
    """Bounds valid for every solution of value at most ``upper_objective``.

    Parameters
    ----------
    inst : HareInstance
    upper_objective : float, optional
        The value ``UB`` of a known feasible schedule; by default that of
        :func:`greedy_schedule`.
    round_bound : bool
        Bound every round's length by :func:`round_length_bound` (module docstring) instead of
        the shortest single task ``d_n``: a task of round ``r`` starts no earlier than
        ``a_n + r L_n``, ``C_n >= a_n + |R_n| L_n``, and a task of round ``r`` starts by
        ``C_n - d_n - (|R_n| - 1 - r) L_n``.
    horizon : bool
        Also cap every completion at :func:`serial_horizon` (plus a relative ``1e-9``): valid for
        some optimal schedule (a semi-active one), not for every schedule of value ``UB``; it
        keeps the big-M constants of a job of tiny weight at the scale of the horizon instead of
        ``UB / w_n`` (a weight of ``1e-10`` gave constants of ``1e9`` and a wrong optimum from HiGHS,
        issue 25).  Exact models only: a relaxation's bound stays valid with it, but its solution
        changes.
    """
    check_flag(round_bound, "round_bound")
    check_flag(horizon, "horizon")
    if upper_objective is not None:
        upper_objective = check_positive(upper_objective, "upper_objective", allow_zero=True)
    if upper_objective is None:
        start, gpu = greedy_schedule(inst)
        end = start + inst.task_compute[np.arange(inst.n_tasks), gpu] + inst.task_sync[np.arange(inst.n_tasks), gpu]
        comp = np.zeros(inst.n_jobs)
        np.maximum.at(comp, inst.task_job, end)
        upper_objective = float(inst.weight @ comp)
    d = inst.min_round_time
    L = round_length_bound(inst) if round_bound else d
    c_lower = inst.arrival + inst.rounds * L if round_bound else inst.completion_lower_bound
    slack = BOUND_SLACK * max(1.0, abs(upper_objective))
    c_upper = (upper_objective + slack - (inst.weight @ c_lower - inst.weight * c_lower)) / inst.weight
    if horizon:
        c_upper = np.minimum(c_upper, serial_horizon(inst) * (1 + 1e-9))
    c_upper = np.maximum(c_upper, c_lower)
    job, rnd = inst.task_job, inst.task_round
    x_lower = inst.arrival[job] + rnd * L[job]
    if round_bound:
        x_upper = c_upper[job] - d[job] - (inst.rounds[job] - 1 - rnd) * L[job]
    else:
        x_upper = c_upper[job] - (inst.rounds[job] - rnd) * d[job]
    return TimeBounds(x_lower=x_lower, x_upper=np.maximum(x_upper, x_lower), c_lower=c_lower, c_upper=c_upper,
                      upper_objective=float(upper_objective))
