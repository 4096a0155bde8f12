"""Exact solution of Hare_Sched: two engines behind ``solve_exact`` (the CP-SAT interval model of
:mod:`hetopt.hare.cpsat`, default, and the big-M MILP of (4)-(8), the declarative statement),
and brute force for tiny instances.
"""

from __future__ import annotations

import itertools
import time

import numpy as np
import pyomo.environ as pyo

from ..errors import SizeLimitError
from ..result import OPTIMAL_RTOL, Status
from ..solvers import solve_model
from .bounds import greedy_schedule
from .checker import check_schedule
from .instance import HareInstance
from .model import build_hare_sched
from .solution import HareSolution, make_solution

__all__ = ["solve_exact", "ENGINES", "DEFAULT_ENGINE", "brute_force", "BRUTE_FORCE_LIMIT", "model_decision", "semi_active", "best_known_objective"]

#: Exact engines: the Pyomo big-M MILP (HiGHS or SCIP) and the CP-SAT interval model.
ENGINES = ("milp", "cpsat")
#: The engine of ``solve_exact`` when neither ``engine`` nor a MILP ``solver`` is given: CP-SAT,
#: the faster proven engine (``hetopt bench hare``; models/hare2022.md, section "Exact engines").
DEFAULT_ENGINE = "cpsat"

#: Largest ``|D|! * |M|^|D|`` that :func:`brute_force` accepts.
BRUTE_FORCE_LIMIT = 200_000


def model_decision(model: pyo.ConcreteModel, inst: HareInstance) -> tuple[np.ndarray, np.ndarray]:
    """Start times and GPUs (``argmax_m y_{i,m}``) read from a solved Hare model."""
    start = np.array([pyo.value(model.x[i]) for i in range(inst.n_tasks)])
    y = np.array([[pyo.value(model.y[i, g]) for g in range(inst.n_gpus)] for i in range(inst.n_tasks)])
    return start, y.argmax(axis=1)


def solve_exact(inst: HareInstance, solver: str | None = None, *, engine: str | None = None,
                time_limit: float | None = None, mip_gap: float | None = None, threads: int | None = 1,
                symmetry_breaking: bool = True) -> HareSolution:
    """Solve Hare_Sched (4)-(8) to optimality with CP-SAT or the big-M MILP (HiGHS or SCIP).

    Parameters
    ----------
    inst : HareInstance
    solver : {"highs", "scip"}, optional
        The MILP solver; giving one selects ``engine="milp"`` (default solver "highs").
    engine : {"milp", "cpsat"}, optional
        ``"cpsat"``: the interval model of :mod:`hetopt.hare.cpsat` (integer-scaled times,
        bound valid for the true data); ``"milp"``: the Pyomo GDP/big-M MILP of
        :func:`hetopt.hare.model.build_hare_sched`.  Default :data:`DEFAULT_ENGINE` unless
        ``solver`` is given.
    time_limit : float, optional
        Seconds; a stopped solve is TIME_LIMIT with the incumbent and the solver's bound.
    mip_gap : float, optional
        Relative gap (default: exact optima); MILP engine only.
    threads : int, optional
    symmetry_breaking : bool
        See :func:`hetopt.hare.model.build_hare_sched`.

    Returns
    -------
    HareSolution
        ``method="exact"``; ``bound`` is the solver-certified lower bound, equal to the
        objective (up to ``OPTIMAL_RTOL``) when the status is OPTIMAL.  The schedule
        passes :func:`hetopt.hare.check_schedule`.

    References
    ----------
    .. [1] F. Chen et al., "Hare", HPDC 2022, problem Hare_Sched (4)-(8).
    """
    from ..inputs import check_instance

    check_instance(inst, HareInstance, "inst")
    if engine is None:
        engine = "milp" if solver is not None else DEFAULT_ENGINE
    if engine not in ENGINES:
        raise ValueError(f"engine is {engine!r}; expected one of {', '.join(ENGINES)}")
    if engine == "cpsat":
        if solver not in (None, "cpsat"):
            raise ValueError(f"solver is {solver!r}; the cpsat engine takes no MILP solver (use engine='milp')")
        if mip_gap is not None:
            raise ValueError(f"mip_gap is {mip_gap!r}; the cpsat engine proves exact optima only (use engine='milp')")
        from .cpsat import solve_cpsat_exact

        return solve_cpsat_exact(inst, time_limit=time_limit, threads=threads, symmetry_breaking=symmetry_breaking)
    solver = "highs" if solver is None else solver
    t0 = time.perf_counter()
    heur_start, heur_gpu, ub = best_known_schedule(inst)
    model = build_hare_sched(inst, symmetry_breaking=symmetry_breaking, upper_objective=ub)
    res = solve_model(model, solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads,
                      require_incumbent=False)
    if res.objective is None:  # stopped before any incumbent: the best heuristic schedule is the incumbent
        return make_solution(inst, heur_start, heur_gpu, method="exact", status=res.status, bound=res.bound,
                             wall_time=time.perf_counter() - t0, solver=res.solver,
                             message=f"{res.message}; no solver incumbent, heuristic schedule reported",
                             info={"model_objective": None, "upper_bound_used": ub, "incumbent": "heuristic"})
    raw_start, gpu = model_decision(model, inst)
    # re-time the solver's decision (assignment and order of starts) semi-actively: removes
    # the solver's feasibility-tolerance noise, never increases any start beyond noise
    order = tuple(np.lexsort((inst.task_round, raw_start)))
    start = semi_active(inst, order, gpu)[0]
    status = res.status
    sol = make_solution(inst, start, gpu, method="exact", status=status, bound=res.bound,
                        wall_time=time.perf_counter() - t0, solver=res.solver, message=res.message,
                        info={"model_objective": res.objective, "upper_bound_used": ub})
    if status is Status.OPTIMAL and sol.gap is not None and sol.gap > OPTIMAL_RTOL:
        # the recomputed objective of the rounded decision must match the certified optimum
        sol = make_solution(inst, start, gpu, method="exact", status=Status.FEASIBLE, bound=res.bound,
                            wall_time=sol.wall_time, solver=res.solver,
                            message=f"{res.message}; recomputed objective differs from the solver's",
                            info=sol.info)
    return sol


