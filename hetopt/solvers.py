"""The one place that runs a solver.

``solve_model`` runs a Pyomo model with HiGHS (``highspy``, Pyomo's ``highs`` interface in
``pyomo.contrib.solver``) or SCIP (``pyscipopt``, Pyomo's ``scip_direct``); ``solve_problem``
runs a CVXPY problem; ``solve_milp`` runs a MILP given as arrays (scipy's ``milp`` conventions)
directly through ``highspy``, for callers that solve many small models and cannot afford
building a Pyomo model each time; ``solve_cpsat`` runs an OR-Tools CP-SAT model.  All four
return a :class:`~hetopt.result.Solution`: they map every termination condition onto
:class:`~hetopt.certify.Status` and fill ``objective``, ``bound``, ``gap``, ``wall_time`` in a
``finally:`` block, so that a stopped run still reports.  The status of a run with an incumbent
is :func:`~hetopt.certify.certify`'s: OPTIMAL only when the incumbent and the solver's dual bound
meet within ``OPTIMAL_RTOL``, TIME_LIMIT when a limit stopped the run short of that, FEASIBLE
when it finished short of it (at a looser requested gap).  Infeasible, unbounded and failed
solves raise (:class:`InfeasibleError`, :class:`UnboundedError`, :class:`SolverError`) unless
``raise_on_failure=False``; so does a dual bound on the wrong side of the incumbent.
"""

from __future__ import annotations

import logging
import math
import os
import sys
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .certify import Status, certify, relative_gap
from .errors import ArgumentError, InfeasibleError, SolverError, UnboundedError
from .inputs import check_gap, check_threads, check_time_limit
from .result import Solution

__all__ = ["solve_model", "new_highs", "solve_lp_duals", "LPDualsOutcome", "solve_problem", "solve_milp", "solve_cpsat", "PYOMO_SOLVERS",
           "DEFAULT_MIP_GAP"]

log = logging.getLogger(__name__)
#: Where solver log lines go when progress is logged (``hetopt -v``, or INFO on this logger).
solver_log = logging.getLogger("hetopt.solver")


def _logging_progress() -> bool:
    """True when solver progress should be logged (the ``hetopt.solver`` logger takes INFO)."""
    return solver_log.isEnabledFor(logging.INFO)


def _log_line(line: str) -> None:
    line = line.rstrip()
    if line:
        solver_log.info(line)

#: Pyomo solvers hetopt knows how to drive: our name -> pyomo.contrib.solver factory name.
PYOMO_SOLVERS = {"highs": "highs", "scip": "scip_direct"}

#: Relative MIP gap requested when the caller asks for none: exact optima by default.
DEFAULT_MIP_GAP = 1e-9

#: Thread count HiGHS's process-wide scheduler was last set up for (None: HiGHS's default).
_highs_scheduler_threads: list[int | None] = []


def new_highs(threads: int | None = None, *, quiet: bool = True, options: Mapping[str, Any] | None = None) -> Any:
    """A ``highspy.Highs`` object ready for a model, the one door to a raw HiGHS model.

    Parameters
    ----------
    threads : int, optional
        Threads of the solve: HiGHS's process-wide scheduler is set up for it (a count other than
        the last one used would fail otherwise) and the option ``threads`` is set.
    quiet : bool
        ``output_flag`` off (default), unless progress is logged (``hetopt -v``: the log goes to
        the ``hetopt.solver`` logger).
    options : mapping, optional
        Further HiGHS options (name -> value), set in order; an option HiGHS rejects is a
        :class:`~hetopt.errors.ArgumentError`.

    Notes
    -----
    The first HiGHS object of a process prints a banner on the C-level stdout whatever its
    options, which would corrupt ``hetopt ... --json``: it goes to /dev/null.
    """
    _prepare_highs_threads(threads)
    h = _raw_highs()
    if threads is not None:
        h.setOptionValue("threads", int(threads))
    if quiet:
        if _logging_progress():
            h.setOptionValue("output_flag", True)
            h.setOptionValue("log_to_console", False)
            h.cbLogging.subscribe(lambda event: _log_line(event.data_out.log_msg))
        else:
            h.setOptionValue("output_flag", False)
    for key, value in (options or {}).items():
        if h.setOptionValue(key, value) == _highs_error():
            raise ArgumentError(f"HiGHS rejected the option {key}={value!r}")
    return h


