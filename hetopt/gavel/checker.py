"""An independent check of Gavel's results: a simulated round schedule, or a static allocation.

For a simulation it reads only the instance and the recorded rounds (``simulate(...,
record_rounds=True)``): each round places a job on one GPU type, with ``scale_factor`` GPUs of
it, for the seconds recorded (``seconds``; Gavel's mechanism runs whole steps, so a job may stop
before the round ends); the checker recomputes the steps each job ran and its completion, never
looking at the mechanism's state.  For an allocation (``allocate``, ``solve_exact``) it checks Gavel's base
constraints (G1)-(G3) on the matrix and recomputes the makespan from the data.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ArgumentError, a_type
from ..inputs import takes_instance
from ..result import CheckReport
from .allocation import GavelAllocation
from .instance import GavelInstance
from .simulator import GavelSimulation

__all__ = ["check_schedule"]

#: Relative tolerance on steps and times.
RTOL = 1e-6
#: Absolute tolerance on the constraints (G1)-(G3) of an allocation (LP solvers' feasibility tolerance).
ATOL = 1e-6


@takes_instance(GavelInstance)
def check_schedule(inst: GavelInstance, sol: Any) -> CheckReport:
    """Check a :class:`~hetopt.gavel.GavelSimulation`'s rounds or a :class:`~hetopt.gavel.GavelAllocation`.

    Parameters
    ----------
    inst : GavelInstance
        The instance the result claims to solve.
    sol : GavelSimulation or GavelAllocation
        A simulation recorded with ``record_rounds=True``, or an allocation of all the jobs.

    Returns
    -------
    CheckReport
        For a simulation, violations: rounds that overlap, a GPU type over its capacity in a
        round, a job run before its arrival, on a type where its throughput is 0, or after its
        completion, a job whose rounds do not add up to its ``total_steps``, and a reported
        completion, JCT or objective that differs from the recomputed one; ``objective`` is the
        average JCT recomputed from the rounds, ``info["completion"]`` the completions.  For an
        allocation: a matrix of the wrong shape, (G1) a negative time fraction, (G2) a job over
        all of its time, (G3) a type over its GPUs, a reported makespan or job throughput that
        differs from the recomputed one, or a makespan below the reported bound; ``objective``
        is the recomputed makespan.

    Raises
    ------
    ArgumentError
        ``sol`` is neither a simulation nor an allocation of Gavel.
    """
    if isinstance(sol, GavelAllocation):
        return _check_allocation(inst, sol)
    if not isinstance(sol, GavelSimulation):
        raise ArgumentError(f"sol is {a_type(sol)}; expected a GavelSimulation (hetopt.gavel.simulate) or a "
                            "GavelAllocation (hetopt.gavel.allocate, solve_exact)")
    return _check_rounds(inst, sol)


def _check_allocation(inst: GavelInstance, sol: GavelAllocation) -> CheckReport:
    X = np.asarray(sol.allocation, dtype=float)
    J, R = inst.n_jobs, inst.n_types
    if X.shape != (J, R) or not np.all(np.isfinite(X)):
        return CheckReport.from_violations([f"allocation has shape {X.shape} or a non-finite entry; expected {J} x {R} "
                                            "finite time fractions"])
    out: list[str] = []
    for j, r in np.argwhere(X < -ATOL)[:5]:
        out.append(f"(G1) allocation[{j}, {r}] is {X[j, r]:.9g} < 0")
    rows = X.sum(axis=1)
    for j in np.flatnonzero(rows > 1 + ATOL)[:5]:
        out.append(f"(G2) job {j}: time fractions sum to {rows[j]:.9g} > 1")
    used = np.asarray(inst.scale_factor, dtype=float) @ X
    for r in np.flatnonzero(used > np.asarray(inst.capacity) + ATOL)[:5]:
        out.append(f"(G3) type {inst.gpu_types[r]}: {used[r]:.9g} GPUs allocated > capacity {inst.capacity[r]}")
    rate = (np.clip(X, 0.0, None) * inst.effective_throughput()).sum(axis=1)
    with np.errstate(divide="ignore"):
        span = float(np.max(np.where(rate > 0, inst.total_steps / np.where(rate > 0, rate, 1.0), np.inf)))
    reported = np.asarray(sol.job_throughput, dtype=float)
    if reported.shape != rate.shape or not np.allclose(reported, rate, rtol=RTOL, atol=0.0):
        out.append("job_throughput differs from sum_r X[j, r] T[j, r] recomputed from the allocation")
    if not np.isfinite(span):  # a job without GPU time: no makespan, no schedule of all the jobs
        if sol.objective is not None or sol.status.has_solution:
            out.append(f"jobs {np.flatnonzero(~(rate > 0))[:5].tolist()} get no GPU time and never finish, yet the "
                       f"allocation reports status {sol.status.value} and makespan {sol.objective!r} (expected "
                       "infeasible, no makespan)")
    elif sol.objective is None or not (sol.objective == span or np.isclose(sol.objective, span, rtol=RTOL, atol=0.0)):
        out.append(f"reported makespan {sol.objective!r} != recomputed {span:.9g}")
    if sol.bound is not None and span < sol.bound * (1 - RTOL):
        out.append(f"recomputed makespan {span:.9g} is below the reported lower bound {sol.bound:.9g}")
    return CheckReport.from_violations(out, span if np.isfinite(span) else None, job_throughput=rate)


def _check_rounds(inst: GavelInstance, sol: GavelSimulation) -> CheckReport:
    if not sol.rounds:
        return CheckReport.from_violations(["the simulation has no rounds; simulate with record_rounds=True"])
    J, R = inst.n_jobs, inst.n_types
    T = np.asarray(inst.throughput, dtype=float)
    completion = np.asarray(sol.completion, dtype=float)
    steps = np.zeros(J)
    last = np.full(J, np.nan)
    out: list[str] = []
    prev_end = -np.inf
    pairs = None
    for k, rd in enumerate(sol.rounds):
        start, end = float(rd["start"]), float(rd["end"])
        if start < prev_end - RTOL * abs(prev_end):
            out.append(f"round {k} starts at {start:.6g} s before round {k - 1} ends at {prev_end:.6g} s")
        prev_end = end
        used = np.zeros(R)
        partner: dict[int, tuple[int, int]] = {}
        for pair in rd.get("packed") or []:
            a, b = (int(v) for v in pair)
            partner[a] = partner[b] = (a, b)
        for j, r in rd["placement"].items():
            j, r = int(j), int(r)
            if not (0 <= j < J and 0 <= r < R):
                out.append(f"round {k}: job {j} on type {r} does not exist")
                continue
            rate = T[j, r]
            if j in partner:
                a, b = partner[j]
                if rd["placement"].get(a, rd["placement"].get(str(a))) != rd["placement"].get(
                        b, rd["placement"].get(str(b))) or inst.scale_factor[a] != inst.scale_factor[b]:
                    out.append(f"round {k}: packed jobs {a} and {b} are not on the same type with the same scale factor")
                if pairs is None:
                    from .simulator import pair_table

                    pairs = pair_table(inst)
                measured = pairs(a, b)
                if measured is None:
                    out.append(f"round {k}: jobs {a} and {b} are packed but Gavel's table has no throughput for the pair")
                    rate = 0.0
                else:
                    rate = float(measured[r][0 if j == a else 1])
                if j == b:  # the pair's GPUs are counted once, with job a
                    rate_only = True
                else:
                    rate_only = False
            else:
                rate_only = False
            if not rate_only:
                used[r] += inst.scale_factor[j]
            if start < inst.arrival[j] - RTOL * abs(inst.arrival[j]):
                out.append(f"round {k}: job {j} runs at {start:.6g} s before its arrival {inst.arrival[j]:.6g} s")
            if rate <= 0:
                out.append(f"round {k}: job {j} runs on type {inst.gpu_types[r]} where its throughput is 0")
            done = completion[j] if np.isfinite(completion[j]) else np.inf
            if start >= done - RTOL * abs(done):
                out.append(f"round {k}: job {j} runs at {start:.6g} s after its completion {done:.6g} s")
            seconds = rd.get("seconds") or {}
            dt = float(seconds[j]) if j in seconds else max(0.0, min(end, done) - start)
            if dt > end - start + RTOL * abs(end):
                out.append(f"round {k}: job {j} runs {dt:.6g} s, longer than the round [{start:.6g}, {end:.6g}]")
            steps[j] += dt * rate
            last[j] = start + dt
            if j in partner:  # Gavel ends both jobs of a pair at the pair's finish (the later of the two)
                other = partner[j][1] if j == partner[j][0] else partner[j][0]
                if other in seconds:
                    last[j] = start + max(dt, float(seconds[other]))
        over = np.flatnonzero(used > np.asarray(inst.capacity))
        for r in over[:3]:
            out.append(f"round {k}: {used[r]:g} GPUs of type {inst.gpu_types[r]} > capacity {inst.capacity[r]}")
    total = np.asarray(inst.total_steps, dtype=float)
    # steps are counts (dimensionless): the floor of 1 step stays
    for j in np.flatnonzero(np.abs(steps - total) > RTOL * np.maximum(1.0, total))[:5]:
        out.append(f"job {j} runs {steps[j]:.9g} steps in its rounds; it needs {total[j]:.9g}")
    for j in np.flatnonzero(~np.isclose(last, completion, rtol=RTOL, atol=0.0))[:5]:
        out.append(f"job {j}: reported completion {completion[j]:.9g} s, its last round ends it at {last[j]:.9g} s")
    avg = float(np.mean(last - inst.arrival)) if np.all(np.isfinite(last)) else None
    if avg is None:
        out.append(f"jobs {np.flatnonzero(~np.isfinite(last))[:5].tolist()} never run")
    elif sol.objective is None or not np.isclose(sol.objective, avg, rtol=RTOL):
        out.append(f"reported average JCT {sol.objective!r} != recomputed {avg:.9g}")
    return CheckReport.from_violations(out, avg, completion=last)
