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

import dataclasses
import logging
import math
import time

import numpy as np
import pyomo.environ as pyo

from ..certify import Status, relative_gap
from ..errors import SolverError
from ..inputs import (
    check_choice,
    check_flag,
    check_positive,
    check_size,
    check_threads,
    check_time_limit,
    takes_instance,
)
from ..result import Solution
from ..solvers import solve_milp, solve_model
from .arrays import build_offline_arrays
from .bound import PRICING_TOL, LPBound
from .capacity import standalone
from .colgen_arrays import lp_bound_arrays
from .instance import OasisInstance
from .model import build_dual, build_offline
from .normalize import scaled_instance, unscale, utility_exponent
from .offline import MAX_COLUMNS, NNZ_PER_COLUMN, model_size
from .oracle import best_schedule_ilp, schedules_by_end
from .plan import Clock
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


def _compact_guard(inst: OasisInstance, max_columns: int | None) -> None:
    size = model_size(inst, "arrays")
    if max_columns is not None and (size["columns"] > max_columns or size["nonzeros"] > NNZ_PER_COLUMN * max_columns):
        from ..errors import SizeLimitError

        raise SizeLimitError(f"the compact LP relaxation of (1)-(13) would have {size['columns']:,} columns and about "
                             f"{size['nonzeros']:,} nonzeros: above max_columns = {max_columns:,} (and {NNZ_PER_COLUMN} "
                             f"nonzeros per column); pass max_columns={size['columns']:,} or more, or use "
                             "lp_bound(inst, compact=False, time_limit=...)")


@takes_instance(OasisInstance)
def compact_lp_bound(inst: OasisInstance, *, threads: int | None = 1, engine: str = "arrays",
                     max_columns: int | None = MAX_COLUMNS) -> float:
    """Optimum of the LP relaxation of the compact MILP (1)-(13): an upper bound on OPT.

    Solved on a copy whose utilities are scaled by a power of two (:mod:`hetopt.oasis.normalize`)
    and reported on the true scale; 0 without a solver when no job can complete.

    Parameters
    ----------
    inst : OasisInstance
    threads : int, optional
    engine : {"arrays", "pyomo"}
        ``"arrays"`` builds the rows with numpy (:mod:`hetopt.oasis.arrays`, without the optional
        valid inequalities, so the same LP), ``"pyomo"`` from :func:`~hetopt.oasis.model.build_offline`.
    max_columns : int or None
        Size guard of :func:`~hetopt.oasis.offline.solve_exact` (SizeLimitError above it).

    Returns
    -------
    float
    """
    check_choice(engine, "engine", ("arrays", "pyomo"))
    threads = check_threads(threads)
    if max_columns is not None:
        max_columns = check_size(max_columns, "max_columns")
    _compact_guard(inst, max_columns)
    alone = standalone(inst)
    if alone.bound == 0.0:
        return 0.0
    k = utility_exponent(alone)
    value = _compact_value(scaled_instance(inst, k), threads=threads, engine=engine)
    return min(float(unscale(value, k) or 0.0), alone.bound)


