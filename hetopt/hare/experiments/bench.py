"""Benchmarks of :mod:`hetopt.hare` (``hetopt bench hare``): times and ratios measured in one run.

Benchmarks of the exact engines and of the time-indexed bound (``hetopt bench hare``).

Three tables, all on ``generate_instance(seed=seed, n_jobs=d // 3, n_gpus=4, max_rounds=3,
max_tasks=2, max_total_tasks=d)`` (the generator of models/hare2022.md), then the exact solve
and relaxation times and Algorithm 1 against the baselines at the paper's scale:

* :func:`engine_table`: tasks against time to proof for each exact engine, up the sizes until
  an engine is not certified within the limit (that size shows its gap at the limit, the
  sizes beyond show "-");
* :func:`bound_table`: at larger sizes, the time-indexed LP bound, the job-level
  column-generation bound, CP-SAT's incumbent and bound at a time limit, and the proven gap;
* :func:`grid_table`: why the proofs stop near 20 tasks: the job-level bound on ever finer
  grids levels off below the best schedule, and CP-SAT's own bound is far below both.

Times are wall-clock seconds of one run; ratios (engine A / engine B) are measured in the
same run.  No test asserts a time.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable
from typing import Any

from ...certify import Status, relative_gap
from ...errors import ArgumentError, HetoptError
from ...inputs import check_positive, check_size, check_time_limit
from ...report import Table
from .. import (
    HareInstance,
    HareSolution,
    check_schedule,
    cluster,
    generate_instance,
    generate_workload,
    list_schedule,
    schedule,
    simulate,
    solve_exact,
    solve_relaxation,
)
from ..checker import checked_objective
from ..exact.jobcolgen import job_colgen_bound
from ..exact.localsearch import improve_schedule
from ..exact.scaling import scaling
from ..exact.start import best_known_schedule
from ..exact.timeindexed import MAX_COLUMNS, RESOLUTION, time_indexed_bound
from ..listsched import GPU_RULES
from ..policies import ONLINE

__all__ = ["bench_instance", "engine_table", "bound_table", "grid_table", "cpsat_option_table", "ENGINE_SIZES",
           "BOUND_SIZES", "GRID_SIZES", "GRID_STEPS", "LIMIT", "POLISH", "MEASURED_OPTIONS", "OPTION_INSTANCES"]

#: Tasks per instance of the engine table (4 GPUs).
ENGINE_SIZES = (8, 12, 16, 20, 25, 30, 35)
#: Tasks per instance of the bound table.
BOUND_SIZES = (50, 100)
#: Tasks per instance of the grid table (16: certified within the limit; 20: not).
GRID_SIZES = (16, 20)
#: Grid steps of the grid table, in the data's time units (the median compute time is about 1.7).
GRID_STEPS = (0.1, 0.05, 0.02)
#: Seconds per solve.
LIMIT = 60.0
#: Seconds of local search on the CP-SAT incumbent in the bound table.
POLISH = 60.0


def bench_instance(tasks: int, *, seed: int = 0, n_gpus: int = 4) -> HareInstance:
    """The benchmark instance with (at most) ``tasks`` tasks.

    Parameters
    ----------
    tasks : int
        Most tasks.
    seed : int
        The seed.
    n_gpus : int
        GPUs.

    Returns
    -------
    HareInstance
    """
    return generate_instance(seed=seed, n_jobs=max(2, tasks // 3), n_gpus=n_gpus, max_rounds=3, max_tasks=2,
                           max_total_tasks=tasks)


def _load_note() -> str:
    """The machine's load average (1 min): wall times are inflated when it exceeds the cores."""
    try:
        load = os.getloadavg()[0]
    except OSError:  # pragma: no cover
        return "load average unavailable"
    return f"load average {load:.1f} on {os.cpu_count()} cores at the end of the run (wall times inflated above 1 per core)"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def engine_table(sizes=ENGINE_SIZES, limit: float = LIMIT, *, seed: int = 0, threads: int = 1,
                 engines=("cpsat", "milp")) -> Table:
    """Tasks against time to proof per engine; "-" beyond the first size an engine misses.

    A cell is the time to a proven optimum, or ``"limit: gap G"`` (``relative_gap`` of the
    stopped solve) at the first size the engine does not certify within ``limit``.
    """
    from ortools.sat.python import cp_model  # noqa: F401  (the first import takes ~1 s: not timed)

    cols = ["tasks", "jobs"] + [f"{e} [s]" for e in engines] + ["optimum", f"{engines[-1]}/{engines[0]} time"]
    t = Table(f"Hare: largest certified within {limit:g} s (4 GPUs, seed {seed}, {threads} thread(s))", cols)
    running = dict.fromkeys(engines, True)
    largest: dict[str, int | None] = dict.fromkeys(engines, None)
    for d in sizes:
        if not any(running.values()):
            break
        inst = bench_instance(d, seed=seed)
        cells: list[Any] = []
        times: dict[str, float] = {}
        optimum = None
        for e in engines:
            if not running[e]:
                cells.append("-")
                continue
            sol = solve_exact(inst, engine=e, time_limit=limit, threads=threads)
            check_schedule(inst, sol).raise_if_invalid()
            if sol.status is Status.OPTIMAL:
                times[e] = sol.wall_time
                largest[e], optimum = inst.n_tasks, sol.objective
                cells.append(round(sol.wall_time, 2))
            else:
                running[e] = False
                cells.append(f"limit: {sol.objective:.4g} / bound {sol.bound:.4g}, gap {_pct(sol.gap)}"
                             if sol.bound is not None else "limit: no bound")
        ratio = times[engines[-1]] / times[engines[0]] if len(times) == len(engines) and times[engines[0]] > 0 else None
        t.add(inst.n_tasks, inst.n_jobs, *cells, optimum, ratio)
    t.notes.append("largest certified: " + ", ".join(f"{e} {v} tasks" for e, v in largest.items())
                   + "; goal (issue 13): 30 tasks / 4 GPUs within 60 s")
    t.notes.append(_load_note())
    t.notes.append("gap = (incumbent - bound) / bound; cpsat above 12 tasks: job-level column-generation bound "
                   "first (hetopt.hare.exact.jobcolgen), reported bound = max(column generation, CP-SAT)")
    return t


