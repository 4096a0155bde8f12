"""The offline optimum of P1 and the schedule sets S_j of P2/P3.

``solve_exact`` solves the exact time-indexed MILP of :func:`~hetopt.hadar.model.build_p1`
with HiGHS and certifies the returned schedule with the independent checker.
``enumerate_schedules`` lists every schedule of one job on a tiny instance (the full S_j),
so that P2 over all schedules can be checked against P1.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyomo.environ as pyo

from ..certify import Status, certify, relative_gap
from ..errors import HetoptError, InfeasibleError, InstanceError, SizeLimitError, SolverError
from ..inputs import check_choice, check_flag, check_gap, check_size, check_threads, check_time_limit, takes_instance
from ..result import Solution
from ..solvers import PYOMO_SOLVERS, solve_model
from .bounds import gang_count
from .checker import check_schedule
from .instance import HadarInstance
from .model import BuildStopped, _build_p1, build_p2, build_p3, earliest_finish
from .result import HadarSolution
from .simulator import simulate

__all__ = ["solve_exact", "schedule_of", "split_schedule", "slot_placements", "enumerate_schedules",
           "solve_p2", "solve_p3", "serial_schedule", "MAX_P1_COLUMNS", "MAX_PLACEMENTS", "MAX_SCHEDULES", "TRANSLATE_FACTOR", "heuristic_schedule", "p1_columns",
           "utility_upper_bound"]

#: ``solve_exact`` refuses, before building it, a P1 with more columns than this (``max_size``).
MAX_P1_COLUMNS = 40_000
#: Hand-over seconds per build second (9,516 columns: 0.45-0.55 s after 0.2-0.25 s), checked after a timed build.
TRANSLATE_FACTOR = 2.5
#: Seconds per column to build P1 in Pyomo and load it into a solver (measured, with a margin): a
#: time-limited run whose remaining budget is below the estimate reports Hadar's schedule instead.
SECONDS_PER_COLUMN = 1e-4
#: Seconds per column of P1 that Hadar's own schedule (the simulator) takes, measured with a margin: a
#: time-limited run computes it only when the budget leaves room for it and for building P1.
HADAR_SECONDS_PER_COLUMN = 1e-5
#: The smallest and largest total utility a float64 holds with full precision.
_TINY, _HUGE = float(np.finfo(float).tiny), float(np.finfo(float).max)


def p1_columns(inst: HadarInstance) -> int:
    """Columns of :func:`~hetopt.hadar.model.build_p1`: ``J T (H R + R + 3)`` (w, u, and z, q, d)."""
    return inst.n_jobs * inst.horizon * (inst.n_machines * inst.n_types + inst.n_types + 3)


def schedule_of(model: pyo.ConcreteModel, inst: HadarInstance) -> np.ndarray:
    """The solved ``w`` of a P1 model as a (J, H, R, T) integer array."""
    w = np.zeros((inst.n_jobs, inst.n_machines, inst.n_types, inst.horizon), dtype=np.int64)
    for (j, h, r, t), v in model.w.items():
        val = v.value
        if val is not None:
            w[j, h, r, t] = int(round(val))
    return w


def _log_sum(logs: np.ndarray) -> float:
    """``log(sum(exp(logs)))`` without over- or underflow."""
    logs = np.asarray(logs, dtype=float)
    top = float(np.max(logs)) if logs.size else -np.inf
    if not np.isfinite(top):
        return top
    return top + float(np.log(np.sum(np.exp(logs - top))))


def _representable(inst: HadarInstance, log_total: float, what: str) -> None:
    """InstanceError when a total utility of P1 (its log) is not a normal float64."""
    if log_total > np.log(_HUGE):
        raise InstanceError(f"utility: {what} is e^{log_total:.6g}, above the largest float64 ({_HUGE:.3g}); P1's "
                            "total utility is not representable: rescale the utilities (theta1 of utility.params, "
                            "or the iterations / slot_length of the effective throughput)")
    if log_total < np.log(_TINY):
        raise InstanceError(f"utility: {what} is e^{log_total:.6g}, below the smallest normal float64 ({_TINY:.3g}); "
                            "P1's total utility would round to a subnormal or to 0 and lose its meaning: rescale "
                            "the utilities (theta1 of utility.params) or soften the sigmoid (theta2)")


def utility_upper_bound(inst: HadarInstance) -> tuple[float, np.ndarray]:
    """``(log sum_j U_j(e_j), log U_j(e_j))`` with ``e_j`` the earliest finish of job j: a bound on P1's optimum.

    Every job's utility is non-increasing and no job finishes before
    :func:`~hetopt.hadar.model.earliest_finish`, so the sum is a valid upper bound on P1.
    """
    ef = earliest_finish(inst)
    if np.any(ef >= inst.horizon):
        return -np.inf, np.full(inst.n_jobs, -np.inf)
    dur = (ef + 1 - inst.arrival) * inst.slot_length
    per_job = inst.utility.log_of(dur.astype(float), inst.total_iterations)
    return _log_sum(per_job), per_job


@takes_instance(HadarInstance)
def solve_exact(inst: HadarInstance, *, time_limit: float | None = None, mip_gap: float | None = None,
                threads: int | None = 1, max_size: int = MAX_P1_COLUMNS, solver: str = "highs",
                warm_start: bool = True) -> HadarSolution:
    """The certified optimum of P1 (or the incumbent and a proven bound when time-limited).

    The exact time-indexed MILP of :func:`~hetopt.hadar.model.build_p1`, its objective divided by
    the largest utility any job can reach (``scaled=True``: coefficients in ``[0, 1]`` at every
    magnitude), solved by HiGHS (absolute gap 0) or SCIP.  The returned schedule is certified by
    the independent checker, its objective recomputed on the true utilities, and the solver's
    bound brought back to the true scale; OPTIMAL only when that bound meets the objective within
    ``OPTIMAL_RTOL`` on the true data.  A bound is always returned: the solver's, or at least
    ``sum_j U_j(earliest finish_j)`` (every job alone on its best gang), whichever is smaller.

    With ``warm_start`` (default), Hadar's own round-by-round schedule (when it fits the
    horizon) is given to the solver as a starting solution (its ``w``, gang and type
    indicators; the solver completes the rest); a run stopped before any incumbent of its own,
    or whose time limit is too short to build the MILP, reports that schedule.

    Parameters
    ----------
    inst : HadarInstance
    time_limit : float, optional
        Seconds for the whole call, the build included (stopped once its hand-over would not fit); None: no limit.
    mip_gap : float, optional
        Relative gap at which the solver may stop (default: the package's 1e-9); a run stopped at
        a gap above ``OPTIMAL_RTOL`` is FEASIBLE.
    threads : int, optional
        Solver threads; 1 by default, as in every kind (reproducible runs); None: the solver's default.
    max_size : int
        Size guard, in columns: refuse, before building, a MILP with more columns than this
        (:func:`p1_columns`, ``J T (H R + R + 3)``; default ``MAX_P1_COLUMNS``, 40,000).
    solver : {"highs", "scip"}
    warm_start : bool
        Start from Hadar's own schedule (see above).

    Returns
    -------
    HadarSolution
        OPTIMAL only when proven on the true data; TIME_LIMIT (stopped by ``time_limit``) or
        FEASIBLE (stopped at ``mip_gap``, or a bound the true data did not confirm) with the
        incumbent and a proven bound otherwise.  ``info`` says where the bound and the schedule
        come from.

    Raises
    ------
    ArgumentError
        An unknown ``solver`` or a bad ``time_limit``, ``mip_gap``, ``threads``, ``warm_start``, ``max_size``.
    SizeLimitError
        When the MILP would have more than ``max_size`` columns.
    InfeasibleError
        When some job cannot finish within the horizon (or the solver proves P1 infeasible).
    InstanceError
        When P1's total utility is not a normal float64 (every utility below ~2.2e-308, or the
        sum above ~1.8e308): a rounded 0 would change the optimum's meaning.
    SolverError
        When the solver fails and no schedule of Hadar's is at hand.
    """
    t0 = time.perf_counter()
    check_choice(solver, "solver", tuple(PYOMO_SOLVERS))
    time_limit = check_time_limit(time_limit)
    mip_gap = check_gap(mip_gap, "mip_gap")
    threads = check_threads(threads)
    check_flag(warm_start, "warm_start")
    max_size = check_size(max_size, "max_size")
    cols = p1_columns(inst)
    if cols > max_size:
        raise SizeLimitError(f"P1 has {cols} columns (J*T*(H*R + R + 3) = {inst.n_jobs}*{inst.horizon}*"
                             f"({inst.n_machines}*{inst.n_types} + {inst.n_types} + 3)); solve_exact builds at most "
                             f"max_size={max_size} columns: pass max_size={cols} (and a time_limit=...), or a "
                             "shorter horizon")
    log_upper, _ = utility_upper_bound(inst)
    if log_upper == -np.inf:
        j = int(np.argmax(earliest_finish(inst) >= inst.horizon))
        raise InfeasibleError(f"P1 is infeasible: job {j} cannot finish within the horizon of {inst.horizon} slots "
                              f"(it needs at least {int(earliest_finish(inst)[j] - inst.arrival[j] + 1)} slots from "
                              f"its arrival {int(inst.arrival[j])} on its best gang)")
    _representable(inst, log_upper, "the largest total utility any schedule can reach")
    upper, build_cost = float(np.exp(log_upper)), SECONDS_PER_COLUMN * cols
    info: dict[str, Any] = {"columns": cols, "utility_upper_bound": upper}
    hint, source = serial_schedule(inst), "the serial schedule"
    if time_limit is None or time_limit - (time.perf_counter() - t0) >= build_cost + HADAR_SECONDS_PER_COLUMN * cols:
        hadar = heuristic_schedule(inst)
        if hadar is not None and (hint is None or _objective(inst, hadar) >= _objective(inst, hint)):
            hint, source = hadar, "Hadar's round-by-round schedule"
    info["start"] = source if hint is not None else None
    remaining = None if time_limit is None else time_limit - (time.perf_counter() - t0)
    share = None if remaining is None or (hint is None and remaining >= build_cost) else \
        -1.0 if remaining < build_cost else remaining / (1 + TRANSLATE_FACTOR)
    try:
        m = _build_p1(inst, True, None if share is None else time.perf_counter() + share)
    except BuildStopped:
        if hint is None:
            raise SolverError(f"time_limit={time_limit:g} s is too short to build P1 ({cols} columns) and no serial "
                              "or Hadar schedule fits the horizon: pass a longer time_limit") from None
        return _result(inst, hint, Status.TIME_LIMIT, upper, t0, solver, f"time limit too short to build P1 ({cols} "
                       f"columns); {source} reported", {**info, "bound_source": "utility upper bound (MILP not built)"})
    left = None if time_limit is None else t0 + time_limit - time.perf_counter()  # solve_model counts the hand-over
    if left is not None and hint is not None and left < TRANSLATE_FACTOR * ((remaining or 0.0) - left):
        return _result(inst, hint, Status.TIME_LIMIT, upper, t0, solver, f"no time left to pass P1 ({cols} columns) to "
                       f"{solver}; {source} reported", {**info, "bound_source": "utility upper bound (MILP not solved)"})
    scale_log = float(pyo.value(m.log_utility_scale))
    if warm_start and hint is not None:
        _set_start(m, hint)
    options = {"mip_abs_gap": 0.0} if solver == "highs" else {"limits/absgap": 0.0}
    try:
        sol = solve_model(m, solver, time_limit=None if left is None else max(left, 0.01), mip_gap=mip_gap,
                          threads=threads, require_incumbent=False, warm_start=warm_start and hint is not None,
                          options=options)
    except SolverError as exc:  # a failed solve: its loaded incumbent or Hadar's schedule, with the upper bound
        info.update(bound_source="utility upper bound (solver failed)", solver_error=str(exc))
        loaded = schedule_of(m, inst)
        w = loaded if loaded.any() and check_schedule(inst, loaded).ok else hint
        if w is None:
            raise
        status = Status.TIME_LIMIT if time_limit is not None and time.perf_counter() - t0 >= time_limit \
            else Status.FEASIBLE
        return _result(inst, w, status, upper, t0, solver, f"{solver} failed ({exc}); "
                       f"{'its incumbent' if w is loaded else source} reported", info)
    bound = upper
    info["bound_source"] = "utility upper bound"
    if sol.bound is not None and np.isfinite(sol.bound):
        solver_bound = float(np.exp(np.log(sol.bound) + scale_log)) if sol.bound > 0 else 0.0
        info["solver_bound"] = solver_bound
        if solver_bound < bound:
            bound, info["bound_source"] = solver_bound, f"{solver} dual bound"
    w = None
    if sol.objective is not None:
        w = schedule_of(m, inst)
        chk = check_schedule(inst, w)
        if not chk.ok:
            info["solver_schedule_rejected"] = list(chk.violations[:3])
            w = None
    message = sol.message
    if w is None:
        if hint is None:
            raise SolverError(f"{solver}: {sol.status.value} with no schedule that passes the checker (and no serial "
                              f"or Hadar schedule fits the horizon): {sol.message}")
        w = hint
        message = f"{sol.message}; no certified solver incumbent, {source} reported"
    status = sol.status if sol.status in (Status.OPTIMAL, Status.TIME_LIMIT) else Status.FEASIBLE
    return _result(inst, w, status, bound, t0, solver, message, info)


def _objective(inst: HadarInstance, w: np.ndarray) -> float:
    """P1's total utility of a checked schedule."""
    return float(check_schedule(inst, w).objective or 0.0)


