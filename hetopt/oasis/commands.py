"""CLI contract of ``hetopt`` for OASiS: solve, validate, bench, export (the paper's claims: ``hetopt.claims.oasis``)."""

from __future__ import annotations

import functools
import time
from typing import Any, Callable

from ..report import Table
from ..result import Solution
from .figures import SCHEMES
from .generator import generate_instance
from .instance import KIND, OasisInstance
from .model import build_offline
from .offline import solve_exact
from .online import online
from .oracle import best_schedule
from .prices import Usage, price_bounds, prices_from_usage
from .schedule import OasisSolution, check_schedule
from .validate import ratio_sweep, ratio_table

__all__ = ["KIND", "METHODS", "INSTANCE", "solution_summary", "validate", "bench", "export_model",
           "decision_time", "SCHEMES"]


#: ln(U/L) cap of the ``oasis_capped`` method (an option of hetopt; ``oasis`` is the literal (25)-(26)).
CAPPED_LOG_RATIO = 15.0

METHODS: dict[str, Callable[[OasisInstance], Solution]] = {
    **SCHEMES, "oasis_capped": functools.partial(online, log_ratio_cap=CAPPED_LOG_RATIO), "exact": solve_exact}


#: the instance class of kind 'oasis' (``hetopt.load_instance`` builds it with ``from_dict``)
INSTANCE = OasisInstance


def solution_summary(sol: OasisSolution) -> dict[str, Any]:
    return {
        "method": sol.solver, "status": sol.status.value, "total_utility": sol.total_utility,
        "bound": sol.bound, "admitted": list(sol.admitted),
        "completion": {int(i): s.completion for i, s in sol.schedules.items()},
        "timeliness": {int(i): v for i, v in sol.timeliness.items()},
        "wall_time": sol.wall_time, "message": sol.message,
    }


def export_model(inst: OasisInstance):
    """The exact offline MILP (1)-(13)."""
    return build_offline(inst)


def decision_time(T: int, H: int, N: int, E: int) -> float:
    """Seconds for pricing (22) and Alg. 2 on a job with N chunks and E epochs arriving at slot 1 (H = K servers)."""
    inst = generate_instance(3, T, H, H, seed=1)
    d = inst.to_dict()
    d["chunks"][0], d["epochs"][0], d["arrival"][0] = N, E, 1
    inst = OasisInstance.from_dict(d)
    used = Usage.empty(inst)
    t0 = time.perf_counter()
    prices = prices_from_usage(inst, price_bounds(inst), used)
    best_schedule(inst, 0, prices, used)
    return time.perf_counter() - t0


def validate(n: int = 9, *, seed: int = 0) -> Table:
    """Theorem 4 on ``n`` Fig. 5 instances (seeds ``seed..seed+n-1``), via :func:`hetopt.validate.sweep`."""
    rows = ratio_sweep(list(range(seed, seed + n)), executor=None)
    return ratio_table(rows)


def bench(quick: bool = False) -> list[Table]:
    """Offline MILP time, one online decision, and a full simulation of all schemes."""
    tables = []
    t = Table("Offline MILP (1)-(13), certified optimum", ["jobs", "T", "servers", "R", "status", "utility", "seconds", "goal (s)"])
    sizes = [(5, 6, 10)] if quick else [(10, 10, 40)]
    for n, T, srv in sizes:
        inst = generate_instance(n, T, srv // 2, srv // 2, seed=0, resources=("gpu", "cpu", "bandwidth"), epochs_range=(5, 20))
        s = solve_exact(inst)
        t.add(n, T, srv, 3, s.status.value, s.total_utility, s.wall_time, 120.0)
    tables.append(t)
    t = Table("One OASiS decision (Alg. 2 + price update) for the largest job", ["T", "H", "K", "N", "E", "seconds", "goal (s)"])
    T, H, N, E = (20, 10, 20, 20) if quick else (100, 50, 100, 200)
    t.add(T, H, H, N, E, decision_time(T, H, N, E), 0.5)
    tables.append(t)
    n, T = (20, 30) if quick else (300, 300)
    inst = generate_instance(n, T, 50, 50, seed=0)
    t = Table(f"Simulation of every scheme, {n} jobs, T = {T}, H = K = 50 (Fig. 3)",
              ["scheme", "total utility", "admitted/completed", "feasible", "seconds"])
    total = 0.0
    for name, fn in SCHEMES.items():
        t0 = time.perf_counter()
        s = fn(inst)
        el = time.perf_counter() - t0
        total += el
        t.add(name, s.total_utility, len(s.admitted), check_schedule(inst, s).ok, el)
    t.notes.append(f"all schemes: {total:.1f} s (goal: 120 s for 300 jobs, T = 300)")
    tables.append(t)
    from .bench_scale import colgen_scale, offline_scale, offline_seeds

    tables.append(offline_scale(quick))
    tables.append(offline_seeds(quick))
    tables.append(colgen_scale(quick))
    return tables
