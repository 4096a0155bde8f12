"""The ``hetopt`` command-line contract for Hare (paper name ``"hare"``).

The paper's claims (Fig. 1, Theorem 4, Section 7) are in the claims ledger
(:mod:`hetopt.claims.hare`; ``hetopt claims hare``, ``hetopt reproduce hare``).
``validate`` certifies Theorem 4's alpha(2+alpha) on seeded small instances, ``bench``
times the exact solves, the relaxation and Algorithm 1 at the paper's scale and
compares Algorithm 1 with the baselines in the same run.
"""

from __future__ import annotations

import functools
import time
from typing import Any, Callable

from ..report import Table
from .algorithm1 import schedule
from .checker import check_schedule
from .exact import brute_force, solve_exact
from .generators import random_instance
from .instance import KIND, HareInstance
from .model import build_hare_sched
from .online import ALL_BASELINES, BASELINES
from .ratio import alpha, theorem4_bound
from .relaxation import solve_relaxation
from .simulator import cluster, generate_workload
from .solution import HareSolution
from .validate import ratio_sweep, ratio_table

__all__ = ["KIND", "METHODS", "INSTANCE", "solution_summary", "validate", "bench", "export_model"]

#: method name -> callable(inst) -> HareSolution
METHODS: dict[str, Callable[[HareInstance], HareSolution]] = {
    "exact": solve_exact,
    "exact_cpsat": functools.partial(solve_exact, engine="cpsat"),
    "exact_milp": functools.partial(solve_exact, engine="milp"),
    "exact_scip": functools.partial(solve_exact, solver="scip"),
    "brute_force": brute_force,
    "algorithm1": schedule,
    "algorithm1_lp": functools.partial(schedule, ordering="lp"),
    "algorithm1_esf": functools.partial(schedule, gpu_rule="earliest_start_fastest"),
    "algorithm1_lp_esf": functools.partial(schedule, ordering="lp", gpu_rule="earliest_start_fastest"),
    "algorithm1_ef": functools.partial(schedule, gpu_rule="earliest_finish"),
    "algorithm1_lp_ef": functools.partial(schedule, ordering="lp", gpu_rule="earliest_finish"),
    **ALL_BASELINES,
}


#: the instance class of kind 'hare' (``hetopt.load_instance`` builds it with ``from_dict``)
INSTANCE = HareInstance


def solution_summary(sol: HareSolution) -> dict[str, Any]:
    """JSON-serializable summary: metrics, completion times and the task table."""
    return {
        "method": sol.method, "status": sol.status.value, "objective": sol.objective, "bound": sol.bound,
        "gap": sol.gap, "lower_bound": sol.lower_bound, "ordering": sol.ordering, "makespan": sol.makespan,
        "wall_time": sol.wall_time, "alpha": alpha(sol.instance), "alpha_bound": theorem4_bound(sol.instance),
        "completion": sol.completion.tolist(), "tasks": sol.tasks,
    }


def validate(n: int = 20, *, seed: int = 0, save_dir: str | None = None, executor: Any = None) -> Table:
    """Certification sweep of Theorem 4 over ``n`` seeded small instances (see :func:`ratio_sweep`).

    Instances that violate alpha(2+alpha) are written as JSON to ``save_dir`` when it is given
    (``hetopt validate hare --out DIR``); nothing is written otherwise.
    """
    table = ratio_table(ratio_sweep(n, seed=seed, save_dir=save_dir, executor=executor), seed=seed)
    table.notes.append("Random instances rarely break the bound; the bundled instance "
                       "hare2022_theorem4_counterexample does (ratio 3.994 > 3 at alpha = 1): "
                       "see `hetopt claims hare`.")
    return table


def _exact_bench(quick: bool) -> Table:
    t = Table("Hare: exact Hare_Sched (default engine, 1 thread) and relaxation",
              ["instance", "tasks", "GPUs", "status", "optimum", "time [s]", "RL bound", "RL time [s]",
               "relaxation direct=linear"])
    sizes = [(3, 2, 6, 1)] if quick else [(4, 3, 12, s) for s in (0, 2)]
    for n_jobs, n_gpus, d, s in sizes:
        inst = random_instance(seed=s, n_jobs=n_jobs, n_gpus=n_gpus, max_rounds=3, max_tasks=2, max_total_tasks=d)
        ex = solve_exact(inst, time_limit=120)
        rl = solve_relaxation(inst, time_limit=120)
        agree = None
        if inst.n_tasks <= 6:
            rd = solve_relaxation(inst, "direct", time_limit=120)
            agree = abs(rd.objective - rl.objective) <= 1e-6 * max(1.0, abs(rl.objective))
        t.add(f"seed {s}", inst.n_tasks, n_gpus, ex.status.value, ex.objective, ex.wall_time, rl.bound,
              rl.wall_time, agree)
    return t


def _scale_bench(quick: bool) -> list[Table]:
    n_jobs, gpus = (30, cluster(v100=8, p100=4, k80=4)) if quick else (300, cluster(v100=64, p100=48, k80=48))
    inst = generate_workload(n_jobs, gpus, seed=0, rate=10.0, iterations_per_task=200)
    t = Table(f"Hare at scale: {n_jobs} jobs, {len(gpus)} GPUs, {inst.n_tasks} tasks",
              ["method", "weighted JCT", "time [s]", "vs Algorithm 1", "lower bound"])
    runs = {"algorithm1 (lp ordering)": functools.partial(schedule, ordering="lp"),
            "algorithm1_ef (lp, earliest finish)": functools.partial(schedule, ordering="lp", gpu_rule="earliest_finish"),
            **BASELINES}
    sols = {}
    for name, f in runs.items():
        t0 = time.perf_counter()
        sols[name] = f(inst)
        el = time.perf_counter() - t0
        check_schedule(inst, sols[name]).raise_if_invalid()
        sols[name] = (sols[name], el)
    ref = sols["algorithm1 (lp ordering)"][0].objective
    for name, (sol, el) in sols.items():
        t.add(name, sol.objective, el, sol.objective / ref, sol.lower_bound)
    best = min(sols.items(), key=lambda kv: kv[1][0].objective)[0]
    t.notes.append(f"best: {best}; the LP lower bound is a proven lower bound on the optimum")
    return [t]


def bench(quick: bool = False) -> list[Table]:
    """Exact engines (largest certified within 60 s, the gap one size further), the time-indexed
    bound at 50 and 100 tasks, the job-level bound by grid step at 16 and 20 tasks, relaxation solve times and Algorithm 1 vs the baselines at the
    paper's scale.  ``quick``: small sizes and limits (under 30 s)."""
    from .bench import bound_table, engine_table, grid_table

    if quick:
        tables = [engine_table((6, 8, 10), 3.0), bound_table((14,), 3.0, refine=False, polish=1.0),
                  grid_table((10,), (0.1, 0.05), 3.0)]
    else:
        tables = [engine_table(), bound_table(), grid_table()]
    return [*tables, _exact_bench(quick), *_scale_bench(quick)]


def export_model(inst: HareInstance):
    """The exact model Hare_Sched (big-M MILP after the GDP transformation), for LP/MPS export."""
    return build_hare_sched(inst)
