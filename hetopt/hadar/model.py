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
  of slots, whatever the iteration counts (up to 1e7 on the trace); ``p`` is an expression.

References
----------
A. Sultana, N. Pakka, F. Xu, X. Yuan, L. Chen, N.-F. Tzeng, "Resource Heterogeneity-Aware and
Utilization-Enhanced Scheduling for Deep Learning Clusters" (Hadar / HadarE), Section III.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyomo.environ as pyo

from ..errors import ArgumentError
from ..inputs import check_flag, takes_instance
from .instance import HadarInstance

__all__ = ["build_p1", "build_p2", "build_p3", "finish_utility", "schedule_utility"]


@takes_instance(HadarInstance)
def finish_utility(inst: HadarInstance, horizon: int | None = None) -> np.ndarray:
    """``U_j((t + 1 - a_j) L)``: utility of finishing at the end of slot t, a (J, T) array (0 before arrival)."""
    T = inst.horizon if horizon is None else horizon
    t = np.arange(T)[None, :]
    dur = (t + 1 - inst.arrival[:, None]) * inst.slot_length
    vals = inst.utility_of(np.where(dur > 0, dur, inst.slot_length))
    return np.where(dur > 0, vals, 0.0)


@takes_instance(HadarInstance)
def schedule_utility(inst: HadarInstance, j: int, schedule: np.ndarray) -> float:
    """``U_j(f_js - a_j)`` of one job's schedule (H x R x T) finishing at its last used slot."""
    used = np.flatnonzero(np.asarray(schedule).sum(axis=(0, 1)) > 0)
    if used.size == 0:
        raise ArgumentError(f"schedule of job {j} uses no slot")
    dur = np.full(inst.n_jobs, inst.slot_length)
    dur[j] = (used[-1] + 1 - inst.arrival[j]) * inst.slot_length
    return float(inst.utility_of(dur)[j])


@takes_instance(HadarInstance)
def build_p1(inst: HadarInstance) -> pyo.ConcreteModel:
    """P1 (1)-(1e) as an exact time-indexed MILP (size J*H*R*T integer variables).

    Returns
    -------
    pyomo.environ.ConcreteModel
        Variables ``w`` (GPUs), ``z`` (job runs), ``u`` (type used), ``q`` (share of a full
        slot; expression ``p``: iterations in the slot), ``d`` (finish slot); objective
        ``total_utility``.
    """
    J, H, R, T = inst.n_jobs, inst.n_machines, inst.n_types, inst.horizon
    L = inst.slot_length
    X, W, a, c = inst.throughput, inst.gpus, inst.arrival, inst.capacity
    U = finish_utility(inst)
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

    def w_bounds(_, j, h, r, t):
        ok = t >= a[j] and X[j, r] > 0
        return (0, int(min(c[h, r], W[j])) if ok else 0)

    m.w = pyo.Var(m.JOBS, m.MACHINES, m.TYPES, m.SLOTS, domain=pyo.NonNegativeIntegers, bounds=w_bounds,
                  doc="w^r_jh(t): type-r GPUs of machine h given to job j in slot t")
    m.z = pyo.Var(m.JOBS, m.SLOTS, domain=pyo.Binary, doc="job j runs in slot t (gang of (1e))")
    m.u = pyo.Var(m.JOBS, m.TYPES, m.SLOTS, domain=pyo.Binary, doc="job j uses type r in slot t (for (1b))")
    xmax = X.max(axis=1)
    full = L * W * xmax  # iterations of job j in a slot at its fastest type: job j's unit of work
    # Per-job units (scaling): q = p / full in [0, 1], so no coefficient carries an iteration count
    # (E_j N_j up to 1e7); p is kept as an expression in iterations.
    m.q = pyo.Var(m.JOBS, m.SLOTS, bounds=(0, 1), doc="x_j(t) sum_hr w^r_jh(t) L / (L W_j max_r X^r_j): share of a full slot")
    m.p = pyo.Expression(m.JOBS, m.SLOTS, rule=lambda _, j, t: float(full[j]) * m.q[j, t],
                         doc="x_j(t) sum_hr w^r_jh(t) L: iterations of job j in slot t")
    m.d = pyo.Var(m.JOBS, m.SLOTS, domain=pyo.Binary, doc="f_j = t (the finish slot of (1c))")

    m.total_utility = pyo.Objective(
        expr=sum(m.U[j, t] * m.d[j, t] for j in m.JOBS for t in m.SLOTS if t >= a[j]),
        sense=pyo.maximize, doc="(1) total utility sum_j U_j(f_j - a_j)")
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
    m.type_used = pyo.Constraint(m.JOBS, m.MACHINES, m.TYPES, m.SLOTS,
                                 rule=lambda m, j, h, r, t: m.w[j, h, r, t] <= m.W[j] * m.u[j, r, t],
                                 doc="(1b) a type with w^r_jh(t) > 0 counts as used")
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
    m.capacity = pyo.Constraint(m.MACHINES, m.TYPES, m.SLOTS,
                                rule=lambda m, h, r, t: sum(m.w[j, h, r, t] for j in m.JOBS) <= m.c[h, r],
                                doc="(1d) GPUs of type r on machine h within capacity")
    m.gang = pyo.Constraint(m.JOBS, m.SLOTS,
                            rule=lambda m, j, t: sum(m.w[j, h, r, t] for h in m.MACHINES for r in m.TYPES)
                            == m.W[j] * m.z[j, t],
                            doc="(1e) all-or-nothing: 0 or W_j GPUs in every slot")
    m.no_run_before_arrival = pyo.Constraint(
        m.JOBS, m.SLOTS, rule=lambda m, j, t: m.z[j, t] == 0 if t < a[j] else pyo.Constraint.Skip,
        doc="(1e) w^r_jh(t) = 0 for t < a_j")
    return m


