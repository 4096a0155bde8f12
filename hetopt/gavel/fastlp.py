"""Gavel's policy LPs handed to ECOS directly: the arrays CVXPY would build, without CVXPY.

On Gavel's LPs CVXPY's canonicalization costs several times ECOS's solve (about 0.6 s of every
0.7 s of max-min fairness at 150 jobs present).  Each builder here writes the cone program
``(c, G, h, dims)`` that ``problem.get_problem_data(cp.ECOS)`` returns for the problem as
:mod:`hetopt.gavel.lp` poses it -- the same numbers, the same sparsity pattern, the same order, to
the last bit (``tests/gavel/test_fastlp.py`` compares the arrays) -- and calls ECOS's ``csolve``
with CVXPY's arguments, so the solution, its status and the allocation read from it are those of
:func:`hetopt.gavel.simulate` and of Gavel.  The coefficients are computed by the same numpy
expressions as in :mod:`hetopt.gavel.lp`.

:data:`FAST` maps a policy name of :data:`hetopt.gavel.POLICIES` to its direct version (same
signature; any option other than the defaults falls back to the CVXPY version):
``max_min_fairness``, ``max_sum_throughput``, ``min_total_duration``, their heterogeneity-agnostic
variants, ``max_sum_throughput_normalized_by_cost`` (and ``_slos``) and the water-filling pair.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InfeasibleError, SolverError, UnboundedError
from . import fairness, makespan, variants
from .inputs import check_policy_inputs, no_steps, required_vector
from .lp import (
    BISECTION_BRACKET,
    BISECTION_RATIO,
    gavel_isolated_share,
    gavel_isolated_throughput,
    gavel_proportional_throughput,
    sf_array,
)

__all__ = ["ConeLP", "solve", "mmf_lp", "mst_lp", "mtd_lp", "water_filling_lp", "max_min_fairness",
           "max_sum_throughput", "min_total_duration", "FAST", "OPTIMAL", "HAS_SOLUTION", "expected_isolated"]

#: ECOS's exit flags: optimal, and those CVXPY reads a solution from (``SOLUTION_PRESENT``: optimal, optimal but
#: inaccurate, and the iteration limit, its ``USER_LIMIT``, whose last iterate ``x.value`` holds).
OPTIMAL = 0
HAS_SOLUTION = (0, 10, -1)


@dataclass
class ConeLP:
    """``min c.x  s.t.  G x + s = h, s in (R+)^l x SOC(q_1) x ...``: ECOS's data, G in CSC arrays.

    ``x_offset``: where the allocation's variable starts in ``x`` (its ``m x n`` entries in column order).
    ``A = (a_data, a_indices, a_indptr)`` and ``b``: the equality rows ``A x = b`` (None: none, as CVXPY passes them).
    """

    c: np.ndarray
    data: np.ndarray
    indices: np.ndarray
    indptr: np.ndarray
    n_rows: int
    h: np.ndarray
    l: int
    q: list[int]
    x_offset: int
    shape: tuple[int, int]
    a_data: np.ndarray | None = None
    a_indices: np.ndarray | None = None
    a_indptr: np.ndarray | None = None
    b: np.ndarray | None = None

    def dense(self) -> np.ndarray:
        """G as a dense matrix (tests)."""
        G = np.zeros((self.n_rows, self.c.size))
        for col in range(self.c.size):
            G[self.indices[self.indptr[col]:self.indptr[col + 1]], col] = self.data[self.indptr[col]:self.indptr[col + 1]]
        return G


def _csc(n_cols: int, rows: np.ndarray, cols: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, ...]:
    """CSC arrays of the entries (row, col, val): columns in order, rows sorted within each (no duplicates)."""
    order = np.lexsort((rows, cols))
    indptr = np.zeros(n_cols + 1, dtype=np.int64)
    np.cumsum(np.bincount(cols, minlength=n_cols), out=indptr[1:])
    return vals[order].astype(np.float64, copy=False), rows[order].astype(np.int64, copy=False), indptr


def solve(lp: ConeLP) -> tuple[int, np.ndarray | None, float]:
    """ECOS on ``lp`` as CVXPY calls it; ``(exit flag, allocation (m, n) or None, primal cost)``."""
    import _ecos  # ECOS's extension module, which ecos.solve calls with these arrays

    dims = {"l": lp.l, "q": lp.q, "e": 0}
    if lp.b is None:
        sol = _ecos.csolve((lp.n_rows, lp.c.size, 0), lp.c, lp.data, lp.indices, lp.indptr, lp.h, dims, verbose=False)
    else:
        sol = _ecos.csolve((lp.n_rows, lp.c.size, lp.b.size), lp.c, lp.data, lp.indices, lp.indptr, lp.h, dims,
                           lp.a_data, lp.a_indices, lp.a_indptr, lp.b, verbose=False)
    flag = int(sol["info"]["exitFlag"])
    if flag not in HAS_SOLUTION:
        return flag, None, float("nan")
    m, n = lp.shape
    x = np.reshape(sol["x"][lp.x_offset:lp.x_offset + m * n], (m, n), order="F")
    return flag, x, float(sol["info"]["pcost"])


def _raise(flag: int, what: str) -> None:
    """The error ``hetopt.solvers.solve_problem(raise_on_failure=True)`` raises for a flag without a solution."""
    if flag in (1, 11):
        raise InfeasibleError(f"ecos: {what} is infeasible (exit flag {flag})")
    if flag in (2, 12):
        raise UnboundedError(f"ecos: {what} is unbounded (exit flag {flag})")
    raise SolverError(f"ecos: {what}: solve failed (exit flag {flag})")


def _base(m: int, n: int, sfa: np.ndarray, cap: Sequence[float], row0: int, col0: int
          ) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray], list[float]]:
    """Gavel's base constraints as rows ``row0..``: ``-x <= 0``, ``sum_i s_i x_ir <= c_r``, ``sum_r x_ir <= 1``."""
    k = np.arange(m * n)
    i, r = k % m, k // m
    cols = col0 + k
    rows = [row0 + k, row0 + m * n + r, row0 + m * n + n + i]
    vals = [np.full(m * n, -1.0), sfa[i, r], np.ones(m * n)]
    h = [0.0] * (m * n) + [float(v) for v in cap] + [1.0] * m
    return rows, [cols] * 3, vals, h


