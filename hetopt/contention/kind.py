"""Wang et al.'s contention paper in the registry (:class:`hetopt.contract.Kind`)."""

from __future__ import annotations

import functools
from typing import Any

from ..contract import Kind, Method
from ..report import Table
from ..validate import sweep
from .exact import solve_exact
from .instance import ContentionInstance
from .model import build_milp
from .scheduling import ada_srsf, srsf
from .simulator import simulate
from .solution import ContentionSolution
from .validate import check_schedule
from .workload import generate_workload, tiny_instance

__all__ = ["KIND", "example", "export_model", "validate", "exact_srsf1", "contention_bound_srsf1"]

_TJCT = "total JCT of the jobs (s)"


def example(seed: int, size: int) -> ContentionInstance:
    """A tiny instance: 2-3 jobs on 2 servers of 2 GPUs."""
    return tiny_instance(seed=seed, n_jobs=2 + size % 2)


def exact_srsf1(inst: ContentionInstance, *, engine: str = "cpsat", time_limit: float | None = None,
               threads: int = 1, seed: int = 0) -> ContentionSolution:
    """The exact contention-free optimum on the placement LWF-1 gives under SRSF(1).

    ``engine`` is ``"cpsat"`` (default) or ``"milp"`` (:func:`hetopt.contention.solve_exact`);
    SRSF(1)'s total JCT on that placement is the upper bound that sets the time windows.
    """
    from ..inputs import check_instance

    check_instance(inst, ContentionInstance, "inst")
    ref = srsf(inst, 1)
    return solve_exact(inst, ref.placement, upper_bound=ref.objective, engine=engine, time_limit=time_limit,
                       threads=threads, seed=seed)


def contention_bound_srsf1(inst: ContentionInstance, *, time_limit: float | None = None, threads: int = 1,
                           seed: int = 0) -> ContentionSolution:
    """Contention-aware (eq. (5)) best schedule and proven bound on the placement LWF-1 gives under SRSF(1).

    :func:`hetopt.contention.shared.solve_contention_bound`: OPTIMAL only when the bound meets the
    best of the contention-free optimum, SRSF(2), SRSF(3) and Ada-SRSF.
    """
    from ..inputs import check_instance
    from .shared import solve_contention_bound

    check_instance(inst, ContentionInstance, "inst")
    return solve_contention_bound(inst, srsf(inst, 1).placement, time_limit=time_limit, threads=threads, seed=seed)


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
    # cross-check the engines on every placement: same optimum, or each bound below the other's incumbent
    agree = True
    for placement, cp in cache.items():
        ub = srsf(inst, 1, placement=[list(p) for p in placement]).objective
        mi = solve_exact(inst, placement, upper_bound=ub, engine="milp")
        if cp.is_optimal and mi.is_optimal:
            agree &= abs(cp.objective - mi.objective) <= 1e-6 * max(1.0, cp.objective)
        agree &= all(a.bound is None or a.bound <= b.objective + 1e-6 for a, b in ((cp, mi), (mi, cp)))
    return {"policies": out, "engines_agree": agree}


def validate(n: int = 20, *, seed: int = 0) -> Table:
    """Heuristics against the exact contention-free optimum (same placement) on tiny instances; engines cross-checked."""
    seeds = list(range(seed, seed + n))
    results = sweep(tiny_instance, _validate_one, seeds, executor="serial")
    names = list(_VALIDATE_POLICIES)
    table = Table("Heuristic total JCT / exact contention-free optimum for the same placement (tiny instances)",
                  ["seed", "opt (LWF-1)", *names, "no-contention bound holds", "cpsat = milp"])
    below = 0
    table.violations = 0
    for s, res in zip(seeds, results):
        r = res["policies"]
        holds = all(v >= o - 1e-6 for v, o, proven, nc in r.values() if nc and proven)
        table.violations += not holds
        below += sum(1 for v, o, proven, nc in r.values() if not nc and proven and v < o - 1e-6)
        table.violations += not res["engines_agree"]
        table.add(s, r["SRSF(1)"][1], *[r[k][0] / r[k][1] for k in names], holds, res["engines_agree"])
    table.notes.append("SRSF(1) and the FF/LS/RAND placements with SRSF(1) schedule without contention, so the exact "
                       "optimum on their placement is a certified lower bound (column 'no-contention bound holds').")
    table.notes.append("Last column: on every placement the CP-SAT engine (default) and the time-indexed MILP give "
                       "the same optimum (or each bound is below the other's schedule).")
    table.notes.append(f"Runs of contention-accepting policies below the contention-free optimum: {below} "
                       "(allowed: the MILP does not model eq. (5) with k >= 2).")
    table.notes.append(results.note())
    return table


