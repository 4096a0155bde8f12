"""Gavel's heterogeneity-aware scheduling policies (a baseline several papers compare with).

Four allocation policies as CVXPY LPs over a jobs x GPU-types matrix of time fractions,
all with the signature ``policy(throughput, scale_factor, capacity, priority_weight=None,
*, remaining_steps=None) -> X``; the round-based mechanism of Gavel's ``scheduler.py`` that
turns an allocation into rounds (:class:`GavelMechanism`, :func:`schedule_round`); an instance
kind ``"gavel"`` (:class:`GavelInstance`), a workload generator in Gavel's trace format and a
round simulator (:func:`simulate`).

References
----------
D. Narayanan, K. Santhanam, F. Kazhamiaka, A. Phanishayee, M. Zaharia,
"Heterogeneity-Aware Cluster Scheduling Policies for Deep Learning Workloads", OSDI 2020.
"""

from .checker import check_schedule
from .instance import GavelInstance
from .kind import KIND
from .mechanism import (
    ALLOCATION_EPS,
    DEFAULT_RECOMPUTE_INTERVAL,
    DEFAULT_ROUND_LENGTH,
    GavelMechanism,
    fastest_first,
    priorities,
    schedule_round,
)
from .policies import (
    CERT_RTOL,
    NORMALIZATIONS,
    POLICIES,
    MakespanResult,
    build_fifo_step,
    build_max_min_fairness,
    build_max_sum_throughput,
    build_min_total_duration,
    check_policy_inputs,
    fairness_coefficients,
    fifo,
    gavel_fifo_allocation,
    isolated_allocation,
    makespan_of,
    makespan_reference,
    max_min_fairness,
    max_min_fairness_objective,
    max_sum_throughput,
    min_total_duration,
    proportional_allocation,
    solve_min_total_duration,
)
from .simulator import GavelSimulation, simulate
from .workload import generate_workload, parse_trace, to_trace

__all__ = [
    "KIND",
    "check_schedule",
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
    "GavelMechanism",
    "fastest_first",
    "DEFAULT_ROUND_LENGTH",
    "DEFAULT_RECOMPUTE_INTERVAL",
    "GavelInstance",
    "GavelSimulation",
    "simulate",
    "generate_workload",
    "parse_trace",
    "to_trace",
]
