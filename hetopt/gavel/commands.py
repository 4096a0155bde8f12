"""The ``hetopt`` contract for Gavel (kind ``"gavel"``): methods, loading, summaries, validate, bench.

Methods (``hetopt solve INSTANCE --method NAME``): every policy of
:data:`hetopt.gavel.POLICIES` by its name (the allocation LP over all the instance's jobs,
arrivals ignored) and ``simulate_<policy>`` (the round simulator of
:func:`hetopt.gavel.simulate` with Gavel's defaults: 360 s rounds, recomputation at most
every 1,920 s).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..errors import HetoptError
from ..report import Table
from ..result import OPTIMAL_RTOL, Solution, Status, relative_gap
from ..validate import instance_digest
from .instance import KIND, GavelInstance
from .policies import POLICIES
from .simulator import GavelSimulation, _policy_args, simulate
from .workload import generate_workload

__all__ = ["KIND", "METHODS", "GavelAllocation", "allocate", "INSTANCE", "solution_summary",
           "validate", "bench", "export_model"]


@dataclass(frozen=True, kw_only=True)
class GavelAllocation(Solution):
    """A policy's allocation for every job of an instance (all present at once).

    ``objective`` is the makespan in seconds if the allocation were kept until every job
    finished (``max_j total_steps[j] / sum_r X[j, r] T[j, r]``), a yardstick common to all
    policies, recomputed from the allocation.  It is what min-total-duration minimizes, so
    that policy's result has status OPTIMAL; the other policies optimize their own objective
    (``models/gavel.md``), so for them the makespan is only evaluated and the status is FEASIBLE.
    """

    policy: str = ""
    allocation: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    job_throughput: np.ndarray = field(default_factory=lambda: np.zeros(0))


def allocate(inst: GavelInstance, policy: str = "max_min_fairness") -> GavelAllocation:
    """Solve a Gavel policy for all the jobs of ``inst`` (arrivals ignored, total steps as remaining)."""
    from ..inputs import check_instance

    check_instance(inst, GavelInstance, "inst")
    if policy not in POLICIES:
        raise ValueError(f"policy is {policy!r}; expected one of {', '.join(POLICIES)}")
    t0 = time.perf_counter()
    T = inst.effective_throughput()
    bound = None
    if policy == "min_total_duration":  # the LP's optimum bounds the makespan: a certified optimum
        from .makespan import solve_min_total_duration

        r = solve_min_total_duration(T, inst.scale_factor, inst.capacity, inst.total_steps)
        X, bound = np.asarray(r.allocation), float(r.lp_makespan)
    else:
        X = np.asarray(POLICIES[policy](T, inst.scale_factor, inst.capacity,
                                        **_policy_args(policy, inst.priority_weight, inst.total_steps)))
    rate = (X * T).sum(axis=1)
    with np.errstate(divide="ignore"):
        span = float(np.max(np.where(rate > 0, inst.total_steps / np.where(rate > 0, rate, 1.0), np.inf)))
    status = Status.FEASIBLE
    if bound is not None:
        bound = min(bound, span)
        gap = relative_gap(span, bound)
        status = Status.OPTIMAL if gap is not None and gap <= OPTIMAL_RTOL else Status.FEASIBLE
    return GavelAllocation(status=status, objective=span, bound=bound, gap=relative_gap(span, bound),
                           wall_time=time.perf_counter() - t0, solver="highs", policy=policy, allocation=X,
                           job_throughput=rate,
                           message="objective: makespan if the allocation were kept until every job finished")


#: method name -> callable(inst) -> Solution
METHODS: dict[str, Callable[[GavelInstance], Solution]] = {
    **{name: functools.partial(allocate, policy=name) for name in POLICIES},
    **{f"simulate_{name}": functools.partial(simulate, policy=name) for name in POLICIES},
}


#: the instance class of kind 'gavel' (``hetopt.load_instance`` builds it with ``from_dict``)
INSTANCE = GavelInstance


def solution_summary(sol: Solution) -> dict[str, Any]:
    """JSON-serializable summary of an allocation or a simulation."""
    out: dict[str, Any] = {"status": sol.status.value, "objective": sol.objective, "wall_time": sol.wall_time,
                           "solver": sol.solver}
    if isinstance(sol, GavelAllocation):
        out.update(policy=sol.policy, allocation=sol.allocation.tolist(), job_throughput=sol.job_throughput.tolist())
    if isinstance(sol, GavelSimulation):
        out.update(policy=sol.policy, average_jct=sol.average_jct, makespan=sol.makespan,
                   recomputations=sol.recomputations, rounds=len(sol.rounds), completion=sol.completion.tolist(),
                   jct=sol.jct.tolist())
    return out


def validate(n: int = 20, *, seed: int = 0) -> Table:
    """Seeded workloads: every simulation completes every job, and no job finishes before its
    lower bound ``arrival + total_steps / max_r throughput``."""
    t = Table(f"gavel: {n} seeded workloads (8 jobs, 2 GPUs per type, 4 jobs/hour), every policy simulated",
              ["policy", "workloads", "all jobs complete", "JCT >= isolated bound", "mean avg JCT (h)"])
    insts = [generate_workload(8, capacity=(2, 2, 2), jobs_per_hour=4.0, seed=seed + k) for k in range(n)]
    for name in POLICIES:
        ok = lb = 0
        jcts = []
        for inst in insts:
            r = simulate(inst, name, record_rounds=False)
            ok += bool(np.all(np.isfinite(r.completion)))
            bound = inst.total_steps / inst.effective_throughput().max(axis=1)
            lb += bool(np.all(r.jct >= bound * (1 - 1e-9)))
            jcts.append(r.average_jct / 3600)
        t.add(name, n, ok, lb, float(np.mean(jcts)))
        t.violations = (t.violations or 0) + (n - ok) + (n - lb)
    t.notes.append(f"{len({instance_digest(i) for i in insts})} distinct instances among {n} seeds")
    return t


def bench(quick: bool = False) -> list[Table]:
    """Seconds per policy LP and per simulation, by number of jobs."""
    sizes = (16, 64) if quick else (16, 64, 256)
    t = Table("gavel: seconds per allocation (all jobs at once) and per simulation (8 GPUs per type, 12 jobs/hour)",
              ["jobs", "policy", "allocation s", "simulation s", "avg JCT (h)", "makespan (h)"])
    for n in sizes:
        inst = generate_workload(n, capacity=(8, 8, 8), jobs_per_hour=12.0, seed=n)
        for name in POLICIES:
            try:
                a = allocate(inst, name)
                s = simulate(inst, name, record_rounds=False)
            except HetoptError as exc:  # a policy LP that fails is reported in the table, not hidden
                t.add(n, name, None, None, None, None)
                t.notes.append(f"{name}, {n} jobs: {exc}")
                continue
            t.add(n, name, a.wall_time, s.wall_time, s.average_jct / 3600, s.makespan / 3600)
    return [t]


def export_model(inst: GavelInstance):
    """Not available: Gavel's policies are CVXPY problems (``hetopt.gavel.build_*``), not Pyomo models."""
    raise HetoptError("gavel instances have no Pyomo model to export; build the CVXPY problem with "
                      "hetopt.gavel.build_max_min_fairness (or another build_*) and write it with cvxpy")
