"""CLI contract of ``hetopt`` for OASiS: solve, reproduce, validate, bench, export."""

from __future__ import annotations

import math
import time
from typing import Any, Callable

import numpy as np

from ..data import instance_path
from ..report import Table
from ..result import Solution
from .figures import SCHEMES
from .generator import generate_instance
from .instance import KIND, OasisInstance
from .model import build_offline
from .offline import solve_offline
from .online import online
from .oracle import best_schedule, best_schedule_ilp
from .prices import Prices, Usage, competitive_bound, price, price_bounds, prices_from_usage
from .schedule import OasisSolution, check_schedule
from .validate import fig5_setting, ratio_check, ratio_table, validate_ratio

__all__ = ["KIND", "METHODS", "load_instance", "solve", "solution_summary", "reproduce", "validate", "bench", "export_model",
           "SCHEMES"]


METHODS: dict[str, Callable[[OasisInstance], Solution]] = {**SCHEMES, "offline": solve_offline}


def load_instance(data: dict) -> OasisInstance:
    return OasisInstance.from_dict(data)


def solve(inst: OasisInstance, method: str) -> Solution:
    if method not in METHODS:
        raise ValueError(f"method is {method!r}; expected one of {', '.join(METHODS)}")
    return METHODS[method](inst)


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


def _fig3(n_jobs: int, horizon: int, seed: int, servers: int = 50) -> dict[str, OasisSolution]:
    inst = generate_instance(n_jobs, horizon, servers, servers, seed)
    return {name: fn(inst) for name, fn in SCHEMES.items()}


def _decision_time(T: int, H: int, N: int, E: int) -> float:
    """Seconds for pricing and Alg. 2 on a job with N chunks and E epochs arriving at slot 1."""
    inst = generate_instance(3, T, H, H, 1)
    d = inst.to_dict()
    d["chunks"][0], d["epochs"][0], d["arrival"][0] = N, E, 1
    inst = OasisInstance.from_dict(d)
    used = Usage.empty(inst)
    t0 = time.perf_counter()
    prices = prices_from_usage(inst, price_bounds(inst), used)
    best_schedule(inst, 0, prices, used)
    return time.perf_counter() - t0


def reproduce() -> list[Table]:
    """The paper's checkable statements, paper vs ours (match in the last column).

    The paper has no worked numeric example; the rows are its stated properties and claims.
    """
    t = Table("OASiS (Bao et al. 2018): stated properties and claims, paper vs ours", ["quantity", "paper", "ours", "match"])
    inst = fig5_setting(0)
    b = price_bounds(inst)
    cap = inst.worker_capacity[0]
    p0 = price(b.log_L1, b.log_U1, np.zeros_like(cap), cap)
    p1 = price(b.log_L1, b.log_U1, cap, cap)
    t.add("price (22) at zero use / L1 (Appendix A)", 1.0, float(np.max(np.abs(p0 / b.L1))), bool(np.allclose(p0, b.L1)))
    ok = np.allclose(p1[cap > 0], b.U1[cap > 0])
    t.add("price (22) at full capacity / U1 (Appendix A)", 1.0, float(np.max(p1[cap > 0] / b.U1[cap > 0])), bool(ok))
    # Theorem 1 and Theorem 4 on the shipped counterexamples
    ce = OasisInstance.from_json(instance_path("oasis2018_theorem1_counterexample"))
    z = Prices.zeros(ce)
    dp, ilp = best_schedule(ce, 0, z).payoff, best_schedule_ilp(ce, 0, z).payoff
    t.add("Theorem 1: Alg. 2 payoff = optimum of (27) (oasis2018_theorem1_counterexample)", ilp, dp, math.isclose(dp, ilp))
    v = OasisInstance.from_json(instance_path("oasis2018_theorem4_violation"))
    on, off = online(v), solve_offline(v)
    t.add("Theorem 4: OPT / OASiS <= 2 alpha (oasis2018_theorem4_violation), ratio", competitive_bound(v),
          off.total_utility / on.total_utility, off.total_utility / on.total_utility <= competitive_bound(v))
    # Fig. 5: ratio around 1.1 - 1.5
    ratios = [ratio_check(fig5_setting(s), time_limit=60).ratio for s in range(3)]
    t.add("Fig. 5: OPT / OASiS, 10 jobs, T = 10 (max over seeds 0-2)", 1.5, max(ratios), max(ratios) <= 1.5 + 1e-9)
    # decision time, the paper's largest job (N = 100, E = 200)
    el = _decision_time(100, 40, 100, 200)
    t.add("one OASiS decision, T = 100, 80 servers, N = 100, E = 200 (s)", 1.0, el, el < 1.0)
    # Fig. 3: OASiS best
    res = _fig3(40, 60, 0, servers=20)
    best = max(res, key=lambda k: res[k].total_utility)
    t.add(f"Fig. 3: best scheme, 40 jobs, T = 60, H = K = 20 (ours: {best})", "oasis", res[best].total_utility / max(res["oasis"].total_utility, 1e-12),
          best == "oasis")
    t.notes.append("ours for Fig. 3: best utility / OASiS utility; see models/oasis2018.md for why OASiS can lose "
                   "(L of (25)-(26) underflows with the sigmoid utilities, prices stay ~0 until a server is ~99% full).")
    return [t]


def validate(n: int = 9, seed: int = 0) -> Table:
    """Theorem 4 on ``n`` Fig. 5 instances (seeds ``seed..seed+n-1``), via :func:`hetopt.validate.sweep`."""
    rows = validate_ratio(list(range(seed, seed + n)), executor=None)
    return ratio_table(rows)


def bench(quick: bool = False) -> list[Table]:
    """Offline MILP time, one online decision, and a full simulation of all schemes."""
    tables = []
    t = Table("Offline MILP (1)-(13), certified optimum", ["jobs", "T", "servers", "R", "status", "utility", "seconds", "goal (s)"])
    sizes = [(5, 6, 10)] if quick else [(10, 10, 40)]
    for n, T, srv in sizes:
        inst = generate_instance(n, T, srv // 2, srv // 2, 0, resources=("gpu", "cpu", "bandwidth"), epochs_range=(5, 20))
        s = solve_offline(inst)
        t.add(n, T, srv, 3, s.status.value, s.total_utility, s.wall_time, 120.0)
    tables.append(t)
    t = Table("One OASiS decision (Alg. 2 + price update) for the largest job", ["T", "H", "K", "N", "E", "seconds", "goal (s)"])
    T, H, N, E = (20, 10, 20, 20) if quick else (100, 50, 100, 200)
    t.add(T, H, H, N, E, _decision_time(T, H, N, E), 0.5)
    tables.append(t)
    n, T = (20, 30) if quick else (300, 300)
    inst = generate_instance(n, T, 50, 50, 0)
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
    return tables
