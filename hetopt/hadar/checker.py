"""An independent feasibility checker for time-indexed Hadar schedules (constraints (1a)-(1e)).

Written against the paper's constraints with numpy only, not against the MILP, so that the
MILP's schedules and the simulator's rounds are certified by code that shares nothing
with them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..certify import same_value
from ..errors import ArgumentError, a_type
from ..inputs import check_flag, check_positive, numeric_array, takes_instance
from ..result import CheckReport
from ..validate import FEAS_TOL
from .instance import HadarInstance

__all__ = ["check_schedule", "iterations_per_slot"]

_ROUND_RTOL = 1e-9


@takes_instance(HadarInstance)
def iterations_per_slot(inst: HadarInstance, w: np.ndarray, length: float | None = None) -> np.ndarray:
    """``x_j(t) * sum_hr w^r_jh(t) * L`` for every job and slot: (1a)'s summand with (1b)'s bottleneck.

    ``w`` is a (J, H, R, T) schedule; ``length`` the slot's seconds (default ``L``).  ArgumentError
    for a ``w`` of another shape or a ``length`` that is not a positive finite number.
    """
    L = inst.slot_length if length is None else check_positive(length, "length")
    w = numeric_array("w", w)
    if w.ndim != 4 or w.shape[:3] != (inst.n_jobs, inst.n_machines, inst.n_types):
        raise ArgumentError(f"w has shape {w.shape}; expected ({inst.n_jobs}, {inst.n_machines}, {inst.n_types}, T)")
    used = w.sum(axis=1) > 0  # (J, R, T): type r used by job j in slot t
    X = np.where(used, inst.throughput[:, :, None], np.inf)
    n = w.sum(axis=(1, 2))
    x = np.where(n > 0, X.min(axis=1), 0.0)  # (J, T)
    return x * n * L


@takes_instance(HadarInstance)
def check_schedule(inst: HadarInstance, sol: Any, *, require_completion: bool = True) -> CheckReport:
    """Check a schedule against (1a)-(1e) and recompute P1's objective.

    Parameters
    ----------
    inst : HadarInstance
    sol : HadarSolution, HadarSimulation or array_like of int, shape (J, H, R, T)
        A solution with a ``schedule`` (its ``total_utility``, when set, is checked against
        the recomputed one), the raw schedule ``w^r_jh(t)``, or a simulation result with its
        recorded rounds (``simulate(..., record_rounds=True)``; any policy, the paper's or
        yours): every round's allocation against the capacities, the gangs (a multiple of
        the job's GPUs: HadarE's copies are gangs too), the arrivals and completions and the
        runnable types; every round's iterations against the allocation's bottleneck rate
        times the round; the iterations against the total; the JCTs and the utility.
    require_completion : bool
        Report (1a) for every job that does not complete its iterations.

    Returns
    -------
    CheckReport
        ``violations`` names the constraint and the job/machine/type/slot; ``objective`` is
        P1's total utility (completed jobs only); ``info`` holds ``finish_slot`` (-1 for
        a job that never runs), ``iterations`` and ``completed``.
    """
    check_flag(require_completion, "require_completion")
    if not (hasattr(sol, "schedule") or hasattr(sol, "completion") or isinstance(sol, np.ndarray | list | tuple)):
        raise ArgumentError(f"sol is {a_type(sol)}; expected a HadarSolution, a HadarSimulation or an array of "
                            "shape (J, H, R, T)")
    if hasattr(sol, "rounds") and hasattr(sol, "completion"):
        return _check_simulation(inst, sol)
    claimed = getattr(sol, "total_utility", None) if hasattr(sol, "schedule") else None
    w = np.asarray(sol.schedule if hasattr(sol, "schedule") else sol)
    J, H, R = inst.n_jobs, inst.n_machines, inst.n_types
    out: list[str] = []
    if w.ndim != 4 or w.shape[:3] != (J, H, R):
        return CheckReport.from_violations([f"schedule has shape {w.shape}; expected ({J}, {H}, {R}, T)"])
    T = w.shape[3]
    if np.any(w < 0) or np.any(w != np.round(w)):
        out.append("(1d) schedule has negative or fractional GPU counts")
    load = w.sum(axis=0)  # (H, R, T)
    over = np.argwhere(load > inst.capacity[:, :, None])
    for h, r, t in over[:5]:
        out.append(f"(1d) machine {h} type {r} slot {t}: {load[h, r, t]} GPUs > capacity {inst.capacity[h, r]}")
    n = w.sum(axis=(1, 2))  # (J, T)
    gang = np.argwhere((n != 0) & (n != inst.gpus[:, None]))
    for j, t in gang[:5]:
        out.append(f"(1e) job {j} slot {t}: {n[j, t]} GPUs; gang needs 0 or {inst.gpus[j]}")
    early = np.argwhere((n > 0) & (np.arange(T)[None, :] < inst.arrival[:, None]))
    for j, t in early[:5]:
        out.append(f"(1e) job {j} runs in slot {t} before its arrival {inst.arrival[j]}")
    bad_type = np.argwhere((w.sum(axis=(1, 3)) > 0) & ~inst.runnable())
    for j, r in bad_type[:5]:
        out.append(f"(1b) job {j} placed on type {r}, where its throughput is 0")
    it = iterations_per_slot(inst, w)
    done = it.sum(axis=1)
    completed = done >= inst.total_iterations * (1 - FEAS_TOL)
    if require_completion:
        for j in np.flatnonzero(~completed)[:5]:
            out.append(f"(1a) job {j} completes {done[j]:.6g} of {inst.total_iterations[j]} iterations")
    ran = n > 0
    finish = np.where(ran.any(axis=1), T - 1 - np.argmax(ran[:, ::-1], axis=1), -1)
    dur = (finish + 1 - inst.arrival) * inst.slot_length
    util = inst.utility_of(np.where(completed, dur, 1.0))
    terms = np.where(completed, util, 0.0)
    total = float(np.sum(terms))
    if claimed is not None and not same_value(claimed, total, terms):
        out.append(f"(P1) reported total utility {claimed:.9g} != recomputed {total:.9g}")
    return CheckReport.from_violations(out, total, finish_slot=finish, iterations=done, completed=completed)


def _check_simulation(inst: HadarInstance, res: Any) -> CheckReport:
    """Check a simulator trace (rounds of length ``res.round_length``) and recompute its utility."""
    J, H, R = inst.n_jobs, inst.n_machines, inst.n_types
    out: list[str] = []
    rounds = list(res.rounds)
    if not rounds:
        return CheckReport.from_violations(["the simulation recorded no rounds; run simulate(..., record_rounds=True) "
                                            "to check it"])
    RL = float(res.round_length)
    arrival_s = inst.arrival * inst.slot_length
    completion = np.asarray(res.completion, dtype=float)
    done = np.zeros(J)
    runnable = inst.runnable()
    for k, rd in enumerate(rounds):
        a = np.asarray(rd["allocation"])
        start = float(rd["start"])
        if a.shape != (J, H, R):
            out.append(f"round {k}: allocation has shape {a.shape}; expected ({J}, {H}, {R})")
            continue
        if np.any(a < 0):
            out.append(f"round {k}: negative GPU counts")
        over = np.argwhere(a.sum(axis=0) > inst.capacity)
        for h, r in over[:3]:
            out.append(f"(1d) round {k} machine {h} type {r}: {a[:, h, r].sum()} GPUs > capacity {inst.capacity[h, r]}")
        n = a.sum(axis=(1, 2))
        for j in np.flatnonzero((n % inst.gpus) != 0)[:3]:
            out.append(f"(1e) round {k} job {j}: {n[j]} GPUs, not a whole number of gangs of {inst.gpus[j]}")
        for j in np.flatnonzero((n > 0) & (start < arrival_s - _ROUND_RTOL * np.maximum(arrival_s, RL)))[:3]:
            out.append(f"(1e) round {k} (start {start:g} s) runs job {j} before its arrival {arrival_s[j]:g} s")
        for j in np.flatnonzero((n > 0) & (start >= completion - _ROUND_RTOL * np.maximum(np.abs(completion), RL)))[:3]:
            out.append(f"round {k} (start {start:g} s) runs job {j} after its completion {completion[j]:g} s")
        used = a.sum(axis=1) > 0  # (J, R)
        for j, r in np.argwhere(used & ~runnable)[:3]:
            out.append(f"(1b) round {k} job {j} placed on type {r}, where its throughput is 0")
        # one gang: its bottleneck type sets the rate (1b); several gangs (HadarE's copies, merged in the
        # recorded allocation): each GPU contributes at most its own type's throughput
        bottleneck = np.where(n > 0, np.where(used, inst.throughput, np.inf).min(axis=1), 0.0) * n
        per_type = (a.sum(axis=1) * inst.throughput).sum(axis=1)
        rate = np.where(n == inst.gpus, bottleneck, per_type)
        it = np.asarray(rd["iterations"], dtype=float)
        for j in np.flatnonzero(it > rate * RL * (1 + _ROUND_RTOL) + _ROUND_RTOL * inst.total_iterations)[:3]:
            out.append(f"(1b) round {k} job {j}: {it[j]:.6g} iterations > bottleneck rate x round {rate[j] * RL:.6g}")
        done += it
    total = inst.total_iterations
    for j in np.flatnonzero(np.abs(done - total) > FEAS_TOL * np.maximum(total, 1.0))[:5]:
        out.append(f"(1a) job {j} completes {done[j]:.6g} of {total[j]} iterations")
    for j in np.flatnonzero(~np.isfinite(completion))[:5]:
        out.append(f"job {j} never completes")
    jct = completion - arrival_s
    if hasattr(res, "jct") and not np.allclose(np.asarray(res.jct, dtype=float), jct, rtol=1e-12, atol=1e-12 * RL,
                                                equal_nan=True):
        out.append("reported JCTs differ from completion - arrival")
    terms = inst.utility_of(np.where(np.isfinite(jct), jct, 1.0))[np.isfinite(jct)]
    util = float(np.sum(terms))
    claimed = getattr(res, "total_utility", None)
    if claimed is not None and not same_value(claimed, util, terms):
        out.append(f"reported total utility {claimed:.9g} != recomputed {util:.9g}")
    return CheckReport.from_violations(out, util, iterations=done, rounds=len(rounds))
