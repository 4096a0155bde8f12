"""Column generation for the LP relaxation of (14) with an in-place master, exact DP pricing
and Wentges dual smoothing: the default engine of :func:`~hetopt.oasis.colgen.lp_bound`.

Each round solves the restricted master (:class:`~hetopt.oasis.master.Master`), then prices
every job exactly (:class:`~hetopt.oasis.pricing.JobPricer`, problem (27) on an empty cluster)
at the separation point ``pi_s = alpha pi_c + (1 - alpha) pi_m`` between the stability centre
``pi_c`` (the prices with the best bound so far) and the master's duals ``pi_m``.  For any
prices p, q >= 0 the Lagrangian value

    sum_i max(0, max_l (f_il - cost_l(p, q))) + sum_{t,h,r} c_h^r p_h^r(t) + sum_{t,k,r} c_k^r q_k^r(t)

is the objective (19) of a feasible dual solution of the full LP (mu_i set to job i's best
reduced payoff), hence an upper bound on the LP relaxation of (14) and on OPT.  Pricing being
exact (up to the slack documented in :mod:`~hetopt.oasis.pricing`, which only relaxes (27)),
every round's bound is certified; the smallest is kept.  Columns enter when their reduced
payoff at the master's duals exceeds mu_i; when smoothing finds none (mispricing) the round
prices at ``pi_m`` itself, and a round at ``pi_m`` that finds none proves the master optimal
for the full LP (converged: bound = LP value up to the tolerance).

The bound starts at L(0, 0) (the trivial sum_i max_t f_i), so it is never worse than that.  The
compact LP's duals are the first centre only when that LP finished.  After each round a few
projected subgradient steps on L (:class:`~hetopt.oasis.lagrange.SubgradientSearch`, resumed
round to round, limited to the round's own time) may move the centre; each is a certified bound.

References
----------
P. Wentges, "Weighted Dantzig-Wolfe decomposition for linear mixed-integer programming",
Int. Trans. Oper. Res. 4 (1997) 151-162 (dual smoothing); Bao et al. 2018, Section IV-A.
"""

from __future__ import annotations

import logging
import time

import numpy as np

from ..errors import ArgumentError
from ..inputs import check_positive
from ..result import Status, relative_gap
from .arrays import compact_lp_duals
from .bound import PRICING_TOL, LPBound
from .instance import OasisInstance
from .lagrange import SubgradientSearch, lagrangian
from .master import Master
from .oracle import schedules_by_end
from .prices import Prices, Usage
from .pricing import JobPricer

__all__ = ["lp_bound_arrays"]

log = logging.getLogger(__name__)
#: Relative gap between the bound and the master LP at which column generation stops (converged).
CONVERGED_RTOL = 1e-7


def _cap_term(inst: OasisInstance, p: np.ndarray, q: np.ndarray) -> float:
    return float(np.einsum("thr,hr->", p, inst.worker_capacity) + np.einsum("tkr,kr->", q, inst.ps_capacity))


