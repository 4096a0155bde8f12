"""Gavel's policies that solve no LP: AlloX and the heterogeneity-agnostic (random) FIFO.

Both keep state between calls (the jobs already placed), so each is a class with one object per
simulation; the functions are a fresh object's first call.

* :class:`AlloX` (``AlloXPolicy``, ``scheduler/policies/allox.py``): the jobs not yet placed,
  oldest first, at most ``max(alpha * J, GPUs free)`` of them, are matched to the free GPUs by a
  min-cost assignment (Hungarian method) whose cost of job ``j`` in position ``k`` on GPU ``g``
  is ``k * steps_j / T_j,type(g) + t_j`` (``t_j`` the time since the job arrived); each GPU's last
  job in the order gets it (``X = 1`` on its type).  Jobs placed before keep their allocation.
  Gavel asserts that every scale factor is 1; hetopt lets a gang through as one entry of the matching
  (its throughput is that of its ``s_j`` GPUs), so with gangs the allocation may ask a type for more
  GPUs than it has, and the mechanism places what fits (``allox`` is therefore simulated only).
* :class:`RandomFIFO` (``FIFOPolicy`` in its ``base`` mode, the driver's ``fifo``): jobs in arrival
  order keep a GPU type until they complete; each new job at the head of the queue draws a type
  uniformly among those with at least its scale factor of free GPUs (the queue stops at the first
  job that fits nowhere).  Gavel's code draws the index but never reads it: the job goes on the
  last type of the loop that filtered the types (``worker_type``, the last open type by name,
  ``v100`` while any V100 is free), whether or not it has room, and when that type's count
  reaches exactly 0 the *drawn* type is closed.  ``reading="gavel"`` (the default) reproduces this,
  as the other quirks of Gavel are reproduced (:mod:`hetopt.gavel.rounds`); ``reading="drawn"``
  places the job on the drawn type, as the class intends (on 3 runs it moved the average JCT by
  -20 % to +53 % from Gavel's).

References
----------
stanford-futuredata/gavel (commit c4fa400), ``scheduler/policies/allox.py``, ``fifo.py``; MIT.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ArgumentError
from ..inputs import MAX_SEED, check_choice, check_positive, check_size
from .inputs import check_policy_inputs, required_vector

__all__ = ["AlloX", "allox", "RandomFIFO", "fifo_random", "FIFO_READINGS"]


def _ids(job_ids: Sequence[Any] | None, m: int) -> list[int]:
    ids = list(range(m)) if job_ids is None else [int(j) for j in job_ids]
    if len(ids) != m or len(set(ids)) != m:
        raise ArgumentError(f"job_ids has {len(ids)} entries or a duplicate; expected {m} distinct ids")
    return ids



class AlloX:
    """Gavel's AlloX policy (module docstring), one object per simulation.

    Parameters
    ----------
    alpha : float
        Fraction of the waiting jobs considered (Gavel: 1).
    """

    def __init__(self, alpha: float = 1.0):
        self.alpha = check_positive(alpha, "alpha")
        self.prev: dict[int, np.ndarray] = {}

    def __call__(self, throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                 times_since_start=None, job_ids: Sequence[Any] | None = None) -> np.ndarray:
        """The allocation of the jobs given (``job_ids`` name them across calls; default 0..J-1)."""
        from scipy.optimize import linear_sum_assignment

        if priority_weight is not None:
            raise ArgumentError("priority_weight is not used by allox; pass None")
        T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, None, remaining_steps)
        m, n = T.shape
        steps = required_vector("remaining_steps", steps, m)
        since = required_vector("times_since_start", times_since_start, m)
        ids = _ids(job_ids, m)
        waiting, placed = [], []
        for i, job in enumerate(ids):
            if job in self.prev and float(self.prev[job].sum()) == 1.0:
                placed.append(i)
            else:
                waiting.append(i)
        worker_type: list[int] = []
        for r in range(n):
            free = int(c[r]) - sum(1 for i in placed if self.prev[ids[i]][r] == 1.0)
            worker_type += [r] * max(free, 0)
        g = len(worker_type)
        waiting.sort(key=lambda i: -since[i])
        waiting = waiting[:max(int(self.alpha * len(waiting)), g)]
        k = len(waiting)
        X = np.zeros((m, n))
        for i in placed:
            X[i] = self.prev[ids[i]]
        if k and g:
            base = np.zeros((k, g))
            for a, i in enumerate(waiting):
                for w, r in enumerate(worker_type):
                    thr = T[i, r] if T[i, r] != 0.0 else 1e-10
                    base[a, w] = steps[i] / thr
            q = np.concatenate([base * p for p in range(1, k + 1)], axis=1)
            d = np.concatenate([np.repeat(since[waiting][:, None], g, axis=1)] * k, axis=1)
            rows, cols = linear_sum_assignment(q + d)
            per_gpu: dict[int, list[tuple[int, int]]] = {w: [] for w in range(g)}
            for a, col in zip(rows, cols, strict=True):
                per_gpu[int(col) % g].append((waiting[a], int(col) // g))
            for w in range(g):
                jobs = [(i, len(per_gpu[w]) - 1 - pos) for i, pos in per_gpu[w]]
                jobs.sort(key=lambda e: e[1])
                if jobs:
                    X[jobs[0][0], worker_type[w]] = 1.0
        self.prev = {job: X[i].copy() for i, job in enumerate(ids)}
        return X


def allox(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None, times_since_start=None,
          alpha: float = 1.0) -> np.ndarray:
    """Gavel's AlloX on its first call (:class:`AlloX` keeps the placed jobs between calls).

    Examples
    --------
    >>> allox([[2.0, 1.0], [3.0, 2.0]], [1, 1], [1, 1], remaining_steps=[300, 500],
    ...       times_since_start=[0, 0]).tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    """
    return AlloX(alpha)(throughput, scale_factor, capacity, priority_weight, remaining_steps=remaining_steps,
                        times_since_start=times_since_start)


#: The readings of Gavel's heterogeneity-agnostic FIFO (:class:`RandomFIFO`).
FIFO_READINGS = ("gavel", "drawn")


class RandomFIFO:
    """Gavel's heterogeneity-agnostic FIFO (``FIFOPolicy``, ``base`` mode), one object per simulation.

    Parameters
    ----------
    seed : int
        Seed of the type draws (Gavel's driver passes its ``--seed`` to ``FIFOPolicy(seed=...)``;
        the draws use Python's ``random.Random`` as Gavel's do).
    """

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self.assigned: dict[int, int] = {}

    def __call__(self, throughput, scale_factor, capacity, priority_weight=None, *,
                 job_ids: Sequence[Any] | None = None, reading: str = "gavel") -> np.ndarray:
        """The allocation: 1 on each placed job's type (``job_ids`` name the jobs across calls).

        ``reading``: ``"gavel"`` (the type Gavel's code uses, the module docstring) or ``"drawn"``.
        """
        if priority_weight is not None:
            raise ArgumentError("priority_weight is not used by fifo_random (arrival order is the priority); pass None")
        check_choice(reading, "reading", FIFO_READINGS)
        T, s, c, _, _ = check_policy_inputs(throughput, scale_factor, capacity)
        m, n = T.shape
        ids = _ids(job_ids, m)
        row = {job: i for i, job in enumerate(ids)}
        free = c.astype(float).copy()
        queue = [job for job in sorted(ids) if job not in self.assigned]
        for job in sorted(self.assigned):
            r = self.assigned[job]
            if job not in row:  # completed: its GPUs go to the head of the queue if it fits there
                if queue and s[row[queue[0]]] <= free[r] and T[row[queue[0]], r] > 0.0:
                    head = queue.pop(0)
                    self.assigned[head] = r
                    free[r] -= s[row[head]]
                del self.assigned[job]
            else:
                free[r] -= s[row[job]]
        open_types = [r for r in range(n) if free[r] > 0]
        while queue and open_types:
            job = queue.pop(0)
            fits = [i for i, r in enumerate(open_types) if free[r] >= s[row[job]]]
            if not fits:
                break
            idx = self.rng.randrange(len(fits))
            r = open_types[-1] if reading == "gavel" else open_types[fits[idx]]
            if T[row[job], r] > 0.0:
                self.assigned[job] = r
                free[r] -= s[row[job]]
                if free[r] == 0:
                    open_types.pop(fits[idx] if reading == "gavel" else open_types.index(r))
        X = np.zeros((m, n))
        for job, r in self.assigned.items():
            X[row[job], r] = 1.0
        return X


def fifo_random(throughput, scale_factor, capacity, priority_weight=None, *, seed: int = 0,
                reading: str = "gavel") -> np.ndarray:
    """Gavel's heterogeneity-agnostic FIFO on its first call (:class:`RandomFIFO` keeps the placements)."""
    check_size(seed, "seed", minimum=0, maximum=MAX_SEED)
    return RandomFIFO(seed)(throughput, scale_factor, capacity, priority_weight, reading=reading)
