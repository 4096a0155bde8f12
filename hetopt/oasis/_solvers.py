"""Private solver shims of OASiS, waiting to move into :mod:`hetopt.solvers` (the one door to a solver).

Three helpers that :mod:`hetopt.solvers` does not offer yet: a raw HiGHS model with a given
thread count and options (the in-place column-generation master), an LP solved with its row
duals (the compact LP's capacity duals), and a Pyomo LP solved with its duals in a ``dual``
suffix (:func:`~hetopt.oasis.duality.lp_duals`).  Each is written as the public helper it
should become; nothing else in :mod:`hetopt.oasis` imports ``highspy`` or a Pyomo solver
factory.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..solvers import _prepare_highs_threads
from ..solvers import new_highs as _plain_highs

__all__ = ["new_highs", "LPDualsOutcome", "solve_lp_duals", "solve_model_duals"]


def new_highs(*, threads: int | None = None, options: Mapping[str, Any] | None = None) -> Any:
    """A quiet ``highspy.Highs`` whose process-wide scheduler is set up for ``threads``, with ``options`` set.

    Parameters
    ----------
    threads : int, optional
        HiGHS threads (None: HiGHS's default).
    options : mapping, optional
        HiGHS option name -> value, set in order after ``output_flag`` = False and ``threads``.

    Returns
    -------
    highspy.Highs
    """
    # TODO(solvers): move to hetopt.solvers as new_highs(*, threads=None, options=None) (today's new_highs() plus
    # _prepare_highs_threads(threads), output_flag off and the options); hetopt.oasis.master and arrays then call it.
    _prepare_highs_threads(threads)
    h = _plain_highs()
    h.setOptionValue("output_flag", False)
    if threads is not None:
        h.setOptionValue("threads", threads)
    for key, value in (options or {}).items():
        h.setOptionValue(key, value)
    return h


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
    """Minimize ``c x`` s.t. ``row_lower <= A x <= row_upper``, ``col_lower <= x <= col_upper`` with HiGHS; keep the row duals.

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
    # TODO(solvers): move to hetopt.solvers as solve_lp_duals (same signature and result): an LP as arrays with
    # its row duals, which solve_milp does not return; hetopt.oasis.arrays.compact_lp_duals then calls it.
    import highspy

    opts: dict[str, Any] = {}
    if time_limit is not None:
        opts["time_limit"] = float(time_limit)
    opts.update(options or {})
    h = new_highs(threads=threads, options=opts)
    n, m = int(np.size(c)), int(A.shape[0])
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, m
    lp.col_cost_, lp.col_lower_, lp.col_upper_ = c, col_lower, col_upper
    lp.row_lower_, lp.row_upper_ = row_lower, row_upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = A.indptr, A.indices, A.data
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = n, m
    h.passModel(lp)
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    sol = h.getSolution()
    return LPDualsOutcome(status, float(h.getInfo().objective_function_value), np.asarray(sol.row_dual, dtype=float),
                          bool(sol.dual_valid))


def solve_model_duals(model: Any, solver: str = "appsi_highs") -> str:
    """Solve a Pyomo LP and import its duals into ``model.dual`` (a ``Suffix(direction=IMPORT)``, created if absent).

    Parameters
    ----------
    model : pyomo.environ.ConcreteModel
    solver : str
        A Pyomo solver name that fills the ``dual`` suffix.

    Returns
    -------
    str
        The solver's termination condition ("optimal", ...); the primal values are loaded.
    """
    # TODO(solvers): move to hetopt.solvers as solve_model(model, ..., duals=True): load
    # res.solution_loader.get_duals() into model.dual (pyomo.contrib.solver's "highs" gives the same duals as
    # appsi_highs on the OASiS LPs, checked on fig5_setting seeds 0-2); hetopt.oasis.duality.lp_duals then calls it.
    import pyomo.environ as pyo

    if not hasattr(model, "dual"):
        model.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
    res = pyo.SolverFactory(solver).solve(model)
    return str(res.solver.termination_condition)
