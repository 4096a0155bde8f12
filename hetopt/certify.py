"""The one rule that grants OPTIMAL: :func:`certify`, with the status vocabulary and the relative gap it reads.

Every exact route decides its status here: the solver layer (:mod:`hetopt.solvers`) on a solver's
incumbent and dual bound, each paper's engines again on the objective recomputed from the true
data, and :class:`~hetopt.result.Solution` on every OPTIMAL it is given.  OPTIMAL means a finite
objective and a proven bound that meet within ``OPTIMAL_RTOL`` relative to the larger of the two,
at every magnitude; a bound on the wrong side of the objective by more than that is a defect,
raised.
"""

from __future__ import annotations

import enum
import math

from .errors import ArgumentError, SolverError

__all__ = ["Status", "certify", "relative_gap", "same_value", "below", "OPTIMAL_RTOL", "GAP_FLOOR", "CHECK_RTOL"]

#: A solve is reported OPTIMAL only when its objective and bound meet within this, relative (:func:`certify`).
OPTIMAL_RTOL = 1e-6
#: Slack of :func:`certify`'s test, relative to its tolerance: a gap of exactly ``OPTIMAL_RTOL`` worked out in
#: floating point (a bound shaved by ``OPTIMAL_RTOL`` for safety, as hetopt.hare's LP bounds are) may round a
#: few ulps above it.
_ROUNDING = 1e-9


class Status(enum.StrEnum):
    """Outcome of a solve or of an algorithm run.

    A status is also its string: ``Status.OPTIMAL == "optimal"`` and ``str(Status.OPTIMAL)`` is
    ``"optimal"``, as in the JSON output.
    """

    OPTIMAL = "optimal"
    """Proven optimal (gap <= ``OPTIMAL_RTOL``), by a solver or an exhaustive search."""
    FEASIBLE = "feasible"
    """A feasible solution without an optimality proof (heuristics, solves stopped at a gap)."""
    TIME_LIMIT = "time_limit"
    """Stopped by the time limit; ``objective`` is the incumbent if one exists."""
    INFEASIBLE = "infeasible"
    UNBOUNDED = "unbounded"
    ERROR = "error"

    @property
    def has_solution(self) -> bool:
        """True when a usable incumbent exists (OPTIMAL, FEASIBLE, or TIME_LIMIT with one)."""
        return self in (Status.OPTIMAL, Status.FEASIBLE, Status.TIME_LIMIT)


#: Relative tolerance of an independent checker's comparison of a reported objective (:func:`same_value`).
CHECK_RTOL = 1e-9


def same_value(reported: float, recomputed: float, terms=None, *, rtol: float = CHECK_RTOL) -> bool:
    """A reported objective equals the recomputed one up to ``rtol`` relative, at every magnitude.

    The scale is the larger of ``|recomputed|`` and ``sum |terms|`` (the summands it was added from, whose
    rounding a cancelling sum keeps); there is no absolute floor, so a utility of 1e-12 reported as 1e-10 is
    a mismatch (an absolute 1e-9 accepted it).  NaN never matches.
    """
    scale = abs(float(recomputed))
    if terms is not None:
        scale = max(scale, float(sum(abs(float(t)) for t in terms)))
    return bool(abs(float(reported) - float(recomputed)) <= rtol * scale)


#: Smallest denominator of :func:`relative_gap`: a gap stays relative at every magnitude (data of
#: 1e-10 next to 1 included); only an exact 0 = 0 has gap 0.
GAP_FLOOR = 1e-300


def below(value: float, other: float) -> bool:
    """``value`` lies below ``other`` by more than ``OPTIMAL_RTOL`` of ``|other|``: two certified results disagree.

    (Two proven optima apart, or one engine's bound above another's incumbent.)  Purely relative.
    """
    return value < other - OPTIMAL_RTOL * abs(other)


