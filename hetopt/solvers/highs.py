"""The HiGHS process plumbing (banner, thread scheduler, fork) and the raw HiGHS doors: new_highs, solve_lp_duals."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ArgumentError, SolverError
from ..inputs import check_time_limit
from .common import _log_line, _logging_progress

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
