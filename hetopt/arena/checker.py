"""An independent check of an arena round schedule: it reads the workload and the recorded rounds only.

Per round: no overlap with the previous round; every running job present (started at or after its
arrival) and not yet complete; its gang whole (``scale_factor`` GPUs: one type, or a mapping
``{type: GPUs}`` under the ``"bottleneck"`` rule); its GPUs within every type's capacity and, when
the round records ``servers``, within every server's GPUs and on servers of the right type.  Over
the rounds: the steps each job ran (its gang's rate times its seconds, the slowest type's rate for a
spread gang) add up to its ``steps``; its completion is the start of its last round plus its seconds
there; the reported completions, JCTs and objective match the recomputed ones.  Rates are full speed:
the checker holds schedules run without restart delays or link contention (the exact model's).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import ArgumentError, a_type
from ..inputs import check_choice, takes_instance
from ..result import CheckReport
from .schedule import RoundSchedule
from .workload import Workload

__all__ = ["check_schedule", "RTOL"]

#: Relative tolerance on steps, times and the objective.
RTOL = 1e-6


def _get(d: Mapping[Any, Any], j: int) -> Any:
    return d.get(j, d.get(str(j)))


def _gang(w: Workload, j: int, where: Any, rule: str) -> tuple[dict[int, int], str | None]:
    """``{type: GPUs}`` of job j's gang in a round, or a violation."""
    g = int(w.scale_factor[j])
    if isinstance(where, Mapping):
        gang = {int(r): int(n) for r, n in where.items() if int(n) != 0}
        if rule == "single" and len(gang) > 1:
            return gang, f"job {j} spans types {sorted(gang)} under the 'single' rule"
    else:
        gang = {int(where): g}
    if any(not 0 <= r < w.n_types for r in gang) or any(n < 0 for n in gang.values()):
        return gang, f"job {j} is placed on {where!r}: not GPU types of the workload with GPU counts >= 0"
    if sum(gang.values()) != g:
        return gang, f"job {j} holds {sum(gang.values())} GPUs; its gang is {g} (gangs are whole)"
    return gang, None


def _check_servers(w: Workload, k: int, j: int, gang: dict[int, int], held: Any, used: np.ndarray) -> list[str]:
    out = []
    per_type: dict[int, int] = {}
    for item in held:
        s, n = int(item[0]), int(item[1])
        if not 0 <= s < w.server_type.size or n < 1:
            out.append(f"round {k}: job {j} holds {n} GPUs of server {s}, not a server of the workload with n >= 1")
            continue
        used[s] += n
        per_type[int(w.server_type[s])] = per_type.get(int(w.server_type[s]), 0) + n
    if per_type != gang:
        out.append(f"round {k}: job {j}'s servers give GPUs by type {per_type}, its placement {gang}")
    return out


def _round(w: Workload, k: int, rd: Mapping[str, Any], rule: str, state: dict[str, np.ndarray]) -> list[str]:
    """The violations of round ``k``; updates the steps run and the last finish of each job."""
    out: list[str] = []
    start, end = float(rd["start"]), float(rd["end"])
    tol = RTOL * max(abs(start), abs(end), end - start)
    if end < start:
        out.append(f"round {k} ends at {end:.9g} s before it starts at {start:.9g} s")
    if start < state["prev_end"][0] - tol:
        out.append(f"round {k} starts at {start:.9g} s before round {k - 1} ends at {state['prev_end'][0]:.9g} s")
    state["prev_end"][0] = end
    by_type = np.zeros(w.n_types, dtype=np.int64)
    by_server = np.zeros(w.server_type.size, dtype=np.int64)
    seconds, servers = rd.get("seconds") or {}, rd.get("servers") or {}
    T = np.asarray(w.throughput, dtype=float)
    for jj, where in rd["placement"].items():
        j = int(jj)
        if not 0 <= j < w.n_jobs:
            out.append(f"round {k}: job {j} does not exist")
            continue
        gang, bad = _gang(w, j, where, rule)
        if bad:
            out.append(f"round {k}: {bad}")
            continue
        for r, n in gang.items():
            by_type[r] += n
        held = _get(servers, j)
        if held is not None:
            out += _check_servers(w, k, j, gang, held, by_server)
        if start < w.arrival[j] - RTOL * max(abs(w.arrival[j]), end - start):
            out.append(f"round {k}: job {j} runs at {start:.9g} s before its arrival {w.arrival[j]:.9g} s")
        if state["done"][j] >= w.steps[j] * (1 - RTOL):
            out.append(f"round {k}: job {j} runs after it completed")
        rate = min(T[j, r] for r in gang)
        if rate <= 0:
            out.append(f"round {k}: job {j} runs on {sorted(gang)} where its throughput is 0")
        sec = _get(seconds, j)
        dt = float(sec) if sec is not None else end - start
        if dt < 0 or dt > end - start + tol:
            out.append(f"round {k}: job {j} runs {dt:.9g} s in the round [{start:.9g}, {end:.9g}]")
        state["done"][j] += rate * dt
        state["last"][j] = start + dt
    cap = np.asarray(w.capacity)
    for t in np.flatnonzero(by_type > cap):
        out.append(f"round {k}: {by_type[t]} GPUs of type {w.gpu_types[t]} > capacity {cap[t]}")
    if servers:
        for s in np.flatnonzero(by_server > np.asarray(w.server_gpus)):
            out.append(f"round {k}: {by_server[s]} GPUs of server {s} > its {w.server_gpus[s]}")
    return out


