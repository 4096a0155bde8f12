"""Hare (Chen, Li, Wu, Guo, HPDC 2022 [1]_): task scheduling of distributed ML jobs on heterogeneous GPUs.

Models: the exact problem Hare_Sched (4)-(8) as a GDP / big-M MILP and as a CP-SAT interval
model (the default exact engine), lower bounds at scale (a time-indexed LP and a job-level column
generation), all in :mod:`hetopt.hare.exact`; its relaxation Hare_Sched_RL with Queyranne's
inequality (9) (direct MIQCP for SCIP, exact linearization for HiGHS).  Algorithm 1 (list
scheduling by middle completion times), the alpha(2+alpha) bound of Theorem 4 and its
certification, the baselines of Section 7.1 (one policy registry, :data:`POLICIES`), a
trace-driven simulator and an independent schedule checker.  The experiments that reproduce the
paper live in :mod:`hetopt.hare.experiments.claims`; Gantt charts are :func:`hetopt.plot.gantt`.

References
----------
.. [1] F. Chen, P. Li, C. Wu, S. Guo, "Hare: Exploiting Inter-job and Intra-job Parallelism
   of Distributed Machine Learning on Heterogeneous GPUs", HPDC 2022,
   doi:10.1145/3502181.3531462.
"""

from ..errors import ScheduleViolation
from .algorithm1 import ORDERINGS, schedule
from .baselines import gavel_fifo, sched_allox_offline, sched_homo_offline, srtf_round
from .checker import check_schedule
from .exact import (
    JobColgenBound,
    TimeIndexedBound,
    brute_force,
    improve_schedule,
    job_colgen_bound,
    solve_exact,
    time_indexed_bound,
)
from .generators import JOB_TYPES, arrivals, cluster, generate_instance, generate_workload
from .instance import HareInstance, alpha, theorem4_bound
from .kind import KIND
from .listsched import GPU_RULES, list_schedule, semi_active
from .lp_ordering import LPOrdering, lp_ordering
from .model import build_hare_sched, build_relaxation
from .online import sched_allox, sched_homo, srtf
from .policies import POLICIES
from .ratio import RatioReport, ratio_report, theorem4_counterexample, theorem4_release_dates, validate_ratio
from .relaxation import HareRelaxation, solve_relaxation
from .simulator import HareReplay, replay, simulate
from .solution import HareSimulation, HareSolution, make_solution
from .validate import ratio_sweep, ratio_table

__all__ = [
    "KIND",
    "HareInstance", "HareSolution", "HareSimulation", "make_solution", "HareRelaxation", "LPOrdering", "RatioReport",
    "HareReplay",
    "ScheduleViolation", "check_schedule",
    "build_hare_sched", "build_relaxation", "solve_exact", "brute_force", "solve_relaxation", "lp_ordering",
    "TimeIndexedBound", "time_indexed_bound", "JobColgenBound", "job_colgen_bound", "improve_schedule",
    "schedule", "list_schedule", "semi_active", "ORDERINGS", "GPU_RULES",
    "alpha", "theorem4_bound", "theorem4_counterexample", "theorem4_release_dates", "validate_ratio", "ratio_report",
    "ratio_sweep", "ratio_table",
    "POLICIES", "simulate", "replay", "gavel_fifo", "srtf", "sched_homo", "sched_allox", "srtf_round",
    "sched_homo_offline", "sched_allox_offline",
    "generate_instance", "generate_workload", "arrivals", "cluster", "JOB_TYPES",
]
