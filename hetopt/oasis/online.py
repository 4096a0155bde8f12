"""OASiS, the online primal-dual algorithm (Alg. 1) with the price functions (22)-(26), as a policy of the slotted simulator.

On the arrival of job i (in order of arrival slot, then index), the oracle (Alg. 2,
:func:`~hetopt.oasis.oracle.best_schedule`) finds the schedule maximizing utility minus the
resources priced at the current p, q; the job is admitted iff that payoff mu_i is > 0, its
allocation is added to g, v and the prices of the touched (t, server, r) are updated by (22).
:class:`OasisPolicy` makes these decisions inside :func:`~hetopt.oasis.simulator.simulate`
(``simulate(inst, "oasis")``): an admitted job's schedule is reserved on its arrival
(:meth:`~hetopt.oasis.cluster.Cluster.reserve`) and runs as decided.

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Section IV-B, Alg. 1.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import ArgumentError
from ..inputs import check_flag, check_positive, takes_instance
from .cluster import Cluster
from .instance import OasisInstance
from .oracle import OracleResult, best_schedule
from .prices import PriceBounds, Prices, Usage, alpha, cap_bounds, estimated_bounds, price_bounds, prices_from_usage

__all__ = ["OasisPolicy", "arrival_order", "PRICE_DTYPES"]

#: Float types the prices may take (``np.longdouble``: extended precision).
PRICE_DTYPES = (float, np.float64, np.longdouble)


@takes_instance(OasisInstance)
def arrival_order(inst: OasisInstance) -> list[int]:
    """Jobs in order of arrival slot, ties by index (the order in which Alg. 1 decides them)."""
    return sorted(range(inst.n_jobs), key=lambda i: (int(inst.arrival[i]), i))


def _bounds(inst: OasisInstance, estimates: PriceBounds | float | None, log_ratio_cap: float | None) -> PriceBounds:
    if estimates is None:
        bounds = price_bounds(inst)
    elif isinstance(estimates, PriceBounds):
        bounds = estimates
    elif isinstance(estimates, (int, float, np.integer, np.floating)) and not isinstance(estimates, (bool, np.bool_)):
        bounds = estimated_bounds(inst, check_positive(estimates, "estimates"))
    else:
        raise ArgumentError(f"estimates is {estimates!r}; expected None, a PriceBounds or a positive number rho")
    return cap_bounds(bounds, log_ratio_cap)


class OasisPolicy:
    """OASiS (Alg. 1): on each arrival, admit the job iff the oracle's payoff mu_i > 0 and reserve its schedule.

    Parameters
    ----------
    inst : OasisInstance
        The instance the policy runs on.
    estimates : PriceBounds or float, optional
        The U_1^r, U_2^r, L_1, L_2 of the price functions: None for the exact values
        (23)-(26) computed from all jobs, a float ``rho`` for estimates whose ratios U/L
        are ``rho`` times the true ones (Fig. 6), or explicit :class:`PriceBounds`.
    oracle : callable, optional
        The subroutine of line 5 (default Alg. 2, :func:`~hetopt.oasis.oracle.best_schedule`);
        e.g. :func:`~hetopt.oasis.oracle.best_schedule_ilp` to run Alg. 1 with problem (27).
    record_prices : bool
        Keep the prices seen by every job in ``info["prices"]`` (for plots).
    log_ratio_cap : float, optional
        Cap every ln(U/L) of the bounds at this value (:func:`~hetopt.oasis.prices.cap_bounds`);
        None (default) is the literal (25)-(26).  With the Section V-A utilities the literal
        ln(U/L) is ~1,600 at T = 300 and prices stay negligible until a server is ~99% full.
    price_dtype : type
        Float type of the prices: ``float`` (default), ``np.float64`` or ``np.longdouble``.

    Notes
    -----
    :meth:`report` gives the solution its ``payoffs`` (mu_i of every job, -inf when it has no
    feasible schedule; admitted iff > 0) and ``info``: ``bounds`` (the price bounds used),
    ``alpha`` (Theorem 4's alpha of the exact bounds), ``alpha_used`` (of the bounds used),
    ``decision_time`` (seconds per job), ``usage`` (the final g, v) and, with
    ``record_prices``, ``prices`` (the prices each job saw).
    """

    name = "oasis"

    def __init__(self, inst: OasisInstance, estimates: PriceBounds | float | None = None, *,
                 oracle: Callable[..., OracleResult] = best_schedule, record_prices: bool = False,
                 log_ratio_cap: float | None = None, price_dtype: Any = float) -> None:
        if not any(price_dtype is d for d in PRICE_DTYPES):
            raise ArgumentError(f"price_dtype is {price_dtype!r}; expected float, np.float64 or np.longdouble")
        if not callable(oracle):
            raise ArgumentError(f"oracle is {oracle!r}; expected a function (inst, job, prices, used) -> OracleResult")
        self.inst = inst
        self.oracle = oracle
        self.record_prices = check_flag(record_prices, "record_prices")
        self.price_dtype = price_dtype
        self.bounds = _bounds(inst, estimates, log_ratio_cap)
        self.used = Usage.empty(inst)
        self.payoffs: dict[int, float] = {}
        self.decision_time: dict[int, float] = {}
        self.seen: dict[int, Prices] = {}
        self.admitted: list[int] = []
        #: perf_counter time after which arrivals are rejected undecided (the exact routes' incumbent under a
        #: time limit: the schedules admitted so far stay feasible); None: decide every job
        self.deadline: float | None = None
        self.undecided: list[int] = []
        self._prices: Prices | None = None  # the prices of the current usage

    def __call__(self, cl: Cluster, t: int, arrived: list[int], completed: list[int]) -> None:
        """Decide every arriving job (lines 3-13 of Alg. 1); completions change nothing."""
        inst = self.inst
        for i in sorted(arrived, key=lambda j: (int(inst.arrival[j]), j)):
            t0 = time.perf_counter()
            if self.deadline is not None and t0 >= self.deadline:
                self.undecided.append(i)
                continue
            if self._prices is None:  # p = P(g), q = Q(v): lines 3, 10, 12 (g, v change only when a job is admitted)
                self._prices = prices_from_usage(inst, self.bounds, self.used, self.price_dtype)
            prices = self._prices
            res = self.oracle(inst, i, prices, self.used)  # line 5
            self.payoffs[i] = float(res.payoff) if res.schedule is not None else float("-inf")
            if self.record_prices:
                self.seen[i] = prices
            if res.schedule is not None and res.payoff > 0:  # line 6
                cl.reserve(i, res.schedule.workers, res.schedule.ps)  # lines 7-8, 13
                self.used.add(inst, i, res.schedule.workers, res.schedule.ps)  # lines 9, 11
                self._prices = None
                self.admitted.append(i)
            self.decision_time[i] = time.perf_counter() - t0

    def report(self) -> dict[str, Any]:
        """``payoffs``, ``info`` (see the class notes) and a message for the simulator's solution."""
        info: dict[str, Any] = {"bounds": self.bounds, "alpha": alpha(self.inst), "alpha_used": alpha(self.inst, self.bounds),
                                "decision_time": self.decision_time, "usage": self.used}
        if self.record_prices:
            info["prices"] = self.seen
        if self.undecided:
            info["undecided"] = list(self.undecided)
        return {"payoffs": dict(self.payoffs), "info": info,
                "message": f"admitted {len(self.admitted)} of {self.inst.n_jobs} jobs"}
