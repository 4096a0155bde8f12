"""Gavel's packed policies that solve no LP: FIFO with packing and Gandiva's random pairs.

* :func:`fifo_packed` (``FIFOPolicyWithPacking``: FIFO, then the waiting jobs packed with a placed
  job when the pair's normalized throughput exceeds :data:`FIFO_PACKING_THRESHOLD`);
* :class:`Gandiva`, :func:`gandiva` (``GandivaPolicy``: equal shares when the jobs fit, else random
  pairs of the same scale factor, dropped when their normalized throughput falls below 1).

The packed problem (rows of single jobs, then pairs) is :func:`hetopt.gavel.packing.packed_problem`'s.
Reference: stanford-futuredata/gavel (commit c4fa400), ``scheduler/policies/fifo.py``, ``gandiva.py``; MIT.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ArgumentError
from ..inputs import MAX_SEED, check_positive, check_size
from .packing import PackedProblem, packed_problem

__all__ = ["fifo_packed", "Gandiva", "gandiva", "FIFO_PACKING_THRESHOLD"]
#: ``FIFOPolicyWithPacking``'s threshold: pack only when the pair's normalized throughput exceeds it.
FIFO_PACKING_THRESHOLD = 1.5


def fifo_packed(throughput, scale_factor, capacity, priority_weight=None, *, pairs=None, pair_throughput=None,
                threshold: float = FIFO_PACKING_THRESHOLD) -> np.ndarray:
    """``FIFOPolicyWithPacking``: Gavel's FIFO (fastest free type, name order on ties), then packing.

    The jobs left in the queue, in order, each join the placed job (same scale factor) whose pair
    has the largest normalized throughput ``sum_i T^pair_i / T_i`` on the placed job's type, when it
    exceeds ``threshold``; the queue stops at the first job that packs with none.
    """
    if priority_weight is not None:
        raise ArgumentError("priority_weight is not used by fifo_packed; pass None")
    check_positive(threshold, "threshold", allow_zero=True)
    pp = packed_problem(throughput, scale_factor, capacity, None, pairs=pairs, pair_throughput=pair_throughput)
    T, s, c = pp.T, pp.s, pp.c
    J, R = T.shape
    free = c.astype(float).copy()
    queue = list(range(J))
    assigned: dict[Any, int] = {}
    open_types = [r for r in range(R) if free[r] > 0]
    while queue and open_types:
        j = queue[0]
        fits = [r for r in open_types if free[r] >= s[j]]
        if not fits:
            break
        queue.pop(0)
        best, best_thr = fits[0], -1.0
        for r in fits:
            if T[j, r] > best_thr:
                best, best_thr = r, T[j, r]
        if T[j, best] > 0.0:
            assigned[j] = best
            free[best] -= s[j]
            if free[best] == 0:
                open_types.remove(best)
    row_of = {p: J + k for k, p in enumerate(pp.pairs)}
    while queue:
        j = queue.pop(0)
        top, partner = threshold, None
        for k in list(assigned):
            if isinstance(k, tuple) or s[k] != s[j]:
                continue
            r = assigned[k]
            p = (min(k, j), max(k, j))
            if p not in row_of:
                continue
            pthr = pp.pair_thr[row_of[p] - J, r]
            norm = 0.0
            for pos, single in enumerate(p):
                if pthr[pos] <= 0.0:
                    continue
                norm += pthr[pos] / T[single, r]
            if norm > top:
                top, partner = norm, k
        if partner is None:
            break
        r = assigned.pop(partner)
        assigned[(min(partner, j), max(partner, j))] = r
    X = np.zeros((pp.rows, R))
    for k, r in assigned.items():
        X[row_of[k] if isinstance(k, tuple) else k, r] = 1.0
    return X


class Gandiva:
    """``GandivaPolicy``, one object per simulation (its random pairs persist between calls).

    When the jobs' GPUs fit in the cluster every job gets an equal share ``c_r / J / s_j`` (rows
    scaled to at most 1); otherwise the jobs not yet paired are paired at random (Python's
    ``random.Random(seed)``, as Gavel) among jobs of the same scale factor, pairs whose normalized
    throughput ``sum_r sum_i T^pair_ir / T_ir`` falls below 1 are dissolved, and the equal share goes
    to the pairs and the jobs left alone.
    """

    def __init__(self, seed: int | None = None):
        self.rng = random.Random()
        if seed is not None:
            self.rng.seed(seed)
        self.assigned: dict[int, tuple[Any, int | None]] = {}

    def _share(self, pp: PackedProblem, rows: list[int]) -> np.ndarray:
        R = pp.T.shape[1]
        x = np.zeros((pp.rows, R))
        m = len(rows)
        for i in rows:
            x[i] = np.array([float(cr) / m for cr in pp.c])
            x[i] = x[i] / pp.sfa[i]
        per_row = np.maximum(np.sum(x, axis=1), np.ones(pp.rows))
        return x / per_row[:, None]

    def _normalized(self, pp: PackedProblem, pair: tuple[int, int], row: int) -> float:
        total = 0.0
        for r in range(pp.T.shape[1]):
            for pos, single in enumerate(pair):
                v = float(pp.pair_thr[row - pp.T.shape[0], r, pos])
                if v <= 0.0:
                    return 0.0
                total += v / pp.T[single, r]
        return total

    def __call__(self, throughput, scale_factor, capacity, priority_weight=None, *, pairs=None, pair_throughput=None,
                 job_ids: Sequence[Any] | None = None) -> np.ndarray:
        """The allocation of the jobs and pairs given (``job_ids`` name the jobs across calls)."""
        if priority_weight is not None:
            raise ArgumentError("priority_weight is not used by gandiva; pass None")
        pp = packed_problem(throughput, scale_factor, capacity, None, pairs=pairs, pair_throughput=pair_throughput)
        J = pp.T.shape[0]
        ids = list(range(J)) if job_ids is None else [int(j) for j in job_ids]
        row = {job: i for i, job in enumerate(ids)}
        pair_row = {(ids[a], ids[b]): pp.T.shape[0] + k for k, (a, b) in enumerate(pp.pairs)}
        drop: list[Any] = []
        for job, (combo, other) in list(self.assigned.items()):
            if job not in row or (other is not None and other not in row):
                drop += [job, other]
                continue
            if isinstance(combo, tuple):
                k = pair_row.get(combo)
                if k is None or self._normalized(pp, (row[combo[0]], row[combo[1]]), k) < 1.0:
                    drop += [job, other]
        for job in drop:
            if job is not None:
                self.assigned.pop(job, None)
        if float(np.sum(pp.s)) <= float(np.sum(pp.c)):
            return self._share(pp, list(range(J)))
        todo = [job for job in ids if job not in self.assigned]
        n = len(todo)
        i = 0
        while len(todo) > 1 and i < n:
            i += 1
            a, b = self.rng.sample(todo, 2)
            if pp.s[row[a]] != pp.s[row[b]]:
                continue
            todo.remove(a)
            todo.remove(b)
            combo = (min(a, b), max(a, b))
            self.assigned[a] = (combo, b)
            self.assigned[b] = (combo, a)
        for job in todo:
            self.assigned[job] = (job, None)
        rows = sorted({pair_row[c] if isinstance(c, tuple) else row[c] for c, _ in self.assigned.values()})
        return self._share(pp, rows)


def gandiva(throughput, scale_factor, capacity, priority_weight=None, *, pairs=None, pair_throughput=None,
            seed: int | None = None) -> np.ndarray:
    """``GandivaPolicy`` on its first call (:class:`Gandiva` keeps its pairs)."""
    if seed is not None:
        check_size(seed, "seed", minimum=0, maximum=MAX_SEED)
    return Gandiva(seed)(throughput, scale_factor, capacity, priority_weight, pairs=pairs,
                         pair_throughput=pair_throughput)
