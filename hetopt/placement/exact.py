"""Certified optima of P1: ``solve_exact`` (two solver routes) and ``exhaustive`` search.

``solve_exact(inst, solver="highs")`` runs outer approximation (Duran and Grossmann 1986) on
:func:`~hetopt.placement.model.build_p1_grouped`: the master MILP replaces the convex
computation latency |Pi_i| / V_i by tangent cuts, so its optimum is a lower bound on P1; its
incumbent, evaluated exactly, is an upper bound; a tangent cut at the incumbent's V_i is added
and the master re-solved until the two bounds meet.  It terminates finitely (there are finitely
many integer points, and a repeated point closes the gap).  ``solver="scip"`` solves the same
grouped model with the nonlinear constraint theta_i V_i >= |Pi_i| directly (global MINLP).
"""

from __future__ import annotations

import logging
import math
import time

import numpy as np
import pyomo.environ as pyo

from ..errors import SizeLimitError, SolverError
from ..result import OPTIMAL_RTOL, Status, relative_gap
from ..solvers import check_time_limit, solve_model
from .evaluate import PlacementSolution, average_jct, make_solution
from .instance import PlacementInstance
from .model import add_tangent_cut, assignment_from_model, build_p1_grouped

__all__ = ["solve_exact", "exhaustive", "EXHAUSTIVE_LIMIT"]

log = logging.getLogger(__name__)

#: Largest number of worker-level assignments (S**K) ``exhaustive`` enumerates by default.
EXHAUSTIVE_LIMIT = 5_000_000


def relaxed_lower_bound(inst: PlacementInstance) -> float:
    """A lower bound on P1 that needs no solver: every job alone on every worker, no communication.

    Job i's computation time is at least ``T_i |Pi_i| / sum_k rho_{i,k}`` (all K workers, the
    proportional split) and its communication time is non-negative, so the mean of these values
    bounds eq. (8) from below.  It is the bound a time-limited run reports when the solver stopped
    before proving a better one.
    """
    return float(np.mean(inst.epochs * inst.dataset_size / inst.throughput.sum(axis=1)))


def solve_exact(inst: PlacementInstance, solver: str = "highs", time_limit: float | None = None, *,
                rel_gap: float = 1e-7, threads: int | None = None, max_iterations: int = 200,
                tangent_points: int = 64, prune: bool = True) -> PlacementSolution:
    """The optimum of P1 (eq. (8), with communication), with a certified lower bound.

    Parameters
    ----------
    inst : PlacementInstance
    solver : {"highs", "scip"}
        "highs": outer approximation with HiGHS MILP masters; "scip": the grouped MINLP by SCIP.
    time_limit : float, optional
        Seconds for the whole solve.  When reached, the status is TIME_LIMIT and ``bound`` is the
        best proven lower bound.
    rel_gap : float
        Relative gap at which outer approximation stops (the status is OPTIMAL only if the final
        gap is at most ``OPTIMAL_RTOL``).
    threads : int, optional
    max_iterations : int
        Outer-approximation iterations before giving up with status FEASIBLE.
    tangent_points : int
        Initial tangent cuts per job of the HiGHS master (geometrically spaced over V_i's range);
        more cuts mean fewer outer-approximation rounds.
    prune : bool
        Bound each job's throughput V_i and worker count K_i from the starting incumbent's value
        (:func:`_prune_by_incumbent`) before the first master; the optimum is unchanged.

    Returns
    -------
    PlacementSolution
        ``bound`` is a proven lower bound; ``info`` records the route, the number of groups and
        (for HiGHS) the outer-approximation iterations.
    """
    from ..inputs import check_instance

    check_instance(inst, PlacementInstance, "inst")
    time_limit = check_time_limit(time_limit)
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    if solver == "scip":
        m = build_p1_grouped(inst, computation="nonlinear")
        sol = solve_model(m, "scip", time_limit=time_limit, threads=threads, require_incumbent=False)
        if sol.objective is None:  # stopped before any incumbent: the balanced Optimus-LB assignment
            from .baselines import optimus_lb

            a = optimus_lb(inst, reading="balanced_gains").assignment
            true = average_jct(inst, a)
            return make_solution(inst, a, status=sol.status, solver="scip", wall_time=time.perf_counter() - t0,
                                 bound=min(max(sol.bound or -math.inf, relaxed_lower_bound(inst)), true),
                                 message=f"{sol.message}; no solver incumbent, Optimus-LB assignment reported",
                                 info={"route": "grouped MINLP (SCIP)", "groups": len(m._groups),
                                       "incumbent": "optimus_lb"})
        a = assignment_from_model(inst, m)
        status = sol.status
        true = average_jct(inst, a)
        if status is Status.OPTIMAL and not math.isclose(true, sol.objective, rel_tol=1e-5):
            raise SolverError(f"SCIP objective {sol.objective} disagrees with the evaluated assignment {true}")
        bound = max(sol.bound if sol.bound is not None else -math.inf, relaxed_lower_bound(inst))
        return make_solution(inst, a, status=status, solver="scip", wall_time=time.perf_counter() - t0,
                             bound=min(bound, true), message=sol.message,
                             info={"route": "grouped MINLP (SCIP)", "groups": len(m._groups)})
    if solver != "highs":
        raise ValueError(f"solver is {solver!r}; expected 'highs' or 'scip'")
    m = build_p1_grouped(inst, computation="cuts", tangent_points=tangent_points)
    from .baselines import optimus_lb  # a cheap incumbent, so that a stopped run still reports one

    best_a = optimus_lb(inst, reading="balanced_gains").assignment
    best_val, lower = average_jct(inst, best_a), relaxed_lower_bound(inst)
    pruned = _prune_by_incumbent(inst, m, best_val) if prune else 0
    status = Status.FEASIBLE
    it = 0
    for it in range(1, max_iterations + 1):
        remaining = None if deadline is None else deadline - time.perf_counter()
        if remaining is not None and remaining <= 0:
            status = Status.TIME_LIMIT
            break
        sol = solve_model(m, "highs", time_limit=remaining, threads=threads, raise_on_failure=False)
        if sol.status in (Status.INFEASIBLE, Status.UNBOUNDED, Status.ERROR):
            raise SolverError(f"outer-approximation master failed: {sol.status.value} ({sol.message})")
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
        if best_val - lower <= rel_gap * abs(best_val):
            break
        for i in range(inst.n_jobs):
            add_tangent_cut(m, i, float(pyo.value(m.V[i])))
    gap = relative_gap(best_val, lower)
    if status is not Status.TIME_LIMIT:
        status = Status.OPTIMAL if gap is not None and gap <= OPTIMAL_RTOL else Status.FEASIBLE
    return make_solution(inst, best_a, status=status, solver="highs", wall_time=time.perf_counter() - t0,
                         bound=min(lower, best_val),
                         message=f"outer approximation, {it} iterations",
                         info={"route": "grouped MILP + outer approximation (HiGHS)", "groups": len(m._groups),
                               "iterations": it, "pruned_sizes": pruned})


