"""The exact contention-free optimum for a fixed placement: :func:`solve_exact` (CP-SAT or the time-indexed MILP).

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Section III, eq. (6).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pyomo.environ as pyo

from ..errors import ArgumentError, InfeasibleError, SolverError
from ..inputs import check_choice, check_positive, check_threads, check_time_limit, takes_instance
from ..result import Status, relative_gap
from ..solvers import solve_model
from .instance import ContentionInstance
from .model import MILP_MAX_BINARIES, build_milp
from .simulator import simulate
from .solution import ContentionSolution, TaskRecord, schedule_solution

__all__ = ["ENGINES", "solve_exact"]

#: Exact engines of the contention-free problem; the first is the default.
ENGINES = ("cpsat", "milp")


@takes_instance(ContentionInstance)
def solve_exact(
    inst: ContentionInstance,
    *,
    placement: Sequence[Sequence[int]] | None = None,
    time_limit: float | None = None,
    engine: str | None = None,
    upper_bound: float | None = None,
    slot: float = 1.0,
    solver: str = "highs",
    threads: int | None = 1,
    max_binaries: int = MILP_MAX_BINARIES,
    seed: int = 0,
) -> ContentionSolution:
    """Optimal contention-free schedule for a fixed placement (by default the one LWF-1 gives under SRSF(1)).

    Two engines solve the same problem (the card's (6), (S1)-(S6)): ``engine="cpsat"`` (default,
    the faster one in ``hetopt bench contention``) is the interval model of
    :mod:`hetopt.contention.cpsat`, continuous time with integer-scaled data; ``engine="milp"``
    the time-indexed MILP :func:`build_milp` (times must be multiples of ``slot``), solved by
    ``solver``.  Like every ``solve_exact`` of the package it has no time limit unless
    ``time_limit`` (seconds) is given; ``max_binaries`` guards the MILP's size.

    Parameters
    ----------
    inst : ContentionInstance
    placement : sequence of GPU lists, optional
        The GPUs of each job.  Default: the placement LWF-1 gives under SRSF(1)
        (``simulate(inst, "srsf1").placement``), with SRSF(1)'s total JCT as ``upper_bound``
        unless one is given.
    time_limit : float, optional
        Seconds; None: no limit.
    engine : {"cpsat", "milp"}, optional
        Default: ``"milp"`` when a MILP ``solver`` other than HiGHS is named, else ``"cpsat"``.
    upper_bound : float, optional
        Total JCT (s) of a feasible schedule with this placement: tightens the time windows
        and is imposed as a constraint (S6).
    slot : float
        MILP slot length (s); MILP only.
    solver : str
        MILP solver (``solve_model`` names); MILP only.
    threads : int, optional
    max_binaries : int
        MILP only.
    seed : int
        CP-SAT's random seed; CP-SAT only.

    Returns
    -------
    ContentionSolution
        OPTIMAL with ``bound`` = the certified optimum when the solver proves it (TIME_LIMIT
        or FEASIBLE otherwise, with the solver's dual bound); the schedule is in ``trace``
        (``placed_at`` = arrival: memory does not bind in this model).

    Raises
    ------
    ArgumentError
        A bad option (engine, solver, time limit, threads, seed).
    InfeasibleError
        ``upper_bound`` is below the optimum (never reported as OPTIMAL).

    Examples
    --------
    >>> from hetopt.contention import solve_exact, tiny_instance
    >>> sol = solve_exact(tiny_instance(seed=0))
    >>> sol.status.value, sol.objective == sol.bound
    ('optimal', True)
    """
    time_limit = check_time_limit(time_limit)
    threads = check_threads(threads)
    if engine is None:
        engine = "milp" if solver != "highs" else ENGINES[0]
    check_choice(engine, "engine", ENGINES)
    if not isinstance(solver, str):
        raise ArgumentError(f"solver is {solver!r}; expected a solver name")
    if engine == "cpsat" and solver != "highs":
        raise ArgumentError(f"solver is {solver!r}; it names a MILP solver, used only with engine='milp'")
    if upper_bound is not None:
        upper_bound = check_positive(upper_bound, "upper_bound", allow_zero=True)
    if placement is None:
        ref = simulate(inst, "srsf1")
        placement = ref.placement
        if upper_bound is None:
            upper_bound = ref.objective
    if engine == "cpsat":
        from .cpsat import solve_cpsat_exact

        return solve_cpsat_exact(inst, placement, upper_bound=upper_bound, time_limit=time_limit, threads=threads,
                                 seed=seed)
    return _solve_milp(inst, placement, slot=slot, upper_bound=upper_bound, solver=solver, time_limit=time_limit,
                       threads=threads, max_binaries=max_binaries)


def _solve_milp(inst: ContentionInstance, placement: Sequence[Sequence[int]], *, slot: float,
                upper_bound: float | None, solver: str, time_limit: float | None, threads: int | None,
                max_binaries: int) -> ContentionSolution:
    """The MILP route of :func:`solve_exact`: build, solve, and read the schedule back from the slots."""
    t0 = time.perf_counter()
    m = build_milp(inst, placement, slot=slot, upper_bound=upper_bound, max_binaries=max_binaries)
    try:
        res = solve_model(m, solver, time_limit=time_limit, threads=threads, require_incumbent=False)
    except InfeasibleError as exc:
        if upper_bound is None:  # pragma: no cover - the model without a bound always has a schedule
            raise
        raise InfeasibleError(f"no contention-free schedule with this placement has total JCT <= upper_bound = "
                              f"{upper_bound}: the bound is below the optimum ({exc})") from None
    if res.objective is None:
        return _heuristic_incumbent(inst, placement, res, upper_bound, t0)
    slot = m.slot
    trace = []
    for key in m.TASKS:
        kind = key[0]
        if kind == "s":
            continue
        s = round(pyo.value(m.S[key])) * slot
        p = m.p[key] * slot
        if kind == "c":
            k, i = key[1], key[2]
            trace.append(TaskRecord("c", k, i, m.grid.tasks[key][2], s, s + p))
        else:
            trace.append(TaskRecord(kind, key[1], key[2], key[3], s, s + p))
    finish = np.array([round(pyo.value(m.F[k])) * slot for k in m.JOBS], dtype=float)
    return schedule_solution(inst, placement, trace, finish, status=res.status, bound=res.bound, gap=res.gap,
                             wall_time=time.perf_counter() - t0, solver=f"milp-{solver}", message=res.message)


def _heuristic_incumbent(inst: ContentionInstance, placement, res, upper_bound: float | None,
                         t0: float) -> ContentionSolution:
    """The time-limited result when the solver has no incumbent: SRSF(1)'s schedule on the same placement.

    SRSF(1) never runs two all-reduces at once on a server, so its schedule has no contention and
    is feasible for the contention-free model (checked by :func:`check_schedule`).  The solver's
    bound is kept only when it does not exceed that schedule's total JCT (the MILP's bound is on
    the slotted model).
    """
    from .checker import check_schedule

    heur = simulate(inst, "srsf1", placement=[list(p) for p in placement], record=True)
    bad = check_schedule(inst, heur, max_concurrent=1).violations
    total = float(heur.jct.sum())
    if bad or (upper_bound is not None and total > upper_bound):
        raise SolverError(f"{res.solver}: time limit reached with no feasible solution within the limits "
                          f"(SRSF(1) schedule: total JCT {total}, violations {bad[:2]})")
    bound = res.bound if res.bound is not None and res.bound <= total + 1e-9 else None
    return replace(heur, status=Status.TIME_LIMIT, objective=total, bound=bound, gap=relative_gap(total, bound),
                   wall_time=time.perf_counter() - t0, solver=f"milp-{res.solver}",
                   message=f"{res.message}; no solver incumbent, SRSF(1) schedule on this placement reported")
