"""The exact contention-free optimum for a fixed placement: :func:`solve_exact` (CP-SAT or the time-indexed MILP).

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Section III, eq. (6).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyomo.environ as pyo

from ..certify import Status, certify, relative_gap
from ..errors import ArgumentError, InfeasibleError, SolverError
from ..inputs import (
    check_choice,
    check_gap,
    check_positive,
    check_size,
    check_threads,
    check_time_limit,
    takes_instance,
)
from ..solvers import solve_model
from .cpsat import CPSAT_MAX_TASKS, _starts_of, best_retimed, cpsat_seed, cpsat_tasks
from .instance import ContentionInstance
from .model import MILP_MAX_BINARIES, BuildTimeout, _build, check_exact_placement
from .simulator import simulate
from .solution import ContentionSolution, schedule_solution
from .timescale import above, integral_bound, isolated_bound

__all__ = ["ENGINES", "solve_exact", "TRANSLATE_FACTOR"]

#: Exact engines of the contention-free problem; the first is the default.
ENGINES = ("cpsat", "milp")
#: Passing a built Pyomo model to the solver takes about as long as building it: under a time limit the
#: MILP route keeps this multiple of the build time for it, and skips the solve when it does not fit.
TRANSLATE_FACTOR = 1.0


def _tasks_at_least(inst: ContentionInstance) -> int:
    """Forward and backward passes of every job (a lower bound on the tasks of any placement)."""
    return int(np.sum(inst.iterations * 2 * inst.n_gpus))


@takes_instance(ContentionInstance)
def solve_exact(
    inst: ContentionInstance,
    *,
    time_limit: float | None = None,
    mip_gap: float | None = None,
    threads: int | None = 1,
    max_size: int | None = None,
    placement: Sequence[Sequence[int]] | None = None,
    engine: str | None = None,
    upper_bound: float | None = None,
    slot: float | None = None,
    solver: str = "highs",
    seed: int | np.random.Generator | None = 0,
) -> ContentionSolution:
    """Optimal contention-free schedule for a fixed placement (by default the one LWF-1 gives under SRSF(1)).

    Two engines solve the same problem (the card's (6), (S1)-(S6)): ``engine="cpsat"`` (default,
    the faster one in ``hetopt bench contention``) is the interval model of
    :mod:`hetopt.contention.cpsat`, continuous time with integer-scaled data certified on the
    true data (any magnitudes); ``engine="milp"`` the time-indexed MILP :func:`build_milp` on the
    data's own slot grid, solved by ``solver``.  Like every ``solve_exact`` of the package it has
    no time limit unless ``time_limit`` (seconds, in all: the SRSF(1) run, the model, the solve)
    is given; a time-limited run returns the best schedule found (SRSF(1)'s at least) and a
    proven bound (at least the jobs' isolated times).

    Parameters
    ----------
    inst : ContentionInstance
    time_limit : float, optional
        Seconds; None: no limit.
    mip_gap : float, optional
        MILP only: the relative gap at which the solver may stop (None: exact); a run stopped
        above ``OPTIMAL_RTOL`` is FEASIBLE.  CP-SAT proves exact optima only.
    threads : int, optional
        Solver threads (CP-SAT workers); 1 by default, as in every kind (deterministic runs);
        None: the solver's default.
    max_size : int, optional
        Size guard: with ``engine="cpsat"``, in tasks (default
        :data:`~hetopt.contention.cpsat.CPSAT_MAX_TASKS`, 20,000); with ``engine="milp"``, in
        binary start variables (default :data:`~hetopt.contention.model.MILP_MAX_BINARIES`, 60,000; and
        ``MILP_NONZEROS_PER_BINARY`` constraint entries per binary).  A larger model is refused before it is built.
    placement : sequence of GPU lists, optional
        The GPUs of each job.  Default: the placement LWF-1 gives under SRSF(1)
        (``simulate(inst, "srsf1").placement``), with SRSF(1)'s total JCT as ``upper_bound``
        unless one is given.
    engine : {"cpsat", "milp"}, optional
        Default: ``"milp"`` when a MILP ``solver`` other than HiGHS is named, else ``"cpsat"``.
    upper_bound : float, optional
        Total JCT (s) of a feasible schedule with this placement: tightens the time windows
        and is imposed as a constraint (S6, relative tolerance 1e-9).
    slot : float, optional
        MILP only: the slot length (s); default the coarsest grid of the data
        (:mod:`hetopt.contention.model`).
    solver : {"highs", "scip"}
        MILP solver; MILP only.
    seed : int or numpy.random.Generator, optional
        The solver's random seed (CP-SAT ``random_seed``, HiGHS ``random_seed``, SCIP
        ``randomization/randomseedshift``), taken modulo 2**31.

    Returns
    -------
    ContentionSolution
        OPTIMAL with ``bound`` = the certified optimum when it is proven on the true data
        (TIME_LIMIT or FEASIBLE otherwise, with a proven bound); the schedule is in ``trace``
        (``placed_at`` = arrival: memory does not bind in this model); ``info`` names the
        units, where the bound and the incumbent come from, and any step skipped for time.

    Raises
    ------
    ArgumentError
        A bad option (engine, solver, time limit, gap, threads, size guard, seed, a MILP option with CP-SAT ...).
    InfeasibleError
        ``upper_bound`` is below the optimum (never reported as OPTIMAL).
    SizeLimitError
        Beyond ``max_size`` (tasks for CP-SAT, binaries for the MILP) or the slot grid's range
        (MILP); the message gives the estimate and the way out.

    Examples
    --------
    >>> from hetopt.contention import solve_exact, tiny_instance
    >>> sol = solve_exact(tiny_instance(seed=0))
    >>> sol.status.value, sol.objective == sol.bound
    ('optimal', True)
    """
    t0 = time.perf_counter()
    time_limit = check_time_limit(time_limit)
    mip_gap = check_gap(mip_gap, "mip_gap")
    threads = check_threads(threads)
    cpsat_seed(seed=seed)
    if not isinstance(solver, str):
        raise ArgumentError(f"solver is {solver!r}; expected 'highs' or 'scip'")
    check_choice(solver, "solver", ("highs", "scip"))
    if engine is None:
        engine = "milp" if solver != "highs" else ENGINES[0]
    check_choice(engine, "engine", ENGINES)
    if engine == "cpsat":
        for name, value in (("solver", None if solver == "highs" else solver), ("slot", slot), ("mip_gap", mip_gap)):
            if value is not None:
                raise ArgumentError(f"{name} is {value!r}; it is an option of engine='milp', not of engine='cpsat' "
                                    "(which proves exact optima only)")
        limit = CPSAT_MAX_TASKS if max_size is None else check_size(max_size, "max_size")
        what = "tasks"
    else:
        if slot is not None:
            slot = check_positive(slot, "slot")
        limit = MILP_MAX_BINARIES if max_size is None else check_size(max_size, "max_size")
        what = "binaries (one per task at least)"
    if upper_bound is not None:
        upper_bound = check_positive(upper_bound, "upper_bound", allow_zero=True)
    from ..errors import SizeLimitError

    least = _tasks_at_least(inst)
    if least > limit:  # before the SRSF(1) run that picks the placement
        raise SizeLimitError(f"the {engine} model would have at least {least} tasks (forward and backward passes); "
                             f"at most max_size = {limit} {what} allowed: pass max_size=... (with a time_limit) or "
                             "solve a smaller instance")
    if placement is None:
        ref = simulate(inst, "srsf1", record=upper_bound is None)
        placement = ref.placement
        if upper_bound is None:
            upper_bound = _checked_upper_bound(inst, ref)
    rest = None if time_limit is None else max(time_limit - (time.perf_counter() - t0), 1e-3)
    if engine == "cpsat":
        from .cpsat import solve_cpsat_exact

        return solve_cpsat_exact(inst, placement, upper_bound=upper_bound, time_limit=rest, threads=threads,
                                 seed=seed, max_tasks=limit, guard_name="max_size")
    return _solve_milp(inst, placement, slot=slot, upper_bound=upper_bound, solver=solver, time_limit=rest,
                       mip_gap=mip_gap, threads=threads, max_binaries=limit, seed=seed)


def _checked_upper_bound(inst: ContentionInstance, ref: ContentionSolution) -> float | None:
    """SRSF(1)'s total JCT as the cut (S6) only when the independent checker accepts its schedule, else None.

    A heuristic's value that the checker rejects (before issue 31: a job arriving at 1e-9 s started at 0,
    total 2.4e-8 below the optimum 2.5e-8) would make the exact model infeasible.
    """
    from .checker import check_schedule

    rep = check_schedule(inst, ref, max_concurrent=1)
    return max(ref.objective, rep.objective or 0.0) if rep.ok else None


def _milp_starts(m) -> dict:
    """Task key -> start slot of the MILP's solution (the barriers of single-server jobs left out)."""
    out = {}
    for key in m.TASKS:
        if key[0] != "s":
            out[tuple(key)] = round(pyo.value(m.S[key]))
    return out