def _highs_error() -> Any:
    import highspy

    return highspy.HighsStatus.kError


@dataclass(frozen=True)
class LPDualsOutcome:
    """What :func:`solve_lp_duals` read back from HiGHS.

    Attributes
    ----------
    status : str
        HiGHS's model status as text ("Optimal", "Time limit reached", ...).
    objective : float
        HiGHS's objective value (of the minimization it solved).
    row_dual : numpy.ndarray
        Row duals in HiGHS's convention.
    dual_valid : bool
        Whether HiGHS reports the duals as valid.
    """

    status: str
    objective: float
    row_dual: np.ndarray
    dual_valid: bool


def solve_lp_duals(c: np.ndarray, A: Any, row_lower: np.ndarray, row_upper: np.ndarray, col_lower: np.ndarray,
                   col_upper: np.ndarray, *, threads: int | None = None, time_limit: float | None = None,
                   options: Mapping[str, Any] | None = None) -> LPDualsOutcome:
    """Minimize ``c x`` s.t. ``row_lower <= A x <= row_upper``, ``col_lower <= x <= col_upper``; keep the row duals.

    Parameters
    ----------
    c : numpy.ndarray, shape (n,)
    A : scipy.sparse matrix in CSC form, shape (m, n)
    row_lower, row_upper : numpy.ndarray, shape (m,)
        Row bounds (``-inf`` / ``inf`` for none).
    col_lower, col_upper : numpy.ndarray, shape (n,)
    threads : int, optional
    time_limit : float, optional
        Seconds.
    options : mapping, optional
        Further HiGHS options (e.g. ``{"solver": "ipm", "run_crossover": "off"}``).

    Returns
    -------
    LPDualsOutcome
    """
    import highspy

    opts: dict[str, Any] = {}
    limit = check_time_limit(time_limit)
    if limit is not None:
        opts["time_limit"] = limit
    opts.update(options or {})
    h = new_highs(threads, options=opts)
    n, m = int(np.size(c)), int(A.shape[0])
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, m
    lp.col_cost_, lp.col_lower_, lp.col_upper_ = c, col_lower, col_upper
    lp.row_lower_, lp.row_upper_ = row_lower, row_upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = A.indptr, A.indices, A.data
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = n, m
    if h.passModel(lp) == highspy.HighsStatus.kError:
        raise SolverError("HiGHS rejected the LP")
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    sol = h.getSolution()
    return LPDualsOutcome(status, float(h.getInfo().objective_function_value), np.asarray(sol.row_dual, dtype=float),
                          bool(sol.dual_valid))


def _raw_highs() -> Any:
    import highspy

    if _highs_banner_done:
        return highspy.Highs()
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            h = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    _highs_banner_done.append(True)
    return h


_highs_banner_done: list[bool] = []


def _after_fork_in_child() -> None:
    """In a forked child, drop the HiGHS scheduler inherited from the parent so that the child starts its own.

    A forked child inherits HiGHS's scheduler without its worker threads, and its first
    parallel solve waits for them forever (``hetopt validate`` in a process that had solved
    before hung).  The child drops that scheduler without waiting and starts its own.
    """
    if "highspy" in sys.modules:
        sys.modules["highspy"].Highs.resetGlobalScheduler(False)
    _highs_scheduler_threads.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _prepare_highs_threads(threads: int | None) -> None:
    """Let a HiGHS solve use ``threads`` whatever thread count an earlier solve used.

    HiGHS starts one task scheduler per process, sized by the first solve; a later solve that
    asks for another count fails ("the scheduler has already been initialized to use 2
    threads"), which surfaced as "solve failed (unknown)" when, say, a placement solve (all
    cores) preceded a Hare solve (1 thread).  The scheduler is torn down when the count changes
    (and before the first explicit count, as a solve outside hetopt may have set it up).
    """
    known = bool(_highs_scheduler_threads)
    if (known and _highs_scheduler_threads[-1] != threads) or (not known and threads is not None):
        import highspy

        highspy.Highs.resetGlobalScheduler(True)
    _highs_scheduler_threads[:] = [threads]


