"""Solving Hare_Sched_RL, the relaxation (4)-(7) + (9), for Algorithm 1 and lower bounds."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pyomo.environ as pyo

from ..certify import relative_gap
from ..errors import SizeLimitError
from ..inputs import check_choice, check_flag, check_gap, check_threads, check_time_limit, takes_instance
from ..result import Solution
from ..solvers import solve_model
from .exact.milp import HIGHS_OPTIONS
from .exact.normalize import normalization, normalized_instance
from .exact.start import best_known_schedule
from .instance import HareInstance
from .model import FORMS, build_relaxation

__all__ = ["HareRelaxation", "solve_relaxation", "middle_completion", "MAX_RELAXATION_BUILD_TASKS"]

#: The relaxation's model is refused beyond this many tasks, with or without a time limit: its disjunctions grow as
#: the square of the tasks (8 GPUs: 83 tasks built in 1.0 s, 179 in 4.8 s); before issue 31 a time limit (the
#: command line's default) let Algorithm 1 build it at 10^18 tasks, a MemoryError.
MAX_RELAXATION_BUILD_TASKS = 200


def middle_completion(inst: HareInstance, x_hat: np.ndarray) -> np.ndarray:
    """``H_i = max_m (x-hat_i + T^c_{i,m} / 2)``, the maximum middle completion time (Section 5.2).

    Parameters
    ----------
    inst : HareInstance
        The instance.
    x_hat : numpy.ndarray, shape (|D|,)
        Start times.

    Returns
    -------
    numpy.ndarray, shape (|D|,)
    """
    return np.asarray(x_hat, dtype=float) + inst.task_compute.max(axis=1) / 2.0


@dataclass(frozen=True, kw_only=True)
class HareRelaxation(Solution):
    """Solution of Hare_Sched_RL.

    Attributes
    ----------
    objective : float
        The relaxation's incumbent value.
    bound : float or None
        The solver's certified lower bound on the relaxation, hence on Hare_Sched's
        optimum (the relaxation contains every feasible schedule).
    x_hat : numpy.ndarray, shape (|D|,)
        Start times ``x-hat_i``.
    y_hat : numpy.ndarray of int, shape (|D|,)
        GPU of every task in the relaxed solution (Algorithm 1 does not use it).
    H : numpy.ndarray, shape (|D|,)
        ``H_i = max_m x-hat_i + T^c_{i,m}/2``.
    form : str
        "linear" (HiGHS MILP) or "direct" (SCIP MIQCP).
    subsets : bool
        Whether (9) was imposed on every subset or, as printed, on the full set.
    """

    x_hat: np.ndarray
    y_hat: np.ndarray
    H: np.ndarray
    form: str = "linear"
    subsets: bool = False


@takes_instance(HareInstance)
def solve_relaxation(inst: HareInstance, form: str = "linear", *, solver: str | None = None, subsets: bool = False,
                     time_limit: float | None = None, mip_gap: float | None = None,
                     threads: int | None = 1) -> HareRelaxation:
    """Solve Hare_Sched_RL and return ``x-hat``, ``H`` and the certified lower bound.

    Parameters
    ----------
    inst : HareInstance
    form : {"linear", "direct"}
        The exact linearization (default; HiGHS) or the direct quadratic form (SCIP).
    solver : {"highs", "scip"}, optional
        Default: HiGHS for ``"linear"``, SCIP for ``"direct"`` (HiGHS cannot take it).
    subsets : bool
        (9) on every subset of tasks instead of the full set (see
        :func:`hetopt.hare.model.build_relaxation`).
    time_limit, mip_gap, threads
        Passed to :func:`hetopt.solvers.solve_model`.

    Notes
    -----
    The model is solved in normalized units (:func:`hetopt.hare.exact.normalize.normalization`:
    powers of two, exact) and ``x-hat``, the objective and the bound are given back in the
    instance's units, so that the solvers' absolute tolerances do not depend on the data's
    magnitude (issue 25).

    Returns
    -------
    HareRelaxation
    """
    check_choice(form, "form", FORMS)
    check_flag(subsets, "subsets")
    if solver is not None:
        check_choice(solver, "solver", ("highs", "scip"))
    time_limit = check_time_limit(time_limit)
    mip_gap = check_gap(mip_gap, "mip_gap")
    check_threads(threads)
    if inst.n_tasks > MAX_RELAXATION_BUILD_TASKS:
        raise SizeLimitError(f"the instance has {inst.n_tasks} tasks; the relaxation's model is built for at most "
                             f"MAX_RELAXATION_BUILD_TASKS = {MAX_RELAXATION_BUILD_TASKS} (its disjunctions grow as "
                             "the square of the tasks), time limit or not: use Algorithm 1's ordering='lp'")
    t0 = time.perf_counter()
    solver = solver or ("highs" if form == "linear" else "scip")
    norm = normalization(inst)  # the model in normalized units (issue 25: solvers' absolute tolerances)
    ni = normalized_instance(inst, norm)
    heur_start, heur_gpu, ub = best_known_schedule(ni)
    model = build_relaxation(ni, form, subsets=subsets, upper_objective=ub)
    res = solve_model(model, solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads,
                      require_incumbent=False, options=HIGHS_OPTIONS if solver == "highs" else None)
    message = res.message
    if res.objective is None:
        # stopped before any incumbent: x-hat is the best heuristic schedule's starts (feasible
        # for Hare_Sched, hence for its relaxation); its relaxation objective is not evaluated
        x_hat, y_hat = np.asarray(heur_start, dtype=float), np.asarray(heur_gpu)
        message = f"{message}; no solver incumbent, x-hat from the heuristic schedule"
    else:
        x_hat = np.array([pyo.value(model.x[i]) for i in range(inst.n_tasks)])
        y = np.array([[pyo.value(model.y[i, g]) for g in range(inst.n_gpus)] for i in range(inst.n_tasks)])
        y_hat = y.argmax(axis=1)
    x_hat = x_hat * norm.time
    unit = norm.objective

    def scaled(v: float | None) -> float | None:
        return None if v is None else float(v) * unit

    objective, bound = scaled(res.objective), scaled(res.bound)
    return HareRelaxation(status=res.status, objective=objective, bound=bound, gap=relative_gap(objective, bound),
                          wall_time=time.perf_counter() - t0, solver=res.solver,
                          message=f"{message}; solved in units of {norm.time:g} s and weight {norm.weight:g}",
                          x_hat=x_hat, y_hat=y_hat, H=middle_completion(inst, x_hat), form=form,
                          subsets=subsets)