def bound_table(sizes=BOUND_SIZES, limit: float = LIMIT, *, seed: int = 0, threads: int = 1,
                refine: bool = True, polish: float = POLISH) -> Table:
    """The lower bounds against the best incumbent at larger sizes.

    Per size: the best cheap schedule (heuristics); the time-indexed LP bound (``2 limit``
    seconds at most; with ``refine`` also on a grid twice as fine, the higher bound and its
    time reported); the job-level column-generation bound (:mod:`hetopt.hare.exact.jobcolgen`,
    default grid, ``5 limit`` seconds at most); CP-SAT (with its bound stage, ``limit`` seconds
    in all) incumbent and bound; and the proven gap of the best incumbent against the best bound,
    relative to the bound and to the incumbent.  With ``polish > 0`` the best incumbent is then
    improved by ``polish`` seconds of local search
    (:func:`hetopt.hare.exact.localsearch.improve_schedule`, checked feasible; an upper bound only),
    started from the best of the CP-SAT incumbent and the list schedules in the order of the
    column-generation master's mean starts.
    """
    t = Table(f"Hare: lower bounds at scale (4 GPUs, seed {seed}, CP-SAT {limit:g} s)",
              ["tasks", "jobs", "heuristic", "TI LP bound", "TI time [s]", "colgen bound", "colgen time [s]",
               "colgen rounds", "cpsat incumbent", "cpsat status", "polished", "best bound", "gap/bound",
               "gap/incumbent"])
    for d in sizes:
        inst = bench_instance(d, seed=seed)
        h = best_known_schedule(inst)[2]
        t0 = time.perf_counter()
        ti = time_indexed_bound(inst, time_limit=2 * limit, threads=threads)
        ti_time = time.perf_counter() - t0
        if refine:  # a grid twice as fine, 2.5x the columns: kept when its bound is higher
            t0 = time.perf_counter()
            fine = time_indexed_bound(inst, resolution=2 * RESOLUTION, max_columns=int(2.5 * MAX_COLUMNS),
                                      time_limit=2 * limit, threads=threads)
            if fine.bound is not None and (ti.bound is None or fine.bound > ti.bound):
                ti, ti_time = fine, time.perf_counter() - t0
        cg = job_colgen_bound(inst, time_limit=5 * limit, threads=threads)
        sol = solve_exact(inst, engine="cpsat", time_limit=limit, threads=threads)
        check_schedule(inst, sol).raise_if_invalid()
        inc = min(h, sol.objective)
        polished = None
        if polish > 0:
            cands = [(sol.objective, sol.start, sol.gpu)]
            for rule in GPU_RULES:
                try:
                    st, g = list_schedule(inst, cg.x_hat, rule)
                except HetoptError:  # an order against (7) (ties of mean starts): skipped
                    continue
                cands.append((checked_objective(inst, (st, g)), st, g))
            _, st, g = min(cands, key=lambda c: c[0])
            ps, pg, polished, _ = improve_schedule(inst, st, g, time_limit=polish, seed=seed)
            check_schedule(inst, (ps, pg)).raise_if_invalid()
            inc = min(inc, polished)
        bounds = [b for b in (ti.bound, cg.bound, sol.bound) if b is not None]
        best = max(bounds) if bounds else None
        t.add(inst.n_tasks, inst.n_jobs, h, ti.bound, ti_time, cg.bound, cg.wall_time,
              f"{cg.rounds}{'' if cg.converged else ' (stopped)'}", sol.objective, sol.status.value, polished, best,
              _pct(relative_gap(inc, best)), _pct(None if best is None else (inc - best) / inc))
    t.notes.append(_load_note())
    t.notes.append("goal (issue 13): a proven gap under 10% at 100 tasks; both bounds hold for the true "
                   "data (times rounded down to their grid: hetopt.hare.exact.timeindexed, hetopt.hare.exact.jobcolgen)")
    return t