# -------------------------------------------------------------------- bench


KIND = Kind(
    name="contention",
    title='Wang et al., "Communication Contention Aware Scheduling of Multiple Deep Learning Training Jobs"',
    instance=ContentionInstance,
    generate_instance=generate_workload,
    example=example,
    check_schedule=check_schedule,
    solve_exact=exact_srsf1,
    simulate=simulate,
    validate=validate,
    export_model=export_model,
    card="models/wang2019-contention.md",
    plot="hetopt.plot.intervals:contention_gantt",
    claims="hetopt.claims.contention",
    bench="hetopt.bench.contention",
    methods=(
        Method("exact", exact_srsf1, "exact", "The exact contention-free optimum on the placement LWF-1 gives "
               "under SRSF(1), by the CP-SAT interval model.", _TJCT, default=True),
        Method("exact_cpsat", functools.partial(exact_srsf1, engine="cpsat"), "exact", "The exact contention-free "
               "optimum on LWF-1's placement, by the CP-SAT interval model.", _TJCT),
        Method("exact_milp", functools.partial(exact_srsf1, engine="milp"), "exact", "The exact contention-free "
               "optimum on LWF-1's placement, by the time-indexed MILP (tiny integral instances).", _TJCT),
        Method("contention_bound", contention_bound_srsf1, "exact", "The contention-aware problem (eq. (5)) on "
               "LWF-1's placement: the best schedule found and a proven lower bound.", _TJCT),
        Method("ada_srsf", ada_srsf, "heuristic", "Ada-SRSF (Algorithm 3): SRSF ordering, LWF-1 placement, "
               "AdaDUAL admission of all-reduces.", _TJCT),
        Method("ada_srsf_lwf2", functools.partial(ada_srsf, kappa=2), "heuristic", "Ada-SRSF with LWF-2 "
               "placement.", _TJCT),
        Method("ada_srsf_lwf4", functools.partial(ada_srsf, kappa=4), "heuristic", "Ada-SRSF with LWF-4 "
               "placement.", _TJCT),
        Method("ada_srsf_ff", functools.partial(ada_srsf, placement="ff"), "heuristic", "Ada-SRSF with first-fit "
               "placement (the FF baseline of Table IV).", _TJCT),
        Method("ada_srsf_ls", functools.partial(ada_srsf, placement="ls"), "heuristic", "Ada-SRSF with "
               "list-scheduling placement (the LS baseline of Table IV).", _TJCT),
        Method("ada_srsf_rand", functools.partial(ada_srsf, placement="rand", seed=0), "heuristic", "Ada-SRSF "
               "with random placement (the RAND baseline of Table IV, seed 0).", _TJCT),
        Method("srsf1", functools.partial(srsf, n=1), "baseline", "SRSF(1): an all-reduce starts only when none "
               "runs on its servers (no contention).", _TJCT),
        Method("srsf2", functools.partial(srsf, n=2), "baseline", "SRSF(2): an all-reduce starts when fewer than "
               "two run on each of its servers.", _TJCT),
        Method("srsf3", functools.partial(srsf, n=3), "baseline", "SRSF(3): an all-reduce starts when fewer than "
               "three run on each of its servers.", _TJCT),
    ),
)
