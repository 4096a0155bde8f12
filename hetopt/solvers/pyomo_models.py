"""solve_model: a Pyomo model solved by HiGHS or SCIP (``pyomo.contrib.solver``), its solution loaded back."""

from __future__ import annotations

import logging
import math
import time
from typing import Any

import numpy as np

from ..certify import Status, certify
from ..errors import ArgumentError, InfeasibleError, SolverError, UnboundedError
from ..result import Solution
from .common import DEFAULT_MIP_GAP, PYOMO_SOLVERS, _check_common, _logging_progress, _report, solver_log
from .highs import _prepare_highs_threads

#: The least seconds a solver gets when the translation of the model has used up its time limit.
MIN_SOLVER_SECONDS = 0.01

log = logging.getLogger(__name__)


def _highs_warm_start(opt: Any, model: Any) -> str:
    """Load ``model``'s current variable values into the persistent HiGHS interface as a start.

    Uses the interface's variable map (``pyomo.contrib.solver`` HiGHS is persistent: ``solve``
    reuses the instance set here); when that interface changes, the start is skipped and the
    returned message says so (a start only speeds a solve up, it never changes the result).
    """
    import highspy
    import pyomo.environ as pyo

    try:
        opt.set_instance(model)
        index = opt._pyomo_var_to_solver_var_map
        n = opt._solver_model.getNumCol()
        cols, values = [], []
        for v in model.component_data_objects(pyo.Var, descend_into=True):
            j = index.get(id(v))
            if j is not None and v.value is not None:
                cols.append(j)
                values.append(float(v.value))
        if not cols:
            return "warm start: no variable has a value"
        if len(cols) == n:
            start = highspy.HighsSolution()
            full = np.zeros(n)
            full[cols] = values
            start.col_value = full.tolist()
            start.value_valid = True
            opt._solver_model.setSolution(start)
        else:  # a partial start: HiGHS completes the missing values itself (or discards the start)
            opt._solver_model.setSolution(len(cols), np.asarray(cols, dtype=np.int32), np.asarray(values))
        return f"warm start: {len(cols)} of {n} values"
    except Exception as exc:  # noqa: BLE001 - an interface change only loses the start
        log.debug("HiGHS warm start skipped: %s", exc)
        return f"warm start skipped ({type(exc).__name__})"


