"""Local search for contention-aware schedules (eq. (5), fluid reading), evaluated by the fluid model.

A schedule is given by the order of its tasks (a dict of start times, as in
:func:`hetopt.contention.cpsat.retime`) and a set of *shared* all-reduces, which start as soon as
their backward passes end even if another all-reduce runs on one of their servers; the others
wait for their servers' networks to be free (exclusive, as in the contention-free problem).
The schedule is re-timed semi-actively; the all-reduces' durations are then recomputed by the
fluid model (:func:`hetopt.contention.comm.fluid_completion_times`) from their starts and the
re-timing is repeated until the durations are stable (a fixed point).  Only schedules that pass
:func:`hetopt.contention.checker.check_schedule` are kept, so every value returned is the total
JCT of a checked fluid schedule (an upper bound of the contention-aware optimum, never called
optimal here).

The search toggles one all-reduce between exclusive and shared at a time, and swaps two
consecutive compute tasks of different jobs on one GPU; it keeps a move that lowers the total JCT
(first improvement, repeated until no move improves or the time is up).
"""

from __future__ import annotations

import itertools
import time

import numpy as np

from .comm import fluid_completion_times
from .cpsat import _PHASE, cpsat_tasks, semi_active_pass
from .instance import ContentionInstance
from .solution import ContentionSolution, TaskRecord, schedule_solution

__all__ = ["fluid_retime", "improve_schedule"]

#: Fixed-point rounds of the re-timing before a candidate is dropped.
MAX_ROUNDS = 30
#: Relative tolerance of an improvement and of the re-timing's fixed point (relative at every magnitude: an absolute
#: floor below 1 s, before issue 31, ignored every improvement of a schedule in nanoseconds).
IMPROVE_RTOL = 1e-9


def fluid_retime(inst: ContentionInstance, placement, starts: dict, shared=frozenset(), *,
                 tasks=None, deadline: float | None = None) -> ContentionSolution | None:
    """Fluid schedule keeping the order of ``starts``, with the all-reduces of ``shared`` not waiting.

    Parameters
    ----------
    inst : ContentionInstance
    placement : sequence of GPU lists
    starts : dict
        Start (any number giving the order) of every task key of
        :func:`hetopt.contention.cpsat.cpsat_tasks`.
    shared : set of task keys
        All-reduces that may overlap others on their servers.
    tasks : list, optional
        ``cpsat_tasks(inst, placement)[0]`` (computed when omitted).
    deadline : float, optional
        A ``time.perf_counter()`` time: no round is started after it (then None).  One candidate of
        a 40-job instance took 0.9 s of rounds on a local search's 0.05 s share before (issue 31).

    Returns
    -------
    ContentionSolution or None
        The re-timed schedule (status FEASIBLE, not checked here), or None when the fluid
        durations did not reach a fixed point within ``MAX_ROUNDS`` rounds or before ``deadline``.
    """
    from ..certify import Status

    if tasks is None:
        tasks = cpsat_tasks(inst, placement)[0]
    shared = frozenset(shared)
    comms = [t for t in tasks if t.kind == "c"]
    dur = {t.key: t.duration for t in comms}
    for _ in range(MAX_ROUNDS):
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        out, end, _ = semi_active_pass(inst, placement, tasks, starts, durations=dur, shared=shared)
        if not comms:
            break
        ends = fluid_completion_times([inst.model_size[t.job] for t in comms], [out[t.key] for t in comms],
                                      [t.where for t in comms], inst.a, inst.b, inst.eta)
        new = {t.key: float(e - out[t.key]) for t, e in zip(comms, ends, strict=True)}
        if all(abs(new[key] - dur[key]) <= IMPROVE_RTOL * abs(end[key]) for key in dur):
            break
        dur = new
    else:
        return None
    trace = [TaskRecord(t.kind, t.job, t.iteration, t.where, out[t.key], end[t.key]) for t in tasks]
    finish = np.zeros(inst.n_jobs)
    for t in tasks:
        finish[t.job] = max(finish[t.job], end[t.key])
    return schedule_solution(inst, placement, trace, finish, status=Status.FEASIBLE, solver="fluid-search",
                             message="local search over shared all-reduces, fluid re-timing")


