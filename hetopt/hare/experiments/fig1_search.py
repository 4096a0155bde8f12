"""Search of the Fig. 1 time tables consistent with the five numbers the text prints.

Fig. 1 of Hare gives its table of single-batch training times only as an image; the text
prints five numbers: schedule (a) total JCT 10.5 s and makespan 4.5 s, (b) total 9 s, (c)
total 8.5 s and makespan 3 s.  This module searches *every* table of task times that are
multiples of 0.5 s in a small range (``0.5 .. vmax`` s, ``vmax`` = 5 s by default) for the job
structures the text allows, and reports those that give all five numbers.

Units are half-seconds (integers).  The schedules, as the text describes them:

(a) heterogeneity-oblivious [47]: J2 alone on GPU1 (its tasks in sequence), J3 on GPU2 and
    GPU3 (one task of each round on each), and J1 "when both jobs complete" on two GPUs in
    parallel (any pair: the text does not name it);
(b) AlloX: each job on a dedicated GPU, its tasks in sequence (any assignment of jobs to
    GPUs; with ``allox_best`` the assignment must also be the best one, as AlloX's matching);
(c) some feasible schedule with total JCT 8.5 s and makespan 3 s; on the 0.5 s grid its
    completion times are 2.5, 3 and 3 s in some order.  Whether such a schedule exists is
    decided exactly by a time-indexed depth-first search (:func:`feasible_c`).

Job structures: J1 one round of ``k1`` = 2 tasks ("runs on two GPUs in parallel"), J2 one
round of ``k2`` tasks ("takes the whole GPU1"), J3 ``r3`` rounds of 2 tasks ("synchronizes
for every two tasks"); communication is ignored (the text says so).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

__all__ = ["STRUCTURES", "Fig1Search", "search", "feasible_c", "table_instance"]

#: (k1, k2, r3): tasks of J1, tasks of J2, rounds of J3 (2 tasks each).
STRUCTURES = ((2, 1, 2), (2, 2, 2), (2, 1, 3), (2, 2, 3), (2, 1, 1), (2, 2, 1))


def _rows(vmax: int) -> np.ndarray:
    vals = np.arange(1, vmax + 1)
    return np.array(list(itertools.product(vals, repeat=3)), dtype=np.int64)


def _ab_candidates(k1: int, k2: int, r3: int, vmax: int, *, totals=(21, 9, 18), allox_best: bool = False):
    """Tables (3x3 int arrays, half-seconds) for which (a) gives total/makespan and (b) the total."""
    tot_a, mk_a, tot_b = totals
    rows = _rows(vmax)
    # (a): C2 = k2 p21, C3 = r3 max(p32, p33); C1 = max(C2, C3) + max(p1 pair); makespan C1
    c2 = k2 * rows[:, 0]                       # row of J2
    c3 = r3 * np.maximum(rows[:, 1], rows[:, 2])  # row of J3
    pairs = [(0, 1), (0, 2), (1, 2)]
    out = []
    i2, i3 = np.nonzero(c2[:, None] + c3[None, :] == tot_a - mk_a)
    for a2, a3 in zip(i2, i3, strict=True):
        s = max(c2[a2], c3[a3])
        need = mk_a - s
        if need <= 0:
            continue
        ok1 = np.zeros(len(rows), dtype=bool)
        for g, h in pairs:
            ok1 |= np.maximum(rows[:, g], rows[:, h]) == need
        for a1 in np.flatnonzero(ok1):
            out.append((a1, a2, a3))
    if not out:
        return []
    idx = np.array(out)
    T = np.stack([rows[idx[:, 0]], rows[idx[:, 1]], rows[idx[:, 2]]], axis=1)  # (n, 3 jobs, 3 GPUs)
    tasks = np.array([k1, k2, 2 * r3])
    perms = list(itertools.permutations(range(3)))
    sums = np.stack([sum(tasks[n] * T[:, n, p[n]] for n in range(3)) for p in perms], axis=1)
    keep = (sums.min(axis=1) == tot_b) if allox_best else (sums == tot_b).any(axis=1)
    return T[keep]


def _alone(T: np.ndarray, k1: int, k2: int, r3: int) -> np.ndarray:
    """Per table, each job's least completion time alone on the idle cluster (half-seconds), shape (n, 3)."""
    def one_round(row: np.ndarray, k: int) -> np.ndarray:
        srt = np.sort(row, axis=1)
        if k == 1:
            return srt[:, 0]
        if k == 2:  # two GPUs in parallel, or both tasks on the fastest
            return np.minimum(srt[:, 1], 2 * srt[:, 0])
        raise ValueError(f"k is {k}; this search handles rounds of 1 or 2 tasks")
    return np.stack([one_round(T[:, 0], k1), one_round(T[:, 1], k2), r3 * one_round(T[:, 2], 2)], axis=1)


def _prune(T: np.ndarray, st, tot: int, mk: int) -> np.ndarray:
    """Keep tables that can still have (c).

    Completions (sorted) at least each job's time alone, and no
    simple schedule (the jobs alone, one after the other, shortest first) below (c)'s total.
    """
    if len(T) == 0:
        return T
    alone = np.sort(_alone(T, *st), axis=1)
    vecs = sorted({tuple(sorted(v)) for v in itertools.product(range(1, mk + 1), repeat=3) if sum(v) == tot and max(v) == mk})
    fits = np.zeros(len(T), dtype=bool)
    for v in vecs:
        fits |= (alone <= np.array(v)).all(axis=1)
    sequential = 3 * alone[:, 0] + 2 * alone[:, 1] + alone[:, 2]  # an upper bound of the optimum
    return T[fits & (sequential >= tot)]


