"""Wang et al.'s contention paper in the registry (:class:`hetopt.contract.Kind`).

The exact methods call :func:`~hetopt.contention.solve_exact` and
:func:`~hetopt.contention.solve_contention_bound` (placement: the one LWF-1 gives under
SRSF(1)); every policy of :data:`~hetopt.contention.policies.POLICIES` is a method that
simulates it.
"""

from __future__ import annotations

import functools

from ..contract import Kind, Method
from ..inputs import check_example
from .checker import check_schedule
from .exact import solve_exact
from .generators import generate_instance, tiny_instance
from .instance import ContentionInstance
from .model import build_milp
from .policies import POLICIES
from .shared import solve_contention_bound
from .simulator import simulate
from .validate import ratio_sweep, validate, validate_ratio

__all__ = ["KIND", "example", "export_model"]

_TJCT = "total JCT of the jobs (s)"


def example(*, seed: int, size: int) -> ContentionInstance:
    """A tiny instance: 2-3 jobs on 2 servers of 2 GPUs."""
    seed, size = check_example(seed, size)
    return tiny_instance(seed=seed, n_jobs=2 + size % 2)


def export_model(inst: ContentionInstance):
    """The exact MILP on SRSF(1)'s LWF-1 placement (on the data's own time grid; small instances)."""
    ref = simulate(inst, "srsf1")
    return build_milp(inst, ref.placement, upper_bound=ref.objective)


KIND = Kind(
    name="contention",
    title='Wang et al., "Communication Contention Aware Scheduling of Multiple Deep Learning Training Jobs"',
    instance=ContentionInstance,
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
    card="models/wang2019-contention.md",
    example_instance="wang2019_tiny",
    plot="hetopt.contention.experiments.plot:gantt",
    claims="hetopt.contention.experiments.claims",
    bench="hetopt.contention.experiments.bench",
    methods=(
        Method("exact", solve_exact, "exact", "The exact contention-free optimum on the placement LWF-1 gives "
               "under SRSF(1), by the CP-SAT interval model.", _TJCT, default=True),
        Method("exact_cpsat", functools.partial(solve_exact, engine="cpsat"), "exact", "The exact contention-free "
               "optimum on LWF-1's placement, by the CP-SAT interval model.", _TJCT),
        Method("exact_milp", functools.partial(solve_exact, engine="milp"), "exact", "The exact contention-free "
               "optimum on LWF-1's placement, by the time-indexed MILP on the data's own time grid (small instances).", _TJCT),
        Method("contention_bound", solve_contention_bound, "exact", "The contention-aware problem (eq. (5)) on "
               "LWF-1's placement: the best schedule found and a proven lower bound.", _TJCT),
        *(Method(name, functools.partial(simulate, policy=name), p.category, p.description, _TJCT)
          for name, p in POLICIES.items()),
    ),
)
