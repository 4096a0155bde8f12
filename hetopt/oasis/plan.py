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

from ..errors import SolverError
from ..result import OPTIMAL_RTOL, Solution, Status, relative_gap
from ..solvers import solve_milp
from .arrays import OfflineArrays, build_offline_arrays, schedules_from_x, x_from_schedules
from .checker import check_schedule
from .instance import OasisInstance
from .schedule import JobSchedule, make_solution
from .simulator import simulate

__all__ = ["plan_relaxation", "solve_plan_first"]


def plan_relaxation(inst: OasisInstance, arr: OfflineArrays, *, time_limit: float | None,
                    threads: int | None) -> tuple[Solution, np.ndarray | None]:
    """Solve (1)-(13) + (V1)-(V5) with y, z continuous: ``(Solution, x)`` (x None without incumbent).

    Parameters
    ----------
    inst : OasisInstance
    arr : OfflineArrays
        The rows of :func:`~hetopt.oasis.arrays.build_offline_arrays` (with the cuts).
    time_limit : float, optional
    threads : int, optional

    Returns
    -------
    (Solution, numpy.ndarray or None)
    """
    integ = arr.integrality.copy()
    integ[arr.y_off:arr.x_off] = 0
    return solve_milp(arr.c, sense="max", A_ub=arr.A_ub, b_ub=arr.b_ub, A_eq=arr.A_eq, b_eq=arr.b_eq, lb=arr.lb,
                      ub=arr.ub, integrality=integ, time_limit=time_limit, threads=threads, raise_on_failure=False)


def solve_plan_first(inst: OasisInstance, *, time_limit: float | None = None, threads: int | None = 1,
                     plan_share: float = 0.5) -> tuple[Mapping[int, JobSchedule], Status, float | None, dict[str, Any]]:
    """Steps 1-3 of the module docstring.

    Parameters
    ----------
    inst : OasisInstance
    time_limit : float, optional
        Seconds for the whole route.
    threads : int, optional
    plan_share : float
        Largest share of ``time_limit`` given to the plan relaxation.

    Returns
    -------
    (schedules, status, bound, info)
        ``status`` OPTIMAL only when a schedule reaches a proven bound; ``bound`` is a proven upper
        bound on the offline optimum (None if none was proven); ``info`` records each step and
        ``solver_objective``, the MILP objective of the returned schedule (None for OASiS's).
    """
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit

    def left() -> float | None:
        return None if deadline is None else max(deadline - time.perf_counter(), 0.01)

    I = inst.n_jobs
    tight = build_offline_arrays(inst, tighten=True)
    rel, xr = plan_relaxation(inst, tight, time_limit=None if time_limit is None else plan_share * time_limit,
                              threads=threads)
    bound = float(rel.bound) if rel.bound is not None and np.isfinite(rel.bound) else None
    info: dict[str, Any] = {"plan_bound": bound, "plan_status": rel.status.value,
                            "plan_seconds": time.perf_counter() - start}
    arr = build_offline_arrays(inst)
    best: Mapping[int, JobSchedule] = {}
    best_val = -np.inf

    def keep(scheds: Mapping[int, JobSchedule] | None, solver_objective: float | None = None) -> None:
        nonlocal best, best_val
        if scheds is None or not check_schedule(inst, scheds).ok:
            return
        v = make_solution(inst, scheds).total_utility
        if bound is not None and v > bound * (1 + 1e-7) + 1e-7:
            raise SolverError(f"plan relaxation bound {bound} is below a checked schedule's utility {v}")
        if v > best_val:
            best, best_val = scheds, v
            info["solver_objective"] = solver_objective

    def certified() -> bool:
        if bound is None or best_val == -np.inf:
            return False
        gap = relative_gap(best_val, bound)
        return gap is not None and (gap <= OPTIMAL_RTOL or abs(best_val - bound) <= 1e-9)

    if xr is not None:
        adm = np.rint(xr[tight.x_off:tight.x_off + I])
        lb, ub = arr.lb.copy(), arr.ub.copy()
        cols = arr.x_off + np.arange(I)
        lb[cols] = adm
        ub[cols] = adm
        sol, x = solve_milp(arr.c, sense="max", A_ub=arr.A_ub, b_ub=arr.b_ub, A_eq=arr.A_eq, b_eq=arr.b_eq, lb=lb,
                            ub=ub, integrality=arr.integrality, time_limit=left(), threads=threads,
                            raise_on_failure=False)
        info.update(restricted_status=sol.status.value, restricted_objective=sol.objective,
                       restricted_seconds=time.perf_counter() - start)
        if x is not None:
            keep(schedules_from_x(inst, arr, x), sol.objective)
        if certified() and bound is not None:
            info["route"] = "plan relaxation + MILP on its admitted jobs"
            return best, Status.OPTIMAL, max(bound, best_val), info
    keep(simulate(inst, "oasis").schedules)
    sol, x = solve_milp(arr.c, sense="max", A_ub=arr.A_ub, b_ub=arr.b_ub, A_eq=arr.A_eq, b_eq=arr.b_eq, lb=arr.lb,
                        ub=arr.ub, integrality=arr.integrality, time_limit=left(), threads=threads,
                        x0=x_from_schedules(inst, arr, best), raise_on_failure=False)
    if x is not None:
        keep(schedules_from_x(inst, arr, x), sol.objective)
    info["route"] = "plan relaxation + full MILP"
    bounds = [b for b in (bound, sol.bound) if b is not None and np.isfinite(b)]
    best_bound = max(min(bounds), best_val) if bounds else None
    if sol.status is Status.OPTIMAL or certified():
        return best, Status.OPTIMAL, best_bound, info
    status = Status.TIME_LIMIT if sol.status is Status.TIME_LIMIT or rel.status is Status.TIME_LIMIT else Status.FEASIBLE
    return best, status, best_bound, info