@takes_instance(Workload)
def check_schedule(w: Workload, sol: Any, *, rule: str = "single") -> CheckReport:
    """Check a :class:`~hetopt.arena.schedule.RoundSchedule` against ``w`` (see the module docstring).

    Parameters
    ----------
    w : Workload
    sol : RoundSchedule
    rule : {"single", "bottleneck"}
        Whether a gang may span GPU types (then at its slowest type's rate).

    Returns
    -------
    CheckReport
        ``objective``: the schedule's metric recomputed from the rounds; ``info["completion"]``.
    """
    check_choice(rule, "rule", ("single", "bottleneck"))
    if not isinstance(sol, RoundSchedule):
        raise ArgumentError(f"sol is {a_type(sol)}; expected a RoundSchedule (hetopt.arena.exact.solve_exact)")
    state = {"done": np.zeros(w.n_jobs), "last": np.full(w.n_jobs, np.nan), "prev_end": np.array([-np.inf])}
    out: list[str] = []
    for k, rd in enumerate(sol.rounds):
        out += _round(w, k, rd, rule, state)
    steps = np.asarray(w.steps, dtype=float)
    for j in np.flatnonzero(np.abs(state["done"] - steps) > RTOL * steps)[:5]:
        out.append(f"job {j} runs {state['done'][j]:.9g} steps in its rounds; it needs {steps[j]:.9g}")
    last = state["last"]
    if not np.all(np.isfinite(last)):
        out.append(f"jobs {np.flatnonzero(~np.isfinite(last))[:5].tolist()} never run")
        return CheckReport.from_violations(out, None, completion=last)
    completion = np.asarray(sol.completion, dtype=float)
    if completion.shape != last.shape or not np.allclose(completion, last, rtol=RTOL, atol=0.0):
        out.append(f"reported completions {np.round(completion, 6).tolist()[:5]} differ from the rounds' "
                   f"{np.round(last, 6).tolist()[:5]}")
    jct = last - np.asarray(w.arrival, dtype=float)
    if np.shape(sol.jct) != jct.shape or not np.allclose(sol.jct, jct, rtol=RTOL, atol=RTOL * float(np.max(last))):
        out.append("reported JCTs differ from completion - arrival recomputed from the rounds")
    weights = np.asarray(sol.weights, dtype=float) if np.size(sol.weights) == w.n_jobs else np.asarray(w.weight)
    value = float(weights @ jct / weights.sum()) if sol.metric == "average_jct" else float(np.max(last))
    if sol.objective is None or not np.isclose(sol.objective, value, rtol=RTOL, atol=0.0):
        out.append(f"reported {sol.metric} {sol.objective!r} != recomputed {value:.9g}")
    if sol.bound is not None and value < sol.bound * (1 - RTOL):
        out.append(f"recomputed {sol.metric} {value:.9g} is below the reported lower bound {sol.bound:.9g}")
    return CheckReport.from_violations(out, value, completion=last)
