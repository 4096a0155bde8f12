"""The one place that runs a solver.

``solve_model`` runs a Pyomo model with HiGHS (``highspy``, Pyomo's ``highs`` interface in
``pyomo.contrib.solver``) or SCIP (``pyscipopt``, Pyomo's ``scip_direct``); ``solve_problem``
runs a CVXPY problem; ``solve_milp`` runs a MILP given as arrays through ``scipy.optimize.milp``
(HiGHS inside scipy), for callers that solve many small models and cannot afford building a
Pyomo model each time.  All three map every termination condition onto :class:`~hetopt.result.Status`
and fill ``objective``, ``bound``, ``gap``, ``wall_time`` in a ``finally:`` block, so that a
stopped run still reports.  A solve is OPTIMAL only when the solver says it converged *and*
the gap between incumbent and dual bound is at most ``OPTIMAL_RTOL``; a time-limited run is
TIME_LIMIT, a run stopped at a looser requested gap is FEASIBLE.  Infeasible, unbounded and
failed solves raise (:class:`InfeasibleError`, :class:`UnboundedError`, :class:`SolverError`)
unless ``raise_on_failure=False``.
"""

from __future__ import annotations

import logging
import math
import re
import time
import warnings
from typing import Any

import numpy as np

from .errors import InfeasibleError, SolverError, UnboundedError
from .result import OPTIMAL_RTOL, Solution, Status, relative_gap

__all__ = ["solve_model", "solve_problem", "solve_milp", "PYOMO_SOLVERS", "DEFAULT_MIP_GAP"]

log = logging.getLogger(__name__)

#: Pyomo solvers hetopt knows how to drive: our name -> pyomo.contrib.solver factory name.
PYOMO_SOLVERS = {"highs": "highs", "scip": "scip_direct"}

#: Relative MIP gap requested when the caller asks for none: exact optima by default.
DEFAULT_MIP_GAP = 1e-9


def _check_common(time_limit: float | None, mip_gap: float | None, threads: int | None) -> None:
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
        raise ValueError(f"time_limit is {time_limit!r}; expected a positive number of seconds or None")
    if mip_gap is not None and not (isinstance(mip_gap, (int, float)) and 0 <= mip_gap < 1):
        raise ValueError(f"mip_gap is {mip_gap!r}; expected a relative gap in [0, 1) or None")
    if threads is not None and not (isinstance(threads, int) and threads >= 1):
        raise ValueError(f"threads is {threads!r}; expected a positive integer or None")


def _raise_for(status: Status, solver: str, message: str) -> None:
    if status is Status.INFEASIBLE:
        raise InfeasibleError(f"{solver}: model is infeasible ({message})")
    if status is Status.UNBOUNDED:
        raise UnboundedError(f"{solver}: model is unbounded ({message})")
    if status is Status.ERROR:
        raise SolverError(f"{solver}: solve failed ({message})")


