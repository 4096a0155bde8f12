"""Local search on a Hare_Sched schedule (better incumbents at scale; never a bound).

A schedule is encoded as a task order and an assignment; :func:`hetopt.hare.exact.semi_active`
turns the pair into the earliest schedule respecting (4)-(8), and its objective is the true
``sum_n w_n C_n``.  Every schedule the search returns is therefore feasible, and it is never
worse than the schedule it started from (a move is kept only when it lowers the objective).

Moves, drawn at random (``seed``):

* reassign one task to another GPU (order kept);
* move one task to another position of the order, half of the time at most :data:`NEAR`
  positions away (orders breaking (7) are skipped);
* swap the GPUs of two tasks.
"""

from __future__ import annotations

import time

import numpy as np

from .exact import semi_active
from .instance import HareInstance

__all__ = ["improve_schedule", "NEAR"]

#: Half of the moves of a task in the order go at most this many positions away.
NEAR = 6


def improve_schedule(inst: HareInstance, start: np.ndarray, gpu: np.ndarray, *, time_limit: float = 5.0,
                     max_moves: int | None = None, seed: int = 0) -> tuple[np.ndarray, np.ndarray, float, dict]:
    """Improve a feasible schedule by random first-improvement moves (module docstring).

    Parameters
    ----------
    inst : HareInstance
    start, gpu : numpy.ndarray, shape (|D|,)
        A feasible schedule (its start order, with rounds kept in order, seeds the search).
    time_limit : float
        Seconds of search.
    max_moves : int, optional
        Most moves evaluated (deterministic runs: set this and a large ``time_limit``).
    seed : int
        Random seed of the moves.

    Returns
    -------
    (start, gpu, objective, info)
        The best semi-active schedule found (never worse than the input's semi-active
        re-timing) and ``info`` with the moves tried and accepted.

    Raises
    ------
    ValueError
        When ``time_limit`` is negative or ``start``/``gpu`` do not have one entry per task.
    """
    d = inst.n_tasks
    start = np.asarray(start, dtype=float)
    gpu = np.asarray(gpu, dtype=int).copy()
    if start.shape != (d,) or gpu.shape != (d,):
        raise ValueError(f"start and gpu must have shape ({d},); got {start.shape} and {gpu.shape}")
    if not time_limit >= 0:
        raise ValueError(f"time_limit must be >= 0; got {time_limit!r}")
    if np.any(gpu < 0) or np.any(gpu >= inst.n_gpus):
        raise ValueError(f"gpu entries must lie in [0, {inst.n_gpus}); got {gpu.tolist()}")
    order = list(np.lexsort((np.arange(d), inst.task_round, start)))
    out = semi_active(inst, tuple(order), gpu)
    if out is None:  # pragma: no cover - lexsort by (start, round) keeps (7)
        raise ValueError("start does not keep the rounds of a job in order")
    best_start, best = out
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    tried = accepted = 0
    M = inst.n_gpus
    while time.perf_counter() - t0 < time_limit and (max_moves is None or tried < max_moves):
        tried += 1
        kind = rng.integers(3)
        new_order, new_gpu = order, gpu
        if kind == 0 and M > 1:
            i = int(rng.integers(d))
            new_gpu = gpu.copy()
            new_gpu[i] = (gpu[i] + 1 + int(rng.integers(M - 1))) % M
        elif kind == 1:
            a = int(rng.integers(d))
            b = int(rng.integers(d)) if rng.random() < 0.5 else min(max(a + int(rng.integers(-NEAR, NEAR + 1)), 0), d - 1)
            if a == b:
                continue
            new_order = order.copy()
            new_order.insert(b, new_order.pop(a))
        else:
            i, j = (int(v) for v in rng.integers(d, size=2))
            if gpu[i] == gpu[j]:
                continue
            new_gpu = gpu.copy()
            new_gpu[i], new_gpu[j] = gpu[j], gpu[i]
        out = semi_active(inst, tuple(new_order), new_gpu)
        if out is not None and out[1] < best - 1e-12 * max(1.0, abs(best)):
            order, gpu, (best_start, best) = new_order, new_gpu, out
            accepted += 1
    return best_start, gpu, float(best), {"moves_tried": tried, "moves_accepted": accepted,
                                          "seconds": time.perf_counter() - t0}
