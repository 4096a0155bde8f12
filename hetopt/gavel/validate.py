"""Certificates on seeded Gavel workloads: a policy's makespan against the certified optimum, and the simulator's sweep.

Gavel claims no approximation ratio: :func:`validate_ratio` is a gap report (``limit=None``) of
a policy's static allocation, kept until every job finishes, against the proven minimum
makespan of :func:`~hetopt.gavel.solve_exact`; :func:`ratio_sweep` runs it over seeded
instances.  :func:`validate` is ``hetopt validate gavel``: every policy simulated on seeded
workloads, every job completed, none before its lower bound.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ArgumentError
from ..inputs import MAX_SEED, check_size, check_time_limit, takes_instance
from ..report import Table
from ..result import Certificate
from ..validate import SweepResults, gap_certificate, instance_digest, sweep
from .allocation import allocate, solve_exact
from .generators import generate_instance
from .instance import GavelInstance
from .policies import POLICIES, resolve_policy
from .simulator import simulate

__all__ = ["validate_ratio", "ratio_sweep", "validate"]


@takes_instance(GavelInstance)
def validate_ratio(inst: GavelInstance, *, policy: Any = "max_min_fairness",
                   time_limit: float | None = 60.0) -> Certificate:
    """The makespan of a policy's allocation over the certified minimum makespan (a gap report).

    Parameters
    ----------
    inst : GavelInstance
        The jobs (arrivals ignored: all present at once) and the cluster.
    policy : str or callable
        A name of :data:`~hetopt.gavel.POLICIES` or a callable of the policies' protocol.
    time_limit : float, optional
        Seconds for the exact LP (:func:`~hetopt.gavel.solve_exact`).

    Returns
    -------
    Certificate
        ``value``: the makespan if the policy's allocation were kept until every job finished
        (``inf`` when it gives a job no time, e.g. FIFO's head-of-line blocking); ``reference``:
        the proven lower bound of the exact LP (its optimum when OPTIMAL); ``ratio`` >= 1;
        ``limit`` None (Gavel claims no ratio), so ``holds`` is None; ``proven`` True (the
        reference is a certified bound).

    Raises
    ------
    ArgumentError
        An unknown policy or a bad time limit.

    Examples
    --------
    >>> import hetopt
    >>> cert = validate_ratio(hetopt.load_instance("gavel2020_static8"), policy="min_total_duration")
    >>> cert.proven, cert.limit, 1.0 <= cert.ratio <= 1.05  # Gavel's bisection stops at a 5 % bracket
    (True, None, True)
    """
    name, _ = resolve_policy(policy)
    exact = solve_exact(inst, time_limit=check_time_limit(time_limit))
    sol = allocate(inst, policy)
    return gap_certificate(float(sol.objective if sol.objective is not None else np.inf), exact, sense="min",
                           name=f"{name} makespan / minimum makespan", policy=name,
                           exact_status=exact.status.value, exact_objective=exact.objective)


def _instance(n_jobs: int, capacity: tuple[int, ...], *, seed: int) -> GavelInstance:
    return generate_instance(n_jobs=n_jobs, seed=seed, capacity=capacity)


def ratio_sweep(n: int, *, seed: int = 0, executor: Any = None, policy: Any = "max_min_fairness", n_jobs: int = 8,
                capacity: Sequence[int] = (2, 2, 2), time_limit: float | None = 60.0) -> SweepResults:
    """:func:`validate_ratio` on ``n`` seeded instances of :func:`~hetopt.gavel.generate_instance`.

    Parameters
    ----------
    n : int
        Instances (seeds ``seed, seed + 1, ..., seed + n - 1``).
    seed : int
        The first seed.
    executor : None, "serial", int, Executor or dask Client
        As for :func:`hetopt.validate.sweep` (None: a local process pool; a callable policy must
        then be picklable).
    policy : str or callable
        The policy whose allocation is measured.
    n_jobs : int
        Jobs per instance (all present at time 0).
    capacity : sequence of 3 int
        GPUs of type v100, p100, k80.
    time_limit : float, optional
        Seconds for each exact LP.

    Returns
    -------
    SweepResults
        One :class:`~hetopt.result.Certificate` per seed, with the digests of the instances drawn.
    """
    count = check_size(n, "n")
    first = check_size(seed, "seed", minimum=0, maximum=MAX_SEED - count)
    resolve_policy(policy)
    if isinstance(capacity, str) or not isinstance(capacity, Sequence):
        raise ArgumentError(f"capacity is {capacity!r}; expected a sequence of GPU counts, one per type")
    make = functools.partial(_instance, check_size(n_jobs, "n_jobs"), tuple(capacity))
    generate_instance(n_jobs=1, seed=0, capacity=tuple(capacity))  # capacity checked here, before any worker starts
    evaluate = functools.partial(validate_ratio, policy=policy, time_limit=check_time_limit(time_limit))
    return sweep(make, evaluate, range(first, first + count), executor)


def validate(n: int = 20, *, seed: int = 0) -> Table:
    """Seeded workloads: every simulation completes every job, and no job finishes before its lower bound.

    The bound of job ``j`` is ``arrival + total_steps / max_r throughput``.  Used by
    ``hetopt validate gavel``.

    Parameters
    ----------
    n : int
        Workloads (8 jobs, 2 GPUs per type, 4 jobs/hour).
    seed : int
        Seed of the first workload.

    Returns
    -------
    Table
        One row per policy; ``violations`` counts incomplete runs and jobs below their bound.
    """
    n = check_size(n, "n")
    seed = check_size(seed, "seed", minimum=0, maximum=MAX_SEED - n)
    t = Table(f"gavel: {n} seeded workloads (8 jobs, 2 GPUs per type, 4 jobs/hour), every policy simulated",
              ["policy", "workloads", "all jobs complete", "JCT >= isolated bound", "mean avg JCT (h)"])
    insts = [generate_instance(n_jobs=8, capacity=(2, 2, 2), jobs_per_hour=4.0, seed=seed + k) for k in range(n)]
    for name in POLICIES:
        ok = lb = 0
        jcts = []
        for inst in insts:
            r = simulate(inst, name, record_rounds=False)
            ok += bool(np.all(np.isfinite(r.completion)))
            bound = inst.total_steps / inst.effective_throughput().max(axis=1)
            lb += bool(np.all(r.jct >= bound * (1 - 1e-9)))
            jcts.append(r.average_jct / 3600)
        t.add(name, n, ok, lb, float(np.mean(jcts)))
        t.violations = (t.violations or 0) + (n - ok) + (n - lb)
    t.notes.append(f"{len({instance_digest(i) for i in insts})} distinct instances among {n} seeds")
    return t
