"""Column generation for the LP relaxation of (14): the default engine of :func:`~hetopt.oasis.colgen.lp_bound`.

An in-place master, exact DP pricing and Wentges dual smoothing.

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

from ..certify import Status, relative_gap
from ..errors import ArgumentError, SolverError
from ..inputs import check_positive
from .arrays import compact_lp_duals
from .bound import PRICING_TOL, LPBound
from .capacity import standalone
from .instance import OasisInstance
from .lagrange import LagrangianPoint, SubgradientSearch, lagrangian
from .master import Master
from .offline import model_size
from .oracle import schedules_by_end
from .plan import Clock
from .prices import Prices, Usage
from .pricing import JobPricer
from .schedule import JobSchedule

__all__ = ["lp_bound_arrays"]

log = logging.getLogger(__name__)
#: Relative gap between the bound and the master LP at which column generation stops (converged).
CONVERGED_RTOL = 1e-7
#: Seconds per nonzero to build the compact LP's arrays (measured 0.3 us; with margin).
_COMPACT_BUILD_SECONDS = 0.6e-6


def _cap_term(inst: OasisInstance, p: np.ndarray, q: np.ndarray) -> float:
    return float(np.einsum("thr,hr->", p, inst.worker_capacity) + np.einsum("tkr,kr->", q, inst.ps_capacity))


def _initial_columns(inst: OasisInstance, master: Master, pricers: list[JobPricer], zero: Prices, clock: Clock) -> bool:
    """Alg. 2's schedule for every end slot at zero prices, and (27)'s, for every job; False when the deadline cut it short."""
    empty = Usage.empty(inst)
    for i in range(inst.n_jobs):
        if clock.expired():
            return False
        for res in schedules_by_end(inst, i, zero, empty):
            if res.schedule is not None:
                master.add(res.schedule)
        if clock.expired():
            return False
        r = pricers[i].price(zero.p, zero.q)
        if r.schedule is not None:
            master.add(r.schedule)
    return True


def _price_round(inst: OasisInstance, master: Master, pricers: list[JobPricer], duals: tuple[np.ndarray, np.ndarray],
                 at: tuple[np.ndarray, np.ndarray], mu: np.ndarray, smoothed: bool,
                 columns_per_job: int, clock: Clock) -> tuple[float | None, int]:
    """Price every job at ``at`` and add the columns whose reduced payoff at the master's ``duals`` exceeds mu_i.

    Returns the Lagrangian value at ``at`` (a certified bound; None when the deadline stopped the
    round before every job was priced) and the number of columns added.
    """
    p, q = duals
    payoff_sum, added = 0.0, 0
    for i in range(inst.n_jobs):
        if clock.expired():
            return None, added
        r = pricers[i].price(*at)
        payoff_sum += max(0.0, r.payoff)
        if r.schedule is None:
            continue
        for c in pricers[i].schedules(0.0 if smoothed else mu[i] + PRICING_TOL)[:columns_per_job]:
            if c.schedule is None:
                continue
            if not smoothed:
                red = c.payoff
            else:  # reduced payoff at the master's duals
                red = c.utility - float(np.einsum("thr,r,ht->", p, inst.worker_demand[i], c.schedule.workers)
                                        + np.einsum("tkr,r,kt->", q, inst.ps_demand[i], c.schedule.ps))
            if red > mu[i] + PRICING_TOL and master.add(c.schedule):
                added += 1
    return payoff_sum + _cap_term(inst, *at), added


def _compact_start(inst: OasisInstance, master: Master, pricers: list[JobPricer], *, threads: int | None,
                   time_limit: float | None, columns_per_job: int,
                   clock: Clock) -> tuple[float, float, tuple[np.ndarray, np.ndarray]]:
    """The compact LP's value and capacity duals, their Lagrangian value (inf if the deadline cut the pricing), and their columns."""
    comp, pc, qc = compact_lp_duals(inst, threads=threads, time_limit=time_limit)
    payoff_sum = 0.0
    for i in range(inst.n_jobs):
        if clock.expired():
            return comp, float("inf"), (pc, qc)
        r = pricers[i].price(pc, qc)
        payoff_sum += max(0.0, r.payoff)
        for c in pricers[i].schedules(0.0)[:columns_per_job]:
            if c.schedule is not None:
                master.add(c.schedule)
    return comp, payoff_sum + _cap_term(inst, pc, qc), (pc, qc)


