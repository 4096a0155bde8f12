"""Gavel's packed max-min fairness LP handed to ECOS directly: the arrays CVXPY builds, without CVXPY.

:func:`mmf_packed_lp` writes the cone program ``(c, G, h, A, b)`` that ``problem.get_problem_data(cp.ECOS)``
returns for :func:`hetopt.gavel.packing.max_min_fairness_packed`'s problem, to the last bit
(``tests/arena/test_fastlp_packed.py`` compares the arrays): variables ``(t, x)`` with ``x`` the ``(J + P) x R``
allocation of the jobs and the pairs in column order; ``min t`` s.t. the epigraph rows
``-t - sum_{k in rows(i), r} coef_ikr x_kr <= 0`` (one per job, its own row and its pairs', zero coefficients
left out), ``-x <= 0``, ``sum_k s_k x_kr <= c_r`` (zero scale factors left out), one ``sum_{k in rows(i), r}
x_kr <= 1`` per job, and the equality rows ``x_kr = 0`` of the pairs whose scale factors differ.  The
coefficients are computed by the same numpy expression as in :mod:`hetopt.gavel.packing`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import SolverError
from ..gavel.lp import gavel_proportional_throughput
from ..gavel.packing import PackedProblem, packed_problem
from .fastlp import HAS_SOLUTION, ConeLP, _csc, solve

__all__ = ["mmf_packed_lp", "max_min_fairness_packed", "FAST_PACKED"]


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


#: The packed policies with a direct version (as :data:`hetopt.arena.fastlp.FAST`).
FAST_PACKED = {"max_min_fairness_packed": (max_min_fairness_packed, None)}
