"""The arena in the registry (:class:`hetopt.contract.Kind`): the workload is its instance, its policies its methods.

``hetopt.solve(workload, "max_min_fairness")`` runs one policy in the arena
(:func:`~hetopt.arena.simulate.simulate`); the default method is the arena model's exact optimum
on small workloads (:mod:`hetopt.arena.exact`).
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

from ..contract import Kind, Method
from ..result import Solution
from .checker import check_schedule
from .policies import POLICIES
from .simulate import simulate
from .sources import generate_instance
from .workload import Workload

__all__ = ["KIND", "example", "solve_exact"]

_SIM = "average JCT (s) in the arena's execution model (Gavel's rounds)"


def example(seed: int, size: int) -> Workload:
    """A small workload: 2 + ``size`` single-GPU jobs of Gavel's generator on one GPU of each type, 2 jobs/hour."""
    return generate_instance(2 + size, 2.0, seed=seed, counts="1:1:1", multi_gpu=False)


def solve_exact(inst: Workload, *, time_limit: float | None = None, **options: Any) -> Solution:
    """The arena model's exact optimum (minimum average JCT) of a small workload, from :mod:`hetopt.arena.exact`."""
    exact = importlib.import_module("hetopt.arena.exact")
    sol: Solution = exact.solve_exact(inst, time_limit=time_limit, **options)
    return sol


KIND = Kind(
    name="arena",
    title="The arena: every scheduler of the package on one workload, in one execution model (Gavel's rounds), "
          "against certified bounds",
    instance=Workload,
    generate_instance=generate_instance,
    example=example,
    check_schedule=check_schedule,
    solve_exact=solve_exact,
    simulate=simulate,
    policies=POLICIES,
    card="models/arena.md",
    example_instance="arena_workload_small_test",
    bench="hetopt.arena.bench",
    methods=(
        Method("exact", solve_exact, "exact", "The arena model's minimum average JCT on a small workload, certified "
               "(hetopt.arena.exact).", "average JCT (s)", default=True),
        *(Method(name, functools.partial(simulate, policy=name), "baseline",
                 f"{entry.description}, in the arena's execution model until every job completes.", _SIM)
          for name, entry in POLICIES.items()),
    ),
)