def _coef_rows(coef: np.ndarray, row0: int, col0: int, sign: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One row per job: ``sign * coef[i, r]`` on ``x[i, r]``, zero coefficients left out (as CVXPY leaves them)."""
    m, n = coef.shape
    k = np.arange(m * n)  # every entry, in column order
    i, r = k % m, k // m
    keep = coef[i, r] != 0
    i, r = i[keep], r[keep]
    return row0 + i, col0 + r * m + i, sign * coef[i, r]


def mmf_lp(coef: np.ndarray, sfa: np.ndarray, cap: Sequence[float]) -> ConeLP:
    """``max min_i sum_r coef_ir x_ir`` s.t. the base constraints (Gavel's max-min fairness, water filling's first LP).

    Variables ``(t, x)``: ``min t`` s.t. ``-t - coef_i . x_i <= 0`` (the epigraph rows first), then the base rows.
    """
    m, n = coef.shape
    er, ec, ev = _coef_rows(coef, 0, 1, -1.0)
    rows, cols, vals, h = _base(m, n, sfa, cap, m, 1)
    rows = [np.arange(m), er, *rows]
    cols = [np.zeros(m, dtype=np.int64), ec, *cols]
    vals = [np.full(m, -1.0), ev, *vals]
    data, indices, indptr = _csc(1 + m * n, np.concatenate(rows), np.concatenate(cols), np.concatenate(vals))
    c = np.zeros(1 + m * n)
    c[0] = 1.0
    return ConeLP(c, data, indices, indptr, m + m * n + n + m, np.array([0.0] * m + h), m + m * n + n + m, [], 1,
                  (m, n))


def mst_lp(coef: np.ndarray, sfa: np.ndarray, cap: Sequence[float], slo: np.ndarray | None = None,
           slo_rows: Sequence[int] = (), slo_rate: Sequence[float] = ()) -> ConeLP:
    """``max sum coef_ir x_ir`` s.t. the base constraints and ``T_j . x_j >= rate_j`` for the SLO rows."""
    m, n = coef.shape
    rows, cols, vals, h = _base(m, n, sfa, cap, 0, 0)
    n_rows = m * n + n + m
    for j, rate in zip(slo_rows, slo_rate, strict=True):
        assert slo is not None
        k = np.flatnonzero(slo[j] != 0)
        rows.append(np.full(k.size, n_rows))
        cols.append(k * m + j)
        vals.append(-slo[j, k])
        h.append(-float(rate))
        n_rows += 1
    data, indices, indptr = _csc(m * n, np.concatenate(rows), np.concatenate(cols), np.concatenate(vals))
    c = 0.0 - np.reshape(coef, m * n, order="F")  # +0.0 where the coefficient is 0, as CVXPY writes it
    return ConeLP(c, data, indices, indptr, n_rows, np.array(h), n_rows, [], 0, (m, n))


def mtd_lp(T: np.ndarray, sfa: np.ndarray, cap: Sequence[float], floor: np.ndarray) -> ConeLP:
    """The feasibility LP of min-total-duration: ``max 1`` s.t. the base constraints and ``T_i . x_i >= floor_i``."""
    m, n = T.shape
    rows, cols, vals, h = _base(m, n, sfa, cap, 0, 0)
    n_rows = m * n + n + m
    fr, fc, fv = _coef_rows(T, n_rows, 0, -1.0)
    data, indices, indptr = _csc(m * n, np.concatenate([*rows, fr]), np.concatenate([*cols, fc]),
                                 np.concatenate([*vals, fv]))
    return ConeLP(np.zeros(m * n), data, indices, indptr, n_rows + m, np.concatenate([h, -floor]), n_rows + m, [], 0,
                  (m, n))


def water_filling_lp(T: np.ndarray, inv_prop: np.ndarray, mult: np.ndarray, sfa: np.ndarray,
                     cap: Sequence[float]) -> ConeLP:
    """Water filling's first LP: ``max min_i mult_i T_i . x_i / prop_i`` s.t. the base constraints and ``T_i . x_i / prop_i >= 0``.

    (Gavel's ``_water_filling`` with nothing fixed yet: ``so_far = 0``, ``add = 0``, ``lower = 0``.)
    Variables ``(t, x)``; the epigraph rows, the base rows, then the floor rows.
    """
    m, n = T.shape
    norm = T * inv_prop[:, None]
    er, ec, ev = _coef_rows(norm * mult[:, None], 0, 1, -1.0)
    rows, cols, vals, h = _base(m, n, sfa, cap, m, 1)
    n_rows = m + m * n + n + m
    fr, fc, fv = _coef_rows(norm, n_rows, 1, -1.0)
    data, indices, indptr = _csc(1 + m * n, np.concatenate([np.arange(m), er, *rows, fr]),
                                 np.concatenate([np.zeros(m, dtype=np.int64), ec, *cols, fc]),
                                 np.concatenate([np.full(m, -1.0), ev, *vals, fv]))
    c = np.zeros(1 + m * n)
    c[0] = 1.0
    return ConeLP(c, data, indices, indptr, n_rows + m, np.array([0.0] * m + h + [0.0] * m), n_rows + m, [], 1, (m, n))


# -- the policies -----------------------------------------------------------------------------------------

def _mmf_coef(T: np.ndarray, s: np.ndarray, c: np.ndarray, w: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Gavel's max-min fairness coefficients as :func:`hetopt.gavel.lp.gavel_max_min_fairness` computes them."""
    m, n = T.shape
    w = np.ones(m) if w is None else np.asarray(w, dtype=float)
    sfa = sf_array(np.asarray(s), n)
    weights = np.array([1.0 / float(v) for v in w])
    prop = gavel_proportional_throughput(T, np.asarray(c))
    weights = np.multiply(weights.reshape((m, 1)), 1.0 / prop.reshape((m, 1)))
    return np.multiply(T * weights.reshape((m, 1)), sfa), sfa


def gavel_max_min_fairness(T: np.ndarray, s: np.ndarray, c: np.ndarray, w: np.ndarray | None = None) -> np.ndarray:
    """:func:`hetopt.gavel.lp.gavel_max_min_fairness` without CVXPY (the same allocation)."""
    T = np.asarray(T, dtype=float)
    coef, sfa = _mmf_coef(T, s, c, w)
    flag, x, _ = solve(mmf_lp(coef, sfa, [float(v) for v in c]))
    if x is None:
        _raise(flag, "max-min fairness")
    return np.asarray(x).clip(min=0.0).clip(max=1.0)


def gavel_max_sum_throughput(T: np.ndarray, s: np.ndarray, c: np.ndarray, *, instance_costs: np.ndarray | None = None,
                             slo_rate: dict[int, float] | None = None) -> np.ndarray:
    """:func:`hetopt.gavel.lp.gavel_max_sum_throughput` without CVXPY."""
    T = np.asarray(T, dtype=float)
    m, n = T.shape
    sfa = sf_array(np.asarray(s), n)
    costs = np.ones((1, n))
    if instance_costs is not None:
        for r in range(n):
            costs[0, r] = float(instance_costs[r])
    cap = [float(v) for v in c]
    coef = T / costs
    slo = dict(slo_rate or {})
    flag, x, _ = solve(mst_lp(coef, sfa, cap, T, list(slo), list(slo.values())))
    if x is None and slo:
        flag, x, _ = solve(mst_lp(coef, sfa, cap))
    if x is None:
        raise SolverError(f"ecos returned no allocation (exit flag {flag})")
    return np.asarray(x).clip(min=0.0).clip(max=1.0)


def gavel_min_total_duration(T: np.ndarray, s: np.ndarray, c: np.ndarray, remaining_steps: np.ndarray, *,
                             max_brackets: int = 30) -> tuple[np.ndarray, float, int]:
    """:func:`hetopt.gavel.lp.gavel_min_total_duration` (ECOS) without CVXPY: the same bisection, the same LPs."""
    T = np.asarray(T, dtype=float)
    m, n = T.shape
    sfa = sf_array(np.asarray(s), n)
    steps = np.asarray(remaining_steps)
    cap = [float(v) for v in c]
    low, high = BISECTION_BRACKET
    last_high = high
    feasible_x, feasible_m, lps = None, float("nan"), 0
    for _ in range(max_brackets):
        while BISECTION_RATIO * low < high:
            mid = (low + high) / 2.0
            flag, x, _ = solve(mtd_lp(T, sfa, cap, steps / mid))
            lps += 1
            if flag == OPTIMAL:
                feasible_x, feasible_m = x, mid
                high = mid
            else:
                low = mid
        if feasible_x is not None:
            return np.asarray(feasible_x, dtype=float).clip(min=0.0).clip(max=1.0), feasible_m, lps
        high = last_high * 10.0
        low = last_high
        last_high *= 10
    raise SolverError(f"min-total-duration bisection: no feasible makespan below {last_high:.3g} s")


def max_min_fairness(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                     normalization: str = "gavel", solver: str = "ecos") -> np.ndarray:
    """:func:`hetopt.gavel.max_min_fairness`, direct under Gavel's reading (ECOS, Gavel's normalization)."""
    if solver != "ecos" or normalization != "gavel":
        return fairness.max_min_fairness(throughput, scale_factor, capacity, priority_weight,
                                         remaining_steps=remaining_steps, normalization=normalization, solver=solver)
    no_steps("max_min_fairness", remaining_steps)
    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    return gavel_max_min_fairness(T, s, c, w)


def max_sum_throughput(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                       solver: str = "ecos") -> np.ndarray:
    """:func:`hetopt.gavel.max_sum_throughput`, direct with ECOS."""
    if solver != "ecos":
        return fairness.max_sum_throughput(throughput, scale_factor, capacity, priority_weight,
                                           remaining_steps=remaining_steps, solver=solver)
    no_steps("max_sum_throughput", remaining_steps)
    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    return gavel_max_sum_throughput(T if w is None else T * w[:, None], s, c)


def min_total_duration(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                       method: str = "bisection", solver: str = "ecos") -> np.ndarray:
    """:func:`hetopt.gavel.min_total_duration`, direct under Gavel's reading (bisection, ECOS)."""
    if solver != "ecos" or method != "bisection" or priority_weight is not None:
        return makespan.min_total_duration(throughput, scale_factor, capacity, priority_weight,
                                           remaining_steps=remaining_steps, method=method, solver=solver)
    T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, None, remaining_steps)
    return gavel_min_total_duration(T, s, c, np.ones(T.shape[0]) if steps is None else steps)[0]


def max_min_fairness_agnostic(throughput, scale_factor, capacity, priority_weight=None) -> np.ndarray:
    """:func:`hetopt.gavel.variants.max_min_fairness_agnostic`, direct."""
    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    return gavel_max_min_fairness(np.ones_like(T), s, c, w)


def min_total_duration_agnostic(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                                reference_type: int | None = None) -> np.ndarray:
    """:func:`hetopt.gavel.variants.min_total_duration_agnostic`, direct."""
    if priority_weight is not None:
        return variants.min_total_duration_agnostic(throughput, scale_factor, capacity, priority_weight,
                                                    remaining_steps=remaining_steps, reference_type=reference_type)
    T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, None, remaining_steps)
    ref = variants.reference_column(reference_type, T.shape[1])
    steps = required_vector("remaining_steps", steps, T.shape[0], policy="min_total_duration_agnostic")
    flat = np.repeat(T[:, [ref]], T.shape[1], axis=1)
    if np.any(flat[:, 0] <= 0):
        return variants.min_total_duration_agnostic(throughput, scale_factor, capacity, None,
                                                    remaining_steps=remaining_steps, reference_type=reference_type)
    return gavel_min_total_duration(flat, s, c, steps)[0]


