"""``solve_exact``: the size guard, the route, the fallback."""

from __future__ import annotations

import math
import time

from ...errors import SizeLimitError
from ...inputs import (
    MAX_GENERATED,
    check_choice,
    check_flag,
    check_gap,
    check_size,
    check_threads,
    check_time_limit,
    takes_instance,
)
from ..evaluate import PlacementSolution
from ..grouped import model_size_estimate
from ..instance import PlacementInstance
from .common import (
    DEFAULT_GAP,
    EXHAUSTIVE_RATE,
    FALLBACK_ASSIGNMENTS,
    MAX_VARIABLES,
    OPERATIONS_PER_VARIABLE,
    SOLVERS,
    OAOptions,
    Run,
    finish,
    route_size,
    start,
)
from .oa import solve_outer_approximation
from .scip import solve_scip
from .search import exhaustive

__all__ = ["solve_exact"]


@takes_instance(PlacementInstance)
def solve_exact(inst: PlacementInstance, *, time_limit: float | None = None, mip_gap: float | None = None,
                threads: int | None = 1, max_size: int | None = None, solver: str = "highs",
                max_iterations: int = 200, tangent_points: int = 64, prune: bool = True, improve: bool = True,
                neighbour_cuts: bool = True, fallback: bool = True) -> PlacementSolution:
    """The optimum of P1 (eq. (8), with communication), with a certified lower bound.

    Parameters
    ----------
    inst : PlacementInstance
    time_limit : float, optional
        Seconds for the whole solve, building included.  When reached, the status is TIME_LIMIT
        with the incumbent and the best proven lower bound.
    mip_gap : float in [0, 1), optional
        Relative gap at which the route stops (outer approximation's loop, SCIP's MIP gap);
        None: :data:`DEFAULT_GAP` (1e-7).  The status is OPTIMAL only if the final gap is at most
        ``OPTIMAL_RTOL``, FEASIBLE otherwise.
    threads : int, optional
        Solver threads; 1 by default, as in every kind (reproducible runs); None: the solver's
        default.
    max_size : int, optional
        Size guard, in variables of the grouped model before pruning, or, when larger, the
        worker-level operations of the start (Optimus-LB's greedy, about K (S log2 K + 10^4), and
        the pruning's programme, 3 S K^2) over :data:`~hetopt.placement.exact.common.OPERATIONS_PER_VARIABLE`
        (:func:`~hetopt.placement.exact.common.route_size`, integers): a larger instance is refused
        before anything is built or run.  None (default): :data:`MAX_VARIABLES` of the route
        (60,000 for HiGHS, 8,000 for SCIP).
    solver : {"highs", "scip"}
        "highs": outer approximation with HiGHS MILP masters (:mod:`hetopt.placement.exact.oa`);
        "scip": the grouped MINLP by SCIP (:mod:`hetopt.placement.exact.scip`).
    max_iterations : int
        Outer-approximation iterations before giving up (then the fallback, see ``fallback``).
    tangent_points : int
        Initial tangent cuts per job of the HiGHS master (geometrically spaced over V_i's range);
        more cuts mean fewer outer-approximation rounds.
    prune : bool
        Bound each job's worker count K_i and throughput V_i from the starting incumbent's value
        (:func:`~hetopt.placement.exact_bounds.size_bounds`): the model keeps only the allowed
        counts and gets the rows of ``build_master(bounds=...)``; the optimum is unchanged.  Its
        dynamic programme is also a lower bound.
    improve : bool
        Start from the Optimus-LB assignment improved by local search
        (:func:`~hetopt.placement.exact_bounds.improve_assignment`) instead of Optimus-LB itself:
        a better starting incumbent makes the bounds of ``prune`` tighter.
    neighbour_cuts : bool
        After each master, add tangent cuts not only at its V_i but also at V_i +- rho_{i,g} (one
        worker of any class more or less), which cuts off the master's near-equal neighbours at
        once on large clusters.
    fallback : bool
        When the route fails or cannot close the gap, try exhaustive search (S**K at most
        :data:`FALLBACK_ASSIGNMENTS`) and then the other route, within ``time_limit``.

    Returns
    -------
    PlacementSolution
        ``objective`` is the assignment's average JCT on the true data, ``bound`` a proven lower
        bound; ``info`` records the route, the groups, the outer-approximation iterations, the
        variables of the model and, after a failure, ``fallback`` (the reason and the route taken).

    Raises
    ------
    ArgumentError
        A bad option (naming it).
    SizeLimitError
        The model is larger than ``max_size`` (with the estimate and the way out).
    """
    solver = check_choice(solver, "solver", SOLVERS)
    time_limit = check_time_limit(time_limit)
    gap = check_gap(mip_gap, "mip_gap")
    gap_stop = DEFAULT_GAP if gap is None else gap
    threads = check_threads(threads)
    max_iterations = check_size(max_iterations, "max_iterations")
    tangent_points = check_size(tangent_points, "tangent_points", maximum=MAX_GENERATED)
    prune, improve = check_flag(prune, "prune"), check_flag(improve, "improve")
    neighbour_cuts = check_flag(neighbour_cuts, "neighbour_cuts")
    fallback = check_flag(fallback, "fallback")
    limit = MAX_VARIABLES[solver] if max_size is None else check_size(max_size, "max_size")
    t0 = time.perf_counter()
    est = route_size(inst, prune, limit)
    if est["size"] > limit:
        model = ("" if not est["variables"] else f"build a grouped model of about {est['variables']:,} variables and "
                 f"{est['constraints']:,} constraints (before pruning) after ")
        raise SizeLimitError(
            f"solve_exact(solver={solver!r}) on S={inst.n_jobs}, K={inst.n_workers} would {model}spend "
            f"{est['operations']:,} worker-level operations (the starting incumbent and its pruning, "
            f"{OPERATIONS_PER_VARIABLE:,} per unit of max_size): size {est['size']:,}, above max_size={limit:,}; "
            f"pass max_size={est['size']} to run it anyway (with time_limit=... to bound the run), or use has / jps "
            "for a heuristic placement")
    run = start(inst, t0=t0, time_limit=time_limit, threads=threads, prune=prune, improve=improve)
    run.info.update(route="bounds without a solver", variables=est["variables"], constraints=est["constraints"])
    opts = OAOptions(gap_stop, max_iterations, tangent_points, neighbour_cuts)
    if run.gap > gap_stop:
        _route(run, solver, opts)
    if run.failure is not None and fallback and not run.timed_out:
        _fall_back(run, solver, opts, limit)
    return finish(run, solver)


