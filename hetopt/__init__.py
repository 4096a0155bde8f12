"""hetopt: optimization models of heterogeneous GPU-cluster scheduling.

The scheduling problems of five papers on heterogeneous deep-learning clusters, written
as declarative Pyomo / CVXPY models, each beside the paper's combinatorial algorithm, with
validators that certify optimality gaps and approximation / competitive-ratio bounds.

Subpackages: :mod:`hetopt.placement` (Liu et al. 2024), :mod:`hetopt.hare` (Chen et al.,
HPDC 2022), :mod:`hetopt.oasis` (Bao et al., INFOCOM 2018), :mod:`hetopt.contention` (Wang et
al.), :mod:`hetopt.hadar` (Sultana et al.) and :mod:`hetopt.gavel` (Narayanan et al., OSDI 2020,
the baseline several papers use).
"""

from importlib.metadata import PackageNotFoundError, version

from . import registry
from .api import load_instance, methods, solve
from .certify import Status
from .compare import compare
from .contract import Kind, Method
from .errors import (
    ArgumentError,
    HetoptError,
    InfeasibleError,
    InstanceError,
    ScheduleViolation,
    SizeLimitError,
    SolverError,
    UnboundedError,
)
from .registry import register
from .result import Certificate, CheckReport, Solution
from .solvers import solve_milp, solve_model, solve_problem

try:
    __version__ = version("hetopt")
except PackageNotFoundError:  # pragma: no cover - a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "load_instance",
    "methods",
    "solve",
    "compare",
    "registry",
    "register",
    "Kind",
    "Method",
    "HetoptError",
    "ArgumentError",
    "ScheduleViolation",
    "CheckReport",
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
    "solve_milp",
    "__version__",
]