def _water_filling(T: np.ndarray, s: np.ndarray, c: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Gavel's water filling without the bottleneck MILP (``bottleneck_solver=None``): its one LP."""
    m, n = T.shape
    sfa = sf_array(s, n)
    prop = gavel_proportional_throughput(T, c)
    weights = np.array([1.0 / float(v) if v > 0 else 0.0 for v in w])
    mult = np.array([weights[i] * sfa[i, 0] for i in range(m)])
    flag, x, _ = solve(water_filling_lp(T, 1.0 / prop.reshape(m), mult, sfa, [float(v) for v in c]))
    if x is None:
        raise SolverError("water filling: ecos returned no allocation for the first LP")
    return np.asarray(x).clip(min=0.0).clip(max=1.0)


def max_min_fairness_water_filling(throughput, scale_factor, capacity, priority_weight=None, *,
                                   bottleneck_solver: str | None = None) -> np.ndarray:
    """:func:`hetopt.gavel.variants.max_min_fairness_water_filling`, direct without the bottleneck MILP."""
    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    if bottleneck_solver is not None or (w is not None and np.any(w <= 0)):
        return variants.max_min_fairness_water_filling(throughput, scale_factor, capacity, priority_weight,
                                                       bottleneck_solver=bottleneck_solver)
    return _water_filling(T, s, c, np.ones(T.shape[0]) if w is None else w)


def max_min_fairness_water_filling_agnostic(throughput, scale_factor, capacity, priority_weight=None, *,
                                            bottleneck_solver: str | None = None) -> np.ndarray:
    """:func:`hetopt.gavel.variants.max_min_fairness_water_filling_agnostic`, direct without the bottleneck MILP."""
    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    if bottleneck_solver is not None or (w is not None and np.any(w <= 0)):
        return variants.max_min_fairness_water_filling_agnostic(throughput, scale_factor, capacity, priority_weight,
                                                                bottleneck_solver=bottleneck_solver)
    return _water_filling(np.ones_like(T), s, c, np.ones(T.shape[0]) if w is None else w)


def max_sum_throughput_normalized_by_cost(throughput, scale_factor, capacity, priority_weight=None, *,
                                          instance_costs: Any = None,
                                          gpu_types: Sequence[str] | None = None) -> np.ndarray:
    """:func:`hetopt.gavel.variants.max_sum_throughput_normalized_by_cost`, direct."""
    if priority_weight is not None:
        return variants.max_sum_throughput_normalized_by_cost(throughput, scale_factor, capacity, priority_weight,
                                                              instance_costs=instance_costs, gpu_types=gpu_types)
    T, s, c, _, _ = check_policy_inputs(throughput, scale_factor, capacity)
    return gavel_max_sum_throughput(T, s, c, instance_costs=variants.instance_cost_vector(instance_costs, gpu_types,
                                                                                          T.shape[1]))


def max_sum_throughput_normalized_by_cost_slos(throughput, scale_factor, capacity, priority_weight=None, *,
                                               remaining_steps=None, time_to_slo=None, instance_costs: Any = None,
                                               gpu_types: Sequence[str] | None = None) -> np.ndarray:
    """:func:`hetopt.gavel.variants.max_sum_throughput_normalized_by_cost_slos`, direct."""
    kw = {"remaining_steps": remaining_steps, "time_to_slo": time_to_slo, "instance_costs": instance_costs,
          "gpu_types": gpu_types}
    if priority_weight is not None or (time_to_slo is not None and np.any(np.isfinite(time_to_slo))):
        return variants.max_sum_throughput_normalized_by_cost_slos(throughput, scale_factor, capacity,
                                                                   priority_weight, **kw)
    T, s, c, _, _ = check_policy_inputs(throughput, scale_factor, capacity)
    if time_to_slo is not None and np.shape(time_to_slo) != (T.shape[0],):
        return variants.max_sum_throughput_normalized_by_cost_slos(throughput, scale_factor, capacity, None, **kw)
    return gavel_max_sum_throughput(T, s, c, instance_costs=variants.instance_cost_vector(instance_costs, gpu_types,
                                                                                          T.shape[1]))


def ftf_lp(T: np.ndarray, sfa: np.ndarray, cap: Sequence[float], since: np.ndarray, steps: np.ndarray,
           expected_iso: np.ndarray) -> ConeLP:
    """Finish-time fairness (two jobs or more): ``min max_i (since_i + steps_i / (T_i . x_i)) / iso_i`` s.t. the base.

    Variables ``(t, x, u)``, ``u_i >= 1 / (T_i . x_i)``: the epigraph rows ``-t + (steps_i / iso_i) u_i <=
    -since_i / iso_i``, the base rows, then one 3-dimensional cone per job, ``(T_i . x_i + u_i, T_i . x_i - u_i, 2)``.
    """
    m, n = T.shape
    cu = 1 + m * n + np.arange(m)  # the u columns
    rows, cols, vals, h = _base(m, n, sfa, cap, m, 1)
    n_lin = m + m * n + n + m
    a_r, a_c, a_v = _coef_rows(T, 0, 1, -1.0)  # -T_i . x_i, row i of each cone
    cone = n_lin + 3 * a_r
    rows = [np.arange(m), np.arange(m), *rows, cone, cone + 1, n_lin + 3 * np.arange(m), n_lin + 3 * np.arange(m) + 1]
    cols = [np.zeros(m, dtype=np.int64), cu, *cols, a_c, a_c, cu, cu]
    inv = 1.0 / expected_iso  # CVXPY divides by a constant as a product with its inverse
    vals = [np.full(m, -1.0), steps * inv, *vals, a_v, a_v, np.full(m, -1.0), np.ones(m)]
    data, indices, indptr = _csc(1 + m * n + m, np.concatenate(rows), np.concatenate(cols), np.concatenate(vals))
    c = np.zeros(1 + m * n + m)
    c[0] = 1.0
    hq = np.tile([0.0, 0.0, 2.0], m)
    return ConeLP(c, data, indices, indptr, n_lin + 3 * m, np.concatenate([-(since * inv), h, hq]), n_lin,
                  [3] * m, 1, (m, n))


def expected_isolated(policy: Any, ids: Sequence[int], steps: np.ndarray, iso: np.ndarray) -> np.ndarray:
    """Each job's expected time on its isolated share (Gavel's finish-time-fairness bookkeeping).

    The time so far (accumulated in ``policy.cumulative`` from call to call) plus the time its ``steps`` still
    need there; the call's steps and isolated throughputs are kept for the next call (the arithmetic of
    :class:`hetopt.gavel.variants.FinishTimeFairness`).
    """
    expected_iso = []
    for i, job in enumerate(ids):
        policy.cumulative.setdefault(job, 0)
        if job in policy.prev_steps:
            policy.cumulative[job] += (policy.prev_steps[job] - steps[i]) / policy.prev_iso[job]
        expected_iso.append(policy.cumulative[job] + (steps[i] / iso[i]))
    policy.prev_steps = {job: float(steps[i]) for i, job in enumerate(ids)}
    policy.prev_iso = {job: iso[i] for i, job in enumerate(ids)}
    return np.concatenate(expected_iso)


class FinishTimeFairness(variants.FinishTimeFairness):
    """:class:`hetopt.gavel.variants.FinishTimeFairness`, direct (the same state, the same program; one job: CVXPY)."""

    def __call__(self, throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                 times_since_start=None, job_ids: Sequence[Any] | None = None,
                 reference_type: int | None = None) -> np.ndarray:
        """The allocation of the jobs given, as the parent computes it."""
        T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, priority_weight,
                                                remaining_steps)
        m, n = T.shape
        if m == 1 or (job_ids is not None and len(job_ids) != m):
            return super().__call__(throughput, scale_factor, capacity, priority_weight,
                                    remaining_steps=remaining_steps, times_since_start=times_since_start,
                                    job_ids=job_ids, reference_type=reference_type)
        steps = required_vector("remaining_steps", steps, m, policy="finish_time_fairness")
        since = required_vector("times_since_start", times_since_start, m, policy="finish_time_fairness")
        ids = list(range(m)) if job_ids is None else [int(j) for j in job_ids]
        if self.agnostic:
            ref = variants.reference_column(reference_type, n)
            T = np.repeat(T[:, [ref]], n, axis=1)
        sfa = sf_array(s, n)
        iso = gavel_isolated_throughput(T, s, c)
        _, x, _ = solve(ftf_lp(T, sfa, [float(v) for v in c], since, steps, expected_isolated(self, ids, steps, iso)))
        if x is None:
            return gavel_isolated_share(c, sfa)
        return np.asarray(x).clip(min=0.0).clip(max=1.0)


