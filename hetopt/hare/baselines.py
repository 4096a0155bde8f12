"""The baselines of Section 7.1 that plan up front, and the shared gang helpers.

The paper's baselines run online in its simulator; the online schedulers are in
:mod:`hetopt.hare.online` (``srtf``, ``sched_homo``, ``sched_allox``).  Both kinds are policies of
the one registry :data:`hetopt.hare.policies.POLICIES`, run by :func:`hetopt.hare.simulate`.  The planners here decide
everything at time 0 from the whole instance, so they ignore that later jobs have not yet
arrived when they order them (``sched_homo_offline``, ``sched_allox_offline``), or preempt
between rounds and backfill (``srtf_round``); both make them different baselines from the
paper's, and they are kept under these names for comparison.

Every baseline returns a :class:`HareSolution` (status FEASIBLE, no bound) whose schedule
satisfies (4)-(8), and is tested through :func:`hetopt.hare.check_schedule`.  The paper
names the schemes and one sentence of behaviour each; the readings below are ours and
are recorded in ``models/hare2022.md``.

* ``gavel_fifo``: Gavel's FIFO for heterogeneous GPUs [Narayanan et al., OSDI 2020]: jobs
  in arrival order; a job waits until ``|D_r|`` GPUs are idle at once (gang, scale-fixed),
  takes the fastest idle ones for it, and holds them until it completes.  Strict FIFO: a
  job never starts before an earlier-arrived one.
* ``srtf_round``: shortest remaining time first at round boundaries (a job can be preempted
  between rounds, never inside one): whenever GPUs are idle, the ready job with the
  least remaining time (remaining rounds times its fastest round) gang-starts its next
  round on the fastest idle GPUs; jobs that do not fit are skipped (backfilling).
* ``sched_homo_offline``: the homogeneous-GPU scheduler of Zhang et al. [MobiHoc 2020]: job-level,
  non-preemptive, heterogeneity-oblivious.  Jobs in Smith's order ``w_n / work_n`` with
  work estimated at the *mean* speed over GPUs; each takes the ``|D_r|`` GPUs that free up
  first (whatever their type) and holds them for all its rounds.
* ``sched_allox_offline``: AlloX [Le et al., EuroSys 2020]: job-level, no intra-job parallelism.
  A job runs all its tasks on one GPU, ``p_{n,m} = |R_n| (|D_r| T^c_{n,m} + T^s_{n,m})``;
  jobs are assigned to (GPU, position-from-last) slots by a min-cost bipartite matching
  with cost ``k p_{n,m}`` (Bruno-Coffman-Sethi), solved with
  ``scipy.optimize.linear_sum_assignment``; each GPU then runs its jobs in matched order,
  a job starting no earlier than its arrival (the next job may start while the previous
  one's last round synchronizes).
"""

from __future__ import annotations

import heapq
import math
import time

import numpy as np
from scipy.optimize import linear_sum_assignment

from ..errors import InstanceError
from ..inputs import takes_instance
from .instance import HareInstance
from .solution import HareSolution, make_solution

__all__ = ["gavel_fifo", "srtf_round", "sched_homo_offline", "sched_allox_offline", "ALLOX_POSITIONS_FACTOR"]

#: ``sched_allox`` offers every GPU ``min(N, ALLOX_POSITIONS_FACTOR * ceil(N / M))`` positions.
ALLOX_POSITIONS_FACTOR = 8


def _gang_rounds(inst: HareInstance, n: int, gpus: list[int], t0: float, start: np.ndarray,
                 gpu: np.ndarray) -> float:
    """Run all rounds of job ``n`` on ``gpus`` (task k on gpus[k]) from ``t0``; return its completion."""
    t = t0
    for r in range(int(inst.rounds[n])):
        end = t
        for k, i in enumerate(inst.round_tasks(n, r)):
            m = gpus[k]
            start[i], gpu[i] = t, m
            end = max(end, t + inst.compute_time[n, m] + inst.sync_time[n, m])
        t = end
    return t


def _solution(inst: HareInstance, start: np.ndarray, gpu: np.ndarray, method: str, t0: float,
              info: dict | None = None) -> HareSolution:
    return make_solution(inst, start, gpu, method=method, wall_time=time.perf_counter() - t0, info=info)


def _check_fits(inst: HareInstance) -> None:
    too_big = np.flatnonzero(inst.tasks_per_round > inst.n_gpus)
    if too_big.size:
        n = int(too_big[0])
        raise InstanceError(f"tasks_per_round[{n}] is {inst.tasks_per_round[n]}; gang schedulers need at most "
                            f"{inst.n_gpus} (the number of GPUs)")


@takes_instance(HareInstance)
def gavel_fifo(inst: HareInstance) -> HareSolution:
    """Gavel's FIFO: arrival order, fastest idle GPUs, waits for the whole gang.

    Raises
    ------
    InstanceError
        If a job needs more tasks per round than there are GPUs (no gang fits).
    """
    t0 = time.perf_counter()
    _check_fits(inst)
    start, gpu = np.zeros(inst.n_tasks), np.zeros(inst.n_tasks, dtype=int)
    free = np.zeros(inst.n_gpus)
    last_start = 0.0
    for n in np.lexsort((np.arange(inst.n_jobs), inst.arrival)):
        k = int(inst.tasks_per_round[n])
        t = max(float(inst.arrival[n]), last_start, float(np.sort(free)[k - 1]))
        idle = np.flatnonzero(free <= t)
        fastest = idle[np.lexsort((idle, (inst.compute_time + inst.sync_time)[n, idle]))][:k]
        c = _gang_rounds(inst, n, list(fastest), t, start, gpu)
        free[fastest] = c
        last_start = t
    return _solution(inst, start, gpu, "gavel_fifo", t0)