def relative_gap(objective: float | None, bound: float | None) -> float | None:
    """Relative gap ``|objective - bound| / |bound|`` (0 when both are 0); ``None`` if either is missing.

    Purely relative at every magnitude: an objective of 9e-7 against a bound of 1e-6 is a gap of
    0.1, not a rounding error.
    """
    if objective is None or bound is None:
        return None
    return _gap(objective, bound)


def _gap(objective: float, bound: float) -> float:
    if not (math.isfinite(objective) and math.isfinite(bound)):
        return math.inf
    diff = abs(objective - bound)
    return 0.0 if diff == 0 else diff / max(abs(bound), GAP_FLOOR)


def _meet(objective: float, bound: float) -> bool:
    """``|objective - bound| <= OPTIMAL_RTOL max(|objective|, |bound|)`` (with the ``_ROUNDING`` slack); both finite."""
    return abs(objective - bound) <= OPTIMAL_RTOL * (1 + _ROUNDING) * max(abs(objective), abs(bound))


def certify(objective: float | None, bound: float | None, *, stopped: bool, sense: str) -> Status:
    """The status a run has earned: OPTIMAL only with a proof, TIME_LIMIT when a limit stopped it, else FEASIBLE.

    Parameters
    ----------
    objective : float or None
        The incumbent's objective (recomputed on the true data when a route re-judges a solver's
        result); None when the run has no incumbent.
    bound : float or None
        A proven bound on the optimum in the objective's direction (a lower bound for ``"min"``,
        an upper bound for ``"max"``); None (or NaN) when none was proven.
    stopped : bool
        The run was stopped by a limit (time, iterations, nodes, ...) before it finished.
    sense : {"min", "max"}

    Returns
    -------
    Status
        OPTIMAL when ``objective`` and ``bound`` are finite and meet:
        ``|objective - bound| <= OPTIMAL_RTOL max(|objective|, |bound|)`` (relative at every
        magnitude, with a slack of 1e-9 of it for the last digits; implied by
        ``relative_gap(objective, bound) <= OPTIMAL_RTOL``), whether or not the run was stopped:
        a bound that meets the incumbent is a proof.  Otherwise TIME_LIMIT when ``stopped``, and
        FEASIBLE when not (a run that finished without a proof, e.g. at a looser requested gap).

    Raises
    ------
    SolverError
        The bound lies on the wrong side of the objective (above it for ``"min"``, below it for
        ``"max"``) by more than ``OPTIMAL_RTOL``: it bounds nothing, and the route that produced it
        is at fault.
    ArgumentError
        ``sense`` is not "min" or "max", ``stopped`` is not a bool, or a run that was not stopped
        has no objective (only a stopped run may end without an incumbent).
    """
    if not isinstance(sense, str) or sense not in ("min", "max"):
        raise ArgumentError(f"sense is {sense!r}; expected 'min' or 'max'")
    if not isinstance(stopped, bool):
        raise ArgumentError(f"stopped is {stopped!r}; expected True or False")
    if objective is None and not stopped:
        raise ArgumentError("objective is None and stopped is False; expected an incumbent's objective (only a run "
                            "stopped by a limit may end without one)")
    otherwise = Status.TIME_LIMIT if stopped else Status.FEASIBLE
    if objective is None or bound is None or math.isnan(objective) or math.isnan(bound):
        return otherwise
    finite = math.isfinite(objective) and math.isfinite(bound)
    if finite and _meet(objective, bound):
        return Status.OPTIMAL
    beyond = bound - objective if sense == "min" else objective - bound
    if beyond > 0:  # and not within the tolerance: not a rounding of the last digits
        side = "above" if sense == "min" else "below"
        rel = beyond / max(abs(objective), abs(bound)) if finite else math.inf
        raise SolverError(f"the bound {bound!r} is {side} the objective {objective!r} ({sense}) by a relative "
                          f"{rel:.3g}, more than OPTIMAL_RTOL = {OPTIMAL_RTOL:g}: it is not a valid bound")
    return otherwise
