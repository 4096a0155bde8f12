"""The arena in the registry (:class:`hetopt.contract.Kind`): the workload is its instance, its policies its methods.

``hetopt.solve(workload, "max_min_fairness")`` runs one policy in the arena
(:func:`~hetopt.arena.simulate.simulate`); the default method is the arena model's exact optimum
on small workloads (:mod:`hetopt.arena.exact`).
"""

from __future__ import annotations

import functools

import numpy as np

from ..contract import Kind, Method
from ..inputs import check_example
from .checker import check_schedule
from .exact import export_model, solve_exact
from .policies import POLICIES
from .simulate import simulate
from .sources import generate_instance
from .validate import ratio_sweep, validate_ratio
from .workload import Workload

__all__ = ["KIND", "example", "solve_exact"]

_SIM = "average JCT (s) in the arena's execution model (Gavel's rounds)"


def example(*, seed: int, size: int) -> Workload:
    """A small workload: 2 + ``size`` single-GPU jobs of Gavel's generator on one GPU of each type, 2 jobs/hour.

    Each job keeps its drawn type and throughputs but at most one hour of work on its fastest type
    (the generator draws up to days), so the exact round model proves its optimum in seconds.
    """
    seed, size = check_example(seed, size)
    w = generate_instance(n_jobs=2 + size, jobs_per_hour=2.0, seed=seed, counts="1:1:1", multi_gpu=False)
    hour = 3600.0 * np.max(w.throughput, axis=1)
    return w.replace(steps=np.minimum(w.steps, np.floor(hour)), description=w.description + ", jobs cut to 1 hour")


KIND = Kind(
    name="arena",
    title="The arena: every scheduler of the package on one workload, in one execution model (Gavel's rounds), "
          "against certified bounds",
    instance=Workload,
    generate_instance=generate_instance,
    example=example,
    check_schedule=check_schedule,
    solve_exact=solve_exact,
    export_model=export_model,
    simulate=simulate,
    validate_ratio=validate_ratio,
    ratio_sweep=ratio_sweep,
    policies=POLICIES,
    card="models/arena.md",
    example_instance="arena_workload_small_test",
    bench="hetopt.arena.bench",
    methods=(
        Method("exact", solve_exact, "exact", "The arena model's minimum average JCT on a small workload, certified "
               "(hetopt.arena.solve_exact: rounds of 360 s on a fixed grid).", "average JCT (s)", default=True),
        *(Method(name, functools.partial(simulate, policy=name), "baseline",
                 f"{entry.description}, in the arena's execution model until every job completes.", _SIM)
          for name, entry in POLICIES.items()),
    ),
)
