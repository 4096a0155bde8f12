"""Upper bound on the offline optimum: the LP relaxation of (14) by column generation.

The restricted master is the LP dual (19)-(20) over the schedules generated so far
(:func:`~hetopt.oasis.model.build_dual`; its optimum equals the restricted primal LP by strong
duality and it yields the prices p, q, mu directly).  New schedules are priced with those
duals by the DP oracle (fast), then by the exact ILP oracle (27).  Whatever the number of
iterations, the returned bound is the dual objective (19) of a feasible dual solution:
the master's p, q with mu_i = max(0, the ILP oracle's upper bound on job i's best payoff),
so it is a valid upper bound on the LP relaxation of (14), hence on the offline optimum.

Column generation tails off on these masters (many schedules differ only by placement on
equal servers), so when it is stopped early the bound from exact pricing can be weak; the
returned ``bound`` is therefore the smaller of that bound and the LP relaxation of the
compact MILP (1)-(13) (:func:`~hetopt.oasis.model.build_offline` with integrality relaxed),
both valid.  ``info`` reports each.

Schedules are restricted to those that fit an empty cluster (w_i^r y_ih(t) <= c_h^r): every
schedule of an integer solution does, so the bound is still valid, and tighter.
"""

from __future__ import annotations

import logging
import time

import numpy as np
import pyomo.environ as pyo

from ..errors import SolverError
from ..inputs import check_choice, takes_instance
from ..result import Solution, Status, relative_gap
from ..solvers import solve_milp, solve_model
from .arrays import build_offline_arrays
from .bound import PRICING_TOL, LPBound
from .colgen_arrays import lp_bound_arrays
from .instance import OasisInstance
from .model import build_dual, build_offline
from .oracle import best_schedule_ilp, schedules_by_end
from .prices import Prices, Usage
from .schedule import JobSchedule

__all__ = ["LPBound", "lp_bound", "compact_lp_bound"]

log = logging.getLogger(__name__)
def _dense_prices(inst: OasisInstance, m: pyo.ConcreteModel) -> Prices:
    pr = Prices.zeros(inst)
    for (t, h, r) in m.WROWS:
        pr.p[t - 1, h, r] = max(0.0, float(pyo.value(m.p[t, h, r])))
    for (t, k, r) in m.PROWS:
        pr.q[t - 1, k, r] = max(0.0, float(pyo.value(m.q[t, k, r])))
    return pr


def _same(a: JobSchedule, b: JobSchedule) -> bool:
    return np.array_equal(a.workers, b.workers) and np.array_equal(a.ps, b.ps)


@takes_instance(OasisInstance)
def compact_lp_bound(inst: OasisInstance, *, threads: int | None = 1, engine: str = "arrays") -> float:
    """Optimum of the LP relaxation of the compact MILP (1)-(13): an upper bound on OPT.

    Parameters
    ----------
    inst : OasisInstance
    threads : int, optional
    engine : {"arrays", "pyomo"}
        ``"arrays"`` builds the rows with numpy (:mod:`hetopt.oasis.arrays`, without the optional
        valid inequalities, so the same LP), ``"pyomo"`` from :func:`~hetopt.oasis.model.build_offline`.

    Returns
    -------
    float
    """
    check_choice(engine, "engine", ("arrays", "pyomo"))
    if engine == "pyomo":
        m = build_offline(inst)
        pyo.TransformationFactory("core.relax_integer_vars").apply_to(m)
        return _value(solve_model(m, "highs", threads=threads), "compact LP (pyomo)")
    arr = build_offline_arrays(inst, tighten=False)
    sol, _ = solve_milp(arr.c, sense="max", A_ub=arr.A_ub, b_ub=arr.b_ub, A_eq=arr.A_eq, b_eq=arr.b_eq, lb=arr.lb,
                        ub=arr.ub, threads=threads)
    return _value(sol, "compact LP (arrays)")


def _value(sol: Solution, what: str) -> float:
    """The objective of a solve that raised on failure (an LP optimum always has one)."""
    if sol.objective is None:
        raise SolverError(f"{what}: {sol.status.value} with no objective ({sol.message})")
    return float(sol.objective)


