"""Local search on a Hare_Sched schedule (better incumbents at scale; never a bound).

A schedule is encoded as a task order and an assignment; :func:`hetopt.hare.listsched.semi_active`
turns the pair into the earliest schedule respecting (4)-(8), and its objective is the true
``sum_n w_n C_n``.  Every schedule the search returns is therefore feasible, and it is never
worse than the schedule it started from (a move is kept only when it lowers the objective).

Moves, drawn at random (``seed``):

* reassign one task to another GPU (order kept);
* move one task to another position of the order, half of the time at most :data:`NEAR`
  positions away (orders breaking (7) are skipped);
* swap the GPUs of two tasks.

After ``STALL x |D|`` moves without improvement the search restarts from the best schedule
perturbed by ``KICK`` random feasible moves (iterated local search); the best is returned.
"""

from __future__ import annotations

import time

import numpy as np

from ...errors import ArgumentError
from ...inputs import check_size, check_time_limit, numeric_array, rng_from, takes_instance
from ..instance import HareInstance
from ..listsched import _semi_active

__all__ = ["KICK", "NEAR", "STALL", "improve_schedule"]

#: Moves without improvement (times |D|) before a perturbation.
STALL = 30
#: Random moves per perturbation.
KICK = 3
#: Most random moves of one kick (each is one semi-active schedule).
MAX_KICK = 10**6
#: Half of the moves of a task in the order go at most this many positions away.
NEAR = 6


@takes_instance(HareInstance)
def improve_schedule(inst: HareInstance, start: np.ndarray, gpu: np.ndarray, *, time_limit: float | None = 5.0,
                     max_moves: int | None = None, stall: int | None = STALL, kick: int = KICK,
                     seed: int | np.random.Generator | None = 0) -> tuple[np.ndarray, np.ndarray, float, dict]:
    """Improve a feasible schedule by random first-improvement moves (module docstring).

    Parameters
    ----------
    inst : HareInstance
    start, gpu : numpy.ndarray, shape (|D|,)
        A feasible schedule (its start order, with rounds kept in order, seeds the search).
    time_limit : float, optional
        Seconds of search (None: no limit; then ``max_moves`` is required).
    max_moves : int, optional
        Most moves evaluated (deterministic runs: set this and ``time_limit=None``).
    stall : int, optional
        After ``stall x |D|`` moves without improving the current schedule, restart from the
        best one perturbed by ``kick`` random feasible moves (iterated local search); None: never.
    kick : int
        Random moves of a perturbation.
    seed : int, numpy.random.Generator or None
        Random seed of the moves.

    Returns
    -------
    (start, gpu, objective, info)
        The best semi-active schedule found (never worse than the input's semi-active
        re-timing) and ``info`` with the moves tried and accepted.

    Raises
    ------
    ArgumentError
        A bad ``time_limit``, ``max_moves``, ``stall``, ``kick`` or ``seed``, neither a time limit nor
        ``max_moves``, or ``start``/``gpu`` without one finite start and one GPU index per task.
    """
    d = inst.n_tasks
    time_limit = check_time_limit(time_limit)
    if max_moves is not None:
        check_size(max_moves, "max_moves")
    elif time_limit is None:
        raise ArgumentError("time_limit and max_moves are both None; the search would never stop: pass one")
    if stall is not None:
        check_size(stall, "stall")
    check_size(kick, "kick", minimum=0, maximum=MAX_KICK)
    rng = rng_from(seed)
    start = numeric_array("start", start)
    raw_gpu = np.asarray(numeric_array("gpu", gpu))
    if raw_gpu.dtype.kind == "f" and np.all(raw_gpu == np.round(raw_gpu)):
        raw_gpu = raw_gpu.astype(int)
    if start.shape != (d,) or raw_gpu.shape != (d,):
        raise ArgumentError(f"start and gpu must have shape ({d},); got {start.shape} and {raw_gpu.shape}")
    if not np.all(np.isfinite(start)):
        raise ArgumentError("start holds a non-finite time; expected one finite start per task")
    if raw_gpu.dtype.kind not in "iu" or np.any(raw_gpu < 0) or np.any(raw_gpu >= inst.n_gpus):
        raise ArgumentError(f"gpu entries must be integers in [0, {inst.n_gpus}); got {raw_gpu.tolist()}")
    gpu = raw_gpu.astype(int).copy()
    order = list(np.lexsort((np.arange(d), inst.task_round, start)))
    out = _semi_active(inst, tuple(order), gpu)
    if out is None:  # pragma: no cover - lexsort by (start, round) keeps (7)
        raise ArgumentError("start does not keep the rounds of a job in order")
    best_start, best = out
    cur, best_order, best_gpu = best, order, gpu
    t0 = time.perf_counter()
    tried = accepted = kicks = since = 0
    M = inst.n_gpus
    while ((time_limit is None or time.perf_counter() - t0 < time_limit)
           and (max_moves is None or tried < max_moves)):
        tried += 1
        if stall is not None and since > stall * d:  # iterated local search: perturb the best schedule
            order, gpu, cur, since, done = best_order, best_gpu, best, 0, 0
            kicks += 1
            for _ in range(50 * kick):
                if done == kick:
                    break
                mv = _move(rng, order, gpu, d, M)
                if mv is not None and (out := _semi_active(inst, tuple(mv[0]), mv[1])) is not None:
                    order, gpu, cur, done = mv[0], mv[1], out[1], done + 1
            continue
        since += 1
        mv = _move(rng, order, gpu, d, M)
        if mv is None:
            continue
        out = _semi_active(inst, tuple(mv[0]), mv[1])
        if out is not None and out[1] < cur - 1e-12 * abs(cur):  # relative at every magnitude (issue 31)
            (order, gpu), cur, since = mv, out[1], 0
            accepted += 1
            if cur < best:
                best_order, best_gpu, (best_start, best) = order, gpu, out
    return best_start, best_gpu, float(best), {"moves_tried": tried, "moves_accepted": accepted, "kicks": kicks,
                                               "seconds": time.perf_counter() - t0}


def _move(rng, order: list, gpu: np.ndarray, d: int, M: int):
    """One random move (module docstring): ``(order, gpu)`` new objects, or None (no-op draw)."""
    kind = rng.integers(3)
    if kind == 0 and M > 1:
        i = int(rng.integers(d))
        new_gpu = gpu.copy()
        new_gpu[i] = (gpu[i] + 1 + int(rng.integers(M - 1))) % M
        return order, new_gpu
    if kind == 1 or M == 1:
        a = int(rng.integers(d))
        b = int(rng.integers(d)) if rng.random() < 0.5 else min(max(a + int(rng.integers(-NEAR, NEAR + 1)), 0), d - 1)
        if a == b:
            return None
        new_order = order.copy()
        new_order.insert(b, new_order.pop(a))
        return new_order, gpu
    i, j = (int(v) for v in rng.integers(d, size=2))
    if gpu[i] == gpu[j]:
        return None
    new_gpu = gpu.copy()
    new_gpu[i], new_gpu[j] = gpu[j], gpu[i]
    return order, new_gpu
