"""The MILP route of :func:`hetopt.hare.exact.solve_exact`: the big-M MILP of (4)-(8) with HiGHS or SCIP.

The Pyomo GDP/big-M model of :func:`hetopt.hare.model.build_hare_sched` (the declarative
statement of Hare_Sched), with the big-M constants from the best cheap schedule
(:func:`hetopt.hare.exact.start.best_known_schedule`).  The solver's decision (GPU of every task and
order of starts) is re-timed semi-actively, which removes the solver's feasibility-tolerance noise.
"""

from __future__ import annotations

import time

import numpy as np
import pyomo.environ as pyo

from ...errors import SolverError
from ...result import OPTIMAL_RTOL, Status
from ...solvers import solve_model
from ..instance import HareInstance
from ..listsched import semi_active
from ..model import build_hare_sched
from ..solution import HareSolution, make_solution
from .start import best_known_schedule

__all__ = ["solve_milp_exact", "model_decision"]


def model_decision(model: pyo.ConcreteModel, inst: HareInstance) -> tuple[np.ndarray, np.ndarray]:
    """Start times and GPUs (``argmax_m y_{i,m}``) read from a solved Hare model.

    Parameters
    ----------
    model : pyomo.environ.ConcreteModel
        A solved model of :func:`hetopt.hare.model.build_hare_sched` or
        :func:`hetopt.hare.model.build_relaxation`.
    inst : HareInstance
        Its instance.

    Returns
    -------
    start, gpu : numpy.ndarray
    """
    start = np.array([pyo.value(model.x[i]) for i in range(inst.n_tasks)])
    y = np.array([[pyo.value(model.y[i, g]) for g in range(inst.n_gpus)] for i in range(inst.n_tasks)])
    return start, y.argmax(axis=1)


def solve_milp_exact(inst: HareInstance, *, solver: str = "highs", time_limit: float | None = None,
                     mip_gap: float | None = None, threads: int | None = 1,
                     symmetry_breaking: bool = True) -> HareSolution:
    """Solve the big-M MILP of Hare_Sched; the arguments are those of :func:`hetopt.hare.exact.solve_exact`.

    Parameters
    ----------
    inst : HareInstance
        The instance.
    solver : {"highs", "scip"}
        The MILP solver.
    time_limit : float, optional
        Seconds; a stopped solve is TIME_LIMIT with the incumbent (the best cheap schedule when
        the solver has none) and the solver's bound.
    mip_gap : float, optional
        Relative gap (default: exact optima).
    threads : int, optional
        Solver threads.
    symmetry_breaking : bool
        See :func:`hetopt.hare.model.build_hare_sched`.

    Returns
    -------
    HareSolution
        ``method="exact"``; OPTIMAL only when the recomputed objective meets the solver's bound.
    """
    t0 = time.perf_counter()
    heur_start, heur_gpu, ub = best_known_schedule(inst)
    model = build_hare_sched(inst, symmetry_breaking=symmetry_breaking, upper_objective=ub)
    res = solve_model(model, solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads,
                      require_incumbent=False)
    if res.objective is None:  # stopped before any incumbent: the best heuristic schedule is the incumbent
        return make_solution(inst, heur_start, heur_gpu, method="exact", status=res.status, bound=res.bound,
                             wall_time=time.perf_counter() - t0, solver=res.solver,
                             message=f"{res.message}; no solver incumbent, heuristic schedule reported",
                             info={"model_objective": None, "upper_bound_used": ub, "incumbent": "heuristic"})
    raw_start, gpu = model_decision(model, inst)
    # re-time the solver's decision (assignment and order of starts) semi-actively: removes
    # the solver's feasibility-tolerance noise, never increases any start beyond noise
    order = tuple(np.lexsort((inst.task_round, raw_start)))
    timed = semi_active(inst, order, gpu)
    if timed is None:
        raise SolverError(f"{res.solver}: the solver's starts break (7) beyond its tolerance; no schedule to report")
    start = timed[0]
    status = res.status
    sol = make_solution(inst, start, gpu, method="exact", status=status, bound=res.bound,
                        wall_time=time.perf_counter() - t0, solver=res.solver, message=res.message,
                        info={"model_objective": res.objective, "upper_bound_used": ub})
    if status is Status.OPTIMAL and sol.gap is not None and sol.gap > OPTIMAL_RTOL:
        # the recomputed objective of the rounded decision must match the certified optimum
        sol = make_solution(inst, start, gpu, method="exact", status=Status.FEASIBLE, bound=res.bound,
                            wall_time=sol.wall_time, solver=res.solver,
                            message=f"{res.message}; recomputed objective differs from the solver's",
                            info=sol.info)
    return sol
