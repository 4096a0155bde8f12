"""Coefficient ranges of the package's LP/MILP models: the scaling audit.

A model whose nonzero coefficients span many orders of magnitude, or whose optimal
variables are far below the solver's absolute tolerances (~1e-7 for HiGHS), can be
reported optimal at a point that is not (issue 10: min-total-duration returned a makespan
1.83x the optimum with HiGHS saying optimal).  :func:`coefficient_range` measures a built
model (Pyomo or CVXPY) so that tests can bound it.

Examples
--------
>>> import pyomo.environ as pyo
>>> m = pyo.ConcreteModel()
>>> m.x = pyo.Var(bounds=(0, 1)); m.y = pyo.Var(bounds=(0, 1))
>>> m.c = pyo.Constraint(expr=1e6 * m.x + 2 * m.y <= 3)
>>> m.o = pyo.Objective(expr=m.x + m.y)
>>> r = coefficient_range(m)
>>> r.matrix, r.ratio
((2.0, 1000000.0), 500000.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import a_type

__all__ = ["CoefficientRange", "coefficient_range", "RANGE_LIMIT"]

#: The largest ratio of nonzero constraint coefficients the audit accepts (issue 10: "~1e6").
RANGE_LIMIT = 1e6


@dataclass(frozen=True)
class CoefficientRange:
    """Smallest and largest absolute nonzero coefficient of a model.

    Attributes
    ----------
    matrix : tuple of float
        ``(min, max)`` over the constraint matrix.
    objective : tuple of float
        ``(min, max)`` over the objective's linear coefficients.
    rhs : tuple of float
        ``(min, max)`` over nonzero constraint bounds (right-hand sides).
    """

    matrix: tuple[float, float]
    objective: tuple[float, float]
    rhs: tuple[float, float]

    @property
    def ratio(self) -> float:
        """``max / min`` over the constraint matrix."""
        lo, hi = self.matrix
        return hi / lo if lo > 0 else float("inf")

    def to_dict(self) -> dict[str, Any]:
        """The three ``[min, max]`` ranges as lists and the matrix :attr:`ratio`."""
        return {"matrix": list(self.matrix), "objective": list(self.objective), "rhs": list(self.rhs),
                "ratio": self.ratio}


def _span(values) -> tuple[float, float]:
    a = np.abs(np.asarray([v for v in values if v is not None], dtype=float))
    a = a[a > 0]
    return (float(a.min()), float(a.max())) if a.size else (0.0, 0.0)


def _pyomo(model) -> CoefficientRange:
    import pyomo.environ as pyo
    from pyomo.repn.standard_repn import generate_standard_repn

    mat: list[float] = []
    rhs: list[float] = []
    obj: list[float] = []
    for con in model.component_data_objects(pyo.Constraint, active=True):
        repn = generate_standard_repn(con.body, compute_values=True, quadratic=True)
        mat.extend(float(v) for v in repn.linear_coefs)
        mat.extend(float(v) for v in repn.quadratic_coefs)
        const = float(repn.constant or 0.0)
        for b in (con.lower, con.upper):
            if b is not None:
                rhs.append(float(pyo.value(b)) - const)
    for o in model.component_data_objects(pyo.Objective, active=True):
        repn = generate_standard_repn(o.expr, compute_values=True, quadratic=True)
        obj.extend(float(v) for v in repn.linear_coefs)
        obj.extend(float(v) for v in repn.quadratic_coefs)
    return CoefficientRange(_span(mat), _span(obj), _span(rhs))


def _cvxpy(problem) -> CoefficientRange:
    import cvxpy as cp
    import scipy.sparse as sp

    data, _, _ = problem.get_problem_data(cp.CLARABEL if hasattr(cp, "CLARABEL") else cp.SCS)
    A = sp.csr_matrix(data["A"])
    return CoefficientRange(_span(A.data), _span(np.asarray(data["c"]).ravel()), _span(np.asarray(data["b"]).ravel()))


def coefficient_range(model) -> CoefficientRange:
    """Coefficient ranges of a Pyomo model or a CVXPY problem (its conic canonical form).

    Parameters
    ----------
    model : pyomo.environ.ConcreteModel or cvxpy.Problem

    Returns
    -------
    CoefficientRange
    """
    if hasattr(model, "component_data_objects"):
        return _pyomo(model)
    if hasattr(model, "get_problem_data"):
        return _cvxpy(model)
    raise TypeError(f"model is {a_type(model)}; expected a Pyomo model or a CVXPY problem")