def _check_schedules(inst: HadarInstance, schedules: Sequence[Sequence[np.ndarray]]) -> list[list[np.ndarray]]:
    """The candidate schedules as int64 arrays; :class:`ArgumentError` naming the one that is malformed."""
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
             require_all: bool = False) -> pyo.ConcreteModel:
    """P2 (2)-(2c): choose at most one schedule per job from ``schedules[j]`` (arrays H x R x T).

    Parameters
    ----------
    relax : bool
        Replace (2c) ``y in {0, 1}`` by ``0 <= y <= 1`` (the LP whose dual is P3).
    require_all : bool
        (2b) with equality: every job must be admitted, as P1's (1a) demands.  The paper's
        P2 uses ``<= 1`` (a job may be rejected), which makes P2 a relaxation of P1.
    """
    check_flag(relax, "relax")
    check_flag(require_all, "require_all")
    S = _check_schedules(inst, schedules)
    T = S[0][0].shape[2]
    m = pyo.ConcreteModel(name="hadar_p2")
    m.JOBS = pyo.RangeSet(0, inst.n_jobs - 1)
    m.MACHINES = pyo.RangeSet(0, inst.n_machines - 1)
    m.TYPES = pyo.RangeSet(0, inst.n_types - 1)
    m.SLOTS = pyo.RangeSet(0, T - 1)
    m.PAIRS = pyo.Set(initialize=[(j, s) for j in range(inst.n_jobs) for s in range(len(S[j]))], dimen=2,
                      doc="(j, s): schedule s in S_j")
    util = {(j, s): schedule_utility(inst, j, S[j][s]) for (j, s) in m.PAIRS}
    m.U = pyo.Param(m.PAIRS, initialize=util, doc="U_j(f_js - a_j)")
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
def build_p3(inst: HadarInstance, schedules: Sequence[Sequence[np.ndarray]]) -> pyo.ConcreteModel:
    """P3 (3)-(3a): the LP dual of P2's relaxation, prices ``k[h,r,t]`` and payoffs ``mu[j]``.

    ``min sum_j mu_j + sum_{h,r,t} k^r_h(t) c^r_h`` s.t. (3a)
    ``mu_j >= U_js - sum_{t,h,r} k^r_h(t) w^r_jh(t)`` for every schedule, ``k, mu >= 0``.
    """
    S = _check_schedules(inst, schedules)
    T = S[0][0].shape[2]
    m = pyo.ConcreteModel(name="hadar_p3")
    m.JOBS = pyo.RangeSet(0, inst.n_jobs - 1)
    m.MACHINES = pyo.RangeSet(0, inst.n_machines - 1)
    m.TYPES = pyo.RangeSet(0, inst.n_types - 1)
    m.SLOTS = pyo.RangeSet(0, T - 1)
    m.PAIRS = pyo.Set(initialize=[(j, s) for j in range(inst.n_jobs) for s in range(len(S[j]))], dimen=2)
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
        return m.mu[j] >= schedule_utility(inst, j, w) - cost

    m.payoff = pyo.Constraint(m.PAIRS, rule=payoff, doc="(3a) mu_j >= U_js minus the schedule's resource cost")
    return m
