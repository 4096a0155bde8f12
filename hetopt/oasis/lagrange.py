"""Lagrangian bounds of the LP relaxation of (14) at arbitrary prices, and a subgradient search.

For any prices p (T, H, R) >= 0 and q (T, K, R) >= 0 the Lagrangian value

    L(p, q) = sum_i max(0, max_l (f_il - cost_l(p, q))) + sum_{t,h,r} c_h^r p_h^r(t) + sum_{t,k,r} c_k^r q_k^r(t)

is the objective (19) of a feasible dual solution of the LP relaxation of (14) (mu_i = job i's
best reduced payoff, clipped at 0), hence an upper bound on that LP and on the offline optimum.
With exact pricing (:class:`~hetopt.oasis.pricing.JobPricer`, problem (27)) every evaluated point
is therefore a certified bound, whatever the way the prices were chosen.  Pricing all jobs is
cheap (a DP per job, no LP), so a projected subgradient search on L is affordable between
master solves; a subgradient of L at (p, q) is ``capacity - usage of every job's best schedule``
(jobs with a positive payoff only).

References
----------
B. T. Polyak, "Minimization of unsmooth functionals", USSR Comput. Math. Math. Phys. 9 (1969)
14-29 (the step size); M. Held, P. Wolfe, H. P. Crowder, "Validation of subgradient
optimization", Math. Programming 6 (1974) 62-88.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..errors import ArgumentError
from .instance import OasisInstance
from .pricing import JobPricer

__all__ = ["LagrangianPoint", "SubgradientSearch", "lagrangian", "subgradient_search"]


@dataclass(frozen=True, eq=False)
class LagrangianPoint:
    """L at prices ``p``, ``q``: ``value`` (a certified upper bound), a subgradient ``gp``, ``gq``."""

    value: float
    p: np.ndarray
    q: np.ndarray
    gp: np.ndarray
    gq: np.ndarray


def lagrangian(inst: OasisInstance, pricers: list[JobPricer], p: np.ndarray, q: np.ndarray) -> LagrangianPoint:
    """Evaluate L(p, q) by exact pricing of every job; ``p``, ``q`` must be >= 0.

    Raises
    ------
    ArgumentError
        When a price is negative (L is a bound only for prices >= 0).
    """
    if (p < 0).any() or (q < 0).any():
        raise ArgumentError("prices p, q must be >= 0 for the Lagrangian value to bound the LP")
    gp = np.array(np.broadcast_to(inst.worker_capacity, p.shape), dtype=float)
    gq = np.array(np.broadcast_to(inst.ps_capacity, q.shape), dtype=float)
    total = float(np.einsum("thr,thr->", p, gp) + np.einsum("tkr,tkr->", q, gq))
    for pr in pricers:
        r = pr.price(p, q)
        if r.schedule is None or r.payoff <= 0.0:
            continue
        total += r.payoff
        i = pr.i
        gp -= np.einsum("ht,r->thr", r.schedule.workers.astype(float), inst.worker_demand[i])
        gq -= np.einsum("kt,r->tkr", r.schedule.ps.astype(float), inst.ps_demand[i])
    return LagrangianPoint(total, p, q, gp, gq)


class SubgradientSearch:
    """Projected subgradient descent on L, resumable: :meth:`run` continues where it stopped.

    Polyak's step ``step * (L - target) / ||g||^2`` with ``target`` a value L cannot go below
    (e.g. the restricted master's LP value, a lower bound on min L); ``step`` is halved after
    ``patience`` iterations without improvement (then restarting from the best point).  Every
    evaluated point is a valid bound, so ``best`` is valid whatever the number of iterations.
    """

    def __init__(self, inst: OasisInstance, pricers: list[JobPricer], start: LagrangianPoint, *, step: float = 1.0,
                 patience: int = 5) -> None:
        self.inst, self.pricers = inst, pricers
        self.best = self.cur = start
        self.step, self.patience, self.stall, self.evaluations = step, patience, 0, 0

    def restart(self, point: LagrangianPoint) -> None:
        """Continue from ``point`` (when another method found a better one)."""
        if point.value < self.best.value:
            self.best = self.cur = point
            self.stall = 0

    def run(self, *, target: float, iterations: int, time_limit: float | None = None) -> LagrangianPoint:
        """Up to ``iterations`` steps (or ``time_limit`` seconds); returns the best point so far."""
        t0 = time.perf_counter()
        for _ in range(iterations):
            if time_limit is not None and time.perf_counter() - t0 >= time_limit:
                break
            cur = self.cur
            g2 = float(np.sum(cur.gp ** 2) + np.sum(cur.gq ** 2))
            gap = cur.value - target
            if g2 <= 0.0 or gap <= 0.0 or self.step < 1e-6:
                break
            s = self.step * gap / g2
            self.cur = lagrangian(self.inst, self.pricers, np.maximum(cur.p - s * cur.gp, 0.0),
                                  np.maximum(cur.q - s * cur.gq, 0.0))
            self.evaluations += 1
            if self.cur.value < self.best.value - 1e-9 * abs(self.best.value):
                self.best, self.stall = self.cur, 0
            else:
                self.stall += 1
                if self.stall >= self.patience:
                    self.step, self.stall, self.cur = self.step / 2, 0, self.best
        return self.best


def subgradient_search(inst: OasisInstance, pricers: list[JobPricer], start: LagrangianPoint, *, target: float,
                       iterations: int = 50, time_limit: float | None = None, step: float = 1.0) -> LagrangianPoint:
    """:class:`SubgradientSearch` from ``start`` for ``iterations`` steps; the best point seen."""
    return SubgradientSearch(inst, pricers, start, step=step).run(target=target, iterations=iterations,
                                                                  time_limit=time_limit)
