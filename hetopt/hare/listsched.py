"""List scheduling: the schedule builders shared by Algorithm 1, the exact engines and the bounds.

Two builders turn a decision into start times, both semi-active (every task starts as early as
(4), (7) and its GPU allow):

* :func:`list_schedule`: lines 4-17 of Algorithm 1 for a given priority and GPU rule (the GPU is
  chosen as each task is placed);
* :func:`semi_active`: a fixed task order and a fixed GPU of every task (the re-timing of a
  solver's decision, the brute force, the local search).

They sit below every method of :mod:`hetopt.hare` (Algorithm 1 in :mod:`hetopt.hare.algorithm1`,
the engines of :mod:`hetopt.hare.exact`), so that those import them in one direction.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from itertools import repeat
from operator import add
from typing import Any

import numpy as np

from ..errors import ArgumentError
from ..inputs import check_array, numeric_array
from .instance import HareInstance

__all__ = ["list_schedule", "semi_active", "start_order", "GPU_RULES"]

#: GPU choice of line 12: as printed; "earliest start, fastest among ties" (the reading that the
#: proof of Theorem 4, step (21), uses); or the heterogeneity-aware variant (not the paper's).
GPU_RULES = ("earliest_available", "earliest_start_fastest", "earliest_finish")

#: A user's GPU rule: ``gpu_rule(inst, i, t_i, phi) -> m``.
GpuRule = Callable[[HareInstance, int, float, np.ndarray], Any]


def _pick_user(inst: HareInstance, rule: GpuRule, i: int, t_i: float, phi_arr: np.ndarray) -> tuple[int, float]:
    """GPU and start of task ``i`` chosen by a user's rule (checked to be a GPU index)."""
    m = rule(inst, int(i), float(t_i), phi_arr.copy())
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or not 0 <= m < inst.n_gpus:
        raise ArgumentError(f"gpu_rule returned {m!r} for task {inst.task_label(i)}; expected a GPU index "
                            f"in [0, {inst.n_gpus - 1}]")
    return int(m), max(t_i, phi_arr[int(m)])


