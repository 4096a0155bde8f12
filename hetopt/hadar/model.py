"""Pyomo builders of Hadar's problems: P1 (time-indexed MILP), P2 (ILP over schedules), P3 (its dual).

P1 (1)-(1e) is nonlinear as printed: the bottleneck throughput (1b) is a minimum over the
types a job uses and the finish slot (1c) a maximum over the slots it runs.  ``build_p1``
linearizes both exactly (see ``models/hadar2024.md``):

* (1b): binary ``u[j,r,t]`` marks "type r used by job j in slot t" (``w <= W_j u``); the
  slot's iterations ``p[j,t]`` are bounded by ``L W_j X^r_j`` for every used type and by
  ``L W_j max_r X^r_j`` when the job runs, so ``p`` is at most the bottleneck rate and the
  optimum takes it equal wherever it matters.  Since (1a) is a ``>=`` constraint, an upper
  bound is exact.
* (1c): binary ``d[j,t]`` picks the finish slot (``sum_t d = 1``) and a slot in which the
  job runs must not be after it (``z[j,t] <= sum_{t' >= t} d[j,t']``); the objective
  ``sum_t U_j(t) d[j,t]`` with non-increasing ``U_j`` makes the optimum pick the true last slot.
* (1e): binary ``z[j,t]`` with ``sum_hr w[j,h,r,t] = W_j z[j,t]`` (all-or-nothing).
* Scaling: the solver sees ``q[j,t] = p[j,t] / (L W_j max_r X^r_j)`` in ``[0, 1]`` (job j's share of
  a full slot), so (1a)-(1b) have coefficients in ``[0, 1]`` and (1a)'s right-hand side is a number
  of slots, whatever the iteration counts (up to 1e7 on the trace); ``p`` is an expression.  Scaling
  every throughput by ``s`` and the slot length by ``1/s`` leaves these rows unchanged.
* Objective scale: with ``scaled=True`` the objective is ``sum_j U_j(f_j) / U*`` with ``U*`` the largest
  utility any job can reach (at its earliest possible finish, :func:`earliest_finish`), computed from
  ``log U_j`` (:meth:`~hetopt.hadar.utility.Utility.log_of`), so that the coefficients are in
  ``[0, 1]`` whatever the magnitudes (utilities of 1e-300 or 1e300 included); ``utility_scale`` holds
  ``U*``.  Finish slots before a job's earliest possible finish are fixed to 0 (``d = 0``): no
  schedule reaches them, and their utilities may be far above ``U*``.

References
----------
A. Sultana, N. Pakka, F. Xu, X. Yuan, L. Chen, N.-F. Tzeng, "Resource Heterogeneity-Aware and
Utilization-Enhanced Scheduling for Deep Learning Clusters" (Hadar / HadarE), Section III.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyomo.environ as pyo

from ..errors import ArgumentError, SolverError
from ..inputs import MAX_GENERATED, check_flag, check_size, numeric_array, takes_instance
from .instance import HadarInstance

__all__ = ["build_p1", "build_p2", "build_p3", "finish_utility", "log_finish_utility", "earliest_finish",
           "schedule_utility", "schedule_log_utility", "EARLIEST_RTOL"]

#: :func:`earliest_finish` counts a job complete at ``1 - EARLIEST_RTOL`` of its iterations (above the
#: checker's and the solvers' feasibility tolerances), so that it never cuts a schedule they accept.
EARLIEST_RTOL = 1e-5


@takes_instance(HadarInstance)
def finish_utility(inst: HadarInstance, horizon: int | None = None) -> np.ndarray:
    """``U_j((t + 1 - a_j) L)``: utility of finishing at the end of slot t, a (J, T) array (0 before arrival)."""
    T = inst.horizon if horizon is None else check_size(horizon, "horizon", maximum=MAX_GENERATED)
    t = np.arange(T)[None, :]
    dur = (t + 1 - inst.arrival[:, None]) * inst.slot_length
    vals = inst.utility_of(np.where(dur > 0, dur, inst.slot_length))
    return np.where(dur > 0, vals, 0.0)


@takes_instance(HadarInstance)
def log_finish_utility(inst: HadarInstance, horizon: int | None = None) -> np.ndarray:
    """``log U_j((t + 1 - a_j) L)`` as a (J, T) array (``-inf`` before arrival), exact where ``U_j`` under- or overflows."""
    T = inst.horizon if horizon is None else check_size(horizon, "horizon", maximum=MAX_GENERATED)
    t = np.arange(T)[None, :]
    dur = (t + 1 - inst.arrival[:, None]) * inst.slot_length
    vals = inst.utility.log_of(np.where(dur > 0, dur, inst.slot_length), inst.total_iterations)
    return np.where(dur > 0, vals, -np.inf)


@takes_instance(HadarInstance)
def earliest_finish(inst: HadarInstance) -> np.ndarray:
    """The earliest slot in which each job can finish: ``a_j`` plus the slots it needs on its best gang, minus 1.

    No gang of ``W_j`` GPUs runs faster than the ``W_j`` fastest usable GPUs of the cluster
    (:meth:`~hetopt.hadar.instance.HadarInstance.best_gang_rate`, the bottleneck of (1b)).  The job
    counts as complete at ``1 - EARLIEST_RTOL`` of its iterations, so the result is never later
    than a finish that the checker or a solver's tolerance accepts.
    """
    with np.errstate(divide="ignore", over="ignore"):
        need = inst.total_iterations / (inst.best_gang_rate() * inst.slot_length) * (1.0 - EARLIEST_RTOL)
    slots = np.maximum(1.0, np.ceil(np.minimum(need, float(inst.horizon) + 1.0)))
    return inst.arrival + slots.astype(np.int64) - 1


def _finish_of(inst: HadarInstance, j: Any, schedule: Any) -> tuple[int, int]:
    """``(j, f_js)``: the checked job index and the last slot the schedule uses; ArgumentError otherwise."""
    j = check_size(j, "j", minimum=0, maximum=inst.n_jobs - 1)
    a = numeric_array("schedule", schedule)
    if a.ndim != 3 or a.shape[:2] != (inst.n_machines, inst.n_types):
        raise ArgumentError(f"schedule has shape {a.shape}; expected ({inst.n_machines}, {inst.n_types}, T)")
    used = np.flatnonzero(a.sum(axis=(0, 1)) > 0)
    if used.size == 0:
        raise ArgumentError(f"schedule of job {j} uses no slot")
    return j, int(used[-1])


@takes_instance(HadarInstance)
def schedule_utility(inst: HadarInstance, j: int, schedule: np.ndarray) -> float:
    """``U_j(f_js - a_j)`` of one job's schedule (H x R x T) finishing at its last used slot."""
    j, f = _finish_of(inst, j, schedule)
    return float(inst.utility.of_job(j, (f + 1 - inst.arrival[j]) * inst.slot_length, float(inst.total_iterations[j])))


