"""OASiS: online job scheduling in distributed machine learning clusters (Bao et al., INFOCOM 2018).

* :class:`OasisInstance` (Section III), :func:`generate_instance` (Section V-A);
* :func:`build_offline` / :func:`solve_exact`: problem (1)-(13) as an exact MILP;
* :func:`build_primal` / :func:`build_dual`: (14)-(18) and its LP dual (19)-(20) over explicit schedules;
* the oracle of Section IV-C: :func:`best_schedule` (Alg. 2), :func:`algorithm2_literal`,
  :func:`best_schedule_ilp` (problem (27));
* the slotted simulator :func:`simulate` and its policy registry :data:`POLICIES`: OASiS
  (Alg. 1 with the price functions (22)-(26), :class:`OasisPolicy`) and the baselines FIFO,
  DRF, RRH, Dorm (``simulate(inst, "oasis")``, ``simulate(inst, "drf")``, ...);
  :func:`competitive_bound` (Theorem 4);
* :func:`lp_bound`: the LP relaxation of (14) by column generation (an upper bound on OPT);
* :func:`check_schedule`: an independent checker of (2)-(13); :func:`validate_ratio`, :func:`ratio_sweep`;
* :mod:`~hetopt.oasis.duality`: :func:`lp_duals` (the duals of (14) relaxed), complementary
  slackness, :func:`dual_fitting_trace` (the increments of Alg. 1 in the proof of Theorem 4).

The experiments that reproduce the paper's figures and claims live in :mod:`hetopt.oasis.experiments.claims`.

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, "Online Job Scheduling in Distributed Machine Learning
Clusters", IEEE INFOCOM 2018, pp. 495-503.
"""

from .baselines import DormPolicy, DRFPolicy, FIFOPolicy, RRHPolicy
from .bound import LPBound
from .checker import check_schedule
from .cluster import Cluster, Policy, place_round_robin, ps_needed
from .colgen import compact_lp_bound, lp_bound
from .duality import DualFitTrace, LPDuals, complementary_slackness, dual_fitting_trace, lp_duals
from .generator import fig5_instance, fixed_counts, generate_instance
from .instance import OasisInstance
from .kind import KIND
from .model import build_dual, build_offline, build_oracle, build_primal
from .offline import solve_exact
from .online import OasisPolicy, arrival_order
from .oracle import OracleResult, algorithm2_literal, best_schedule, best_schedule_ilp, schedules_by_end
from .policies import POLICIES
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
from .schedule import JobSchedule, OasisSimulation, OasisSolution, make_solution
from .simulator import simulate
from .utility import SigmoidUtility, TabulatedUtility, Utility
from .validate import fig5_setting, ratio_sweep, validate_ratio

__all__ = [
    "KIND", "OasisInstance", "SigmoidUtility", "TabulatedUtility", "Utility", "generate_instance", "fig5_instance",
    "fixed_counts", "build_offline", "build_primal", "build_dual", "build_oracle", "solve_exact",
    "OracleResult", "best_schedule", "algorithm2_literal", "best_schedule_ilp", "schedules_by_end", "PriceBounds",
    "Prices", "Usage", "price_bounds", "estimated_bounds", "price", "prices_from_usage", "alpha", "competitive_bound",
    "LPBound", "lp_bound", "compact_lp_bound", "JobSchedule", "OasisSolution", "OasisSimulation",
    "check_schedule", "make_solution",
    "simulate", "POLICIES", "Policy", "Cluster", "ps_needed", "place_round_robin", "OasisPolicy", "arrival_order",
    "FIFOPolicy", "DRFPolicy", "RRHPolicy", "DormPolicy", "ratio_sweep", "validate_ratio", "fig5_setting",
    "LPDuals", "lp_duals", "complementary_slackness", "DualFitTrace", "dual_fitting_trace",
]
