"""What the routes of :func:`~hetopt.placement.exact.solve_exact` share: the run state, its start and end, the units."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyomo.environ as pyo

from ...certify import Status, certify, relative_gap
from ...errors import SolverError
from ...inputs import takes_instance
from ..baselines import optimus_lb
from ..evaluate import PlacementSolution, average_jct, job_metrics, make_solution
from ..exact_bounds import SizeBounds, improve_assignment, size_bounds
from ..grouped import GroupedScale, add_tangent_cut, build_master, model_size_estimate
from ..instance import PlacementInstance

#: The two routes of :func:`solve_exact`.
SOLVERS = ("highs", "scip")
#: Default size guard of each route: variables of the grouped model before pruning
#: (:func:`~hetopt.placement.grouped.model_size_estimate`).  S = 4, K = 1,000 is about 8,000 for
#: HiGHS (certified in about a minute); SCIP's MINLP is far slower per variable.
MAX_VARIABLES = {"highs": 60_000, "scip": 8_000}
#: The relative gap at which a route stops when ``mip_gap`` is None (OPTIMAL still needs ``OPTIMAL_RTOL``).
DEFAULT_GAP = 1e-7
#: Exhaustive search is the first fallback when S**K is at most this (about a second).
FALLBACK_ASSIGNMENTS = 200_000
#: Assignments per second of :func:`exhaustive` and seconds per model variable of the Pyomo build
#: (measured on one core, with a safety factor): the time estimates behind ``time_limit``.
EXHAUSTIVE_RATE = 1e5
BUILD_SECONDS_PER_VARIABLE = 5e-5
#: Elementary operations per second of the pruning's dynamic programme (about 3 S K^2 of them).
DP_RATE = 3e8
#: The size guard also counts the worker-level work done before any model is built: Optimus-LB's
#: greedy (K steps of about GREEDY_STEP_OPERATIONS plus S log2 K for its sort) and the pruning's
#: dynamic programme (3 S K^2), in units of this many operations per variable of ``max_size`` (so
#: 60,000 allows 6e9 operations, about 20 s; the grouped model of an instance without communication
#: has S (G + 2) variables, and S = 1, K = 200,000 spent 117 s in the greedy alone, then an S K^2
#: scan, under a guard of 5 variables).
OPERATIONS_PER_VARIABLE = 100_000
#: Operations a step of the greedy costs whatever S (interpreter time, about 30 us, at DP_RATE).
GREEDY_STEP_OPERATIONS = 10_000
#: Candidate evaluations of the starting local search when no time limit bounds it (a few seconds;
#: one step at S = 900, K = 900 evaluates about 7e6).
LOCAL_SEARCH_WORK = 2_000_000
#: A model is rebuilt in the units of a new incumbent below REBASE times its unit (at most MAX_REBUILDS times).
REBASE = 0.5
MAX_REBUILDS = 5
#: A solver's bound is used only when it is at least TRUST in the model's units: the solvers' absolute
#: tolerances (1e-7 to 1e-6) make a smaller bound meaningless (a master around a poor incumbent once
#: "proved" 0.0858 on an instance whose optimum is 0.0701).  ABS_TOL is the absolute slack of the checks.
TRUST = 1e-2
ABS_TOL = 1e-7


@takes_instance(PlacementInstance)
def relaxed_lower_bound(inst: PlacementInstance) -> float:
    """A lower bound on P1 that needs no solver: every job alone on every worker, no communication.

    Job i's computation time is at least ``T_i |Pi_i| / sum_k rho_{i,k}`` (all K workers, the
    proportional split) and its communication time is non-negative, so the mean of these values
    bounds eq. (8) from below.  It is the bound a time-limited run reports when the solver stopped
    before proving a better one.
    """
    return float(np.mean(inst.epochs * inst.dataset_size / inst.throughput.sum(axis=1)))


@dataclass
class Run:
    """State shared by the routes: the incumbent, the best proven bound, what happened."""

    inst: PlacementInstance
    t0: float
    deadline: float | None
    threads: int | None
    best_a: np.ndarray
    best_val: float
    lower: float
    bounds: SizeBounds | None
    info: dict[str, Any] = field(default_factory=dict)
    timed_out: bool = False
    failure: str | None = None

    def remaining(self) -> float | None:
        """Seconds left (None without a time limit)."""
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def offer(self, a: np.ndarray) -> None:
        """Keep ``a`` if its value (recomputed on the true data) beats the incumbent."""
        val = average_jct(self.inst, a)
        if val < self.best_val:
            self.best_a, self.best_val = a, val
        if self.failure is None and not bound_holds(val, self.lower):  # an accepted bound was wrong
            self.failure = f"a solver's bound {self.lower!r} is above the value {val!r} found later"
            self.lower = 0.0

    def prove(self, bound: float | None) -> None:
        """Raise the proven lower bound to ``bound`` (at most the incumbent's value)."""
        if bound is not None and math.isfinite(bound):
            self.lower = max(self.lower, min(bound, self.best_val))

    def prove_scaled(self, bound: float | None, unit: float) -> None:
        """A solver's bound in units of ``unit``: used when at least ``TRUST`` (see there)."""
        if bound is not None and bound >= TRUST:
            self.prove(bound * unit)

    @property
    def gap(self) -> float:
        """Relative gap between the incumbent and the proven bound."""
        return relative_gap(self.best_val, self.lower) or 0.0

    @property
    def certified(self) -> bool:
        """The proven bound meets the incumbent (:func:`~hetopt.certify.certify`)."""
        return certify(self.best_val, self.lower, stopped=False, sense="min") is Status.OPTIMAL


def bound_holds(value: float, bound: float) -> bool:
    """``bound`` is a valid lower bound next to the achieved ``value``: not above it beyond ``OPTIMAL_RTOL``.

    :func:`~hetopt.certify.certify` decides (it raises on a bound on the wrong side); a route
    that finds it broken falls back instead of raising.
    """
    try:
        certify(value, bound, stopped=False, sense="min")
    except SolverError:
        return False
    return True


@dataclass(frozen=True)
class OAOptions:
    """The checked options of the outer-approximation route (see :func:`solve_exact`)."""

    rel_gap: float
    max_iterations: int
    tangent_points: int
    neighbour_cuts: bool


def start(inst: PlacementInstance, *, t0: float, time_limit: float | None, threads: int | None, prune: bool,
           improve: bool) -> Run:
    """The starting incumbent (Optimus-LB, improved by local search) and the bounds that need no solver."""
    deadline = None if time_limit is None else t0 + time_limit
    a = optimus_lb(inst, reading="balanced_gains").assignment  # a cheap incumbent, so that a stopped run reports one
    if improve:
        a = improve_assignment(inst, a, deadline=None if time_limit is None else t0 + 0.25 * time_limit,
                               max_evaluations=LOCAL_SEARCH_WORK if time_limit is None else None)
    run = Run(inst=inst, t0=t0, deadline=deadline, threads=threads, best_a=a, best_val=average_jct(inst, a),
               lower=0.0, bounds=None)
    run.prove(relaxed_lower_bound(inst))
    run.info["pruned_sizes"] = 0
    dp_seconds = 3 * inst.n_jobs * inst.n_workers**2 / DP_RATE
    if prune and (deadline is None or dp_seconds <= 0.25 * (deadline - time.perf_counter())):
        run.bounds = size_bounds(inst, run.best_val)
        run.prove(run.bounds.lower)
        run.info["pruned_sizes"] = int((~run.bounds.allowed).sum())
    return run


def finish(run: Run, solver: str) -> PlacementSolution:
    """The solution of a run: :func:`~hetopt.certify.certify`'s status of the incumbent and the proven bound."""
    status = certify(run.best_val, run.lower, stopped=run.timed_out, sense="min")
    if run.failure is not None:
        run.info.setdefault("fallback", f"{run.failure}; fallback disabled")
    run.info["certified"] = status is Status.OPTIMAL
    message = run.info.get("message", "")
    if "fallback" in run.info:
        message = f"{message}; {run.info['fallback']}" if message else run.info["fallback"]
    return make_solution(run.inst, run.best_a, status=status, solver=solver, wall_time=time.perf_counter() - run.t0,
                         bound=min(run.lower, run.best_val), message=message, info=run.info)


def around(run: Run, computation: str, tangent_points: int = 8) -> tuple[pyo.ConcreteModel, GroupedScale]:
    """The clipped model in the units of the current incumbent (re-pruned with its value when pruning is on)."""
    inst = run.inst
    v0 = job_metrics(inst, run.best_a)["throughput"]
    if run.bounds is not None and run.bounds.upper > run.best_val:
        run.bounds = size_bounds(inst, run.best_val)
        run.prove(run.bounds.lower)
        run.info["pruned_sizes"] = int((~run.bounds.allowed).sum())
    scale = GroupedScale.around(inst, run.best_val, run.bounds)
    m = build_master(inst, scale, computation=computation, tangent_points=tangent_points, bounds=run.bounds)
    if computation == "cuts":
        for i in range(inst.n_jobs):  # the incumbent's own point: the master cannot undercut it there
            add_tangent_cut(m, i, float(v0[i]))
    run.info["groups"] = len(m._groups)
    return m, scale


def rebase(run: Run, scale: GroupedScale) -> bool:
    """True when the incumbent fell below ``REBASE`` of the model's unit and a rebuild fits in the time left."""
    if run.best_val >= REBASE * scale.unit or run.info.get("rebuilds", 0) >= MAX_REBUILDS:
        return False
    remaining = run.remaining()
    if remaining is not None and remaining < build_seconds(run):
        return False
    run.info["rebuilds"] = run.info.get("rebuilds", 0) + 1
    return True


def route_size(inst: PlacementInstance, prune: bool = True, limit: int | None = None) -> dict[str, int]:
    """The size guard's estimate, in integers, before anything is built or run.

    ``variables`` and ``constraints`` of the grouped model
    (:func:`~hetopt.placement.grouped.model_size_estimate`), ``operations`` of the worker-level
    start (K (S ceil(log2 K) + GREEDY_STEP_OPERATIONS) for Optimus-LB's greedy, 3 S K^2 more for
    the pruning), and ``size``: the larger
    of ``variables`` and ``operations`` over :data:`OPERATIONS_PER_VARIABLE` (rounded up), the
    number ``max_size`` is compared with.  When the operations alone exceed ``limit``, the model
    (whose grouping of the workers costs S K) is not counted: ``variables`` and ``constraints`` are 0.
    """
    S, K = int(inst.n_jobs), int(inst.n_workers)
    ops = K * (S * max(K - 1, 1).bit_length() + GREEDY_STEP_OPERATIONS) + (3 * S * K * K if prune else 0)
    size = -(-ops // OPERATIONS_PER_VARIABLE)
    if limit is not None and size > limit:
        return {"variables": 0, "constraints": 0, "operations": ops, "size": size}
    est = model_size_estimate(inst)
    size = max(est["variables"], size)
    return {"variables": est["variables"], "constraints": est["constraints"], "operations": ops, "size": size}


def build_seconds(run: Run) -> float:
    """Seconds a build of the model takes (its size after pruning times a measured rate)."""
    kept = None if run.bounds is None else int(run.bounds.allowed.sum())
    return model_size_estimate(run.inst, kept)["variables"] * BUILD_SECONDS_PER_VARIABLE


def time_to_build(run: Run) -> bool:
    """False (and ``timed_out``) when the time left cannot build the model (estimated from its size)."""
    remaining = run.remaining()
    if remaining is None:
        return True
    need = build_seconds(run)
    if remaining is not None and remaining < need:
        run.timed_out = True
        run.info["message"] = f"time limit: {max(remaining, 0):.2g} s left, about {need:.2g} s needed to build the model"
        return False
    return True