@takes_instance(HadarInstance)
def schedule_log_utility(inst: HadarInstance, j: int, schedule: np.ndarray) -> float:
    """``log U_j(f_js - a_j)`` of one job's schedule, exact where :func:`schedule_utility` under- or overflows."""
    j, f = _finish_of(inst, j, schedule)
    return float(inst.utility.log_of_job(j, (f + 1 - inst.arrival[j]) * inst.slot_length,
                                         float(inst.total_iterations[j])))


def _scaled(logs: dict, scaled: bool) -> tuple[dict, float]:
    """Coefficients ``exp(log - log_scale)`` (``log_scale`` the largest log, or 0 unscaled) and ``log_scale``."""
    top = max(logs.values()) if scaled and logs else 0.0
    top = top if np.isfinite(top) else 0.0
    with np.errstate(over="ignore", under="ignore"):
        return {k: float(np.exp(v - top)) for k, v in logs.items()}, float(top)


class BuildStopped(SolverError):
    """The build of P1 passed its deadline (:func:`hetopt.hadar.offline.solve_exact` then reports its start)."""


def _tick(deadline: float | None) -> None:
    """Raise :class:`BuildStopped` once ``deadline`` (a ``time.perf_counter()`` time) has passed."""
    if deadline is not None and time.perf_counter() > deadline:
        raise BuildStopped("the build of P1 passed its deadline")


