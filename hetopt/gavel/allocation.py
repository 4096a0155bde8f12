"""A Gavel policy's allocation for all the jobs of an instance at once, as a :class:`~hetopt.result.Solution`."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..result import OPTIMAL_RTOL, Solution, Status, relative_gap
from .instance import GavelInstance
from .policies import POLICIES
from .simulator import _policy_args

__all__ = ["GavelAllocation", "allocate", "solve_exact"]


@dataclass(frozen=True, kw_only=True)
class GavelAllocation(Solution):
    """A policy's allocation for every job of an instance (all present at once).

    ``objective`` is the makespan in seconds if the allocation were kept until every job
    finished (``max_j total_steps[j] / sum_r X[j, r] T[j, r]``), a yardstick common to all
    policies, recomputed from the allocation.  It is what min-total-duration minimizes, so
    that policy's result has status OPTIMAL; the other policies optimize their own objective
    (``models/gavel.md``), so for them the makespan is only evaluated and the status is FEASIBLE.
    """

    policy: str = ""
    allocation: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    job_throughput: np.ndarray = field(default_factory=lambda: np.zeros(0))


def allocate(inst: GavelInstance, policy: str = "max_min_fairness") -> GavelAllocation:
    """Solve a Gavel policy for all the jobs of ``inst`` (arrivals ignored, total steps as remaining)."""
    from ..inputs import check_instance

    check_instance(inst, GavelInstance, "inst")
    if policy not in POLICIES:
        raise ValueError(f"policy is {policy!r}; expected one of {', '.join(POLICIES)}")
    t0 = time.perf_counter()
    T = inst.effective_throughput()
    bound = None
    if policy == "min_total_duration":  # the LP's optimum bounds the makespan: a certified optimum
        from .makespan import solve_min_total_duration

        r = solve_min_total_duration(T, inst.scale_factor, inst.capacity, inst.total_steps)
        X, bound = np.asarray(r.allocation), float(r.lp_makespan)
    else:
        X = np.asarray(POLICIES[policy](T, inst.scale_factor, inst.capacity,
                                        **_policy_args(policy, inst.priority_weight, inst.total_steps)))
    rate = (X * T).sum(axis=1)
    with np.errstate(divide="ignore"):
        span = float(np.max(np.where(rate > 0, inst.total_steps / np.where(rate > 0, rate, 1.0), np.inf)))
    status = Status.FEASIBLE
    if bound is not None:
        bound = min(bound, span)
        gap = relative_gap(span, bound)
        status = Status.OPTIMAL if gap is not None and gap <= OPTIMAL_RTOL else Status.FEASIBLE
    return GavelAllocation(status=status, objective=span, bound=bound, gap=relative_gap(span, bound),
                           wall_time=time.perf_counter() - t0, solver="highs", policy=policy, allocation=X,
                           job_throughput=rate,
                           message="objective: makespan if the allocation were kept until every job finished")




def solve_exact(inst: GavelInstance, *, time_limit: float | None = None) -> GavelAllocation:
    """The certified minimum makespan of ``inst`` (all jobs present at once): min-total-duration's exact LP.

    ``time_limit`` is accepted for the common vocabulary; the LP solves in well under a second.
    """
    from ..inputs import check_time_limit

    check_time_limit(time_limit)
    return allocate(inst, "min_total_duration")
