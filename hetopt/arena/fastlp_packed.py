"""Gavel's packed max-min fairness LP handed to ECOS directly: the arrays CVXPY builds, without CVXPY.

:func:`mmf_packed_lp` writes the cone program ``(c, G, h, A, b)`` that ``problem.get_problem_data(cp.ECOS)``
returns for :func:`hetopt.gavel.packing.max_min_fairness_packed`'s problem, to the last bit
(``tests/arena/test_fastlp_packed.py`` compares the arrays): variables ``(t, x)`` with ``x`` the ``(J + P) x R``
allocation of the jobs and the pairs in column order; ``min t`` s.t. the epigraph rows
``-t - sum_{k in rows(i), r} coef_ikr x_kr <= 0`` (one per job, its own row and its pairs', zero coefficients
left out), ``-x <= 0``, ``sum_k s_k x_kr <= c_r`` (zero scale factors left out), one ``sum_{k in rows(i), r}
x_kr <= 1`` per job, and the equality rows ``x_kr = 0`` of the pairs whose scale factors differ.  The
coefficients are computed by the same numpy expression as in :mod:`hetopt.gavel.packing`.

:func:`mtd_packed_lp` does the same for the feasibility LPs of ``min_total_duration_packed``'s bisection
(variables ``x``, ``c = 0``: ``-x <= 0``, the capacity rows, the rows of each job, then
``-sum_{k in rows(i), r} m_ikr x_kr <= -steps_i / mid`` per job; no equality rows), only ``h`` changing with ``mid``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ..errors import SolverError
from ..gavel import packing
from ..gavel.inputs import required_vector
from ..gavel.lp import BISECTION_BRACKET, BISECTION_RATIO, gavel_proportional_throughput
from ..gavel.packing import PackedProblem, packed_problem
from .fastlp import HAS_SOLUTION, OPTIMAL, ConeLP, _csc, solve

__all__ = ["mmf_packed_lp", "max_min_fairness_packed", "mtd_packed_lp", "min_total_duration_packed", "FAST_PACKED"]


def mmf_packed_lp(pp: PackedProblem) -> ConeLP:
    """The cone program of ``MaxMinFairnessPolicyWithPacking`` on the packing data ``pp`` (the module docstring)."""
    J, R = pp.T.shape
    m = pp.rows
    nx = m * R
    prop = gavel_proportional_throughput(pp.T, pp.c)
    rows: list[np.ndarray] = [np.arange(J)]
    cols: list[np.ndarray] = [np.zeros(J, dtype=np.int64)]
    vals: list[np.ndarray] = [np.full(J, -1.0)]
    for i in range(J):
        rel = np.asarray(pp.relevant[i])
        coef = np.multiply(pp.all_m[i][pp.relevant[i]], pp.sfa[pp.relevant[i]]) / float(prop[i, 0])
        k, r = np.nonzero(coef)
        rows.append(np.full(k.size, i))
        cols.append(1 + rel[k] + r * m)
        vals.append(-coef[k, r])
    kk = np.arange(nx)
    row_of, type_of = kk % m, kk // m
    sf = pp.sfa[row_of, type_of]
    nz = sf != 0
    rows += [J + kk, J + nx + type_of[nz]]
    cols += [1 + kk, 1 + kk[nz]]
    vals += [np.full(nx, -1.0), sf[nz]]
    for i in range(J):
        rel = np.asarray(pp.relevant[i])
        rows.append(np.full(rel.size * R, J + nx + R + i))
        cols.append(1 + np.tile(rel, R) + np.repeat(np.arange(R), rel.size) * m)
        vals.append(np.ones(rel.size * R))
    data, indices, indptr = _csc(1 + nx, np.concatenate(rows), np.concatenate(cols), np.concatenate(vals))
    h = np.array([0.0] * (J + nx) + [float(v) for v in pp.c] + [1.0] * J)
    c = np.zeros(1 + nx)
    c[0] = 1.0
    n_rows = J + nx + R + J
    lp = ConeLP(c, data, indices, indptr, n_rows, h, n_rows, [], 1, (m, R))
    zi, zr = np.nonzero(pp.sfa == 0)  # the rows Gavel holds at 0, in (row, type) order
    if zi.size:
        lp.a_data, lp.a_indices, lp.a_indptr = _csc(1 + nx, np.arange(zi.size), 1 + zi + zr * m, np.ones(zi.size))
        lp.b = np.zeros(zi.size)
    return lp


def max_min_fairness_packed(throughput: Any, scale_factor: Any, capacity: Any, priority_weight: Any = None, *,
                            pairs: Any = None, pair_throughput: Any = None) -> np.ndarray:
    """:func:`hetopt.gavel.packing.max_min_fairness_packed` without CVXPY (the same allocation)."""
    pp = packed_problem(throughput, scale_factor, capacity, priority_weight, pairs=pairs,
                        pair_throughput=pair_throughput)
    flag, x, _ = solve(mmf_packed_lp(pp))
    if flag not in HAS_SOLUTION or x is None:
        raise SolverError("ecos returned no packed allocation")
    return np.asarray(x, dtype=float).clip(min=0.0).clip(max=1.0)


def _job_rows(pp: PackedProblem, m: int, R: int, row0: int) -> tuple[list[np.ndarray], ...]:
    """``sum_{k in rows(i), r} x_kr <= 1``: one row per job from ``row0``, every type of its rows."""
    rows, cols, vals = [], [], []
    for i in range(pp.T.shape[0]):
        rel = np.asarray(pp.relevant[i])
        rows.append(np.full(rel.size * R, row0 + i))
        cols.append(np.tile(rel, R) + np.repeat(np.arange(R), rel.size) * m)
        vals.append(np.ones(rel.size * R))
    return rows, cols, vals


def mtd_packed_lp(pp: PackedProblem) -> ConeLP:
    """The feasibility LP of ``min_total_duration_packed``; at ``mid``, ``h[-J:] = -(steps / mid)`` (0 here)."""
    J, R = pp.T.shape
    m = pp.rows
    nx = m * R
    kk = np.arange(nx)
    row_of, type_of = kk % m, kk // m
    sf = pp.sfa[row_of, type_of]
    nz = sf != 0
    jr, jc, jv = _job_rows(pp, m, R, nx + R)
    rows, cols, vals = [kk, nx + type_of[nz], *jr], [kk, kk[nz], *jc], [np.full(nx, -1.0), sf[nz], *jv]
    for i in range(J):
        rel = np.asarray(pp.relevant[i])
        coef = pp.all_m[i][pp.relevant[i]]
        k, r = np.nonzero(coef)
        rows.append(np.full(k.size, nx + R + J + i))
        cols.append(rel[k] + r * m)
        vals.append(-coef[k, r].astype(np.float64))
    data, indices, indptr = _csc(nx, np.concatenate(rows), np.concatenate(cols), np.concatenate(vals))
    h = np.concatenate([np.zeros(nx), [float(v) for v in pp.c], np.ones(J), np.zeros(J)])
    return ConeLP(np.zeros(nx), data, indices, indptr, h.size, h, h.size, [], 0, (m, R))


def min_total_duration_packed(throughput: Any, scale_factor: Any, capacity: Any, priority_weight: Any = None, *,
                              remaining_steps: Any = None, pairs: Any = None, pair_throughput: Any = None,
                              max_brackets: int = 30) -> np.ndarray:
    """:func:`hetopt.gavel.packing.min_total_duration_packed` without CVXPY: the same bisection, the same LPs.

    A bisection step is feasible when ECOS ends optimal (CVXPY's status ``"optimal"``, exit flag 0).
    """
    if priority_weight is not None:  # refused there, with its message
        return packing.min_total_duration_packed(throughput, scale_factor, capacity, priority_weight,
                                                 remaining_steps=remaining_steps, pairs=pairs,
                                                 pair_throughput=pair_throughput, max_brackets=max_brackets)
    pp = packed_problem(throughput, scale_factor, capacity, None, pairs=pairs, pair_throughput=pair_throughput)
    J = pp.T.shape[0]
    steps = required_vector("remaining_steps", remaining_steps, J)
    lp = mtd_packed_lp(pp)
    low, high = BISECTION_BRACKET
    last_high = high
    for _ in range(max_brackets):
        feasible = None
        while BISECTION_RATIO * low < high:
            mid = (low + high) / 2.0
            h = lp.h.copy()
            h[-J:] = -(steps / mid)
            # fresh arrays for every solve: ECOS may scale the ones it is given
            flag, x, _ = solve(replace(lp, data=lp.data.copy(), indices=lp.indices.copy(), indptr=lp.indptr.copy(),
                                       h=h))
            if flag == OPTIMAL:
                feasible, high = x, mid
            else:
                low = mid
        if feasible is not None:
            return np.asarray(feasible, dtype=float).clip(min=0.0).clip(max=1.0)
        high, low = last_high * 10.0, last_high
        last_high *= 10
    raise SolverError(f"min-total-duration (packed) bisection: no feasible makespan below {last_high:.3g} s")


#: The packed policies with a direct version (as :data:`hetopt.arena.fastlp.FAST`).
FAST_PACKED = {"max_min_fairness_packed": (max_min_fairness_packed, None),
               "min_total_duration_packed": (min_total_duration_packed, None)}
