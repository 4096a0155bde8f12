"""Hare_Sched (4)-(8) as an OR-Tools CP-SAT interval model: the fast exact engine.

Per task ``i`` and GPU ``m`` an optional interval of length ``T^c_{i,m}`` (present iff
``y_{i,m} = 1``) starting at ``x_i``; (5) exactly one present interval per task; (8) one
``AddNoOverlap`` per GPU over its optional intervals (the later of two tasks on a GPU
starts after the earlier one's compute time); (4) ``x_i >= a_n``; (6) and (7) through
round-end variables ``E_{n,r} >= x_i + sum_m y_{i,m} (T^c_{i,m} + T^s_{i,m})`` for the
tasks of round ``r``, ``x_j >= E_{n,r}`` for the tasks of round ``r+1`` and
``C_n = E_{n,|R_n|-1}``; objective ``min sum_n w_n C_n``.  The identical tasks of one round
of a job start in index order (the MILP's ``symmetry_breaking``; optimum unchanged).

Integer scaling and the certificate (issue 25)
----------------------------------------------
CP-SAT works on integers.  :func:`hetopt.hare.exact.scaling.scaling` scales times by ``S`` and weights by ``W``,
exactly when the data's own decimals fit CP-SAT's integer range (the scaled model IS the true one times ``S W``:
a weight of ``1e-10`` next to 1, a compute time of ``1e-9`` next to 1), else with times rounded UP and weights
DOWN (the rounding mode; see that module).

* Incumbent: CP-SAT's assignment and order of starts are re-timed semi-actively on the TRUE data
  (:func:`hetopt.hare.listsched.semi_active`); the objective is recomputed with the true weights.
* Bound: from CP-SAT's bound ``B`` on the scaled model, ``OPT >= (B - A) / (S W)`` with the scaling's allowance
  ``A`` (0 when exact; otherwise the rounding of every chain of the semi-active schedule and the raised
  weights), times ``1 - MARGIN`` for reading floats as their decimals; combined with the first stage's bound
  (column generation) and the trivial ``sum_n w_n (a_n + |R_n| L_n)``
  (:func:`hetopt.hare.bounds.trivial_bound`).  A candidate bound above the recomputed objective would be an
  invalid one: it is dropped (``info["rejected_bounds"]``).

The result is OPTIMAL only when this bound on the true data meets the recomputed objective within
``OPTIMAL_RTOL``, re-checked after the solve; otherwise FEASIBLE or TIME_LIMIT with the bound and gap.  A CP-SAT
run that fails (no solution, no limit) or a first stage that fails falls back to the best cheap schedule and the
remaining bounds, with the reason in ``info``.  Above 12 tasks the job-level column-generation bound of
:mod:`hetopt.hare.exact.jobcolgen` runs first: its bound is combined, and its mean starts give hint candidates
(:func:`solve_cpsat_exact`).

References
----------
.. [1] F. Chen et al., "Hare", HPDC 2022, problem Hare_Sched (4)-(8).
.. [2] L. Perron, F. Didier, "CP-SAT", OR-Tools v9, Google (2024), https://developers.google.com/optimization.
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any

import numpy as np

from ...certify import Status, certify
from ...errors import ArgumentError, HetoptError, SolverError
from ...inputs import check_flag, check_positive, check_seed, check_threads, check_time_limit
from ...result import Solution
from ...solvers import solve_cpsat
from ...solvers.pyomo_models import MIN_SOLVER_SECONDS
from ..bounds import round_length_bound, time_bounds, trivial_bound
from ..instance import HareInstance
from ..listsched import GPU_RULES, list_schedule, semi_active
from ..solution import HareSolution, make_solution
from .jobcolgen import RESOLUTION, JobColgenBound, completion_limits, job_colgen_bound
from .localsearch import improve_schedule
from .scaling import MARGIN, Scaling, rounded_down_instance, scaled_instance, scaling
from .start import best_known_schedule, cheap_schedule
from .symmetry import canonical, completions, identical_gpus

__all__ = ["build_cpsat", "solve_cpsat_exact", "coarse_bound", "cpsat_seed", "COARSE_MIN_TASKS", "COARSE_TIME",
           "LP_SHARE", "LP_TIME", "LP_REFINE_FACTOR", "CPSAT_OPTIONS", "ROUND_BOUND", "MAX_CPSAT_SEED"]

log = logging.getLogger(__name__)

#: ``solve_cpsat_exact`` starts with the coarse rounded-down model above this many tasks.
COARSE_MIN_TASKS = 12
#: Seconds for the coarse model when the solve has no time limit.
COARSE_TIME = 20.0
#: Seconds per interval (task x GPU) to build the model (435 tasks, 8 GPUs: 0.1-0.2 s), checked under a time limit.
SECONDS_PER_INTERVAL = 6e-5
#: CP-SAT parameters of every solve of this engine (``options`` of :func:`solve_cpsat_exact` override them):
#: no LP relaxation of the constraints and the strong disjunctive propagation (issue 25, item 6; measured
#: in ``hetopt bench hare``, :func:`hetopt.hare.experiments.bench.cpsat_option_table`: with the round-length bound,
#: less deterministic time on every instance and a proof at 15 tasks that took more than 60 s without).
CPSAT_OPTIONS: dict[str, Any] = {"linearization_level": 0, "use_strong_propagation_in_disjunctive": True}
#: The per-job bound on a round's length in the CP-SAT model (:func:`build_cpsat`) by default (with
#: :data:`CPSAT_OPTIONS`: the measurement of :func:`hetopt.hare.experiments.bench.cpsat_option_table`).
ROUND_BOUND = True
#: CP-SAT's ``random_seed`` is a 32-bit integer.
MAX_CPSAT_SEED = 2**31 - 1


def cpsat_seed(value: Any, name: str = "seed") -> int:
    """A seed for CP-SAT's ``random_seed``: an integer in ``[0, 2**31 - 1]``, or drawn from a Generator.

    Parameters
    ----------
    value : int, numpy.random.Generator or None
        The seed; None is 0.
    name : str
        The argument's name in errors.

    Returns
    -------
    int

    Raises
    ------
    ArgumentError
        A seed that :func:`hetopt.inputs.check_seed` refuses, or an integer above CP-SAT's range.
    """
    s = check_seed(value, name)
    if s is None:
        return 0
    if isinstance(s, np.random.Generator):
        return int(s.integers(MAX_CPSAT_SEED + 1))
    if s > MAX_CPSAT_SEED:
        raise ArgumentError(f"{name} is {value!r}; CP-SAT takes seeds in [0, 2**31 - 1] (its random_seed is 32-bit)")
    return int(s)


def build_cpsat(inst: HareInstance, *, symmetry_breaking: bool = True, hint: tuple | None = None,
                upper_objective: float | None = None, redundant: bool = False, gpu_symmetry: bool = True,
                completion_upper: np.ndarray | None = None, round_bound: bool = False) -> tuple[Any, dict[str, Any]]:
    """The CP-SAT model of Hare_Sched for an instance with integer-valued data.

    Parameters
    ----------
    inst : HareInstance
        Integer-valued times and weights (:func:`hetopt.hare.exact.scaling.scaled_instance`).
    symmetry_breaking : bool
        Identical tasks of a round start in index order.
    hint : (start, gpu), optional
        A feasible schedule of ``inst`` given to CP-SAT as a solution hint.
    upper_objective : float, optional
        Objective of a feasible schedule: the variable domains are those of
        :func:`hetopt.hare.bounds.time_bounds` (valid for every solution at least as good).
    redundant : bool
        Add an implied cumulative over all GPUs (at most ``|M|`` tasks compute at once; each
        task an interval of length ``sum_m y_{i,m} T^c_{i,m}``).  Default False: it slowed the
        proofs (deterministic time, 1 worker, 16 tasks seed 0: 8.71 with it, 4.62 without).
    gpu_symmetry : bool
        For GPUs with identical columns of ``T^c`` and ``T^s``, the relabelling symmetry
        breaking "task ``i`` may use the ``k``-th of a group of identical GPUs only if a task
        ``j < i`` uses the ``(k-1)``-th" (any schedule can be relabelled so: order the group's
        GPUs by their first task).
    completion_upper : numpy.ndarray, optional
        Per job an upper bound on ``C_n`` (scaled units; ``inf`` for none) that holds in every
        schedule at least as good as the hint (:func:`hetopt.hare.exact.jobcolgen.completion_limits`).
    round_bound : bool
        Bound every round's length by :func:`hetopt.hare.bounds.round_length_bound` (the job's
        tasks spread over the GPUs, stacked): in the variable domains
        (:func:`hetopt.hare.bounds.time_bounds`) and as ``E_{n,r} >= E_{n,r-1} + L_n``.

    Returns
    -------
    (CpModel, dict)
        The model and its variables: ``x`` (starts), ``y`` (dict ``(i, m)`` -> presence
        literal), ``C`` (completions).
    """
    from ortools.sat.python import cp_model

    tc, ts = inst.task_compute.astype(np.int64), inst.task_sync.astype(np.int64)
    if not (np.array_equal(tc, inst.task_compute) and np.array_equal(ts, inst.task_sync)
            and np.array_equal(np.round(inst.arrival), inst.arrival) and np.array_equal(np.round(inst.weight), inst.weight)):
        raise ArgumentError("inst has non-integer times or weights; scale it with "
                            "hetopt.hare.exact.scaling.scaled_instance first")
    b = time_bounds(inst, upper_objective, round_bound=round_bound)
    horizon = int(inst.arrival.max() + (tc + ts).max(axis=1).sum())
    xl = np.floor(b.x_lower).astype(np.int64)
    xu = np.minimum(np.ceil(b.x_upper), horizon).astype(np.int64)
    cl = np.floor(b.c_lower).astype(np.int64)
    cu = np.minimum(np.ceil(b.c_upper), horizon + int((tc + ts).max())).astype(np.int64)
    m = cp_model.CpModel()
    d, mm = inst.n_tasks, inst.n_gpus
    job = inst.task_job
    x = [m.new_int_var(int(xl[i]), int(max(xl[i], xu[i])), f"x{i}") for i in range(d)]
    y: dict[tuple[int, int], Any] = {}
    per_gpu: list[list[Any]] = [[] for _ in range(mm)]
    for i in range(d):
        for g in range(mm):
            y[i, g] = m.new_bool_var(f"y{i}_{g}")
            per_gpu[g].append(m.new_optional_fixed_size_interval_var(x[i], int(tc[i, g]), y[i, g], f"I{i}_{g}"))
        m.add_exactly_one(y[i, g] for g in range(mm))  # (5)
        m.add(x[i] >= int(math.ceil(inst.arrival[job[i]])))  # (4)
    for g in range(mm):
        m.add_no_overlap(per_gpu[g])  # (8)
    lens = ends = None
    groups = identical_gpus(np.concatenate([tc.T, ts.T], axis=1)) if gpu_symmetry else []
    for group in groups:
        for prev, g in zip(group, group[1:], strict=False):
            for i in range(d):
                m.add(y[i, g] <= sum(y[j, prev] for j in range(i)))
    if redundant and mm > 1:
        lens = [m.new_int_var(int(tc[i].min()), int(tc[i].max()), f"p{i}") for i in range(d)]
        for i in range(d):
            m.add(lens[i] == sum(int(tc[i, g]) * y[i, g] for g in range(mm)))
        ends = [m.new_int_var(int(xl[i]), int(max(xl[i], xu[i])) + int(tc[i].max()), f"e{i}") for i in range(d)]
        m.add_cumulative([m.new_interval_var(x[i], lens[i], ends[i], f"J{i}") for i in range(d)], [1] * d, mm)
    C = [m.new_int_var(int(cl[n]), int(max(cl[n], cu[n])), f"C{n}") for n in range(inst.n_jobs)]
    ends_of = _add_rounds(m, inst, x, y, C, cu, tc, ts, symmetry_breaking)
    if round_bound:
        L = np.round(round_length_bound(inst)).astype(np.int64)
        for n in range(inst.n_jobs):
            prev = int(round(inst.arrival[n]))
            for r in range(int(inst.rounds[n])):
                m.add(ends_of[n, r] >= prev + int(L[n]))
                prev = ends_of[n, r]
    if completion_upper is not None:
        for n, lim in enumerate(completion_upper):
            if np.isfinite(lim):
                m.add(C[n] <= int(lim))
    m.minimize(sum(int(inst.weight[n]) * C[n] for n in range(inst.n_jobs)))
    if hint is not None:
        _add_hint(m, inst, hint, x, y, ends_of, lens, ends, tc, ts, symmetry_breaking, groups)
    return m, {"x": x, "y": y, "C": C}


def _add_rounds(m: Any, inst: HareInstance, x: list, y: dict, C: list, cu: np.ndarray, tc: np.ndarray,
                ts: np.ndarray, symmetry_breaking: bool) -> dict[tuple[int, int], Any]:
    """(6) and (7) through round-end variables (``C_n`` for the last round); returns them by (job, round)."""
    mm = inst.n_gpus
    ends_of = {}
    for n in range(inst.n_jobs):
        R = int(inst.rounds[n])
        for r in range(R):
            tasks = list(inst.round_tasks(n, r))
            end = C[n] if r == R - 1 else m.new_int_var(0, int(cu[n]), f"E{n}_{r}")
            ends_of[n, r] = end
            for i in tasks:  # (6) for the last round, (7) with the next round's starts
                m.add(end >= x[i] + sum(int(tc[i, g] + ts[i, g]) * y[i, g] for g in range(mm)))
            if r < R - 1:
                for j in inst.round_tasks(n, r + 1):
                    m.add(x[j] >= end)
            if symmetry_breaking:
                for i, j in zip(tasks, tasks[1:], strict=False):
                    m.add(x[i] <= x[j])
    return ends_of


def _add_hint(m: Any, inst: HareInstance, hint: tuple, x: list, y: dict, ends_of: dict, lens: list | None,
              ends: list | None, tc: np.ndarray, ts: np.ndarray, symmetry_breaking: bool,
              groups: list[list[int]]) -> None:
    """A complete hint: relabelled to satisfy the symmetry breaking, round ends included."""
    d, mm = inst.n_tasks, inst.n_gpus
    start, gpu = canonical(inst, np.round(np.asarray(hint[0], dtype=float)), np.asarray(hint[1]),
                            symmetry_breaking, groups)
    fin = start + tc[np.arange(d), gpu] + ts[np.arange(d), gpu]
    for i in range(d):
        m.add_hint(x[i], int(start[i]))
        for g in range(mm):
            m.add_hint(y[i, g], int(gpu[i] == g))
        if lens is not None and ends is not None:
            m.add_hint(lens[i], int(tc[i, gpu[i]]))
            m.add_hint(ends[i], int(start[i] + tc[i, gpu[i]]))
    for (n, r), var in ends_of.items():
        m.add_hint(var, int(max(fin[list(inst.round_tasks(n, r))])))


def solve_cpsat_exact(inst: HareInstance, *, time_limit: float | None = None, threads: int | None = 1,
                      symmetry_breaking: bool = True, seed: int = 0, coarse: bool | None = None,
                      lp_bound: bool | None = None, redundant: bool = False, objective_cut: bool = False,
                      options: dict | None = None, polish: float = 0.0, fixing: bool = True,
                      round_bound: bool | None = None) -> HareSolution:
    """Solve Hare_Sched with CP-SAT on the scaled data; certificate on the true data.

    Parameters
    ----------
    inst : HareInstance
    time_limit : float, optional
        Seconds for all of it; a stopped solve is TIME_LIMIT with the re-timed incumbent and a valid bound.  The
        model is not built when the first stage left less than :data:`SECONDS_PER_INTERVAL` per interval.
    threads : int, optional
        CP-SAT workers (1: deterministic).
    symmetry_breaking : bool
    seed : int
    coarse : bool, optional
        First solve a coarse rounded-DOWN model (:func:`coarse_bound`, a third of the time limit, at most
        :data:`COARSE_TIME` s without one): its bound is valid for the true problem (combined with the others; a
        cut on the objective with ``objective_cut``), its schedule (re-timed) as the hint.  Default False: the
        column-generation bound (``lp_bound``) is stronger (models/hare2022.md).
    lp_bound : bool, optional
        First compute the job-level column-generation bound (:func:`hetopt.hare.exact.jobcolgen.job_colgen_bound`,
        at most :data:`LP_SHARE` of the time limit; again on a grid twice as fine when time is left,
        :data:`LP_REFINE_FACTOR`): its bound is valid for the true problem and is combined with CP-SAT's (the
        reported bound is the larger); list schedules in the order of its mean starts are hint candidates.
        Default: when ``|D| >`` :data:`COARSE_MIN_TASKS`.
    redundant : bool
        Implied constraints of :func:`build_cpsat`.
    objective_cut : bool
        Add the first stage's bound as a constraint on the objective.  Default False: it is valid but did not pay on
        balance (2 workers, 60 s: with the column-generation bound it proved 16 tasks seed 0 where the default did
        not, and lost the proof of 20 tasks seed 2; with the weaker time-indexed bound it slowed 16 tasks from 34 s to
        no proof); the bound is combined with CP-SAT's in the report instead.
    options : dict, optional
        Further CP-SAT parameters (:func:`hetopt.solvers.solve_cpsat`).
    polish : float
        Seconds of local search (:func:`hetopt.hare.exact.localsearch.improve_schedule`) on the hint before CP-SAT
        starts (counted in ``time_limit``); default 0 (none).
    fixing : bool
        With the bound stage and an exact integer scaling, bound every job's completion by Lagrangian reduced-cost
        fixing against the hint's objective (:func:`hetopt.hare.exact.jobcolgen.completion_limits`; valid for every
        schedule at least as good as the hint, so OPTIMAL keeps its meaning).  Default True.
    round_bound : bool, optional
        The per-job bound on a round's length of :func:`build_cpsat`; default :data:`ROUND_BOUND`.

    Returns
    -------
    HareSolution
        ``method="exact"``, ``solver="cpsat"``; ``bound`` is valid for the true problem (module docstring); ``info``
        holds the scaling, the CP-SAT objective and bound in scaled units, CP-SAT's own bound on the true data
        (``cpsat_own_bound``, without the first stage's), the rounding-error allowance and the coarse bound.
    """
    time_limit = check_time_limit(time_limit)
    check_threads(threads)
    seed = cpsat_seed(seed)
    check_positive(polish, "polish", allow_zero=True)
    for name, flag in (("symmetry_breaking", symmetry_breaking), ("redundant", redundant),
                       ("objective_cut", objective_cut), ("fixing", fixing), ("coarse", coarse), ("lp_bound", lp_bound),
                       ("round_bound", round_bound)):
        if flag is not None or name not in ("coarse", "lp_bound", "round_bound"):
            check_flag(flag, name)
    round_bound = ROUND_BOUND if round_bound is None else round_bound
    if options is not None and not isinstance(options, dict):
        raise ArgumentError(f"options is {options!r}; expected a dict of CP-SAT parameters")
    t0 = time.perf_counter()
    sc = scaling(inst)
    up = scaled_instance(inst, sc)
    stage = _first_stage(inst, up, sc, deadline=None if time_limit is None else t0 + time_limit,
                         time_limit=time_limit, threads=threads, seed=seed,
                         coarse=bool(coarse), lp_bound=inst.n_tasks > COARSE_MIN_TASKS if lp_bound is None else lp_bound,
                         polish=polish, fixing=fixing)
    if time_limit is not None and t0 + time_limit - time.perf_counter() < SECONDS_PER_INTERVAL * up.n_tasks * up.n_gpus:
        res = Solution(status=Status.TIME_LIMIT, solver="cpsat", info={"values": None},
                       message="CP-SAT not run: the first stage left less time than its model's build")
        return _certified(inst, sc, res, *_incumbent(inst, res, {}, stage), stage, t0)
    model, v = build_cpsat(up, symmetry_breaking=symmetry_breaking, hint=stage.hint, upper_objective=stage.hint_obj,
                           redundant=redundant, completion_upper=stage.limits, round_bound=round_bound)
    if objective_cut and stage.lb is not None and sc.exact:  # OPT_up = S W OPT >= S W lb keeps every optimum
        model.add(sum(int(up.weight[n]) * v["C"][n] for n in range(up.n_jobs))
                  >= int(math.floor(stage.lb * sc.time * sc.weight * (1 - 1e-9))))
    rest = None if time_limit is None else max(time_limit - (time.perf_counter() - t0), MIN_SOLVER_SECONDS)
    res = solve_cpsat(model, time_limit=rest, threads=threads, seed=seed, raise_on_failure=False,
                      options={**CPSAT_OPTIONS, **(options or {})})
    start, gpu = _incumbent(inst, res, v, stage)
    return _certified(inst, sc, res, start, gpu, stage, t0)


class _Stage:
    """What the stages before CP-SAT found: the hint, its scaled objective, a bound, completion limits."""

    def __init__(self, hint: tuple[np.ndarray, np.ndarray], hint_obj: float) -> None:
        self.hint, self.hint_obj = hint, hint_obj
        self.lb: float | None = None
        self.info: dict[str, Any] = {}
        self.limits: np.ndarray | None = None

    def offer(self, cand: tuple[np.ndarray, np.ndarray], obj: float) -> None:
        """Take ``cand`` as the hint when its scaled objective is lower."""
        if obj < self.hint_obj:
            self.hint, self.hint_obj = cand, obj


def _first_stage(inst: HareInstance, up: HareInstance, sc: Scaling, *, deadline: float | None,
                 time_limit: float | None, threads: int | None, seed: int, coarse: bool, lp_bound: bool,
                 polish: float, fixing: bool) -> _Stage:
    """The hint and the bounds of the stages before CP-SAT (see :func:`solve_cpsat_exact`).

    With a ``deadline`` (a ``time.perf_counter()`` value), each optional stage gets at most the time
    left and is skipped when none is (its budget share alone ran past a 0.5 s limit by 1.5 s under load).
    """

    def left(share: float) -> float:
        return share if deadline is None else min(share, deadline - time.perf_counter())

    hint = cheap_schedule(up)
    stage = _Stage(hint, float(up.weight @ completions(up, *hint)))
    if inst.n_tasks > COARSE_MIN_TASKS:  # the baselines too (cheap, and better on larger instances)
        bstart, bgpu, bobj = best_known_schedule(up)
        stage.offer((bstart, bgpu), bobj)
    cg = None
    budget = left(LP_TIME if time_limit is None else LP_SHARE * time_limit)
    if lp_bound and budget > 0:
        try:
            stage.lb, cands, stage.info, cg = _lp_stage(inst, up, sc, budget, threads)
        except HetoptError as exc:  # the master LP failed: CP-SAT alone (slower), the reason in info
            cands, stage.info = [], {"lp_failure": f"{type(exc).__name__}: {exc}"}
            log.warning("cpsat: the column-generation stage failed (%s); CP-SAT runs without it", exc)
        for cand in cands:
            stage.offer(cand, float(up.weight @ completions(up, *cand)))
    budget = left(COARSE_TIME if time_limit is None else time_limit / 3)
    if coarse and budget > 0:
        out = coarse_bound(inst, sc, time_limit=budget, threads=threads, seed=seed)
        if out is not None:
            (cstart, cgpu), stage.info = out[1], {**stage.info, **out[2]}
            order = tuple(np.lexsort((np.arange(inst.n_tasks), inst.task_round, cstart)))
            cand = semi_active(up, order, cgpu)
            if cand is not None:
                stage.offer((cand[0], cgpu), cand[1])
            stage.lb = out[0] if stage.lb is None else max(stage.lb, out[0])
    budget = left(float(polish))
    if polish > 0 and budget > 0:
        pstart, pgpu, pobj, _ = improve_schedule(up, stage.hint[0], stage.hint[1], time_limit=budget,
                                                 seed=seed)
        stage.offer((pstart, pgpu), pobj)
    if fixing and cg is not None and sc.exact_times and sc.exact_weights and left(1.0) > 0:
        # exact scaling: the hint's true objective is hint_obj / (S W); limits in scaled units
        lim = completion_limits(inst, cg, stage.hint_obj / (sc.time * sc.weight))
        stage.limits = np.where(np.isfinite(lim), np.ceil(lim * sc.time), np.inf)
        stage.info = {**stage.info, "fixed_jobs": int(np.isfinite(stage.limits).sum())}
    return stage


def _decision(inst: HareInstance, values: np.ndarray, v: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """The starts ``x`` (scaled units) and the GPU of each task in CP-SAT's ``values`` (by variable index)."""
    raw = np.array([values[xi.index] for xi in v["x"]], dtype=float)
    gpu = np.array([[values[v["y"][i, g].index] for g in range(inst.n_gpus)]
                    for i in range(inst.n_tasks)]).argmax(axis=1)
    return raw, gpu


def _incumbent(inst: HareInstance, res: Any, v: dict[str, Any], stage: _Stage) -> tuple[np.ndarray, np.ndarray]:
    """CP-SAT's assignment and order re-timed on the true data (or the hint, when better or alone)."""
    hint = stage.hint
    if res.objective is None:
        # stopped before any incumbent, or CP-SAT failed: the hint (best cheap schedule) is reported, never as optimal
        if res.status is not Status.TIME_LIMIT:
            stage.info["cpsat_failure"] = f"{res.status.value}: {res.message}"
            log.warning("cpsat: no solution (%s: %s); the best cheap schedule is reported", res.status.value,
                        res.message)
        raw, gpu = np.asarray(hint[0], dtype=float), np.asarray(hint[1])
    else:
        raw, gpu = _decision(inst, res.info["values"], v)
    order = tuple(np.lexsort((np.arange(inst.n_tasks), inst.task_round, raw)))
    start = _retimed(inst, order, gpu)
    if res.objective is not None:  # CP-SAT may stop on a solution worse than its hint: keep the better
        h_order = tuple(np.lexsort((np.arange(inst.n_tasks), inst.task_round, np.asarray(hint[0], dtype=float))))
        h_start = _retimed(inst, h_order, np.asarray(hint[1]))
        if (inst.weight @ completions(inst, h_start, np.asarray(hint[1]))
                < inst.weight @ completions(inst, start, gpu)):
            start, gpu = h_start, np.asarray(hint[1])
    return start, gpu


def _retimed(inst: HareInstance, order: tuple[int, ...], gpu: np.ndarray) -> np.ndarray:
    """Semi-active starts of an order sorted by (start, round): (7) holds, so never None."""
    out = semi_active(inst, order, gpu)
    if out is None:  # pragma: no cover - a (start, round) order keeps the rounds of a job in order
        raise SolverError("cpsat: the incumbent's order of starts breaks (7)")
    return out[0]


#: A candidate bound above the recomputed objective by more than this (relative) is invalid and dropped.
BOUND_CHECK_RTOL = 1e-9


def _certified(inst: HareInstance, sc: Scaling, res: Any, start: np.ndarray, gpu: np.ndarray,
               stage: _Stage, t0: float) -> HareSolution:
    """The solution with a bound valid for the true data, OPTIMAL only when it meets the objective."""
    scale = float(sc.time) * float(sc.weight)
    own = None if res.bound is None else max(0.0, (res.bound - sc.allowance) / scale) * (1 - MARGIN)
    objective = float(inst.weight @ completions(inst, start, gpu))
    cands = {"cpsat": own, "first stage": stage.lb, "trivial": trivial_bound(inst)}
    limit = objective * (1 + BOUND_CHECK_RTOL)
    rejected = {k: b for k, b in cands.items() if b is not None and b > limit}
    if rejected:  # a defect, never expected: a valid bound cannot exceed a feasible objective
        log.warning("cpsat: bounds %s exceed the recomputed objective %r; dropped", rejected, objective)
    bound = max(b for b in cands.values() if b is not None and b <= limit)
    status = certify(objective, bound, stopped=res.status is Status.TIME_LIMIT, sense="min")
    proven = status is Status.OPTIMAL
    mode = "exact" if sc.exact else "rounded (times up, weights down)"
    msg = (f"{res.message}; integer scaling {mode}: times x{sc.time:g}, weights x{sc.weight:g}; bound on the true "
           f"data = max((CP-SAT bound - {sc.allowance:g}) / {scale:g} x (1 - {MARGIN:g}), first stage, trivial)"
           + ("" if proven or res.status is not Status.OPTIMAL else
              "; CP-SAT proved the scaled model, the certificate on the true data did not close"))
    info = {"time_scale": sc.time, "weight_scale": sc.weight, "exact_scaling": sc.exact,
            "rounding_allowance": sc.allowance, "cpsat_objective": res.objective, "cpsat_bound": res.bound,
            "cpsat_status": res.status.value, "cpsat_own_bound": own, "trivial_bound": cands["trivial"],
            "hint_objective_scaled": stage.hint_obj,
            "cpsat_deterministic_time": None if res.info["values"] is None else res.info["deterministic_time"],
            **stage.info}
    if rejected:
        info["rejected_bounds"] = rejected
    return make_solution(inst, start, gpu, method="exact", status=status, bound=bound, solver="cpsat",
                         wall_time=time.perf_counter() - t0, message=msg, info=info)


#: Share of the time limit for the column-generation bound stage.
LP_SHARE = 0.4
#: Seconds for the column-generation bound stage when the solve has no time limit.
LP_TIME = 60.0
#: The bound is computed again on a grid twice as fine when the time left in its share exceeds
#: this many times the first computation's (the pricing DP's time grows with the square of a window).
LP_REFINE_FACTOR = 4.0


def _lp_stage(inst: HareInstance, up: HareInstance, sc: Scaling, budget: float,
              threads: int | None) -> tuple[float | None, list, dict, JobColgenBound | None]:
    """The job-level column-generation bound (``budget`` seconds) and list schedules in its mean starts' order."""
    ti = job_colgen_bound(inst, time_limit=budget, threads=threads)
    if ti.converged and LP_REFINE_FACTOR * ti.wall_time < budget - ti.wall_time:
        # time left: a grid twice as fine (its bound is usually higher, not always; stopped early it is
        # still a valid Lagrangian bound)
        fine = job_colgen_bound(inst, resolution=2 * RESOLUTION, time_limit=budget - ti.wall_time, threads=threads)
        if fine.bound is not None and (ti.bound is None or fine.bound > ti.bound):
            ti = fine
    info = {"lp_bound": ti.bound, "lp_status": ti.status.value, "lp_wall_time": ti.wall_time, "lp_step": ti.step,
            "lp_columns": ti.columns, "lp_rounds": ti.rounds}
    if ti.bound is None:
        return None, [], info, None
    cands = []
    x_hat = ti.x_hat * sc.time
    mean_tc = up.task_compute.mean(axis=1)
    for prio in (x_hat, x_hat + mean_tc / 2):
        for rule in GPU_RULES:
            try:
                start, gpu = list_schedule(up, prio, rule)
            except HetoptError:  # an order against (7) (ties of equal mean starts): skip it
                continue
            order = tuple(np.lexsort((np.arange(up.n_tasks), up.task_round, start)))
            cands.append((_retimed(up, order, gpu), gpu))
    return ti.bound, cands, info, ti


def coarse_bound(inst: HareInstance, sc: Scaling, *, time_limit: float, threads: int | None = 1,
                 seed: int = 0) -> tuple[float, tuple[np.ndarray, np.ndarray], dict] | None:
    """A valid lower bound from a coarse model with times rounded DOWN.

    Times are scaled by ``S_c`` (the power of ten putting the median compute time near 10
    units, below the fine ``S``) and rounded down exactly
    (:func:`hetopt.hare.exact.scaling.rounded_down_instance`); weights are ``floor(W w)``.  Every true
    schedule, re-timed semi-actively on the rounded-down data with the same assignment and order,
    starts every task at an integer no later than ``S_c`` times its true start, so the coarse
    optimum is at most ``S_c W OPT`` and CP-SAT's bound ``B_c`` gives
    ``OPT >= B_c / (S_c W) (1 - MARGIN)``.  Returns ``(bound, (start, gpu), info)`` with the coarse
    schedule's starts (scaled) and GPUs, or None when no coarse scale below ``S`` keeps every
    compute time and weight at least one unit, or when the coarse model finds no schedule in time.
    """
    if check_time_limit(time_limit) is None:
        raise ArgumentError("time_limit is None; coarse_bound needs a positive number of seconds")
    check_threads(threads)
    seed = cpsat_seed(seed)
    k = max(0, int(round(math.log10(10.0 / float(np.median(inst.compute_time))))))
    while 10 ** k < sc.time:
        dn = rounded_down_instance(inst, k, sc.weight_exponent)
        if dn is not None:
            break
        k += 1
    else:
        return None
    sc_c = 10 ** k
    hint = cheap_schedule(dn)
    model, v = build_cpsat(dn, hint=hint, upper_objective=float(dn.weight @ completions(dn, *hint)))
    res = solve_cpsat(model, time_limit=time_limit, threads=threads, seed=seed, raise_on_failure=False,
                      options=dict(CPSAT_OPTIONS))
    if res.objective is None:  # no coarse incumbent within its budget: no coarse stage
        return None
    raw, gpu = _decision(inst, res.info["values"], v)
    bound = max(0.0, (res.bound or 0.0) / (sc_c * float(sc.weight))) * (1 - MARGIN)
    return bound, (raw / sc_c, gpu), {"coarse_time_scale": sc_c, "coarse_bound": bound,
                                       "coarse_status": res.status.value, "coarse_wall_time": res.wall_time}
