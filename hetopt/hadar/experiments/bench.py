"""Benchmarks of :mod:`hetopt.hadar` (``hetopt bench hadar``): times and ratios measured in one run.

One Hadar round and Gavel's LP at 2,048 jobs; the trace simulation per policy; and the scale
benchmark of Hadar's P1: the largest instance (jobs on 4 machines of 2 GPU types) whose offline
optimum HiGHS / SCIP certify within 60 s, and the gap one size further.
"""

from __future__ import annotations

import time

import numpy as np

from ...bench.scale import largest_certified
from ...gavel import max_min_fairness
from ...report import Table
from .. import (
    POLICIES,
    HadarInstance,
    HadarSimulation,
    dp_allocation,
    generate_instance,
    price_parameters,
    simulate,
    solve_exact,
    trace_workload,
)

__all__ = ["bench", "p1_scale", "p1_instance"]


def p1_instance(n_jobs: int, n_machines: int = 4, *, seed: int = 0) -> HadarInstance:
    """:func:`~hetopt.hadar.instance.generate_instance` with arrivals in 0..4 and 1-3 slots of work."""
    return generate_instance(n_jobs=n_jobs, n_machines=n_machines, seed=seed, max_arrival=4, max_slots=3)


def p1_scale(quick: bool = False, time_limit: float | None = None) -> Table:
    """Seconds to a certified P1 optimum per job count and solver (time-indexed MILP, 1 thread)."""
    sizes = [2, 4] if quick else [4, 8, 12, 16, 24]
    limit = time_limit or (10.0 if quick else 60.0)
    engines = {
        "P1 MILP, HiGHS": lambda inst, time_limit: solve_exact(inst, time_limit=time_limit, solver="highs"),
        "P1 MILP, SCIP": lambda inst, time_limit: solve_exact(inst, time_limit=time_limit, solver="scip"),
    }
    t = largest_certified(p1_instance, sizes, engines, time_limit=limit,
                          title="Hadar P1 offline optimum: seconds to proof (4 machines, 2 GPU types, seed 0)",
                          size_name="jobs")
    t.notes.append("before this table P1 was certified only on the validation sweep's 4-job instances")
    return t


def bench(quick: bool = False) -> list[Table]:
    """Scalability: one Hadar round and Gavel's LP at 2,048 jobs; the trace simulation per policy; P1's scale."""
    n_big = 128 if quick else 2048
    machines = max(3, round(15 * n_big / 480))
    inst = trace_workload(n_big, seed=1, n_machines=machines)
    rows = Table(f"hadar: scheduling time per round ({n_big} jobs, {machines} machines of 4 GPUs)",
                 ["method", "seconds", "goal (s)", "within goal"])
    params = price_parameters(inst)
    queue = np.arange(inst.n_jobs)
    for beam in (1, 4):
        t0 = time.perf_counter()
        dp_allocation(inst, queue, inst.total_iterations.astype(float), 0.0, params=params, beam_width=beam,
                      work_conserving=True)
        dt = time.perf_counter() - t0
        rows.add(f"Hadar round, DP beam {beam}", dt, 5.0, dt <= 5.0)
    T = inst.throughput * inst.gpus[:, None]
    t0 = time.perf_counter()
    max_min_fairness(T, inst.gpus, inst.capacity.sum(axis=0))
    dt = time.perf_counter() - t0
    rows.add("Gavel max-min fairness LP", dt, 10.0, dt <= 10.0)
    n_trace = 48 if quick else 480
    tr = trace_workload(n_trace, seed=0, n_machines=6 if quick else 15, hours_scale=0.05 if quick else 1.0)
    sims = Table(f"hadar: trace simulation per policy ({n_trace} jobs, 6-minute rounds)",
                 ["policy", "seconds", "TTD (h)", "avg JCT (h)", "GRU", "TTD / Hadar TTD", "within 60 s"])
    res: dict[str, tuple[HadarSimulation, float]] = {}
    for p in POLICIES:
        t0 = time.perf_counter()
        run = simulate(tr, p, round_length=360.0, record_rounds=False)
        res[p] = (run, time.perf_counter() - t0)
    base = res["hadar"][0].total_duration
    for p, (r, dt) in res.items():
        sims.add(p, dt, r.total_duration / 3600, r.average_jct / 3600, r.utilization, r.total_duration / base,
                 dt <= 60.0)

    return [rows, sims, p1_scale(quick)]
