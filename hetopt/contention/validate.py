"""Certificates of the paper's policies against certified optima, on the same placement.

The paper claims no approximation ratio, so :func:`validate_ratio` is a gap report
(``limit=None``): a policy's total JCT against a certified reference on the placement the
policy chose,

* for a policy that schedules **without contention** (SRSF(1) admission, whatever the
  placement): the exact contention-free optimum (:func:`~hetopt.contention.solve_exact`), a
  certified lower bound on every contention-free schedule of that placement;
* for every other policy (Ada-SRSF, SRSF(2), SRSF(3), a policy object): the proven lower bound
  of the contention-aware problem, eq. (5) in its fluid reading
  (:func:`~hetopt.contention.solve_contention_bound`), valid for every schedule of that
  placement.

``proven`` is True when the reference carries a certified bound.  :func:`ratio_sweep` runs
it over seeded tiny instances; :func:`validate` is the table of ``hetopt validate contention``
(every policy against the contention-free optimum, the two exact engines cross-checked).
"""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Any

from ..certify import below
from ..errors import ArgumentError
from ..inputs import MAX_SEED, check_size, check_time_limit, takes_instance
from ..report import Table
from ..result import Certificate
from ..validate import SweepResults, gap_certificate, sweep
from .checker import check_schedule
from .exact import solve_exact
from .generators import tiny_instance
from .instance import ContentionInstance
from .policies import POLICIES, Policy, get_policy
from .shared import solve_contention_bound
from .simulator import simulate
from .solution import ContentionSolution

__all__ = ["validate_ratio", "ratio_sweep", "validate", "schedules_without_contention", "MAX_SWEEP"]

#: Most instances one sweep (:func:`ratio_sweep`, :func:`validate`) takes: each is a few exact solves.
MAX_SWEEP = 100_000


def _policy(method: Any) -> Policy:
    """:func:`get_policy`, its error naming ``method``."""
    try:
        return get_policy(method)
    except ArgumentError as exc:
        raise ArgumentError(f"method: {exc}") from None


def schedules_without_contention(policy: Policy) -> bool:
    """True when ``policy`` never runs two all-reduces at once on a server (SRSF(1) admission)."""
    return policy.admission == "srsf1"


def _contention_free_optimum(inst: ContentionInstance, placement, *, time_limit: float | None = None,
                             engine: str = "cpsat", threads: int | None = 1, seed: int = 0) -> ContentionSolution:
    """The exact contention-free optimum on ``placement``, SRSF(1)'s total JCT there as the upper bound."""
    ub = simulate(inst, "srsf1", placement=[list(p) for p in placement]).objective
    return solve_exact(inst, placement=placement, upper_bound=ub, engine=engine, time_limit=time_limit,
                       threads=threads, seed=seed)


@takes_instance(ContentionInstance)
def validate_ratio(inst: ContentionInstance, *, method: str | Policy = "ada_srsf", time_limit: float | None = None,
                   threads: int | None = 1, seed: int = 0) -> Certificate:
    """Gap of a policy against a certified reference on its own placement (the paper claims no ratio).

    Parameters
    ----------
    inst : ContentionInstance
        Times with at most 9 decimals (the exact engines scale them to integers).
    method : str or Policy
        A name of :data:`~hetopt.contention.policies.POLICIES` or a policy object.
    time_limit : float, optional
        Seconds for the reference solve (None: no limit).
    threads : int, optional
    seed : int
        CP-SAT's random seed.

    Returns
    -------
    Certificate
        ``value`` the policy's total JCT, ``reference`` the exact contention-free optimum on the
        policy's placement when the policy schedules without contention (SRSF(1) admission), the
        contention-aware proven bound (:func:`~hetopt.contention.solve_contention_bound`)
        otherwise; ``limit`` None; ``proven`` when the reference is a certified bound;
        ``info["reference_kind"]`` names which reference, ``info["reference_status"]`` its status.

    Raises
    ------
    ScheduleViolation
        The policy's schedule fails :func:`~hetopt.contention.checker.check_schedule`.

    Examples
    --------
    >>> from hetopt.contention import tiny_instance, validate_ratio
    >>> cert = validate_ratio(tiny_instance(seed=0), method="srsf1", time_limit=10)
    >>> cert.proven, cert.ratio >= 1, cert.limit
    (True, True, None)
    """
    policy = _policy(method)
    time_limit = check_time_limit(time_limit)
    sol = simulate(inst, policy, record=True)
    free = schedules_without_contention(policy)
    check_schedule(inst, sol, max_concurrent=1 if free else None).raise_if_invalid()
    if free:
        ref = _contention_free_optimum(inst, sol.placement, time_limit=time_limit, threads=threads, seed=seed)
        what = "contention-free optimum"
    else:
        ref = solve_contention_bound(inst, placement=sol.placement, time_limit=time_limit, threads=threads, seed=seed)
        what = "contention-aware bound"
    name = method if isinstance(method, str) else sol.solver
    return gap_certificate(float(sol.objective), ref, sense="min", name=f"{name} / {what}", reference_kind=what,
                           method=name, solver=sol.solver, placement=[list(p) for p in sol.placement])


