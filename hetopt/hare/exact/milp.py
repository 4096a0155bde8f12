"""The MILP route of :func:`hetopt.hare.exact.solve_exact`: the big-M MILP of (4)-(8) with HiGHS or SCIP.

The Pyomo GDP/big-M model of :func:`hetopt.hare.model.build_hare_sched` (the declarative
statement of Hare_Sched), with the big-M constants from the best cheap schedule
(:func:`hetopt.hare.exact.start.best_known_schedule`) and completions capped at the serial
horizon (:func:`hetopt.hare.bounds.serial_horizon`: a job of tiny weight otherwise gets big-M
constants of ``UB / w_n``, ``1e9`` for a weight of ``1e-10``, and HiGHS returned a wrong optimum).

Magnitudes (issue 25): the model is built on the instance in normalized units
(:func:`hetopt.hare.exact.normalize.normalization`: times over a power of two near the median compute
time, weights over one near the largest weight; exact in binary floating point), since HiGHS and
SCIP compare with absolute tolerances; HiGHS's absolute gap is set to 0 (:data:`HIGHS_OPTIONS`).
Certificate on the true data: the solver's decision (GPU of every task and order of starts) is
re-timed semi-actively on the TRUE instance, which removes the solver's feasibility-tolerance
noise, and its objective recomputed; the bound is the solver's times ``tau omega`` (or the
trivial bound ``sum_n w_n (a_n + |R_n| L_n)`` when higher, :func:`hetopt.hare.bounds.trivial_bound`).  A solver bound above the recomputed
objective is float noise within :data:`BOUND_CHECK_RTOL` (then taken as the objective) and an
invalid bound beyond it, dropped (``info["rejected_bound"]``).  OPTIMAL only when the bound meets the
objective within ``OPTIMAL_RTOL``.  A solve that fails (no solution and no limit) reports the best
cheap schedule with the reason in ``info``; so does a time limit that the model does not fit (twice
its estimated build time, :func:`model_estimate` and :data:`BUILD_SECONDS_PER_ROW`, or its measured
build time and :data:`INTERFACE_FACTOR` times it for the solver interface), as TIME_LIMIT with the
trivial bound.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import numpy as np
import pyomo.environ as pyo

from ...certify import Status, certify
from ...inputs import check_choice, check_flag, check_gap, check_threads, check_time_limit, takes_instance
from ...solvers import solve_model
from ..bounds import trivial_bound
from ..instance import HareInstance
from ..listsched import semi_active, start_order
from ..model import build_hare_sched
from ..solution import HareSolution, make_solution
from .normalize import normalization, normalized_instance
from .start import best_known_schedule

__all__ = ["solve_milp_exact", "model_decision", "model_estimate", "HIGHS_OPTIONS", "MILP_SOLVERS",
           "BUILD_SECONDS_PER_ROW", "INTERFACE_FACTOR"]

log = logging.getLogger(__name__)

#: HiGHS options of the MILP route: no absolute gap (the relative gap decides, at every magnitude).
HIGHS_OPTIONS: dict[str, Any] = {"mip_abs_gap": 0.0}
#: A solver bound above the recomputed objective by at most this (relative) is float noise of the
#: re-timing and taken as the objective; beyond, it is an invalid bound and dropped.
BOUND_CHECK_RTOL = 1e-9
#: Solvers of the MILP route.
MILP_SOLVERS = ("highs", "scip")
#: Seconds per row to build the Pyomo big-M model (measured 140-250 us at 20-60 tasks on one loaded
#: core; the solver interface then takes about as long again): with a time limit below twice the
#: estimated build time the model is not built (module docstring).
BUILD_SECONDS_PER_ROW = 2e-4
#: The solver interface (Pyomo to HiGHS or SCIP) takes up to this many times the measured build time.
INTERFACE_FACTOR = 1.5


def model_estimate(inst: HareInstance) -> dict[str, int]:
    """The size of the big-M MILP of ``inst``, counted before building it.

    Returns
    -------
    dict
        ``tasks``, ``disjunctions`` (pairs of tasks that (8) keeps apart: of different jobs, or
        of one round of a job), ``rows`` (constraints after the big-M transformation, about) and
        ``binaries``.
    """
    d, m = inst.n_tasks, inst.n_gpus
    per_job = inst.rounds * inst.tasks_per_round
    free = d * (d - 1) // 2 - int((per_job * (per_job - 1) // 2).sum())
    same = int((inst.rounds * (inst.tasks_per_round * (inst.tasks_per_round - 1) // 2)).sum())
    pairs = free + same
    return {"tasks": d, "disjunctions": pairs, "rows": 2 * pairs * (m + 1) + 3 * d, "binaries": 2 * free + d * m}


def model_decision(model: pyo.ConcreteModel, inst: HareInstance) -> tuple[np.ndarray, np.ndarray]:
    """Start times and GPUs (``argmax_m y_{i,m}``) read from a solved Hare model.

    Parameters
    ----------
    model : pyomo.environ.ConcreteModel
        A solved model of :func:`hetopt.hare.model.build_hare_sched` or
        :func:`hetopt.hare.model.build_relaxation`.
    inst : HareInstance
        Its instance.

    Returns
    -------
    start, gpu : numpy.ndarray
        In the model's units.
    """
    start = np.array([pyo.value(model.x[i]) for i in range(inst.n_tasks)])
    y = np.array([[pyo.value(model.y[i, g]) for g in range(inst.n_gpus)] for i in range(inst.n_tasks)])
    return start, y.argmax(axis=1)


def _retime(inst: HareInstance, raw_start: np.ndarray, gpu: np.ndarray) -> np.ndarray:
    """Semi-active starts on ``inst`` of the order of ``raw_start`` (rounds kept in order) and ``gpu``."""
    timed = semi_active(inst, start_order(inst, raw_start), np.asarray(gpu))
    if timed is None:  # pragma: no cover - start_order keeps every job's rounds in order
        raise AssertionError("start_order broke (7)")
    return timed[0]


def _retime_decision(inst: HareInstance, raw_start: np.ndarray, gpu: np.ndarray) -> np.ndarray:
    """The best re-timing of a solver's decision: its order by start, by middle and by end of compute.

    Within the solver's feasibility tolerance (``1e-7`` in normalized units) tasks much shorter
    than it start "together", so the order of their raw starts is arbitrary; ordering by the
    middle or the end of their compute puts a tiny task before a long one that starts a hair
    earlier.  Each candidate is a feasible semi-active schedule; the best one is kept.
    """
    gpu = np.asarray(gpu)
    tc = inst.task_compute[np.arange(inst.n_tasks), gpu]
    best, best_obj = None, np.inf
    for key in (raw_start, raw_start + tc / 2, raw_start + tc):
        start = _retime(inst, key, gpu)
        obj = _objective(inst, start, gpu)
        if obj < best_obj:
            best, best_obj = start, obj
    assert best is not None
    return best


@takes_instance(HareInstance)
def solve_milp_exact(inst: HareInstance, *, solver: str = "highs", time_limit: float | None = None,
                     mip_gap: float | None = None, threads: int | None = 1,
                     symmetry_breaking: bool = True) -> HareSolution:
    """Solve the big-M MILP of Hare_Sched; the arguments are those of :func:`hetopt.hare.exact.solve_exact`.

    Parameters
    ----------
    inst : HareInstance
        The instance.
    solver : {"highs", "scip"}
        The MILP solver.
    time_limit : float, optional
        Seconds; a stopped solve is TIME_LIMIT with the incumbent (the best cheap schedule when
        the solver has none) and a bound.
    mip_gap : float, optional
        Relative gap (default: exact optima).
    threads : int, optional
        Solver threads.
    symmetry_breaking : bool
        See :func:`hetopt.hare.model.build_hare_sched`.

    Returns
    -------
    HareSolution
        ``method="exact"``; OPTIMAL only when the recomputed objective meets the bound on the
        true data (module docstring); ``info`` holds the units (``time_unit``, ``weight_unit``),
        the solver's objective and bound in them.
    """
    check_choice(solver, "solver", MILP_SOLVERS)
    time_limit = check_time_limit(time_limit)
    mip_gap = check_gap(mip_gap, "mip_gap")
    check_threads(threads)
    check_flag(symmetry_breaking, "symmetry_breaking")
    t0 = time.perf_counter()
    norm = normalization(inst)
    ni = normalized_instance(inst, norm)
    heur_start, heur_gpu, ub = best_known_schedule(ni)
    build = model_estimate(inst)["rows"] * BUILD_SECONDS_PER_ROW
    if time_limit is not None and 2 * build > time_limit - (time.perf_counter() - t0):
        return _unbuilt(inst, heur_start, heur_gpu, f"estimated build time {build:.3g} s", t0, solver)
    tb = time.perf_counter()
    model = build_hare_sched(ni, symmetry_breaking=symmetry_breaking, upper_objective=ub, horizon=True)
    built = time.perf_counter() - tb
    rest = None
    if time_limit is not None:  # the solver interface takes up to 1.5 times as long as the build: kept out of its limit
        rest = time_limit - (time.perf_counter() - t0) - INTERFACE_FACTOR * built
        if rest < 0.05:
            return _unbuilt(inst, heur_start, heur_gpu, f"build time {built:.3g} s", t0, solver)
    res = solve_model(model, solver, time_limit=rest, mip_gap=mip_gap, threads=threads, raise_on_failure=False,
                      require_incumbent=False, options=HIGHS_OPTIONS if solver == "highs" else None)
    info: dict[str, Any] = {"time_unit": norm.time, "weight_unit": norm.weight, "model_objective": res.objective,
                            "model_bound": res.bound, "upper_bound_used": ub * norm.objective,
                            "solver_status": res.status.value}
    message = res.message
    if res.objective is None:  # stopped before any incumbent, or failed: the best heuristic schedule
        raw, gpu = heur_start, heur_gpu
        info["incumbent"] = "heuristic"
        message += "; no solver incumbent, heuristic schedule reported"
        if res.status is not Status.TIME_LIMIT:
            info["solver_failure"] = f"{res.status.value}: {res.message}"
            log.warning("%s: no solution (%s: %s); the best cheap schedule is reported", solver, res.status.value,
                        res.message)
    else:
        raw, gpu = model_decision(model, ni)
    start = _retime_decision(inst, raw * norm.time, gpu)
    if res.objective is not None:  # keep the heuristic when the solver stopped on a worse schedule
        h_start = _retime(inst, heur_start, heur_gpu)
        if _objective(inst, h_start, heur_gpu) < _objective(inst, start, gpu):
            start, gpu = h_start, heur_gpu
    objective = _objective(inst, start, gpu)
    bound = _bound(inst, res.bound, norm.objective, objective, info)
    status = certify(objective, bound, stopped=res.status is Status.TIME_LIMIT, sense="min")
    if status is not Status.OPTIMAL and res.status is Status.OPTIMAL:
        message += "; the solver's optimum did not meet the bound on the true data"
    return make_solution(inst, start, gpu, method="exact", status=status, bound=bound,
                         wall_time=time.perf_counter() - t0, solver=res.solver, message=message, info=info)


def _unbuilt(inst: HareInstance, start: np.ndarray, gpu: np.ndarray, why: str, t0: float,
             solver: str) -> HareSolution:
    """TIME_LIMIT without a solve: the best cheap schedule and the trivial bound (the model does not fit the limit)."""
    start = _retime(inst, start, gpu)
    info: dict[str, Any] = {"incumbent": "heuristic", "not_solved": why}
    bound = _bound(inst, None, 1.0, _objective(inst, start, gpu), info)
    return make_solution(inst, start, gpu, method="exact", status=Status.TIME_LIMIT, bound=bound,
                         wall_time=time.perf_counter() - t0, solver=solver, info=info,
                         message=(f"the big-M model does not fit the time limit ({why}, up to {INTERFACE_FACTOR:g} "
                                  "times as long in the solver interface): the best cheap schedule and the trivial bound are reported "
                                  "(engine='cpsat' scales further)"))


def _objective(inst: HareInstance, start: np.ndarray, gpu: np.ndarray) -> float:
    idx = np.arange(inst.n_tasks)
    comp = np.full(inst.n_jobs, -np.inf)
    np.maximum.at(comp, inst.task_job, start + inst.task_compute[idx, gpu] + inst.task_sync[idx, gpu])
    return float(inst.weight @ comp)


def _bound(inst: HareInstance, model_bound: float | None, unit: float, objective: float, info: dict) -> float:
    """The larger of the solver's bound (in true units) and the trivial bound, checked against the objective."""
    trivial = trivial_bound(inst)
    info["trivial_bound"] = trivial
    if model_bound is None:
        return trivial
    b = float(model_bound) * unit
    if b > objective:
        if b <= objective * (1 + BOUND_CHECK_RTOL):  # float noise of the re-timing: the objective is proven
            b = objective
        else:  # a defect of the solve: a valid bound cannot exceed a feasible objective
            info["rejected_bound"] = b
            log.info("the solver's bound %r exceeds the recomputed objective %r; dropped", b, objective)
            return trivial
    return max(b, trivial)
