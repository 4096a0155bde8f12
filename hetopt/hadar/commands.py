"""The ``hetopt`` commands for Hadar / HadarE (paper name ``hadar``): validate, bench, solve, export.

The paper's claims are in the ledger (:mod:`hetopt.claims.hadar`, ``hetopt claims hadar``)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..report import Table
from ..result import Solution
from .instance import KIND, HadarInstance
from .model import build_p1
from .offline import solve_exact
from .policies import POLICIES
from .price import price_parameters
from .result import HadarSolution, SimulationResult
from .simulator import simulate
from .validate import ratio_sweep
from .workloads import trace_workload

__all__ = ["KIND", "METHODS", "INSTANCE", "solution_summary", "validate", "bench", "export_model"]


def _sim(policy: str):
    def run(inst: HadarInstance) -> SimulationResult:
        return simulate(inst, policy)

    run.__name__ = f"simulate_{policy}"
    run.__doc__ = f"Simulate policy {policy!r} with rounds of one slot and the 10 s restart delay."
    return run


#: Method name -> callable(inst) -> Solution.
METHODS = {"exact": solve_exact, **{name: _sim(name) for name in POLICIES}}


#: the instance class of kind 'hadar' (``hetopt.load_instance`` builds it with ``from_dict``)
INSTANCE = HadarInstance


def solution_summary(sol: Solution) -> dict[str, Any]:
    out: dict[str, Any] = {"status": sol.status.value, "objective": sol.objective, "bound": sol.bound,
                           "gap": sol.gap, "wall_time": sol.wall_time, "solver": sol.solver}
    if isinstance(sol, HadarSolution):
        out.update(total_utility=sol.total_utility, finish_slot=sol.finish_slot.tolist(), jct=sol.jct.tolist())
    if isinstance(sol, SimulationResult):
        out.update(policy=sol.policy, total_utility=sol.total_utility, total_duration=sol.total_duration,
                   average_jct=sol.average_jct, utilization=sol.utilization, job_utilization=sol.job_utilization,
                   cluster_utilization=sol.cluster_utilization, rounds=len(sol.rounds), jct=sol.jct.tolist())
    return out


def validate(n: int, *, seed: int) -> Table:
    """Certified OPT(P1) against Hadar's utility and 2*alpha on ``n`` seeded small instances."""
    return ratio_sweep(n, seed=seed, executor="serial")


def bench(quick: bool = False) -> list[Table]:
    """Scalability: one Hadar round and Gavel's LP at 2,048 jobs; the trace simulation per policy."""
    from ..gavel import max_min_fairness
    from .allocation import dp_allocation

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
    res = {}
    for p in POLICIES:
        t0 = time.perf_counter()
        res[p] = simulate(tr, p, round_length=360.0, record_rounds=False)
        res[p] = (res[p], time.perf_counter() - t0)
    base = res["hadar"][0].total_duration
    for p, (r, dt) in res.items():
        sims.add(p, dt, r.total_duration / 3600, r.average_jct / 3600, r.utilization, r.total_duration / base,
                 dt <= 60.0)
    from .bench_scale import p1_scale

    return [rows, sims, p1_scale(quick)]


def export_model(inst: HadarInstance):
    """P1 as the exact time-indexed MILP."""
    return build_p1(inst)
