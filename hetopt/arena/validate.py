"""Certificates on seeded arena workloads: a policy's average JCT against the certified lower bound.

No paper claims a ratio for the arena: :func:`validate_ratio` is a gap report (``limit=None``)
of one policy's run in the execution model against :func:`~hetopt.arena.bounds.jct_lower_bound`
(the fluid interval LP (W), certified by weak duality; ``packing=True`` for a policy that packs
two jobs on a GPU), a bound no policy of the model can beat.  :func:`ratio_sweep` runs it over
seeded workloads of :func:`~hetopt.arena.sources.generate_instance`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import ArgumentError
from ..inputs import MAX_SEED, check_positive, check_size, check_time_limit, takes_instance
from ..result import Certificate
from ..validate import SweepResults, gap_certificate, sweep
from .bounds import jct_lower_bound
from .policies import POLICIES, make_policy
from .simulate import simulate
from .sources import generate_instance
from .workload import Workload

__all__ = ["validate_ratio", "ratio_sweep"]


@takes_instance(Workload)
def validate_ratio(inst: Workload, *, policy: str = "max_min_fairness", time_limit: float | None = 60.0,
                   options: dict[str, Any] | None = None) -> Certificate:
    """A policy's average JCT in the arena over the certified lower bound on the average JCT.

    Parameters
    ----------
    inst : Workload
    policy : str
        A name of :data:`~hetopt.arena.POLICIES`.
    time_limit : float, optional
        Seconds for each LP of the bound (a stopped LP gives a valid bound that is not certified).
    options : mapping, optional
        The policy's options (as :func:`~hetopt.arena.simulate`).

    Returns
    -------
    Certificate
        ``value``: the policy's plain average JCT (s); ``reference``: the bound (weights of 1;
        with packing for a packing policy); ``ratio`` >= 1; ``limit`` None, so ``holds`` is None;
        ``proven``: the bound is certified.
    """
    if options is not None and not isinstance(options, Mapping):
        raise ArgumentError(f"options is {options!r}; expected a mapping of the policy's options or None")
    make_policy(policy, **dict(options or {}))  # an unknown name or option fails before the LPs
    if isinstance(policy, str) and POLICIES[policy].copies:
        raise ArgumentError(f"policy {policy!r} runs a job as several gangs at once (copies), outside the model of "
                            "hetopt.arena.bounds: no certified bound holds for it")
    limit = check_time_limit(time_limit)
    sim = simulate(inst, policy, options=options, record_rounds=False)
    packs = POLICIES[policy].packs if isinstance(policy, str) else False
    bound = jct_lower_bound(inst, weights=np.ones(inst.n_jobs), packing=packs, time_limit=limit)
    return gap_certificate(sim.average_jct, float(bound.value), sense="min", proven=bool(bound.certified),
                           name=f"{sim.policy} average JCT / certified lower bound", policy=sim.policy,
                           packing=packs, bound_source=bound.source)


def _instance(n_jobs: int, jobs_per_hour: float, counts: str, *, seed: int) -> Workload:
    return generate_instance(n_jobs=n_jobs, jobs_per_hour=jobs_per_hour, seed=seed, counts=counts)


def ratio_sweep(n: int, *, seed: int = 0, executor: Any = None, policy: str = "max_min_fairness", n_jobs: int = 12,
                jobs_per_hour: float = 4.0, counts: str = "2:2:2", time_limit: float | None = 60.0) -> SweepResults:
    """:func:`validate_ratio` on ``n`` workloads of :func:`~hetopt.arena.sources.generate_instance`.

    Parameters
    ----------
    n : int
        Workloads (seeds ``seed, ..., seed + n - 1``).
    seed : int
        The first seed.
    executor : None, "serial", int, Executor or dask Client
        As for :func:`hetopt.validate.sweep`.
    policy : str
        The policy run.
    n_jobs, jobs_per_hour, counts
        Gavel's generator: jobs per workload, their arrival rate, the cluster (V100:P100:K80 GPUs).
    time_limit : float, optional
        Seconds for each LP of each bound.

    Returns
    -------
    SweepResults
        One :class:`~hetopt.result.Certificate` per seed, with the digests of the workloads.
    """
    count = check_size(n, "n")
    first = check_size(seed, "seed", minimum=0, maximum=MAX_SEED - count)
    make_policy(policy)
    rate = check_positive(jobs_per_hour, "jobs_per_hour")
    make = functools.partial(_instance, check_size(n_jobs, "n_jobs"), rate, counts)
    make(seed=first)  # the cluster is checked here, before any worker starts
    evaluate = functools.partial(validate_ratio, policy=policy, time_limit=check_time_limit(time_limit))
    return sweep(make, evaluate, range(first, first + count), executor)
