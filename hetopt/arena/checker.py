"""An arena run checked against the workload alone (it reads the recorded rounds, not the engine).

For every recorded round and gang: the servers hold the gangs (GPUs per server within
``server_gpus``), every gang is whole (``scale_factor`` GPUs) and on types where its jobs run,
on one type unless the run's gang rule is ``"bottleneck"``, no job is in two gangs, no job runs
before it arrives or after it completes, no gang runs its steps faster than its throughput allows
(``steps / throughput <= finish - start - delay``, the slowest type of a mixed gang), and each job's
steps add up to its ``steps``; then the completion (the finish of its last gang) and the JCTs are
recomputed, and the average JCT is the report's objective.
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


@takes_instance(Workload)
def check_schedule(inst: Workload, sol: Any) -> CheckReport:
    """Check an :class:`~hetopt.arena.simulate.ArenaSimulation` of ``inst`` (its ``rounds`` must be recorded).

    Returns
    -------
    CheckReport
        ``objective``: the average JCT recomputed from the rounds.
    """
    rounds = getattr(sol, "rounds", None)
    if not isinstance(rounds, list) or (not rounds and inst.n_jobs):
        raise ArgumentError("sol has no recorded rounds; simulate with record_rounds=True")
    rule = getattr(sol, "options", {}).get("gang_rule", "single")
    w = inst
    bad: list[str] = []
    done = np.zeros(w.n_jobs)
    finish = np.full(w.n_jobs, -np.inf)
    for i, rd in enumerate(rounds):
        start = float(rd["start"])
        used = np.zeros(w.n_servers, dtype=np.int64)
        seen: set[int] = set()
        for g in rd["gangs"]:
            _check_gang(w, i, start, g, rule, used, seen, finish, done, bad)
        over = np.flatnonzero(used > w.server_gpus)
        if over.size:
            bad.append(f"round {i}: server {int(over[0])} holds {int(used[over[0]])} GPUs; it has "
                       f"{int(w.server_gpus[over[0]])}")
    short = np.flatnonzero(np.abs(done - w.steps) > RTOL * w.steps)
    for j in short[:5].tolist():
        bad.append(f"job {j} ran {done[j]:.6g} steps; it has {w.steps[j]:.6g}")
    completion = np.asarray(getattr(sol, "completion", finish), dtype=float)
    off = np.flatnonzero(~np.isclose(finish, completion, rtol=RTOL, atol=0.0))
    for j in off[:5].tolist():
        bad.append(f"job {j}: reported completion {completion[j]:.6g} s, its last gang ends at {finish[j]:.6g} s")
    jct = finish - w.arrival
    return CheckReport(not bad, tuple(bad), float(jct.mean()) if np.all(np.isfinite(jct)) else None,
                       info={"completion": finish.tolist()})


def _check_gang(w: Workload, i: int, start: float, g: dict[str, Any], rule: str, used: np.ndarray, seen: set[int],
                finish: np.ndarray, done: np.ndarray, bad: list[str]) -> None:
    jobs = [int(j) for j in g["jobs"]]
    servers = [(int(s), int(n)) for s, n in g["servers"]]
    gpus = sum(n for _, n in servers)
    for s, n in servers:
        used[s] += n
    types = sorted({int(w.server_type[s]) for s, _ in servers})
    if len(types) > 1 and rule == "single":
        bad.append(f"round {i}: the gang of job {jobs[0]} spans GPU types {types} under the gang rule 'single'")
    end, delay = float(g["finish"]), float(g["delay"])
    for j, n in zip(jobs, g["steps"], strict=True):
        if j in seen:
            bad.append(f"round {i}: job {j} is in two gangs")
        seen.add(j)
        if gpus != w.scale_factor[j]:
            bad.append(f"round {i}: job {j} has {gpus} GPUs; its gang needs {int(w.scale_factor[j])}")
        if start < w.arrival[j] - RTOL * max(1.0, abs(w.arrival[j])):
            bad.append(f"round {i}: job {j} runs at {start:.6g} s, before it arrives at {w.arrival[j]:.6g} s")
        if done[j] >= w.steps[j] * (1 - RTOL):
            bad.append(f"round {i}: job {j} runs after completing its steps")
        thr = min(float(w.throughput[j, r]) for r in types)
        if thr <= 0:
            bad.append(f"round {i}: job {j} runs on a type where its throughput is 0")
            continue
        if len(jobs) == 1 and float(n) / thr > (end - start - delay) * (1 + RTOL):
            bad.append(f"round {i}: job {j} runs {n:.6g} steps in {end - start - delay:.6g} s, faster than its "
                       f"throughput {thr:.6g}/s")
        done[j] += float(n)
        finish[j] = end