def _solve_milp(inst: ContentionInstance, placement: Sequence[Sequence[int]], *, slot: float | None,
                upper_bound: float | None, solver: str, time_limit: float | None, threads: int | None,
                max_binaries: int, seed: Any = 0, mip_gap: float | None = None) -> ContentionSolution:
    """The MILP route of :func:`solve_exact`: build, solve, re-time the schedule on the true data, certify.

    Phases under a time limit: SRSF(1) on the placement (the incumbent it always has), the build
    (stopped at the deadline), the hand-over to the solver (skipped when the time left is below
    :data:`TRANSLATE_FACTOR` times the build time), the solve with the rest.
    """
    from .checker import check_schedule

    t0 = time.perf_counter()
    placement = check_exact_placement(inst, placement)
    heur = simulate(inst, "srsf1", placement=[list(p) for p in placement], record=True)
    bad = check_schedule(inst, heur, max_concurrent=1).violations
    if bad:  # pragma: no cover - SRSF(1) never runs two all-reduces at once on a server
        raise SolverError(f"SRSF(1)'s schedule on this placement is not contention-free: {bad[:2]}")
    trivial = isolated_bound(inst, placement)
    if upper_bound is not None and trivial > upper_bound * (1 + 1e-9):
        raise InfeasibleError(f"upper_bound {upper_bound} is below the sum of the jobs' critical paths ({trivial}): "
                              "no schedule meets it")
    deadline = None if time_limit is None else t0 + time_limit
    info: dict[str, Any] = {}
    m, res = None, None
    try:
        m = _build(inst, placement, slot=slot, upper_bound=upper_bound, max_binaries=max_binaries, deadline=deadline,
                   guard_name="max_size")
    except BuildTimeout:
        info["skipped"] = "time limit reached while the MILP was built"
    if m is not None:
        info["scale"] = m.grid.scale.describe()
        built = time.perf_counter() - t0
        rest = None if deadline is None else deadline - time.perf_counter() - TRANSLATE_FACTOR * built
        if rest is not None and rest <= 0.01:
            info["skipped"] = f"no time left to pass the MILP to {solver} (the build took {built:.2g} s)"
        else:
            opts = {"random_seed": cpsat_seed(seed=seed)} if solver == "highs" else \
                {"randomization/randomseedshift": cpsat_seed(seed=seed)}
            try:
                res = solve_model(m, solver, time_limit=rest, mip_gap=mip_gap, threads=threads,
                                  require_incumbent=False, raise_on_failure=False, options=opts)
            except InfeasibleError:  # pragma: no cover - raise_on_failure=False returns the status
                res = None
            if res is not None and res.status is Status.INFEASIBLE:
                raise InfeasibleError(f"no contention-free schedule with this placement has total JCT <= upper_bound "
                                      f"= {upper_bound}: the bound is below the optimum ({res.message})")
            if res is not None and res.status in (Status.ERROR, Status.UNBOUNDED):
                return _fallback(inst, placement, upper_bound, deadline, threads, seed, f"{solver}: {res.message}")
    tasks, _ = cpsat_tasks(inst, placement, max_tasks=10**12)
    candidates = [("srsf1", _starts_of(heur.trace))]
    if m is not None and res is not None and res.objective is not None:
        candidates.insert(0, (f"milp-{solver}", _milp_starts(m)))
    objective, source, true_starts, finish, trace = best_retimed(inst, placement, tasks, candidates)
    bound, info["bound_from"] = trivial, "isolated job times"
    if m is not None and res is not None and res.bound is not None:
        sc = m.grid.scale
        b = sc.lower_bound(integral_bound(res.bound), m.grid.arrival, inst.arrival)  # the objective is in slots
        if b > bound:
            bound, info["bound_from"] = b, f"milp-{solver}"
    info["incumbent"] = source
    if above(bound, objective, inst, finish):
        raise SolverError(f"milp-{solver}: bound {bound} above the re-timed schedule's total JCT {objective}")
    gap = relative_gap(objective, bound)
    stopped = time_limit is not None and (res is None or res.status is Status.TIME_LIMIT)
    status = certify(objective, bound, stopped=stopped, sense="min")
    msg = (f"{res.message if res is not None else 'not solved: ' + info['skipped']}; "
           f"{info.get('scale', 'no grid')}; incumbent {source}, bound from {info['bound_from']}")
    return schedule_solution(inst, placement, trace, finish, status=status, bound=bound, gap=gap,
                             wall_time=time.perf_counter() - t0, solver=f"milp-{solver}", message=msg, info=info)


def _fallback(inst, placement, upper_bound, deadline, threads, seed, reason: str) -> ContentionSolution:
    """The CP-SAT route when the MILP solver failed, with the reason in ``info["fallback"]``."""
    from dataclasses import replace

    from .cpsat import solve_cpsat_exact

    rest = None if deadline is None else max(deadline - time.perf_counter(), 1e-3)
    sol = solve_cpsat_exact(inst, placement, upper_bound=upper_bound, time_limit=rest, threads=threads, seed=seed)
    return replace(sol, info={**sol.info, "fallback": f"MILP failed ({reason}); solved by the CP-SAT route"})
