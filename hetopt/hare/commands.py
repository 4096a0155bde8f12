"""The ``hetopt`` command-line contract for Hare (paper name ``"hare"``).

``reproduce`` reruns the Fig. 1 toy example and the testbed comparison in simulation,
``validate`` certifies Theorem 4's alpha(2+alpha) on seeded small instances, ``bench``
times the exact solves, the relaxation and Algorithm 1 at the paper's scale and
compares Algorithm 1 with the baselines in the same run.
"""

from __future__ import annotations

import functools
import time
from typing import Any, Callable

from ..data import load_json
from ..report import Table
from .algorithm1 import schedule
from .baselines import BASELINES
from .checker import check_schedule
from .exact import brute_force, solve_exact
from .fig1 import FIG1_PAPER, fig1_instance, fig1_schedule_a, fig1_schedule_b
from .generators import random_instance
from .instance import KIND, HareInstance
from .model import build_hare_sched
from .ratio import alpha, theorem4_bound, validate_ratio
from .relaxation import solve_relaxation
from .simulator import cluster, generate_workload
from .solution import HareSolution
from .validate import ratio_sweep, ratio_table

__all__ = ["KIND", "METHODS", "load_instance", "solve", "solution_summary", "reproduce", "validate", "bench",
           "export_model"]

#: Relative tolerance for "match" in reproduced numbers.
MATCH_RTOL = 1e-6

#: method name -> callable(inst) -> HareSolution
METHODS: dict[str, Callable[[HareInstance], HareSolution]] = {
    "exact": solve_exact,
    "exact_scip": functools.partial(solve_exact, solver="scip"),
    "brute_force": brute_force,
    "algorithm1": schedule,
    "algorithm1_lp": functools.partial(schedule, ordering="lp"),
    "algorithm1_ef": functools.partial(schedule, gpu_rule="earliest_finish"),
    "algorithm1_lp_ef": functools.partial(schedule, ordering="lp", gpu_rule="earliest_finish"),
    **BASELINES,
}


def load_instance(data: dict) -> HareInstance:
    """A :class:`HareInstance` from parsed JSON (kind ``"hare"``)."""
    return HareInstance.from_dict(data)


def solve(inst: HareInstance, method: str) -> HareSolution:
    """Run ``METHODS[method]`` and check its schedule with :func:`check_schedule`."""
    if method not in METHODS:
        raise ValueError(f"method is {method!r}; expected one of {', '.join(METHODS)}")
    sol = METHODS[method](inst)
    check_schedule(inst, sol)
    return sol


def solution_summary(sol: HareSolution) -> dict[str, Any]:
    """JSON-serializable summary: metrics, completion times and the task table."""
    return {
        "method": sol.method, "status": sol.status.value, "objective": sol.objective, "bound": sol.bound,
        "gap": sol.gap, "lower_bound": sol.lower_bound, "ordering": sol.ordering, "makespan": sol.makespan,
        "wall_time": sol.wall_time, "alpha": alpha(sol.instance), "alpha_bound": theorem4_bound(sol.instance),
        "completion": sol.completion.tolist(), "tasks": sol.tasks,
    }


def _match(paper: float, ours: float) -> bool:
    return bool(abs(paper - ours) <= MATCH_RTOL * max(1.0, abs(paper)))


def _fig1_table() -> Table:
    inst = fig1_instance()
    a, b = fig1_schedule_a(inst), fig1_schedule_b(inst)
    c = solve_exact(inst)
    for s in (a, b, c):
        check_schedule(inst, s)
    rl = solve_relaxation(inst)
    alg = schedule(inst, rl)
    t = Table("Hare Fig. 1 toy example (reconstructed instance hare2022_fig1)", ["quantity", "paper", "ours", "match"])
    t.add("(a) heterogeneity-oblivious: total JCT", FIG1_PAPER["a"][0], a.objective, _match(FIG1_PAPER["a"][0], a.objective))
    t.add("(a) makespan", FIG1_PAPER["a"][1], a.makespan, _match(FIG1_PAPER["a"][1], a.makespan))
    t.add("(b) one GPU per job (AlloX): total JCT", FIG1_PAPER["b"][0], b.objective, _match(FIG1_PAPER["b"][0], b.objective))
    t.add("(c) best schedule: total JCT = certified optimum", FIG1_PAPER["c"][0], c.objective,
          _match(FIG1_PAPER["c"][0], c.objective))
    t.add("(c) makespan", FIG1_PAPER["c"][1], c.makespan, _match(FIG1_PAPER["c"][1], c.makespan))
    ok = bool(rl.bound <= c.objective + 1e-6)
    t.add("relaxation bound <= optimum (Section 5.2)", True, ok, ok)
    t.add("Algorithm 1 / optimum <= alpha(2+alpha) (Theorem 4)", theorem4_bound(inst), alg.objective / c.objective,
          alg.objective / c.objective <= theorem4_bound(inst))
    t.notes.append("The figure's time table is not in the text: the instance is a reconstruction (see its description); "
                   "the makespan of (c) is not reproduced by any table we found.")
    return t


