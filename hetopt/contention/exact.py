"""Solve the contention-free time-indexed MILP and read its schedule back.

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Section III, eq. (6).
"""

from __future__ import annotations

import time
from typing import Sequence

import numpy as np
import pyomo.environ as pyo

from ..errors import InfeasibleError
from ..solvers import solve_model
from .instance import ContentionInstance
from .model import MILP_MAX_BINARIES, build_milp
from .solution import ContentionSolution, TaskRecord, jct_metrics

__all__ = ["solve_exact"]


def solve_exact(
    inst: ContentionInstance,
    placement: Sequence[Sequence[int]],
    *,
    slot: float = 1.0,
    upper_bound: float | None = None,
    solver: str = "highs",
    time_limit: float | None = None,
    threads: int = 1,
    max_binaries: int = MILP_MAX_BINARIES,
) -> ContentionSolution:
    """Optimal contention-free schedule for a fixed placement (:func:`build_milp`).

    Like every ``solve_exact`` of the package it has no time limit unless ``time_limit`` (seconds)
    is given; ``max_binaries`` guards the model's size.

    Returns
    -------
    ContentionSolution
        OPTIMAL with ``bound`` = the certified optimum when the solver proves it (TIME_LIMIT
        or FEASIBLE otherwise, with the solver's dual bound); the schedule is in ``trace``
        (``placed_at`` = arrival: memory does not bind in this model).

    Raises
    ------
    InfeasibleError
        ``upper_bound`` is below the optimum (never reported as OPTIMAL).
    """
    t0 = time.perf_counter()
    m = build_milp(inst, placement, slot=slot, upper_bound=upper_bound, max_binaries=max_binaries)
    try:
        res = solve_model(m, solver, time_limit=time_limit, threads=threads)
    except InfeasibleError as exc:
        if upper_bound is None:  # pragma: no cover - the model without a bound always has a schedule
            raise
        raise InfeasibleError(f"no contention-free schedule with this placement has total JCT <= upper_bound = "
                              f"{upper_bound}: the bound is below the optimum ({exc})") from None
    slot = m.slot
    trace = []
    for key in m.TASKS:
        kind = key[0]
        if kind == "s":
            continue
        s = round(pyo.value(m.S[key])) * slot
        p = m.p[key] * slot
        if kind == "c":
            k, i = key[1], key[2]
            trace.append(TaskRecord("c", k, i, m.grid.tasks[key][2], s, s + p))
        else:
            trace.append(TaskRecord(kind, key[1], key[2], key[3], s, s + p))
    finish = np.array([round(pyo.value(m.F[k])) * slot for k in m.JOBS], dtype=float)
    jct = finish - inst.arrival
    busy = np.zeros(inst.n_total_gpus)
    for r in trace:
        if r.kind != "c":
            busy[r.where] += r.end - r.start
    makespan = float(finish.max() - inst.arrival.min())
    util = busy / makespan if makespan > 0 else busy
    return ContentionSolution(
        status=res.status,
        objective=float(jct.sum()),
        bound=res.bound,
        gap=res.gap,
        wall_time=time.perf_counter() - t0,
        solver=f"milp-{solver}",
        message=res.message,
        finish=finish,
        jct=jct,
        placement=tuple(tuple(int(g) for g in p) for p in placement),
        placed_at=inst.arrival.copy(),
        gpu_busy=busy,
        gpu_utilization=util,
        avg_gpu_utilization=float(util.mean()),
        makespan=makespan,
        trace=tuple(sorted(trace, key=lambda r: (r.start, r.kind, r.job))),
        **jct_metrics(jct),
    )
