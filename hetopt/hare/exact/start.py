"""Heuristic starts of the exact engines: the best of cheap feasible schedules.

Every engine of :mod:`hetopt.hare.exact` starts from a feasible schedule: its objective ``UB``
gives the tight big-M constants and variable domains (:func:`hetopt.hare.bounds.time_bounds`),
the CP-SAT hint, the horizon and the first columns of the lower bounds.  The candidates are
cheap: :func:`hetopt.hare.bounds.greedy_schedule`, Algorithm 1's list scheduling on the
round-earliest-start order (every GPU rule) and every policy of
:data:`hetopt.hare.policies.POLICIES`; each is checked by :func:`hetopt.hare.check_schedule`.
"""

from __future__ import annotations

import numpy as np

from ...errors import ArgumentError, a_type
from ..bounds import greedy_schedule
from ..checker import checked_objective
from ..instance import HareInstance
from ..listsched import GPU_RULES, list_schedule
from ..policies import POLICIES, SINGLE_GPU_POLICIES

__all__ = ["best_known_schedule", "best_known_objective", "cheap_schedule", "upper_schedule"]


def _round_order(inst: HareInstance) -> np.ndarray:
    """Priority of every task: its job's arrival plus its round times the job's shortest round."""
    return inst.arrival[inst.task_job] + inst.task_round * inst.min_round_time[inst.task_job]


def cheap_schedule(inst: HareInstance) -> tuple[np.ndarray, np.ndarray]:
    """``(start, gpu)`` of the best of the greedy schedule and the list schedules (the CP-SAT hint).

    Parameters
    ----------
    inst : HareInstance
        The instance.

    Returns
    -------
    (start, gpu)
        The candidate with the least ``sum_n w_n C_n`` (the first of equal ones).
    """
    prio = _round_order(inst)
    cands = [greedy_schedule(inst)] + [list_schedule(inst, prio, rule) for rule in GPU_RULES]
    return min(cands, key=lambda c: checked_objective(inst, c))


def best_known_schedule(inst: HareInstance) -> tuple[np.ndarray, np.ndarray, float]:
    """``(start, gpu, objective)`` of the best among cheap feasible schedules (tight big-M constants).

    Candidates: :func:`hetopt.hare.bounds.greedy_schedule`, Algorithm 1's list scheduling (every
    GPU rule) on the round-earliest-start order and every policy of
    :data:`hetopt.hare.policies.POLICIES` (online and up front; gang policies only when every
    job's round fits on the GPUs); every one is checked by :func:`hetopt.hare.check_schedule`.

    Parameters
    ----------
    inst : HareInstance
        The instance.

    Returns
    -------
    (start, gpu, objective)
        The first candidate of least objective.
    """
    cands = [greedy_schedule(inst)]
    prio = _round_order(inst)
    cands += [list_schedule(inst, prio, rule) for rule in GPU_RULES]
    fits = bool((inst.tasks_per_round <= inst.n_gpus).all())
    for name, policy in POLICIES.items():
        if fits or name in SINGLE_GPU_POLICIES:
            sol = policy(inst)
            cands.append((sol.start, sol.gpu))
    values = [checked_objective(inst, c) for c in cands]
    k = int(np.argmin(values))
    return np.asarray(cands[k][0], dtype=float), np.asarray(cands[k][1]), float(values[k])


def best_known_objective(inst: HareInstance) -> float:
    """The objective of :func:`best_known_schedule`.

    Parameters
    ----------
    inst : HareInstance
        The instance.

    Returns
    -------
    float
        ``sum_n w_n C_n`` of the best cheap schedule.
    """
    return best_known_schedule(inst)[2]


def upper_schedule(inst: HareInstance, upper: tuple | None) -> tuple[np.ndarray, np.ndarray, float]:
    """``(start, gpu, objective)`` of ``upper`` (checked feasible), or of the best cheap schedule when None.

    Parameters
    ----------
    inst : HareInstance
        The instance.
    upper : (start, gpu) or None
        A feasible schedule given by the caller.

    Returns
    -------
    (start, gpu, objective)

    Raises
    ------
    ScheduleViolation
        When ``upper`` breaks one of (4)-(8).
    """
    if upper is None:
        return best_known_schedule(inst)
    if not isinstance(upper, tuple | list) or len(upper) != 2:
        raise ArgumentError(f"upper is {a_type(upper)}; expected a (start, gpu) pair of arrays or None")
    try:
        start, gpu = np.asarray(upper[0], dtype=float), np.asarray(upper[1], dtype=int)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ArgumentError(f"upper is not a (start, gpu) pair of numeric arrays: {exc}") from None
    if start.shape != (inst.n_tasks,) or gpu.shape != (inst.n_tasks,):
        raise ArgumentError(f"upper has arrays of shape {start.shape} and {gpu.shape}; expected ({inst.n_tasks},) each")
    return start, gpu, checked_objective(inst, (start, gpu))
