"""Exact pricing of problem (27) on an empty cluster by dynamic programming over worker-slots.

Problem (27) with ``used = 0`` asks, for one job i under prices p, q >= 0, for the schedule
maximizing ``f_i(t_hat - a_i) - sum_t cost_t``.  Its only coupling across slots is the work
constraint (2), ``sum_t sum_h y_ih(t) >= W_i``; within a slot, placing ``n`` workers and the
parameter servers they need is a separable problem whose optimum is greedy:

* the ``n`` cheapest worker units, server h offering ``ymax_ih`` units at ``p_h(t) . w_i``;
* the ``ceil(n b_i / B_i)`` cheapest PS units (fewest allowed by (6); (7) holds as b_i <= B_i;
  with prices >= 0 more PS never lower the cost), server k offering ``zmax_ik`` units.

So ``cost_t(n)`` is exact per slot, and a DP over the accumulated worker-slots ``d`` (capped at
``ceil(W_i - slack)``) with one move ``n in 0..M_i`` per slot gives, for every completion slot
t_hat (a worker in t_hat, none after, (8)), the least cost at once.  Unlike Alg. 2
(:func:`~hetopt.oasis.oracle.best_schedule`) there is no whole-chunk restriction, so this is
(27) itself, and its optimum is an upper bound on job i's best reduced payoff: the ``slack``
(1e-6 worker-slots in (2), 1e-9 relative in (6)) only relaxes (27), so the bound stays valid
when floating-point rounding sits at a boundary.  Cross-checked against the ILP
(:func:`~hetopt.oasis.oracle.best_schedule_ilp`) in the tests.

Cost: O(T M_i W_i) numpy work per job (M_i vector operations of length W_i per slot).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import ArgumentError, SizeLimitError
from .capacity import slot_capacity
from .instance import OasisInstance
from .schedule import JobSchedule

__all__ = ["JobPricer", "PricingResult", "WORK_SLACK", "RATIO_SLACK", "MAX_DP_STATES"]

#: Worker-slots by which (2) is relaxed in pricing (rounding of W_i).
WORK_SLACK = 1e-6
#: Relative slack on (6) in pricing.
RATIO_SLACK = 1e-9
#: Largest ``T x (W_i + 1)`` DP table a job may need.
MAX_DP_STATES = 50_000_000


@dataclass(frozen=True, eq=False)
class PricingResult:
    """Best (27) schedule of one job: ``payoff`` = utility - cost (``-inf`` when none is feasible)."""

    schedule: JobSchedule | None
    payoff: float
    utility: float
    cost: float


class JobPricer:
    """Precomputed constants of one job for repeated exact pricing under changing prices."""

    def __init__(self, inst: OasisInstance, i: int) -> None:
        self.inst, self.i = inst, i
        self.a = int(inst.arrival[i])
        self.w = np.asarray(inst.worker_demand[i], float)
        self.s = np.asarray(inst.ps_demand[i], float)
        self.ymax = np.minimum(slot_capacity(inst.worker_capacity, self.w), inst.chunks[i]).astype(np.int64)
        self.zmax = np.minimum(slot_capacity(inst.ps_capacity, self.s), inst.chunks[i]).astype(np.int64)
        self.ratio = float(inst.worker_bandwidth[i] / inst.ps_bandwidth[i])
        n = np.arange(int(inst.chunks[i]) + 1)
        # ceil(n b_i / B_i), relaxed by RATIO_SLACK relative; at least 1 for n >= 1 (b_i > 0), whatever b_i / B_i
        self.z_need = np.maximum(np.ceil(n * self.ratio * (1 - RATIO_SLACK)), np.minimum(n, 1)).astype(np.int64)
        ok = (n <= self.ymax.sum()) & (self.z_need <= self.zmax.sum())
        self.M = int(np.nonzero(ok)[0].max())  # ok[0] is True; ok is monotone in n
        self.W = max(int(math.ceil(float(inst.workload[i]) - WORK_SLACK)), 0)
        self.f = inst.utility_table(i)
        T = inst.horizon
        if (T - self.a + 1) * (self.W + 1) > MAX_DP_STATES:
            raise SizeLimitError(f"job {i}: pricing DP needs {(T - self.a + 1) * (self.W + 1)} states "
                                 f"(T - a_i + 1 = {T - self.a + 1} slots x W_i + 1 = {self.W + 1}); at most {MAX_DP_STATES}")
        self.feasible = self.M >= 1 and (T - self.a + 1) * self.M >= self.W

    def _shift_index(self) -> np.ndarray:
        if getattr(self, "_shift", None) is None:
            n = np.arange(self.M + 1)[:, None]
            self._shift = np.maximum(np.arange(self.W + 1)[None, :] - n, 0)
        return self._shift

    @staticmethod
    def _fill(unit: np.ndarray, cap: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray]:
        order = np.argsort(unit, kind="stable")
        seq = np.repeat(order, cap[order])[:limit]
        return seq, np.concatenate(([0.0], np.cumsum(unit[seq])))

    def price(self, p: np.ndarray, q: np.ndarray) -> PricingResult:
        """The best schedule of (27) under prices ``p`` (T, H, R), ``q`` (T, K, R) on an empty cluster."""
        a, T, M, W = self.a, self.inst.horizon, self.M, self.W
        self._last = None
        if not self.feasible:
            return PricingResult(None, -math.inf, 0.0, math.inf)
        S = T - a + 1
        cw = p[a - 1:] @ self.w  # (S, H)
        cz = q[a - 1:] @ self.s  # (S, K)
        cost = np.empty((S, M + 1))
        fills = []
        for j in range(S):
            seq_w, cum_w = self._fill(cw[j], self.ymax, M)
            seq_z, cum_z = self._fill(cz[j], self.zmax, int(self.z_need[M]))
            cost[j] = cum_w[: M + 1] + cum_z[self.z_need[: M + 1]]
            fills.append((seq_w, seq_z))
        # F[d]: least cost of >= d worker-slots so far (d capped at W); choice[j, d]: workers in slot j
        F = np.full(W + 1, np.inf)
        F[0] = 0.0
        choice = np.zeros((S, W + 1), dtype=np.int32)
        end_cost = np.full(S, np.inf)
        end_n = np.zeros(S, dtype=np.int64)
        shift = self._shift_index()  # (M + 1, W + 1): max(d - n, 0)
        for j in range(S):
            # completion in slot j: n >= 1 workers now, F_prev covers the rest
            rest = F[shift[1:, W]] + cost[j, 1:]
            k = int(np.argmin(rest))
            end_cost[j], end_n[j] = rest[k], k + 1
            G = F[shift] + cost[j][:, None]  # G[n, d]: n workers in slot j, F_prev covers d - n
            ch = np.argmin(G, axis=0)  # first minimum: the fewest workers on ties
            F = G[ch, np.arange(W + 1)]
            choice[j] = ch
        payoff = self.f[:S] - end_cost
        if not np.isfinite(payoff).any():
            return PricingResult(None, -math.inf, 0.0, math.inf)
        self._last = (p, q, fills, choice, end_n, payoff)
        return self._schedule(int(np.argmax(payoff)))

    def end_slot_payoffs(self) -> np.ndarray:
        """Best payoff per completion slot a_i..T of the last :meth:`price` call (-inf: none)."""
        return np.zeros(0) if self._last is None else self._last[-1]

    def _schedule(self, jb: int) -> PricingResult:
        """The cheapest schedule completing in slot a_i + jb, from the last :meth:`price` call's tables."""
        if self._last is None:  # pragma: no cover - called after price() found a schedule
            raise ArgumentError("no pricing yet: call price() first")
        p, q, fills, choice, end_n, payoff = self._last
        inst, a, T, W = self.inst, self.a, self.inst.horizon, self.W
        H, K = inst.n_worker_servers, inst.n_ps_servers
        y = np.zeros((H, T), dtype=np.int64)
        z = np.zeros((K, T), dtype=np.int64)

        def put(j: int, n: int) -> None:
            seq_w, seq_z = fills[j]
            y[:, a - 1 + j] = np.bincount(seq_w[:n], minlength=H)
            z[:, a - 1 + j] = np.bincount(seq_z[: int(self.z_need[n])], minlength=K)

        n_end = int(end_n[jb])
        put(jb, n_end)
        d = max(W - n_end, 0)
        for j in range(jb - 1, -1, -1):
            if d == 0:
                break
            n = int(choice[j, d])  # workers in slot j of the cheapest cover of d worker-slots by slot j
            if n:
                put(j, n)
            d = max(d - n, 0)
        sched = JobSchedule(self.i, y, z)
        util = float(self.f[jb])
        c = float(np.einsum("thr,r,ht->", p, self.w, y) + np.einsum("tkr,r,kt->", q, self.s, z))
        return PricingResult(sched, util - c, util, c)

    def schedules(self, min_payoff: float) -> list[PricingResult]:
        """Of the last :meth:`price` call: the cheapest schedule of every completion slot paying more than ``min_payoff``.

        Sorted best first.
        """
        if self._last is None:
            return []
        payoff = self._last[-1]
        order = np.argsort(-payoff, kind="stable")
        return [self._schedule(int(j)) for j in order if np.isfinite(payoff[j]) and payoff[j] > min_payoff]