def _result(inst: HadarInstance, w: np.ndarray, status: Status, bound: float, t0: float, solver: str, message: str,
            info: dict[str, Any]) -> HadarSolution:
    """The solution of schedule ``w``: its objective recomputed by the checker on the true utilities.

    The status is :func:`~hetopt.certify.certify`'s on that objective (``status`` says only whether
    a limit stopped the run): OPTIMAL only when ``bound`` meets it within ``OPTIMAL_RTOL`` (a bound
    a hair below it, within the tolerance, is raised to it: the optimum is at least the objective).
    A bound below it by more is the solver's error: the utility upper bound replaces it.
    """
    chk = check_schedule(inst, w)
    if not chk.ok or chk.objective is None:
        raise SolverError(f"P1 schedule fails the checker: {chk.violations[:3]}")
    obj = float(chk.objective)
    finish = chk.info["finish_slot"]
    done = finish >= 0
    log_obj = _log_sum(inst.utility.log_of(((finish + 1 - inst.arrival) * inst.slot_length)[done].astype(float),
                                           inst.total_iterations[done]))
    _representable(inst, log_obj, "the total utility of the schedule found")
    stopped = status is Status.TIME_LIMIT
    try:
        verdict = certify(obj, bound, stopped=stopped, sense="max")
    except SolverError:  # the solver's bound is below a schedule the checker passed
        info["invalid_bound"] = bound
        info["bound_source"] = "utility upper bound (the solver's was below the incumbent)"
        bound = max(float(info["utility_upper_bound"]), obj)
        verdict = certify(obj, bound, stopped=stopped, sense="max")
    bound = max(bound, obj)
    if status is Status.OPTIMAL and verdict is not Status.OPTIMAL:
        info["not_certified"] = f"the bound {bound!r} does not meet the objective {obj!r} on the true utilities"
    status = verdict
    gap = relative_gap(obj, bound)
    jct = (finish + 1 - inst.arrival) * inst.slot_length
    return HadarSolution(status=status, objective=obj, bound=bound, gap=gap, wall_time=time.perf_counter() - t0,
                         solver=f"p1-milp/{solver}", message=message, info=info, schedule=w, finish_slot=finish,
                         jct=jct, total_utility=obj)


