"""solve_cpsat: an OR-Tools CP-SAT model solved and its status mapped."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..certify import Status, certify
from ..errors import ArgumentError
from ..result import Solution
from .common import _check_common, _log_line, _logging_progress, _Outcome, _report


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