def list_schedule(inst: HareInstance, priority: np.ndarray, gpu_rule: str | GpuRule = "earliest_available",
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Lines 4-17 of Algorithm 1 for a given priority ``H`` (smaller first).

    Ties are broken by task index (a stable sort), ties of ``phi_m`` by GPU index.

    Parameters
    ----------
    inst : HareInstance
        The instance.
    priority : numpy.ndarray, shape (|D|,)
        One number per task, smaller first.
    gpu_rule : {"earliest_available", "earliest_start_fastest", "earliest_finish"} or callable
        A callable is a user's own GPU choice (the plug-in protocol of the card):
        ``gpu_rule(inst, i, t_i, phi) -> m`` with ``t_i`` the task's available time and ``phi``
        a copy of the GPUs' available times (compute ends, line 16); the task starts at
        ``max(t_i, phi[m])``.  ``"earliest_available"`` is line 12 as printed, ``m* = argmin_m phi_m``, which
        ignores the GPU's speed.  ``"earliest_start_fastest"`` reads line 12 as the proof of
        Theorem 4 uses it ("schedules tasks on machines with the earliest start time", (21)):
        ``m*`` minimizes the start ``max(t_i, phi_m)``, and among GPUs with the same start the
        one with the smallest ``T^c_{i,m}`` is taken (GPUs idle before ``t_i`` all tie).
        ``"earliest_finish"`` is a variant that is *not* the paper's:
        ``m* = argmin_m max(t_i, phi_m) + T^c_{i,m}`` (heterogeneity-aware).

    Returns
    -------
    start, gpu : numpy.ndarray
        ``x-tilde`` and the GPU of every task.

    Raises
    ------
    ArgumentError
        If ``priority`` is not one finite number per task, if ``gpu_rule`` is unknown or returns
        no GPU index, or if the order puts a task before a task of its job's previous round
        (line 10 would read start times that are not yet decided).  Orders from (7)-feasible
        ``x-hat`` never do, since then ``H`` strictly increases from round to round.
    """
    if not isinstance(inst, HareInstance):
        raise ArgumentError(f"inst is {inst!r:.60}; expected a HareInstance")
    priority = numeric_array("priority", priority)
    if priority.shape != (inst.n_tasks,) or not np.all(np.isfinite(priority)):
        raise ArgumentError(f"priority must be {inst.n_tasks} finite numbers")
    user_rule = callable(gpu_rule)
    if not user_rule and gpu_rule not in GPU_RULES:
        raise ArgumentError(f"gpu_rule is {gpu_rule!r}; expected one of {GPU_RULES} or a callable")
    pi = np.argsort(priority, kind="stable").tolist()
    L = inst.task_lists  # Python lists: the same doubles and IEEE operations as numpy's, a faster loop
    start = np.zeros(inst.n_tasks)
    gpu = np.zeros(inst.n_tasks, dtype=int)
    aware = gpu_rule != "earliest_available"
    phi = [(0.0, g) for g in range(inst.n_gpus)]  # line 2: phi_m = 0, a heap (phi_m, m)
    phi_arr = [0.0] * inst.n_gpus
    round_end: dict[tuple[int, int], float] = {}
    scheduled: dict[tuple[int, int], int] = {}
    for i in pi:  # line 5
        n, r = L.job[i], L.round[i]  # line 6
        tc = L.compute[n]
        if r == 0:
            t_i = float(L.arrival[n])  # line 8
        else:
            if scheduled.get((n, r - 1), 0) < L.per_round[n]:
                raise ArgumentError(f"priority puts task {inst.task_label(i)} before all of round {r - 1} of its job")
            t_i = round_end[(n, r - 1)]  # line 10
        if callable(gpu_rule):
            m, x = _pick_user(inst, gpu_rule, i, t_i, np.array(phi_arr))
        elif gpu_rule == "earliest_finish":  # the first GPU of the least max(t_i, phi_m) + T^c
            ends = list(map(add, map(max, phi_arr, repeat(t_i)), tc))
            m = ends.index(min(ends))
            x = max(t_i, phi_arr[m])
        elif aware:  # earliest start, fastest among ties, then lowest index
            starts = list(map(max, phi_arr, repeat(t_i)))
            first = min(starts)
            m = min((g for g, s in enumerate(starts) if s == first), key=tc.__getitem__)
            x = max(phi_arr[m], t_i)
        else:
            phi_m, m = heapq.heappop(phi)  # line 12: m* = argmin phi_m
            x = max(t_i, phi_m)  # line 13
        start[i], gpu[i] = x, m  # line 14
        end_c = x + tc[m]  # line 15
        if aware:
            phi_arr[m] = end_c
        else:
            heapq.heappush(phi, (end_c, m))  # line 16: phi_{m*} = x + T^c
        round_end[(n, r)] = max(round_end.get((n, r), -np.inf), end_c + L.sync[n][m])
        scheduled[(n, r)] = scheduled.get((n, r), 0) + 1
    return start, gpu


def semi_active(inst: HareInstance, order: tuple[int, ...], gpu: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Semi-active schedule of a task order with a fixed assignment; None if the order breaks (7).

    Each task, in ``order``, starts at the later of its availability (arrival or previous
    round's synchronization end) and its GPU's compute end.

    Parameters
    ----------
    inst : HareInstance
        The instance.
    order : tuple of int
        Every task once, in the order of their starts.
    gpu : numpy.ndarray of int, shape (|D|,)
        The GPU of every task.

    Returns
    -------
    (start, objective) or None
        The start times and ``sum_n w_n C_n``; None when a task comes before all of its job's
        previous round.

    Raises
    ------
    ArgumentError
        ``order`` is not a permutation of the tasks, or ``gpu`` not one GPU index per task.
    """
    if not isinstance(inst, HareInstance):
        raise ArgumentError(f"inst is {inst!r:.60}; expected a HareInstance")
    o = check_array(order, "order", (inst.n_tasks,), integer=True)
    if not np.array_equal(np.sort(o), np.arange(inst.n_tasks)):
        raise ArgumentError(f"order is not a permutation of the {inst.n_tasks} tasks")
    g = check_array(gpu, "gpu", (inst.n_tasks,), integer=True, minimum=0)
    if (g >= inst.n_gpus).any():
        raise ArgumentError(f"gpu has an index >= {inst.n_gpus} (the instance's GPUs)")
    return _semi_active(inst, tuple(int(i) for i in o), g)


def _semi_active(inst: HareInstance, order: tuple[int, ...], gpu: np.ndarray) -> tuple[np.ndarray, float] | None:
    """:func:`semi_active` on checked arguments (the local searches' inner loop), over the instance's lists."""
    L = inst.task_lists
    g = gpu.tolist()
    free = [0.0] * inst.n_gpus
    start = np.empty(inst.n_tasks)
    round_end: dict[tuple[int, int], float] = {}
    done_in_round: dict[tuple[int, int], int] = {}
    for i in order:
        n, r = L.job[i], L.round[i]
        if r > 0 and done_in_round.get((n, r - 1), 0) < L.per_round[n]:
            return None
        ready = L.arrival[n] if r == 0 else round_end[(n, r - 1)]
        m = g[i]
        s = max(ready, free[m])
        start[i] = s
        free[m] = end = s + L.compute[n][m]
        round_end[(n, r)] = max(round_end.get((n, r), -np.inf), end + L.sync[n][m])
        done_in_round[(n, r)] = done_in_round.get((n, r), 0) + 1
    comp = np.array([round_end[(n, int(inst.rounds[n]) - 1)] for n in range(inst.n_jobs)])
    return start, float(inst.weight @ comp)


def start_order(inst: HareInstance, raw_start: np.ndarray) -> tuple[int, ...]:
    """The order of a solver's starts that keeps the rounds of every job in order.

    A solver's starts satisfy (7) only up to its feasibility tolerance, so a task of round
    ``r + 1`` may come out a hair before one of round ``r``.  Each task's key is the largest raw
    start among its own and every task of its job's earlier rounds; tasks sort by (key, round,
    index), which orders the rounds of a job whatever the noise and is the order of the starts
    when they satisfy (7).

    Parameters
    ----------
    inst : HareInstance
        The instance.
    raw_start : numpy.ndarray, shape (|D|,)
        The solver's start times.

    Returns
    -------
    tuple of int
        Every task once, for :func:`semi_active`.
    """
    raw = np.asarray(raw_start, dtype=float)
    key = raw.copy()
    for n in range(inst.n_jobs):
        before = -np.inf
        for r in range(int(inst.rounds[n])):
            idx = np.asarray(inst.round_tasks(n, r))
            key[idx] = np.maximum(raw[idx], before)
            before = max(before, float(raw[idx].max()))
    return tuple(int(i) for i in np.lexsort((np.arange(inst.n_tasks), inst.task_round, key)))
