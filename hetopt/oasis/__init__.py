"""OASiS: online job scheduling in distributed machine learning clusters (Bao et al., INFOCOM 2018).

* :class:`OasisInstance` (Section III), :func:`generate_instance` (Section V-A);
* :func:`build_offline` / :func:`solve_exact`: problem (1)-(13) as an exact MILP;
* :func:`build_primal` / :func:`build_dual`: (14)-(18) and its LP dual (19)-(20) over explicit schedules;
* the oracle of Section IV-C: :func:`best_schedule` (Alg. 2), :func:`algorithm2_literal`,
  :func:`best_schedule_ilp` (problem (27));
* :func:`online`: Alg. 1 with the price functions (22)-(26); :func:`competitive_bound` (Theorem 4);
* :func:`lp_bound`: the LP relaxation of (14) by column generation (an upper bound on OPT);
* baselines :func:`fifo`, :func:`drf`, :func:`rrh`, :func:`dorm` on the slotted :func:`simulate`;
* :func:`check_schedule`: an independent checker of (2)-(13); :func:`validate_ratio`;
* :mod:`~hetopt.oasis.duality`: :func:`lp_duals` (the duals of (14) relaxed), complementary
  slackness, :func:`dual_fitting_trace` (the increments of Alg. 1 in the proof of Theorem 4).

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, "Online Job Scheduling in Distributed Machine Learning
Clusters", IEEE INFOCOM 2018, pp. 495-503.
"""

from .baselines import dorm, drf, fifo, rrh
from .colgen import LPBound, compact_lp_bound, lp_bound
from .duality import DualFitTrace, LPDuals, complementary_slackness, dual_fitting_trace, lp_duals
from .figures import fig3_data, fig4_data
from .generator import fig5_instance, fixed_counts, generate_instance
from .instance import OasisInstance
from .kind import KIND
from .model import build_dual, build_offline, build_oracle, build_primal
from .offline import solve_exact
from .online import online
from .oracle import OracleResult, algorithm2_literal, best_schedule, best_schedule_ilp, schedules_by_end
from .prices import (
    PriceBounds,
    Prices,
    Usage,
    alpha,
    competitive_bound,
    estimated_bounds,
    price,
    price_bounds,
    prices_from_usage,
)
from .schedule import JobSchedule, OasisSolution, check_schedule, make_solution
from .simulator import Cluster, Policy, place_round_robin, ps_needed, simulate
from .utility import SigmoidUtility, TabulatedUtility, Utility
from .validate import fig5_setting, ratio_sweep, validate_ratio

__all__ = [
    "KIND", "OasisInstance", "SigmoidUtility", "TabulatedUtility", "Utility", "generate_instance", "fig5_instance",
    "fixed_counts", "build_offline", "build_primal", "build_dual", "build_oracle", "solve_exact", "online",
    "OracleResult", "best_schedule", "algorithm2_literal", "best_schedule_ilp", "schedules_by_end", "PriceBounds",
    "Prices", "Usage", "price_bounds", "estimated_bounds", "price", "prices_from_usage", "alpha", "competitive_bound",
    "LPBound", "lp_bound", "compact_lp_bound", "JobSchedule", "OasisSolution", "check_schedule",
    "make_solution", "simulate", "Policy", "Cluster", "ps_needed", "place_round_robin", "fifo", "drf", "rrh", "dorm", "ratio_sweep", "validate_ratio", "fig5_setting", "fig3_data", "fig4_data",
    "LPDuals", "lp_duals", "complementary_slackness", "DualFitTrace", "dual_fitting_trace",
]