@takes_instance(OasisInstance)
def lp_bound(inst: OasisInstance, *, max_iterations: int = 40, time_limit: float | None = 60.0,
             threads: int | None = 1, engine: str = "arrays", smoothing: float = 0.5, compact: bool = True,
             subgradient_iterations: int = 20) -> LPBound:
    """Column generation for the LP relaxation of (14); a certified upper bound on OPT.

    Parameters
    ----------
    inst : OasisInstance
    max_iterations : int
        Master solves before stopping (the bound stays valid when stopped early).
    time_limit : float, optional
        Seconds; with ``engine="pyomo"`` for the DP phase only (its final exact pricing always
        runs); with ``"arrays"`` every round prices exactly, so the run stops at the limit.
    threads : int, optional
    engine : {"arrays", "pyomo"}
        ``"arrays"`` (default): the master in one ``highspy`` model with columns added in place
        (:class:`~hetopt.oasis.master.Master`), exact DP pricing of (27)
        (:class:`~hetopt.oasis.pricing.JobPricer`) and Wentges dual smoothing; every round
        yields a certified bound.  ``"pyomo"``: the master rebuilt by
        :func:`~hetopt.oasis.model.build_dual` each round, Alg. 2 pricing, ILP pricing to certify.
    smoothing : float
        Wentges weight ``alpha`` in [0, 1) of the stability centre (``"arrays"`` only; 0: none).
    compact : bool
        Also compute :func:`compact_lp_bound` and return the smaller bound.
    subgradient_iterations : int
        ``"arrays"`` only: projected subgradient steps on the Lagrangian per round
        (:class:`~hetopt.oasis.lagrange.SubgradientSearch`, resumed from round to round; 0: none).
        Every evaluated point is a certified bound; the smallest is kept.

    Returns
    -------
    LPBound
        ``bound`` (valid upper bound on the optimum of (1)), ``objective`` the master LP value.
    """
    check_choice(engine, "engine", ("arrays", "pyomo"))
    if engine == "arrays":
        return lp_bound_arrays(inst, max_iterations=max_iterations, time_limit=time_limit, threads=threads,
                               smoothing=smoothing, compact=compact,
                               subgradient_iterations=subgradient_iterations)
    start = time.perf_counter()
    empty = Usage.empty(inst)
    cols: dict[int, list[JobSchedule]] = {i: [] for i in range(inst.n_jobs)}
    zero = Prices.zeros(inst)
    for i in range(inst.n_jobs):
        cols[i].extend(res.schedule for res in schedules_by_end(inst, i, zero, empty) if res.schedule is not None)
    it, converged, lp_value, bound = 0, False, 0.0, float("inf")
    prices = zero
    mu: dict[int, float] = {}
    while True:
        active = {i: c for i, c in cols.items() if c}
        if not active:
            prices, mu, lp_value = zero, {}, 0.0
        else:
            master = build_dual(inst, active)
            solve_model(master, "highs", threads=threads)
            it += 1
            lp_value = float(pyo.value(master.cost))
            prices = _dense_prices(inst, master)
            mu = {i: float(pyo.value(master.mu[i])) for i in master.JOBS}
        added = 0
        dp_phase = it < max_iterations and (time_limit is None or time.perf_counter() - start < time_limit)
        if dp_phase:
            for i in range(inst.n_jobs):  # every end slot's DP schedule with a positive reduced payoff
                for res in schedules_by_end(inst, i, prices, empty):
                    sched = res.schedule
                    if sched is not None and res.payoff > mu.get(i, 0.0) + PRICING_TOL \
                            and not any(_same(sched, c) for c in cols[i]):
                        cols[i].append(sched)
                        added += 1
            if added:
                continue
        # exact pricing with problem (27): certifies the bound, may add columns the DP cannot see
        ub_mu: dict[int, float] = {}
        for i in range(inst.n_jobs):
            res = best_schedule_ilp(inst, i, prices, empty, threads=threads)
            ub_mu[i] = max(0.0, float(res.bound))
            if (dp_phase and res.schedule is not None and res.payoff > mu.get(i, 0.0) + PRICING_TOL
                    and not any(_same(res.schedule, c) for c in cols[i])):
                cols[i].append(res.schedule)
                added += 1
        cap_term = float(np.einsum("thr,hr->", prices.p, inst.worker_capacity) + np.einsum("tkr,kr->", prices.q, inst.ps_capacity))
        bound = min(bound, sum(ub_mu.values()) + cap_term)
        if not added:
            converged = dp_phase
            break
    compact_value = compact_lp_bound(inst, threads=threads, engine="pyomo") if compact else float("inf")
    log.info("lp_bound: %d master solves, LP %.6g, column-generation bound %.6g, compact LP %.6g", it, lp_value, bound,
             compact_value)
    colgen_bound = max(bound, lp_value)  # equal up to round-off when converged (weak duality)
    bound = min(colgen_bound, compact_value)
    return LPBound(colgen_bound=colgen_bound, compact_bound=compact_value, status=Status.OPTIMAL if converged else Status.FEASIBLE, objective=lp_value, bound=bound,
                   gap=relative_gap(lp_value, bound), wall_time=time.perf_counter() - start, solver="colgen",
                   sense="max", message="converged" if converged else "stopped; bound from exact pricing",
                   lp_value=lp_value, iterations=it, converged=converged, columns={i: c for i, c in cols.items() if c})