def _check_common(time_limit: Any, mip_gap: Any, threads: Any) -> None:
    check_time_limit(time_limit)
    check_gap(mip_gap, "mip_gap")
    check_threads(threads)


def _raise_for(status: Status, solver: str, message: str) -> None:
    if status is Status.INFEASIBLE:
        raise InfeasibleError(f"{solver}: model is infeasible ({message})")
    if status is Status.UNBOUNDED:
        raise UnboundedError(f"{solver}: model is unbounded ({message})")
    if status is Status.ERROR:
        raise SolverError(f"{solver}: solve failed ({message})")


def _report(status: Status, objective: float | None, bound: float | None, wall: float, solver: str, sense: str,
            message: str, *, raise_on_failure: bool, require_incumbent: bool, limit: str = "time limit",
            info: dict[str, Any] | None = None) -> Solution:
    """The :class:`Solution` of a run, or the error it is when ``raise_on_failure`` (see :func:`solve_model`)."""
    if raise_on_failure:
        _raise_for(status, solver, message)
        if status is Status.TIME_LIMIT and objective is None and require_incumbent:
            raise SolverError(f"{solver}: {limit} reached with no feasible solution")
    return Solution(status=status, objective=objective, bound=bound, gap=relative_gap(objective, bound),
                    wall_time=wall, solver=solver, sense=sense, message=message, info=info or {})


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
        Seconds.  A run stopped by it is reported TIME_LIMIT, unless its incumbent and bound
        already meet within ``OPTIMAL_RTOL`` (a proof, OPTIMAL).
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
    from pyomo.contrib.solver.common.results import SolutionStatus
    from pyomo.contrib.solver.common.results import TerminationCondition as TC

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

    status, objective, bound, message = Status.ERROR, None, None, ""
    if solver == "highs":
        _prepare_highs_threads(threads)
    if warm_start:
        if solver == "scip":
            missing = sum(1 for v in model.component_data_objects(pyo.Var, descend_into=True)
                          if not v.is_continuous() and v.value is None)
            if missing:  # SCIP's interface takes a start only with every discrete value given
                message = f"warm start skipped ({missing} discrete variables have no value)"
            else:
                kwargs["warmstart_discrete_vars"] = True
        else:
            message = _highs_warm_start(opt, model)
    start = time.perf_counter()
    try:
        res = opt.solve(model, **kwargs)
        tc = res.termination_condition
        message = f"{tc.name}; {message}" if message else str(tc.name)
        has_sol = res.solution_status in (SolutionStatus.feasible, SolutionStatus.optimal)
        if has_sol:
            res.solution_loader.load_vars()
            objective = float(pyo.value(objectives[0].expr))
            if duals:
                _load_duals(model, res)
            incumbent = res.incumbent_objective
            if incumbent is not None and not math.isclose(incumbent, objective, rel_tol=1e-6, abs_tol=1e-6):
                log.debug("incumbent %s differs from recomputed objective %s", incumbent, objective)
        b = res.objective_bound
        if b is not None and math.isfinite(b):
            bound = float(b)
        if tc == TC.convergenceCriteriaSatisfied and has_sol:
            if bound is None:  # LPs: the optimum is its own bound
                bound = objective
            status = certify(objective, bound, stopped=False, sense=sense)
        elif tc in (TC.maxTimeLimit, TC.iterationLimit, TC.interrupted, TC.objectiveLimit, TC.minStepLength):
            status = certify(objective, bound, stopped=True, sense=sense)
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
    return _report(status, objective, bound, wall, solver, sense, message, raise_on_failure=raise_on_failure,
                   require_incumbent=require_incumbent)


