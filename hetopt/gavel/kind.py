"""Gavel in the registry (:class:`hetopt.contract.Kind`): the baseline the papers compare against."""

from __future__ import annotations

import functools

from ..contract import Kind, Method
from ..errors import HetoptError
from ..inputs import check_example, takes_instance
from .allocation import allocate, solve_exact
from .checker import check_schedule
from .generators import generate_instance
from .instance import GavelInstance
from .policies import POLICIES
from .simulator import simulate
from .validate import ratio_sweep, validate, validate_ratio

__all__ = ["KIND", "example", "export_model", "validate"]

_SPAN = "makespan (s) if the allocation were kept until every job finished"
_SIM = "average JCT (s) of the simulated rounds"


def example(*, seed: int, size: int) -> GavelInstance:
    """A small workload: 2 + ``size`` jobs on 2 GPUs of each type, 2 jobs per hour."""
    seed, size = check_example(seed, size)
    return generate_instance(n_jobs=2 + size, capacity=(2, 2, 2), jobs_per_hour=2.0, seed=seed)


@takes_instance(GavelInstance)
def export_model(inst: GavelInstance):
    """Not available: Gavel's policies are CVXPY problems (``hetopt.gavel.build_*``), not Pyomo models.

    Raises
    ------
    HetoptError
        Always, naming the CVXPY builders.
    """
    raise HetoptError("gavel instances have no Pyomo model to export; build the CVXPY problem with "
                      "hetopt.gavel.build_max_min_fairness (or another build_*) and write it with cvxpy")



KIND = Kind(
    name="gavel",
    title='Narayanan et al., "Heterogeneity-Aware Cluster Scheduling Policies for Deep Learning Workloads", '
          'OSDI 2020 (Gavel, the common baseline)',
    instance=GavelInstance,
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
    card="models/gavel.md",
    example_instance="gavel2020_three_jobs",
    plot="hetopt.gavel.experiments.plot:gantt",
    claims="hetopt.gavel.experiments.claims",
    bench="hetopt.gavel.experiments.bench",
    methods=(
        Method("exact", solve_exact, "exact", "The certified minimum makespan of all the jobs present at once "
               "(the exact min-total-duration LP).", _SPAN, default=True),
        *(Method(name, functools.partial(allocate, policy=name), "baseline",
                 f"{spec.description}, solved once for all the jobs (arrivals ignored).", _SPAN)
          for name, spec in POLICIES.items() if spec.static),
        *(Method(f"simulate_{name}", functools.partial(simulate, policy=name), "baseline",
                 f"{spec.description} in Gavel's own round simulator (its event loop, ECOS) until every job "
                 "completes.", _SIM) for name, spec in POLICIES.items()),
    ),
)
