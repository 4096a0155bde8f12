"""Online baselines of Section 7.1: decisions at run time, never before a job arrives.

The paper's simulator replays a Google-trace arrival process, so its baselines decide when
jobs arrive and GPUs free up.  The schedulers here do that (an event loop over arrivals and
GPU releases; a decision at time ``t`` uses only jobs with ``a_n <= t``); the plans of
:mod:`hetopt.hare.baselines` that decide everything up front are kept under their own names
(``srtf_round``, ``sched_homo_offline``, ``sched_allox_offline``).  Both are entries of the one
policy registry :data:`hetopt.hare.policies.POLICIES`.

* ``srtf``: job-level shortest remaining time first.  A started job holds its gang of
  ``|D_r|`` GPUs (the fastest idle ones for it) until it completes, so a waiting job's
  remaining time is its whole time ``|R_n| min_m (T^c + T^s)``: SRTF without preemption.
  The job with the least remaining time waits for its gang; later jobs do not jump it
  unless ``backfill=True``.
* ``sched_homo``: Zhang et al.'s scheduler for homogeneous GPUs, online: waiting jobs in
  Smith's order ``w_n / (|R_n| mean_m (T^c + T^s))`` (speeds averaged: it does not know the
  GPU types), each takes idle GPUs by index (whatever their type) and holds them for all its
  rounds; no preemption, no backfilling unless asked.
* ``sched_allox``: AlloX online.  At every event the waiting jobs are matched to (GPU,
  position-from-last) slots by the min-cost bipartite matching of AlloX with cost
  ``k p_{n,m} + r_m`` (``p_{n,m} = |R_n| (|D_r| T^c_{n,m} + T^s_{n,m})`` on one GPU, ``r_m``
  the time until GPU ``m`` frees up); an idle GPU starts the job matched to its first slot,
  the others are matched again at the next event.  One GPU per job, non-preemptive.
"""

from __future__ import annotations

import heapq
import math
import time

import numpy as np
from scipy.optimize import linear_sum_assignment

from ..inputs import check_flag, takes_instance
from .baselines import ALLOX_POSITIONS_FACTOR, _check_fits, _gang_rounds, _solution
from .instance import HareInstance
from .solution import HareSolution

__all__ = ["srtf", "sched_homo", "sched_allox"]


def _online_gang(inst: HareInstance, priority: np.ndarray, fastest: bool, backfill: bool, method: str
                 ) -> HareSolution:
    """Event loop of a non-preemptive online gang scheduler (smaller ``priority`` first)."""
    t0 = time.perf_counter()
    _check_fits(inst)
    start, gpu = np.zeros(inst.n_tasks), np.zeros(inst.n_tasks, dtype=int)
    busy = inst.compute_time + inst.sync_time
    free = np.zeros(inst.n_gpus)
    started = np.zeros(inst.n_jobs, dtype=bool)
    events = sorted(set(inst.arrival.tolist()))
    rank = np.lexsort((np.arange(inst.n_jobs), inst.arrival, priority))
    while not started.all():
        t = heapq.heappop(events)
        idle = [int(g) for g in np.flatnonzero(free <= t)]
        for n in rank:
            if started[n] or inst.arrival[n] > t:
                continue
            k = int(inst.tasks_per_round[n])
            if len(idle) < k:
                if backfill:
                    continue
                break
            cand = np.array(idle)
            chosen = cand[np.lexsort((cand, busy[n, cand]))][:k] if fastest else cand[:k]
            c = _gang_rounds(inst, int(n), [int(g) for g in chosen], t, start, gpu)
            free[chosen] = c
            heapq.heappush(events, c)
            started[n] = True
            idle = [g for g in idle if g not in set(chosen.tolist())]
    return _solution(inst, start, gpu, method, t0, {"online": True, "backfill": backfill})


@takes_instance(HareInstance)
def srtf(inst: HareInstance, *, backfill: bool = False) -> HareSolution:
    """Job-level SRTF, online and non-preemptive, fastest idle GPUs (see the module docstring)."""
    check_flag(backfill, "backfill")
    remaining = inst.rounds * inst.min_round_time
    return _online_gang(inst, remaining, fastest=True, backfill=backfill, method="srtf")


@takes_instance(HareInstance)
def sched_homo(inst: HareInstance, *, backfill: bool = False) -> HareSolution:
    """Sched_Homo online: Smith's order at mean speed, idle GPUs by index, non-preemptive."""
    check_flag(backfill, "backfill")
    mean_round = (inst.compute_time + inst.sync_time).mean(axis=1)
    smith = inst.weight / (inst.rounds * mean_round)
    return _online_gang(inst, -smith, fastest=False, backfill=backfill, method="sched_homo")


def _run_on_gpu(inst: HareInstance, n: int, m: int, t: float, start: np.ndarray, gpu: np.ndarray) -> float:
    """All tasks of job ``n`` one after another on GPU ``m`` from ``t``; return the GPU's free time."""
    for r in range(int(inst.rounds[n])):
        for i in inst.round_tasks(n, r):
            start[i], gpu[i] = t, m
            t += inst.compute_time[n, m]
        free = t
        t += inst.sync_time[n, m]
    return free


@takes_instance(HareInstance)
def sched_allox(inst: HareInstance) -> HareSolution:
    """AlloX online: re-match waiting jobs to (GPU, position) slots at every event."""
    t0 = time.perf_counter()
    n_gpus = inst.n_gpus
    p = inst.rounds[:, None] * (inst.tasks_per_round[:, None] * inst.compute_time + inst.sync_time)
    start, gpu = np.zeros(inst.n_tasks), np.zeros(inst.n_tasks, dtype=int)
    free = np.zeros(n_gpus)
    started = np.zeros(inst.n_jobs, dtype=bool)
    events = sorted(set(inst.arrival.tolist()))
    truncated = False
    while not started.all():
        t = heapq.heappop(events)
        while events and events[0] <= t:
            heapq.heappop(events)
        waiting = np.flatnonzero(~started & (inst.arrival <= t))
        if waiting.size == 0 or not (free <= t).any():
            continue
        w = waiting.size
        positions = min(w, ALLOX_POSITIONS_FACTOR * math.ceil(w / n_gpus))
        truncated |= positions < w
        k = np.arange(1, positions + 1)
        resid = np.maximum(free - t, 0.0)
        cost = p[waiting][:, :, None] * k[None, None, :] + resid[None, :, None]
        rows, cols = linear_sum_assignment(cost.reshape(w, n_gpus * positions))
        slot_gpu, slot_pos = cols // positions, cols % positions
        for m in np.flatnonzero(free <= t):
            mine = np.flatnonzero(slot_gpu == m)
            if mine.size == 0:
                continue
            n = int(waiting[rows[mine[np.argmax(slot_pos[mine])]]])  # the last position-from-last runs first
            free[m] = _run_on_gpu(inst, n, int(m), t, start, gpu)
            heapq.heappush(events, float(free[m]))
            started[n] = True
    return _solution(inst, start, gpu, "sched_allox", t0, {"online": True, "positions_truncated": truncated})