def _load_duals(model: Any, res: Any) -> None:
    """Copy the solver's constraint duals into ``model.dual``."""
    import pyomo.environ as pyo

    if not hasattr(model, "dual"):
        model.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
    for con, value in res.solution_loader.get_duals().items():
        model.dual[con] = float(value)


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
    threads: int | None = None,
    raise_on_failure: bool = True,
    require_incumbent: bool = True,
    **solver_options: Any,
) -> Solution:
    """Solve a CVXPY problem (HiGHS by default) and map its status.

    ``threads`` (HiGHS only; None: its default) sets HiGHS's option of that name, after its
    process-wide scheduler is set up for the count (:func:`new_highs`).

    ``OPTIMAL_INACCURATE`` is reported FEASIBLE (no proof), ``USER_LIMIT`` TIME_LIMIT.
    For an LP solved to optimality the optimum is also its bound.  For a problem with
    integer variables CVXPY exposes no dual bound, so the bound is only set when the
    requested MIP gap is 0 up to ``DEFAULT_MIP_GAP`` (HiGHS then proves optimality).
    ``raise_on_failure`` and ``require_incumbent`` act as in :func:`solve_model`: with
    ``require_incumbent=False`` a run stopped before any feasible point returns TIME_LIMIT with
    ``objective=None`` instead of raising.
    """
    import cvxpy as cp

    _check_common(time_limit, mip_gap, threads)
    solver = solver.upper()
    is_mip = problem.is_mixed_integer()
    opts = dict(solver_options)
    if threads is not None:
        if solver != "HIGHS":
            raise ArgumentError(f"threads is {threads!r}; only the HiGHS interface takes a thread count here")
        _prepare_highs_threads(int(threads))
        opts["threads"] = int(threads)
    if solver in _CVXPY_OPTIONS:
        gap = (DEFAULT_MIP_GAP if mip_gap is None else mip_gap) if is_mip else None
        opts.update(_CVXPY_OPTIONS[solver](time_limit, gap))
    sense = "max" if isinstance(problem.objective, cp.Maximize) else "min"
    if solver == "HIGHS" and not _highs_banner_done:
        _raw_highs()  # the process's first HiGHS prints a banner on stdout: absorb it here
    status, objective, bound, message = Status.ERROR, None, None, ""
    start = time.perf_counter()
    try:
        with warnings.catch_warnings(record=True) as caught:  # CVXPY's "may be inaccurate": said in the status
            warnings.simplefilter("always")
            problem.solve(solver=solver, **opts)
        st = problem.status
        message = str(st) + "".join(f"; {w.message}" for w in caught if issubclass(w.category, UserWarning))
        if st == cp.OPTIMAL:
            objective = float(problem.value)
            if not is_mip or (mip_gap is None or mip_gap <= DEFAULT_MIP_GAP):
                bound = objective  # solved to optimality: the optimum is its own bound
            status = certify(objective, bound, stopped=False, sense=sense)
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
    return _report(status, objective, bound, wall, solver.lower(), sense, message, raise_on_failure=raise_on_failure,
                   require_incumbent=require_incumbent)


#: HiGHS model-status codes (``highspy.HighsModelStatus``).
_HIGHS_OPTIMAL = 7
#: objective bound / target, time, iteration, solution (node) limit, interrupts
_HIGHS_LIMITS = {11, 12, 13, 14, 16, 17, 19}
_HIGHS_INFEASIBLE = 8
_HIGHS_UNBOUNDED = 10
_HIGHS_UNKNOWN = 15
#: ``solve_milp`` options with scipy ``milp`` names -> HiGHS option names.
_MILP_OPTION_NAMES = {"node_limit": "mip_max_nodes", "disp": "output_flag", "mip_rel_gap": "mip_rel_gap",
                      "time_limit": "time_limit", "presolve": "presolve"}