@takes_instance(HadarInstance)
def build_p1(inst: HadarInstance, *, scaled: bool = False) -> pyo.ConcreteModel:
    """P1 (1)-(1e) as an exact time-indexed MILP (size J*H*R*T integer variables).

    Parameters
    ----------
    scaled : bool
        Divide the objective by ``U*``, the largest utility any job can reach (see the module
        docstring); the total utility is then ``utility_scale * total_utility``.  Default False:
        the objective is P1's total utility itself.

    Returns
    -------
    pyomo.environ.ConcreteModel
        Variables ``w`` (GPUs), ``z`` (job runs), ``u`` (type used), ``q`` (share of a full
        slot; expression ``p``: iterations in the slot), ``d`` (finish slot); objective
        ``total_utility``; parameters ``U`` (utilities), ``Uobj`` (the objective's coefficients)
        and ``utility_scale``.
    """
    return _build_p1(inst, check_flag(scaled, "scaled"), None)


def _build_p1(inst: HadarInstance, scaled: bool, deadline: float | None) -> pyo.ConcreteModel:
    """:func:`build_p1`, checking the clock between its components: :class:`BuildStopped` after ``deadline``."""
    _tick(deadline)
    J, H, R, T = inst.n_jobs, inst.n_machines, inst.n_types, inst.horizon
    L = inst.slot_length
    X, W, a, c = inst.throughput, inst.gpus, inst.arrival, inst.capacity
    U = finish_utility(inst)
    logU = log_finish_utility(inst)
    reach = np.arange(T)[None, :] >= earliest_finish(inst)[:, None]  # (J, T): finish slots some schedule reaches
    log_scale = float(np.max(np.where(reach, logU, -np.inf))) if scaled and reach.any() else 0.0
    with np.errstate(over="ignore", under="ignore"):
        coef = np.where(reach, np.exp(logU - log_scale), 0.0) if scaled else np.where(reach, U, 0.0)
        scale = float(np.exp(log_scale))
    m = pyo.ConcreteModel(name="hadar_p1")
    m.JOBS = pyo.RangeSet(0, J - 1)
    m.MACHINES = pyo.RangeSet(0, H - 1)
    m.TYPES = pyo.RangeSet(0, R - 1)
    m.SLOTS = pyo.RangeSet(0, T - 1)
    m.L = pyo.Param(initialize=L, doc="slot length L (s)")
    m.c = pyo.Param(m.MACHINES, m.TYPES, initialize=lambda _, h, r: int(c[h, r]), doc="c^r_h")
    m.X = pyo.Param(m.JOBS, m.TYPES, initialize=lambda _, j, r: float(X[j, r]), doc="X^r_j (iterations/s per GPU)")
    m.W = pyo.Param(m.JOBS, initialize=lambda _, j: int(W[j]), doc="W_j (gang size)")
    m.a = pyo.Param(m.JOBS, initialize=lambda _, j: int(a[j]), doc="a_j (arrival slot)")
    m.EN = pyo.Param(m.JOBS, initialize=lambda _, j: int(inst.total_iterations[j]), doc="E_j N_j")
    m.U = pyo.Param(m.JOBS, m.SLOTS, initialize=lambda _, j, t: float(U[j, t]), doc="U_j(t + 1 - a_j) in slots")
    m.utility_scale = pyo.Param(initialize=scale, doc="U*: total utility = utility_scale * total_utility (1 unscaled)")
    m.log_utility_scale = pyo.Param(initialize=log_scale, doc="log U* (exact where U* itself under- or overflows)")
    m.Uobj = pyo.Param(m.JOBS, m.SLOTS, initialize=lambda _, j, t: float(coef[j, t]),
                       doc="U_j(t + 1 - a_j) / utility_scale where slot t is a reachable finish, else 0")

    def w_bounds(_, j, h, r, t):
        ok = t >= a[j] and X[j, r] > 0
        return (0, int(min(c[h, r], W[j])) if ok else 0)

    m.w = pyo.Var(m.JOBS, m.MACHINES, m.TYPES, m.SLOTS, domain=pyo.NonNegativeIntegers, bounds=w_bounds,
                  doc="w^r_jh(t): type-r GPUs of machine h given to job j in slot t")
    _tick(deadline)
    m.z = pyo.Var(m.JOBS, m.SLOTS, domain=pyo.Binary, doc="job j runs in slot t (gang of (1e))")
    m.u = pyo.Var(m.JOBS, m.TYPES, m.SLOTS, domain=pyo.Binary, doc="job j uses type r in slot t (for (1b))")
    xmax = X.max(axis=1)
    full = L * W * xmax  # iterations of job j in a slot at its fastest type: job j's unit of work
    # Per-job units (scaling): q = p / full in [0, 1], so no coefficient carries an iteration count
    # (E_j N_j up to 1e7); p is kept as an expression in iterations.
    m.q = pyo.Var(m.JOBS, m.SLOTS, bounds=(0, 1), doc="x_j(t) sum_hr w^r_jh(t) L / (L W_j max_r X^r_j): share of a full slot")
    m.p = pyo.Expression(m.JOBS, m.SLOTS, rule=lambda _, j, t: float(full[j]) * m.q[j, t],
                         doc="x_j(t) sum_hr w^r_jh(t) L: iterations of job j in slot t")
    m.d = pyo.Var(m.JOBS, m.SLOTS, domain=pyo.Binary, bounds=lambda _, j, t: (0, 1 if reach[j, t] else 0),
                  doc="f_j = t (the finish slot of (1c)); 0 before the job's earliest possible finish")

    _tick(deadline)
    m.total_utility = pyo.Objective(
        expr=sum(m.Uobj[j, t] * m.d[j, t] for j in m.JOBS for t in m.SLOTS if reach[j, t]),
        sense=pyo.maximize, doc="(1) total utility sum_j U_j(f_j - a_j) (divided by utility_scale)")
    _p1_constraints(m, inst, full, reach, deadline)
    return m