def _route(run: Run, solver: str, opts: OAOptions) -> None:
    if solver == "scip":
        solve_scip(run, opts.rel_gap)
    else:
        solve_outer_approximation(run, opts)


def _fall_back(run: Run, solver: str, opts: OAOptions, limit: int) -> None:
    """After a failed route: exhaustive search if S**K is small, else the other solver (reason in ``info``)."""
    inst = run.inst
    reason = run.failure
    small = inst.n_workers * math.log10(max(inst.n_jobs, 1)) <= math.log10(FALLBACK_ASSIGNMENTS)
    total = inst.n_jobs ** inst.n_workers if small else 0  # never formed beyond the guard (10^6 workers)
    remaining = run.remaining()
    if small and total <= FALLBACK_ASSIGNMENTS and (remaining is None or total / EXHAUSTIVE_RATE <= remaining):
        ex = exhaustive(inst, max_size=FALLBACK_ASSIGNMENTS)
        run.offer(ex.assignment)
        run.prove(ex.objective)
        run.failure = None
        run.info["fallback"] = f"{reason}; exhaustive search over {total} assignments"
        return
    other = "scip" if solver == "highs" else "highs"
    est = model_size_estimate(inst)["variables"]
    if est > (MAX_VARIABLES["scip"] if other == "scip" else max(limit, MAX_VARIABLES["highs"])):
        run.info["fallback"] = f"{reason}; no fallback (S**K = {inst.n_jobs}**{inst.n_workers}, the {other} model is above its size guard)"
        return
    run.failure = None
    _route(run, other, opts)
    outcome = f"failed too ({run.failure})" if run.failure else "certified" if run.certified else "not certified"
    run.info["fallback"] = f"{reason}; the {other} route: {outcome}"