@takes_instance(HareInstance)
def sched_homo_offline(inst: HareInstance) -> HareSolution:
    """Zhang et al.'s homogeneous-GPU scheduler: Smith order at mean speed, oblivious GPU choice."""
    t0 = time.perf_counter()
    _check_fits(inst)
    start, gpu = np.zeros(inst.n_tasks), np.zeros(inst.n_tasks, dtype=int)
    mean_round = (inst.compute_time + inst.sync_time).mean(axis=1)
    ratio = inst.weight / (inst.rounds * mean_round)
    free = np.zeros(inst.n_gpus)
    for n in np.lexsort((np.arange(inst.n_jobs), inst.arrival, -ratio)):
        k = int(inst.tasks_per_round[n])
        first_free = np.lexsort((np.arange(inst.n_gpus), free))[:k]
        t = max(float(inst.arrival[n]), float(free[first_free].max()))
        c = _gang_rounds(inst, n, list(first_free), t, start, gpu)
        free[first_free] = c
    return _solution(inst, start, gpu, "sched_homo_offline", t0)


@takes_instance(HareInstance)
def srtf_round(inst: HareInstance) -> HareSolution:
    """Shortest remaining time first, preemptive at round boundaries, fastest idle GPUs."""
    t0 = time.perf_counter()
    _check_fits(inst)
    start, gpu = np.zeros(inst.n_tasks), np.zeros(inst.n_tasks, dtype=int)
    fastest_round = inst.min_round_time
    busy = inst.compute_time + inst.sync_time
    next_round = np.zeros(inst.n_jobs, dtype=int)
    ready_at = inst.arrival.astype(float).copy()
    running = np.zeros(inst.n_jobs, dtype=bool)
    free = np.zeros(inst.n_gpus)
    events = sorted(set(inst.arrival.tolist()))
    heapq.heapify(events)
    t = -math.inf
    while (next_round < inst.rounds).any():
        t_next = heapq.heappop(events)
        if t_next < t:
            continue
        # t_next == t is processed again: a round shorter than the float spacing of t ends at t itself (1e-8 s
        # at 2e8 s), and skipping its end event left the heap empty with rounds to run (IndexError)
        t = t_next
        running &= ready_at > t
        idle = list(np.flatnonzero(free <= t))
        waiting = np.flatnonzero((next_round < inst.rounds) & ~running & (ready_at <= t))
        remaining = (inst.rounds - next_round) * fastest_round
        for n in waiting[np.lexsort((waiting, remaining[waiting]))]:
            k = int(inst.tasks_per_round[n])
            if len(idle) < k:
                continue
            cand = np.array(idle)
            chosen = cand[np.lexsort((cand, busy[n, cand]))][:k]
            end = t
            for kk, i in enumerate(inst.round_tasks(n, int(next_round[n]))):
                m = int(chosen[kk])
                start[i], gpu[i] = t, m
                free[m] = t + inst.compute_time[n, m]
                end = max(end, free[m] + inst.sync_time[n, m])
                heapq.heappush(events, float(free[m]))
            idle = [g for g in idle if g not in set(chosen.tolist())]
            next_round[n] += 1
            ready_at[n], running[n] = end, True
            heapq.heappush(events, end)
    return _solution(inst, start, gpu, "srtf_round", t0)


@takes_instance(HareInstance)
def sched_allox_offline(inst: HareInstance) -> HareSolution:
    """AlloX: each job on one GPU, min-cost matching of jobs to (GPU, position) slots."""
    t0 = time.perf_counter()
    n_jobs, n_gpus = inst.n_jobs, inst.n_gpus
    p = inst.rounds[:, None] * (inst.tasks_per_round[:, None] * inst.compute_time + inst.sync_time)
    positions = min(n_jobs, ALLOX_POSITIONS_FACTOR * math.ceil(n_jobs / n_gpus))
    k = np.arange(1, positions + 1)
    cost = (p[:, :, None] * k[None, None, :]).reshape(n_jobs, n_gpus * positions)  # slot (m, k) -> m * P + k - 1
    rows, cols = linear_sum_assignment(cost)
    slot_gpu, slot_pos = cols // positions, cols % positions
    start, gpu = np.zeros(inst.n_tasks), np.zeros(inst.n_tasks, dtype=int)
    for m in range(n_gpus):
        on_m = rows[slot_gpu == m]
        order = on_m[np.argsort(-slot_pos[slot_gpu == m], kind="stable")]  # last position runs first
        free = 0.0
        for n in order:
            t = max(free, float(inst.arrival[n]))
            for r in range(int(inst.rounds[n])):
                for i in inst.round_tasks(n, r):
                    start[i], gpu[i] = t, m
                    t += inst.compute_time[n, m]
                free = t  # the GPU is free at the compute end; the job's next round waits for sync
                t += inst.sync_time[n, m]
    info = {"positions_per_gpu": positions, "positions_truncated": positions < n_jobs}
    return _solution(inst, start, gpu, "sched_allox_offline", t0, info)