def _classify_converged(objective: float | None, bound: float | None) -> Status:
    gap = relative_gap(objective, bound)
    if gap is not None and (gap <= OPTIMAL_RTOL or abs(objective - bound) <= 1e-9):
        return Status.OPTIMAL
    return Status.FEASIBLE


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
) -> Solution:
    """Solve a Pyomo model and load its solution into the model's variables.

    Parameters
    ----------
    model : pyomo.environ.ConcreteModel
        A model with exactly one active objective.
    solver : {"highs", "scip"}
        HiGHS for LP/MILP, SCIP for MINLP and nonconvex quadratic forms.
    time_limit : float, optional
        Seconds.  A run stopped by it is reported TIME_LIMIT, never OPTIMAL.
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
    from pyomo.contrib.solver.common.results import SolutionStatus, TerminationCondition as TC

    if solver not in PYOMO_SOLVERS:
        raise ValueError(f"solver is {solver!r}; expected one of {sorted(PYOMO_SOLVERS)}")
    _check_common(time_limit, mip_gap, threads)
    objectives = list(model.component_data_objects(pyo.Objective, active=True))
    if len(objectives) != 1:
        raise ValueError(f"model has {len(objectives)} active objectives; expected exactly 1")
    sense = "min" if objectives[0].sense == pyo.minimize else "max"

    opt = SolverFactory(PYOMO_SOLVERS[solver])
    if not opt.available():
        raise SolverError(f"solver {solver!r} is not available; install highspy / pyscipopt")
    kwargs: dict[str, Any] = dict(
        tee=tee,
        load_solutions=False,
        raise_exception_on_nonoptimal_result=False,
        rel_gap=DEFAULT_MIP_GAP if mip_gap is None else mip_gap,
    )
    if time_limit is not None:
        kwargs["time_limit"] = float(time_limit)
    if threads is not None:
        kwargs["threads"] = threads
    if options:
        kwargs["solver_options"] = dict(options)

    status, objective, bound, message = Status.ERROR, None, None, ""
    start = time.perf_counter()
    try:
        res = opt.solve(model, **kwargs)
        tc = res.termination_condition
        message = str(tc.name)
        has_sol = res.solution_status in (SolutionStatus.feasible, SolutionStatus.optimal)
        if has_sol:
            res.solution_loader.load_vars()
            objective = float(pyo.value(objectives[0].expr))
            incumbent = res.incumbent_objective
            if incumbent is not None and not math.isclose(incumbent, objective, rel_tol=1e-6, abs_tol=1e-6):
                log.debug("incumbent %s differs from recomputed objective %s", incumbent, objective)
        b = res.objective_bound
        if b is not None and math.isfinite(b):
            bound = float(b)
        if tc == TC.convergenceCriteriaSatisfied and has_sol:
            if bound is None:  # LPs: the optimum is its own bound
                bound = objective
            status = _classify_converged(objective, bound)
        elif tc in (TC.maxTimeLimit, TC.iterationLimit, TC.interrupted, TC.objectiveLimit, TC.minStepLength):
            status = Status.TIME_LIMIT
        elif tc in (TC.provenInfeasible, TC.locallyInfeasible):
            status = Status.INFEASIBLE
        elif tc == TC.unbounded:
            status = Status.UNBOUNDED
        elif has_sol and tc == TC.unknown:
            status = Status.FEASIBLE
        else:
            status = Status.ERROR
    except (InfeasibleError, UnboundedError):
        raise
    except Exception as exc:  # a crash inside the solver interface
        status, message = Status.ERROR, f"{type(exc).__name__}: {exc}"
    finally:
        wall = time.perf_counter() - start
    if raise_on_failure:
        _raise_for(status, solver, message)
        if status is Status.TIME_LIMIT and objective is None:
            raise SolverError(f"{solver}: time limit reached with no feasible solution")
    return Solution(
        status=status,
        objective=objective,
        bound=bound,
        gap=relative_gap(objective, bound),
        wall_time=wall,
        solver=solver,
        sense=sense,
        message=message,
    )


_CVXPY_OPTIONS = {
    "HIGHS": lambda tl, gap: {**({"time_limit": tl} if tl else {}), **({"mip_rel_gap": gap} if gap is not None else {})},
    "SCIP": lambda tl, gap: {"scip_params": {**({"limits/time": tl} if tl else {}), **({"limits/gap": gap} if gap is not None else {})}},
}


def solve_problem(
    problem: Any,
    solver: str = "HIGHS",
    *,
    time_limit: float | None = None,
    mip_gap: float | None = None,
    raise_on_failure: bool = True,
    **solver_options: Any,
) -> Solution:
    """Solve a CVXPY problem (HiGHS by default) and map its status.

    ``OPTIMAL_INACCURATE`` is reported FEASIBLE (no proof), ``USER_LIMIT`` TIME_LIMIT.
    For an LP solved to optimality the optimum is also its bound.  For a problem with
    integer variables CVXPY exposes no dual bound, so the bound is only set when the
    requested MIP gap is 0 up to ``DEFAULT_MIP_GAP`` (HiGHS then proves optimality).
    """
    import cvxpy as cp

    _check_common(time_limit, mip_gap, None)
    solver = solver.upper()
    is_mip = problem.is_mixed_integer()
    opts = dict(solver_options)
    if solver in _CVXPY_OPTIONS:
        gap = (DEFAULT_MIP_GAP if mip_gap is None else mip_gap) if is_mip else None
        opts.update(_CVXPY_OPTIONS[solver](time_limit, gap))
    sense = "max" if isinstance(problem.objective, cp.Maximize) else "min"
    status, objective, bound, message = Status.ERROR, None, None, ""
    start = time.perf_counter()
    try:
        problem.solve(solver=solver, **opts)
        st = problem.status
        message = str(st)
        if st == cp.OPTIMAL:
            objective = float(problem.value)
            if not is_mip or (mip_gap is None or mip_gap <= DEFAULT_MIP_GAP):
                bound = objective
                status = Status.OPTIMAL
            else:
                status = Status.FEASIBLE
        elif st == cp.OPTIMAL_INACCURATE:
            objective, status = float(problem.value), Status.FEASIBLE
        elif st == cp.USER_LIMIT:
            status = Status.TIME_LIMIT
            if problem.value is not None and math.isfinite(problem.value):
                objective = float(problem.value)
        elif st in (cp.INFEASIBLE, cp.INFEASIBLE_INACCURATE):
            status = Status.INFEASIBLE
        elif st in (cp.UNBOUNDED, cp.UNBOUNDED_INACCURATE):
            status = Status.UNBOUNDED
    except cp.SolverError as exc:
        status, message = Status.ERROR, f"SolverError: {exc}"
    finally:
        wall = time.perf_counter() - start
    if raise_on_failure:
        _raise_for(status, solver.lower(), message)
        if status is Status.TIME_LIMIT and objective is None:
            raise SolverError(f"{solver.lower()}: time limit reached with no feasible solution")
    return Solution(
        status=status,
        objective=objective,
        bound=bound,
        gap=relative_gap(objective, bound),
        wall_time=wall,
        solver=solver.lower(),
        sense=sense,
        message=message,
    )


#: HiGHS model-status codes (``HighsModelStatus``) as scipy's ``milp`` message reports them.
_HIGHS_OPTIMAL = 7
_HIGHS_LIMITS = {11, 12, 13, 14, 16, 17, 19}  # objective bound/target, time, iteration, solution/node limit, interrupts
_HIGHS_INFEASIBLE = 8
_HIGHS_UNBOUNDED = 10
_HIGHS_UNKNOWN = 15
_HIGHS_STATUS_RE = re.compile(r"HiGHS Status (\d+)")
#: scipy ``milp`` status -> HiGHS code, used only when the message carries no HiGHS code.
_SCIPY_TO_HIGHS = {0: _HIGHS_OPTIMAL, 1: 13, 2: _HIGHS_INFEASIBLE, 3: _HIGHS_UNBOUNDED}


def solve_milp(
    c: Any,
    *,
    sense: str = "min",
    A_ub: Any = None,
    b_ub: Any = None,
    A_eq: Any = None,
    b_eq: Any = None,
    lb: Any = None,
    ub: Any = None,
    integrality: Any = None,
    time_limit: float | None = None,
    mip_gap: float | None = None,
    raise_on_failure: bool = True,
    options: dict[str, Any] | None = None,
) -> tuple[Solution, np.ndarray | None]:
    """Solve ``min/max c x  s.t.  A_ub x <= b_ub,  A_eq x = b_eq,  lb <= x <= ub`` with HiGHS.

    Runs ``scipy.optimize.milp`` (the HiGHS bundled with scipy) and maps its outcome onto
    :class:`~hetopt.result.Status` as :func:`solve_model` does: OPTIMAL only when HiGHS
    reports convergence *and* the gap between incumbent and its MIP dual bound is at most
    ``OPTIMAL_RTOL`` (for a pure LP the optimum is its own bound); a run stopped by a time,
    iteration or node limit is TIME_LIMIT (with the incumbent if one exists), never OPTIMAL;
    a run stopped at a looser requested gap is FEASIBLE.

    Parameters
    ----------
    c : array_like, shape (n,)
        Objective coefficients.
    sense : {"min", "max"}
    A_ub, b_ub, A_eq, b_eq : array_like or scipy.sparse matrix, optional
        Inequality (``<=``) and equality rows.
    lb, ub : array_like or scalar, optional
        Variable bounds; default ``0`` and ``+inf`` (as in scipy).
    integrality : array_like of int, optional
        1 for an integer variable, 0 for a continuous one (scipy's convention); default all 0.
    time_limit : float, optional
        Seconds.
    mip_gap : float, optional
        Relative MIP gap at which HiGHS may stop (default ``DEFAULT_MIP_GAP``).
    raise_on_failure : bool
        Raise on infeasible / unbounded / failed solves and on a limit hit with no incumbent
        (default); otherwise return the status.
    options : dict, optional
        scipy ``milp`` options (``node_limit``, ``presolve``, ``disp``, ``mip_rel_gap``,
        ``time_limit``), overriding the arguments above; other keys go to HiGHS verbatim.

    Returns
    -------
    (Solution, numpy.ndarray or None)
        The solution record and the incumbent ``x`` (``None`` when there is none).

    Raises
    ------
    InfeasibleError, UnboundedError, SolverError
    """
    from scipy.optimize import Bounds, LinearConstraint, milp

    if sense not in ("min", "max"):
        raise ValueError(f"sense is {sense!r}; expected 'min' or 'max'")
    _check_common(time_limit, mip_gap, None)
    c = np.asarray(c, dtype=float).ravel()
    n = c.size
    sign = -1.0 if sense == "max" else 1.0
    constraints = []
    if A_ub is not None:
        if b_ub is None:
            raise ValueError("A_ub is given without b_ub")
        constraints.append(LinearConstraint(A_ub, -np.inf, np.asarray(b_ub, dtype=float)))
    if A_eq is not None:
        if b_eq is None:
            raise ValueError("A_eq is given without b_eq")
        beq = np.asarray(b_eq, dtype=float)
        constraints.append(LinearConstraint(A_eq, beq, beq))
    lo = np.broadcast_to(np.asarray(0.0 if lb is None else lb, dtype=float), (n,))
    hi = np.broadcast_to(np.asarray(np.inf if ub is None else ub, dtype=float), (n,))
    integ = np.zeros(n) if integrality is None else np.broadcast_to(np.asarray(integrality, dtype=float), (n,))
    is_mip = bool(np.any(integ != 0))
    opts: dict[str, Any] = {"mip_rel_gap": DEFAULT_MIP_GAP if mip_gap is None else float(mip_gap)}
    if time_limit is not None:
        opts["time_limit"] = float(time_limit)
    opts.update(options or {})  # a fresh dict: scipy pops keys from the one it is given

    status, objective, bound, message, x = Status.ERROR, None, None, "", None
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Unrecognized options detected", category=RuntimeWarning)
            res = milp(sign * c, integrality=integ, bounds=Bounds(lo, hi), constraints=constraints or None, options=opts)
        message = str(res.message)
        found = _HIGHS_STATUS_RE.search(message)
        code = int(found.group(1)) if found else _SCIPY_TO_HIGHS.get(int(res.status), -1)
        if res.x is not None and res.fun is not None and math.isfinite(res.fun):
            x = np.asarray(res.x, dtype=float)
            objective = sign * float(res.fun)
        dual = getattr(res, "mip_dual_bound", None)
        if is_mip and dual is not None and math.isfinite(dual):
            bound = sign * float(dual)
        if code == _HIGHS_OPTIMAL and x is not None:
            if not is_mip:  # LPs: the optimum is its own bound
                bound = objective
            status = _classify_converged(objective, bound)
        elif code in _HIGHS_LIMITS:
            status = Status.TIME_LIMIT
        elif code == _HIGHS_INFEASIBLE:
            status = Status.INFEASIBLE
        elif code == _HIGHS_UNBOUNDED:
            status = Status.UNBOUNDED
        elif code == _HIGHS_UNKNOWN and x is not None:
            status = Status.FEASIBLE
        else:
            status = Status.ERROR
    except ValueError:
        raise  # malformed input (shapes, bounds): the caller's error, not the solver's
    except Exception as exc:  # a crash inside scipy / HiGHS
        status, message = Status.ERROR, f"{type(exc).__name__}: {exc}"
    finally:
        wall = time.perf_counter() - start
    if status in (Status.INFEASIBLE, Status.UNBOUNDED, Status.ERROR):
        x, objective = None, None
    if raise_on_failure:
        _raise_for(status, "highs", message)
        if status is Status.TIME_LIMIT and objective is None:
            raise SolverError("highs: limit reached with no feasible solution")
    sol = Solution(
        status=status,
        objective=objective,
        bound=bound,
        gap=relative_gap(objective, bound),
        wall_time=wall,
        solver="highs",
        sense=sense,
        message=message,
    )
    return sol, x
