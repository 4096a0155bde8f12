"""The exact optimum of the arena's round model on small workloads (a MILP solved by HiGHS).

The model (``models/arena.md``, *Exact optimum*): rounds of ``round_length`` seconds on a fixed grid
from the earliest arrival; a job may run from the first round that starts at or after its arrival
(Gavel's mechanism rounds arrivals up to the next round); in a round a job runs its whole gang of
``scale_factor`` GPUs on one type (the ``"single"`` rule) for the whole round, or until it completes,
at ``throughput[j, r]`` iterations/s, or it does not run; its completion is the start of its last
round plus the seconds it ran there.  No restart delay, no link contention.

The MILP (binaries: a job on a type in a round, a job unfinished at a round's start) and the rows that
tighten it are in the card; a job's rounds end at its latest useful round (from the best of three greedy
list schedules and the per-job lower bounds); the schedule returned is the MILP's assignment run as the
model runs it, checked by :func:`hetopt.arena.checker.check_schedule`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import sparse

from ..certify import Status, certify, relative_gap
from ..errors import ArgumentError, InstanceError, SizeLimitError, SolverError
from ..inputs import check_choice, check_flag, check_positive, check_size, takes_instance
from ..solvers import solve_milp
from .bounds import _weights
from .schedule import METRICS, RoundSchedule
from .workload import Workload

__all__ = ["solve_exact", "export_model", "DEFAULT_MAX_SIZE", "DEFAULT_ROUND_LENGTH", "RoundModel", "round_model", "greedy_rounds",
           "run_assignment"]

#: Gavel's round length (seconds).
DEFAULT_ROUND_LENGTH = 360.0
#: Default ``max_size``: job-round variables (one per job, type and round the job may run in).
DEFAULT_MAX_SIZE = 4000
#: A job is complete when what is left of it is at most this fraction of its steps.
DONE_RTOL = 1e-9
#: Tolerance on the round a job's arrival falls in (a fraction of a round).
ROUND_TOL = 1e-12


@dataclass(frozen=True)
class RoundModel:
    """The round model's data, in rounds from the earliest arrival.

    Attributes
    ----------
    origin, round_length : float
        Seconds: the start of round 0 (the earliest arrival) and a round's length.
    alpha : numpy.ndarray, shape (J,)
        Arrivals in rounds from ``origin``.
    first : numpy.ndarray of int, shape (J,)
        The first round each job may run in (``ceil(alpha)``).
    progress : numpy.ndarray, shape (J, R)
        ``pi_jr``: the fraction of job j one full round on type r does (0 where it may not run: no
        throughput, or fewer GPUs of the type than the gang).
    weight : numpy.ndarray, shape (J,)
        Weights normalized to sum 1.
    """

    origin: float
    round_length: float
    alpha: np.ndarray
    first: np.ndarray
    progress: np.ndarray
    weight: np.ndarray
    gang: np.ndarray
    capacity: np.ndarray


def round_model(w: Workload, round_length: float, weights: np.ndarray) -> RoundModel:
    """The data of the round model of ``w`` (single rule)."""
    L = float(round_length)
    origin = float(np.min(w.arrival))
    alpha = (np.asarray(w.arrival, dtype=float) - origin) / L
    first = np.ceil(alpha - ROUND_TOL).astype(np.int64)
    cap = np.asarray(w.capacity, dtype=np.int64)
    g = np.asarray(w.scale_factor, dtype=np.int64)
    T = np.asarray(w.throughput, dtype=float)
    ok = (T > 0) & (cap[None, :] >= g[:, None])
    stuck = np.flatnonzero(~ok.any(axis=1))
    if stuck.size:
        j = int(stuck[0])
        raise InstanceError(f"job {j}: its gang of {g[j]} GPUs fits on no single type it can run on (the exact model "
                            "runs a gang on one type: throughput / scale_factor / server_gpus)")
    prog = np.where(ok, T * L / np.asarray(w.steps, dtype=float)[:, None], 0.0)
    return RoundModel(origin, L, alpha, first, prog, weights / weights.sum(), g, cap)


def run_assignment(m: RoundModel, assign: dict[int, dict[int, int]]) -> tuple[np.ndarray, dict[int, dict[int, float]]]:
    """Run ``assign`` (round -> {job: type}) as the model runs it.

    A job runs its assigned rounds in order, a whole round while it is not done, then what is left
    (``left / pi`` of a round); later assignments of a finished job are dropped.  Returns the flow
    times in rounds (``inf`` for a job left unfinished) and, per round, ``{job: fraction of the round run}``.
    """
    J = m.alpha.size
    left = np.ones(J)
    flow = np.full(J, np.inf)
    ran: dict[int, dict[int, float]] = {}
    for k in sorted(assign):
        for j, r in sorted(assign[k].items()):
            if left[j] <= 0:
                continue
            pi = m.progress[j, r]
            used = 1.0 if left[j] > pi * (1 + DONE_RTOL) else min(left[j] / pi, 1.0)
            left[j] = left[j] - pi if used == 1.0 else 0.0
            if left[j] <= DONE_RTOL:
                left[j] = 0.0
                flow[j] = k + used - m.alpha[j]
            ran.setdefault(k, {})[j] = used
    return flow, ran


#: Priorities of :func:`greedy_rounds` (smallest first): weighted shortest remaining time, longest remaining
#: time, arrival.
PRIORITIES = ("wsrt", "lrt", "fifo")


def greedy_rounds(m: RoundModel, priority: str = "wsrt") -> dict[int, dict[int, int]]:
    """A list schedule: each round the jobs present, in ``priority`` order, take their fastest free type."""
    J, R = m.progress.shape
    left = np.ones(J)
    assign: dict[int, dict[int, int]] = {}
    k = 0
    while np.any(left > 0):
        free = m.capacity.copy()
        present = [j for j in range(J) if left[j] > 0 and m.first[j] <= k]
        rounds_left = left / m.progress.max(axis=1)
        rank = {"wsrt": rounds_left / m.weight, "lrt": -rounds_left, "fifo": m.alpha}[priority]
        present.sort(key=lambda j: (rank[j], j))
        for j in present:
            for r in np.argsort(-m.progress[j], kind="stable"):
                if m.progress[j, r] > 0 and free[r] >= m.gang[j]:
                    free[r] -= m.gang[j]
                    assign.setdefault(k, {})[j] = int(r)
                    left[j] = max(left[j] - m.progress[j, r], 0.0) if left[j] > m.progress[j, r] * (1 + DONE_RTOL) \
                        else 0.0
                    break
        k += 1
    return assign


def _objective(m: RoundModel, flow: np.ndarray, metric: str) -> float:
    """The objective in rounds: weighted mean flow time, or the makespan from the origin."""
    if metric == "average_jct":
        return float(m.weight @ flow)
    return float(np.max(flow + m.alpha))


def _windows(m: RoundModel, metric: str, incumbent: float) -> np.ndarray:
    """The last round each job may run in, in some optimal schedule (at most one past the incumbent's reach)."""
    best = m.progress.max(axis=1)
    low = m.first - m.alpha + 1.0 / best  # flow-time lower bounds (rounds)
    slack = 1e-9 * max(1.0, abs(incumbent))
    if metric == "makespan":
        reach = np.full(m.alpha.size, incumbent + slack)
    else:
        others = float(m.weight @ low) - m.weight * low
        reach = m.alpha + (incumbent + slack - others) / m.weight
    return np.floor(reach).astype(np.int64)


class _Columns:
    """Column indices of the MILP: x and u per (job, type, round), y per (job, round), then F (or M)."""

    def __init__(self, m: RoundModel, last: np.ndarray, metric: str) -> None:
        J, R = m.progress.shape
        trip = [(j, r, k) for j in range(J) for r in range(R) if m.progress[j, r] > 0
                for k in range(int(m.first[j]), int(last[j]) + 1)]
        self.xjrk = np.array(trip, dtype=np.int64).reshape(-1, 3)
        n = self.xjrk.shape[0]
        self.x = np.arange(n)
        self.u = n + np.arange(n)
        ypairs = [(j, k) for j in range(J) for k in range(int(m.first[j]) + 1, int(last[j]) + 1)]
        self.yjk = np.array(ypairs, dtype=np.int64).reshape(-1, 2)
        self.y = 2 * n + np.arange(self.yjk.shape[0])
        base = 2 * n + self.yjk.shape[0]
        self.f = base + (np.arange(J) if metric == "average_jct" else np.zeros(J, dtype=np.int64))
        self.n = base + (J if metric == "average_jct" else 1)


def _milp_rows(m: RoundModel, cols: _Columns, metric: str) -> tuple[sparse.csr_matrix, np.ndarray]:
    """``A x <= b`` of the MILP (every row written as ``<=``)."""
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    rhs: list[np.ndarray] = []
    count = 0

    def add(r: np.ndarray, c: np.ndarray, v: np.ndarray, b: np.ndarray) -> None:
        nonlocal count
        parts.append((np.asarray(r, dtype=np.int64) + count, np.asarray(c, dtype=np.int64), np.asarray(v, dtype=float)))
        rhs.append(np.asarray(b, dtype=float))
        count += len(b)

    j, r, k = cols.xjrk[:, 0], cols.xjrk[:, 1], cols.xjrk[:, 2]
    n, J = j.size, m.alpha.size
    pi = m.progress[j, r]
    ones = np.ones(n)
    ycol = np.full((J, int(k.max(initial=0)) + 2), -1, dtype=np.int64)  # y column of (job, round), -1: none
    ycol[cols.yjk[:, 0], cols.yjk[:, 1]] = cols.y
    add(j, cols.u, -pi, -np.ones(J))  # work: sum pi u >= 1
    add(np.tile(np.arange(n), 2), np.concatenate([cols.u, cols.x]), np.concatenate([ones, -ones]),
        np.zeros(n))  # u <= x
    _, first, inv = np.unique(np.stack([r, k], 1), axis=0, return_index=True, return_inverse=True)
    add(inv.reshape(-1), cols.x, m.gang[j].astype(float), m.capacity[r[first]].astype(float))  # capacity
    # one type per round, and only while unfinished: sum_r x_jrk <= y_jk (<= 1 in the first round)
    _, first, inv = np.unique(np.stack([j, k], 1), axis=0, return_index=True, return_inverse=True)
    inv = inv.reshape(-1)
    yk = ycol[j[first], k[first]]
    has = yk >= 0
    add(np.concatenate([inv, np.flatnonzero(has)]), np.concatenate([cols.x, yk[has]]),
        np.concatenate([ones, -np.ones(int(has.sum()))]), np.where(has, 0.0, 1.0))
    coef = k - (m.alpha[j] if metric == "average_jct" else 0.0)
    add(np.tile(np.arange(n), 3), np.concatenate([cols.x, cols.u, cols.f[j]]), np.concatenate([coef, ones, -ones]),
        np.zeros(n))  # completion: (k - alpha) x + u <= F (M >= k x + u)
    # a round after which the job is unfinished is run whole: x - u + y_{k+1} <= 1
    nxt = ycol[j, k + 1]
    e = np.flatnonzero(nxt >= 0)
    add(np.tile(np.arange(e.size), 3), np.concatenate([cols.x[e], cols.u[e], nxt[e]]),
        np.concatenate([np.ones(e.size), -np.ones(e.size), np.ones(e.size)]), np.ones(e.size))
    # a finished job stays finished: y_{j,k+1} <= y_jk
    after = ycol[cols.yjk[:, 0], cols.yjk[:, 1] + 1]
    e = np.flatnonzero(after >= 0)
    add(np.tile(np.arange(e.size), 2), np.concatenate([after[e], cols.y[e]]),
        np.concatenate([np.ones(e.size), -np.ones(e.size)]), np.zeros(e.size))
    # unfinished at the start of round k unless done before: -y_jk - sum_{k' < k} pi u <= -1
    yj, yround = cols.yjk[:, 0], cols.yjk[:, 1]
    ny = yj.size
    pairs = [(i, e) for i in range(ny) for e in np.flatnonzero((j == yj[i]) & (k < yround[i]))]
    pr = np.array([p for p, _ in pairs], dtype=np.int64)
    pe = np.array([q for _, q in pairs], dtype=np.int64)
    add(np.concatenate([np.arange(ny), pr]), np.concatenate([cols.y, cols.u[pe]]),
        np.concatenate([-np.ones(ny), -pi[pe]]), -np.ones(ny))
    # F_j >= first_j - alpha_j + sum_k y_jk + 1 + sum (u - x)   and   F_j >= first_j - alpha_j + sum_k y_jk
    shift = m.first - (m.alpha if metric == "average_jct" else 0.0)
    add(np.concatenate([yj, j, j, np.arange(J)]), np.concatenate([cols.y, cols.u, cols.x, cols.f]),
        np.concatenate([np.ones(ny), ones, -ones, -np.ones(J)]), -shift - 1.0)
    add(np.concatenate([yj, np.arange(J)]), np.concatenate([cols.y, cols.f]),
        np.concatenate([np.ones(ny), -np.ones(J)]), -shift)
    A = sparse.csr_matrix((np.concatenate([v for _, _, v in parts]),
                           (np.concatenate([a for a, _, _ in parts]), np.concatenate([c for _, c, _ in parts]))),
                          shape=(count, cols.n))
    return A, np.concatenate(rhs)


def _start_vector(m: RoundModel, cols: _Columns, assign: dict[int, dict[int, int]], metric: str) -> np.ndarray:
    """The MILP point of a schedule (the greedy incumbent), handed to HiGHS as a start."""
    flow, ran = run_assignment(m, assign)
    index = {(int(a), int(b), int(c)): e for e, (a, b, c) in enumerate(cols.xjrk)}
    v = np.zeros(cols.n)
    for k, jobs in ran.items():
        for j, used in jobs.items():
            e = index.get((j, assign[k][j], k))
            if e is None:
                return np.zeros(0)
            v[cols.x[e]], v[cols.u[e]] = 1.0, used
    for i, (j, k) in enumerate(cols.yjk):
        v[cols.y[i]] = 1.0 if k < flow[j] + m.alpha[j] - 1e-12 else 0.0
    if metric == "average_jct":
        v[cols.f] = flow
    else:
        v[cols.f[0]] = float(np.max(flow + m.alpha))
    return v


def _check_options(gang_rule: Any, restart_delay: Any, contention: Any) -> None:
    """The execution model's options the exact model covers: the single rule, no restart delay, no contention."""
    check_choice(gang_rule, "gang_rule", ("single", "bottleneck"))
    if gang_rule != "single":
        raise ArgumentError("gang_rule is 'bottleneck'; the exact model covers the 'single' rule only (a gang on one "
                            "GPU type per round); the bounds of hetopt.arena.bounds cover both")
    if check_positive(restart_delay, "restart_delay", allow_zero=True) != 0.0:
        raise ArgumentError(f"restart_delay is {restart_delay!r}; the exact model covers restart_delay=0 only")
    if check_flag(contention, "contention"):
        raise ArgumentError("contention is True; the exact model covers contention=False only (no link model)")


@takes_instance(Workload)
def solve_exact(inst: Workload, *, objective: str = "average_jct", weights: Any = None,
                round_length: float = DEFAULT_ROUND_LENGTH, gang_rule: str = "single", restart_delay: float = 0.0,
                contention: bool = False, time_limit: float | None = None, mip_gap: float | None = None,
                threads: int | None = 1, max_size: int = DEFAULT_MAX_SIZE) -> RoundSchedule:
    """The optimal round schedule of ``w`` for the weighted average JCT or the makespan (see the module docstring).

    Parameters
    ----------
    inst : Workload
    objective : {"average_jct", "makespan"}
        ``sum_j w_j (C_j - a_j) / sum_j w_j`` or ``max_j C_j`` (seconds).
    weights : array_like, optional
        One positive weight per job (default: the workload's ``weight``).
    round_length : float
        Seconds (Gavel's 360 by default).
    gang_rule, restart_delay, contention
        The execution model's options; the exact model covers ``gang_rule="single"``,
        ``restart_delay=0`` and ``contention=False`` only, and refuses the others.
    time_limit : float, optional
        Seconds; a stopped solve returns its incumbent (the greedy schedule at worst) as TIME_LIMIT
        with HiGHS's dual bound.
    mip_gap : float, optional
        Relative gap at which HiGHS may stop (default: exact).
    threads : int, optional
        HiGHS threads; 1 by default, as in every kind; None: HiGHS's default.
    max_size : int
        Refuse, before building, a model with more job-round variables (one per job, type and round
        the job may run in; 2 per variable are columns of the MILP).

    Returns
    -------
    RoundSchedule
        OPTIMAL when HiGHS proved it; ``objective`` recomputed from the schedule.

    Raises
    ------
    ArgumentError
        An option outside the exact model, or a malformed argument.
    InstanceError
        A job whose gang fits on no single type it can run on.
    SizeLimitError
        More than ``max_size`` job-round variables.
    """
    w = inst
    metric = str(check_choice(objective, "objective", METRICS))
    _check_options(gang_rule, restart_delay, contention)
    L = check_positive(round_length, "round_length")
    max_size = check_size(max_size, "max_size")
    wt = _weights(w, weights)
    start = time.perf_counter()
    m, cols, greedy, size, (c, A, b, lb, ub, integrality) = _milp(w, metric, L, wt, max_size)
    x0 = _start_vector(m, cols, greedy, metric)
    sol = solve_milp(c, A_ub=A, b_ub=b, lb=lb, ub=ub, integrality=integrality, time_limit=time_limit,
                        mip_gap=mip_gap, threads=threads, raise_on_failure=True, require_incumbent=False,
                        options={"primal_feasibility_tolerance": 1e-9, "mip_feasibility_tolerance": 1e-9},
                        x0=x0 if x0.size else None)
    x = sol.info.get("x")
    assign = greedy
    if x is not None:
        assign = {}
        for e in np.flatnonzero(x[cols.x] > 0.5):
            j, r, k = (int(v) for v in cols.xjrk[e])
            assign.setdefault(k, {})[j] = r
    flow, ran = run_assignment(m, assign)
    if not np.all(np.isfinite(flow)):
        raise SolverError(f"solve_exact: jobs {np.flatnonzero(~np.isfinite(flow)).tolist()} are left unfinished by "
                          f"the MILP's assignment ({sol.message}); its work rows hold only within the solver's "
                          "tolerance")
    return _schedule(w, m, metric, wt, assign, ran, sol, time.perf_counter() - start, size)


def _milp(w: Workload, metric: str, L: float, wt: np.ndarray, max_size: int) -> tuple[Any, ...]:
    """The round model, its columns, the best greedy assignment, the size and the MILP's arrays."""
    m = round_model(w, L, wt)
    greedy, incumbent = min(((g, _objective(m, run_assignment(m, g)[0], metric))
                             for g in (greedy_rounds(m, p) for p in PRIORITIES)), key=lambda e: e[1])
    last = _windows(m, metric, incumbent)
    size = int(sum((last[j] - m.first[j] + 1) * np.count_nonzero(m.progress[j] > 0) for j in range(m.alpha.size)))
    if size > max_size:
        raise SizeLimitError(f"solve_exact: the model has {size} job-round variables (jobs x types x rounds they may "
                             f"run in), above max_size={max_size}; pass max_size={size} or a longer round_length")
    cols = _Columns(m, last, metric)
    A, b = _milp_rows(m, cols, metric)
    c = np.zeros(cols.n)
    c[cols.f] = m.weight if metric == "average_jct" else 1.0
    lb, ub = np.zeros(cols.n), np.ones(cols.n)
    low = m.first - m.alpha + 1.0 / m.progress.max(axis=1)
    lb[cols.f] = low if metric == "average_jct" else float(np.max(low + m.alpha))
    ub[cols.f] = np.inf
    integrality = np.zeros(cols.n)
    integrality[cols.x] = 1
    integrality[cols.y] = 1
    return m, cols, greedy, size, (c, A, b, lb, ub, integrality)


@takes_instance(Workload)
def export_model(inst: Workload) -> Any:
    """The MILP :func:`solve_exact` solves for ``inst`` (average JCT, rounds of 360 s) as a Pyomo model.

    Variables ``v[i]`` in :func:`solve_exact`'s column order (binaries ``x``, ``y``, continuous ``u``
    and ``F``, in rounds), rows ``A v <= b``, objective ``sum_j w_j F_j / sum_j w_j`` (the weighted
    average JCT in rounds: times ``L`` it is :func:`solve_exact`'s objective); for ``hetopt export``.
    """
    import pyomo.environ as pyo

    _, _, _, _, (c, A, b, lb, ub, integrality) = _milp(inst, "average_jct", DEFAULT_ROUND_LENGTH,
                                                       _weights(inst, None), DEFAULT_MAX_SIZE)
    A = sparse.csr_matrix(A)
    model = pyo.ConcreteModel(name="arena_round_model")
    model.I = pyo.RangeSet(0, c.size - 1)
    model.v = pyo.Var(model.I, domain=lambda _, i: pyo.Binary if integrality[i] else pyo.NonNegativeReals,
                      bounds=lambda _, i: (float(lb[i]), None if np.isinf(ub[i]) else float(ub[i])))
    model.rows = pyo.Constraint(pyo.RangeSet(0, A.shape[0] - 1), rule=lambda mod, r: sum(
        float(v) * mod.v[int(i)] for i, v in zip(A.indices[A.indptr[r]:A.indptr[r + 1]],
                                                 A.data[A.indptr[r]:A.indptr[r + 1]], strict=True)) <= float(b[r]))
    model.obj = pyo.Objective(expr=sum(float(c[i]) * model.v[i] for i in np.flatnonzero(c).tolist()))
    return model


def _servers(w: Workload, gangs: list[tuple[int, int]]) -> dict[int, list[list[int]]]:
    """``[server, GPUs]`` of each (job, type) gang on the servers of its type, first fit (a gang may span servers)."""
    free = np.asarray(w.server_gpus, dtype=np.int64).copy()
    out: dict[int, list[list[int]]] = {}
    for j, r in gangs:
        need = int(w.scale_factor[j])
        for s in np.flatnonzero(np.asarray(w.server_type) == r):
            take = min(need, int(free[s]))
            if take:
                out.setdefault(j, []).append([int(s), take])
                free[s] -= take
                need -= take
            if need == 0:
                break
    return out


def _schedule(w: Workload, m: RoundModel, metric: str, wt: np.ndarray, assign: dict[int, dict[int, int]],
              ran: dict[int, dict[int, float]], sol: Any, wall: float, size: int) -> RoundSchedule:
    """The assignment as recorded rounds (the arena engine's records) with its metrics."""
    L = m.round_length
    steps = np.asarray(w.steps, dtype=float)
    T = np.asarray(w.throughput, dtype=float)
    left = steps.copy()
    completion = np.full(m.alpha.size, np.nan)
    rounds = []
    for k in sorted(ran):
        start = m.origin + k * L
        place = sorted((j, assign[k][j]) for j in ran[k])
        held = _servers(w, place)
        gangs = []
        for j, r in place:
            last = ran[k][j] < 1.0 or left[j] <= T[j, r] * L * (1 + DONE_RTOL)
            n = left[j] if last else T[j, r] * L  # the last round runs what is left
            left[j] -= n
            finish = start + ran[k][j] * L
            if last:
                completion[j] = finish
            gangs.append({"jobs": [j], "type": r, "servers": held[j], "steps": [float(n)], "finish": finish,
                          "delay": 0.0})
        rounds.append({"start": start, "end": start + L, "gangs": gangs})
    jct = completion - np.asarray(w.arrival, dtype=float)
    average = float(wt @ jct / wt.sum())
    makespan = float(np.max(completion))
    value = average if metric == "average_jct" else makespan
    bound = None
    if sol.bound is not None and math.isfinite(sol.bound):
        bound = sol.bound * L if metric == "average_jct" else m.origin + sol.bound * L
    # the schedule's value is recomputed from the rounds: certified against the solver's bound, not its status
    status = certify(value, bound, stopped=sol.status is Status.TIME_LIMIT, sense="min")
    return RoundSchedule(status=status, objective=value, bound=bound, gap=relative_gap(value, bound), wall_time=wall,
                         solver="highs", sense="min", message=f"{sol.message}; {size} job-round variables",
                         metric=metric, weights=wt, completion=completion, jct=jct, average_jct=average,
                         makespan=makespan, rounds=rounds,
                         options={"round_length": L, "restart_delay": 0.0, "contention": False, "gang_rule": "single"},
                         info={"milp_objective": sol.objective, "size": size})