def lp_bound_arrays(inst: OasisInstance, *, max_iterations: int = 40, time_limit: float | None = 60.0,
                    threads: int = 1, smoothing: float = 0.5, compact: bool = True,
                    columns_per_job: int = 5, subgradient_iterations: int = 20) -> LPBound:
    """See :func:`~hetopt.oasis.colgen.lp_bound` (``engine="arrays"``)."""
    smoothing = check_positive(smoothing, "smoothing", allow_zero=True)
    if not smoothing < 1.0:
        raise ArgumentError(f"smoothing is {smoothing!r}; expected a weight in [0, 1)")
    start = time.perf_counter()
    I = inst.n_jobs
    pricers = [JobPricer(inst, i) for i in range(I)]
    master = Master(inst, threads=threads)
    zero = Prices.zeros(inst)
    empty = Usage.empty(inst)
    for i in range(I):  # initial columns: Alg. 2's schedule for every end slot at zero prices, and (27)'s
        for res in schedules_by_end(inst, i, zero, empty):
            master.add(res.schedule)
        r = pricers[i].price(zero.p, zero.q)
        if r.schedule is not None:
            master.add(r.schedule)
    # L at zero prices (sum_i max_t f_i): the trivial bound, so the result is never worse than it
    best_pt = lagrangian(inst, pricers, zero.p, zero.q)
    sg = None
    best, centre = best_pt.value, None  # no smoothing centre until a better point than zero exists
    it, converged, lp_value, history = 0, False, 0.0, []
    comp = float("inf")
    if compact:  # the compact LP's capacity duals: the first stability centre (and its columns)
        comp, pc, qc = compact_lp_duals(inst, threads=threads,
                                        time_limit=None if time_limit is None else 0.6 * time_limit)
        payoff_sum = 0.0
        for i in range(I):
            r = pricers[i].price(pc, qc)
            payoff_sum += max(0.0, r.payoff)
            for c in pricers[i].schedules(0.0)[:columns_per_job]:
                master.add(c.schedule)
        value = payoff_sum + _cap_term(inst, pc, qc)
        if np.isfinite(comp) and value < best:  # duals of an unfinished LP are no centre
            best, centre = value, (pc, qc)
            best_pt = lagrangian(inst, pricers, pc, qc)
        history.append((0, 0.0, value, 1.0, sum(len(x) for x in master._keys)))
    while True:
        round_start = time.perf_counter()
        lp_value, mu, p, q = master.solve()
        it += 1
        master_secs = time.perf_counter() - round_start
        # stop when the next master solve (about as long as this one) would end past the limit
        stop = it >= max_iterations or (time_limit is not None
                                        and time.perf_counter() - start + master_secs >= time_limit)
        alpha = smoothing if centre is not None else 0.0
        for attempt in (0, 1):
            if attempt == 1:
                if alpha == 0.0:
                    break
                alpha = 0.0  # mispricing: price at the master's duals
            ps = p if alpha == 0.0 else alpha * centre[0] + (1 - alpha) * p
            qs = q if alpha == 0.0 else alpha * centre[1] + (1 - alpha) * q
            payoff_sum, added = 0.0, 0
            for i in range(I):
                r = pricers[i].price(ps, qs)
                payoff_sum += max(0.0, r.payoff)
                if r.schedule is None:
                    continue
                for c in pricers[i].schedules(mu[i] + PRICING_TOL if alpha == 0.0 else 0.0)[:columns_per_job]:
                    if alpha == 0.0:
                        red = c.payoff
                    else:  # reduced payoff at the master's duals
                        red = c.utility - float(np.einsum("thr,r,ht->", p, inst.worker_demand[i], c.schedule.workers)
                                                + np.einsum("tkr,r,kt->", q, inst.ps_demand[i], c.schedule.ps))
                    if red > mu[i] + PRICING_TOL and master.add(c.schedule):
                        added += 1
            value = payoff_sum + _cap_term(inst, ps, qs)
            if value < best:
                best, centre = value, (ps, qs)
                best_pt = None
            history.append((it, lp_value, value, alpha, added))
            if added or alpha == 0.0:
                break
        if subgradient_iterations > 0 and not stop:
            # subgradient steps on L, resumed each round from the best point (each point a certified bound)
            if best_pt is None:
                best_pt = lagrangian(inst, pricers, *centre)
            if sg is None:
                sg = SubgradientSearch(inst, pricers, best_pt, patience=10)
            sg.restart(best_pt)
            # at most as long as this round's master solve and pricing took (cheap masters, few steps)
            left = time.perf_counter() - round_start
            if time_limit is not None:
                left = min(left, max(0.0, time_limit - (time.perf_counter() - start) - master_secs))
            pt = sg.run(target=lp_value, iterations=subgradient_iterations, time_limit=left)
            if pt.value < best:
                best, centre, best_pt = pt.value, (pt.p, pt.q), pt
                history.append((it, lp_value, pt.value, -1.0, 0))
        if added == 0 or relative_gap(lp_value, best) is not None and relative_gap(lp_value, best) <= CONVERGED_RTOL:
            converged = True
            break
        if stop:
            break
    colgen_bound = max(best, lp_value)  # equal up to round-off when converged (weak duality)
    bound = min(colgen_bound, comp)
    log.info("lp_bound(arrays): %d master solves, LP %.6g, column-generation bound %.6g, compact LP %.6g",
             it, lp_value, best, comp)
    cols: dict[int, list] = {}
    for i, s, _ in master.columns:
        cols.setdefault(i, []).append(s)
    return LPBound(colgen_bound=colgen_bound, compact_bound=comp, status=Status.OPTIMAL if converged else Status.FEASIBLE,
                   objective=lp_value, bound=bound, gap=relative_gap(lp_value, bound),
                   wall_time=time.perf_counter() - start, solver="colgen-arrays", sense="max",
                   message="converged" if converged else "stopped; bound from the best priced dual point",
                   lp_value=lp_value, iterations=it, converged=converged, columns=cols,
                   history=history)
