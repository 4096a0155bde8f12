"""An independent check of an arena round schedule: it reads the workload and the recorded rounds only.

Rounds are recorded as the arena's engine records them (:mod:`hetopt.arena.schedule`).  In every
round: no job in two gangs; every gang whole (``scale_factor`` GPUs), on servers within their GPUs
and types within their capacity, on one type unless the schedule's gang rule is ``"bottleneck"``;
no job before its arrival or after it completed; no gang faster than its throughput allows (the
slowest type's for a gang spread over types: ``steps / throughput <= finish - start - delay``).
Over the rounds: each job's steps add up to its ``steps``; its completion (the finish of its last
gang) and JCT match the reported ones.  The report's objective is the plain average JCT recomputed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ArgumentError
from ..inputs import takes_instance
from ..result import CheckReport
from .workload import Workload

__all__ = ["check_schedule", "RTOL"]

#: Relative tolerance of the recomputed steps, durations and completions.
RTOL = 1e-9


def _gang(w: Workload, i: int, start: float, g: dict[str, Any], rule: str, state: dict[str, Any]) -> list[str]:
    """The violations of one gang of round ``i``; books its GPUs, steps and finish."""
    bad: list[str] = []
    jobs = [int(j) for j in g["jobs"]]
    servers = [(int(s), int(n)) for s, n in g["servers"]]
    if any(not 0 <= s < w.server_type.size or n < 1 for s, n in servers):
        return [f"round {i}: the gang of jobs {jobs} holds {servers}: not servers of the workload with >= 1 GPU"]
    for s, n in servers:
        state["server"][s] += n
        state["type"][w.server_type[s]] += n
    types = sorted({int(w.server_type[s]) for s, _ in servers})
    if len(types) > 1 and rule != "bottleneck":
        bad.append(f"round {i}: the gang of job {jobs[0]} spans GPU types {types} under the gang rule {rule!r}")
    gpus = sum(n for _, n in servers)
    end, delay = float(g["finish"]), float(g.get("delay", 0.0))
    for j, n in zip(jobs, g["steps"], strict=True):
        if not 0 <= j < w.n_jobs:
            bad.append(f"round {i}: job {j} does not exist")
            continue
        if j in state["seen"]:
            bad.append(f"round {i}: job {j} is in two gangs")
        state["seen"].add(j)
        if gpus != w.scale_factor[j]:
            bad.append(f"round {i}: job {j} holds {gpus} GPUs; its gang is {int(w.scale_factor[j])}")
        if start < w.arrival[j] - RTOL * max(1.0, abs(w.arrival[j])):
            bad.append(f"round {i}: job {j} runs at {start:.9g} s, before it arrives at {w.arrival[j]:.9g} s")
        if state["done"][j] >= w.steps[j] * (1 - RTOL):
            bad.append(f"round {i}: job {j} runs after completing its steps")
        thr = min(float(w.throughput[j, r]) for r in types) if types else 0.0
        if thr <= 0:
            bad.append(f"round {i}: job {j} runs on a type where its throughput is 0")
            continue
        if len(jobs) == 1 and float(n) / thr > (end - start - delay) * (1 + RTOL):
            bad.append(f"round {i}: job {j} runs {float(n):.9g} steps in {end - start - delay:.9g} s, faster than its "
                       f"throughput {thr:.9g}/s")
        state["done"][j] += float(n)
        state["finish"][j] = end
    return bad


@takes_instance(Workload)
def check_schedule(inst: Workload, sol: Any) -> CheckReport:
    """Check the recorded rounds of ``sol`` (a :class:`~hetopt.arena.schedule.RoundSchedule`) against ``inst``.

    The gang rule is ``sol.options["gang_rule"]`` (``"single"`` when absent).

    Returns
    -------
    CheckReport
        ``objective``: the plain average JCT recomputed from the rounds; ``info["completion"]``.
    """
    w = inst
    rounds = getattr(sol, "rounds", None)
    if not isinstance(rounds, list) or (not rounds and w.n_jobs):
        raise ArgumentError("sol has no recorded rounds; expected a RoundSchedule (hetopt.arena.exact.solve_exact) "
                            "or a run recorded with record_rounds=True")
    rule = (getattr(sol, "options", None) or {}).get("gang_rule", "single")
    state: dict[str, Any] = {"done": np.zeros(w.n_jobs), "finish": np.full(w.n_jobs, -np.inf)}
    cap, bad = np.asarray(w.capacity), []
    for i, rd in enumerate(rounds):
        start = float(rd["start"])
        state |= {"server": np.zeros(w.server_type.size, dtype=np.int64), "type": np.zeros(w.n_types, dtype=np.int64),
                  "seen": set()}
        for g in rd["gangs"]:
            bad += _gang(w, i, start, g, rule, state)
        for s in np.flatnonzero(state["server"] > w.server_gpus)[:3]:
            bad.append(f"round {i}: server {s} holds {state['server'][s]} GPUs; it has {w.server_gpus[s]}")
        for r in np.flatnonzero(state["type"] > cap)[:3]:
            bad.append(f"round {i}: {state['type'][r]} GPUs of type {w.gpu_types[r]} > capacity {cap[r]}")
    done, finish = state["done"], state["finish"]
    for j in np.flatnonzero(np.abs(done - w.steps) > RTOL * w.steps)[:5]:
        bad.append(f"job {j} ran {done[j]:.9g} steps; it has {w.steps[j]:.9g}")
    completion = np.asarray(getattr(sol, "completion", finish), dtype=float)
    if completion.shape != finish.shape:
        bad.append(f"completion has shape {completion.shape}; expected ({w.n_jobs},)")
    else:
        for j in np.flatnonzero(~np.isclose(finish, completion, rtol=RTOL, atol=0.0))[:5]:
            bad.append(f"job {j}: reported completion {completion[j]:.9g} s, its last gang ends at {finish[j]:.9g} s")
    jct = finish - w.arrival
    reported = getattr(sol, "jct", None)
    if reported is not None and (np.shape(reported) != jct.shape or not np.allclose(
            reported, jct, rtol=RTOL, atol=RTOL * float(np.max(np.abs(finish))))):
        bad.append("reported JCTs differ from completion - arrival recomputed from the rounds")
    ok = bool(np.all(np.isfinite(jct)))
    return CheckReport.from_violations(bad, float(jct.mean()) if ok else None, completion=finish.tolist())
