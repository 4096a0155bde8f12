"""The placement paper's entry in the registry (:class:`hetopt.contract.Kind`)."""

from __future__ import annotations

from functools import partial

import pyomo.environ as pyo

from ..contract import Kind, Method
from ..inputs import check_example, check_size, takes_instance
from ..report import Table
from .baselines import las, optimus, optimus_lb
from .checker import check_schedule
from .exact import exhaustive, solve_exact
from .generators import generate_instance
from .has import has
from .instance import PlacementInstance
from .model import build_p1
from .policies import POLICIES, POLICY_DESCRIPTIONS
from .sampling import jps
from .simulator import simulate
from .validate import gap_report, ratio_sweep, validate_ratio

__all__ = ["KIND", "example", "export_model", "validate"]

_JCT = "average JCT (s) of the placement, eq. (8)"
_RUN = "average JCT (s) of the run from time 0 to the last completion (Section VI-B2)"
#: The paper's algorithms among the policies (the others are its baselines).
_HEURISTIC_POLICIES = ("has", "jps")


def example(*, seed: int, size: int) -> PlacementInstance:
    """A small instance of the paper setting: 2-4 jobs on 4 + ``size`` workers."""
    seed, size = check_example(seed, size)
    return generate_instance(n_jobs=2 + size % 3, n_workers=4 + size, seed=seed)


def validate(n: int = 20, *, seed: int = 0) -> Table:
    """Certification sweep: every method's JCT over the certified optimum (Figs. 9-10).

    On ``n`` distinct instances of the paper setting (throughput noise 10 % per seed).
    """
    return gap_report(n=check_size(n, "n"), seed=check_size(seed, "seed", minimum=0))


@takes_instance(PlacementInstance)
def export_model(inst: PlacementInstance) -> pyo.ConcreteModel:
    """The exact per-worker MILP of P1 (``build_p1(form="milp")``)."""
    return build_p1(inst, form="milp")


KIND = Kind(
    name="placement",
    title='Liu et al., "Sampling-Based Multi-Job Placement for Heterogeneous Deep Learning Clusters", IEEE TPDS 2024',
    instance=PlacementInstance,
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
    card="models/liu2024-placement.md",
    example_instance="liu2024_table2",
    plot="hetopt.placement.experiments.plot:gantt",
    claims="hetopt.placement.experiments.claims",
    bench="hetopt.placement.experiments.bench",
    depends_on=("gavel",),
    methods=(
        Method("exact", solve_exact, "exact", "The optimum of P1 (eq. (8), with communication) by HiGHS outer "
               "approximation, with a certified lower bound.", _JCT, default=True),
        Method("exact_scip", partial(solve_exact, solver="scip"), "exact", "The optimum of P1 solved by SCIP on the "
               "same model, with SCIP's certified lower bound.", _JCT),
        Method("exhaustive", exhaustive, "exact", "Exhaustive search over every worker-level assignment, the "
               "paper's exact baseline of Table IV (small instances only).", _JCT),
        Method("has", has, "heuristic", "HAS (Section V-C): the best placement over all C(K-1, S-1) categories, "
               "each solved by the matching-market auction of Algorithm 2.", _JCT),
        Method("has_hungarian", partial(has, market="assignment"), "heuristic", "HAS with each category's "
               "assignment problem P3 solved exactly by the Hungarian method instead of the auction.", _JCT),
        Method("jps", partial(jps, seed=0), "heuristic", "JPS (Algorithm 3): Algorithm 2 on N categories sampled "
               "from the rear of Psi (seed 0).", _JCT),
        Method("optimus", optimus, "baseline", "Optimus (Peng et al., EuroSys 2018) as described in Section VI-A: "
               "greedy marginal gain with the dataset split equally over the workers.", _JCT),
        Method("optimus_lb", optimus_lb, "baseline", "Optimus-LB: Optimus extended with the proportional workload "
               "assignment of eqs. (10)-(12).", _JCT),
        Method("optimus_lb_balanced_gains", partial(optimus_lb, reading="balanced_gains"), "baseline",
               "Optimus-LB under the reading where the greedy gains are computed with the balanced split.", _JCT),
        Method("las", las, "baseline", "LAS (Tiresias' Least Attained Service, as used in Section IV-A), solved "
               "exactly as an ILP.", _JCT),
        *(Method(f"simulate_{name}", partial(simulate, policy=name),
                 "heuristic" if name in _HEURISTIC_POLICIES else "baseline", POLICY_DESCRIPTIONS[name], _RUN)
          for name in POLICIES),
    ),
)
