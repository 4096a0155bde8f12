"""The arena: every scheduler of the package on one workload, in one execution model, against bounds.

A :class:`Workload` (a cluster and a job stream, :mod:`hetopt.arena.sources` reads Gavel's traces,
the Philly log and Gavel's generator) runs under every registered :class:`Policy`
(:data:`POLICIES`: Gavel's 24, Tiresias, LAS, SRTF, YARN-CS, and yours through
:func:`register_policy`) in Gavel's round mechanism with options (:class:`Options`,
:func:`execute`); :func:`run` tabulates the metrics of each run beside certified lower bounds
(:func:`jct_lower_bound`, :func:`makespan_lower_bound`) and :func:`solve_exact` proves the optimum of small workloads.  ``models/arena.md`` is the card.
"""

from .bounds import Bound, completion_lower_bounds, jct_lower_bound, makespan_lower_bound
from .checker import check_schedule
from .engine import Run, execute
from .exact import solve_exact
from .kind import KIND
from .metrics import Metrics, metrics_of
from .policies import POLICIES, PolicyEntry, make_policy, register_policy, unregister_policy
from .protocol import Options, Policy, RoundState
from .runner import ArenaTable, load_workload, run
from .schedule import RoundSchedule
from .simulate import ArenaSimulation, simulate
from .sources import at_load, bundled_traces, cluster, from_gavel, from_philly, gavel_trace, generate_instance, to_gavel
from .validate import ratio_sweep, validate_ratio
from .workload import Workload

__all__ = ["Workload", "Options", "Policy", "RoundState", "Run", "execute", "POLICIES", "PolicyEntry",
           "register_policy", "unregister_policy", "make_policy", "cluster", "from_gavel", "to_gavel",
           "gavel_trace", "bundled_traces", "from_philly", "generate_instance", "at_load", "run", "ArenaTable",
           "load_workload", "simulate", "ArenaSimulation", "check_schedule", "Metrics", "metrics_of", "KIND",
           "solve_exact", "Bound", "makespan_lower_bound", "jct_lower_bound", "completion_lower_bounds",
           "RoundSchedule", "validate_ratio", "ratio_sweep"]