@dataclass(frozen=True)
class _MilpArrays:
    """``min/max c x  s.t.  row_lower <= A x <= row_upper,  col_lower <= x <= col_upper``, checked, ``A`` in CSC."""

    c: np.ndarray
    A: Any
    row_lower: np.ndarray
    row_upper: np.ndarray
    col_lower: np.ndarray
    col_upper: np.ndarray
    integer: np.ndarray
    x0: np.ndarray | None

    @property
    def is_mip(self) -> bool:
        return bool(self.integer.any())


def _as_rows(A: Any, n: int, name: str):
    from scipy import sparse

    M = sparse.csr_matrix(A, dtype=float)
    if M.ndim != 2 or M.shape[1] != n:
        raise ArgumentError(f"{name} has shape {M.shape}; expected (rows, {n})")
    return M


def _milp_arrays(c: Any, sense: Any, A_ub: Any, b_ub: Any, A_eq: Any, b_eq: Any, lb: Any, ub: Any, integrality: Any,
                 x0: Any) -> _MilpArrays:
    """The arguments of :func:`solve_milp` checked and stacked into HiGHS's row form (scipy's conventions)."""
    from scipy import sparse

    if sense not in ("min", "max"):
        raise ArgumentError(f"sense is {sense!r}; expected 'min' or 'max'")
    c = np.asarray(c, dtype=float).ravel()
    n = c.size
    blocks, row_lo, row_hi = [], [], []
    for A, b, name, eq in ((A_ub, b_ub, "A_ub", False), (A_eq, b_eq, "A_eq", True)):
        if A is None:
            continue
        if b is None:
            raise ArgumentError(f"{name} is given without b_{name[2:]}")
        M = _as_rows(A, n, name)
        b = np.broadcast_to(np.asarray(b, dtype=float).ravel(), (M.shape[0],))
        blocks.append(M)
        row_hi.append(b)
        row_lo.append(b if eq else np.full(M.shape[0], -np.inf))
    lo = np.broadcast_to(np.asarray(0.0 if lb is None else lb, dtype=float), (n,)).copy()
    hi = np.broadcast_to(np.asarray(np.inf if ub is None else ub, dtype=float), (n,)).copy()
    if np.any(lo > hi):
        raise ArgumentError(f"lb > ub for variables {np.nonzero(lo > hi)[0].tolist()[:10]}")
    integ = np.zeros(n) if integrality is None else np.broadcast_to(np.asarray(integrality, dtype=float), (n,))
    if x0 is not None and np.size(x0) != n:
        raise ArgumentError(f"x0 has {np.size(x0)} entries; expected one per variable ({n})")
    return _MilpArrays(c=c, A=sparse.vstack(blocks, format="csc") if blocks else sparse.csc_matrix((0, n)),
                       row_lower=np.concatenate(row_lo) if row_lo else np.zeros(0),
                       row_upper=np.concatenate(row_hi) if row_hi else np.zeros(0),
                       col_lower=lo, col_upper=hi, integer=integ != 0,
                       x0=None if x0 is None else np.asarray(x0, dtype=float).ravel())


def _milp_options(time_limit: float | None, mip_gap: float | None, threads: int | None,
                  options: Mapping[str, Any] | None) -> dict[str, Any]:
    """HiGHS options of :func:`solve_milp`: those of its arguments, then ``options`` (scipy's names translated)."""
    opts: dict[str, Any] = {"output_flag": False, "mip_rel_gap": DEFAULT_MIP_GAP if mip_gap is None else float(mip_gap),
                            "mip_abs_gap": 0.0}
    if time_limit is not None:
        opts["time_limit"] = float(time_limit)
    if threads is not None:
        opts["threads"] = threads
    for key, value in (options or {}).items():
        key = _MILP_OPTION_NAMES.get(key, key)
        if key == "presolve" and isinstance(value, bool):
            value = "on" if value else "off"
        opts[key] = value
    return opts


