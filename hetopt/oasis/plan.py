"""Plan-first route to the offline optimum of (1)-(13).

A relaxation bounds the optimum and picks the admitted jobs, then the MILP restricted to them
is solved.

The hard part of the offline MILP at 30 jobs is finding the optimal incumbent, not proving it: on
``bench_scale.bench_instance(30, seed=2)`` HiGHS finds the optimum (1183.06) only after ~41 s of a
58-93 s run (root bound 1207), and proves it in ~15 s when handed the optimum as a warm start.  This
route (``solve_exact(engine="plan")``) splits the two:

1. The *plan relaxation*: (1)-(13) with the valid inequalities (V1)-(V5) of
   :mod:`hetopt.oasis.arrays`, admissions x and completion indicators u binary, worker and PS
   placements y, z continuous.  Every integer solution of (1)-(13) satisfies it (the inequalities hold
   for integer solutions), so its solver bound is an upper bound on the offline optimum.  On the
   benchmark instances it is proven in 2-12 s and equals the optimum.
2. The MILP (1)-(13) with x fixed to the relaxation's admissions (rejected jobs' columns at 0, admitted
   jobs forced in).  If its optimum reaches the bound of 1. (relative gap <= ``OPTIMAL_RTOL``), it is
   a certified optimum of the full problem.
3. Otherwise the full MILP runs for the remaining time with the best schedule so far (the restricted
   incumbent, or OASiS's online schedule) as its warm start; the reported bound is the smaller of
   the relaxation's and the MILP's.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..certify import Status, certify
from ..result import Solution
from ..solvers import solve_milp
from .arrays import OfflineArrays, build_offline_arrays, schedules_from_x, x_from_schedules
from .checker import check_schedule
from .instance import OasisInstance
from .normalize import HIGHS_EXACT
from .schedule import JobSchedule, make_solution
from .simulator import online_incumbent

__all__ = ["Clock", "highs_options", "plan_relaxation", "solve_arrays", "solve_plan_first"]

#: Shortest time limit handed to a solver (a solver given ~0 s still reports what it has).
MIN_SOLVE_SECONDS = 0.01


class Clock:
    """The deadline of a time-limited route: ``time.perf_counter()`` at the start plus the limit (None: no limit)."""

    def __init__(self, start: float, time_limit: float | None) -> None:
        self.start = start
        self.deadline = None if time_limit is None else start + time_limit

    @property
    def limited(self) -> bool:
        """True when there is a deadline."""
        return self.deadline is not None

    def left(self) -> float | None:
        """Seconds to the deadline (>= 0), None without one."""
        return None if self.deadline is None else max(self.deadline - time.perf_counter(), 0.0)

    def share(self, fraction: float) -> float | None:
        """A deadline ``fraction`` of the way from now to the deadline (None without one)."""
        left = self.left()
        return None if left is None else time.perf_counter() + fraction * left

    def solve_time(self, fraction: float = 1.0, reserve: float = 0.0) -> float | None:
        """Seconds for a solver: ``fraction`` of what is left after ``reserve`` (at least ``MIN_SOLVE_SECONDS``)."""
        left = self.left()
        return None if left is None else max(fraction * (left - reserve), MIN_SOLVE_SECONDS)

    def expired(self) -> bool:
        """True once the deadline has passed."""
        return self.deadline is not None and time.perf_counter() >= self.deadline


def highs_options(node_limit: int | None = None) -> dict[str, Any]:
    """HiGHS options of an OASiS MILP: :data:`~hetopt.oasis.normalize.HIGHS_EXACT`, and ``mip_max_nodes`` when given."""
    return dict(HIGHS_EXACT) if node_limit is None else {**HIGHS_EXACT, "mip_max_nodes": int(node_limit)}


def solve_arrays(arr: OfflineArrays, *, clock: Clock, threads: int | None, mip_gap: float | None = None,
                 x0: np.ndarray | None = None, lb: np.ndarray | None = None, ub: np.ndarray | None = None,
                 reserve: float = 0.0, info: dict[str, Any] | None = None, node_limit: int | None = None) -> Solution:
    """The MILP of ``arr`` with HiGHS (:func:`highs_options`), a warm start ``x0`` if given.

    HiGHS may report the optimum's objective with the warm start's columns (seen when presolve solves
    the model with the cuts (V3)): a solution whose ``c x`` is not the reported objective is solved
    again without the start (``info["warm_start_dropped"]``).  The incumbent is in the result's
    ``info["x"]`` (:func:`~hetopt.solvers.solve_milp`).
    """
    lb = arr.lb if lb is None else lb
    ub = arr.ub if ub is None else ub

    def run(start: np.ndarray | None) -> Solution:
        return solve_milp(arr.c, sense="max", A_ub=arr.A_ub, b_ub=arr.b_ub, A_eq=arr.A_eq, b_eq=arr.b_eq, lb=lb, ub=ub,
                          integrality=arr.integrality, time_limit=clock.solve_time(reserve=reserve), mip_gap=mip_gap,
                          threads=threads, x0=start, raise_on_failure=False, options=highs_options(node_limit))

    sol = run(x0)
    x = sol.info["x"]
    if x is not None and sol.objective is not None and x0 is not None:
        value = float(arr.c @ x)
        if abs(value - sol.objective) > 1e-9 * max(abs(value), abs(sol.objective), 1.0):
            if info is not None:
                info["warm_start_dropped"] = (f"HiGHS reported {sol.objective!r} with columns worth {value!r}; "
                                              "solved again without the warm start")
            sol = run(None)
    return sol


def plan_relaxation(inst: OasisInstance, arr: OfflineArrays, *, time_limit: float | None,
                    threads: int | None, node_limit: int | None = None) -> Solution:
    """Solve (1)-(13) + (V1)-(V5) with y, z continuous (the incumbent in ``info["x"]``, None without one).

    Parameters
    ----------
    inst : OasisInstance
    arr : OfflineArrays
        The rows of :func:`~hetopt.oasis.arrays.build_offline_arrays` (with the cuts).
    time_limit : float, optional
    threads : int, optional
    node_limit : int, optional
        HiGHS's ``mip_max_nodes``.

    Returns
    -------
    Solution
    """
    integ = arr.integrality.copy()
    integ[arr.y_off:arr.x_off] = 0
    return solve_milp(arr.c, sense="max", A_ub=arr.A_ub, b_ub=arr.b_ub, A_eq=arr.A_eq, b_eq=arr.b_eq, lb=arr.lb,
                      ub=arr.ub, integrality=integ, time_limit=time_limit, threads=threads, raise_on_failure=False,
                      options=highs_options(node_limit))


def solve_plan_first(inst: OasisInstance, *, time_limit: float | None = None, threads: int | None = 1,
                     plan_share: float = 0.5, clock: Clock | None = None, build_seconds: float = 0.0,
                     node_limit: int | None = None) -> tuple[Mapping[int, JobSchedule], Status, float | None, dict[str, Any]]:
    """Steps 1-3 of the module docstring.

    Parameters
    ----------
    inst : OasisInstance
    time_limit : float, optional
        Seconds for the whole route (ignored when ``clock`` is given).
    threads : int, optional
    plan_share : float
        Largest share of the time left given to the plan relaxation.
    clock : Clock, optional
        The caller's deadline (it may have started earlier).
    build_seconds : float
        Estimated seconds to build the arrays (more than the time left: OASiS's schedule, TIME_LIMIT).
    node_limit : int, optional
        Branch-and-bound nodes of each HiGHS MILP (deterministic; a stopped MILP means TIME_LIMIT).

    Returns
    -------
    (schedules, status, bound, info)
        ``status`` OPTIMAL only when a schedule reaches a proven upper ``bound`` (None if none);
        ``info`` records each step, ``solver_objective`` and ``oasis_schedule``.
    """
    clock = clock or Clock(time.perf_counter(), time_limit)
    start = clock.start
    I = inst.n_jobs
    info: dict[str, Any] = {}
    best: Mapping[int, JobSchedule] = {}
    best_val = -np.inf
    bound: float | None = None

    def keep(scheds: Mapping[int, JobSchedule] | None, solver_objective: float | None = None) -> None:
        nonlocal best, best_val, bound
        if scheds is None or not check_schedule(inst, scheds).ok:
            return
        v = make_solution(inst, scheds).total_utility
        if bound is not None and v > bound + 1e-7 * abs(bound):
            info["plan_bound_discarded"] = f"plan relaxation bound {bound} is below a checked schedule's utility {v}"
            bound = None
        if v > best_val:
            best, best_val = scheds, v
            info["solver_objective"] = solver_objective

    def certified() -> bool:
        if bound is None or best_val == -np.inf:
            return False
        return certify(best_val, bound, stopped=False, sense="max") is Status.OPTIMAL

    def oasis() -> None:
        if "oasis_schedule" not in info:
            info["oasis_schedule"] = online_incumbent(inst, clock.share(0.25)).schedules
            keep(info["oasis_schedule"])

    if clock.limited:
        oasis()
    left = clock.left()
    if left is not None and build_seconds > left:
        info["route"] = (f"time limit: building the plan relaxation takes about {build_seconds:.2g} s, more than the "
                         f"{left:.2g} s left; OASiS's online schedule")
        return best, Status.TIME_LIMIT, None, info
    tight = build_offline_arrays(inst, tighten=True)
    rel = plan_relaxation(inst, tight, time_limit=clock.solve_time(plan_share), threads=threads,
                          node_limit=node_limit)
    xr = rel.info["x"]
    bound = float(rel.bound) if rel.bound is not None and np.isfinite(rel.bound) else None
    info.update(plan_bound=bound, plan_status=rel.status.value, plan_seconds=time.perf_counter() - start)
    keep(info.get("oasis_schedule"))
    arr: OfflineArrays | None = None
    if xr is not None and not clock.expired():
        arr = build_offline_arrays(inst)
        lb, ub = _admitted_bounds(arr, tight, xr, I)
        sol = solve_arrays(arr, clock=clock, threads=threads, lb=lb, ub=ub, node_limit=node_limit)
        x = sol.info["x"]
        info.update(restricted_status=sol.status.value, restricted_objective=sol.objective,
                    restricted_seconds=time.perf_counter() - start)
        if x is not None:
            keep(schedules_from_x(inst, arr, x), sol.objective)
        if certified() and bound is not None:
            info["route"] = "plan relaxation + MILP on its admitted jobs"
            return best, Status.OPTIMAL, max(bound, best_val), info
    oasis()
    full: Solution | None = None
    if not clock.expired():
        arr = arr if arr is not None else build_offline_arrays(inst)
        full = solve_arrays(arr, clock=clock, threads=threads, x0=x_from_schedules(inst, arr, best), info=info,
                            node_limit=node_limit)
        x = full.info["x"]
        info["full_status"] = full.status.value
        if x is not None:
            keep(schedules_from_x(inst, arr, x), full.objective)
    info["route"] = "plan relaxation + full MILP" if full is not None else "plan relaxation (time limit before the full MILP)"
    bounds = [b for b in (bound, None if full is None else full.bound) if b is not None and np.isfinite(b)]
    best_bound = max(min(bounds), best_val) if bounds else None
    if (full is not None and full.status is Status.OPTIMAL) or certified():
        return best, Status.OPTIMAL, best_bound, info
    limited = clock.expired() or rel.status is Status.TIME_LIMIT or (full is not None and full.status is Status.TIME_LIMIT)
    return best, Status.TIME_LIMIT if limited else Status.FEASIBLE, best_bound, info


def _admitted_bounds(arr: OfflineArrays, tight: OfflineArrays, xr: np.ndarray, I: int) -> tuple[np.ndarray, np.ndarray]:
    """Column bounds of ``arr`` with every admission fixed to the plan relaxation's ``xr`` (rounded)."""
    adm = np.rint(xr[tight.x_off:tight.x_off + I])
    lb, ub = arr.lb.copy(), arr.ub.copy()
    cols = arr.x_off + np.arange(I)
    lb[cols] = np.minimum(adm, ub[cols])
    ub[cols] = np.minimum(adm, ub[cols])
    return lb, ub