def _set_start(m: pyo.ConcreteModel, w: np.ndarray) -> None:
    """Give P1's ``w``, ``z`` (gang runs), ``u`` (type used) and ``d`` (finish slot) the values of ``w``.

    The continuous shares ``q`` are left to the solver.
    """
    runs = w.sum(axis=(1, 2)) > 0          # (J, T)
    used = w.sum(axis=1) > 0               # (J, R, T)
    T = w.shape[3]
    finish = np.where(runs.any(axis=1), T - 1 - np.argmax(runs[:, ::-1], axis=1), -1)
    for (j, t), v in m.d.items():
        v.value = int(t == finish[j])
    for (j, h, r, t), v in m.w.items():
        v.value = int(w[j, h, r, t])
    for (j, t), v in m.z.items():
        v.value = int(runs[j, t])
    for (j, r, t), v in m.u.items():
        v.value = int(used[j, r, t])


@takes_instance(HadarInstance)
def heuristic_schedule(inst: HadarInstance) -> np.ndarray | None:
    """Hadar's own schedule as a P1 schedule (J, H, R, T), or None when it is not P1-feasible.

    The policy runs with rounds of one slot and no restart delay, so its allocations are P1's
    time slots; the result is kept only if :func:`check_schedule` accepts it.
    """
    try:
        run = simulate(inst, "hadar", round_length=inst.slot_length, restart_delay=0.0)
    except HetoptError:  # a policy that cannot finish (or too many rounds) gives no incumbent
        return None
    w = np.asarray(run.schedule(), dtype=np.int64)
    T = inst.horizon
    if w.shape[3] > T:
        if np.any(w[..., T:]):
            return None
        w = w[..., :T]
    elif w.shape[3] < T:
        w = np.concatenate([w, np.zeros(w.shape[:3] + (T - w.shape[3],), dtype=np.int64)], axis=3)
    return w if check_schedule(inst, w).ok else None