def _highs_milp(arr: _MilpArrays, sense: str, threads: int | None, opts: dict[str, Any]) -> Any:
    """A ``highspy.Highs`` holding the model of ``arr`` with options ``opts`` and the start ``arr.x0``."""
    import highspy

    quiet = not opts.get("output_flag")
    if _logging_progress():  # the log goes to the hetopt.solver logger (new_highs)
        opts = {k: v for k, v in opts.items() if k != "output_flag"}
    h = new_highs(threads, quiet=quiet, options=opts)
    n, m = arr.c.size, arr.A.shape[0]
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, m
    lp.col_cost_, lp.col_lower_, lp.col_upper_ = arr.c, arr.col_lower, arr.col_upper
    lp.row_lower_, lp.row_upper_ = arr.row_lower, arr.row_upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = arr.A.indptr, arr.A.indices, arr.A.data
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = n, m
    if arr.is_mip:
        lp.integrality_ = [highspy.HighsVarType.kInteger if v else highspy.HighsVarType.kContinuous
                           for v in arr.integer]
    lp.sense_ = highspy.ObjSense.kMaximize if sense == "max" else highspy.ObjSense.kMinimize
    if h.passModel(lp) == highspy.HighsStatus.kError:
        raise SolverError("HiGHS rejected the model")
    if arr.x0 is not None:
        start = highspy.HighsSolution()
        start.col_value = arr.x0.tolist()
        start.value_valid = True
        h.setSolution(start)
    return h


#: What a run's outcome is read as: (status, objective, bound, message, incumbent values).
_Outcome = tuple[Status, float | None, float | None, str, np.ndarray | None]


def _milp_outcome(h: Any, is_mip: bool, sense: str) -> _Outcome:
    """``(status, objective, bound, message, x)`` of a HiGHS run: its model status mapped (:func:`certify`)."""
    import highspy

    code = int(h.getModelStatus())
    message = h.modelStatusToString(h.getModelStatus())
    info = h.getInfo()
    objective, bound, x = None, None, None
    if info.primal_solution_status == int(highspy.SolutionStatus.kSolutionStatusFeasible):
        x = np.array(h.getSolution().col_value, dtype=float)
        objective = float(info.objective_function_value)
    if is_mip and math.isfinite(info.mip_dual_bound) and abs(info.mip_dual_bound) < highspy.kHighsInf:
        bound = float(info.mip_dual_bound)
    if code == _HIGHS_OPTIMAL and x is not None:
        if not is_mip:  # LPs: the optimum is its own bound
            bound = objective
        status = certify(objective, bound, stopped=False, sense=sense)
    elif code in _HIGHS_LIMITS:
        status = certify(objective, bound, stopped=True, sense=sense)
    elif code == _HIGHS_INFEASIBLE:
        status = Status.INFEASIBLE
    elif code == _HIGHS_UNBOUNDED:
        status = Status.UNBOUNDED
    elif code == _HIGHS_UNKNOWN and x is not None:
        status = Status.FEASIBLE
    else:
        status = Status.ERROR
    return status, objective, bound, message, x


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
    threads: int | None = None,
    raise_on_failure: bool = True,
    require_incumbent: bool = True,
    options: dict[str, Any] | None = None,
    x0: Any = None,
) -> Solution:
    """Solve ``min/max c x  s.t.  A_ub x <= b_ub,  A_eq x = b_eq,  lb <= x <= ub`` with HiGHS.

    The model goes to HiGHS (``highspy``, the library behind :func:`solve_model`) as arrays,
    with no modelling layer: for callers that solve many small models.  The arguments follow
    ``scipy.optimize.milp`` / ``linprog``.  The outcome is mapped onto
    :class:`~hetopt.certify.Status` as :func:`solve_model` does (:func:`~hetopt.certify.certify`):
    OPTIMAL only when the incumbent and HiGHS's MIP dual bound meet within ``OPTIMAL_RTOL`` (for
    a pure LP solved to optimality the optimum is its own bound); a run stopped by a time,
    iteration or node limit short of that is TIME_LIMIT (with the incumbent if one exists); a
    run stopped at a looser requested gap is FEASIBLE.

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
    threads : int, optional
    raise_on_failure : bool
        Raise on infeasible / unbounded / failed solves and on a limit hit with no incumbent
        (default); otherwise return the status.
    require_incumbent : bool
        With ``raise_on_failure``, False returns TIME_LIMIT with no ``x`` (and HiGHS's bound if
        any) when a limit stops the run before any feasible point, instead of raising.
    options : dict, optional
        Overriding the arguments above: scipy ``milp`` option names (``node_limit``,
        ``presolve``, ``disp``, ``mip_rel_gap``, ``time_limit``) or any HiGHS option name.
    x0 : array_like, shape (n,), optional
        A starting point handed to HiGHS (``setSolution``): for a MILP, a feasible ``x0`` is
        the first incumbent; HiGHS checks it and ignores an infeasible one.

    Returns
    -------
    Solution
        With the incumbent in ``info["x"]`` (a numpy array of the n values, None when there is
        none).

    Raises
    ------
    ArgumentError
        A malformed argument (naming it) or an option HiGHS rejects.
    InfeasibleError, UnboundedError, SolverError
    """
    _check_common(time_limit, mip_gap, threads)
    arr = _milp_arrays(c, sense, A_ub, b_ub, A_eq, b_eq, lb, ub, integrality, x0)
    opts = _milp_options(time_limit, mip_gap, threads, options)
    status, objective, bound, message, x = Status.ERROR, None, None, "", None
    start = time.perf_counter()
    try:
        h = _highs_milp(arr, sense, threads, opts)
        h.run()
        status, objective, bound, message, x = _milp_outcome(h, arr.is_mip, sense)
    except ArgumentError:
        raise  # an option HiGHS rejects: the caller's error, not the solver's
    except Exception as exc:  # a crash inside HiGHS, or a bound on the wrong side of its incumbent (certify)
        status, message = Status.ERROR, f"{type(exc).__name__}: {exc}"
    finally:
        wall = time.perf_counter() - start
    if status in (Status.INFEASIBLE, Status.UNBOUNDED, Status.ERROR):
        x, objective = None, None
    return _report(status, objective, bound, wall, "highs", sense, message, raise_on_failure=raise_on_failure,
                   require_incumbent=require_incumbent, limit="limit", info={"x": x})


