"""Multi-job placement on heterogeneous clusters (Liu et al., IEEE TPDS 2024).

Problem P1 (eq. (8)): choose the workers of every job (sigma) and its per-worker samples (pi) to
minimize the average job completion time, computation (straggler of a proportional split) plus
Ring-AllReduce communication.  This subpackage has the instance, an independent evaluator, the
models P1-P3 (Pyomo, CVXPY), certified optima (:func:`solve_exact`, :func:`exhaustive`), the
paper's algorithms (Algorithm 1 :func:`categories`, Algorithm 2 :func:`matching_market` and
:func:`has`, Algorithm 3 :func:`jps`), the baselines of Section VI, a reset-event simulator,
generators, validators (:func:`validate_ratio`, :func:`ratio_sweep`) and :data:`POLICIES`, the one
policy registry of :func:`simulate` and of the kind's ``simulate_*`` methods.

References
----------
K. Liu, J. Wang, Z. Huang, J. Pan, "Sampling-Based Multi-Job Placement for Heterogeneous Deep
Learning Clusters", IEEE Trans. Parallel Distrib. Syst. 35(6), 2024, doi:10.1109/TPDS.2024.3390109.

Examples
--------
>>> from hetopt.placement import PlacementInstance, solve_exact, has
>>> inst = PlacementInstance(throughput=[[275, 275, 644, 644], [884, 884, 1754, 1754]],
...                          dataset_size=[100_000, 50_000], epochs=[200, 200])
>>> round(solve_exact(inst).average_jct, 1)
10592.0
>>> round(has(inst).average_jct, 1)
11225.8
"""

from .baselines import build_las, las, optimus, optimus_lb
from .categories import categories, category_at, category_index, check_category, iter_categories, n_categories
from .checker import check_schedule
from .evaluate import (
                       PlacementSimulation,
                       PlacementSolution,
                       average_jct,
                       check_assignment,
                       equal_share_jct,
                       fairness,
                       heterogeneity_degree,
                       job_jct,
                       job_metrics,
                       make_solution,
                       worker_samples,
)
from .exact import exhaustive, solve_exact
from .gavel_baseline import GavelPolicy, gavel_simulation
from .generators import (
                       TABLE_III,
                       generate_instance,
                       job_throughputs,
                       paper_throughputs,
                       perturb_throughput,
                       scale_heterogeneity,
)
from .has import has
from .instance import PlacementInstance
from .kind import KIND
from .matching_market import (
                       MarketResult,
                       constricted_set,
                       matching_market,
                       p3_assignment,
                       p3_optimum,
                       preferred_graph,
                       sum_top,
)
from .model import build_p1, build_p1_grouped, build_p2, build_p3, build_p3_cvxpy
from .policies import POLICIES
from .sampling import job_priority, jps
from .simulator import simulate
from .validate import (
                       CLAIMED_RATIO,
                       evaluate_methods,
                       gap_report,
                       instance_key,
                       ratio_sweep,
                       reset_report,
                       validate_ratio,
)

__all__ = [
    "KIND",
    "check_schedule",
    "PlacementInstance", "PlacementSolution", "average_jct", "job_jct", "job_metrics", "worker_samples", "fairness",
    "equal_share_jct", "heterogeneity_degree", "check_assignment", "make_solution",
    "build_p1", "build_p1_grouped", "build_p2", "build_p3", "build_p3_cvxpy",
    "solve_exact", "exhaustive",
    "categories", "check_category", "iter_categories", "n_categories", "category_at", "category_index",
    "preferred_graph", "constricted_set", "sum_top", "matching_market", "MarketResult", "p3_assignment", "p3_optimum",
    "has", "jps", "job_priority",
    "optimus", "optimus_lb", "las", "build_las",
    "simulate", "PlacementSimulation", "POLICIES", "GavelPolicy", "gavel_simulation",
    "generate_instance", "job_throughputs", "paper_throughputs", "scale_heterogeneity", "perturb_throughput", "TABLE_III",
    "validate_ratio", "ratio_sweep", "CLAIMED_RATIO",
    "gap_report", "evaluate_methods", "reset_report", "instance_key",
]