def grid_table(sizes=GRID_SIZES, steps=GRID_STEPS, limit: float = LIMIT, *, seed: int = 0,
               threads: int = 1) -> Table:
    """The job-level bound on finer grids against the best schedule and CP-SAT's own bound.

    Per size: CP-SAT (:func:`solve_exact`, ``limit`` seconds, with its bound stage) gives the best
    schedule, its status and CP-SAT's *own* bound (without the bound stage's, rounding allowance
    subtracted); then :func:`hetopt.hare.exact.jobcolgen.job_colgen_bound` on each grid ``step`` (data
    time units, ``5 limit`` seconds each) and its gap to the best schedule.  A proof needs the
    bound that CP-SAT searches against to meet the schedule: where the column-generation bound
    levels off a few percent below it and CP-SAT's own bound stays near the trivial one, only
    enumeration closes the gap, and its cost grows with the size (models/hare2022.md).
    """
    for d in sizes:
        check_size(d, "sizes", minimum=2)
    for step in steps:
        check_positive(step, "steps")
    if check_time_limit(limit, "limit") is None:
        raise ArgumentError("limit is None; expected a positive number of seconds")
    t = Table(f"Hare: the job-level bound by grid step against the best schedule (4 GPUs, seed {seed}, "
              f"CP-SAT {limit:g} s)",
              ["tasks", "jobs", "step", "colgen bound", "converged", "colgen time [s]", "gap to schedule",
               "best schedule", "schedule status", "CP-SAT own bound"])
    for d in sizes:
        inst = bench_instance(d, seed=seed)
        S = scaling(inst).time
        units = []
        for step in steps:
            u = round(float(step) * S)
            if not (u >= 1 and abs(u - float(step) * S) <= 1e-9 * max(1.0, float(step) * S)):
                raise ArgumentError(f"steps has {step!r}; expected a positive multiple of the data's time unit {1 / S:g}")
            units.append(u)
        sol = solve_exact(inst, engine="cpsat", time_limit=limit, threads=threads)
        check_schedule(inst, sol).raise_if_invalid()
        own = sol.info["cpsat_own_bound"]
        for step, u in zip(steps, units, strict=True):
            cg = job_colgen_bound(inst, step=u, max_slots=10**7, time_limit=5 * limit, threads=threads)
            gap = None if cg.bound is None else (sol.objective - cg.bound) / sol.objective
            t.add(inst.n_tasks, inst.n_jobs, step, cg.bound, cg.converged, cg.wall_time, _pct(gap), sol.objective,
                  sol.status.value, own)
    t.notes.append(_load_note())
    t.notes.append("gap to schedule = (best schedule - colgen bound) / best schedule; a bound is valid on every "
                   "grid (times rounded down to it); on an OPTIMAL row the gap is the relaxation's own gap")
    return t