def finish_time_fairness(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                         times_since_start=None) -> np.ndarray:
    """:func:`hetopt.gavel.variants.finish_time_fairness`, direct."""
    return FinishTimeFairness()(throughput, scale_factor, capacity, priority_weight, remaining_steps=remaining_steps,
                                times_since_start=times_since_start)


def finish_time_fairness_agnostic(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                                  times_since_start=None, reference_type: int | None = None) -> np.ndarray:
    """:func:`hetopt.gavel.variants.finish_time_fairness_agnostic`, direct."""
    return FinishTimeFairness(agnostic=True)(throughput, scale_factor, capacity, priority_weight,
                                             remaining_steps=remaining_steps, times_since_start=times_since_start,
                                             reference_type=reference_type)


#: Policy name of :data:`hetopt.gavel.POLICIES` -> ``(function, factory)``: its direct-ECOS version, the same
#: signature and allocation (the factory, ``factory(seed)``, for the policies that keep state; else None).
FAST: dict[str, tuple[Callable[..., np.ndarray], Callable[[int], Callable[..., np.ndarray]] | None]] = {
    **{f.__name__: (f, None) for f in (
        max_min_fairness, max_sum_throughput, min_total_duration, max_min_fairness_agnostic,
        min_total_duration_agnostic, max_min_fairness_water_filling, max_min_fairness_water_filling_agnostic,
        max_sum_throughput_normalized_by_cost, max_sum_throughput_normalized_by_cost_slos)},
    "finish_time_fairness": (finish_time_fairness, lambda seed: FinishTimeFairness()),
    "finish_time_fairness_agnostic": (finish_time_fairness_agnostic, lambda seed: FinishTimeFairness(agnostic=True)),
}
