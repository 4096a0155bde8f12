"""Validators for placement: optimality-gap reports against the certified optimum (Figs. 9-10)."""

from __future__ import annotations

import time
from functools import partial
from typing import Any, Callable, Sequence

import numpy as np

from ..report import Table
from ..validate import gap_certificate, sweep
from .baselines import las, optimus, optimus_lb
from .exact import solve_exact
from .generators import generate_instance
from .has import has
from .sampling import jps

__all__ = ["gap_report", "evaluate_methods", "reset_report", "DEFAULT_METHODS"]

#: Methods compared by :func:`gap_report` (name -> callable(instance) -> PlacementSolution).
DEFAULT_METHODS: dict[str, Callable] = {
    "has": has,
    "jps": partial(jps, n_samples=20, seed=0),
    "optimus": optimus,
    "optimus_lb": optimus_lb,
    "las": las,
}


def evaluate_methods(inst, methods: dict[str, Callable] | None = None) -> dict[str, Any]:
    """Run every method and the certified optimum on one instance; JCT ratios and fairness.

    Returns a dict with the optimum's status and bound and, per method, ``ratio`` (average JCT
    over the certified optimum), ``fairness``, ``time`` and ``beats_optimum`` (a heuristic below
    the certified bound would be a bug, reported rather than hidden).
    """
    methods = methods or DEFAULT_METHODS
    opt = solve_exact(inst)
    out: dict[str, Any] = {"optimum": opt.objective, "bound": opt.bound, "status": opt.status.value,
                           "opt_time": opt.wall_time, "methods": {}}
    for name, f in methods.items():
        t0 = time.perf_counter()
        sol = f(inst)
        dt = time.perf_counter() - t0
        cert = gap_certificate(sol.objective, opt, sense="min", name=name)
        out["methods"][name] = {"ratio": cert.ratio, "fairness": sol.fairness, "time": dt, "proven": cert.proven,
                                "beats_optimum": bool(sol.objective < opt.bound * (1 - 1e-9))}
    return out


def _make(seed: int, n_jobs: int, n_workers: int, communication: bool):
    return generate_instance(n_jobs, n_workers, seed=seed, communication=communication)


def gap_report(n: int = 20, seed: int = 0, *, n_jobs: int = 4, n_workers: int = 15, communication: bool = True,
               methods: dict[str, Callable] | None = None, executor: Any = None) -> Table:
    """Average JCT of each method normalized by the certified optimum (Fig. 9), fairness (Fig. 10),
    wall time, over ``n`` instances of :func:`generate_instance` with seeds ``seed .. seed+n-1``."""
    res = sweep(partial(_make, n_jobs=n_jobs, n_workers=n_workers, communication=communication),
                partial(evaluate_methods, methods=methods), range(seed, seed + n), executor=executor)
    names = list((methods or DEFAULT_METHODS).keys())
    table = Table(f"placement: JCT / certified optimum over {n} instances (S={n_jobs}, K={n_workers}, "
                  f"communication={'on' if communication else 'off'})",
                  ["method", "mean ratio", "max ratio", "optimal in", "mean fairness", "mean time [s]", "below bound"])
    for name in names:
        r = np.array([x["methods"][name]["ratio"] for x in res])
        table.add(name, float(r.mean()), float(r.max()), f"{int((r <= 1 + 1e-9).sum())}/{n}",
                  float(np.mean([x["methods"][name]["fairness"] for x in res])),
                  float(np.mean([x["methods"][name]["time"] for x in res])),
                  sum(x["methods"][name]["beats_optimum"] for x in res))
    opt_ok = sum(x["status"] == "optimal" for x in res)
    table.add("solve_exact", 1.0, 1.0, f"{opt_ok}/{n} certified", float("nan"), float(np.mean([x["opt_time"] for x in res])), 0)
    table.notes.append("ratio = average JCT / certified optimum of P1 (solve_exact, HiGHS outer approximation); "
                       "'below bound' counts heuristic results under the certified lower bound (must be 0).")
    return table


def reset_report(inst, methods: Sequence[str] = ("has", "jps", "optimus_lb", "exact"), gavel_scale_factor: int | None = 5) -> Table:
    """Static vs dynamic policies (Fig. 17): average JCT and makespan with and without reset events,
    and Gavel (dynamic only) with a fixed scale factor per job."""
    from .simulator import simulate

    t = Table("placement: static vs dynamic policies (reset on every completion)",
              ["method", "static avg JCT", "dynamic avg JCT", "JCT change", "static makespan", "dynamic makespan",
               "makespan change"])
    for name in methods:
        st = simulate(inst, name, reset_on_completion=False)
        dy = simulate(inst, name, reset_on_completion=True)
        t.add(name, st.average_jct, dy.average_jct, dy.average_jct / st.average_jct - 1, st.makespan, dy.makespan,
              dy.makespan / st.makespan - 1)
    if gavel_scale_factor is not None:
        g = simulate(inst, "gavel", scale_factor=gavel_scale_factor)
        t.add(f"gavel (scale_factor={gavel_scale_factor})", None, g.average_jct, None, None, g.makespan, None)
    return t
