"""Gavel's heterogeneity-aware allocation policies: one table of names, one signature.

Every policy has the signature::

    policy(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None)

and returns the J x R allocation matrix ``X`` of time fractions: ``X[j, r]`` is the
fraction of wall-clock time job ``j`` should spend on GPUs of type ``r``.  Every
allocation satisfies Gavel's base constraints

* ``X >= 0``;
* ``sum_r X[j, r] <= 1`` (a job runs on at most one type at a time);
* ``sum_j scale_factor[j] * X[j, r] <= capacity[r]`` (a job with scale factor ``s``
  occupies ``s`` GPUs of the type it runs on).

The policies live by role: :mod:`~hetopt.gavel.fairness` (max-min fairness with Gavel's or
the isolated normalization, max-sum-throughput), :mod:`~hetopt.gavel.makespan`
(min-total-duration, scaled and certified) and :mod:`~hetopt.gavel.fifo` (Gavel's greedy
FIFO and a lexicographic LP reading).  This module re-exports them and holds
:data:`POLICIES`.

References
----------
D. Narayanan, K. Santhanam, F. Kazhamiaka, A. Phanishayee, M. Zaharia,
"Heterogeneity-Aware Cluster Scheduling Policies for Deep Learning Workloads", OSDI 2020;
code: github.com/stanford-futuredata/gavel, ``scheduler/policies/`` (MIT).
"""

from __future__ import annotations

from .fairness import (
    NORMALIZATIONS,
    build_max_min_fairness,
    build_max_sum_throughput,
    fairness_coefficients,
    isolated_allocation,
    max_min_fairness,
    max_min_fairness_objective,
    max_sum_throughput,
    proportional_allocation,
)
from .fifo import FIFO_FIX_RTOL, FIFO_SEMANTICS, build_fifo_step, fifo, gavel_fifo_allocation
from .inputs import check_policy_inputs
from .makespan import (
    CERT_RTOL,
    MakespanResult,
    build_min_total_duration,
    makespan_of,
    makespan_reference,
    min_total_duration,
    solve_min_total_duration,
)

__all__ = [
    "check_policy_inputs",
    "NORMALIZATIONS",
    "proportional_allocation",
    "isolated_allocation",
    "fairness_coefficients",
    "max_min_fairness_objective",
    "build_max_min_fairness",
    "build_max_sum_throughput",
    "build_min_total_duration",
    "build_fifo_step",
    "max_min_fairness",
    "max_sum_throughput",
    "min_total_duration",
    "solve_min_total_duration",
    "makespan_of",
    "makespan_reference",
    "MakespanResult",
    "CERT_RTOL",
    "fifo",
    "gavel_fifo_allocation",
    "FIFO_FIX_RTOL",
    "FIFO_SEMANTICS",
    "POLICIES",
]

#: Policy name -> function, all with the common signature.
POLICIES = {
    "max_min_fairness": max_min_fairness,
    "max_sum_throughput": max_sum_throughput,
    "min_total_duration": min_total_duration,
    "fifo": fifo,
}
