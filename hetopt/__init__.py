"""hetopt: optimization models of heterogeneous GPU-cluster scheduling.

The scheduling problems of five papers on heterogeneous deep-learning clusters, written
as declarative Pyomo / CVXPY models, each beside the paper's combinatorial algorithm, with
validators that certify optimality gaps and approximation / competitive-ratio bounds.

Subpackages: :mod:`hetopt.placement` (Liu et al. 2024).
"""

from .errors import HetoptError, InfeasibleError, InstanceError, SizeLimitError, SolverError, UnboundedError
from .result import Certificate, Solution, Status
from .solvers import solve_model, solve_problem

__version__ = "0.1.0"

__all__ = [
    "HetoptError",
    "InstanceError",
    "InfeasibleError",
    "UnboundedError",
    "SolverError",
    "SizeLimitError",
    "Status",
    "Solution",
    "Certificate",
    "solve_model",
    "solve_problem",
    "__version__",
]
