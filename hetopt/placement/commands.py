"""Command-line hooks of the placement paper (used by :mod:`hetopt.cli`)."""

from __future__ import annotations

import time
from functools import partial
from typing import Any


from ..report import Table
from .baselines import las, optimus, optimus_lb
from .evaluate import PlacementSolution
from .exact import exhaustive, solve_exact
from .generators import generate_instance
from .has import has
from .instance import KIND, PlacementInstance
from .model import build_p1
from .sampling import jps
from .validate import gap_report

__all__ = ["KIND", "METHODS", "INSTANCE", "solution_summary", "validate", "bench", "export_model"]

METHODS = {
    "exact": solve_exact,
    "exact_scip": partial(solve_exact, solver="scip"),
    "exhaustive": exhaustive,
    "has": has,
    "has_hungarian": partial(has, market="assignment"),
    "jps": partial(jps, seed=0),
    "optimus": optimus,
    "optimus_lb": optimus_lb,
    "optimus_lb_balanced_gains": partial(optimus_lb, reading="balanced_gains"),
    "las": las,
}


#: the instance class of kind 'placement' (``hetopt.load_instance`` builds it with ``from_dict``)
INSTANCE = PlacementInstance


def solution_summary(sol: PlacementSolution) -> dict[str, Any]:
    return {"status": sol.status.value, "solver": sol.solver, "average_jct": sol.average_jct, "bound": sol.bound,
            "gap": sol.gap, "wall_time": sol.wall_time, "assignment": sol.assignment.tolist(), "category": list(sol.category),
            "jct": sol.jct.tolist(), "throughput": sol.throughput.tolist(), "fairness": sol.fairness}


def validate(n: int = 20, *, seed: int = 0) -> Table:
    """Certification sweep: every method's JCT over the certified optimum (Figs. 9-10), on ``n``
    distinct instances of the paper setting (throughput noise 10 % per seed)."""
    return gap_report(n=n, seed=seed)


def _time(f, *a, **k):
    t0 = time.perf_counter()
    out = f(*a, **k)
    return out, time.perf_counter() - t0


def bench(quick: bool = False) -> list[Table]:
    """Times of every method, their ratios in the same run, and JCT gaps to the certified optimum.

    Sizes follow Tables IV-V (S = 4): certified optimum at K = 30 and 100, HAS at K = 30, JPS
    (N = 40) at K = 300; ``quick`` uses K = 15 / 30 / 50.
    """
    K_small, K_mid, K_big, K_jps = (10, 15, 30, 50) if quick else (12, 30, 100, 300)
    tables = []
    rows = []
    for K in ([K_mid] if quick else [K_mid, K_big]):
        inst = generate_instance(4, K, seed=1)
        opt = solve_exact(inst)
        res = {"solve_exact (HiGHS, OA)": opt}
        if K <= 30:
            res["solve_exact (SCIP)"] = solve_exact(inst, solver="scip")
            res["has (Algorithm 2 auction)"] = has(inst)
            res["has (Hungarian P3)"] = has(inst, market="assignment")
        res["jps N=40"] = jps(inst, n_samples=40, seed=0)
        res["jps N=40 (Hungarian P3)"] = jps(inst, n_samples=40, seed=0, market="assignment")
        res["optimus"] = optimus(inst)
        res["optimus_lb"] = optimus_lb(inst)
        res["las"] = las(inst)
        base = opt.wall_time
        for name, s in res.items():
            rows.append((f"S=4, K={K}", name, s.wall_time, s.wall_time / base, s.objective / opt.objective - 1, s.status.value))
    inst = generate_instance(4, K_jps, seed=1)
    j, tj = _time(jps, inst, n_samples=40, seed=0)
    o, to = _time(optimus_lb, inst)
    rows.append((f"S=4, K={K_jps}", "jps N=40", tj, tj / to, j.objective / o.objective - 1, "vs optimus_lb"))
    rows.append((f"S=4, K={K_jps}", "optimus_lb", to, 1.0, 0.0, "reference"))
    small = generate_instance(3, K_small, seed=2)
    ex, tex = _time(exhaustive, small)
    op = solve_exact(small)
    rows.append((f"S=3, K={K_small}", "exhaustive", tex, tex / op.wall_time, ex.objective / op.objective - 1, ex.status.value))
    rows.append((f"S=3, K={K_small}", "solve_exact (HiGHS, OA)", op.wall_time, 1.0, 0.0, op.status.value))
    t = Table("placement benchmark (time ratio: to the certified optimum of the same instance unless noted)",
              ["instance", "method", "time [s]", "time ratio", "JCT gap", "status"], rows)
    t.notes.append("paper, Table IV/V (S=4): exhaustive 47.9 s (K=15), 2.21 h (K=30); HAS 1.07 s (K=15), 55.5 s (K=30), "
                   "12.98 h (K=100); JPS N=40 2.1 s (K=50), 114.6 s (K=300).")
    t.notes.append("goals here: certified optimum S=4 K=30 < 10 s and K=100 < 60 s; has K=30 < 5 s; jps N=40 K=300 < 5 s.")
    tables.append(t)
    from .bench_scale import exact_scale

    tables.append(exact_scale(quick))
    return tables


def export_model(inst: PlacementInstance):
    """The exact per-worker MILP of P1 (``build_p1(form="milp")``)."""
    return build_p1(inst, form="milp")