def solve_model(
    model: Any,
    solver: str = "highs",
    *,
    time_limit: float | None = None,
    mip_gap: float | None = None,
    threads: int | None = None,
    tee: bool = False,
    options: dict[str, Any] | None = None,
    raise_on_failure: bool = True,
    require_incumbent: bool = True,
    warm_start: bool = False,
    duals: bool = False,
) -> Solution:
    """Solve a Pyomo model and load its solution into the model's variables.

    Parameters
    ----------
    model : pyomo.environ.ConcreteModel
        A model with exactly one active objective.
    solver : {"highs", "scip"}
        HiGHS for LP/MILP, SCIP for MINLP and nonconvex quadratic forms.
    time_limit : float, optional
        Seconds for the call, translation included (the solver gets the rest, >= :data:`MIN_SOLVER_SECONDS`).
        A run stopped by it is TIME_LIMIT, unless its incumbent and bound meet within ``OPTIMAL_RTOL`` (OPTIMAL).
    mip_gap : float, optional
        Relative MIP gap at which the solver may stop (default ``DEFAULT_MIP_GAP``).
        A run stopped at a gap above ``OPTIMAL_RTOL`` is FEASIBLE, not OPTIMAL.
    threads : int, optional
    tee : bool
        Stream the solver log.
    options : dict, optional
        Solver-specific options passed through unchanged.
    raise_on_failure : bool
        Raise on infeasible / unbounded / failed solves (default); otherwise return the status.
    require_incumbent : bool
        With ``raise_on_failure``, also raise when a limit stops the run before any feasible
        solution (default).  False returns TIME_LIMIT with ``objective=None`` (and the
        solver's bound if any), for callers that supply their own incumbent (a heuristic).
    warm_start : bool
        Give the solver the variables' current values as a starting solution (set them from a
        heuristic schedule first): HiGHS receives them through ``setSolution``, SCIP as a
        partial solution of its discrete variables.  The solver checks the start itself, so
        an infeasible or partial start costs nothing but the try; ``message`` says whether
        the start was passed.
    duals : bool
        Load the constraints' duals into the suffix ``model.dual`` (created as an IMPORT
        ``Suffix`` when absent); LPs with HiGHS only.

    Returns
    -------
    Solution
        With the incumbent loaded into ``model`` when one exists.

    Raises
    ------
    InfeasibleError, UnboundedError, SolverError
    """
    import pyomo.environ as pyo
    from pyomo.contrib.solver.common.factory import SolverFactory

    called = time.perf_counter()  # the deadline counts the translation (issue 31)
    if solver not in PYOMO_SOLVERS:
        raise ArgumentError(f"solver is {solver!r}; expected one of {sorted(PYOMO_SOLVERS)}")
    if duals and solver != "highs":
        raise ArgumentError("duals=True needs solver='highs' (the LP duals of HiGHS)")
    _check_common(time_limit, mip_gap, threads)
    objectives = list(model.component_data_objects(pyo.Objective, active=True))
    if len(objectives) != 1:
        raise ValueError(f"model has {len(objectives)} active objectives; expected exactly 1")
    sense = "min" if objectives[0].sense == pyo.minimize else "max"

    opt = SolverFactory(PYOMO_SOLVERS[solver])
    if not opt.available():
        raise SolverError(f"solver {solver!r} is not available; install highspy / pyscipopt")
    kwargs = _solve_kwargs(solver, time_limit, mip_gap, threads, tee, options)
    status, objective, bound, message = Status.ERROR, None, None, ""
    if solver == "highs":
        _prepare_highs_threads(threads)
    if time_limit is not None:
        _limit_at_start(opt, solver, called + float(time_limit))
    if warm_start:  # HiGHS's start translates the model here
        message = _warm_start(opt, model, solver, kwargs)
    start = time.perf_counter()
    try:
        res = opt.solve(model, **kwargs)
        tc = res.termination_condition
        message = f"{tc.name}; {message}" if message else str(tc.name)
        objective, bound, has_sol = _incumbent(res, objectives[0])
        if has_sol and duals:
            _load_duals(model, res)
        status, bound = _status(tc, has_sol, objective, bound, sense)
    except (InfeasibleError, UnboundedError):
        raise
    except Exception as exc:  # a crash inside the solver interface
        status, message = Status.ERROR, f"{type(exc).__name__}: {exc}"
    finally:
        wall = time.perf_counter() - start
    return _report(status, objective, bound, wall, solver, sense, message, raise_on_failure=raise_on_failure,
                   require_incumbent=require_incumbent)


def _limit_at_start(opt: Any, solver: str, deadline: float) -> None:
    """Give the solver, when it starts, the seconds left until ``deadline`` (``perf_counter``).

    ``pyomo.contrib.solver`` translates the model first and passes ``time_limit`` to the solver
    after: HiGHS reads it in ``_solve`` (after ``set_instance``), SCIP in ``solve`` right after
    ``_create_solver_model``.  Both hooks are checked by ``tests/test_solvers.py``.
    """
    def left() -> float:
        return max(deadline - time.perf_counter(), MIN_SOLVER_SECONDS)

    if solver == "highs":
        inner = opt._solve

        def _solve() -> Any:
            opt._active_config.time_limit = left()
            return inner()

        opt._solve = _solve
    else:
        create = opt._create_solver_model

        def _create(model: Any, config: Any) -> Any:
            out = create(model, config)
            config.time_limit = left()
            return out

        opt._create_solver_model = _create


