"""What every solver back end shares: the progress logger, the default MIP gap, argument checks and the report.

A run's outcome is mapped onto :class:`~hetopt.certify.Status` by its back end and turned into a
:class:`~hetopt.result.Solution` (or the error it is) by :func:`_report`.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from ..certify import Status, relative_gap
from ..errors import InfeasibleError, SolverError, UnboundedError
from ..inputs import check_gap, check_threads, check_time_limit
from ..result import Solution

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

#: What a run's outcome is read as: (status, objective, bound, message, incumbent values).
_Outcome = tuple[Status, float | None, float | None, str, np.ndarray | None]
