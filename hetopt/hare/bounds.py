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
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .instance import HareInstance

__all__ = ["TimeBounds", "time_bounds", "greedy_schedule"]

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


@dataclass(frozen=True)
class TimeBounds:
    """Bounds on start times ``x`` (per task) and completion times ``C`` (per job)."""

    x_lower: np.ndarray
    x_upper: np.ndarray
    c_lower: np.ndarray
    c_upper: np.ndarray
    upper_objective: float


def time_bounds(inst: HareInstance, upper_objective: float | None = None) -> TimeBounds:
    """Bounds valid for every solution of value at most ``upper_objective``.

    Parameters
    ----------
    inst : HareInstance
    upper_objective : float, optional
        The value ``UB`` of a known feasible schedule; by default that of
        :func:`greedy_schedule`.
    """
    if upper_objective is None:
        start, gpu = greedy_schedule(inst)
        end = start + inst.task_compute[np.arange(inst.n_tasks), gpu] + inst.task_sync[np.arange(inst.n_tasks), gpu]
        comp = np.zeros(inst.n_jobs)
        np.maximum.at(comp, inst.task_job, end)
        upper_objective = float(inst.weight @ comp)
    d = inst.min_round_time
    c_lower = inst.completion_lower_bound
    slack = BOUND_SLACK * max(1.0, abs(upper_objective))
    c_upper = (upper_objective + slack - (inst.weight @ c_lower - inst.weight * c_lower)) / inst.weight
    c_upper = np.maximum(c_upper, c_lower)
    job, rnd = inst.task_job, inst.task_round
    x_lower = inst.arrival[job] + rnd * d[job]
    x_upper = c_upper[job] - (inst.rounds[job] - rnd) * d[job]
    return TimeBounds(x_lower=x_lower, x_upper=np.maximum(x_upper, x_lower), c_lower=c_lower, c_upper=c_upper,
                      upper_objective=float(upper_objective))