def feasible_c(T: np.ndarray, k1: int, k2: int, r3: int, deadlines: tuple[int, ...]):
    """A schedule whose jobs complete exactly at ``deadlines`` (half-seconds), or None: exact depth-first search.

    Returns a list of (job, round, gpu, start) per task, or None when none exists.
    """
    horizon = max(deadlines)
    tasks = [(0, 0)] * k1 + [(1, 0)] * k2 + [(2, r) for r in range(r3) for _ in range(2)]
    busy = [0, 0, 0]  # bitmasks of occupied half-second slots per GPU
    plan: list[tuple[int, int, int, int]] = []
    round_end: dict[tuple[int, int], int] = {}

    def rec(k: int) -> bool:
        if k == len(tasks):  # exact completion times: the last round of each job ends at its deadline
            last = {0: 0, 1: 0, 2: r3 - 1}
            return all(round_end[(n, last[n])] == deadlines[n] for n in range(3))
        n, r = tasks[k]
        release = round_end.get((n, r - 1), 0) if r > 0 else 0
        prev = plan[-1] if plan and (plan[-1][0], plan[-1][1]) == (n, r) else None  # symmetry: same-round tasks ordered
        for g in range(3):
            p = int(T[n, g])
            for t in range(release, deadlines[n] - p + 1):
                if prev is not None and (g, t) < (prev[2], prev[3]):
                    continue
                mask = ((1 << p) - 1) << t
                if busy[g] & mask or t + p > horizon:
                    continue
                busy[g] |= mask
                plan.append((n, r, g, t))
                old = round_end.get((n, r))
                round_end[(n, r)] = max(old or 0, t + p)
                if rec(k + 1):
                    return True
                plan.pop()
                busy[g] &= ~mask
                if old is None:
                    del round_end[(n, r)]
                else:
                    round_end[(n, r)] = old
        return False

    return list(plan) if rec(0) else None


def table_instance(T: np.ndarray, k1: int, k2: int, r3: int):
    """The HareInstance of a table (half-seconds -> seconds) and a structure."""
    from .. import HareInstance

    return HareInstance.from_dict({"kind": "hare", "schema_version": 1, "arrival": [0.0] * 3, "weight": [1.0] * 3,
                                   "rounds": [1, 1, r3],
                                   "tasks_per_round": [k1, k2, 2],
                                   "compute_time": (np.asarray(T, dtype=float) / 2).tolist(),
                                   "sync_time": np.zeros((3, 3)).tolist(), "gpu_names": ["GPU1", "GPU2", "GPU3"],
                                   "job_names": ["J1", "J2", "J3"]})


@dataclass(frozen=True)
class Fig1Search:
    """Result of :func:`search`: tables searched per structure, those meeting (a)+(b), and those meeting all five."""

    vmax_seconds: float
    c_total: float
    c_makespan: float
    candidates_ab: dict
    matches: list  # (structure, table in seconds, plan)

    @property
    def n_ab(self) -> int:
        """Tables meeting (a), (b) and the bounds, over every structure searched."""
        return sum(self.candidates_ab.values())


def search(*, vmax_seconds: float = 5.0, c_total: float = 8.5, c_makespan: float = 3.0, allox_best: bool = False,
           structures: tuple[tuple[int, int, int], ...] = STRUCTURES, stop_at_first: bool = False, require_optimal: bool = True) -> Fig1Search:
    """Every table of 0.5 s multiples in [0.5, vmax] for each structure: which give all five numbers.

    ``c_total`` and ``c_makespan`` are (c)'s numbers (the text's by default); the flip of the
    claim changes one of them.  With ``require_optimal`` (the default) a table counts only when
    (c)'s total is also the certified optimum of the table (hetopt's exact solver), as the
    text's "better scheduling result" is Hare's.
    """
    from .. import solve_exact
    vmax = int(round(2 * vmax_seconds))
    tot, mk = int(round(2 * c_total)), int(round(2 * c_makespan))
    # completion-time vectors of (c) on the grid: sum tot, max mk
    vecs = sorted({v for v in itertools.product(range(1, mk + 1), repeat=3) if sum(v) == tot and max(v) == mk})
    cand: dict = {}
    matches = []
    for st in structures:
        tabs = _ab_candidates(*st, vmax, allox_best=allox_best)
        if require_optimal:
            tabs = _prune(tabs, st, tot, mk)
        cand[st] = len(tabs)
        for T in tabs:
            for d in vecs:
                plan = feasible_c(T, *st, d)
                if plan is not None:
                    if require_optimal:
                        opt = solve_exact(table_instance(T, *st))
                        if opt.status.value != "optimal" or abs(opt.objective - c_total) > 1e-9:
                            break
                    matches.append((st, (T / 2).tolist(), plan, d))
                    break
            if stop_at_first and matches:
                break
    return Fig1Search(vmax_seconds, c_total, c_makespan, cand, matches)
