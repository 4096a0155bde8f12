"""Hadar and HadarE (Sultana et al.): P1-P3, the price function, DP allocation, the simulator.

* :class:`HadarInstance` (``instance.py``), :class:`Utility` (``utility.py``);
* ``model.py``: :func:`build_p1` (exact time-indexed MILP of P1), :func:`build_p2`,
  :func:`build_p3` (ILP over schedules and its LP dual); ``offline.py``: :func:`solve_exact`;
* ``checker.py``: :func:`check_schedule`, an independent checker of (1a)-(1e);
* ``price.py``: the price function (5)-(7), :func:`competitive_bound` (Theorem 2);
* ``allocation.py``: :func:`find_alloc` and :func:`dp_allocation` (Algorithm 2);
* ``protocol.py``: the plug-in protocol of the simulator (:class:`Policy`, :class:`RoundState`);
* ``policies.py``: :data:`POLICIES`, the one policy registry: Algorithm 1's round-based scheduler,
  HadarE, and the baselines Gavel, Tiresias, YARN-CS; ``simulator.py``: :func:`simulate`;
* ``workloads.py``: the trace-driven setup, the physical mixes, the motivating example, eq. (10);
* ``validate.py``: :func:`validate_ratio` (OPT against Hadar and 2*alpha), :func:`ratio_sweep`;
* ``bounds.py``: :func:`makespan_lower_bound` (scaled fluid LP), :func:`min_rounds` (exact search);
* ``kind.py``: :data:`KIND`, the registration of the paper (:class:`hetopt.contract.Kind`).

The experiments of the claims ledger, its sweeps and the paper's printed numbers are in
:mod:`hetopt.hadar.experiments.claims`.

References
----------
A. Sultana, N. Pakka, F. Xu, X. Yuan, L. Chen, N.-F. Tzeng, "Resource Heterogeneity-Aware and
Utilization-Enhanced Scheduling for Deep Learning Clusters" (Hadar: IPDPS 2023; HadarE: extended version).
"""

from .allocation import Allocation, DPResult, dp_allocation, find_alloc
from .bounds import MakespanBound, capacity_lower_bound, makespan_lower_bound, min_rounds
from .checker import check_schedule, iterations_per_slot
from .instance import SCHEMA_VERSION, HadarInstance, generate_instance
from .kind import KIND
from .model import build_p1, build_p2, build_p3, finish_utility, schedule_utility
from .offline import enumerate_schedules, slot_placements, solve_exact, solve_p2, solve_p3, split_schedule
from .policies import (
    POLICIES,
    QUEUE_ORDERS,
    GavelPolicy,
    HadarEPolicy,
    HadarPolicy,
    TiresiasPolicy,
    YarnCSPolicy,
    make_policy,
    queue_rank,
)
from .price import PriceParameters, competitive_bound, price, price_parameters
from .protocol import Policy, RoundState
from .result import HadarSimulation, HadarSolution
from .simulator import RESTART_DELAY, simulate, total_utility
from .utility import Utility
from .validate import hadar_p1_schedule, ratio_sweep, small_instance, validate_ratio
from .workloads import estimate_throughput, motivating_example, physical_mix, trace_workload

__all__ = [
    "KIND", "SCHEMA_VERSION", "HadarInstance", "generate_instance", "Utility",
    "build_p1", "build_p2", "build_p3", "finish_utility", "schedule_utility",
    "solve_exact", "enumerate_schedules", "slot_placements", "split_schedule", "solve_p2", "solve_p3",
    "check_schedule", "iterations_per_slot",
    "PriceParameters", "price_parameters", "price", "competitive_bound",
    "Allocation", "DPResult", "find_alloc", "dp_allocation",
    "POLICIES", "HadarPolicy", "HadarEPolicy", "GavelPolicy", "TiresiasPolicy", "YarnCSPolicy", "make_policy",
    "Policy", "RoundState", "simulate", "total_utility", "RESTART_DELAY",
    "HadarSolution", "HadarSimulation",
    "trace_workload", "physical_mix", "motivating_example", "estimate_throughput",
    "validate_ratio", "ratio_sweep", "hadar_p1_schedule", "small_instance",
    "MakespanBound", "makespan_lower_bound", "capacity_lower_bound", "min_rounds", "QUEUE_ORDERS", "queue_rank",
]