def _adjacent_pairs(tasks, starts: dict) -> list[tuple]:
    """Consecutive compute tasks of different jobs on one GPU (candidates for a swap)."""
    per_gpu: dict = {}
    for t in tasks:
        if t.kind != "c":
            per_gpu.setdefault(t.where, []).append(t)
    pairs = []
    for ts in per_gpu.values():
        ts.sort(key=lambda t: (starts[t.key], t.job, t.iteration, _PHASE[t.kind]))
        pairs += [(x.key, y.key) for x, y in itertools.pairwise(ts) if x.job != y.job]
    return pairs


def improve_schedule(inst: ContentionInstance, placement, start: ContentionSolution, *,
                     time_limit: float | None = None, max_passes: int = 20) -> ContentionSolution:
    """Best checked fluid schedule found by toggling all-reduces between exclusive and shared.

    Parameters
    ----------
    inst : ContentionInstance
    placement : sequence of GPU lists
    start : ContentionSolution
        A recorded schedule on ``placement`` (its task order seeds the search).
    time_limit : float, optional
        Seconds for the search.
    max_passes : int
        Passes over all all-reduces.

    Returns
    -------
    ContentionSolution
        ``start`` itself when nothing better passed :func:`check_schedule`, else the best
        checked schedule found (FEASIBLE, ``solver="fluid-search"``).
    """
    from .checker import check_schedule

    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    tasks = cpsat_tasks(inst, placement)[0]
    starts = {(r.kind, r.job, r.iteration) if r.kind == "c" else (r.kind, r.job, r.iteration, r.where): r.start
              for r in start.trace}
    comm_keys = sorted((t.key for t in tasks if t.kind == "c"), key=lambda key: starts[key])
    # an all-reduce that overlapped another in ``start`` is shared from the outset
    recs = sorted((r for r in start.trace if r.kind == "c"), key=lambda r: r.start)
    shared = {(r.kind, r.job, r.iteration) for r in recs
              if any(q is not r and q.start < r.end and r.start < q.end and set(q.where) & set(r.where) for q in recs)}
    best, best_obj = start, start.objective
    for _ in range(max_passes):
        improved = False
        for key in comm_keys:
            if time_limit is not None and time.perf_counter() - t0 > time_limit:
                return best
            cand_shared = shared ^ {key}
            cand = fluid_retime(inst, placement, starts, cand_shared, tasks=tasks, deadline=deadline)
            if cand is None or cand.objective >= best_obj - IMPROVE_RTOL * abs(best_obj):
                continue
            rep = check_schedule(inst, cand)
            if rep.ok and rep.objective is not None and rep.objective < best_obj - IMPROVE_RTOL * abs(best_obj):
                best, best_obj, shared, improved = cand, rep.objective, cand_shared, True
        for x, y in _adjacent_pairs(tasks, starts):
            if time_limit is not None and time.perf_counter() - t0 > time_limit:
                return best
            cand_starts = dict(starts)
            cand_starts[x], cand_starts[y] = starts[y], starts[x]
            try:
                cand = fluid_retime(inst, placement, cand_starts, shared, tasks=tasks, deadline=deadline)
            except KeyError:  # the swap broke the order of a job's own tasks
                continue
            if cand is None or cand.objective >= best_obj - IMPROVE_RTOL * abs(best_obj):
                continue
            rep = check_schedule(inst, cand)
            if rep.ok and rep.objective is not None and rep.objective < best_obj - IMPROVE_RTOL * abs(best_obj):
                best, best_obj, starts, improved = cand, rep.objective, cand_starts, True
        if not improved:
            break
    return best
