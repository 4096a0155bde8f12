"""Command-line contract of :mod:`hetopt.contention` (``hetopt validate|bench contention``).

The paper's claims (``hetopt claims contention``, ``hetopt reproduce contention``) are in
:mod:`hetopt.claims.contention`.
"""

from __future__ import annotations

import functools
import time
from typing import Any, Callable

from ..report import Table
from ..validate import sweep
from .exact import solve_exact
from .instance import KIND, ContentionInstance
from .model import build_milp
from .scheduling import ada_srsf, srsf
from .solution import ContentionSolution
from .workload import generate_workload, tiny_instance

__all__ = ["KIND", "METHODS", "INSTANCE", "solution_summary", "validate", "bench",
           "export_model", "milp_srsf1"]

def milp_srsf1(inst: ContentionInstance) -> ContentionSolution:
    """The exact contention-free MILP on the placement LWF-1 gives under SRSF(1)."""
    from ..inputs import check_instance

    check_instance(inst, ContentionInstance, "inst")
    ref = srsf(inst, 1)
    return solve_exact(inst, ref.placement, upper_bound=ref.objective)


METHODS: dict[str, Callable[[ContentionInstance], ContentionSolution]] = {
    "ada_srsf": ada_srsf,
    "srsf1": functools.partial(srsf, n=1),
    "srsf2": functools.partial(srsf, n=2),
    "srsf3": functools.partial(srsf, n=3),
    "ada_srsf_lwf2": functools.partial(ada_srsf, kappa=2),
    "ada_srsf_lwf4": functools.partial(ada_srsf, kappa=4),
    "ada_srsf_ff": functools.partial(ada_srsf, placement="ff"),
    "ada_srsf_ls": functools.partial(ada_srsf, placement="ls"),
    "ada_srsf_rand": functools.partial(ada_srsf, placement="rand", seed=0),
    "exact": milp_srsf1,
}


#: the instance class of kind 'contention' (``hetopt.load_instance`` builds it with ``from_dict``)
INSTANCE = ContentionInstance


def solution_summary(sol: ContentionSolution) -> dict[str, Any]:
    return {
        "status": sol.status.value,
        "method": sol.solver,
        "total_jct": sol.objective,
        "bound": sol.bound,
        "average_jct": sol.average_jct,
        "median_jct": sol.median_jct,
        "p95_jct": sol.p95_jct,
        "avg_gpu_utilization": sol.avg_gpu_utilization,
        "makespan": sol.makespan,
        "jct": [float(x) for x in sol.jct],
        "placement": [list(p) for p in sol.placement],
        "wall_time": sol.wall_time,
    }


def export_model(inst: ContentionInstance):
    """The exact MILP on SRSF(1)'s LWF-1 placement (tiny integral instances only)."""
    ref = srsf(inst, 1)
    return build_milp(inst, ref.placement, upper_bound=ref.objective)


# ----------------------------------------------------------------- validate
_VALIDATE_POLICIES = {
    "SRSF(1)": (functools.partial(srsf, n=1), True),
    "FF+SRSF(1)": (functools.partial(srsf, n=1, placement="ff"), True),
    "LS+SRSF(1)": (functools.partial(srsf, n=1, placement="ls"), True),
    "RAND+SRSF(1)": (functools.partial(srsf, n=1, placement="rand", seed=0), True),
    "SRSF(2)": (functools.partial(srsf, n=2), False),
    "SRSF(3)": (functools.partial(srsf, n=3), False),
    "Ada-SRSF": (ada_srsf, False),
}


def _validate_one(inst: ContentionInstance) -> dict[str, Any]:
    cache: dict[tuple, ContentionSolution] = {}
    out: dict[str, Any] = {}
    for name, (fn, no_contention) in _VALIDATE_POLICIES.items():
        sol = fn(inst)
        if sol.placement not in cache:
            ub = srsf(inst, 1, placement=[list(p) for p in sol.placement]).objective
            cache[sol.placement] = solve_exact(inst, sol.placement, upper_bound=ub)
        opt = cache[sol.placement]
        out[name] = (sol.objective, opt.objective, opt.is_optimal, no_contention)
    return out


