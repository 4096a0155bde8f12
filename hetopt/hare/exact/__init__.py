"""The exact engines of Hare_Sched (4)-(8), their heuristic starts and their lower bounds.

Imports go one way, from the bottom up: :mod:`~hetopt.hare.exact.scaling` (integer scaling, time
grids), :mod:`~hetopt.hare.exact.normalize` (units of the floating-point models) and
:mod:`~hetopt.hare.exact.start` (the best cheap schedule every engine starts from); then the
engines and bounds: :mod:`~hetopt.hare.exact.bruteforce`, :mod:`~hetopt.hare.exact.localsearch`
(incumbents, never a bound), :mod:`~hetopt.hare.exact.timeindexed` (time-indexed LP bound),
:mod:`~hetopt.hare.exact.jobcolgen` (job-level column generation, priced by
:mod:`~hetopt.hare.exact.jobpricing`), :mod:`~hetopt.hare.exact.cpsat` (which uses the last three)
and :mod:`~hetopt.hare.exact.milp`; last the front :func:`~hetopt.hare.exact.solve.solve_exact`.
They use only the layers below them in :mod:`hetopt.hare`, never Algorithm 1 or its relaxation.
"""

from .bruteforce import BRUTE_FORCE_LIMIT, brute_force
from .cpsat import build_cpsat, coarse_bound, solve_cpsat_exact
from .jobcolgen import JobColgenBound, completion_limits, job_colgen_bound
from .localsearch import improve_schedule
from .milp import model_decision, solve_milp_exact
from .scaling import Scaling, scaled_instance, scaling
from .solve import DEFAULT_ENGINE, ENGINES, solve_exact
from .start import best_known_objective, best_known_schedule
from .timeindexed import TimeIndexedBound, time_indexed_bound

__all__ = ["solve_exact", "ENGINES", "DEFAULT_ENGINE", "brute_force", "BRUTE_FORCE_LIMIT", "solve_cpsat_exact",
           "build_cpsat", "coarse_bound", "solve_milp_exact", "model_decision", "JobColgenBound",
           "job_colgen_bound", "completion_limits", "TimeIndexedBound", "time_indexed_bound", "improve_schedule",
           "Scaling", "scaling", "scaled_instance", "best_known_schedule", "best_known_objective"]