def _p1_constraints(m: pyo.ConcreteModel, inst: HadarInstance, full: np.ndarray, reach: np.ndarray,
                    deadline: float | None) -> None:
    """P1's constraints (1a)-(1e) on the variables of :func:`_build_p1`, the clock checked between them."""
    X, a = inst.throughput, inst.arrival
    xmax = X.max(axis=1)
    m.iterations_complete = pyo.Constraint(
        m.JOBS, rule=lambda m, j: sum(m.q[j, t] for t in m.SLOTS) >= float(inst.total_iterations[j]) / float(full[j]),
        doc="(1a) every job completes E_j N_j iterations (in full slots of job j)")

    def bottleneck(m, j, r, t):
        if X[j, r] <= 0:
            return pyo.Constraint.Skip
        ratio = float(X[j, r] / xmax[j])
        return m.q[j, t] <= ratio + (1.0 - ratio) * (1 - m.u[j, r, t])

    m.bottleneck_throughput = pyo.Constraint(m.JOBS, m.TYPES, m.SLOTS, rule=bottleneck,
                                             doc="(1b) x_j(t) is at most X^r_j of every type r the job uses")
    _tick(deadline)
    m.type_used = pyo.Constraint(m.JOBS, m.MACHINES, m.TYPES, m.SLOTS,
                                 rule=lambda m, j, h, r, t: m.w[j, h, r, t] <= m.W[j] * m.u[j, r, t],
                                 doc="(1b) a type with w^r_jh(t) > 0 counts as used")
    _tick(deadline)
    m.runs_when_progressing = pyo.Constraint(m.JOBS, m.SLOTS,
                                             rule=lambda m, j, t: m.q[j, t] <= m.z[j, t],
                                             doc="(1b) no iterations in a slot where the job does not run")
    m.one_finish_slot = pyo.Constraint(
        m.JOBS, rule=lambda m, j: sum(m.d[j, t] for t in m.SLOTS if t >= a[j]) == 1,
        doc="(1c) f_j is one slot at or after the arrival")
    m.no_finish_before_arrival = pyo.Constraint(
        m.JOBS, rule=lambda m, j: sum(m.d[j, t] for t in m.SLOTS if t < a[j]) == 0 if a[j] > 0 else pyo.Constraint.Skip,
        doc="(1c) f_j >= a_j")
    m.finish_after_last_run = pyo.Constraint(
        m.JOBS, m.SLOTS, rule=lambda m, j, t: m.z[j, t] <= sum(m.d[j, s] for s in m.SLOTS if s >= t),
        doc="(1c) f_j is at or after every slot in which job j runs")
    _tick(deadline)
    m.capacity = pyo.Constraint(m.MACHINES, m.TYPES, m.SLOTS,
                                rule=lambda m, h, r, t: sum(m.w[j, h, r, t] for j in m.JOBS) <= m.c[h, r],
                                doc="(1d) GPUs of type r on machine h within capacity")
    _tick(deadline)
    m.gang = pyo.Constraint(m.JOBS, m.SLOTS,
                            rule=lambda m, j, t: sum(m.w[j, h, r, t] for h in m.MACHINES for r in m.TYPES)
                            == m.W[j] * m.z[j, t],
                            doc="(1e) all-or-nothing: 0 or W_j GPUs in every slot")
    _tick(deadline)
    m.no_run_before_arrival = pyo.Constraint(
        m.JOBS, m.SLOTS, rule=lambda m, j, t: m.z[j, t] == 0 if t < a[j] else pyo.Constraint.Skip,
        doc="(1e) w^r_jh(t) = 0 for t < a_j")


