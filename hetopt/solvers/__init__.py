"""The one place that runs a solver.

``solve_model`` runs a Pyomo model with HiGHS or SCIP, ``solve_problem`` a CVXPY problem,
``solve_milp`` a MILP given as arrays directly through ``highspy``, ``solve_cpsat`` an OR-Tools
CP-SAT model; ``new_highs`` and ``solve_lp_duals`` are the doors to a raw HiGHS model.  All four
solves return a :class:`~hetopt.result.Solution` whose status is :func:`~hetopt.certify.certify`'s
(OPTIMAL only when incumbent and dual bound meet within ``OPTIMAL_RTOL``) and fill ``objective``,
``bound``, ``gap``, ``wall_time`` even for a stopped run.  Infeasible, unbounded and failed solves
raise (:class:`~hetopt.errors.InfeasibleError`, :class:`~hetopt.errors.UnboundedError`,
:class:`~hetopt.errors.SolverError`) unless ``raise_on_failure=False``.
"""

from .common import DEFAULT_MIP_GAP, PYOMO_SOLVERS
from .cpsat import solve_cpsat
from .cvxpy_problems import solve_problem
from .highs import LPDualsOutcome, new_highs, solve_lp_duals
from .milp import solve_milp
from .pyomo_models import solve_model

__all__ = ["solve_model", "new_highs", "solve_lp_duals", "LPDualsOutcome", "solve_problem", "solve_milp", "solve_cpsat",
           "PYOMO_SOLVERS", "DEFAULT_MIP_GAP"]
