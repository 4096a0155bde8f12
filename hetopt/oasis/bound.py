"""The result of the column-generation bound (:func:`~hetopt.oasis.colgen.lp_bound`) and its pricing tolerance.

Shared by the two engines of the bound (the Pyomo master of :mod:`~hetopt.oasis.colgen` and
the in-place HiGHS master of :mod:`~hetopt.oasis.colgen_arrays`), which import it from here
so that neither imports the other's module.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..result import Solution
from .schedule import JobSchedule

__all__ = ["LPBound", "PRICING_TOL"]

#: A column enters when its reduced payoff exceeds mu_i by more than this.
PRICING_TOL = 1e-7


@dataclass(frozen=True, kw_only=True)
class LPBound(Solution):
    """Result of :func:`~hetopt.oasis.colgen.lp_bound`: ``bound`` is a certified upper bound on the offline optimum.

    ``objective`` is the restricted master's LP value (equal to ``bound`` up to the pricing
    tolerance when column generation converged), ``columns`` the generated schedules.

    Attributes
    ----------
    lp_value : float
        The last restricted master's LP value.
    iterations : int
        Master solves.
    converged : bool
        True when no column prices out at the master's duals (``bound`` = LP value up to the tolerance).
    columns : dict int -> list of JobSchedule
        The generated schedules of each job.
    colgen_bound, compact_bound : float
        The column-generation (Lagrangian) bound and the compact LP relaxation's value (inf: not computed).
    history : list of tuple
        Per round: (round, master LP value, Lagrangian bound at the priced point, smoothing weight
        (-1: a subgradient point that improved the bound), columns added).
    """

    lp_value: float = 0.0
    iterations: int = 0
    converged: bool = False
    columns: Mapping[int, list[JobSchedule]] = field(default_factory=dict)
    colgen_bound: float = float("inf")
    compact_bound: float = float("inf")
    history: list[tuple[int, float, float, float, int]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """The common fields, the rounds, convergence and the two bounds."""
        out = super().summary()
        out.update(lp_value=self.lp_value, iterations=self.iterations, converged=self.converged,
                   colgen_bound=_number(self.colgen_bound), compact_bound=_number(self.compact_bound),
                   columns=sum(len(c) for c in self.columns.values()))
        return out


def _number(x: float) -> float | str:
    """``x``, or its string ("inf") when it is not finite (JSON has no infinity)."""
    return x if math.isfinite(x) else str(x)
