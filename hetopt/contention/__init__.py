"""Communication-contention-aware scheduling of DDL jobs (Wang, Shi, Wang, Chu).

The all-reduce cost model (eq. (2), Table I) and its contention form (eq. (5)); the
two-task problem P1 with Theorems 1-2; the DAG job model of Section III in an
event-driven fluid simulator; placement by LWF-kappa (Algorithm 1) and the FF / LS / RAND
baselines; all-reduce admission by AdaDUAL (Algorithm 2) inside Ada-SRSF (Algorithm 3)
and the SRSF(n) baselines; the published simulator's transfer accounting as a diagnostic
option (``transfer_accounting="authors"``, an error: :mod:`hetopt.contention.accounting`);
the workload of Section V-A (:func:`generate_instance`); the policies in one registry
(:data:`POLICIES`: an admission rule and a placement each) run by :func:`simulate`; exact
engines of the contention-free problem for a fixed placement (:func:`solve_exact`: CP-SAT
interval model, default, certified at 8 jobs on 16 GPUs, and the time-indexed MILP); a proven
bound for the contention-aware problem (:func:`solve_contention_bound`); the independent
checker (:func:`check_schedule`); gap certificates (:func:`validate_ratio`, :func:`ratio_sweep`).

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020.
"""

from .accounting import ACCOUNTINGS, authors_slotted_transfer
from .admission import AdmissionRule, adadual, make_admission, srsf_rule
from .checker import check_schedule
from .comm import (
    ALLREDUCE_ALGORITHMS,
    PAPER_A,
    PAPER_B,
    SIM_BETA,
    SIM_ETA,
    allreduce_cost,
    allreduce_time,
    fluid_completion_times,
    transfer_rate,
)
from .exact import ENGINES, solve_exact
from .generators import PAPER_GPU_MIX, SIM_GPU_MEMORY_MB, TABLE_III, generate_instance, tiny_instance
from .instance import V100_MEMORY_MB, ContentionInstance
from .kind import KIND
from .model import build_milp, task_grid
from .placement import (
    PLACEMENTS,
    PlacementPolicy,
    first_fit,
    list_scheduling,
    lwf_kappa,
    make_placement,
    random_placement,
)
from .policies import POLICIES, Policy, get_policy
from .shared import solve_contention_bound
from .simulator import simulate
from .solution import ContentionSimulation, ContentionSolution, TaskRecord, empirical_cdf, jct_metrics
from .two_task import (
    TwoTaskCase,
    adadual_threshold,
    starts_immediately,
    two_task_cases,
    two_task_fluid,
    two_task_fluid_optimum,
    two_task_schedule,
)
from .validate import ratio_sweep, validate_ratio

__all__ = [
    "ALLREDUCE_ALGORITHMS",
    "PAPER_A",
    "PAPER_B",
    "SIM_BETA",
    "SIM_ETA",
    "allreduce_cost",
    "allreduce_time",
    "transfer_rate",
    "fluid_completion_times",
    "TwoTaskCase",
    "two_task_cases",
    "two_task_schedule",
    "two_task_fluid",
    "two_task_fluid_optimum",
    "adadual_threshold",
    "starts_immediately",
    "KIND",
    "V100_MEMORY_MB",
    "SIM_GPU_MEMORY_MB",
    "ACCOUNTINGS",
    "authors_slotted_transfer",
    "ContentionInstance",
    "TABLE_III",
    "PAPER_GPU_MIX",
    "generate_instance",
    "tiny_instance",
    "lwf_kappa",
    "first_fit",
    "list_scheduling",
    "random_placement",
    "make_placement",
    "PLACEMENTS",
    "AdmissionRule",
    "PlacementPolicy",
    "adadual",
    "srsf_rule",
    "make_admission",
    "Policy",
    "POLICIES",
    "get_policy",
    "simulate",
    "ContentionSolution",
    "ContentionSimulation",
    "TaskRecord",
    "jct_metrics",
    "empirical_cdf",
    "build_milp",
    "task_grid",
    "solve_exact",
    "ENGINES",
    "solve_contention_bound",
    "check_schedule",
    "validate_ratio",
    "ratio_sweep",
]
