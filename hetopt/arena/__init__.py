"""The arena: every scheduler of the package on one workload, in one execution model, against bounds.

A :class:`Workload` (a cluster and a job stream, :mod:`hetopt.arena.sources` reads Gavel's traces,
the Philly log and Gavel's generator) runs under every registered :class:`Policy`
(:data:`POLICIES`: Gavel's 24, Tiresias, LAS, SRTF, YARN-CS, and yours through
:func:`register_policy`) in Gavel's round mechanism with options (:class:`Options`,
:func:`execute`); :func:`run` tabulates the metrics of each run.  ``models/arena.md`` is the card.
"""

from .checker import check_schedule
from .engine import Run, execute
from .kind import KIND, solve_exact
from .metrics import Metrics, metrics_of
from .policies import POLICIES, PolicyEntry, make_policy, register_policy, unregister_policy
from .protocol import Gangs, Options, Policy, RoundState
from .runner import ArenaTable, load_workload, run
from .simulate import ArenaSimulation, simulate
from .sources import at_load, bundled_traces, cluster, from_gavel, from_philly, gavel_trace, generate_instance, to_gavel
from .workload import Workload

__all__ = ["Workload", "Options", "Policy", "RoundState", "Gangs", "Run", "execute", "POLICIES", "PolicyEntry",
           "register_policy", "unregister_policy", "make_policy", "cluster", "from_gavel", "to_gavel",
           "gavel_trace", "bundled_traces", "from_philly", "generate_instance", "at_load", "run", "ArenaTable",
           "load_workload", "simulate", "ArenaSimulation", "check_schedule", "Metrics", "metrics_of", "KIND",
           "solve_exact"]