def solve_cpsat(
    model: Any,
    *,
    time_limit: float | None = None,
    threads: int | None = 1,
    seed: int = 0,
    raise_on_failure: bool = True,
    require_incumbent: bool = True,
    options: dict[str, Any] | None = None,
) -> Solution:
    """Solve an OR-Tools CP-SAT model (``ortools.sat.python.cp_model.CpModel``) and map its status.

    CP-SAT works on integers; the caller scales its data and states the rounding.  Mapping:
    ``OPTIMAL`` and ``FEASIBLE`` (a solution, no proof of CP-SAT's) go to
    :func:`~hetopt.certify.certify`: OPTIMAL when the incumbent meets CP-SAT's bound within
    ``OPTIMAL_RTOL``, else TIME_LIMIT for a ``FEASIBLE`` run under a time limit (the only limit
    set here) and FEASIBLE otherwise; ``INFEASIBLE`` is
    INFEASIBLE; ``MODEL_INVALID`` is ERROR with CP-SAT's validation message; ``UNKNOWN`` (no
    solution, no proof) is TIME_LIMIT when a time limit was set, ERROR otherwise.

    Parameters
    ----------
    model : ortools.sat.python.cp_model.CpModel
        A model with an objective to minimize or maximize.
    time_limit : float, optional
        Seconds (``max_time_in_seconds``).
    threads : int, optional
        CP-SAT workers (``num_workers``); 1 (default) is deterministic for a given ``seed``.
    seed : int
        CP-SAT's ``random_seed``.
    raise_on_failure : bool
        Raise on infeasible / failed solves and on a limit hit with no solution (default).
    require_incumbent : bool
        With ``raise_on_failure``, False returns TIME_LIMIT with no solution (and CP-SAT's bound
        if any) when the limit stops the run before any solution, instead of raising.
    options : dict, optional
        Further CP-SAT parameters by name (``SatParameters`` fields, e.g. ``linearization_level``).

    Returns
    -------
    Solution
        Objective and bound in the model's integer units; ``info["values"]`` the incumbent's
        value of every variable of the model, by index (``info["values"][var.index]``; None when
        there is no solution), and ``info["deterministic_time"]`` CP-SAT's.

    Raises
    ------
    ArgumentError
        A bad seed, a model without objective, an unknown parameter.
    InfeasibleError, SolverError
    """
    solver, sense = _cpsat_solver(model, time_limit, threads, seed, options)
    status, objective, bound, message, values = Status.ERROR, None, None, "", None
    start = time.perf_counter()
    try:
        status, objective, bound, message, values = _cpsat_outcome(model, solver, solver.solve(model), sense,
                                                                   stopped=time_limit is not None)
    except Exception as exc:  # a crash inside CP-SAT, or a bound on the wrong side of its incumbent (certify)
        status, message = Status.ERROR, f"{type(exc).__name__}: {exc}"
    finally:
        wall = time.perf_counter() - start
    return _report(status, objective, bound, wall, "cpsat", sense, message, raise_on_failure=raise_on_failure,
                   require_incumbent=require_incumbent,
                   info={"values": values, "deterministic_time": float(solver.deterministic_time)})


