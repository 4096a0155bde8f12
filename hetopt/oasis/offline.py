"""The offline optimum of problem (1)-(13), solved exactly as a MILP.

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Section III-C (the paper reports two days of
solver time for 10 jobs; :func:`build_offline` with HiGHS certifies such instances in seconds
to minutes).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..certify import Status
from ..errors import ArgumentError, SizeLimitError
from ..inputs import check_choice, check_flag, check_gap, check_size, check_threads, check_time_limit, takes_instance
from ..solvers import PYOMO_SOLVERS, solve_model
from .arrays import CUTS, build_offline_arrays, schedules_from_x, x_from_schedules
from .capacity import standalone
from .checker import check_schedule
from .instance import OasisInstance
from .model import build_offline, offline_schedules
from .normalize import certify, scaled_instance, utility_exponent
from .plan import Clock, highs_options, solve_arrays, solve_plan_first
from .schedule import JobSchedule, OasisSolution, make_solution
from .simulator import online_incumbent

__all__ = ["ENGINES", "MAX_COLUMNS", "NNZ_PER_COLUMN", "model_size", "solve_exact"]

#: Routes of :func:`solve_exact`.
ENGINES = ("auto", "pyomo", "arrays", "plan")

#: ``engine="auto"`` takes the plan route up to this many entries I H T^2 (the size of the
#: cumulative-work rows (V3) its relaxation carries), the Pyomo model above.
PLAN_AUTO_LIMIT = 2_000_000

#: Default size guard of :func:`solve_exact`: the most columns (variables) of the model it builds.
#: The Pyomo model takes about 1.1 KB per column (0.26 GB at 240,000 columns), the arrays about
#: 60 bytes per nonzero before HiGHS copies them; OASiS's MILP is not certified at these sizes
#: anyway (the benchmark certifies 50 jobs x 40 servers x 10 slots, 20,000 columns).
MAX_COLUMNS = 500_000
#: Nonzeros allowed per allowed column (``NNZ_PER_COLUMN * max_size``): the plan route's
#: cumulative-work rows grow as I H T^2 / 2.
NNZ_PER_COLUMN = 20

#: Seconds per nonzero to build the model (measured: arrays 0.3 us, Pyomo 4.5-5.5 us; with margin).
_BUILD_SECONDS = {"arrays": 0.6e-6, "plan": 0.8e-6, "pyomo": 6.5e-6}
#: Seconds per nonzero to hand the built model to the solver and read the solution back, outside the
#: solver's own time limit (measured: Pyomo to HiGHS or SCIP 6-8 us; arrays to HiGHS ~0.1 us).
_TRANSFER_SECONDS = {"arrays": 0.2e-6, "plan": 0.2e-6, "pyomo": 10.5e-6}
#: Share of a time limit given to OASiS's online schedule, the first incumbent.
INCUMBENT_SHARE = 0.25


def model_size(inst: OasisInstance, engine: str = "arrays", *, tighten: bool | tuple[str, ...] = False) -> dict[str, int]:
    """Columns, rows and nonzeros of the model ``engine`` builds, estimated from the sizes alone (nothing is built).

    Parameters
    ----------
    inst : OasisInstance
    engine : {"arrays", "plan", "pyomo"}
        ``"plan"`` counts the relaxation with the valid inequalities (V1)-(V5), its largest model.
    tighten : bool or tuple of str
        The cuts of ``"arrays"``.

    Returns
    -------
    dict
        ``columns``, ``rows`` and ``nonzeros`` (the last two upper estimates).
    """
    I, H, K, R, T = inst.n_jobs, inst.n_worker_servers, inst.n_ps_servers, inst.n_resources, inst.horizon
    lens = (T - inst.arrival.astype(np.int64) + 1)
    J = int(lens.sum())
    tri = int((lens * (lens + 1) // 2).sum())  # sum over (i, t) of the slots from t (or up to t)
    cols = I * (H + K) * T + I + J
    rows = I + J + (H + K) * R * T + 2 * I * T + I + 2 * J
    nnz = I * (H * T + 1) + J * (H + 1) + I * (H + K) * T * R + 2 * I * (H + K) * T + J + I + J * H + tri + J * (H + 1)
    cuts = set(CUTS) if tighten is True or engine == "plan" else set(tighten or ())
    if "V2" in cuts:
        rows += J * H
        nnz += J * H + H * tri
    if "V3" in cuts:
        rows += J
        nnz += (H + 1) * tri
    if engine == "pyomo":  # (9)-(10) as equality rows
        before = int((inst.arrival.astype(np.int64) - 1).sum()) * (H + K)
        rows += before
        nnz += before
    return {"columns": int(cols), "rows": int(rows), "nonzeros": int(nnz)}


def _guard(inst: OasisInstance, engine: str, tighten: Any, max_size: int | None) -> dict[str, int]:
    size = model_size(inst, engine, tighten=tighten)
    if max_size is not None and (size["columns"] > max_size or size["nonzeros"] > NNZ_PER_COLUMN * max_size):
        raise SizeLimitError(
            f"the offline MILP (1)-(13) (engine {engine!r}) would have {size['columns']:,} columns, {size['rows']:,} "
            f"rows and about {size['nonzeros']:,} nonzeros (I = {inst.n_jobs}, H + K = "
            f"{inst.n_worker_servers + inst.n_ps_servers}, T = {inst.horizon}): above max_size = {max_size:,} columns "
            f"(and {NNZ_PER_COLUMN} nonzeros per column). Pass max_size={size['columns']:,} or more to build it "
            "anyway (Pyomo takes about 1.1 KB per column; with time_limit=... the solver stops with the incumbent and "
            "a bound), or use hetopt.oasis.lp_bound(inst, time_limit=...) for an upper bound and "
            "simulate(inst, 'oasis') for a schedule")
    return size


@takes_instance(OasisInstance)
def solve_exact(inst: OasisInstance, *, time_limit: float | None = None, mip_gap: float | None = None,
                threads: int | None = 1, max_size: int | None = MAX_COLUMNS, solver: str = "highs",
                engine: str = "auto", tighten: bool | tuple[str, ...] = False,
                warm_start: bool = True, node_limit: int | None = None) -> OasisSolution:
    """Certified optimum (or incumbent and dual bound) of the offline problem (1)-(13).

    Parameters
    ----------
    inst : OasisInstance
    time_limit : float, optional
        Seconds for the whole route (OASiS's online schedule, the model's build and the solve);
        a stopped run reports TIME_LIMIT with the best schedule found (OASiS's online schedule
        at least, of the jobs it had time to decide) and a proven bound (the solver's, or
        sum_i f_i(earliest_i) of :func:`~hetopt.oasis.capacity.standalone`).  A build that would
        not fit the remaining time (estimated from :func:`model_size`) is skipped.
    mip_gap : float, optional
        Relative gap at which the solver may stop (default: exact, 1e-9).
    threads : int, optional
        Solver threads; 1 by default, as in every kind (reproducible runs); None: the solver's
        default.
    max_size : int or None
        Size guard, in columns: the model is estimated first (:func:`model_size`) and refused
        with a :class:`~hetopt.errors.SizeLimitError` (the estimate and the way out) above this
        many columns or ``NNZ_PER_COLUMN`` times as many nonzeros; default :data:`MAX_COLUMNS`;
        None: no guard.
    solver : {"highs", "scip"}
        SCIP runs the Pyomo model (``engine`` "auto" or "pyomo"; the others are HiGHS routes and
        raise :class:`~hetopt.errors.ArgumentError` with SCIP).
    engine : {"auto", "pyomo", "arrays", "plan"}
        ``"auto"`` (default): ``"plan"`` when I H T^2 <= ``PLAN_AUTO_LIMIT`` (and HiGHS, no
        ``mip_gap``), else ``"pyomo"``.  ``"pyomo"``: :func:`build_offline`.  ``"arrays"``: the
        same model built with numpy (:func:`~hetopt.oasis.arrays.build_offline_arrays`) and
        solved by HiGHS directly, with OASiS's online schedule as the first incumbent.
        ``"plan"``: a relaxation with continuous placements bounds the optimum and picks the
        admitted jobs, then the MILP on those jobs, the full MILP if that misses the bound
        (:mod:`hetopt.oasis.plan`); ``mip_gap`` and ``tighten`` raise ``ArgumentError`` there
        (``"auto"`` with ``mip_gap`` picks ``"pyomo"``, with ``tighten`` ``"arrays"``).
        All certify the same optima (cross-checked in the tests); in the benchmark of
        ``models/oasis2018.md`` (Scale) the plan route certified seeds 0-4 at 30 jobs within
        60 s where the Pyomo model did not, hence the default.
    tighten : bool or tuple of str
        Valid inequalities (V1)-(V5) of :mod:`hetopt.oasis.arrays` (``"arrays"`` only, else
        ``ArgumentError``); off by
        default: they tighten the root LP by 1-2% but did not speed up the search consistently.
    warm_start : bool
        Hand OASiS's online schedule (Alg. 1) to HiGHS as the first incumbent (``"arrays"`` only).
    node_limit : int, optional
        Branch-and-bound nodes of each HiGHS MILP of the route (HiGHS's ``mip_max_nodes``): a
        work limit HiGHS honours deterministically at a fixed thread count, so that, unlike
        ``time_limit``, the outcome does not depend on the machine or its load.  A MILP it stops
        reports TIME_LIMIT with its incumbent and bound, as a time limit does.  HiGHS only
        (``ArgumentError`` with SCIP).

    Returns
    -------
    OasisSolution
        ``status`` OPTIMAL with ``bound`` = the optimum when certified; ``total_utility`` is
        recomputed from the extracted schedules on the true instance.  Every route solves a
        copy whose utilities are scaled by a power of two and certifies on the true data
        (:mod:`hetopt.oasis.normalize`); an instance where no job can complete is OPTIMAL 0
        without a solver.

    Raises
    ------
    ArgumentError
        A bad option (named).
    SizeLimitError
        Beyond ``max_size``.
    """
    start = time.perf_counter()
    time_limit = check_time_limit(time_limit)
    mip_gap = check_gap(mip_gap, "mip_gap")
    threads = check_threads(threads)
    tighten, node_limit, max_size = _check_options(solver, engine, tighten, warm_start, node_limit, max_size)
    engine = _pick_engine(inst, engine, solver, mip_gap, tighten)
    est = _guard(inst, engine, tighten, max_size)
    name = {"plan": "offline-plan", "arrays": "offline-arrays"}.get(engine, f"offline-{solver}")
    alone = standalone(inst)
    if alone.bound == 0.0:
        why = ("no job can complete by T on the empty cluster" if alone.admissible.size == 0 else
               "every job that can complete has utility 0 at its earliest completion")
        return make_solution(inst, {}, status=Status.OPTIMAL, bound=0.0, wall_time=time.perf_counter() - start,
                             solver=name, message=f"optimum 0: {why}", info={"route": why, "trivial_bound": 0.0})
    k = utility_exponent(alone)
    work = scaled_instance(inst, k)
    clock = Clock(start, time_limit)
    if engine == "plan":
        scheds, status, bound, info = solve_plan_first(work, time_limit=time_limit, threads=threads, clock=clock,
                                                       build_seconds=_BUILD_SECONDS["plan"] * est["nonzeros"],
                                                       node_limit=node_limit)
        fallback = info.pop("oasis_schedule", None)
        message = info.get("route", "")
    else:
        scheds, status, bound, info, fallback, message = _solve_model_route(
            work, engine=engine, solver=solver, clock=clock, mip_gap=mip_gap, threads=threads, tighten=tighten,
            warm_start=warm_start, build_seconds=_BUILD_SECONDS[engine] * est["nonzeros"],
            transfer_seconds=_TRANSFER_SECONDS[engine] * est["nonzeros"], node_limit=node_limit)
    info["model_size"] = est
    return certify(inst, scheds, status, bound, k, alone, fallback=fallback, wall_time=time.perf_counter() - start,
                   solver=name, message=message, info=info)


def _check_options(solver: Any, engine: Any, tighten: Any, warm_start: Any, node_limit: Any,
                   max_size: Any) -> tuple[Any, int | None, int | None]:
    """:func:`solve_exact`'s options checked by name: the tightening, the node limit and the size guard."""
    check_choice(solver, "solver", tuple(PYOMO_SOLVERS))
    check_choice(engine, "engine", ENGINES)
    check_flag(warm_start, "warm_start")
    if node_limit is not None:
        node_limit = check_size(node_limit, "node_limit")
        if solver != "highs":
            raise ArgumentError(f"node_limit applies to solver='highs'; got solver={solver!r}")
    return _check_tighten(tighten), node_limit, None if max_size is None else check_size(max_size, "max_size")


def _pick_engine(inst: OasisInstance, engine: str, solver: str, mip_gap: float | None,
                 tighten: bool | tuple[str, ...]) -> str:
    """The engine of :func:`solve_exact` (``"auto"`` resolved), or the ``ArgumentError`` of a bad combination."""
    if engine in ("arrays", "plan") and solver != "highs":
        raise ArgumentError(f"engine={engine!r} runs on HiGHS; with solver={solver!r} use engine='pyomo' or 'auto'")
    if engine == "plan" and mip_gap is not None:
        raise ArgumentError("mip_gap does not apply to engine='plan' (it solves to optimality); use engine='pyomo' or 'arrays'")
    if engine == "auto":
        size = inst.n_jobs * inst.n_worker_servers * inst.horizon ** 2
        engine = "plan" if size <= PLAN_AUTO_LIMIT and solver == "highs" and mip_gap is None and not tighten else "pyomo"
        if tighten:
            engine = "arrays"
    if tighten and engine != "arrays":
        raise ArgumentError(f"tighten applies to engine='arrays' only; got engine={engine!r}")
    return engine


def _check_tighten(tighten: Any) -> bool | tuple[str, ...]:
    """``tighten`` as a bool or a tuple of names from :data:`~hetopt.oasis.arrays.CUTS`."""
    if isinstance(tighten, (bool, np.bool_)):
        return bool(tighten)
    if isinstance(tighten, (list, tuple, set, frozenset)) and all(isinstance(c, str) for c in tighten) \
            and set(tighten) <= set(CUTS):
        return tuple(tighten)
    raise ArgumentError(f"tighten is {tighten!r}; expected a bool or names from {CUTS}")


def _solve_model_route(work: OasisInstance, *, engine: str, solver: str, clock: Clock, mip_gap: float | None,
                       threads: int | None, tighten: bool | tuple[str, ...], warm_start: bool, build_seconds: float,
                       transfer_seconds: float, node_limit: int | None = None) -> tuple[Mapping[int, JobSchedule], Status, float | None, dict[str, Any],
                                  Mapping[int, JobSchedule] | None, str]:
    """The Pyomo or arrays route on the scaled copy: (schedules, status, bound, info, OASiS's schedule, message)."""
    info: dict[str, Any] = {}
    heur: Mapping[int, JobSchedule] | None = None
    if clock.limited or (engine == "arrays" and warm_start):
        heur = online_incumbent(work, clock.share(INCUMBENT_SHARE)).schedules
        info["incumbent"] = "oasis-online"
    left = clock.left()
    if left is not None and build_seconds + transfer_seconds > left:
        info["skipped"] = (f"building the model and handing it to the solver take about "
                           f"{build_seconds + transfer_seconds:.2g} s, more than the {left:.2g} s left; OASiS's online "
                           "schedule is reported")
        return heur or {}, Status.TIME_LIMIT, None, info, heur, "time limit reached before the model was built"
    if engine == "arrays":
        arr = build_offline_arrays(work, tighten=tighten)
        x0 = x_from_schedules(work, arr, heur) if heur is not None and warm_start else None
        info["rows"] = dict(arr.rows)
        sol = solve_arrays(arr, clock=clock, threads=threads, mip_gap=mip_gap, x0=x0, reserve=transfer_seconds,
                           info=info, node_limit=node_limit)
        x = sol.info["x"]
        scheds: Mapping[int, JobSchedule] | None = schedules_from_x(work, arr, x) if x is not None else None
    else:
        model = build_offline(work)
        sol = solve_model(model, solver, time_limit=clock.solve_time(reserve=transfer_seconds), mip_gap=mip_gap,
                          threads=threads, raise_on_failure=False, require_incumbent=False,
                          options=highs_options(node_limit) if solver == "highs" else None)
        scheds = offline_schedules(work, model) if sol.objective is not None and sol.status.has_solution else None
    info["solver_status"] = sol.status.value
    info["solver_objective"] = sol.objective
    status = sol.status
    if status in (Status.INFEASIBLE, Status.UNBOUNDED, Status.ERROR):  # (1)-(13) always has x = 0
        info["solver_failed"] = f"{sol.status.value} ({sol.message}); OASiS's online schedule is reported"
        status, scheds = Status.FEASIBLE, None
    if scheds is not None and heur is not None and not check_schedule(work, scheds).ok:
        info["rejected"] = "the solver's schedule fails the checker; OASiS's online schedule is reported"
        scheds = None
        if status is Status.OPTIMAL:
            status = Status.FEASIBLE
    if scheds is None:
        if heur is None:
            heur = online_incumbent(work, clock.share(1.0)).schedules
            info["incumbent"] = "oasis-online"
        scheds = heur
        if status is Status.OPTIMAL:
            status = Status.FEASIBLE
    elif heur is not None and _utility(work, heur) > _utility(work, scheds):
        scheds = heur
    bound = sol.bound if sol.bound is not None and math.isfinite(sol.bound) else None
    return scheds, status, bound, info, heur, sol.message


def _utility(inst: OasisInstance, scheds: Mapping[int, JobSchedule]) -> float:
    return make_solution(inst, scheds).total_utility