def validate(n: int = 20, *, seed: int = 0) -> Table:
    """Heuristics against the exact contention-free MILP (same placement) on tiny instances."""
    seeds = list(range(seed, seed + n))
    results = sweep(tiny_instance, _validate_one, seeds, executor="serial")
    names = list(_VALIDATE_POLICIES)
    table = Table("Heuristic total JCT / exact contention-free optimum for the same placement (tiny instances)",
                  ["seed", "opt (LWF-1)", *names, "no-contention bound holds"])
    below = 0
    table.violations = 0
    for s, r in zip(seeds, results):
        holds = all(v >= o - 1e-6 for v, o, proven, nc in r.values() if nc and proven)
        table.violations += not holds
        below += sum(1 for v, o, proven, nc in r.values() if not nc and proven and v < o - 1e-6)
        table.add(s, r["SRSF(1)"][1], *[r[k][0] / r[k][1] for k in names], holds)
    table.notes.append("SRSF(1) and the FF/LS/RAND placements with SRSF(1) schedule without contention, so the MILP "
                       "optimum on their placement is a certified lower bound (last column).")
    table.notes.append(f"Runs of contention-accepting policies below the contention-free optimum: {below} "
                       "(allowed: the MILP does not model eq. (5) with k >= 2).")
    table.notes.append(results.note())
    return table


# -------------------------------------------------------------------- bench
_PAPER_AVG_JCT = {"SRSF(1)": 1374.84, "SRSF(2)": 1734.74, "SRSF(3)": 1750.9, "Ada-SRSF": 1098.57,
                  "FF+Ada": 1921.1, "LS+Ada": 2282.41, "RAND+Ada": 2881.6}


def bench(quick: bool = False) -> list[Table]:
    """Average JCT, utilisation, time per policy on the Section V-A workload, ratios to Ada-SRSF."""
    inst = generate_workload(seed=0)
    if quick:
        inst = generate_workload(seed=0, n_jobs=40, n_servers=8, iterations=(20, 120), arrival_window=30.0)
    runs = {
        "Ada-SRSF": ada_srsf,
        "SRSF(1)": functools.partial(srsf, n=1),
        "SRSF(2)": functools.partial(srsf, n=2),
        "SRSF(3)": functools.partial(srsf, n=3),
        "FF+Ada": functools.partial(ada_srsf, placement="ff"),
        "LS+Ada": functools.partial(ada_srsf, placement="ls"),
        "RAND+Ada": functools.partial(ada_srsf, placement="rand", seed=0),
        "LWF-2+Ada": functools.partial(ada_srsf, kappa=2),
    }
    sols = {}
    for name, fn in runs.items():
        t0, c0 = time.perf_counter(), time.process_time()
        sol = fn(inst)
        sols[name] = (sol, time.perf_counter() - t0, time.process_time() - c0)
    ref = sols["Ada-SRSF"][0].average_jct
    title = ("Policies on the Section V-A workload (160 jobs, 64 V100, seed 0)" if not quick
             else "Policies on a small workload (40 jobs, 32 GPUs, 20-120 iterations, arrivals in 30 s, seed 0)")
    t = Table(title, ["policy", "avg JCT (s)", "median JCT", "95th JCT", "avg GPU util", "events", "wall (s)",
                      "cpu (s)", "avg JCT / Ada-SRSF", "paper avg JCT", "paper ratio"])
    for name, (sol, wall, cpu) in sols.items():
        paper = _PAPER_AVG_JCT.get(name)
        t.add(name, sol.average_jct, sol.median_jct, sol.p95_jct, sol.avg_gpu_utilization, sol.n_events, wall, cpu,
              sol.average_jct / ref, paper, None if paper is None else paper / _PAPER_AVG_JCT["Ada-SRSF"])
    t.notes.append("Paper: Ada-SRSF 20.1% / 36.7% lower average JCT than SRSF(1) / SRSF(2) (Table V); "
                   "LWF-1 42.8% lower than FF (Table IV).")
    tm = Table("Exact MILP on tiny instances", ["seed", "binaries", "MILP time (s)", "status", "opt", "SRSF(1)"])
    for s in range(2 if quick else 6):
        inst_t = tiny_instance(seed=s)
        ref1 = srsf(inst_t, 1)
        m = build_milp(inst_t, ref1.placement, upper_bound=ref1.objective)
        opt = solve_exact(inst_t, ref1.placement, upper_bound=ref1.objective)
        tm.add(s, len(m.x), opt.wall_time, opt.status.value, opt.objective, ref1.objective)
    return [t, tm]
