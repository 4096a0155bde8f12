"""Magnitude safety of OASiS's exact routes: solve a copy scaled by a power of two, certify on the true data.

Issue 25's option (b).  Utilities may span many orders of magnitude (a job worth 1e-9 of another,
sigmoids whose tail underflows, a whole instance at 1e-300 or 1e6) while a MILP or LP solver
works with absolute tolerances of ~1e-7 to 1e-9.  The exact routes therefore

1. compute each job's most valuable completion on the empty cluster,
   f_i(earliest_i) (:func:`~hetopt.oasis.capacity.standalone`, exact and solver-free): their
   maximum is a lower bound and their sum an upper bound on the optimum;
2. solve :func:`scaled_instance`, a copy whose utility tables are divided by ``2**k`` with the
   largest f_i(earliest_i) in [512, 1024) (``k`` from :func:`utility_exponent`); dividing by a power
   of two is exact in floating point, so the copy has the same optimal schedules and its
   optimum is the true one times ``2**-k`` (a utility below ~1e-9 of the largest job's is then
   negligible for the solver *and* for the objective, within ``OPTIMAL_RTOL``);
3. report the schedules' utility recomputed on the true instance and the bound
   ``min(2**k x the copy's bound, sum_i f_i(earliest_i))``, and OPTIMAL only when the two meet
   within ``OPTIMAL_RTOL`` (:func:`certify`).

Resource amounts and bandwidths need no scaling of the instance: the rows themselves are
normalized (capacity rows divided by the capacity, (6) by B_i, see
:func:`~hetopt.oasis.model.build_offline`).  An instance in which no job can complete (or every
utility is 0) has the optimum 0 and needs no solver at all.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..certify import OPTIMAL_RTOL, Status
from ..certify import certify as certify_status
from .capacity import Standalone
from .checker import check_schedule
from .instance import OasisInstance
from .schedule import JobSchedule, OasisSolution, make_solution
from .utility import TabulatedUtility

__all__ = ["HIGHS_EXACT", "utility_exponent", "scaled_instance", "unscale", "certify", "SCALED_INFO"]

#: HiGHS options of every OASiS MILP: no absolute gap (HiGHS's default 1e-6 would end a run whose
#: relative gap is above OPTIMAL_RTOL on a small objective, with a dual bound below the optimum).  The
#: feasibility tolerances stay HiGHS's (1e-6 for a MIP incumbent, relative to the normalized rows, as the
#: checker's FEAS_TOL): with mip_feasibility_tolerance = 1e-9 HiGHS returned OPTIMAL 1 with bound 1 on an
#: instance whose optimum is 2 (tests/reliability/test_oasis_magnitudes.py).
HIGHS_EXACT = {"mip_abs_gap": 0.0}

#: Keys of a route's ``info`` that hold values of the scaled copy (:func:`certify` reports them unscaled).
SCALED_INFO = ("solver_objective", "plan_bound", "restricted_objective")


#: The scaled copy's largest f_i(earliest_i) lies in [2**(TARGET_EXPONENT - 1), 2**TARGET_EXPONENT): large
#: enough that utility differences of 1e-9 of it stay above HiGHS's absolute tolerances (1e-7 on reduced
#: costs; at [0.5, 1) a sigmoid's flat tail was cut by 1e-7 of the optimum), small enough for 300 jobs.
TARGET_EXPONENT = 10


def utility_exponent(alone: Standalone) -> int:
    """``k`` such that the largest f_i(earliest_i) / 2**k lies in [512, 1024) (0 when all are 0)."""
    top = float(np.max(alone.best)) if alone.best.size else 0.0
    if not top > 0 or not math.isfinite(top):
        return 0
    return math.frexp(top)[1] - TARGET_EXPONENT


def scaled_instance(inst: OasisInstance, k: int) -> OasisInstance:
    """``inst`` with every utility replaced by its table f_i(t - a_i), t = a_i..T, divided by ``2**k`` (exact)."""
    utils = [TabulatedUtility(np.ldexp(inst.utility_table(i), -k), target=inst.utility[i].target)
             for i in range(inst.n_jobs)]
    return dataclasses.replace(inst, utility=utils)


def unscale(value: float | None, k: int) -> float | None:
    """``value * 2**k`` (exact), None and non-finite values passed through."""
    if value is None or not math.isfinite(value):
        return value
    return float(np.ldexp(value, k))


def certify(inst: OasisInstance, schedules: Mapping[int, JobSchedule], status: Status, scaled_bound: float | None,
            k: int, alone: Standalone, *, fallback: Mapping[int, JobSchedule] | None = None, wall_time: float = 0.0,
            solver: str = "", message: str = "", info: Mapping[str, Any] | None = None) -> OasisSolution:
    """The solution on the true instance: checked schedules, their true utility and a proven bound.

    Parameters
    ----------
    inst : OasisInstance
        The true instance.
    schedules : mapping job -> JobSchedule
        The route's schedules (solved on :func:`scaled_instance`, same constraints).
    status : Status
        The route's status; OPTIMAL is kept only when the true objective meets the bound within
        ``OPTIMAL_RTOL`` (FEASIBLE otherwise, the reason in ``info["not_certified"]``), and a
        TIME_LIMIT or FEASIBLE run whose objective meets the bound is OPTIMAL.
    scaled_bound : float or None
        The route's bound on the scaled copy's optimum.
    k : int
        The exponent of :func:`utility_exponent`.
    alone : Standalone
        Its ``bound`` (sum_i f_i(earliest_i)) is always a valid bound.
    fallback : mapping, optional
        A feasible schedule (OASiS's) reported when ``schedules`` fails the checker on the true
        data (the reason in ``info["rejected"]``).

    Returns
    -------
    OasisSolution
    """
    out_info: dict[str, Any] = dict(info or {})
    for key in SCALED_INFO:
        if isinstance(out_info.get(key), float):
            out_info[key] = unscale(out_info[key], k)
    rep = check_schedule(inst, schedules)
    if not rep.ok:
        out_info["rejected"] = f"the route's schedule fails the checker on the true data: {list(rep.violations[:3])}"
        schedules = fallback if fallback is not None and check_schedule(inst, fallback).ok else {}
        if status is Status.OPTIMAL:
            status = Status.FEASIBLE
    objective = make_solution(inst, schedules).total_utility
    bound = alone.bound
    true_bound = unscale(scaled_bound, k)
    if true_bound is not None and math.isfinite(true_bound):
        out_info["solver_bound"] = true_bound
        if true_bound < objective * (1 - 1e-9) - 1e-300:
            out_info["bound_discarded"] = (f"the solver's bound {true_bound!r} is below a checked schedule's utility "
                                           f"{objective!r} (outside its tolerances); the bound sum_i f_i(earliest_i) is "
                                           "reported")
        else:
            bound = min(bound, true_bound)
    out_info["trivial_bound"] = alone.bound
    bound = max(bound, objective)  # both are valid: the bound is at least a feasible schedule's utility
    certified = certify_status(objective, bound, stopped=False, sense="max") is Status.OPTIMAL
    if status is Status.OPTIMAL and not certified:
        out_info["not_certified"] = (f"the solver reported optimal, but the true objective {objective!r} and bound "
                                     f"{bound!r} differ by more than OPTIMAL_RTOL = {OPTIMAL_RTOL:g}")
        status = Status.FEASIBLE
    elif certified and status in (Status.TIME_LIMIT, Status.FEASIBLE):
        out_info["certified_by"] = "the objective meets the bound"
        status = Status.OPTIMAL
    if k:
        out_info["utility_scale"] = f"2**{k}"
    return make_solution(inst, schedules, status=status, bound=bound, wall_time=wall_time, solver=solver,
                         message=message, info=out_info)