def lp_bound_arrays(inst: OasisInstance, *, max_iterations: int = 40, time_limit: float | None = 60.0,
                    threads: int | None = 1, smoothing: float = 0.5, compact: bool = True,
                    columns_per_job: int = 5, subgradient_iterations: int = 20, clock: Clock | None = None,
                    trivial: float | None = None) -> LPBound:
    """Column generation for the LP relaxation of (14): :func:`~hetopt.oasis.colgen.lp_bound` with ``engine="arrays"``.

    The parameters are those of :func:`~hetopt.oasis.colgen.lp_bound` (checked there), and
    ``columns_per_job``: the most columns a job adds per round; ``clock``: the caller's deadline;
    ``trivial``: sum_i f_i(earliest_i), the Lagrangian at zero prices, the bound before any step.

    Returns
    -------
    LPBound
    """
    smoothing = check_positive(smoothing, "smoothing", allow_zero=True)
    if not smoothing < 1.0:
        raise ArgumentError(f"smoothing is {smoothing!r}; expected a weight in [0, 1)")
    clock = clock or Clock(time.perf_counter(), time_limit)
    start = clock.start
    info: dict[str, object] = {}
    best = standalone(inst).bound if trivial is None else trivial
    zero = Prices.zeros(inst)
    centre = (zero.p, zero.q)
    it, converged, lp_value = 0, False, 0.0
    history: list[tuple[int, float, float, float, int]] = []
    comp = float("inf")
    cols: dict[int, list[JobSchedule]] = {}

    def result() -> LPBound:
        colgen_bound = max(best, lp_value)  # equal up to round-off when converged (weak duality)
        bound = min(colgen_bound, comp)
        log.info("lp_bound(arrays): %d master solves, LP %.6g, column-generation bound %.6g, compact LP %.6g",
                 it, lp_value, best, comp)
        return LPBound(colgen_bound=colgen_bound, compact_bound=comp, status=Status.OPTIMAL if converged else Status.FEASIBLE,
                       objective=lp_value, bound=bound, gap=relative_gap(lp_value, bound),
                       wall_time=time.perf_counter() - start, solver="colgen-arrays", sense="max",
                       message="converged" if converged else "stopped; bound from the best priced dual point",
                       lp_value=lp_value, iterations=it, converged=converged, columns=cols, history=history, info=info)

    pricers: list[JobPricer] = []
    for i in range(inst.n_jobs):
        if clock.expired():
            info["stopped"] = f"time limit while preparing the pricing of job {i}"
            return result()
        pricers.append(JobPricer(inst, i))
    master = Master(inst, threads=threads)
    if not _initial_columns(inst, master, pricers, zero, clock):
        info["stopped"] = "time limit while generating the first columns"
        return result()
    best_pt: LagrangianPoint | None = None  # the point of ``best`` (computed when the subgradient search needs it)
    stale = True
    sg: SubgradientSearch | None = None
    has_centre = False  # no smoothing centre until a better point than zero exists
    if compact:  # the compact LP's capacity duals: the first stability centre (and its columns)
        build = _COMPACT_BUILD_SECONDS * model_size(inst, "arrays")["nonzeros"]
        left = clock.left()
        if left is not None and build > 0.3 * left:
            info["compact_skipped"] = f"building the compact LP takes about {build:.2g} s of the {left:.2g} s left"
        else:
            comp, value, (pc, qc) = _compact_start(inst, master, pricers, threads=threads,
                                                   time_limit=clock.solve_time(0.6, reserve=build),
                                                   columns_per_job=columns_per_job, clock=clock)
            if np.isfinite(comp) and value < best:  # duals of an unfinished LP are no centre
                best, centre, has_centre, stale = value, (pc, qc), True, True
            history.append((0, 0.0, value, 1.0, sum(len(x) for x in master._keys)))
    while not clock.expired():
        round_start = time.perf_counter()
        try:
            lp_value, mu, p, q = master.solve()
        except SolverError as exc:
            info["fallback"] = f"{exc}; the best certified bound so far is reported"
            lp_value = 0.0
            break
        it += 1
        master_secs = time.perf_counter() - round_start
        # stop when the next master solve (about as long as this one) would end past the limit
        left = clock.left()
        stop = it >= max_iterations or (left is not None and master_secs >= left)
        alpha = smoothing if has_centre else 0.0
        added, complete = 0, True
        for attempt in (0, 1):
            if attempt == 1:
                if alpha == 0.0:
                    break
                alpha = 0.0  # mispricing: price at the master's duals
            if alpha == 0.0:
                ps, qs = p, q
            else:
                ps, qs = alpha * centre[0] + (1 - alpha) * p, alpha * centre[1] + (1 - alpha) * q
            priced, added = _price_round(inst, master, pricers, (p, q), (ps, qs), mu, alpha != 0.0, columns_per_job,
                                         clock)
            if priced is None:  # the deadline passed mid-round: no certified value
                stop, complete = True, False
                break
            value = priced
            if value < best:
                best, centre, has_centre = value, (ps, qs), True
                stale = True
            history.append((it, lp_value, value, alpha, added))
            if added or alpha == 0.0:
                break
        if subgradient_iterations > 0 and not stop and not clock.expired():
            # subgradient steps on L, resumed each round from the best point (each point a certified bound)
            if stale or best_pt is None:
                best_pt, stale = lagrangian(inst, pricers, *centre), False
            if sg is None:
                sg = SubgradientSearch(inst, pricers, best_pt, patience=10)
            sg.restart(best_pt)
            # a fixed number of steps, so that the columns and the bound do not depend on the machine's
            # speed; the deadline alone (less the next master solve) may cut them short
            left = clock.left()
            budget = None if left is None else max(0.0, left - master_secs)
            pt = sg.run(target=lp_value, iterations=subgradient_iterations, time_limit=budget)
            if pt.value < best:
                best, centre, has_centre, best_pt, stale = pt.value, (pt.p, pt.q), True, pt, False
                history.append((it, lp_value, pt.value, -1.0, 0))
        gap = relative_gap(lp_value, best)
        if gap is not None and gap <= CONVERGED_RTOL:
            converged = True
            break
        if added == 0 and complete:
            # no column prices out at the master's duals, yet the bound at them is above the LP value: the
            # master's duals are off by its tolerances; the best certified bound stands (not converged)
            info["stalled"] = f"no column prices out; bound {best!r} vs master LP {lp_value!r}"
            break
        if stop:
            break
    for i, sch, _ in master.columns:
        cols.setdefault(i, []).append(sch)
    return result()
