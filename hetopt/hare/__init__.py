"""Hare (Chen, Li, Wu, Guo, HPDC 2022 [1]_): task scheduling of distributed ML jobs on heterogeneous GPUs.

Models: the exact problem Hare_Sched (4)-(8) as a GDP / big-M MILP and as a CP-SAT interval
model (the default exact engine, :mod:`hetopt.hare.cpsat`), lower bounds at scale (a
time-indexed LP and a job-level column generation), its relaxation
Hare_Sched_RL with Queyranne's inequality (9) (direct MIQCP for SCIP, exact
linearization for HiGHS).  Algorithm 1 (list scheduling by middle completion times), the
alpha(2+alpha) bound of Theorem 4 and its certification, the baselines of Section 7.1, a
trace-driven simulator and an independent schedule checker.

References
----------
.. [1] F. Chen, P. Li, C. Wu, S. Guo, "Hare: Exploiting Inter-job and Intra-job Parallelism
   of Distributed Machine Learning on Heterogeneous GPUs", HPDC 2022,
   doi:10.1145/3502181.3531462.
"""

from .algorithm1 import GPU_RULES, ORDERINGS, list_schedule, schedule
from .baselines import OFFLINE_BASELINES, gavel_fifo, sched_allox_offline, sched_homo_offline, srtf_round
from .checker import ScheduleViolation, check_schedule
from .exact import brute_force, solve_exact
from .fig1 import fig1_instance
from .generators import random_instance
from .instance import HareInstance
from .jobcolgen import JobColgenBound, job_colgen_bound
from .kind import KIND
from .lp_ordering import LPOrdering, lp_ordering
from .model import build_hare_sched, build_relaxation
from .online import ALL_BASELINES, BASELINES, sched_allox, sched_homo, srtf
from .plot import gantt
from .ratio import (
    RatioReport,
    alpha,
    ratio_report,
    theorem4_bound,
    theorem4_counterexample,
    theorem4_release_dates,
    validate_ratio,
)
from .relaxation import HareRelaxation, solve_relaxation
from .simulator import JOB_TYPES, SimulationResult, cluster, generate_workload, simulate
from .solution import HareSolution, make_solution
from .timeindexed import TimeIndexedBound, time_indexed_bound
from .validate import ratio_sweep, ratio_table

__all__ = [
    "KIND",
    "HareInstance", "HareSolution", "make_solution", "HareRelaxation", "LPOrdering", "RatioReport", "SimulationResult",
    "ScheduleViolation", "check_schedule",
    "build_hare_sched", "build_relaxation", "solve_exact", "brute_force", "solve_relaxation", "lp_ordering",
    "TimeIndexedBound", "time_indexed_bound", "JobColgenBound", "job_colgen_bound",
    "schedule", "list_schedule", "ORDERINGS", "GPU_RULES",
    "alpha", "theorem4_bound", "theorem4_counterexample", "theorem4_release_dates", "validate_ratio", "ratio_report", "ratio_sweep", "ratio_table",
    "gavel_fifo", "srtf", "sched_homo", "sched_allox", "BASELINES", "srtf_round", "sched_homo_offline",
    "sched_allox_offline", "OFFLINE_BASELINES", "ALL_BASELINES",
    "generate_workload", "simulate", "cluster", "JOB_TYPES", "random_instance", "fig1_instance", "gantt",
]
