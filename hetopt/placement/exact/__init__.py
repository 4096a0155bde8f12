"""Certified optima of P1: ``solve_exact`` (two solver routes) and ``exhaustive`` search.

``solve_exact(inst, solver="highs")`` (:func:`_solve_outer_approximation`) runs outer approximation
(Duran and Grossmann 1986) on the grouped model (:mod:`hetopt.placement.grouped`): the master MILP
replaces the convex computation latency |Pi_i| / V_i by tangent cuts, so its optimum is a lower
bound on P1; its incumbent, evaluated exactly, is an upper bound; a tangent cut at the master's
V_i is added and the master re-solved until the two bounds meet.  ``solver="scip"``
(:func:`_solve_scip`) solves the same grouped model with the nonlinear constraint
``thn_i Vn_i >= 1`` directly (global MINLP).

Both routes solve the model in the units of an achieved assignment (objective / U, V_i / V_i of
the incumbent, :meth:`~hetopt.placement.grouped.GroupedScale.around`), with every coefficient
clipped into the solvers' safe range in the direction that keeps the model a relaxation, so
their bounds are valid at any magnitude of the data (1e-9 next to 1e6 included), and the
objective is always the assignment's value recomputed on the true data.  OPTIMAL means that this
value and the proven bound meet within ``OPTIMAL_RTOL``.

A route whose solver fails (a master reported infeasible although it contains the incumbent,
which HiGHS 1.16's presolve did on ``generate_instance(n_jobs=2, n_workers=5, seed=8, gpus_per_node=2,
setting="gavel")``; a bound above an achieved value; an inconsistent point) is retried once with
presolve off, then falls back to a slower exact route: exhaustive search when S**K is small,
otherwise the other solver; ``info["fallback"]`` says why.  A route that cannot close the gap
(its clipped model too loose where the data span many orders of magnitude) falls back the same
way; without a route left, the result is FEASIBLE with the incumbent and the best valid bound.
"""

from .common import FALLBACK_ASSIGNMENTS, MAX_VARIABLES, SOLVERS, relaxed_lower_bound
from .search import EXHAUSTIVE_LIMIT, exhaustive
from .solve import solve_exact

__all__ = ["solve_exact", "exhaustive", "relaxed_lower_bound", "EXHAUSTIVE_LIMIT", "SOLVERS", "MAX_VARIABLES",
           "FALLBACK_ASSIGNMENTS"]