def best_known_objective(inst: HareInstance) -> float:
    """The objective of :func:`best_known_schedule`."""
    return best_known_schedule(inst)[2]


def best_known_schedule(inst: HareInstance) -> tuple[np.ndarray, np.ndarray, float]:
    """``(start, gpu, objective)`` of the best among cheap feasible schedules (tight big-M constants).

    The best value among cheap feasible schedules: tight bounds, hence tight big-M constants.

    Candidates: :func:`hetopt.hare.bounds.greedy_schedule`, every baseline (online and up-front) and
    Algorithm 1's list scheduling (both GPU rules) on the round-earliest-start order; every
    one is checked by :func:`check_schedule`.
    """
    from .algorithm1 import GPU_RULES, list_schedule
    from .online import ALL_BASELINES, SINGLE_GPU_BASELINES

    cands = [greedy_schedule(inst)]
    prio = inst.arrival[inst.task_job] + inst.task_round * inst.min_round_time[inst.task_job]
    cands += [list_schedule(inst, prio, rule) for rule in GPU_RULES]
    fits = bool((inst.tasks_per_round <= inst.n_gpus).all())
    for name, f in ALL_BASELINES.items():
        if fits or name in SINGLE_GPU_BASELINES:
            sol = f(inst)
            cands.append((sol.start, sol.gpu))
    values = [check_schedule(inst, c).raise_if_invalid().objective for c in cands]
    k = int(np.argmin(values))
    return np.asarray(cands[k][0], dtype=float), np.asarray(cands[k][1]), float(values[k])


def semi_active(inst: HareInstance, order: tuple[int, ...], gpu: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Semi-active schedule of a task order with a fixed assignment; None if the order breaks (7).

    Each task, in ``order``, starts at the later of its availability (arrival or previous
    round's synchronization end) and its GPU's compute end.  Returns ``(start, objective)``.
    """
    tc, ts = inst.task_compute, inst.task_sync
    free = np.zeros(inst.n_gpus)
    start = np.empty(inst.n_tasks)
    round_end: dict[tuple[int, int], float] = {}
    done_in_round: dict[tuple[int, int], int] = {}
    for i in order:
        n, r = int(inst.task_job[i]), int(inst.task_round[i])
        if r > 0 and done_in_round.get((n, r - 1), 0) < inst.tasks_per_round[n]:
            return None
        ready = inst.arrival[n] if r == 0 else round_end[(n, r - 1)]
        m = gpu[i]
        start[i] = max(ready, free[m])
        free[m] = start[i] + tc[i, m]
        round_end[(n, r)] = max(round_end.get((n, r), -np.inf), free[m] + ts[i, m])
        done_in_round[(n, r)] = done_in_round.get((n, r), 0) + 1
    comp = np.array([round_end[(n, int(inst.rounds[n]) - 1)] for n in range(inst.n_jobs)])
    return start, float(inst.weight @ comp)


def brute_force(inst: HareInstance) -> HareSolution:
    """Exact optimum by enumerating assignments and task orders (tiny instances only).

    For a regular objective an optimal schedule is semi-active: given every task's GPU and
    the order of starts, each task starts as early as (4), (7) and its GPU allow.  Every
    semi-active schedule is produced by some (assignment, order) pair, so enumerating all
    ``|M|^|D| |D|!`` pairs finds the optimum.  Independent of the MILP; used to test it.

    Raises
    ------
    SizeLimitError
        When ``|D|! |M|^|D|`` exceeds :data:`BRUTE_FORCE_LIMIT`.
    """
    from ..inputs import check_instance

    check_instance(inst, HareInstance, "inst")
    d, mm = inst.n_tasks, inst.n_gpus
    size = np.prod(np.arange(1, d + 1, dtype=float)) * float(mm) ** d
    if size > BRUTE_FORCE_LIMIT:
        raise SizeLimitError(f"brute force over |D|! |M|^|D| = {size:.3g} cases; limit {BRUTE_FORCE_LIMIT}")
    t0 = time.perf_counter()
    best = (np.inf, None, None)
    orders = list(itertools.permutations(range(d)))
    for assign in itertools.product(range(mm), repeat=d):
        gpu = np.array(assign)
        for order in orders:
            out = semi_active(inst, order, gpu)
            if out is not None and out[1] < best[0] - 1e-12:
                best = (out[1], out[0], gpu)
    obj, start, gpu = best
    return make_solution(inst, start, gpu, method="brute_force", status=Status.OPTIMAL, bound=obj,
                         wall_time=time.perf_counter() - t0, solver="enumeration")