def _compact_value(inst: OasisInstance, *, threads: int | None, engine: str, time_limit: float | None = None) -> float:
    """The compact LP's optimum; ``inf`` (no bound) when ``time_limit`` stops the Pyomo solve first."""
    if engine == "pyomo":
        m = build_offline(inst)
        pyo.TransformationFactory("core.relax_integer_vars").apply_to(m)
        sol = solve_model(m, "highs", threads=threads, time_limit=time_limit, raise_on_failure=time_limit is None)
        if sol.status is not Status.OPTIMAL:  # a stopped LP's primal value bounds nothing
            return float("inf")
        return _value(sol, "compact LP (pyomo)")
    arr = build_offline_arrays(inst, tighten=False)
    sol = solve_milp(arr.c, sense="max", A_ub=arr.A_ub, b_ub=arr.b_ub, A_eq=arr.A_eq, b_eq=arr.b_eq, lb=arr.lb,
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
             subgradient_iterations: int = 20, max_columns: int | None = MAX_COLUMNS) -> LPBound:
    """Column generation for the LP relaxation of (14); a certified upper bound on OPT.

    Parameters
    ----------
    inst : OasisInstance
    max_iterations : int
        Master solves before stopping (>= 1; the bound stays valid when stopped early).
    time_limit : float, optional
        Seconds for the whole run: every step checks the deadline and the run returns the best
        certified bound so far (at least sum_i f_i(earliest_i), the Lagrangian at zero prices,
        computed without a solver by :func:`~hetopt.oasis.capacity.standalone`).  With
        ``engine="pyomo"`` the restricted master and the compact LP are built only when their
        measured cost per row fits in the time left (else ``info["stopped"]`` and
        ``info["compact_skipped"]`` say why), and the final exact pricing runs unless the deadline has passed.
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
        Also compute :func:`compact_lp_bound` and return the smaller bound (skipped when its
        model is beyond ``max_columns`` or would not be built in the time left).
    subgradient_iterations : int
        ``"arrays"`` only: projected subgradient steps on the Lagrangian per round, >= 0
        (:class:`~hetopt.oasis.lagrange.SubgradientSearch`, resumed from round to round; 0: none).
        Every evaluated point is a certified bound; the smallest is kept.
    max_columns : int or None
        Size guard of the compact LP (:func:`compact_lp_bound`); beyond it the compact LP is
        skipped (``info["compact_skipped"]``), the column generation still runs.

    Returns
    -------
    LPBound
        ``bound`` (valid upper bound on the optimum of (1)), ``objective`` the master LP value.
        The run is on a copy whose utilities are scaled by a power of two
        (:mod:`hetopt.oasis.normalize`); every value is reported on the true scale.  An instance
        in which no job can complete gets the bound 0 without a solver; a master LP that fails
        stops the run with the best bound so far and the reason in ``info["fallback"]``.
    """
    start = time.perf_counter()
    check_choice(engine, "engine", ("arrays", "pyomo"))
    max_iterations = check_size(max_iterations, "max_iterations")
    time_limit = check_time_limit(time_limit)
    threads = check_threads(threads)
    smoothing = check_positive(smoothing, "smoothing", allow_zero=True)
    if not smoothing < 1.0:
        from ..errors import ArgumentError

        raise ArgumentError(f"smoothing is {smoothing!r}; expected a weight in [0, 1)")
    compact = check_flag(compact, "compact")
    subgradient_iterations = check_size(subgradient_iterations, "subgradient_iterations", minimum=0)
    if max_columns is not None:
        max_columns = check_size(max_columns, "max_columns")
    alone = standalone(inst)
    if alone.bound == 0.0:
        why = "no job can complete by T" if alone.admissible.size == 0 else "every utility is 0 where a job can complete"
        return LPBound(status=Status.OPTIMAL, objective=0.0, bound=0.0, gap=0.0, wall_time=time.perf_counter() - start,
                       solver=f"colgen-{engine}", sense="max", message=f"bound 0: {why}", lp_value=0.0, iterations=0,
                       converged=True, colgen_bound=0.0, compact_bound=float("inf"), info={"route": why})
    info: dict[str, object] = {}
    if compact:
        try:
            _compact_guard(inst, max_columns)
        except Exception as exc:  # SizeLimitError: the column generation alone still bounds OPT
            info["compact_skipped"] = str(exc)
            compact = False
    k = utility_exponent(alone)
    work = scaled_instance(inst, k)
    clock = Clock(start, time_limit)
    trivial = float(np.ldexp(alone.bound, -k))
    if engine == "arrays":
        res = lp_bound_arrays(work, max_iterations=max_iterations, time_limit=time_limit, threads=threads,
                              smoothing=smoothing, compact=compact, subgradient_iterations=subgradient_iterations,
                              clock=clock, trivial=trivial)
    else:
        res = _lp_bound_pyomo(work, max_iterations=max_iterations, time_limit=time_limit, threads=threads,
                              compact=compact, clock=clock, trivial=trivial)
    return _unscaled(res, k, alone.bound, info, time.perf_counter() - start)


def _unscaled(res: LPBound, k: int, trivial: float, info: dict[str, object], wall: float) -> LPBound:
    """``res`` (of the scaled copy) on the true scale, its bound at most the trivial bound."""
    def u(x: float) -> float:
        v = unscale(x, k)
        return float("inf") if v is None else v

    bound = min(u(res.bound if res.bound is not None else math.inf), trivial)
    lp_value = u(res.lp_value)
    objective = None if res.objective is None else u(res.objective)
    status = res.status
    if status is Status.OPTIMAL and (objective is None or (relative_gap(objective, bound) or 0.0) > 1e-6):
        status = Status.FEASIBLE
    history = [(r, u(lp), u(b), a, n) for r, lp, b, a, n in res.history]
    return dataclasses.replace(res, status=status, objective=objective, bound=bound, gap=relative_gap(objective, bound),
                               wall_time=wall, lp_value=lp_value, colgen_bound=u(res.colgen_bound),
                               compact_bound=u(res.compact_bound), history=history,
                               info={**res.info, **info, "trivial_bound": trivial,
                                     **({"utility_scale": f"2**{k}"} if k else {})})