def _solve_kwargs(solver: str, time_limit: float | None, mip_gap: float | None, threads: int | None, tee: bool,
                  options: dict[str, Any] | None) -> dict[str, Any]:
    """The keyword arguments of the ``pyomo.contrib.solver`` ``solve`` call of :func:`solve_model`."""
    kwargs: dict[str, Any] = dict(
        tee=tee or (solver_log if _logging_progress() else False),
        load_solutions=False,
        raise_exception_on_nonoptimal_result=False,
        rel_gap=DEFAULT_MIP_GAP if mip_gap is None else mip_gap,
    )
    if time_limit is not None:
        kwargs["time_limit"] = float(time_limit)
    if threads is not None:
        kwargs["threads"] = threads
    solver_options = dict(options or {})
    if solver == "highs":  # HiGHS's default absolute gap (1e-6) would stop early on data of magnitude 1e-7
        solver_options.setdefault("mip_abs_gap", 0.0)
    if solver_options:
        kwargs["solver_options"] = solver_options
    return kwargs


def _warm_start(opt: Any, model: Any, solver: str, kwargs: dict[str, Any]) -> str:
    """Hand ``model``'s current values to the solver as a start (SCIP: through ``kwargs``); the message says how."""
    import pyomo.environ as pyo

    if solver != "scip":
        return _highs_warm_start(opt, model)
    missing = sum(1 for v in model.component_data_objects(pyo.Var, descend_into=True)
                  if not v.is_continuous() and v.value is None)
    if missing:  # SCIP's interface takes a start only with every discrete value given
        return f"warm start skipped ({missing} discrete variables have no value)"
    kwargs["warmstart_discrete_vars"] = True
    return ""


def _incumbent(res: Any, objective_component: Any) -> tuple[float | None, float | None, bool]:
    """``(objective, bound, has_solution)`` of a run, the incumbent loaded into the model's variables."""
    import pyomo.environ as pyo
    from pyomo.contrib.solver.common.results import SolutionStatus

    objective, bound = None, None
    has_sol = res.solution_status in (SolutionStatus.feasible, SolutionStatus.optimal)
    if has_sol:
        res.solution_loader.load_vars()
        objective = float(pyo.value(objective_component.expr))
        incumbent = res.incumbent_objective
        if incumbent is not None and not math.isclose(incumbent, objective, rel_tol=1e-6, abs_tol=1e-6):
            log.debug("incumbent %s differs from recomputed objective %s", incumbent, objective)
    b = res.objective_bound
    if b is not None and math.isfinite(b):
        bound = float(b)
    return objective, bound, has_sol


def _status(tc: Any, has_sol: bool, objective: float | None, bound: float | None,
            sense: str) -> tuple[Status, float | None]:
    """``(status, bound)``: Pyomo's termination condition mapped (:func:`certify`); an LP's optimum is its bound."""
    from pyomo.contrib.solver.common.results import TerminationCondition as TC

    if tc == TC.convergenceCriteriaSatisfied and has_sol:
        if bound is None:  # LPs: the optimum is its own bound
            bound = objective
        return certify(objective, bound, stopped=False, sense=sense), bound
    if tc in (TC.maxTimeLimit, TC.iterationLimit, TC.interrupted, TC.objectiveLimit, TC.minStepLength):
        return certify(objective, bound, stopped=True, sense=sense), bound
    if tc in (TC.provenInfeasible, TC.locallyInfeasible):
        return Status.INFEASIBLE, bound
    if tc == TC.unbounded:
        return Status.UNBOUNDED, bound
    if has_sol and tc == TC.unknown:
        return Status.FEASIBLE, bound
    return Status.ERROR, bound


def _load_duals(model: Any, res: Any) -> None:
    """Copy the solver's constraint duals into ``model.dual``."""
    import pyomo.environ as pyo

    if not hasattr(model, "dual"):
        model.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
    for con, value in res.solution_loader.get_duals().items():
        model.dual[con] = float(value)
