"""Gavel's heterogeneity-aware scheduling policies (a baseline several papers compare with).

Every policy Gavel ships (max-min fairness and its agnostic, water-filling, strategy-proof and
packing variants, max-sum-throughput with and without cost and SLOs, min-total-duration, FIFO,
finish-time fairness, Gandiva, AlloX, isolated and proportional shares), posed as Gavel's code
poses them and solved by ECOS by default (:mod:`~hetopt.gavel.lp`, registry :data:`POLICIES`,
signature ``policy(throughput, scale_factor, capacity, priority_weight=None, *, ...) -> X``,
:class:`Policy`); Gavel's own simulator loop (``simulate(..., mechanism="gavel")``, the default,
run for run the same as Gavel's on its traces: :func:`parity_rows`) beside hetopt's idealised
one (``mechanism="clean"``, :class:`GavelMechanism`, :func:`schedule_round`); Gavel's traces
(:func:`parse_trace`, :func:`load_trace`); an instance kind ``"gavel"``
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
from .clean_rounds import CleanRounds
from .generators import generate_instance
from .heuristics import AlloX, RandomFIFO, allox, fifo_random
from .instance import GavelInstance
from .kind import KIND
from .lp import SOLVERS, gavel_max_min_fairness, gavel_max_sum_throughput, gavel_min_total_duration
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
from .packing import (
    FinishTimeFairnessPacked,
    finish_time_fairness_packed,
    max_min_fairness_packed,
    max_min_fairness_water_filling_packed,
    max_sum_throughput_normalized_by_cost_packed_slos,
    min_total_duration_packed,
)
from .packing_greedy import Gandiva, fifo_packed, gandiva
from .parity import extra_parity_rows, parity_reference, parity_rows
from .policies import (
    CERT_RTOL,
    NORMALIZATIONS,
    PERF_POLICIES,
    POLICIES,
    MakespanResult,
    Policy,
    PolicySpec,
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
from .round_loop import Mechanism
from .rounds import MECHANISMS, GavelRounds
from .simulator import GavelSimulation, simulate
from .traces import TRACES, load_trace, pair_throughputs, parse_trace, simulation_throughputs, to_trace
from .validate import ratio_sweep, validate_ratio
from .variants import (
    FinishTimeFairness,
    finish_time_fairness,
    finish_time_fairness_agnostic,
    isolated,
    max_min_fairness_agnostic,
    max_min_fairness_strategy_proof,
    max_min_fairness_water_filling,
    max_min_fairness_water_filling_agnostic,
    max_sum_throughput_normalized_by_cost,
    max_sum_throughput_normalized_by_cost_slos,
    min_total_duration_agnostic,
    proportional,
)

__all__ = [
    "KIND",
    "load_trace",
    "TRACES",
    "simulation_throughputs",
    "pair_throughputs",
    "MECHANISMS",
    "Mechanism",
    "GavelRounds",
    "CleanRounds",
    "SOLVERS",
    "PERF_POLICIES",
    "PolicySpec",
    "parity_rows",
    "extra_parity_rows",
    "parity_reference",
    "gavel_max_min_fairness",
    "gavel_max_sum_throughput",
    "gavel_min_total_duration",
    "max_min_fairness_agnostic",
    "min_total_duration_agnostic",
    "max_min_fairness_strategy_proof",
    "max_min_fairness_water_filling",
    "max_min_fairness_water_filling_agnostic",
    "FinishTimeFairness",
    "finish_time_fairness",
    "finish_time_fairness_agnostic",
    "max_sum_throughput_normalized_by_cost",
    "max_sum_throughput_normalized_by_cost_slos",
    "isolated",
    "proportional",
    "AlloX",
    "allox",
    "RandomFIFO",
    "fifo_random",
    "max_min_fairness_packed",
    "FinishTimeFairnessPacked",
    "finish_time_fairness_packed",
    "min_total_duration_packed",
    "max_sum_throughput_normalized_by_cost_packed_slos",
    "fifo_packed",
    "max_min_fairness_water_filling_packed",
    "Gandiva",
    "gandiva",
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