def _testbed_table(seed: int = 0) -> Table:
    inst = generate_workload(60, cluster(v100=8, p100=4, k80=3), seed=seed, rate=0.5, iterations_per_task=100)
    alg = schedule(inst, ordering="lp")
    ef = schedule(inst, ordering="lp", gpu_rule="earliest_finish")
    t = Table("Hare Section 7: weighted JCT reduction of Hare vs baselines (simulated 15-GPU cluster, 60 jobs)",
              ["quantity", "paper", "ours", "match"])
    for name, f in BASELINES.items():
        base = f(inst)
        for label, sol in (("Algorithm 1", alg), ("Algorithm 1 (earliest-finish variant)", ef)):
            red = 1.0 - sol.objective / base.objective
            t.add(f"{label}: reduction vs {name}", "47.6%-75.3%", f"{100 * red:.1f}%", bool(0.476 <= red <= 0.753))
    t.notes += ["Workload: Table 2 job types with Gavel throughputs (V100/P100/K80) as proxies; the paper's testbed "
                "(V100/T4/K80/M60) traces are not public, so only the direction of the comparison can be checked.",
                "Algorithm 1 as printed (line 12: earliest-available GPU, speed-oblivious) with the scalable LP ordering."]
    return t


def _theorem4_table() -> Table:
    inst = HareInstance.from_dict(load_json("hare2022_theorem4_counterexample"))
    t = Table("Hare Theorem 4 on hare2022_theorem4_counterexample (one GPU, alpha = 1)",
              ["quantity", "paper", "ours", "match"])
    rep = validate_ratio(inst)
    sub = schedule(inst, solve_relaxation(inst, subsets=True))
    t.add("alpha(2+alpha)", 3.0, rep.limit, _match(3.0, rep.limit))
    t.add("Algorithm 1 / certified optimum <= alpha(2+alpha)", "<= 3", rep.vs_optimum.ratio,
          bool(rep.vs_optimum.holds))
    t.add("Algorithm 1 / relaxation bound <= alpha(2+alpha) (proof of Thm 4)", "<= 3", rep.vs_relaxation.ratio,
          bool(rep.vs_relaxation.holds))
    t.add("same, with (9) on every subset: Algorithm 1 / optimum", "<= 3", sub.objective / rep.optimum,
          bool(sub.objective / rep.optimum <= 3.0))
    t.notes.append("Theorem 4 fails with (9) as printed: the full-set inequality lets the relaxation put all its slack "
                   "on one job (see theorem4_counterexample); the subset form, which Lemma 2's proof uses, repairs it here.")
    return t


def reproduce() -> list[Table]:
    """Paper vs ours: Fig. 1, Theorem 4 on a counterexample, the headline weighted-JCT reduction."""
    return [_fig1_table(), _theorem4_table(), _testbed_table()]


def validate(n: int = 20, seed: int = 0, *, save_dir: str | None = "hare_violations", executor: Any = None) -> Table:
    """Certification sweep of Theorem 4 over ``n`` seeded small instances (see :func:`ratio_sweep`).

    Instances that violate alpha(2+alpha) are written as JSON to ``save_dir``.
    """
    table = ratio_table(ratio_sweep(n, seed, save_dir=save_dir, executor=executor), seed)
    table.notes.append("Random instances rarely break the bound; the bundled instance "
                       "hare2022_theorem4_counterexample does (ratio 3.994 > 3 at alpha = 1): "
                       "see `hetopt reproduce hare`.")
    return table


def _exact_bench(quick: bool) -> Table:
    t = Table("Hare: exact Hare_Sched (big-M MILP, HiGHS, 1 thread) and relaxation",
              ["instance", "tasks", "GPUs", "status", "optimum", "time [s]", "RL bound", "RL time [s]",
               "relaxation direct=linear"])
    sizes = [(3, 2, 6, 1)] if quick else [(4, 3, 12, s) for s in (0, 2)]
    for n_jobs, n_gpus, d, s in sizes:
        inst = random_instance(s, n_jobs=n_jobs, n_gpus=n_gpus, max_rounds=3, max_tasks=2, max_total_tasks=d)
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
        check_schedule(inst, sols[name])
        sols[name] = (sols[name], el)
    ref = sols["algorithm1 (lp ordering)"][0].objective
    for name, (sol, el) in sols.items():
        t.add(name, sol.objective, el, sol.objective / ref, sol.lower_bound)
    best = min(sols.items(), key=lambda kv: kv[1][0].objective)[0]
    t.notes.append(f"best: {best}; the LP lower bound is a proven lower bound on the optimum")
    return [t]


def bench(quick: bool = False) -> list[Table]:
    """Exact/relaxation solve times and Algorithm 1 vs the baselines at the paper's scale."""
    return [_exact_bench(quick), *_scale_bench(quick)]


def export_model(inst: HareInstance):
    """The exact model Hare_Sched (big-M MILP after the GDP transformation), for LP/MPS export."""
    return build_hare_sched(inst)