def ratio_sweep(n: int, *, seed: int = 0, executor: Any = None, method: str | Policy = "ada_srsf",
                time_limit: float | None = 60.0, n_jobs: int = 3, n_servers: int = 2,
                gpus_per_server: int = 2) -> SweepResults:
    """:func:`validate_ratio` on ``n`` seeded tiny instances (:func:`~hetopt.contention.tiny_instance`).

    Parameters
    ----------
    n : int
        Instances (seeds ``seed, ..., seed + n - 1``).
    seed : int
        The first seed.
    executor : None, "serial", int, Executor or dask Client
        As :func:`hetopt.validate.sweep`.
    method, time_limit
        As :func:`validate_ratio`.
    n_jobs, n_servers, gpus_per_server : int
        Size of the tiny instances.

    Returns
    -------
    SweepResults
        One :class:`~hetopt.result.Certificate` per seed.
    """
    n = check_size(n, "n", maximum=MAX_SWEEP)
    seed = check_size(seed, "seed", minimum=0, maximum=MAX_SEED - n + 1)
    _policy(method)
    time_limit = check_time_limit(time_limit)
    make = partial(tiny_instance, n_jobs=check_size(n_jobs, "n_jobs"), n_servers=check_size(n_servers, "n_servers"),
                   gpus_per_server=check_size(gpus_per_server, "gpus_per_server"))
    return sweep(make, partial(validate_ratio, method=method, time_limit=time_limit), range(seed, seed + n), executor)


# ------------------------------------------------------- the validate table
def _validate_policies() -> dict[str, Policy]:
    """The policies of the table: the registry's, and SRSF(1) with each baseline placement."""
    srsf1 = POLICIES["srsf1"]
    return {"SRSF(1)": srsf1,
            "FF+SRSF(1)": dataclasses.replace(srsf1, placement="ff"),
            "LS+SRSF(1)": dataclasses.replace(srsf1, placement="ls"),
            "RAND+SRSF(1)": dataclasses.replace(srsf1, placement="rand", seed=0),
            "SRSF(2)": POLICIES["srsf2"],
            "SRSF(3)": POLICIES["srsf3"],
            "Ada-SRSF": POLICIES["ada_srsf"]}


def _validate_one(inst: ContentionInstance) -> dict[str, Any]:
    cache: dict[tuple, ContentionSolution] = {}
    out: dict[str, Any] = {}
    for name, policy in _validate_policies().items():
        sol = simulate(inst, policy)
        if sol.placement not in cache:
            cache[sol.placement] = _contention_free_optimum(inst, sol.placement)
        opt = cache[sol.placement]
        out[name] = (sol.objective, opt.objective, opt.is_optimal, schedules_without_contention(policy))
    # cross-check the engines on every placement: same optimum, or each bound below the other's incumbent
    agree = all(_engines_agree(cp, _contention_free_optimum(inst, placement, engine="milp"))
                for placement, cp in cache.items())
    return {"policies": out, "engines_agree": agree}


def _engines_agree(cp: ContentionSolution, mi: ContentionSolution) -> bool:
    """Two engines' results on one placement agree, relative to ``OPTIMAL_RTOL`` at every magnitude.

    Equal optima when both are proven, and each bound at most the other's total JCT (both engines certify
    at ``OPTIMAL_RTOL``).
    """
    same = not (cp.is_optimal and mi.is_optimal) or not (below(cp.objective, mi.objective) or
                                                         below(mi.objective, cp.objective))
    return same and all(a.bound is None or not below(b.objective, a.bound) for a, b in ((cp, mi), (mi, cp)))


def validate(n: int = 20, *, seed: int = 0) -> Table:
    """Heuristics against the exact contention-free optimum (same placement) on tiny instances; engines cross-checked.

    Parameters
    ----------
    n : int
        Instances (:func:`~hetopt.contention.tiny_instance`, seeds ``seed .. seed + n - 1``).
    seed : int
        The first seed.

    Returns
    -------
    Table
        One row per seed: the ratio of each policy's total JCT to the optimum on its placement;
        ``violations`` counts the rows where a contention-free policy beats its optimum or the
        engines disagree.
    """
    n = check_size(n, "n", maximum=MAX_SWEEP)
    seed = check_size(seed, "seed", minimum=0, maximum=MAX_SEED - n + 1)
    seeds = list(range(seed, seed + n))
    results = sweep(partial(tiny_instance), _validate_one, seeds, executor="serial")
    names = list(_validate_policies())
    table = Table("Heuristic total JCT / exact contention-free optimum for the same placement (tiny instances)",
                  ["seed", "opt (LWF-1)", *names, "no-contention bound holds", "cpsat = milp"])
    under = 0
    table.violations = 0
    for s, res in zip(seeds, results, strict=True):
        r = res["policies"]
        holds = all(not below(v, o) for v, o, proven, nc in r.values() if nc and proven)
        table.violations += not holds
        under += sum(1 for v, o, proven, nc in r.values() if not nc and proven and below(v, o))
        table.violations += not res["engines_agree"]
        table.add(s, r["SRSF(1)"][1], *[r[k][0] / r[k][1] for k in names], holds, res["engines_agree"])
    table.notes.append("SRSF(1) and the FF/LS/RAND placements with SRSF(1) schedule without contention, so the exact "
                       "optimum on their placement is a certified lower bound (column 'no-contention bound holds').")
    table.notes.append("Last column: on every placement the CP-SAT engine (default) and the time-indexed MILP give "
                       "the same optimum (or each bound is below the other's schedule).")
    table.notes.append(f"Runs of contention-accepting policies below the contention-free optimum: {under} "
                       "(allowed: the MILP does not model eq. (5) with k >= 2).")
    table.notes.append(results.note())
    return table