@takes_instance(HadarInstance)
def serial_schedule(inst: HadarInstance) -> np.ndarray | None:
    """Every job alone on its best gang, one after another in arrival order (J, H, R, T); None if past the horizon.

    The cheap incumbent of a time-limited :func:`solve_exact`: the default horizon is this
    schedule's length, so it always fits it.
    """
    J, H, R, T = inst.n_jobs, inst.n_machines, inst.n_types, inst.horizon
    w = np.zeros((J, H, R, T), dtype=np.int64)
    slots = inst.serial_slots()
    cursor = 0
    for j in np.lexsort((np.arange(J), inst.arrival)):
        start = max(cursor, int(inst.arrival[j]))
        end = start + int(slots[j])
        if end > T:
            return None
        gang = np.zeros((H, R), dtype=np.int64)
        left = int(inst.gpus[j])
        for r in np.argsort(-inst.throughput[j], kind="stable"):
            if inst.throughput[j, r] <= 0 or left == 0:
                break
            for h in range(H):
                take = min(left, int(inst.capacity[h, r]))
                gang[h, r] += take
                left -= take
        w[j, :, :, start:end] = gang[:, :, None]
        cursor = end
    return w if check_schedule(inst, w).ok else None


def split_schedule(w: np.ndarray) -> list[list[np.ndarray]]:
    """Per-job schedule lists ``[[w[j]]]`` of a (J, H, R, T) schedule, as P2's ``schedules`` argument."""
    from ..inputs import check_array  # (the module's import line is full)

    w = check_array(w, "w", (None, None, None, None), integer=True, minimum=0)
    return [[np.asarray(w[j])] for j in range(w.shape[0])]