def _prune_by_incumbent(inst: PlacementInstance, m: pyo.ConcreteModel, upper: float) -> int:
    """Tighten the grouped master with bounds implied by an achieved average JCT ``upper``.

    Every assignment at least as good as ``upper`` has S upper >= T_i |Pi_i| / V_i + sum_{j != i}
    T_j |Pi_j| / Vmax_j (communication latency >= 0, Vmax_j the throughput of job j's fastest
    K - S + 1 workers), so V_i >= Vmin_i; with K_i workers of at most rho_max_i each, K_i >=
    ceil(Vmin_i / rho_max_i) =: Kmin_i, and K_i <= K - sum_{j != i} Kmin_j.  Sets the lower bound
    of ``Vn`` and fixes the excluded ``size`` binaries at 0; returns how many were fixed.
    (Margins of 1e-9 relative keep the bounds valid under rounding.)
    """
    S, K = inst.n_jobs, inst.n_workers
    rho = inst.throughput
    vmax = np.sort(rho, axis=1)[:, ::-1][:, : K - S + 1].sum(axis=1)
    work = inst.epochs * inst.dataset_size
    lb = work / vmax
    budget = S * upper * (1 + 1e-9) - (lb.sum() - lb)
    kmin = np.ones(S, dtype=np.int64)
    for i in range(S):
        if budget[i] <= 0:
            continue
        vmin = work[i] / budget[i] * (1 - 1e-9)
        rmax = float(pyo.value(m.rmax[i]))
        lo = max(m.Vn[i].lb, vmin / rmax)
        if lo <= m.Vn[i].ub:
            m.Vn[i].setlb(lo)
        kmin[i] = max(1, math.ceil(vmin / float(rho[i].max()) - 1e-9))
    fixed = 0
    if hasattr(m, "size"):
        for i in range(S):
            kmax = K - (kmin.sum() - kmin[i])
            for n in m.SIZES:
                if (n < kmin[i] or n > kmax) and not m.size[i, n].fixed:
                    m.size[i, n].fix(0)
                    fixed += 1
    return fixed


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
    from ..inputs import check_instance

    check_instance(inst, PlacementInstance, "inst")
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
