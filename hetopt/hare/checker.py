"""An independent feasibility checker for Hare_Sched, constraints (4)-(8).

It reads only the instance and the decision (start time and GPU of every task) and
recomputes completion times and the objective with plain loops, sharing no code with the
models or the schedulers, so that every method of :mod:`hetopt.hare` is tested against it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ArgumentError, ScheduleViolation, a_type
from ..inputs import check_tol, takes_instance
from ..result import CheckReport
from ..validate import FEAS_TOL
from .instance import HareInstance

__all__ = ["check_schedule", "checked_objective", "default_tol", "OBJ_RTOL", "FLOAT_ULPS"]

#: Relative tolerance of the objective recomputation.
OBJ_RTOL = 1e-9
#: Every time comparison also allows this many float spacings of the time compared (``t + c`` of a schedule is
#: rounded to the spacing of ``t``: 4e-3 s at 2e13 s), so the checker is relative at large times.
FLOAT_ULPS = 4
_EPS = float(np.finfo(float).eps)


class _Malformed(Exception):
    pass


def _decision(inst: HareInstance, solution: Any) -> tuple[np.ndarray, np.ndarray, float | None]:
    if isinstance(solution, tuple) and len(solution) == 2:
        start, gpu = solution
        claimed = None
    elif hasattr(solution, "start") and hasattr(solution, "gpu"):
        start, gpu = solution.start, solution.gpu
        claimed = solution.objective
    else:
        raise ArgumentError(f"sol is {a_type(solution)}; expected a HareSolution or a (start, gpu) pair")
    start = np.asarray(start, dtype=float)
    gpu_arr = np.asarray(gpu)
    d = inst.n_tasks
    if start.shape != (d,) or gpu_arr.shape != (d,):
        raise _Malformed(f"start has shape {start.shape} and gpu {gpu_arr.shape}; expected ({d},) each")
    if not np.all(np.isfinite(start)):
        i = int(np.flatnonzero(~np.isfinite(start))[0])
        raise _Malformed(f"start of task {inst.task_label(i)} is {start[i]}; expected a finite time")
    for i, g in enumerate(gpu_arr):
        if not (float(g) == int(g) and 0 <= int(g) < inst.n_gpus):
            raise _Malformed(
                f"(5) task {inst.task_label(i)} is on GPU {g!r}; expected one GPU in 0..{inst.n_gpus - 1}")
    return start, gpu_arr.astype(int), claimed


@takes_instance(HareInstance)
def default_tol(inst: HareInstance) -> float:
    """``FEAS_TOL`` times ``min(1, H)``, ``H`` the serial horizon (last arrival plus every task's longest time).

    At the usual magnitudes the tolerance is :data:`hetopt.validate.FEAS_TOL` (absolute); at small
    ones it shrinks with the data, so that an overlap of ``1e-7`` between tasks of ``1e-9`` is a
    violation (issue 25), not noise.
    """
    horizon = float(inst.arrival.max() + ((inst.rounds * inst.tasks_per_round)
                                          * (inst.compute_time + inst.sync_time).max(axis=1)).sum())
    return FEAS_TOL * min(1.0, horizon)


def check_schedule(inst: HareInstance, sol: Any, *, tol: float | None = None) -> CheckReport:
    """Check a schedule against (4)-(8) and recompute its objective.

    Parameters
    ----------
    inst : HareInstance
        The instance.
    sol : HareSolution or tuple (start, gpu)
        A solution object (its ``objective`` is checked against the recomputed one) or the
        raw decision: start times ``x_i`` and GPU indices, one per task.
    tol : float, optional
        Absolute time tolerance; default :func:`default_tol` (``FEAS_TOL``, smaller for data whose
        serial horizon is below 1).

    Returns
    -------
    CheckReport
        ``violations`` names the constraint ((4) arrival, (5) assignment, (7) round
        barrier, (8) GPU non-overlap, or the objective) and the tasks involved;
        ``objective`` is ``sum_n w_n C_n`` recomputed from the decision, with ``C_n`` the
        latest synchronization end of job ``n`` (the smallest value satisfying (6)), or
        None when the decision is malformed (shapes, non-finite starts, unknown GPUs);
        ``info["completion"]`` holds the ``C_n``.  ``report.raise_if_invalid()`` raises
        :class:`hetopt.errors.ScheduleViolation`.

    Raises
    ------
    ArgumentError
        If ``inst`` is not a :class:`HareInstance` or ``tol`` is not a finite number >= 0 (NaN would make every comparison pass).
    """
    tol = default_tol(inst) if tol is None else check_tol(tol, "tol")
    try:
        start, gpu, claimed = _decision(inst, sol)
    except _Malformed as e:
        return CheckReport.from_violations([str(e)], None)
    out: list[str] = []
    tc = inst.compute_time
    ts = inst.sync_time

    def slack(t: float) -> float:  # tol, plus the float spacing at t: a time of 2e13 s is held to 4e-3 s
        return tol + FLOAT_ULPS * _EPS * abs(float(t))

    completion = [0.0] * inst.n_jobs
    for n in range(inst.n_jobs):
        prev_end: float | None = None
        for r in range(int(inst.rounds[n])):
            ends = []
            for i in inst.round_tasks(n, r):
                m = int(gpu[i])
                if start[i] < inst.arrival[n] - slack(inst.arrival[n]):
                    out.append(
                        f"(4) task {inst.task_label(i)} starts at {start[i]:.9g} "
                        f"before its job arrives at {inst.arrival[n]:.9g}")
                if prev_end is not None and start[i] < prev_end - slack(prev_end):
                    out.append(
                        f"(7) task {inst.task_label(i)} starts at {start[i]:.9g} before round {r - 1} of its job "
                        f"finishes synchronizing at {prev_end:.9g}")
                ends.append(start[i] + tc[n, m] + ts[n, m])
            prev_end = max(ends)
        completion[n] = float(prev_end) if prev_end is not None else 0.0
    for m in range(inst.n_gpus):
        # by start, then end: a task shorter than the float spacing of its start (1e-8 s at 2.6e8 s) that
        # starts with a long one comes first, not as an overlap of the long one
        on_m = sorted((float(start[i]), float(start[i] + tc[inst.task_job[i], m]), i)
                      for i in range(inst.n_tasks) if gpu[i] == m)
        for (_s1, end1, i1), (s2, _e2, i2) in zip(on_m, on_m[1:], strict=False):
            if s2 < end1 - slack(end1):
                out.append(
                    f"(8) tasks {inst.task_label(i1)} and {inst.task_label(i2)} overlap on GPU {inst.gpus[m]}: "
                    f"the second starts at {s2:.9g} before the first ends computing at {end1:.9g}")
    objective = float(sum(w * c for w, c in zip(inst.weight, completion, strict=True)))
    if claimed is not None and abs(claimed - objective) > OBJ_RTOL * abs(objective) + tol * float(inst.weight.sum()):
        out.append(f"objective is reported as {claimed!r} but the schedule's sum w_n C_n is {objective!r}")
    return CheckReport.from_violations(out, objective, completion=np.asarray(completion, dtype=float))


def checked_objective(inst: HareInstance, sol: Any, *, tol: float | None = None) -> float:
    """``sum_n w_n C_n`` of a schedule recomputed by :func:`check_schedule`, which must pass.

    Parameters
    ----------
    inst : HareInstance
        The instance.
    sol : HareSolution or tuple (start, gpu)
        The schedule.
    tol : float, optional
        Absolute time tolerance (default :func:`default_tol`).

    Returns
    -------
    float

    Raises
    ------
    ScheduleViolation
        When the schedule breaks one of (4)-(8).
    """
    rep = check_schedule(inst, sol, tol=tol).raise_if_invalid()
    if rep.objective is None:  # pragma: no cover - a report that is ok has an objective
        raise ScheduleViolation("the schedule has no objective")
    return float(rep.objective)