#: The CP-SAT parameters measured by :func:`cpsat_option_table` (issue 25, item 6).
MEASURED_OPTIONS: dict[str, Any] = {"linearization_level": 0, "use_strong_propagation_in_disjunctive": True}
#: CP-SAT's own defaults of the same parameters (the "without" columns).
CPSAT_DEFAULTS: dict[str, Any] = {"linearization_level": 1, "use_strong_propagation_in_disjunctive": False}
#: The instances of :func:`cpsat_option_table`: (label, generator keyword arguments).
OPTION_INSTANCES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("issue: 5 jobs, 3 GPUs, seed 0", {"seed": 0, "n_jobs": 5, "n_gpus": 3, "max_rounds": 3, "max_tasks": 2,
                                       "max_total_tasks": 16}),
    *((f"bench_instance({d}, seed={s})", {"seed": s, "n_jobs": max(2, d // 3), "n_gpus": 4, "max_rounds": 3,
                                          "max_tasks": 2, "max_total_tasks": d})
      for d, s in ((12, 0), (12, 1), (16, 0), (16, 1), (16, 2), (18, 2))),
)


def cpsat_option_table(instances=OPTION_INSTANCES, limit: float = LIMIT, *, threads: int = 1) -> Table:
    """The CP-SAT engine with and without the measured parameters and the per-job round-length bound.

    Four variants of :func:`hetopt.hare.exact.cpsat.solve_cpsat_exact` on the same instances in the
    same run: the engine's defaults before issue 25 (no extra parameter, single-task round bound),
    with :data:`MEASURED_OPTIONS` (``linearization_level=0``,
    ``use_strong_propagation_in_disjunctive=True``), with the per-job round-length bound
    (:func:`hetopt.hare.bounds.round_length_bound`, ``round_bound=True``) and with both.  A cell is
    the wall time to a proven optimum and CP-SAT's deterministic time, or the gap at ``limit``.
    The tasks column is the instance's actual task count (``max_total_tasks`` is a cap).
    """
    from ortools.sat.python import cp_model  # noqa: F401  (the first import takes ~1 s: not timed)

    from ..exact.cpsat import solve_cpsat_exact

    variants = {"neither": (CPSAT_DEFAULTS, False), "parameters": (MEASURED_OPTIONS, False),
                "round bound": (CPSAT_DEFAULTS, True), "both": (MEASURED_OPTIONS, True)}
    cols = ["instance", "tasks", "jobs", "GPUs"] + [f"{v} [s] (det.)" for v in variants] + ["neither/both time"]
    t = Table(f"Hare CP-SAT: the measured parameters and the round-length bound ({threads} thread(s), "
              f"{limit:g} s per solve)", cols)
    for label, kw in instances:
        inst = generate_instance(**kw)
        cells: list[Any] = []
        times: dict[str, float] = {}
        for name, (options, round_bound) in variants.items():
            sol = solve_cpsat_exact(inst, time_limit=limit, threads=threads, options=dict(options),
                                    round_bound=round_bound)
            check_schedule(inst, sol).raise_if_invalid()
            det = sol.info.get("cpsat_deterministic_time")
            if sol.status is Status.OPTIMAL:
                times[name] = sol.wall_time
                cells.append(f"{sol.wall_time:.2f} ({det:.2f})")
            else:
                cells.append(f"limit: gap {_pct(sol.gap)}")
        ratio = times["neither"] / times["both"] if "neither" in times and "both" in times else None
        t.add(label, inst.n_tasks, inst.n_jobs, inst.n_gpus, *cells, ratio)
    t.notes.append(_load_note())
    t.notes.append("det. = CP-SAT's deterministic time (independent of the machine's load); 'limit' = not proven "
                   "within the limit, with the gap of the certificate on the true data")
    return t