def _check_schedules(inst: HadarInstance, schedules: Sequence[Sequence[np.ndarray]]) -> list[list[np.ndarray]]:
    """The candidate schedules as int64 arrays; :class:`ArgumentError` naming the one that is malformed."""
    if not isinstance(schedules, Sequence) or isinstance(schedules, str) or not all(
            isinstance(S, Sequence | np.ndarray) and not isinstance(S, str) for S in schedules):
        raise ArgumentError(f"schedules is {schedules!r:.60}; expected one list of (H, R, T) arrays per job")
    if len(schedules) != inst.n_jobs:
        raise ArgumentError(f"schedules has {len(schedules)} entries; expected one list per job ({inst.n_jobs})")
    out = []
    for j, S in enumerate(schedules):
        if len(S) == 0:
            raise ArgumentError(f"schedules[{j}] is empty; every job needs at least one candidate schedule")
        row = []
        for s, sch in enumerate(S):
            a = np.asarray(sch)
            if a.ndim != 3 or a.shape[:2] != (inst.n_machines, inst.n_types):
                raise ArgumentError(f"schedules[{j}][{s}] has shape {a.shape}; expected "
                                    f"({inst.n_machines}, {inst.n_types}, T)")
            if np.any(a < 0):
                raise ArgumentError(f"schedules[{j}][{s}] has negative GPU counts")
            row.append(a.astype(np.int64))
        out.append(row)
    T = {a.shape[2] for row in out for a in row}
    if len(T) != 1:
        raise ArgumentError(f"schedules have different horizons {sorted(T)}; expected one T")
    return out


@takes_instance(HadarInstance)
def build_p2(inst: HadarInstance, schedules: Sequence[Sequence[np.ndarray]], *, relax: bool = False,
             require_all: bool = False, scaled: bool = False) -> pyo.ConcreteModel:
    """P2 (2)-(2c): choose at most one schedule per job from ``schedules[j]`` (arrays H x R x T).

    Parameters
    ----------
    relax : bool
        Replace (2c) ``y in {0, 1}`` by ``0 <= y <= 1`` (the LP whose dual is P3).
    require_all : bool
        (2b) with equality: every job must be admitted, as P1's (1a) demands.  The paper's
        P2 uses ``<= 1`` (a job may be rejected), which makes P2 a relaxation of P1.
    scaled : bool
        Divide the utilities by the largest one (``utility_scale``, computed from ``log U``) so
        that the objective's coefficients are in ``[0, 1]`` at every magnitude.
    """
    check_flag(relax, "relax")
    check_flag(require_all, "require_all")
    check_flag(scaled, "scaled")
    S = _check_schedules(inst, schedules)
    T = S[0][0].shape[2]
    m = pyo.ConcreteModel(name="hadar_p2")
    m.JOBS = pyo.RangeSet(0, inst.n_jobs - 1)
    m.MACHINES = pyo.RangeSet(0, inst.n_machines - 1)
    m.TYPES = pyo.RangeSet(0, inst.n_types - 1)
    m.SLOTS = pyo.RangeSet(0, T - 1)
    m.PAIRS = pyo.Set(initialize=[(j, s) for j in range(inst.n_jobs) for s in range(len(S[j]))], dimen=2,
                      doc="(j, s): schedule s in S_j")
    util, log_scale = _scaled({(j, s): schedule_log_utility(inst, j, S[j][s]) for (j, s) in m.PAIRS}, scaled)
    m.log_utility_scale = pyo.Param(initialize=log_scale, doc="log of the utilities' divisor (0 unscaled)")
    m.U = pyo.Param(m.PAIRS, initialize=util, doc="U_j(f_js - a_j) (divided by exp(log_utility_scale))")
    m.y = pyo.Var(m.PAIRS, domain=pyo.UnitInterval if relax else pyo.Binary,
                  doc="(2c) y_js: job j admitted with schedule s" + (" (LP relaxation)" if relax else ""))
    m.total_utility = pyo.Objective(expr=sum(m.U[p] * m.y[p] for p in m.PAIRS), sense=pyo.maximize,
                                    doc="(2) total utility of the admitted schedules")
    uses: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}
    for (j, s) in m.PAIRS:
        for h, r, t in zip(*np.nonzero(S[j][s]), strict=True):
            uses.setdefault((int(h), int(r), int(t)), []).append((j, s, int(S[j][s][h, r, t])))

    def cap(m, h, r, t):
        terms = uses.get((h, r, t))
        if not terms:
            return pyo.Constraint.Skip
        return sum(n * m.y[j, s] for j, s, n in terms) <= int(inst.capacity[h, r])

    m.capacity = pyo.Constraint(m.MACHINES, m.TYPES, m.SLOTS, rule=cap,
                                doc="(2a) schedules' GPUs of type r on machine h in slot t within c^r_h")

    def one(m, j):
        e = sum(m.y[j, s] for s in range(len(S[j])))
        return e == 1 if require_all else e <= 1

    m.one_schedule = pyo.Constraint(m.JOBS, rule=one, doc="(2b) at most one schedule per job")
    return m