#: Default ``limit`` of :func:`slot_placements` (placements of one gang in one slot).
MAX_PLACEMENTS = 10_000
#: Default ``limit`` of :func:`enumerate_schedules`; the search visits at most ``NODES_PER_SCHEDULE``
#: times as many partial schedules.
MAX_SCHEDULES, NODES_PER_SCHEDULE = 20_000, 50
#: :func:`enumerate_schedules` recurses once per slot: at most this many slots after the arrival.
MAX_SEARCH_DEPTH = 500


@takes_instance(HadarInstance)
def slot_placements(inst: HadarInstance, j: int, *, limit: int = MAX_PLACEMENTS) -> list[np.ndarray]:
    """Every H x R placement of job j's gang in one slot (usable types, within capacity).

    Raises
    ------
    ArgumentError
        ``j`` is not a job index, or ``limit`` is not a positive integer.
    SizeLimitError
        Before enumerating, when there are more than ``limit`` placements (counted exactly).
    """
    check_size(j, "j", minimum=0, maximum=inst.n_jobs - 1)
    check_size(limit, "limit")
    count = gang_count(inst, j)
    if count > limit:
        raise SizeLimitError(f"job {j} has {count} placements of its gang of {int(inst.gpus[j])} GPUs in one slot, "
                             f"above limit={limit}; pass limit={count}")
    cells = [(h, r) for h in range(inst.n_machines) for r in range(inst.n_types)
             if inst.capacity[h, r] > 0 and inst.throughput[j, r] > 0]
    W = int(inst.gpus[j])
    out: list[np.ndarray] = []
    stack: list[tuple[int, int, tuple[int, ...]]] = [(0, W, ())]  # (next cell, GPUs left, counts so far)
    while stack:
        i, left, cur = stack.pop()
        if left == 0:
            p = np.zeros((inst.n_machines, inst.n_types), dtype=np.int64)
            for (h, r), n in zip(cells, cur, strict=False):  # cells left over hold 0
                p[h, r] = n
            out.append(p)
            continue
        if i == len(cells):
            continue
        h, r = cells[i]
        for n in range(0, min(left, int(inst.capacity[h, r])) + 1):  # popped in reverse: most GPUs first
            stack.append((i + 1, left - n, cur + (n,)))
    return out


