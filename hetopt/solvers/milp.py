"""solve_milp: a MILP given as arrays (scipy's ``milp`` conventions) solved by HiGHS with no modelling layer.

Three pieces: the arguments checked and stacked into rows (:func:`_milp_arrays`), the HiGHS model
and options (:func:`_highs_milp`, :func:`_milp_options`), HiGHS's model status mapped
(:func:`_milp_outcome`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..certify import Status, certify
from ..errors import ArgumentError, SolverError
from ..result import Solution
from .common import DEFAULT_MIP_GAP, _check_common, _logging_progress, _Outcome, _report
from .highs import new_highs

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