@takes_instance(HadarInstance)
def build_p3(inst: HadarInstance, schedules: Sequence[Sequence[np.ndarray]], *,
             scaled: bool = False) -> pyo.ConcreteModel:
    """P3 (3)-(3a): the LP dual of P2's relaxation, prices ``k[h,r,t]`` and payoffs ``mu[j]``.

    ``min sum_j mu_j + sum_{h,r,t} k^r_h(t) c^r_h`` s.t. (3a)
    ``mu_j >= U_js - sum_{t,h,r} k^r_h(t) w^r_jh(t)`` for every schedule, ``k, mu >= 0``.
    With ``scaled``, the utilities (and so the prices, payoffs and objective) are divided by
    ``exp(log_utility_scale)``, the largest utility.
    """
    check_flag(scaled, "scaled")
    S = _check_schedules(inst, schedules)
    T = S[0][0].shape[2]
    m = pyo.ConcreteModel(name="hadar_p3")
    m.JOBS = pyo.RangeSet(0, inst.n_jobs - 1)
    m.MACHINES = pyo.RangeSet(0, inst.n_machines - 1)
    m.TYPES = pyo.RangeSet(0, inst.n_types - 1)
    m.SLOTS = pyo.RangeSet(0, T - 1)
    m.PAIRS = pyo.Set(initialize=[(j, s) for j in range(inst.n_jobs) for s in range(len(S[j]))], dimen=2)
    util, log_scale = _scaled({(j, s): schedule_log_utility(inst, j, S[j][s]) for (j, s) in m.PAIRS}, scaled)
    m.log_utility_scale = pyo.Param(initialize=log_scale, doc="log of the utilities' divisor (0 unscaled)")
    m.U = pyo.Param(m.PAIRS, initialize=util, doc="U_js (divided by exp(log_utility_scale))")
    m.mu = pyo.Var(m.JOBS, domain=pyo.NonNegativeReals, doc="(3b) mu_j: payoff of job j, dual of (2b)")
    m.k = pyo.Var(m.MACHINES, m.TYPES, m.SLOTS, domain=pyo.NonNegativeReals,
                  doc="(3b) k^r_h(t): unit price of type r on machine h in slot t, dual of (2a)")
    m.dual_objective = pyo.Objective(
        expr=sum(m.mu[j] for j in m.JOBS)
        + sum(int(inst.capacity[h, r]) * m.k[h, r, t] for h in m.MACHINES for r in m.TYPES for t in m.SLOTS),
        sense=pyo.minimize, doc="(3) total payoff plus the cost of all capacity")

    def payoff(m, j, s):
        w = S[j][s]
        cost = sum(int(w[h, r, t]) * m.k[h, r, t] for h, r, t in zip(*np.nonzero(w), strict=True))
        return m.mu[j] >= m.U[j, s] - cost

    m.payoff = pyo.Constraint(m.PAIRS, rule=payoff, doc="(3a) mu_j >= U_js minus the schedule's resource cost")
    return m
