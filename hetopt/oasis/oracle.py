"""The dual oracle of OASiS (Section IV-C): the best schedule of one job under given prices.

Three implementations of the same subproblem (27):

* :func:`best_schedule` -- Alg. 2 (enumerate the end slot, ``DP_COST`` over the training
  workload, greedy ``COST_t`` per slot), vectorized: one forward pass computes
  ``DP_COST(t_hat, E_i N_i)`` for every end slot at once.  Same optimum as the literal
  transcription (tested), in O(T N_i E_i N_i) numpy work instead of O(T (E_i N_i)^2).
* :func:`algorithm2_literal` -- a line-by-line transcription of Alg. 2 (memoized recursion),
  the reference for small jobs.
* :func:`best_schedule_ilp` -- problem (27) itself, solved exactly by HiGHS
  (:func:`~hetopt.oasis.model.build_oracle`).

The DP assumes, as Section IV-C says, that a worker trains a whole number of data chunks in a
slot: ``d`` chunks need ``ceil(d M_i (tau_i + 2 e_i / b_i))`` workers in their slot.  Problem
(27) only asks for ``sum_t sum_h y_ih(t) >= E_i N_i M_i (tau_i + 2 e_i / b_i)`` in total, so
its optimum can be strictly better than Alg. 2's (Theorem 1 then fails); they coincide when
``1 / (M_i (tau_i + 2 e_i / b_i))`` is an integer.  See ``models/oasis2018.md``.

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Section IV-C, Alg. 2, Theorem 1, Appendix B.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from ..certify import Status
from ..errors import ArgumentError, SolverError, a_type
from ..inputs import check_size, check_threads, check_time_limit, takes_instance
from ..solvers import solve_model
from .capacity import slot_capacity
from .instance import EPS_WORK, OasisInstance
from .model import build_oracle, oracle_schedule
from .normalize import HIGHS_EXACT, scaled_instance
from .prices import Prices, Usage
from .pricing import JobPricer
from .schedule import JobSchedule, Real, schedule_cost

__all__ = ["OracleResult", "best_schedule", "schedules_by_end", "algorithm2_literal", "best_schedule_ilp", "workers_for",
           "chunks_for", "cost_t"]


@dataclass(frozen=True, eq=False)
class OracleResult:
    """Best schedule of a job and its payoff mu = f_i(t_hat_i - a_i) - cost (RHS of (20)).

    ``schedule`` is None when the job has no feasible schedule (``payoff`` is then -inf).
    ``bound`` is an upper bound on the best payoff (equal to ``payoff`` for exact methods;
    the solver's dual bound for the ILP).
    """

    schedule: JobSchedule | None
    payoff: Real
    utility: float
    cost: Real
    bound: Real
    method: str


def workers_for(d: int | np.ndarray, m: float) -> np.ndarray:
    """ceil(d m): workers needed to train ``d`` chunks in one slot (Alg. 2, line 26)."""
    return np.ceil(np.asarray(d) * m * (1 - EPS_WORK)).astype(np.int64)


def chunks_for(w: int | np.ndarray, m: float) -> np.ndarray:
    """floor(w / m): the most chunks ``w`` workers train in one slot (inverse of :func:`workers_for`)."""
    return np.floor(np.asarray(w) / m * (1 + EPS_WORK)).astype(np.int64)


def _fill(unit_cost: np.ndarray, cap: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """Greedy fill (Alg. 2, lines 25-31 / 35-40): order and cumulative cost of 0..n units, n <= limit."""
    order = np.argsort(unit_cost, kind="stable")
    seq = np.repeat(order, cap[order])[:limit]
    cum = np.concatenate(([0.0], np.cumsum(unit_cost[seq])))
    return seq, cum


def _place(seq: np.ndarray, n: int, size: int) -> np.ndarray:
    return np.bincount(seq[:n], minlength=size).astype(np.int64)


class _Job:
    """Per-job constants of the oracle."""

    def __init__(self, inst: OasisInstance, i: int) -> None:
        self.i = i
        self.a = int(inst.arrival[i])
        self.N = int(inst.chunks[i])
        self.D = int(inst.epochs[i] * inst.chunks[i])  # training workload E_i N_i in chunks
        self.m = float(inst.chunk_time[i])
        self.ratio = float(inst.worker_bandwidth[i] / inst.ps_bandwidth[i])  # b_i / B_i
        self.w = inst.worker_demand[i]
        self.s = inst.ps_demand[i]
        self.f = inst.utility_table(i)


def _slot(inst: OasisInstance, job: _Job, t: int, prices: Prices, used: Usage):
    """Cost of 0..Wmax workers in slot t (greedy COST_t), the chunks they train, and the fills."""
    cw = prices.p[t - 1] @ job.w
    capw = slot_capacity(inst.worker_capacity - used.g[t - 1], job.w)
    seq_w, cum_w = _fill(cw, capw, job.N)
    cz = prices.q[t - 1] @ job.s
    capz = slot_capacity(inst.ps_capacity - used.v[t - 1], job.s)
    seq_z, cum_z = _fill(cz, capz, job.N)
    n_w = np.arange(cum_w.size)
    z_need = np.ceil(n_w * job.ratio * (1 - EPS_WORK)).astype(np.int64)  # ceil(sum_h y b_i / B_i), (6)
    ok = z_need < cum_z.size
    n_w, z_need = n_w[ok], z_need[ok]
    cost = cum_w[n_w] + cum_z[z_need]
    return n_w, z_need, cost, seq_w, seq_z


def cost_t(inst: OasisInstance, job: int, t: int, prices: Prices, used: Usage) -> dict[int, float]:
    """COST_t of Alg. 2 (lines 23-46, greedy): the least cost of every feasible worker count of ``job`` in slot ``t``.

    Parameters
    ----------
    inst : OasisInstance
    job : int
        Job index i.
    t : int
        Slot (1-based).
    prices : Prices
    used : Usage
        Resources already allocated (the residual capacities (30)-(31)).

    Returns
    -------
    dict int -> float
        Worker count n (0..N_i, those that fit with their parameter servers) -> the cost of the
        n cheapest worker units and the fewest parameter servers (6)-(7) at the cheapest.
    """
    n_w, _, cost, _, _ = _slot(inst, _Job(inst, job), t, prices, used)
    return dict(zip(n_w.tolist(), cost.tolist(), strict=True))


def _args(inst: OasisInstance, job: Any, prices: Any, used: Any) -> tuple[int, Usage]:
    """``job`` as an index of ``inst`` and ``used`` (empty when None); ArgumentError naming a bad argument."""
    job = check_size(job, "job", minimum=0, maximum=inst.n_jobs - 1)
    if not isinstance(prices, Prices):
        raise ArgumentError(f"prices is {a_type(prices)}; expected hetopt.oasis.Prices (p, q)")
    if used is not None and not isinstance(used, Usage):
        raise ArgumentError(f"used is {a_type(used)}; expected hetopt.oasis.Usage (g, v) or None")
    return job, (Usage.empty(inst) if used is None else used)


def _improve_plain(F: np.ndarray, new: np.ndarray, choice: np.ndarray, opt_k: np.ndarray, opt_c: np.ndarray) -> None:
    """One slot of DP_COST, option by option in order with strict improvement (any sign of cost)."""
    D = F.size - 1
    for j in range(opt_k.size):
        kk, cc = int(opt_k[j]), opt_c[j]
        cand = np.empty(D + 1, dtype=F.dtype)
        cand[:kk] = cc  # F[0] = 0 for every target below kk
        cand[kk:] = F[: D + 1 - kk] + cc
        better = cand < new
        new[better] = cand[better]
        choice[better] = j + 1


def _improve(F: np.ndarray, new: np.ndarray, choice: np.ndarray, opt_k: np.ndarray, opt_c: np.ndarray, reach: int,
             buf: np.ndarray, mask: np.ndarray) -> None:
    """:func:`_improve_plain` when F is non-decreasing with F[0] = 0 and every cost is >= 0, touching less.

    Option j's candidate ``F[max(d - k_j, 0)] + c_j`` is then non-decreasing in d and >= c_j, so
    ``new`` stays non-decreasing, a target can improve only where ``new[d] > c_j`` (from a binary
    search on), and F is infinite beyond ``reach``: the same strict updates in the same order on
    fewer targets, hence the same costs and choices.
    """
    D = F.size - 1
    for j, kk in enumerate(opt_k.tolist()):
        cj = opt_c[j]  # a scalar of the prices' dtype (long double stays long double)
        lo = int(new.searchsorted(cj, side="right"))  # new[d] > c_j exactly for d >= lo
        if lo < kk:  # alone: every target in lo..kk-1 improves to c_j
            new[lo:kk] = cj
            choice[lo:kk] = j + 1
        e0 = max(lo - kk, 0)  # shifted: target kk + e from F[e], e0 <= e <= reach
        n = min(reach + 1, D + 1 - kk) - e0
        if n <= 0:
            continue
        seg, m, tgt = buf[:n], mask[:n], new[kk + e0:kk + e0 + n]
        np.add(F[e0:e0 + n], cj, out=seg)
        np.less(seg, tgt, out=m)
        np.copyto(tgt, seg, where=m)
        np.copyto(choice[kk + e0:kk + e0 + n], j + 1, where=m)


def _options(inst: OasisInstance, jb: _Job, t: int, prices: Prices, used: Usage) -> tuple[np.ndarray, ...]:
    """The options of slot ``t`` for DP_COST and the slot's greedy fills.

    Per chunk count, the cheapest (fewest) workers: their number, chunks, cost and parameter servers.
    """
    n_w, z_need, cost, seq_w, seq_z = _slot(inst, jb, t, prices, used)
    k = np.minimum(chunks_for(n_w, jb.m), jb.D)
    keep = np.concatenate(([True], k[1:] != k[:-1])) & (k > 0)
    return n_w[keep], k[keep], cost[keep], z_need[keep], seq_w, seq_z


def _forward(inst: OasisInstance, job: int, prices: Prices, used: Usage, *, every_end: bool = True):
    """DP_COST(t, E_i N_i) for every end slot t in one pass; choices kept for backtracking.

    Per slot, option j (``k_j`` chunks at cost ``c_j``) improves target d with ``F[d - k_j] + c_j``,
    or ``c_j`` alone when d < k_j; options are applied in order with strict improvement, so every
    target's choice is the first option reaching its least cost.  With costs >= 0 (prices >= 0, the
    duals of OASiS) :func:`_improve` does this on the targets that can change; a negative cost
    switches to :func:`_improve_plain` for the rest of the job.

    ``every_end=False`` (the best end slot only, :func:`best_schedule`) stops at the first slot t
    from which no utility ``f_i(t' - a_i)``, t' >= t, exceeds the best payoff so far: with prices
    >= 0 (so costs >= 0) every later payoff ``f - F[D]`` is at most its utility (rounding is monotone), so none can
    be strictly better and the first maximum, the end slot chosen, is the same.  The payoffs of
    the slots not computed stay -inf.
    """
    jb = _Job(inst, job)
    T, D = inst.horizon, jb.D
    # the bound needs every cost >= 0: prices >= 0 (demands are >= 0); a NaN price fails the test too
    early = not every_end and bool(np.min(prices.p[jb.a - 1:], initial=0.0) >= 0) and bool(
        np.min(prices.q[jb.a - 1:], initial=0.0) >= 0)
    f_after = np.maximum.accumulate(np.asarray(jb.f[: T - jb.a + 1], dtype=float)[::-1])[::-1]
    best = -np.inf
    dt = np.result_type(prices.p.dtype, prices.q.dtype, np.float64)  # np.longdouble prices stay long double
    F = np.full(D + 1, np.inf, dtype=dt)
    F[0] = 0.0
    reach = 0  # F[d] is infinite for d > reach
    signed = False  # a negative cost was seen: F may be neither >= 0 nor non-decreasing
    payoff = np.full(T - jb.a + 1, -np.inf, dtype=dt)
    buf = np.empty(D + 1, dtype=dt)
    mask = np.empty(D + 1, dtype=bool)
    choices = []
    seen: dict[bytes, tuple[Any, ...]] = {}  # a slot's options depend on its prices and usage alone (and the job)
    for t in range(jb.a, T + 1):
        key = b"".join(a[t - 1].tobytes() for a in (prices.p, prices.q, used.g, used.v))
        options = seen.get(key)
        if options is None:
            options = seen[key] = _options(inst, jb, t, prices, used)
        opt_w, opt_k, opt_c, opt_z, seq_w, seq_z = options
        new = F.copy()
        choice = np.zeros(D + 1, dtype=np.int32)
        signed = signed or bool(opt_c.size and opt_c.min() < 0)
        if signed:
            _improve_plain(F, new, choice, opt_k, opt_c)
        else:
            _improve(F, new, choice, opt_k, opt_c, reach, buf, mask)
        F = new
        if opt_k.size:
            reach = min(D, reach + int(opt_k[-1]))
        choices.append((choice, opt_w, opt_k, opt_z, seq_w, seq_z))
        payoff[t - jb.a] = jb.f[t - jb.a] - F[D]
        if early:
            if np.isnan(payoff[t - jb.a]):
                early = False  # argmax stops at a NaN
            else:
                best = max(best, payoff[t - jb.a])
                if t < T and f_after[t + 1 - jb.a] <= best:
                    break
    return jb, payoff, choices


def _backtrack(inst: OasisInstance, jb: _Job, choices, t_end: int, prices: Prices) -> OracleResult:
    H, K, T = inst.n_worker_servers, inst.n_ps_servers, inst.horizon
    y = np.zeros((H, T), dtype=np.int64)
    z = np.zeros((K, T), dtype=np.int64)
    d = jb.D
    for t in range(t_end, jb.a - 1, -1):
        choice, opt_w, opt_k, opt_z, seq_w, seq_z = choices[t - jb.a]
        j = int(choice[d])
        if j == 0:
            continue
        y[:, t - 1] = _place(seq_w, int(opt_w[j - 1]), H)
        z[:, t - 1] = _place(seq_z, int(opt_z[j - 1]), K)
        d = max(0, d - int(opt_k[j - 1]))
    sched = JobSchedule(jb.i, y, z)
    util = float(jb.f[sched.completion - jb.a])
    cost = schedule_cost(inst, sched, prices.p, prices.q)
    return OracleResult(sched, util - cost, util, cost, util - cost, "dp")


@takes_instance(OasisInstance)
def best_schedule(inst: OasisInstance, job: int, prices: Prices, used: Usage | None = None) -> OracleResult:
    """Alg. 2: the schedule of ``job`` maximizing f_i(t_hat_i - a_i) - cost under ``prices``.

    Parameters
    ----------
    inst : OasisInstance
    job : int
        Job index i.
    prices : Prices
        p (T, H, R) and q (T, K, R).
    used : Usage, optional
        g, v: resources already allocated; the schedule uses only what is left ((30)-(31)).
        Default: an empty cluster.

    Returns
    -------
    OracleResult
        The best schedule over all end slots (possibly with a non-positive payoff; Alg. 1
        admits the job only when the payoff is > 0), or no schedule when none is feasible.

    Notes
    -----
    ``F_t(D)`` = DP_COST(t, D) is the least cost of training D chunks in slots a_i..t; with
    ``cost_t(t, d)`` non-decreasing in d, the recursion over "at least D" equals the paper's
    "exactly D" and only the largest chunk count of each worker number matters, so each slot
    offers at most N_i + 1 moves.  The first end slot with the largest payoff wins, as with
    the strict comparison of line 7; it is then the completion slot of the schedule.
    """
    job, used = _args(inst, job, prices, used)
    jb, payoff, choices = _forward(inst, job, prices, used, every_end=False)
    if not np.isfinite(payoff).any():
        return OracleResult(None, -math.inf, 0.0, math.inf, -math.inf, "dp")
    t_end = jb.a + int(np.argmax(payoff))
    return _backtrack(inst, jb, choices, t_end, prices)


@takes_instance(OasisInstance)
def schedules_by_end(inst: OasisInstance, job: int, prices: Prices, used: Usage | None = None) -> list[OracleResult]:
    """DP_COST's best schedule for every end slot t_hat in a_i..T that has one (lines 4-5 of Alg. 2)."""
    job, used = _args(inst, job, prices, used)
    jb, payoff, choices = _forward(inst, job, prices, used)
    out = []
    for j in np.nonzero(np.isfinite(payoff))[0]:
        res = _backtrack(inst, jb, choices, jb.a + int(j), prices)
        if res.schedule is not None and res.schedule.completion == jb.a + int(j):
            out.append(res)
    return out


@takes_instance(OasisInstance)
def algorithm2_literal(inst: OasisInstance, job: int, prices: Prices, used: Usage | None = None, *,
                       stats: dict | None = None) -> OracleResult:
    """Alg. 2 transcribed line by line (memoized recursion); for small jobs and for testing.

    Returns the schedule l* and payoff mu_i exactly as the pseudo-code does: mu_i starts at 0
    and l* empty, so a job whose best payoff is <= 0 gets no schedule and payoff 0.
    DP_COST(t, D) for t before the arrival slot is 0 when D = 0 and +inf otherwise (the base
    case the pseudo-code leaves implicit).  Runs in O(T (E_i N_i)^2 + T E_i N_i (H + K) log(H + K)).

    ``stats``, when a dict, receives the operation counts of Theorem 3: ``cost_t_calls``
    (distinct COST_t(t, d) evaluated, each O(H + K) after sorting), ``dp_states`` (distinct
    DP_COST(t, D)) and ``dp_transitions`` (iterations of the loop of line 14).
    """
    if stats is not None and not isinstance(stats, dict):
        raise ArgumentError(f"stats is {stats!r:.60}; expected a dict (it receives the operation counts) or None")
    job, used = _args(inst, job, prices, used)
    jb = _Job(inst, job)
    H, K, T = inst.n_worker_servers, inst.n_ps_servers, inst.horizon

    @cache
    def cost_t(t: int, d: int):  # lines 23-46
        y = np.zeros(H, dtype=np.int64)
        z = np.zeros(K, dtype=np.int64)
        order_h = sorted(range(H), key=lambda h: float(prices.p[t - 1, h] @ jb.w))  # line 25 (stable)
        Dw = int(workers_for(d, jb.m))  # line 26
        for h in order_h:  # lines 27-31
            cap = min(math.floor((inst.worker_capacity[h, r] - used.g[t - 1, h, r]) / jb.w[r] * (1 + EPS_WORK) + EPS_WORK)
                      for r in range(len(jb.w)) if jb.w[r] > 0)
            y[h] = max(0, min(cap, jb.N - int(y.sum()), Dw))
            Dw -= int(y[h])
        if Dw > 0:  # lines 32-34
            return math.inf, y, z
        order_k = sorted(range(K), key=lambda k: float(prices.q[t - 1, k] @ jb.s))  # line 35
        ny = int(y.sum())
        need = math.ceil(ny * jb.ratio * (1 - EPS_WORK))
        for k in order_k:  # lines 36-40
            cap = min(math.floor((inst.ps_capacity[k, r] - used.v[t - 1, k, r]) / jb.s[r] * (1 + EPS_WORK) + EPS_WORK)
                      for r in range(len(jb.s)) if jb.s[r] > 0)
            z[k] = max(0, min(cap, need - int(z.sum()), ny - int(z.sum())))
        if z.sum() < jb.ratio * ny * (1 - EPS_WORK):  # lines 41-43
            return math.inf, y, z
        c = float(sum(prices.p[t - 1, h] @ jb.w * y[h] for h in range(H)) + sum(prices.q[t - 1, k] @ jb.s * z[k] for k in range(K)))
        return c, y, z  # lines 44-45

    transitions = 0

    @cache
    def dp_cost(t_end: int, d_total: int):  # lines 12-22
        nonlocal transitions
        if t_end < jb.a:
            return (0.0, ()) if d_total == 0 else (math.inf, ())
        min_cost, sched = math.inf, ()
        transitions += d_total + 1
        for d in range(d_total + 1):  # line 14
            ct, y, z = cost_t(t_end, d)
            c, rest = dp_cost(t_end - 1, d_total - d)
            if min_cost > ct + c:  # line 17
                min_cost, sched = ct + c, rest + ((t_end, y, z),)
        return min_cost, sched

    mu, best = 0.0, None  # line 3
    for t_hat in range(jb.a, T + 1):  # line 4
        cost, sched = dp_cost(t_hat, jb.D)
        mu_l = float(jb.f[t_hat - jb.a]) - cost  # line 6
        if mu_l > mu:  # line 7
            best, mu = sched, mu_l
    if stats is not None:
        stats.update(cost_t_calls=cost_t.cache_info().misses, dp_states=dp_cost.cache_info().misses,
                     dp_transitions=transitions)
    if best is None:
        return OracleResult(None, 0.0, 0.0, 0.0, 0.0, "alg2")
    y = np.zeros((H, T), dtype=np.int64)
    z = np.zeros((K, T), dtype=np.int64)
    for t, yt, zt in best:
        y[:, t - 1], z[:, t - 1] = yt, zt
    s = JobSchedule(job, y, z)
    util = float(jb.f[s.completion - jb.a])
    return OracleResult(s, mu, util, util - mu, mu, "alg2")


@takes_instance(OasisInstance)
def best_schedule_ilp(inst: OasisInstance, job: int, prices: Prices, used: Usage | None = None, *,
                      time_limit: float | None = None, threads: int | None = 1) -> OracleResult:
    """Problem (27) solved exactly as an ILP (HiGHS): the reference for Theorem 1.

    ``bound`` is the solver's dual bound on the best payoff (valid even when the run stops at
    ``time_limit``); ``payoff`` is that of the returned schedule.  No feasible schedule: no
    schedule and payoff -inf.
    """
    job, used = _args(inst, job, prices, used)
    time_limit = check_time_limit(time_limit)
    threads = check_threads(threads)
    # solved on a copy whose utilities and prices are divided by 2**k, the largest objective coefficient in
    # [512, 1024) (exact), so that HiGHS's absolute tolerances are relative to it at every magnitude
    top = max(float(np.max(inst.utility_table(job), initial=0.0)),
              float(np.max(np.einsum("thr,r->th", prices.p, inst.worker_demand[job]), initial=0.0)),
              float(np.max(np.einsum("tkr,r->tk", prices.q, inst.ps_demand[job]), initial=0.0)))
    k = math.frexp(top)[1] - 10 if top > 0 and math.isfinite(top) else 0
    work, wprices = inst, prices
    if k:
        work = scaled_instance(inst, k)
        wprices = Prices(np.ldexp(np.asarray(prices.p, dtype=float), -k), np.ldexp(np.asarray(prices.q, dtype=float), -k))
    model = build_oracle(work, job, wprices, used)
    try:
        sol = solve_model(model, "highs", time_limit=time_limit, threads=threads, raise_on_failure=False,
                          options=dict(HIGHS_EXACT))
        if sol.status is Status.ERROR:
            raise SolverError(f"oracle ILP for job {job}: {sol.status.value} ({sol.message})")
    except SolverError as exc:
        # e.g. HiGHS's bound on the wrong side of its incumbent (hetopt.certify): the utility is negligible next
        # to the priced resources.  On the empty cluster the DP of hetopt.oasis.pricing solves (27) exactly;
        # with earlier allocations there is no exact fallback.
        if np.any(used.g) or np.any(used.v):
            raise
        res = JobPricer(inst, job).price(np.asarray(prices.p, dtype=float), np.asarray(prices.q, dtype=float))
        if res.schedule is None:
            return OracleResult(None, -math.inf, 0.0, math.inf, -math.inf, f"dp (ILP failed: {exc})")
        return OracleResult(res.schedule, res.payoff, res.utility, res.cost, res.payoff, f"dp (ILP failed: {exc})")
    if sol.status is Status.INFEASIBLE:
        return OracleResult(None, -math.inf, 0.0, math.inf, -math.inf, "ilp")
    if not sol.status.has_solution or sol.objective is None:
        raise SolverError(f"oracle ILP for job {job}: {sol.status.value} ({sol.message})")
    sched = oracle_schedule(inst, job, model)
    util = inst.utility_of(job, sched.completion)
    cost = schedule_cost(inst, sched, prices.p, prices.q)
    bound = float(np.ldexp(sol.bound, k)) if sol.bound is not None and math.isfinite(sol.bound) else math.inf
    return OracleResult(sched, util - cost, util, cost, max(bound, util - cost), "ilp")
