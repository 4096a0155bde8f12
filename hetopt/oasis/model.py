"""Pyomo models of Bao et al. 2018: the offline problem, the schedule ILP, its LP dual, the oracle problem.

The offline problem (1)-(13), the schedule ILP (14)-(18), its LP dual (19)-(20), and the
oracle problem (27).

Every builder is a pure function of the instance (and of the schedules or prices); sets are
UPPERCASE, variables carry the paper's names (x, y, z, mu, p, q), and every constraint cites
its equation in ``doc``.  Slots are 1-based; jobs and servers are 0-based.

Linearization of (1) and (8) (exact): binary completion indicators ``u[i, t]`` for
``t >= a_i`` with ``sum_t u[i, t] = x_i`` (8a), no worker after the completion slot
``sum_h y_ih(t) <= N_i sum_{s >= t} u[i, s]`` (8b) and at least one worker in it
``sum_h y_ih(t) >= u[i, t]`` (8c).  Then t_hat_i = sum_t t u[i, t] is exactly the last slot
with a worker, and x_i f_i(t_hat_i - a_i) = sum_t f_i(t - a_i) u[i, t] is linear for any f_i.

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Sections III-C, IV-A, IV-C.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pyomo.environ as pyo

from ..errors import ArgumentError
from ..inputs import check_flag, takes_instance
from ..inputs import check_size as check_int
from .capacity import ps_ratio, slot_capacity, standalone, var_bounds, work_slots
from .instance import OasisInstance, check_size
from .prices import Prices, Usage
from .schedule import JobSchedule

__all__ = ["build_offline", "offline_schedules", "build_primal", "build_dual", "build_oracle", "oracle_schedule",
           "primal_values"]


@takes_instance(OasisInstance)
def build_offline(inst: OasisInstance) -> pyo.ConcreteModel:
    """Problem (1)-(13) as an exact MILP (see the module docstring for (8)).

    Size: I (H + K) T integer variables y, z; I binaries x; sum_i (T - a_i + 1) binaries u.

    Rows are normalized, with the same integer solutions, so that a solver's absolute
    tolerances mean the same at every magnitude: (2) asks for ``ceil(W_i - 1e-6)`` whole
    worker-slots; each capacity row (4)-(5) is divided by its capacity (a job that cannot put a
    unit on the server has no term); (6) reads ``rho_i sum_h y <= sum_k z`` with
    ``rho_i = max(b_i / B_i, 1 / N_i)`` (:func:`~hetopt.oasis.capacity.ps_ratio`).  A completion
    slot before the job's earliest on the empty cluster (:func:`~hetopt.oasis.capacity.standalone`)
    has ``u = 0`` and no objective term.
    """
    I, H, K, R, T = inst.n_jobs, inst.n_worker_servers, inst.n_ps_servers, inst.n_resources, inst.horizon
    check_size(inst, I * (H + K) * T, "the offline MILP")
    m = pyo.ConcreteModel(name="oasis_offline")
    a = [int(x) for x in inst.arrival]
    m.JOBS = pyo.RangeSet(0, I - 1, doc="jobs i")
    m.WSERVERS = pyo.RangeSet(0, H - 1, doc="servers h hosting workers")
    m.PSERVERS = pyo.RangeSet(0, K - 1, doc="servers k hosting parameter servers")
    m.RESOURCES = pyo.RangeSet(0, R - 1, doc="resource types r")
    m.SLOTS = pyo.RangeSet(1, T, doc="time slots t")
    m.JOB_SLOTS = pyo.Set(dimen=2, initialize=[(i, t) for i in range(I) for t in range(a[i], T + 1)],
                          doc="(i, t) with t >= a_i: candidate completion slots")
    ymax, zmax = var_bounds(inst)
    m.x = pyo.Var(m.JOBS, domain=pyo.Binary, doc="(11) x_i: job i admitted")
    m.y = pyo.Var(m.JOBS, m.WSERVERS, m.SLOTS, domain=pyo.NonNegativeIntegers,
                  bounds=lambda _, i, h, t: (0, int(ymax[i, h])), doc="(12) y_ih(t): workers of job i on server h in slot t")
    m.z = pyo.Var(m.JOBS, m.PSERVERS, m.SLOTS, domain=pyo.NonNegativeIntegers,
                  bounds=lambda _, i, k, t: (0, int(zmax[i, k])), doc="(13) z_ik(t): parameter servers of job i on server k in t")
    alone = standalone(inst)
    first = [int(d) if d >= 0 else T + 1 for d in alone.earliest]  # earliest offset (T + 1: never completes)
    m.u = pyo.Var(m.JOB_SLOTS, domain=pyo.Binary, bounds=lambda _, i, t: (0, 1 if t - a[i] >= first[i] else 0),
                  doc="(8) u_i(t) = 1 iff t_hat_i = t (completion indicator)")
    f = {i: inst.utility_table(i) for i in range(I)}
    m.utility = pyo.Objective(expr=sum(float(f[i][t - a[i]]) * m.u[i, t] for (i, t) in m.JOB_SLOTS
                                       if t - a[i] >= first[i]),
                              sense=pyo.maximize, doc="(1) total utility sum_i x_i f_i(t_hat_i - a_i)")
    work = work_slots(inst)
    nw = {(i, t): sum(m.y[i, h, t] for h in m.WSERVERS) for i in m.JOBS for t in m.SLOTS}
    nz = {(i, t): sum(m.z[i, k, t] for k in m.PSERVERS) for i in m.JOBS for t in m.SLOTS}
    m.work_done = pyo.Constraint(m.JOBS, rule=lambda _, i: sum(nw[i, t] for t in m.SLOTS) >= float(work[i]) * m.x[i],
                                 doc="(2) enough worker-slots for E_i epochs of N_i chunks")
    m.max_workers = pyo.Constraint(m.JOB_SLOTS, rule=lambda _, i, t: nw[i, t] <= int(inst.chunks[i]) * m.x[i],
                                   doc="(3) at most N_i concurrent workers, zero if not admitted")
    wd, sd = inst.worker_demand, inst.ps_demand

    def cap_row(dem, cap, vmax, var, s, r, t):
        """sum_i (d_i^r / c_s^r) v_is(t) <= 1: the capacity row divided by its capacity (by 1 when it is 0)."""
        c = float(cap[s, r])
        scale = c if c > 0 else 1.0
        users = [i for i in range(I) if dem[i, r] > 0 and vmax[i, s] > 0]
        if not users:
            return pyo.Constraint.Skip
        return sum(float(dem[i, r] / scale) * var[i, s, t] for i in users) <= c / scale

    def cap_w(_, h, r, t):
        return cap_row(wd, inst.worker_capacity, ymax, m.y, h, r, t)

    def cap_p(_, k, r, t):
        return cap_row(sd, inst.ps_capacity, zmax, m.z, k, r, t)

    m.worker_capacity = pyo.Constraint(m.WSERVERS, m.RESOURCES, m.SLOTS, rule=cap_w, doc="(4) capacity of worker servers")
    m.ps_capacity = pyo.Constraint(m.PSERVERS, m.RESOURCES, m.SLOTS, rule=cap_p, doc="(5) capacity of PS servers")
    rho = ps_ratio(inst)
    m.ps_bandwidth = pyo.Constraint(m.JOBS, m.SLOTS, rule=lambda _, i, t: float(rho[i]) * nw[i, t] <= nz[i, t],
                                    doc="(6) PS bandwidth covers worker bandwidth (b_i / B_i, at least 1 / N_i: exact over integers)")
    m.ps_count = pyo.Constraint(m.JOBS, m.SLOTS, rule=lambda _, i, t: nz[i, t] <= nw[i, t],
                                doc="(7) no more parameter servers than workers")
    m.completion_once = pyo.Constraint(m.JOBS, rule=lambda _, i: sum(m.u[i, t] for t in range(a[i], T + 1)) == m.x[i],
                                       doc="(8a) an admitted job has exactly one completion slot")
    m.no_work_after_completion = pyo.Constraint(
        m.JOB_SLOTS, rule=lambda _, i, t: nw[i, t] <= int(inst.chunks[i]) * sum(m.u[i, s] for s in range(t, T + 1)),
        doc="(8b) no worker after the completion slot t_hat_i")
    m.work_at_completion = pyo.Constraint(m.JOB_SLOTS, rule=lambda _, i, t: nw[i, t] >= m.u[i, t],
                                          doc="(8c) at least one worker in the completion slot t_hat_i")
    m.no_workers_before_arrival = pyo.Constraint(
        [(i, h, t) for i in range(I) for h in range(H) for t in range(1, a[i])],
        rule=lambda _, i, h, t: m.y[i, h, t] == 0, doc="(9) no worker before arrival")
    m.no_ps_before_arrival = pyo.Constraint(
        [(i, k, t) for i in range(I) for k in range(K) for t in range(1, a[i])],
        rule=lambda _, i, k, t: m.z[i, k, t] == 0, doc="(10) no parameter server before arrival")
    return m


def offline_schedules(inst: OasisInstance, m: pyo.ConcreteModel) -> dict[int, JobSchedule]:
    """The schedules of the admitted jobs in a solved :func:`build_offline` model."""
    I, H, K, T = inst.n_jobs, inst.n_worker_servers, inst.n_ps_servers, inst.horizon
    out = {}
    for i in range(I):
        if round(pyo.value(m.x[i])) != 1:
            continue
        y = np.array([[round(pyo.value(m.y[i, h, t])) for t in range(1, T + 1)] for h in range(H)], dtype=np.int64)
        z = np.array([[round(pyo.value(m.z[i, k, t])) for t in range(1, T + 1)] for k in range(K)], dtype=np.int64)
        out[i] = JobSchedule(i, y, z)
    return out


def _columns(schedules: Mapping[int, Sequence[JobSchedule]]) -> list[tuple[int, int, JobSchedule]]:
    if not isinstance(schedules, Mapping) or not all(
            isinstance(v, Sequence) and all(isinstance(s, JobSchedule) for s in v) for v in schedules.values()):
        raise ArgumentError(f"schedules is {schedules!r:.60}; expected a mapping job -> sequence of JobSchedule")
    cols = []
    for i in sorted(schedules):
        for l, s in enumerate(schedules[i]):
            if s.job != i:
                raise ArgumentError(f"schedules[{i}][{l}] belongs to job {s.job}")
            if s.completion == 0:
                raise ArgumentError(f"schedules[{i}][{l}] is empty; a schedule must train its job")
            cols.append((i, l, s))
    return cols


def _usage_terms(inst: OasisInstance, cols: list[tuple[int, int, JobSchedule]]):
    """Coefficients w_i^r y_ih^l(t) per (t, h, r) and s_i^r z_ik^l(t) per (t, k, r)."""
    uw: dict[tuple[int, int, int], list[tuple[int, int, float]]] = {}
    up: dict[tuple[int, int, int], list[tuple[int, int, float]]] = {}
    for i, l, s in cols:
        for h, t0 in zip(*np.nonzero(s.workers), strict=True):
            for r in np.nonzero(inst.worker_demand[i])[0]:
                uw.setdefault((int(t0) + 1, int(h), int(r)), []).append((i, l, float(inst.worker_demand[i, r] * s.workers[h, t0])))
        for k, t0 in zip(*np.nonzero(s.ps), strict=True):
            for r in np.nonzero(inst.ps_demand[i])[0]:
                up.setdefault((int(t0) + 1, int(k), int(r)), []).append((i, l, float(inst.ps_demand[i, r] * s.ps[k, t0])))
    return uw, up


@takes_instance(OasisInstance)
def build_primal(inst: OasisInstance, schedules: Mapping[int, Sequence[JobSchedule]], *, relax: bool = False) -> pyo.ConcreteModel:
    """Problem (14)-(18) over an explicit set of schedules per job (``schedules[i]`` = L_i).

    ``relax=True`` replaces (18) by x_il >= 0 (the LP relaxation whose dual is (19)-(20)).
    Capacity rows (15)-(16) are built for the (t, server, r) that some schedule uses.
    """
    relax = check_flag(relax, "relax")
    cols = _columns(schedules)
    uw, up = _usage_terms(inst, cols)
    m = pyo.ConcreteModel(name="oasis_primal")
    m.COLUMNS = pyo.Set(dimen=2, initialize=[(i, l) for i, l, _ in cols], doc="(i, l): schedule l of job i")
    m.JOBS = pyo.Set(initialize=sorted({i for i, _, _ in cols}), doc="jobs with at least one schedule")
    m.WROWS = pyo.Set(dimen=3, initialize=sorted(uw), doc="(t, h, r) used by some schedule")
    m.PROWS = pyo.Set(dimen=3, initialize=sorted(up), doc="(t, k, r) used by some schedule")
    m.x = pyo.Var(m.COLUMNS, domain=pyo.NonNegativeReals if relax else pyo.Binary,
                  doc="(18) x_il: job i runs schedule l" + (" (relaxed to x_il >= 0)" if relax else ""))
    util = {(i, l): inst.utility_of(i, s.completion) for i, l, s in cols}
    m.utility = pyo.Objective(expr=sum(util[c] * m.x[c] for c in m.COLUMNS), sense=pyo.maximize,
                              doc="(14) total utility of the chosen schedules")
    m.worker_capacity = pyo.Constraint(m.WROWS, rule=lambda _, t, h, r: sum(c * m.x[i, l] for i, l, c in uw[t, h, r])
                                       <= float(inst.worker_capacity[h, r]), doc="(15) capacity of worker servers")
    m.ps_capacity = pyo.Constraint(m.PROWS, rule=lambda _, t, k, r: sum(c * m.x[i, l] for i, l, c in up[t, k, r])
                                   <= float(inst.ps_capacity[k, r]), doc="(16) capacity of PS servers")
    m.one_schedule = pyo.Constraint(m.JOBS, rule=lambda _, i: sum(m.x[i, l] for (j, l) in m.COLUMNS if j == i) <= 1,
                                    doc="(17) at most one schedule per job")
    return m


@takes_instance(OasisInstance)
def build_dual(inst: OasisInstance, schedules: Mapping[int, Sequence[JobSchedule]]) -> pyo.ConcreteModel:
    """The LP dual (19)-(20) of ``build_primal(inst, schedules, relax=True)``.

    Prices p, q exist for the (t, server, r) rows of the primal; a price on a row that no
    schedule uses appears only in the objective with coefficient c >= 0 and is 0 at an
    optimum, so leaving it out does not change the optimum.
    """
    cols = _columns(schedules)
    uw, up = _usage_terms(inst, cols)
    m = pyo.ConcreteModel(name="oasis_dual")
    m.COLUMNS = pyo.Set(dimen=2, initialize=[(i, l) for i, l, _ in cols], doc="(i, l): schedule l of job i")
    m.JOBS = pyo.Set(initialize=sorted({i for i, _, _ in cols}), doc="jobs with at least one schedule")
    m.WROWS = pyo.Set(dimen=3, initialize=sorted(uw), doc="(t, h, r) used by some schedule")
    m.PROWS = pyo.Set(dimen=3, initialize=sorted(up), doc="(t, k, r) used by some schedule")
    m.p = pyo.Var(m.WROWS, domain=pyo.NonNegativeReals, doc="(19) p_h^r(t) >= 0: price of resource r on worker server h in t")
    m.q = pyo.Var(m.PROWS, domain=pyo.NonNegativeReals, doc="(19) q_k^r(t) >= 0: price of resource r on PS server k in t")
    m.mu = pyo.Var(m.JOBS, domain=pyo.NonNegativeReals, doc="(19) mu_i >= 0: payoff of job i")
    m.cost = pyo.Objective(
        expr=sum(m.mu[i] for i in m.JOBS) + sum(float(inst.worker_capacity[h, r]) * m.p[t, h, r] for (t, h, r) in m.WROWS)
        + sum(float(inst.ps_capacity[k, r]) * m.q[t, k, r] for (t, k, r) in m.PROWS),
        sense=pyo.minimize, doc="(19) payoffs plus priced capacities")
    rows_of: dict[tuple[int, int], list] = {}
    for key, terms in uw.items():
        for i, l, c in terms:
            rows_of.setdefault((i, l), []).append((m.p[key], c))
    for key, terms in up.items():
        for i, l, c in terms:
            rows_of.setdefault((i, l), []).append((m.q[key], c))
    util = {(i, l): inst.utility_of(i, s.completion) for i, l, s in cols}
    m.payoff = pyo.Constraint(m.COLUMNS, rule=lambda _, i, l: m.mu[i] >= util[i, l] - sum(c * v for v, c in rows_of.get((i, l), [])),
                              doc="(20) mu_i covers utility minus priced resources of every schedule")
    return m


def primal_values(m: pyo.ConcreteModel) -> dict[tuple[int, int], float]:
    """x_il of a solved primal model."""
    return {c: float(pyo.value(m.x[c])) for c in m.COLUMNS}


@takes_instance(OasisInstance)
def build_oracle(inst: OasisInstance, job: int, prices: Prices, used: Usage) -> pyo.ConcreteModel:
    """Problem (27) for job ``job``: best payoff schedule given prices and earlier allocations.

    Variables exist for slots t >= a_i only, which is (9)-(10); completion as in
    :func:`build_offline` with x_i = 1.
    """
    i = check_int(job, "job", minimum=0, maximum=inst.n_jobs - 1)
    if not isinstance(prices, Prices) or not isinstance(used, Usage):
        bad, want = ("prices", "Prices (p, q)") if not isinstance(prices, Prices) else ("used", "Usage (g, v)")
        raise ArgumentError(f"{bad} is {(prices if bad == 'prices' else used)!r:.60}; expected hetopt.oasis.{want}")
    H, K, R, T = inst.n_worker_servers, inst.n_ps_servers, inst.n_resources, inst.horizon
    a = int(inst.arrival[i])
    w, s = inst.worker_demand[i], inst.ps_demand[i]
    m = pyo.ConcreteModel(name=f"oasis_oracle_job{i}")
    m.WSERVERS = pyo.RangeSet(0, H - 1, doc="servers h hosting workers")
    m.PSERVERS = pyo.RangeSet(0, K - 1, doc="servers k hosting parameter servers")
    m.SLOTS = pyo.RangeSet(a, T, doc="slots t in [a_i, T]")
    ymax = np.minimum(slot_capacity(inst.worker_capacity, w), inst.chunks[i])
    zmax = np.minimum(slot_capacity(inst.ps_capacity, s), inst.chunks[i])
    m.y = pyo.Var(m.WSERVERS, m.SLOTS, domain=pyo.NonNegativeIntegers, bounds=lambda _, h, t: (0, int(ymax[h])),
                  doc="(12) y_ih(t)")
    m.z = pyo.Var(m.PSERVERS, m.SLOTS, domain=pyo.NonNegativeIntegers, bounds=lambda _, k, t: (0, int(zmax[k])),
                  doc="(13) z_ik(t)")
    first = int(standalone(inst).earliest[i])  # no schedule completes earlier, even on the empty cluster
    first = T + 1 if first < 0 else first
    m.u = pyo.Var(m.SLOTS, domain=pyo.Binary, bounds=lambda _, t: (0, 1 if t - a >= first else 0),
                  doc="(8) u(t) = 1 iff t_hat_i = t")
    f = inst.utility_table(i)
    cw = np.einsum("thr,r->th", prices.p, w)
    cz = np.einsum("tkr,r->tk", prices.q, s)
    m.payoff = pyo.Objective(
        expr=sum(float(f[t - a]) * m.u[t] for t in m.SLOTS if t - a >= first)
        - sum(float(cw[t - 1, h]) * m.y[h, t] for h in m.WSERVERS for t in m.SLOTS)
        - sum(float(cz[t - 1, k]) * m.z[k, t] for k in m.PSERVERS for t in m.SLOTS),
        sense=pyo.maximize, doc="(27) utility minus priced resources")
    nw = {t: sum(m.y[h, t] for h in m.WSERVERS) for t in m.SLOTS}
    nz = {t: sum(m.z[k, t] for k in m.PSERVERS) for t in m.SLOTS}
    m.WRES = pyo.Set(initialize=[r for r in range(R) if w[r] > 0], doc="resources a worker uses")
    m.PRES = pyo.Set(initialize=[r for r in range(R) if s[r] > 0], doc="resources a parameter server uses")

    def residual(dem: float, left: float, var):
        """Dem var <= left, divided by max(left, dem) > 0 (coefficients <= 1 at every magnitude)."""
        scale = max(float(left), float(dem))
        return float(dem / scale) * var <= float(left / scale)

    m.residual_worker_capacity = pyo.Constraint(
        m.WSERVERS, m.WRES, m.SLOTS,
        rule=lambda _, h, r, t: residual(w[r], inst.worker_capacity[h, r] - used.g[t - 1, h, r], m.y[h, t]),
        doc="(27) g_h^r(t) + w_i^r y_ih(t) <= c_h^r (divided by max(c - g, w))")
    m.residual_ps_capacity = pyo.Constraint(
        m.PSERVERS, m.PRES, m.SLOTS,
        rule=lambda _, k, r, t: residual(s[r], inst.ps_capacity[k, r] - used.v[t - 1, k, r], m.z[k, t]),
        doc="(27) v_k^r(t) + s_i^r z_ik(t) <= c_k^r (divided by max(c - v, s))")
    m.work_done = pyo.Constraint(expr=sum(nw[t] for t in m.SLOTS) >= float(work_slots(inst)[i]),
                                 doc="(2) enough worker-slots (x_i = 1; whole worker-slots)")
    m.max_workers = pyo.Constraint(m.SLOTS, rule=lambda _, t: nw[t] <= int(inst.chunks[i]), doc="(3) at most N_i workers")
    rho = float(ps_ratio(inst)[i])
    m.ps_bandwidth = pyo.Constraint(m.SLOTS, rule=lambda _, t: rho * nw[t] <= nz[t],
                                    doc="(6) PS bandwidth (b_i / B_i, at least 1 / N_i: exact over integers)")
    m.ps_count = pyo.Constraint(m.SLOTS, rule=lambda _, t: nz[t] <= nw[t], doc="(7) PS count")
    m.completion_once = pyo.Constraint(expr=sum(m.u[t] for t in m.SLOTS) == 1, doc="(8a) one completion slot")
    m.no_work_after_completion = pyo.Constraint(
        m.SLOTS, rule=lambda _, t: nw[t] <= int(inst.chunks[i]) * sum(m.u[s_] for s_ in range(t, T + 1)),
        doc="(8b) no worker after t_hat_i")
    m.work_at_completion = pyo.Constraint(m.SLOTS, rule=lambda _, t: nw[t] >= m.u[t], doc="(8c) a worker in t_hat_i")
    return m


def oracle_schedule(inst: OasisInstance, job: int, m: pyo.ConcreteModel) -> JobSchedule:
    """The schedule in a solved :func:`build_oracle` model."""
    H, K, T = inst.n_worker_servers, inst.n_ps_servers, inst.horizon
    y = np.zeros((H, T), dtype=np.int64)
    z = np.zeros((K, T), dtype=np.int64)
    for t in m.SLOTS:
        for h in m.WSERVERS:
            y[h, t - 1] = round(pyo.value(m.y[h, t]))
        for k in m.PSERVERS:
            z[k, t - 1] = round(pyo.value(m.z[k, t]))
    return JobSchedule(job, y, z)
