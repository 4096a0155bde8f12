"""Gavel's heterogeneity-aware scheduling policies (a baseline several papers compare with).

Four allocation policies as CVXPY LPs over a jobs x GPU-types matrix of time fractions,
all with the signature ``policy(throughput, scale_factor, capacity, priority_weight=None,
*, remaining_steps=None) -> X``, and the round-based mechanism that turns an allocation
into one round's placement (:func:`gavel_round`, :func:`schedule_round`).

References
----------
D. Narayanan, K. Santhanam, F. Kazhamiaka, A. Phanishayee, M. Zaharia,
"Heterogeneity-Aware Cluster Scheduling Policies for Deep Learning Workloads", OSDI 2020.
"""

from .mechanism import ALLOCATION_EPS, gavel_round, priorities, schedule_round
from .policies import (
    CERT_RTOL,
    NORMALIZATIONS,
    POLICIES,
    MakespanResult,
    fairness_coefficients,
    gavel_fifo_allocation,
    makespan_of,
    makespan_reference,
    max_min_fairness_objective,
    proportional_allocation,
    solve_min_total_duration,
    build_fifo_step,
    build_max_min_fairness,
    build_max_sum_throughput,
    build_min_total_duration,
    check_policy_inputs,
    fifo,
    isolated_allocation,
    max_min_fairness,
    max_sum_throughput,
    min_total_duration,
)

__all__ = [
    "POLICIES",
    "ALLOCATION_EPS",
    "check_policy_inputs",
    "isolated_allocation",
    "build_max_min_fairness",
    "build_max_sum_throughput",
    "build_min_total_duration",
    "build_fifo_step",
    "max_min_fairness",
    "max_sum_throughput",
    "min_total_duration",
    "fifo",
    "gavel_fifo_allocation",
    "NORMALIZATIONS",
    "proportional_allocation",
    "fairness_coefficients",
    "max_min_fairness_objective",
    "solve_min_total_duration",
    "makespan_of",
    "makespan_reference",
    "MakespanResult",
    "CERT_RTOL",
    "priorities",
    "schedule_round",
    "gavel_round",
]
