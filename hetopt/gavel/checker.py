"""An independent check of a simulated Gavel round schedule, with the shared report type.

It reads only the instance and the recorded rounds (``simulate(..., record_rounds=True)``):
each round places a job on one GPU type, with ``scale_factor`` GPUs of it; the checker
recomputes the steps each job ran and its completion, never looking at the mechanism's state.
"""

from __future__ import annotations

import numpy as np

from ..result import CheckReport
from .instance import GavelInstance

__all__ = ["check_schedule"]

#: Relative tolerance on steps and times.
RTOL = 1e-6


def check_schedule(inst: GavelInstance, sol) -> CheckReport:
    """Check a :class:`~hetopt.gavel.GavelSimulation`'s rounds and recompute its average JCT.

    Parameters
    ----------
    inst : GavelInstance
    sol : GavelSimulation
        Simulated with ``record_rounds=True``.

    Returns
    -------
    CheckReport
        Violations: rounds that overlap, a GPU type over its capacity in a round, a job run
        before its arrival, on a type where its throughput is 0, or after its completion,
        a job whose rounds do not add up to its ``total_steps``, and a reported completion,
        JCT or objective that differs from the recomputed one.  ``objective`` is the
        average JCT recomputed from the rounds; ``info["completion"]`` the completions.
    """
    if not sol.rounds:
        return CheckReport.from_violations(["the simulation has no rounds; simulate with record_rounds=True"])
    J, R = inst.n_jobs, inst.n_types
    T = np.asarray(inst.throughput, dtype=float)
    completion = np.asarray(sol.completion, dtype=float)
    steps = np.zeros(J)
    last = np.full(J, np.nan)
    out: list[str] = []
    prev_end = -np.inf
    for k, rd in enumerate(sol.rounds):
        start, end = float(rd["start"]), float(rd["end"])
        if start < prev_end - RTOL * max(1.0, abs(prev_end)):
            out.append(f"round {k} starts at {start:.6g} s before round {k - 1} ends at {prev_end:.6g} s")
        prev_end = end
        used = np.zeros(R)
        for j, r in rd["placement"].items():
            j, r = int(j), int(r)
            if not (0 <= j < J and 0 <= r < R):
                out.append(f"round {k}: job {j} on type {r} does not exist")
                continue
            used[r] += inst.scale_factor[j]
            if start < inst.arrival[j] - RTOL * max(1.0, inst.arrival[j]):
                out.append(f"round {k}: job {j} runs at {start:.6g} s before its arrival {inst.arrival[j]:.6g} s")
            if T[j, r] <= 0:
                out.append(f"round {k}: job {j} runs on type {inst.gpu_types[r]} where its throughput is 0")
            done = completion[j] if np.isfinite(completion[j]) else np.inf
            if start >= done - RTOL * max(1.0, done):
                out.append(f"round {k}: job {j} runs at {start:.6g} s after its completion {done:.6g} s")
            dt = max(0.0, min(end, done) - start)
            steps[j] += dt * T[j, r]
            last[j] = start + dt
        over = np.flatnonzero(used > np.asarray(inst.capacity))
        for r in over[:3]:
            out.append(f"round {k}: {used[r]:g} GPUs of type {inst.gpu_types[r]} > capacity {inst.capacity[r]}")
    total = np.asarray(inst.total_steps, dtype=float)
    for j in np.flatnonzero(np.abs(steps - total) > RTOL * np.maximum(1.0, total))[:5]:
        out.append(f"job {j} runs {steps[j]:.9g} steps in its rounds; it needs {total[j]:.9g}")
    for j in np.flatnonzero(~np.isclose(last, completion, rtol=RTOL, atol=RTOL))[:5]:
        out.append(f"job {j}: reported completion {completion[j]:.9g} s, its last round ends it at {last[j]:.9g} s")
    avg = float(np.mean(last - inst.arrival)) if np.all(np.isfinite(last)) else None
    if avg is None:
        out.append(f"jobs {np.flatnonzero(~np.isfinite(last))[:5].tolist()} never run")
    elif sol.objective is None or not np.isclose(sol.objective, avg, rtol=RTOL):
        out.append(f"reported average JCT {sol.objective!r} != recomputed {avg:.9g}")
    return CheckReport.from_violations(out, avg, completion=last)
