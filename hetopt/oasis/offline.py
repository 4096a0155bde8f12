"""The offline optimum of problem (1)-(13), solved exactly as a MILP.

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Section III-C (the paper reports two days of
solver time for 10 jobs; :func:`build_offline` with HiGHS certifies such instances in seconds
to minutes).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..errors import ArgumentError, SolverError
from ..inputs import check_choice, check_flag, check_gap, check_threads, check_time_limit, takes_instance
from ..result import Status
from ..solvers import PYOMO_SOLVERS, solve_milp, solve_model
from .arrays import CUTS, build_offline_arrays, schedules_from_x, x_from_schedules
from .checker import check_schedule
from .instance import OasisInstance
from .model import build_offline, offline_schedules
from .plan import solve_plan_first
from .schedule import OasisSolution, make_solution
from .simulator import simulate

__all__ = ["ENGINES", "solve_exact"]

#: Routes of :func:`solve_exact`.
ENGINES = ("auto", "pyomo", "arrays", "plan")

#: ``engine="auto"`` takes the plan route up to this many entries I H T^2 (the size of the
#: cumulative-work rows (V3) its relaxation carries), the Pyomo model above.
PLAN_AUTO_LIMIT = 2_000_000


@takes_instance(OasisInstance)
def solve_exact(inst: OasisInstance, *, time_limit: float | None = None, mip_gap: float | None = None,
                threads: int | None = 1, solver: str = "highs", engine: str = "auto", tighten: bool | tuple[str, ...] = False,
                warm_start: bool = True) -> OasisSolution:
    """Certified optimum (or incumbent and dual bound) of the offline problem (1)-(13).

    Parameters
    ----------
    inst : OasisInstance
    time_limit : float, optional
        Seconds; a stopped run reports TIME_LIMIT with the incumbent and the solver's bound.
    mip_gap : float, optional
        Relative gap at which the solver may stop (default: exact, 1e-9).
    threads : int
    solver : {"highs", "scip"}
        SCIP runs the Pyomo model (``engine`` "auto" or "pyomo"; the others are HiGHS routes and
        raise :class:`~hetopt.errors.ArgumentError` with SCIP).
    engine : {"auto", "pyomo", "arrays", "plan"}
        ``"auto"`` (default): ``"plan"`` when I H T^2 <= ``PLAN_AUTO_LIMIT`` (and HiGHS, no
        ``mip_gap``), else ``"pyomo"``.  ``"pyomo"``: :func:`build_offline`.  ``"arrays"``: the
        same model built with numpy (:func:`~hetopt.oasis.arrays.build_offline_arrays`) and
        solved by HiGHS directly, with OASiS's online schedule as the first incumbent.
        ``"plan"``: a relaxation with continuous placements bounds the optimum and picks the
        admitted jobs, then the MILP on those jobs, the full MILP if that misses the bound
        (:mod:`hetopt.oasis.plan`); ``mip_gap`` and ``tighten`` raise ``ArgumentError`` there
        (``"auto"`` with ``mip_gap`` picks ``"pyomo"``, with ``tighten`` ``"arrays"``).
        All certify the same optima (cross-checked in the tests); in the benchmark of
        ``models/oasis2018.md`` (Scale) the plan route certified seeds 0-4 at 30 jobs within
        60 s where the Pyomo model did not, hence the default.
    tighten : bool or tuple of str
        Valid inequalities (V1)-(V5) of :mod:`hetopt.oasis.arrays` (``"arrays"`` only, else
        ``ArgumentError``); off by
        default: they tighten the root LP by 1-2% but did not speed up the search consistently.
    warm_start : bool
        Hand OASiS's online schedule (Alg. 1) to HiGHS as the first incumbent (``"arrays"`` only).

    Returns
    -------
    OasisSolution
        ``status`` OPTIMAL with ``bound`` = the optimum when certified; ``total_utility`` is
        recomputed from the extracted schedules (it equals the solver's objective).
    """
    time_limit = check_time_limit(time_limit)
    mip_gap = check_gap(mip_gap, "mip_gap")
    threads = check_threads(threads)
    check_choice(solver, "solver", tuple(PYOMO_SOLVERS))
    check_choice(engine, "engine", ENGINES)
    tighten = _check_tighten(tighten)
    check_flag(warm_start, "warm_start")
    if engine in ("arrays", "plan") and solver != "highs":
        raise ArgumentError(f"engine={engine!r} runs on HiGHS; with solver={solver!r} use engine='pyomo' or 'auto'")
    if engine == "plan" and mip_gap is not None:
        raise ArgumentError("mip_gap does not apply to engine='plan' (it solves to optimality); use engine='pyomo' or 'arrays'")
    if engine == "auto":
        size = inst.n_jobs * inst.n_worker_servers * inst.horizon ** 2
        engine = "plan" if size <= PLAN_AUTO_LIMIT and solver == "highs" and mip_gap is None and not tighten else "pyomo"
        if tighten:
            engine = "arrays"
    if tighten and engine != "arrays":
        raise ArgumentError(f"tighten applies to engine='arrays' only; got engine={engine!r}")
    if engine == "plan" and solver == "highs":
        return _solve_plan(inst, time_limit=time_limit, threads=threads)
    if engine == "arrays" and solver == "highs":
        return _solve_arrays(inst, time_limit=time_limit, mip_gap=mip_gap, threads=threads, tighten=tighten,
                             warm_start=warm_start)
    model = build_offline(inst)
    sol = solve_model(model, solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads, require_incumbent=False)
    if sol.objective is None:
        # stopped before any incumbent: OASiS's own online schedule (feasible for (1)-(13)) is reported
        heur = simulate(inst, "oasis")
        rep = check_schedule(inst, heur.schedules)
        if not rep.ok:  # pragma: no cover - Alg. 1 only builds feasible schedules
            raise SolverError(f"time limit reached and OASiS's schedule fails the checker: {rep.violations[:3]}")
        return make_solution(inst, heur.schedules, status=sol.status, bound=sol.bound, wall_time=sol.wall_time,
                             solver=f"offline-{solver}",
                             message=f"{sol.message}; no solver incumbent, OASiS (Alg. 1) schedule reported",
                             info={"solver_objective": None, "incumbent": "oasis-online"})
    scheds = offline_schedules(inst, model)
    status = sol.status if sol.status in (Status.OPTIMAL, Status.TIME_LIMIT) else Status.FEASIBLE
    return make_solution(inst, scheds, status=status, bound=sol.bound, wall_time=sol.wall_time, solver=f"offline-{solver}",
                         message=sol.message, info={"solver_objective": sol.objective})


def _check_tighten(tighten: Any) -> bool | tuple[str, ...]:
    """``tighten`` as a bool or a tuple of names from :data:`~hetopt.oasis.arrays.CUTS`."""
    if isinstance(tighten, (bool, np.bool_)):
        return bool(tighten)
    if isinstance(tighten, (list, tuple, set, frozenset)) and all(isinstance(c, str) for c in tighten) \
            and set(tighten) <= set(CUTS):
        return tuple(tighten)
    raise ArgumentError(f"tighten is {tighten!r}; expected a bool or names from {CUTS}")


def _solve_plan(inst: OasisInstance, *, time_limit: float | None, threads: int | None) -> OasisSolution:
    start = time.perf_counter()
    scheds, status, bound, info = solve_plan_first(inst, time_limit=time_limit, threads=threads)
    return make_solution(inst, scheds, status=status, bound=bound, wall_time=time.perf_counter() - start,
                         solver="offline-plan", message=info.get("route", ""), info=info)


def _solve_arrays(inst: OasisInstance, *, time_limit: float | None, mip_gap: float | None, threads: int | None,
                  tighten: bool | tuple[str, ...], warm_start: bool) -> OasisSolution:
    start = time.perf_counter()
    arr = build_offline_arrays(inst, tighten=tighten)
    heur = simulate(inst, "oasis") if warm_start else None
    x0 = x_from_schedules(inst, arr, heur.schedules) if heur is not None else None
    sol, x = solve_milp(arr.c, sense="max", A_ub=arr.A_ub, b_ub=arr.b_ub, A_eq=arr.A_eq, b_eq=arr.b_eq, lb=arr.lb,
                        ub=arr.ub, integrality=arr.integrality, time_limit=time_limit, mip_gap=mip_gap,
                        threads=threads, x0=x0, raise_on_failure=False)
    if sol.status in (Status.INFEASIBLE, Status.UNBOUNDED, Status.ERROR):  # (1)-(13) always has x = 0
        raise SolverError(f"offline MILP (arrays): {sol.status.value} ({sol.message})")
    wall = time.perf_counter() - start
    if x is None:
        if heur is None:
            heur = simulate(inst, "oasis")
        return make_solution(inst, heur.schedules, status=Status.TIME_LIMIT, bound=sol.bound, wall_time=wall,
                             solver="offline-arrays", message=f"{sol.message}; no solver incumbent, OASiS (Alg. 1) schedule reported",
                             info={"solver_objective": None, "incumbent": "oasis-online"})
    scheds = schedules_from_x(inst, arr, x)
    rep = check_schedule(inst, scheds)
    if not rep.ok:
        raise SolverError(f"offline MILP (arrays): the solver's schedule fails the checker: {rep.violations[:3]}")
    status = sol.status if sol.status in (Status.OPTIMAL, Status.TIME_LIMIT) else Status.FEASIBLE
    return make_solution(inst, scheds, status=status, bound=sol.bound, wall_time=wall, solver="offline-arrays",
                         message=sol.message, info={"solver_objective": sol.objective,
                                                       "warm_start": None if heur is None else heur.total_utility,
                                                       "rows": dict(arr.rows)})