def _cpsat_solver(model: Any, time_limit: float | None, threads: int | None, seed: Any,
                  options: Mapping[str, Any] | None) -> tuple[Any, str]:
    """A ``CpSolver`` with the checked arguments of :func:`solve_cpsat` as parameters, and the model's sense."""
    from ortools.sat.python import cp_model

    _check_common(time_limit, None, threads)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= 2**31 - 1:
        raise ArgumentError(f"seed is {seed!r}; expected an integer in [0, 2**31 - 1] (CP-SAT's seed is 32-bit)")
    if not model.has_objective():
        raise ArgumentError("model has no objective; expected one minimize/maximize")
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1 if threads is None else threads
    solver.parameters.random_seed = int(seed)
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = float(time_limit)
    for key, value in (options or {}).items():
        if not hasattr(solver.parameters, key):
            raise ArgumentError(f"options has {key!r}; not a CP-SAT parameter")
        setattr(solver.parameters, key, value)
    if _logging_progress():  # -v: CP-SAT's search log (bounds as they improve) through logging
        solver.parameters.log_search_progress = True
        solver.parameters.log_to_stdout = False
        solver.log_callback = _log_line
    return solver, "max" if model.proto.objective.scaling_factor < 0 else "min"


def _cpsat_outcome(model: Any, solver: Any, code: Any, sense: str, *, stopped: bool) -> _Outcome:
    """``(status, objective, bound, message, values)`` of a CP-SAT run (``stopped``: a time limit was set)."""
    from ortools.sat.python import cp_model

    message, objective, bound, values = solver.status_name(code), None, None, None
    b = solver.best_objective_bound
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.UNKNOWN):
        bound = float(b) if math.isfinite(b) else None
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):  # FEASIBLE: stopped by the time limit, if one was set
        objective = float(solver.objective_value)
        sol = solver.response_proto.solution
        values = np.fromiter(sol, dtype=np.int64, count=len(sol))
        return certify(objective, bound, stopped=code == cp_model.FEASIBLE and stopped, sense=sense), objective, \
            bound, message, values
    if code == cp_model.INFEASIBLE:
        return Status.INFEASIBLE, None, None, message, None
    if code == cp_model.MODEL_INVALID:
        return Status.ERROR, None, None, f"MODEL_INVALID: {model.validate()}", None
    if code == cp_model.UNKNOWN and stopped:
        return certify(None, bound, stopped=True, sense=sense), None, bound, message, None
    return Status.ERROR, None, None, message, None
