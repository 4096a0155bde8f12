"""OASiS, the online primal-dual algorithm (Alg. 1) with the price functions (22)-(26).

On the arrival of job i (in order of arrival slot, then index), the oracle (Alg. 2,
:func:`~hetopt.oasis.oracle.best_schedule`) finds the schedule maximizing utility minus the
resources priced at the current p, q; the job is admitted iff that payoff mu_i is > 0, its
allocation is added to g, v and the prices of the touched (t, server, r) are updated by (22).

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Section IV-B, Alg. 1.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ..result import Status
from .instance import OasisInstance
from .oracle import OracleResult, best_schedule
from .prices import PriceBounds, Usage, alpha, cap_bounds, estimated_bounds, price_bounds, prices_from_usage
from .schedule import OasisSolution, make_solution

__all__ = ["online", "arrival_order"]


def arrival_order(inst: OasisInstance) -> list[int]:
    """Jobs in order of arrival slot, ties by index."""
    return sorted(range(inst.n_jobs), key=lambda i: (int(inst.arrival[i]), i))


def online(inst: OasisInstance, estimates: PriceBounds | float | None = None, *,
           oracle: Callable[..., OracleResult] = best_schedule, record_prices: bool = False,
           log_ratio_cap: float | None = None, price_dtype=float) -> OasisSolution:
    """Run OASiS (Alg. 1) on the instance's jobs in arrival order.

    Parameters
    ----------
    inst : OasisInstance
    estimates : PriceBounds or float, optional
        The U_1^r, U_2^r, L_1, L_2 of the price functions: None for the exact values
        (23)-(26) computed from all jobs, a float ``rho`` for estimates whose ratios U/L
        are ``rho`` times the true ones (Fig. 6), or explicit :class:`PriceBounds`.
    oracle : callable, optional
        The subroutine of line 5 (default Alg. 2, :func:`best_schedule`); e.g.
        :func:`~hetopt.oasis.oracle.best_schedule_ilp` to run Alg. 1 with problem (27).
    record_prices : bool
        Keep the prices seen by every job in ``info["prices"]`` (for plots).
    log_ratio_cap : float, optional
        Cap every ln(U/L) of the bounds at this value (:func:`~hetopt.oasis.prices.cap_bounds`);
        None (default) is the literal (25)-(26).  With the Section V-A utilities the literal
        ln(U/L) is ~1,600 at T = 300 and prices stay negligible until a server is ~99% full.
    price_dtype : type
        Float type of the prices: ``float`` (default) or ``np.longdouble``.

    Returns
    -------
    OasisSolution
        status FEASIBLE, no bound; ``payoffs[i]`` = mu_i of every job (admitted iff > 0),
        ``timeliness[i]`` = completion offset minus gamma3 for admitted jobs,
        ``info["bounds"]`` the price bounds used, ``info["alpha"]`` Theorem 4's alpha,
        ``info["decision_time"]`` seconds per job.
    """
    from ..inputs import check_instance

    check_instance(inst, OasisInstance, "inst")
    start = time.perf_counter()
    if price_dtype not in (float, np.float64, np.longdouble):
        raise ValueError(f"price_dtype is {price_dtype!r}; expected float, np.float64 or np.longdouble")
    if estimates is None:
        bounds = price_bounds(inst)
    elif isinstance(estimates, PriceBounds):
        bounds = estimates
    else:
        bounds = estimated_bounds(inst, float(estimates))
    bounds = cap_bounds(bounds, log_ratio_cap)
    used = Usage.empty(inst)
    schedules, payoffs, decision_time, seen = {}, {}, {}, {}
    for i in arrival_order(inst):
        t0 = time.perf_counter()
        prices = prices_from_usage(inst, bounds, used, price_dtype)  # p = P(g), q = Q(v): lines 3, 10, 12
        res = oracle(inst, i, prices, used)  # line 5
        payoffs[i] = float(res.payoff) if res.schedule is not None else float("-inf")
        if record_prices:
            seen[i] = prices
        if res.schedule is not None and res.payoff > 0:  # line 6
            schedules[i] = res.schedule  # lines 7-8, 13
            used.add(inst, i, res.schedule.workers, res.schedule.ps)  # lines 9, 11
        decision_time[i] = time.perf_counter() - t0
    info = {"bounds": bounds, "alpha": alpha(inst), "alpha_used": alpha(inst, bounds), "decision_time": decision_time, "usage": used}
    if record_prices:
        info["prices"] = seen
    return make_solution(inst, schedules, status=Status.FEASIBLE, wall_time=time.perf_counter() - start,
                         solver="oasis", message=f"admitted {len(schedules)} of {inst.n_jobs} jobs",
                         payoffs=payoffs, info=info)
