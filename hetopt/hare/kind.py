"""Hare's entry in the registry (:class:`hetopt.contract.Kind`)."""

from __future__ import annotations

import functools
from typing import Any

import pyomo.environ as pyo

from ..contract import Kind, Method
from ..inputs import check_example, takes_instance
from ..report import Table
from .algorithm1 import schedule
from .checker import check_schedule
from .exact import brute_force, solve_exact
from .generators import generate_instance
from .instance import HareInstance
from .model import build_hare_sched
from .policies import POLICIES
from .ratio import validate_ratio
from .simulator import simulate
from .validate import ratio_sweep, ratio_table

__all__ = ["KIND", "example", "export_model", "validate"]

_WJCT = "total weighted JCT, sum_n w_n C_n (s)"

#: The description of every policy of :data:`hetopt.hare.policies.POLICIES` (its method's sentence).
_BASELINES = {
    "gavel_fifo": "Gavel's FIFO: arrival order, fastest idle GPUs, each job waits for its whole gang.",
    "srtf": "Job-level SRTF, online and non-preemptive, on the fastest idle GPUs.",
    "sched_homo": "Sched_Homo online: Smith's order at mean speed, idle GPUs by index, non-preemptive.",
    "sched_allox": "AlloX online: waiting jobs re-matched to (GPU, position) slots at every event.",
    "srtf_round": "Shortest remaining time first, preemptive at round boundaries, on the fastest idle GPUs.",
    "sched_homo_offline": "Zhang et al.'s homogeneous-GPU scheduler offline: Smith order at mean speed, "
                          "oblivious GPU choice.",
    "sched_allox_offline": "AlloX offline: each job on one GPU, a min-cost matching of jobs to (GPU, position) "
                           "slots.",
}


def example(*, seed: int, size: int) -> HareInstance:
    """A small random instance: 2-3 jobs on 2 GPUs, at most 4 + ``size`` tasks.

    Parameters
    ----------
    seed : int
        The seed, in ``[0, 2**63 - 1]``.
    size : int
        Adds tasks (and a job when odd), in ``[0, MAX_EXAMPLE_SIZE]``.

    Returns
    -------
    HareInstance
    """
    seed, size = check_example(seed, size)
    return generate_instance(seed=seed, n_jobs=2 + size % 2, n_gpus=2, max_total_tasks=4 + size)


def validate(n: int = 20, *, seed: int = 0, save_dir: str | None = None, executor: Any = None) -> Table:
    """Certification sweep of Theorem 4 over ``n`` seeded small instances (see :func:`ratio_sweep`).

    Instances that violate alpha(2+alpha) are written as JSON to ``save_dir`` when it is given
    (``hetopt validate hare --out DIR``); nothing is written otherwise.

    Parameters
    ----------
    n : int
        Number of instances.
    seed : int
        The first seed.
    save_dir : str, optional
        Where violating instances are written.
    executor
        See :func:`hetopt.validate.sweep`.

    Returns
    -------
    Table
        The table of :func:`hetopt.hare.validate.ratio_table`.
    """
    table = ratio_table(ratio_sweep(n, seed=seed, save_dir=save_dir, executor=executor), seed=seed)
    table.notes.append("Random instances rarely break the bound; the bundled instance "
                       "hare2022_theorem4_counterexample does (ratio 3.994 > 3 at alpha = 1): "
                       "see `hetopt claims hare`.")
    return table


@takes_instance(HareInstance)
def export_model(inst: HareInstance) -> pyo.ConcreteModel:
    """The exact model Hare_Sched (big-M MILP after the GDP transformation), for LP/MPS export.

    Parameters
    ----------
    inst : HareInstance
        The instance.

    Returns
    -------
    pyomo.environ.ConcreteModel
    """
    return build_hare_sched(inst)


KIND = Kind(
    name="hare",
    title='Chen et al., "Hare: Exploiting Inter-job and Intra-job Parallelism of Distributed Machine Learning on '
          'Heterogeneous GPUs", HPDC 2022',
    instance=HareInstance,
    generate_instance=generate_instance,
    example=example,
    check_schedule=check_schedule,
    solve_exact=solve_exact,
    simulate=simulate,
    policies=POLICIES,
    validate=validate,
    validate_ratio=validate_ratio,
    ratio_sweep=ratio_sweep,
    export_model=export_model,
    card="models/hare2022.md",
    example_instance="hare2022_fig1",
    plot="hetopt.hare.experiments.plot:gantt",
    claims="hetopt.hare.experiments.claims",
    bench="hetopt.hare.experiments.bench",
    depends_on=("arena",),  # the arena: its experiments run Algorithm 1 on Gavel's trace there (arena_study)
    methods=(
        Method("exact", solve_exact, "exact", "Hare_Sched (4)-(8) solved to optimality by the default engine "
               "(CP-SAT interval model), with a proven bound.", _WJCT, default=True),
        Method("exact_cpsat", functools.partial(solve_exact, engine="cpsat"), "exact",
               "Hare_Sched (4)-(8) solved to optimality by the CP-SAT interval model.", _WJCT),
        Method("exact_milp", functools.partial(solve_exact, engine="milp"), "exact",
               "Hare_Sched (4)-(8) solved to optimality by the big-M MILP (HiGHS).", _WJCT),
        Method("exact_scip", functools.partial(solve_exact, solver="scip"), "exact",
               "Hare_Sched (4)-(8) solved to optimality by the big-M MILP with SCIP.", _WJCT),
        Method("brute_force", brute_force, "exact", "The exact optimum by enumerating GPU assignments and task "
               "orders (tiny instances only).", _WJCT),
        Method("algorithm1", schedule, "heuristic", "Algorithm 1 as printed: tasks ordered by H_i from the "
               "relaxation Hare_Sched_RL, each on the GPU that is free first (line 12).", _WJCT),
        Method("algorithm1_lp", functools.partial(schedule, ordering="lp"), "heuristic",
               "Algorithm 1 with H_i from the LP ordering instead of the quadratic relaxation.", _WJCT),
        Method("algorithm1_esf", functools.partial(schedule, gpu_rule="earliest_start_fastest"), "heuristic",
               "Algorithm 1 with line 12 read as 'earliest start, fastest GPU among ties' (the reading of the "
               "proof's step (21)).", _WJCT),
        Method("algorithm1_lp_esf", functools.partial(schedule, ordering="lp", gpu_rule="earliest_start_fastest"),
               "heuristic", "Algorithm 1 with the LP ordering and the earliest-start-fastest GPU rule.", _WJCT),
        Method("algorithm1_ef", functools.partial(schedule, gpu_rule="earliest_finish"), "heuristic",
               "Algorithm 1 with a heterogeneity-aware GPU rule (earliest finish; not the paper's).", _WJCT),
        Method("algorithm1_lp_ef", functools.partial(schedule, ordering="lp", gpu_rule="earliest_finish"),
               "heuristic", "Algorithm 1 with the LP ordering and the earliest-finish GPU rule.", _WJCT),
        *(Method(name, functools.partial(simulate, policy=name), "baseline", _BASELINES[name], _WJCT)
          for name in POLICIES),
    ),
)
