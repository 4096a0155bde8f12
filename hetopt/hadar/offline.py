"""The offline optimum of P1 and the schedule sets S_j of P2/P3.

``solve_exact`` solves the exact time-indexed MILP of :func:`~hetopt.hadar.model.build_p1`
with HiGHS and certifies the returned schedule with the independent checker.
``enumerate_schedules`` lists every schedule of one job on a tiny instance (the full S_j),
so that P2 over all schedules can be checked against P1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pyomo.environ as pyo

from ..errors import HetoptError, SizeLimitError, SolverError
from ..inputs import check_choice, check_flag, check_size, check_threads, check_time_limit, takes_instance
from ..result import Solution
from ..solvers import PYOMO_SOLVERS, solve_model
from .checker import check_schedule
from .instance import HadarInstance
from .model import build_p1, build_p2, build_p3
from .result import HadarSolution
from .simulator import simulate

__all__ = ["solve_exact", "schedule_of", "split_schedule", "slot_placements", "enumerate_schedules",
           "solve_p2", "solve_p3", "MAX_P1_INTEGERS", "heuristic_schedule"]

#: ``solve_exact`` refuses instances whose P1 has more GPU-count variables than this.
MAX_P1_INTEGERS = 20_000


def schedule_of(model: pyo.ConcreteModel, inst: HadarInstance) -> np.ndarray:
    """The solved ``w`` of a P1 model as a (J, H, R, T) integer array."""
    w = np.zeros((inst.n_jobs, inst.n_machines, inst.n_types, inst.horizon), dtype=np.int64)
    for (j, h, r, t), v in model.w.items():
        val = v.value
        if val is not None:
            w[j, h, r, t] = int(round(val))
    return w


@takes_instance(HadarInstance)
def solve_exact(inst: HadarInstance, *, solver: str = "highs", time_limit: float | None = None,
                threads: int | None = 1, warm_start: bool = True) -> HadarSolution:
    """The certified optimum of P1 (or the incumbent and dual bound when time-limited).

    With ``warm_start`` (default), Hadar's own round-by-round schedule (when it fits the
    horizon) is given to the solver as a starting solution (its ``w``, gang and type
    indicators; the solver completes the rest); a run stopped before any incumbent of its own
    reports that schedule.

    Parameters
    ----------
    inst : HadarInstance
    solver : {"highs", "scip"}
    time_limit : float, optional
        Seconds (None: no limit).
    threads : int, optional
        Solver threads (default 1; None: the solver's default).
    warm_start : bool
        Start from Hadar's own schedule (see above).

    Returns
    -------
    HadarSolution
        OPTIMAL only when the solver proved the optimum; TIME_LIMIT with the incumbent and
        the dual bound otherwise.

    Raises
    ------
    ArgumentError
        An unknown ``solver`` or a bad ``time_limit``, ``threads`` or ``warm_start``.
    SizeLimitError
        When the MILP would have more than ``MAX_P1_INTEGERS`` GPU-count variables.
    SolverError
        When the solver fails, stops with no schedule, or its schedule fails the independent checker.
    """
    check_choice(solver, "solver", tuple(PYOMO_SOLVERS))
    time_limit = check_time_limit(time_limit)
    threads = check_threads(threads)
    check_flag(warm_start, "warm_start")
    size = inst.n_jobs * inst.n_machines * inst.n_types * inst.horizon
    if size > MAX_P1_INTEGERS:
        raise SizeLimitError(f"P1 has {size} GPU-count variables (J*H*R*T); solve_exact handles at most "
                             f"{MAX_P1_INTEGERS}")
    m = build_p1(inst)
    hint = heuristic_schedule(inst)
    if warm_start and hint is not None:
        _set_start(m, hint)
    sol = solve_model(m, solver, time_limit=time_limit, threads=threads, require_incumbent=False,
                      warm_start=warm_start and hint is not None)
    if sol.objective is None:
        w = hint
        if w is None:
            raise SolverError(f"{solver}: time limit reached with no feasible solution (and Hadar's "
                              f"schedule does not fit the horizon)")
        sol = replace(sol, message=f"{sol.message}; no solver incumbent, Hadar's round-by-round schedule reported")
    else:
        w = schedule_of(m, inst)
    chk = check_schedule(inst, w)
    if not chk.ok:
        raise SolverError(f"P1 schedule from {solver} fails the checker: {chk.violations[:3]}")
    jct = (chk.info["finish_slot"] + 1 - inst.arrival) * inst.slot_length
    return HadarSolution(status=sol.status, objective=chk.objective, bound=sol.bound, gap=sol.gap,
                         wall_time=sol.wall_time, solver=f"p1-milp/{solver}", message=sol.message,
                         schedule=w, finish_slot=chk.info["finish_slot"], jct=jct, total_utility=chk.objective)


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


def split_schedule(w: np.ndarray) -> list[list[np.ndarray]]:
    """Per-job schedule lists ``[[w[j]]]`` of a (J, H, R, T) schedule, as P2's ``schedules`` argument."""
    return [[np.asarray(w[j])] for j in range(w.shape[0])]


@takes_instance(HadarInstance)
def slot_placements(inst: HadarInstance, j: int) -> list[np.ndarray]:
    """Every H x R placement of job j's gang in one slot (usable types, within capacity)."""
    check_size(j, "j", minimum=0, maximum=inst.n_jobs - 1)
    cells = [(h, r) for h in range(inst.n_machines) for r in range(inst.n_types)
             if inst.capacity[h, r] > 0 and inst.throughput[j, r] > 0]
    W = int(inst.gpus[j])
    out: list[np.ndarray] = []

    def rec(i: int, left: int, cur: list[int]) -> None:
        if left == 0:
            p = np.zeros((inst.n_machines, inst.n_types), dtype=np.int64)
            for (h, r), n in zip(cells, cur, strict=False):  # cells left over hold 0
                p[h, r] = n
            out.append(p)
            return
        if i == len(cells):
            return
        h, r = cells[i]
        for n in range(min(left, int(inst.capacity[h, r])), -1, -1):
            rec(i + 1, left - n, cur + [n])

    rec(0, W, [])
    return out


@takes_instance(HadarInstance)
def enumerate_schedules(inst: HadarInstance, j: int, *, limit: int = 20_000) -> list[np.ndarray]:
    """All schedules of job j that complete its iterations and stop once complete (the set S_j).

    A schedule runs the job in some slots from ``a_j`` on, with one gang placement per slot,
    until its iterations reach ``E_j N_j``; schedules that keep running after completion are
    left out (they use more capacity for the same utility, so they never help P2).

    Raises
    ------
    ArgumentError
        ``j`` is not a job index, or ``limit`` is not a positive integer.
    SizeLimitError
        When more than ``limit`` schedules exist.
    """
    check_size(limit, "limit")
    places = slot_placements(inst, j)
    L, T, a = inst.slot_length, inst.horizon, int(inst.arrival[j])
    rates = [L * p.sum() * inst.throughput[j, np.flatnonzero(p.sum(axis=0))].min() for p in places]
    need = float(inst.total_iterations[j])
    out: list[np.ndarray] = []

    def rec(t: int, done: float, chosen: list[tuple[int, int]]) -> None:
        if done >= need * (1 - 1e-9):
            sch = np.zeros((inst.n_machines, inst.n_types, T), dtype=np.int64)
            for tt, k in chosen:
                sch[:, :, tt] = places[k]
            out.append(sch)
            if len(out) > limit:
                raise SizeLimitError(f"job {j} has more than {limit} schedules")
            return
        if t >= T:
            return
        for k, rate in enumerate(rates):
            rec(t + 1, done + rate, chosen + [(t, k)])
        rec(t + 1, done, chosen)

    rec(a, 0.0, [])
    return out


@takes_instance(HadarInstance)
def solve_p2(inst: HadarInstance, schedules: Sequence[Sequence[np.ndarray]], *, relax: bool = False,
             require_all: bool = False) -> tuple[Solution, dict[tuple[int, int], float]]:
    """Solve P2 (or its LP relaxation); returns ``(Solution, y)`` with ``y[(j, s)]`` values.

    ``relax`` and ``require_all`` are those of :func:`~hetopt.hadar.model.build_p2`.
    """
    m = build_p2(inst, schedules, relax=relax, require_all=require_all)
    sol = solve_model(m, "highs", threads=1)
    return sol, {p: float(v.value) for p, v in m.y.items()}


@takes_instance(HadarInstance)
def solve_p3(inst: HadarInstance, schedules: Sequence[Sequence[np.ndarray]]) -> tuple[Solution, np.ndarray, np.ndarray]:
    """Solve P3; returns ``(Solution, k, mu)`` with prices ``k`` (H, R, T) and payoffs ``mu`` (J,)."""
    m = build_p3(inst, schedules)
    sol = solve_model(m, "highs", threads=1)
    T = next(iter(schedules[0])).shape[2]
    k = np.zeros((inst.n_machines, inst.n_types, T))
    for (h, r, t), v in m.k.items():
        k[h, r, t] = v.value
    mu = np.array([m.mu[j].value for j in range(inst.n_jobs)])
    return sol, k, mu
