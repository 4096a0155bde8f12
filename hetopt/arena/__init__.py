"""The arena: every scheduler of hetopt on one workload, in one execution model, against a certified bound.

This package is on the experiments floor (``models/arena.md``).  Here: the
:class:`~hetopt.arena.workload.Workload`, lower bounds valid for every policy
(:func:`makespan_lower_bound`, :func:`jct_lower_bound`), the exact optimum of the round model on small
workloads (:func:`solve_exact`) and the independent check of a round schedule (:func:`check_schedule`).
"""

from .bounds import Bound, completion_lower_bounds, jct_lower_bound, makespan_lower_bound
from .checker import check_schedule
from .exact import solve_exact
from .schedule import RoundSchedule
from .workload import Workload

__all__ = ["Workload", "Bound", "makespan_lower_bound", "jct_lower_bound", "completion_lower_bounds", "solve_exact",
           "RoundSchedule", "check_schedule"]