#: Wall seconds per capacity row (slot x server x resource) to build the Pyomo restricted master of
#: :func:`build_dual` and solve it with HiGHS; the rows, not the few columns, set its cost (measured: 0.31 s
#: for 12,000 rows (60 jobs, T = 60, H = K = 20), 1.0 s for 30,000; taken with margin).
_MASTER_SECONDS_PER_ROW = 4e-5
#: Wall seconds per nonzero to build the Pyomo compact LP and solve it (measured: 0.61 s for 88 k nonzeros,
#: 14.5 s for 1.29 M; taken with margin).
_PYOMO_COMPACT_SECONDS = 1.2e-5


def _lp_bound_pyomo(inst: OasisInstance, *, max_iterations: int, time_limit: float | None, threads: int | None,
                    compact: bool, clock: Clock, trivial: float) -> LPBound:
    """The ``engine="pyomo"`` column generation on the (scaled) instance."""
    start = clock.start
    empty = Usage.empty(inst)
    cols: dict[int, list[JobSchedule]] = {i: [] for i in range(inst.n_jobs)}
    zero = Prices.zeros(inst)
    info: dict[str, object] = {}
    for i in range(inst.n_jobs):
        if clock.expired():
            break
        cols[i].extend(res.schedule for res in schedules_by_end(inst, i, zero, empty) if res.schedule is not None)
    it, converged, lp_value, bound = 0, False, 0.0, trivial
    prices = zero
    mu: dict[int, float] = {}
    while not clock.expired():
        active = {i: c for i, c in cols.items() if c}
        if not active:
            prices, mu, lp_value = zero, {}, 0.0
        else:
            need = _MASTER_SECONDS_PER_ROW * inst.horizon * (inst.n_worker_servers + inst.n_ps_servers) * inst.n_resources
            left = clock.left()
            if left is not None and need > left:
                info["stopped"] = (f"building and solving the restricted master takes about {need:.2g} s of the "
                                   f"{left:.2g} s left")
                break
            master = build_dual(inst, active)
            sol = solve_model(master, "highs", threads=threads, raise_on_failure=False, time_limit=clock.solve_time())
            if sol.status is not Status.OPTIMAL:
                info["fallback"] = (f"restricted master LP: {sol.status.value} ({sol.message}); the best certified "
                                    "bound so far is reported")
                break
            it += 1
            lp_value = float(pyo.value(master.cost))
            prices = _dense_prices(inst, master)
            mu = {i: float(pyo.value(master.mu[i])) for i in master.JOBS}
        added = 0
        dp_phase = it < max_iterations and (time_limit is None or time.perf_counter() - start < 0.5 * time_limit)
        if dp_phase:
            for i in range(inst.n_jobs):  # every end slot's DP schedule with a positive reduced payoff
                if clock.expired():
                    break
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
            if clock.expired():
                break
            res = best_schedule_ilp(inst, i, prices, empty, threads=threads, time_limit=clock.solve_time())
            b = float(res.bound)
            if b == math.inf:  # stopped without a bound on job i's payoff: no certified bound this round
                break
            ub_mu[i] = max(0.0, b)
            if (dp_phase and res.schedule is not None and res.payoff > mu.get(i, 0.0) + PRICING_TOL
                    and not any(_same(res.schedule, c) for c in cols[i])):
                cols[i].append(res.schedule)
                added += 1
        if len(ub_mu) == inst.n_jobs:  # every job priced exactly: a certified bound
            cap_term = float(np.einsum("thr,hr->", prices.p, inst.worker_capacity) + np.einsum("tkr,kr->", prices.q, inst.ps_capacity))
            bound = min(bound, sum(ub_mu.values()) + cap_term)
        if not added or len(ub_mu) < inst.n_jobs:
            converged = dp_phase and len(ub_mu) == inst.n_jobs and not added
            break
    compact_value = float("inf")
    if compact:
        need = _PYOMO_COMPACT_SECONDS * model_size(inst, "pyomo")["nonzeros"]
        left = clock.left()
        if left is not None and need > left:
            info["compact_skipped"] = f"building and solving the compact LP takes about {need:.2g} s of the {left:.2g} s left"
        else:
            compact_value = _compact_value(inst, threads=threads, engine="pyomo", time_limit=clock.solve_time())
    log.info("lp_bound: %d master solves, LP %.6g, column-generation bound %.6g, compact LP %.6g", it, lp_value, bound,
             compact_value)
    colgen_bound = max(bound, lp_value)  # equal up to round-off when converged (weak duality)
    bound = min(colgen_bound, compact_value)
    return LPBound(colgen_bound=colgen_bound, compact_bound=compact_value, status=Status.OPTIMAL if converged else Status.FEASIBLE, objective=lp_value, bound=bound,
                   gap=relative_gap(lp_value, bound), wall_time=time.perf_counter() - start, solver="colgen",
                   sense="max", message="converged" if converged else "stopped; bound from exact pricing",
                   lp_value=lp_value, iterations=it, converged=converged, columns={i: c for i, c in cols.items() if c},
                   info=info)