@takes_instance(HadarInstance)
def enumerate_schedules(inst: HadarInstance, j: int, *, limit: int = MAX_SCHEDULES) -> list[np.ndarray]:
    """All schedules of job j that complete its iterations and stop once complete (the set S_j).

    A schedule runs the job in some slots from ``a_j`` on, with one gang placement per slot,
    until its iterations reach ``E_j N_j``; schedules that keep running after completion are
    left out (they use more capacity for the same utility, so they never help P2).

    Raises
    ------
    ArgumentError
        ``j`` is not a job index, or ``limit`` is not a positive integer.
    SizeLimitError
        When more than ``limit`` schedules exist, or the search visits more than
        ``NODES_PER_SCHEDULE * limit`` partial schedules (the message gives the count and the
        ``limit`` to pass).
    """
    check_size(limit, "limit")
    places = slot_placements(inst, j, limit=limit)
    L, T, a = inst.slot_length, inst.horizon, int(inst.arrival[j])
    if T - a > MAX_SEARCH_DEPTH:
        raise SizeLimitError(f"job {j}: {T - a} slots from its arrival to the horizon, above the {MAX_SEARCH_DEPTH} the "
                             "search for its schedules handles; use a shorter horizon")
    rates = [L * p.sum() * inst.throughput[j, np.flatnonzero(p.sum(axis=0))].min() for p in places]
    need = float(inst.total_iterations[j])
    out: list[np.ndarray] = []
    budget = NODES_PER_SCHEDULE * limit
    visited = [0]

    def rec(t: int, done: float, chosen: list[tuple[int, int]]) -> None:
        visited[0] += 1
        if visited[0] > budget:
            raise SizeLimitError(f"job {j}: the search for its schedules visited more than {budget} partial "
                                 f"schedules ({len(out)} complete so far; {len(places)} placements, {T - a} slots); "
                                 f"pass limit={10 * limit} or a shorter horizon")
        if done >= need * (1 - 1e-9):
            sch = np.zeros((inst.n_machines, inst.n_types, T), dtype=np.int64)
            for tt, k in chosen:
                sch[:, :, tt] = places[k]
            out.append(sch)
            if len(out) > limit:
                raise SizeLimitError(f"job {j} has more than {limit} schedules; pass limit={10 * limit}")
            return
        if t >= T:
            return
        for k, rate in enumerate(rates):
            rec(t + 1, done + rate, chosen + [(t, k)])
        rec(t + 1, done, chosen)

    rec(a, 0.0, [])
    return out