def _exact_bench(quick: bool) -> Table:
    t = Table("Hare: exact Hare_Sched (default engine, 1 thread) and relaxation",
              ["instance", "tasks", "GPUs", "status", "optimum", "time [s]", "RL bound", "RL time [s]",
               "relaxation direct=linear"])
    sizes = [(3, 2, 6, 1)] if quick else [(4, 3, 12, s) for s in (0, 2)]
    for n_jobs, n_gpus, d, s in sizes:
        inst = generate_instance(seed=s, n_jobs=n_jobs, n_gpus=n_gpus, max_rounds=3, max_tasks=2, max_total_tasks=d)
        ex = solve_exact(inst, time_limit=120)
        rl = solve_relaxation(inst, time_limit=120)
        agree = None
        if inst.n_tasks <= 6:
            rd = solve_relaxation(inst, "direct", time_limit=120)
            agree = (rd.objective is not None and rl.objective is not None
                     and abs(rd.objective - rl.objective) <= 1e-6 * max(1.0, abs(rl.objective)))
        t.add(f"seed {s}", inst.n_tasks, n_gpus, ex.status.value, ex.objective, ex.wall_time, rl.bound,
              rl.wall_time, agree)
    return t


def _scale_bench(quick: bool) -> list[Table]:
    n_jobs, gpus = (30, cluster(v100=8, p100=4, k80=4)) if quick else (300, cluster(v100=64, p100=48, k80=48))
    inst = generate_workload(n_jobs, gpus, seed=0, rate=10.0, iterations_per_task=200)
    t = Table(f"Hare at scale: {n_jobs} jobs, {len(gpus)} GPUs, {inst.n_tasks} tasks",
              ["method", "weighted JCT", "time [s]", "vs Algorithm 1", "lower bound"])
    runs: dict[str, Callable[[HareInstance], HareSolution]] = {
            "algorithm1 (lp ordering)": functools.partial(schedule, ordering="lp"),
            "algorithm1_ef (lp, earliest finish)": functools.partial(schedule, ordering="lp", gpu_rule="earliest_finish"),
            **{name: functools.partial(simulate, policy=name) for name in ONLINE}}
    sols: dict[str, tuple[HareSolution, float]] = {}
    for name, f in runs.items():
        t0 = time.perf_counter()
        sol = f(inst)
        el = time.perf_counter() - t0
        check_schedule(inst, sol).raise_if_invalid()
        sols[name] = (sol, el)
    ref = sols["algorithm1 (lp ordering)"][0].objective
    for name, (sol, el) in sols.items():
        t.add(name, sol.objective, el, sol.objective / ref, sol.bound)
    best = min(sols.items(), key=lambda kv: kv[1][0].objective)[0]
    t.notes.append(f"best: {best}; the LP lower bound is a proven lower bound on the optimum")
    return [t]


def bench(quick: bool = False) -> list[Table]:
    """The benchmark tables of Hare (``hetopt bench hare``).

    Exact engines (largest certified within 60 s, the gap one size further), the time-indexed
    bound at 50 and 100 tasks, the job-level bound by grid step at 16 and 20 tasks, the CP-SAT
    engine with and without its parameters and round-length bound (issue 25), relaxation solve
    times and Algorithm 1 vs the baselines at the paper's scale.

    Parameters
    ----------
    quick : bool
        Small sizes and limits (under 30 s).

    Returns
    -------
    list of Table
    """
    if quick:
        tables = [engine_table((6, 8, 10), 3.0), bound_table((14,), 3.0, refine=False, polish=1.0),
                  grid_table((10,), (0.1, 0.05), 3.0), cpsat_option_table(OPTION_INSTANCES[1:3], 3.0)]
    else:
        tables = [engine_table(), bound_table(), grid_table(), cpsat_option_table()]
    return [*tables, _exact_bench(quick), *_scale_bench(quick)]
