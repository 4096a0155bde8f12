"""Gavel's heterogeneity-aware scheduling policies (a baseline several papers compare with).

Four allocation policies as CVXPY LPs over a jobs x GPU-types matrix of time fractions,
all with the signature ``policy(throughput, scale_factor, capacity, priority_weight=None,
*, remaining_steps=None) -> X`` (:class:`Policy`, registry :data:`POLICIES`); the round-based
mechanism of Gavel's ``scheduler.py`` that turns an allocation into rounds
(:class:`GavelMechanism`, :func:`schedule_round`); an instance kind ``"gavel"``
(:class:`GavelInstance`), its generator :func:`generate_instance` and Gavel's trace format
(:func:`parse_trace`, :func:`to_trace`); a policy's allocation of all the jobs
(:func:`allocate`), the certified minimum makespan (:func:`solve_exact`), the round simulator
(:func:`simulate`), the independent checker (:func:`check_schedule`) and the gap of a policy's
makespan to the optimum (:func:`validate_ratio`, :func:`ratio_sweep`).

References
----------
D. Narayanan, K. Santhanam, F. Kazhamiaka, A. Phanishayee, M. Zaharia,
"Heterogeneity-Aware Cluster Scheduling Policies for Deep Learning Workloads", OSDI 2020.
"""

from .allocation import GavelAllocation, allocate, solve_exact
from .checker import check_schedule
from .generators import generate_instance, parse_trace, to_trace
from .instance import GavelInstance
from .kind import KIND
from .makespan import CertifiedMakespan, certify_min_total_duration, dual_makespan_bound, feasible_allocation
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
    Policy,
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
from .validate import ratio_sweep, validate_ratio

__all__ = [
    "KIND",
    "GavelInstance",
    "generate_instance",
    "parse_trace",
    "to_trace",
    "check_schedule",
    "solve_exact",
    "allocate",
    "GavelAllocation",
    "simulate",
    "GavelSimulation",
    "validate_ratio",
    "ratio_sweep",
    "POLICIES",
    "Policy",
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
    "certify_min_total_duration",
    "CertifiedMakespan",
    "dual_makespan_bound",
    "feasible_allocation",
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
]