def _unscale(sol: Solution, log_scale: float) -> Solution:
    """``sol`` of a model whose utilities were divided by ``exp(log_scale)``, in true units.

    Scaling multiplies the objective and the bound alike, so the relative gap (and OPTIMAL) carry over;
    a value that is not a normal float64 after the scaling back is an :class:`InstanceError`.
    """
    def back(v: float | None) -> float | None:
        if v is None or not np.isfinite(v) or v == 0:
            return v
        lv = float(np.log(abs(v))) + log_scale
        if not np.log(_TINY) <= lv <= np.log(_HUGE):
            raise InstanceError(f"utility: a total utility of e^{lv:.6g} is not a normal float64; rescale the "
                                "utilities (theta1 of utility.params)")
        return float(np.sign(v) * np.exp(lv))

    obj, bound = back(sol.objective), back(sol.bound)
    return Solution(status=sol.status, objective=obj, bound=bound, gap=relative_gap(obj, bound),
                    wall_time=sol.wall_time, solver=sol.solver, sense=sol.sense,
                    message=f"{sol.message}; utilities scaled by e^{log_scale:.6g}", info=dict(sol.info))


@takes_instance(HadarInstance)
def solve_p2(inst: HadarInstance, schedules: Sequence[Sequence[np.ndarray]], *, relax: bool = False,
             require_all: bool = False) -> tuple[Solution, dict[tuple[int, int], float]]:
    """Solve P2 (or its LP relaxation); returns ``(Solution, y)`` with ``y[(j, s)]`` values.

    ``relax`` and ``require_all`` are those of :func:`~hetopt.hadar.model.build_p2`.  The model is
    solved with its utilities divided by the largest one (``scaled=True``, HiGHS with absolute gap
    0) and the objective and bound are brought back to true units.
    """
    m = build_p2(inst, schedules, relax=relax, require_all=require_all, scaled=True)
    sol = solve_model(m, "highs", threads=1, options={"mip_abs_gap": 0.0})
    return _unscale(sol, float(pyo.value(m.log_utility_scale))), {p: float(v.value) for p, v in m.y.items()}


@takes_instance(HadarInstance)
def solve_p3(inst: HadarInstance, schedules: Sequence[Sequence[np.ndarray]]) -> tuple[Solution, np.ndarray, np.ndarray]:
    """Solve P3; returns ``(Solution, k, mu)`` with prices ``k`` (H, R, T) and payoffs ``mu`` (J,).

    Solved with the utilities divided by the largest one (``scaled=True``); the objective, prices
    and payoffs are returned in true units.
    """
    m = build_p3(inst, schedules, scaled=True)
    sol = solve_model(m, "highs", threads=1)
    log_scale = float(pyo.value(m.log_utility_scale))
    T = next(iter(schedules[0])).shape[2]
    k = np.zeros((inst.n_machines, inst.n_types, T))
    for (h, r, t), v in m.k.items():
        k[h, r, t] = v.value
    mu = np.array([m.mu[j].value for j in range(inst.n_jobs)])
    with np.errstate(over="ignore", under="ignore"):
        factor = float(np.exp(log_scale))
    return _unscale(sol, log_scale), k * factor, mu * factor
