"""Certified optima of P1: ``solve_exact`` (two solver routes) and ``exhaustive`` search.

``solve_exact(inst, solver="highs")`` (:func:`_solve_outer_approximation`) runs outer approximation (Duran and Grossmann 1986) on
:func:`~hetopt.placement.model.build_p1_grouped`: the master MILP replaces the convex
computation latency |Pi_i| / V_i by tangent cuts, so its optimum is a lower bound on P1; its
incumbent, evaluated exactly, is an upper bound; a tangent cut at the incumbent's V_i is added
and the master re-solved until the two bounds meet.  It terminates finitely (there are finitely
many integer points, and a repeated point closes the gap).  ``solver="scip"`` solves the same
grouped model with the nonlinear constraint theta_i V_i >= |Pi_i| directly (global MINLP,
:func:`_solve_scip`).
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass

import numpy as np
import pyomo.environ as pyo

from ..errors import ArgumentError, SizeLimitError, SolverError
from ..inputs import check_choice, check_flag, check_gap, check_size, check_threads, check_time_limit, takes_instance
from ..result import OPTIMAL_RTOL, Solution, Status, relative_gap
from ..solvers import solve_model
from .baselines import optimus_lb
from .evaluate import PlacementSolution, average_jct, job_metrics, make_solution
from .exact_bounds import SizeBounds, improve_assignment, size_bounds
from .instance import PlacementInstance
from .model import add_tangent_cut, assignment_from_model, build_p1_grouped

__all__ = ["solve_exact", "exhaustive", "relaxed_lower_bound", "EXHAUSTIVE_LIMIT", "SOLVERS"]

log = logging.getLogger(__name__)

#: Largest number of worker-level assignments (S**K) ``exhaustive`` enumerates by default.
EXHAUSTIVE_LIMIT = 5_000_000
#: The two routes of :func:`solve_exact`.
SOLVERS = ("highs", "scip")


@takes_instance(PlacementInstance)
def relaxed_lower_bound(inst: PlacementInstance) -> float:
    """A lower bound on P1 that needs no solver: every job alone on every worker, no communication.

    Job i's computation time is at least ``T_i |Pi_i| / sum_k rho_{i,k}`` (all K workers, the
    proportional split) and its communication time is non-negative, so the mean of these values
    bounds eq. (8) from below.  It is the bound a time-limited run reports when the solver stopped
    before proving a better one.
    """
    return float(np.mean(inst.epochs * inst.dataset_size / inst.throughput.sum(axis=1)))


@takes_instance(PlacementInstance)
def solve_exact(inst: PlacementInstance, *, solver: str = "highs", time_limit: float | None = None,
                rel_gap: float = 1e-7, threads: int | None = None, max_iterations: int = 200,
                tangent_points: int = 64, prune: bool = True, improve: bool = True,
                neighbour_cuts: bool = True) -> PlacementSolution:
    """The optimum of P1 (eq. (8), with communication), with a certified lower bound.

    Parameters
    ----------
    inst : PlacementInstance
    solver : {"highs", "scip"}
        "highs": outer approximation with HiGHS MILP masters (:func:`_solve_outer_approximation`);
        "scip": the grouped MINLP by SCIP (:func:`_solve_scip`).
    time_limit : float, optional
        Seconds for the whole solve.  When reached, the status is TIME_LIMIT and ``bound`` is the
        best proven lower bound.
    rel_gap : float in [0, 1)
        Relative gap at which outer approximation stops (the status is OPTIMAL only if the final
        gap is at most ``OPTIMAL_RTOL``).
    threads : int, optional
    max_iterations : int
        Outer-approximation iterations before giving up with status FEASIBLE.
    tangent_points : int
        Initial tangent cuts per job of the HiGHS master (geometrically spaced over V_i's range);
        more cuts mean fewer outer-approximation rounds.
    prune : bool
        Bound each job's worker count K_i and throughput V_i from the starting incumbent's value
        (:func:`~hetopt.placement.exact_bounds.size_bounds`, applied by :func:`_apply_bounds`)
        before the first master, and place the initial tangent cuts over the V_i range left; the
        optimum is unchanged.
    improve : bool
        Start from the Optimus-LB assignment improved by local search
        (:func:`~hetopt.placement.exact_bounds.improve_assignment`) instead of Optimus-LB itself:
        a better starting incumbent makes the bounds of ``prune`` tighter.
    neighbour_cuts : bool
        After each master, add tangent cuts not only at its V_i but also at V_i +- rho_{i,g} (one
        worker of any class more or less), which cuts off the master's near-equal neighbours at
        once on large clusters.

    Returns
    -------
    PlacementSolution
        ``bound`` is a proven lower bound; ``info`` records the route, the number of groups and
        (for HiGHS) the outer-approximation iterations.

    Raises
    ------
    ArgumentError
        A bad option (naming it).
    SolverError
        A master that fails, or a solver objective that disagrees with the evaluated assignment.
    """
    solver = check_choice(solver, "solver", SOLVERS)
    time_limit = check_time_limit(time_limit)
    gap_stop = check_gap(rel_gap)
    if gap_stop is None:
        raise ArgumentError("rel_gap is None; expected a relative gap in [0, 1)")
    threads = check_threads(threads)
    max_iterations = check_size(max_iterations, "max_iterations")
    tangent_points = check_size(tangent_points, "tangent_points")
    prune, improve = check_flag(prune, "prune"), check_flag(improve, "improve")
    neighbour_cuts = check_flag(neighbour_cuts, "neighbour_cuts")
    t0 = time.perf_counter()
    if solver == "scip":
        return _solve_scip(inst, time_limit=time_limit, threads=threads, t0=t0)
    return _solve_outer_approximation(inst, _OAOptions(gap_stop, max_iterations, tangent_points, prune, improve,
                                                       neighbour_cuts), time_limit=time_limit, threads=threads, t0=t0)


def _solve_scip(inst: PlacementInstance, *, time_limit: float | None, threads: int | None, t0: float) -> PlacementSolution:
    """The grouped MINLP (:func:`~hetopt.placement.model.build_p1_grouped`, nonlinear computation) solved by SCIP."""
    m = build_p1_grouped(inst, computation="nonlinear")
    sol = solve_model(m, "scip", time_limit=time_limit, threads=threads, require_incumbent=False)
    if sol.objective is None:  # stopped before any incumbent: the balanced Optimus-LB assignment
        a = optimus_lb(inst, reading="balanced_gains").assignment
        true = average_jct(inst, a)
        return make_solution(inst, a, status=sol.status, solver="scip", wall_time=time.perf_counter() - t0,
                             bound=min(max(sol.bound or -math.inf, relaxed_lower_bound(inst)), true),
                             message=f"{sol.message}; no solver incumbent, Optimus-LB assignment reported",
                             info={"route": "grouped MINLP (SCIP)", "groups": len(m._groups),
                                   "incumbent": "optimus_lb"})
    a = assignment_from_model(inst, m)
    true = average_jct(inst, a)
    if sol.status is Status.OPTIMAL and not math.isclose(true, sol.objective, rel_tol=1e-5):
        raise SolverError(f"SCIP objective {sol.objective} disagrees with the evaluated assignment {true}")
    bound = max(sol.bound if sol.bound is not None else -math.inf, relaxed_lower_bound(inst))
    return make_solution(inst, a, status=sol.status, solver="scip", wall_time=time.perf_counter() - t0,
                         bound=min(bound, true), message=sol.message,
                         info={"route": "grouped MINLP (SCIP)", "groups": len(m._groups)})


@dataclass(frozen=True)
class _OAOptions:
    """The checked options of the outer-approximation route (see :func:`solve_exact`)."""

    rel_gap: float
    max_iterations: int
    tangent_points: int
    prune: bool
    improve: bool
    neighbour_cuts: bool


def _oa_master(inst: PlacementInstance, opts: _OAOptions, best_a: np.ndarray,
               best_val: float) -> tuple[pyo.ConcreteModel, int]:
    """The first master: grouped MILP with tangent cuts (over the pruned V range) and the incumbent's own cut."""
    bounds = size_bounds(inst, best_val) if opts.prune else None
    cut_range = None
    if bounds is not None:
        lo = np.array([bounds.vmin[i][bounds.allowed[i]].min() for i in range(inst.n_jobs)])
        hi = np.array([bounds.vtop[i][bounds.allowed[i]].max() for i in range(inst.n_jobs)])
        cut_range = (lo, hi)
    m = build_p1_grouped(inst, computation="cuts", tangent_points=opts.tangent_points, cut_range=cut_range)
    pruned = _apply_bounds(inst, m, bounds) if bounds is not None else 0
    v0 = job_metrics(inst, best_a)["throughput"]
    for i in range(inst.n_jobs):  # the incumbent's own point: the master cannot undercut it there
        add_tangent_cut(m, i, float(v0[i]))
    return m, pruned


def _solve_master(m: pyo.ConcreteModel, remaining: float | None, threads: int | None, tight: dict[str, float] | None,
                  best_val: float) -> tuple[Solution, dict[str, float] | None]:
    """One master solve; returns the result and the tolerances for the next masters.

    Tight feasibility tolerances: in per-job units thn ~ 0.01 at K >= 300, where HiGHS's default
    1e-6 lets the master undercut a tangent cut by ~1e-4 relative and outer approximation stalls.
    A master bound above an achieved value is a numerical failure of the tight tolerances (seen
    with 1e-9): it is dropped, and this and later masters are solved with HiGHS's defaults.
    """
    sol = solve_model(m, "highs", time_limit=remaining, threads=threads, raise_on_failure=False, options=tight)
    if tight and sol.bound is not None and sol.bound > best_val * (1 + 1e-7) + 1e-9:
        log.warning("OA master bound %.9g above the incumbent %.9g; retrying with default tolerances",
                    sol.bound, best_val)
        tight = None
        sol = solve_model(m, "highs", time_limit=remaining, threads=threads, raise_on_failure=False)
    if sol.status in (Status.INFEASIBLE, Status.UNBOUNDED, Status.ERROR):
        raise SolverError(f"outer-approximation master failed: {sol.status.value} ({sol.message})")
    if sol.bound is not None and sol.bound > best_val * (1 + 1e-7) + 1e-9:
        raise SolverError(f"outer-approximation master bound {sol.bound} is above the achieved average JCT {best_val}")
    return sol, tight


def _add_cuts(inst: PlacementInstance, m: pyo.ConcreteModel, neighbour_cuts: bool, steps: list[np.ndarray],
              lo_v: list[float], hi_v: list[float]) -> None:
    """Tangent cuts at the master's V_i (and, with ``neighbour_cuts``, one worker of any class away)."""
    for i in range(inst.n_jobs):
        v = float(pyo.value(m.V[i]))
        add_tangent_cut(m, i, v)
        if neighbour_cuts:  # also at the throughputs one worker away, so near-equal points go together
            for step in steps[i]:
                for w in (v - step, v + step):
                    if lo_v[i] < w < hi_v[i]:
                        add_tangent_cut(m, i, w)


def _solve_outer_approximation(inst: PlacementInstance, opts: _OAOptions, *, time_limit: float | None,
                               threads: int | None, t0: float) -> PlacementSolution:
    """Outer approximation (module docstring) on the grouped MILP with HiGHS masters."""
    deadline = None if time_limit is None else t0 + time_limit
    best_a = optimus_lb(inst, reading="balanced_gains").assignment  # a cheap incumbent, so that a stopped run reports one
    if opts.improve:
        best_a = improve_assignment(inst, best_a)
    best_val, lower = average_jct(inst, best_a), relaxed_lower_bound(inst)
    m, pruned = _oa_master(inst, opts, best_a, best_val)
    steps = [np.unique(inst.throughput[i]) for i in range(inst.n_jobs)]
    lo_v = [float(m.Vn[i].lb) * float(pyo.value(m.rmax[i])) for i in range(inst.n_jobs)]
    hi_v = [float(m.Vn[i].ub) * float(pyo.value(m.rmax[i])) for i in range(inst.n_jobs)]
    status = Status.FEASIBLE
    tight: dict[str, float] | None = {"mip_feasibility_tolerance": 1e-8, "primal_feasibility_tolerance": 1e-8}
    it = 0
    for it in range(1, opts.max_iterations + 1):
        remaining = None if deadline is None else deadline - time.perf_counter()
        if remaining is not None and remaining <= 0:
            status = Status.TIME_LIMIT
            break
        sol, tight = _solve_master(m, remaining, threads, tight, best_val)
        if sol.bound is not None:
            lower = max(lower, sol.bound)
        if sol.objective is not None:
            a = assignment_from_model(inst, m)
            val = average_jct(inst, a)
            if val < best_val:
                best_a, best_val = a, val
        if sol.status is Status.TIME_LIMIT:
            status = Status.TIME_LIMIT
            break
        log.info("OA iteration %d: lower %.6f upper %.6f", it, lower, best_val)
        if best_val - lower <= opts.rel_gap * abs(best_val):
            break
        _add_cuts(inst, m, opts.neighbour_cuts, steps, lo_v, hi_v)
    gap = relative_gap(best_val, lower)
    if status is not Status.TIME_LIMIT:
        status = Status.OPTIMAL if gap is not None and gap <= OPTIMAL_RTOL else Status.FEASIBLE
    return make_solution(inst, best_a, status=status, solver="highs", wall_time=time.perf_counter() - t0,
                         bound=min(lower, best_val),
                         message=f"outer approximation, {it} iterations",
                         info={"route": "grouped MILP + outer approximation (HiGHS)", "groups": len(m._groups),
                               "iterations": it, "pruned_sizes": pruned})


def _apply_bounds(inst: PlacementInstance, m: pyo.ConcreteModel, bounds: SizeBounds) -> int:
    """Tighten the grouped master with :class:`~hetopt.placement.exact_bounds.SizeBounds`.

    Sets the bounds of ``Vn`` (V_i over the allowed counts), fixes the ``size`` binaries of
    excluded counts at 0, adds the valid rows ``sum_n vmin_i(n) size[i, n] <= V_i <= sum_n
    Vtop_i(n) size[i, n]`` (V_i with n workers lies between those values) and, with nodes, fixes
    ``home[i, h] = 0`` on nodes with fewer workers than job i's least allowed count (and
    ``spans[i] = 1`` when no home is left).  Returns how many ``size`` binaries were fixed.
    """
    S = inst.n_jobs
    fixed = 0
    for i in range(S):
        ns = bounds.sizes(i)
        rmax = float(pyo.value(m.rmax[i]))
        lo = max(m.Vn[i].lb, float(bounds.vmin[i, ns - 1].min()) / rmax)
        hi = min(m.Vn[i].ub, float(bounds.vtop[i, ns - 1].max()) / rmax * (1 + 1e-9))
        if lo <= hi:
            m.Vn[i].setlb(lo)
            m.Vn[i].setub(hi)
    if hasattr(m, "size"):
        m.size_throughput = pyo.ConstraintList(doc="V_i between the allowed bounds for its count (valid rows)")
        for i in range(S):
            rmax = float(pyo.value(m.rmax[i]))
            keep = []
            for n in m.SIZES:
                if not bounds.allowed[i, n - 1]:
                    if not m.size[i, n].fixed:
                        m.size[i, n].fix(0)
                        fixed += 1
                else:
                    keep.append(n)
            m.size_throughput.add(m.Vn[i] >= sum(float(bounds.vmin[i, n - 1]) / rmax * m.size[i, n] for n in keep))
            m.size_throughput.add(m.Vn[i] <= sum(float(bounds.vtop[i, n - 1]) / rmax * (1 + 1e-9) * m.size[i, n] for n in keep))
    if hasattr(m, "home"):
        per_node = np.bincount(inst.nodes)
        for i in range(S):
            least = int(bounds.sizes(i)[0])
            for h in m.HOMES:
                if per_node[h] < least:
                    m.home[i, h].fix(0)
            if all(m.home[i, h].fixed for h in m.HOMES):
                m.spans[i].fix(1)
    return fixed


@takes_instance(PlacementInstance)
def exhaustive(inst: PlacementInstance, *, max_assignments: int = EXHAUSTIVE_LIMIT, chunk: int = 200_000) -> PlacementSolution:
    """Exhaustive search over every worker-level assignment (the paper's baseline, Table IV).

    Enumerates all S**K maps of workers to jobs, keeps those giving every job a worker (8b), and
    evaluates eq. (14) with proportional workloads, vectorized over chunks.  Independent of the
    models and of worker grouping.

    Raises
    ------
    SizeLimitError
        When S**K exceeds ``max_assignments``.
    """
    max_assignments = check_size(max_assignments, "max_assignments")
    chunk = check_size(chunk, "chunk")
    S, K = inst.n_jobs, inst.n_workers
    total = S**K
    if total > max_assignments:
        raise SizeLimitError(f"exhaustive search needs S**K = {S}**{K} = {total:.3g} assignments, above max_assignments="
                             f"{max_assignments:.3g}; use solve_exact for a certified optimum")
    t0 = time.perf_counter()
    rho, Pi, T = inst.throughput, inst.dataset_size, inst.epochs
    coef = inst.comm_coefficient
    nodes = inst.nodes
    best_val, best_a = math.inf, None
    powers = S ** np.arange(K - 1, -1, -1)
    for start in range(0, total, chunk):
        codes = np.arange(start, min(total, start + chunk))
        A = (codes[:, None] // powers[None, :]) % S  # n x K job of each worker
        onehot = A[:, :, None] == np.arange(S)[None, None, :]  # n x K x S
        Ki = onehot.sum(axis=1)  # n x S
        ok = (Ki > 0).all(axis=1)
        if not ok.any():
            continue
        A, onehot, Ki = A[ok], onehot[ok], Ki[ok]
        V = np.einsum("nks,sk->ns", onehot, rho)
        comp = Pi[None, :] / V
        if inst.has_communication:
            big = np.iinfo(np.int64).max
            lo = np.where(onehot, nodes[None, :, None], big).min(axis=1)
            hi = np.where(onehot, nodes[None, :, None], -1).max(axis=1)
            inv = inst.inverse_rate(hi > lo)
            comm = coef[None, :] * (Ki - 1) / Ki * inv
        else:
            comm = 0.0
        avg = (T[None, :] * (comp + comm)).mean(axis=1)
        j = int(np.argmin(avg))
        if avg[j] < best_val:
            best_val, best_a = float(avg[j]), A[j].copy()
    return make_solution(inst, best_a, status=Status.OPTIMAL, solver="exhaustive", wall_time=time.perf_counter() - t0,
                         bound=best_val, message=f"{total} assignments enumerated")
