"""solve_problem: a CVXPY problem solved (HiGHS by default) and its status mapped."""

from __future__ import annotations

import math
import time
import warnings
from typing import Any

from ..certify import Status, certify
from ..errors import ArgumentError
from ..result import Solution
from .common import DEFAULT_MIP_GAP, _check_common, _report
from .highs import _highs_banner_done, _prepare_highs_threads, _raw_highs

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
