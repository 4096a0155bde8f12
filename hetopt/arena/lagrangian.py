"""A lower bound on an LP's optimum from any row multipliers, with its floating-point error accounted for.

For ``min c x`` s.t. ``row_lo <= A x <= row_hi``, ``col_lo <= x <= col_hi`` and any vector ``y``
(HiGHS's row-dual convention: ``y_i > 0`` prices the lower side of row ``i``, ``y_i < 0`` the
upper side), weak duality gives

    c x  >=  sum_i y_i b_i(y) + sum_k min_{col_lo_k <= x_k <= col_hi_k} (c - A^T y)_k x_k

for every feasible ``x``, with ``b_i(y) = row_lo_i`` when ``y_i > 0`` and ``row_hi_i`` when
``y_i < 0``, whatever ``y`` is (optimal duals, a stopped solve's, zeros): the certificate trusts this
formula, not the solver, and evaluates it with every rounding error bounded and subtracted.

References
----------
A. Neumaier, O. Shcherbina, "Safe bounds in linear and mixed-integer linear programming",
Mathematical Programming 99 (2004) 283-296 (the same bound, with directed rounding).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["dual_bound"]

#: Units of roundoff charged per term on top of a column's nonzeros: the products, the subtraction from
#: ``c``, the product with the column's bound, and a margin for the rounding of the LP's scaled data.
_EXTRA_ULPS = 8


def dual_bound(c: np.ndarray, A: Any, row_lo: np.ndarray, row_hi: np.ndarray, col_lo: np.ndarray,
               col_hi: np.ndarray, y: np.ndarray) -> float:
    """A proven lower bound on ``min c x`` over the LP's feasible set, from the row multipliers ``y``.

    Parameters
    ----------
    c : numpy.ndarray, shape (n,)
    A : scipy.sparse matrix, shape (m, n)
    row_lo, row_hi : numpy.ndarray, shape (m,)
        Row bounds (``-inf`` / ``inf`` for none).
    col_lo, col_hi : numpy.ndarray, shape (n,)
        Column bounds.
    y : numpy.ndarray, shape (m,)
        Any multipliers (NaN entries count as 0).

    Returns
    -------
    float
        ``-inf`` when no finite bound follows from ``y``; the bound lowered by its worst-case
        rounding error otherwise.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> A = sp.csc_matrix(np.array([[1.0, 1.0]]))   # min x1 + 2 x2, x1 + x2 >= 1, 0 <= x <= 1
    >>> b = dual_bound(np.array([1.0, 2.0]), A, np.array([1.0]), np.array([np.inf]), np.zeros(2), np.ones(2),
    ...                np.array([1.0]))
    >>> 1 - 1e-12 < b <= 1.0
    True
    """
    from scipy import sparse

    M = sparse.csc_matrix(A, dtype=float)
    y = np.nan_to_num(np.asarray(y, dtype=float), nan=0.0, posinf=0.0, neginf=0.0)
    y = np.where(((y > 0) & np.isfinite(row_lo)) | ((y < 0) & np.isfinite(row_hi)), y, 0.0)
    b = np.where(y > 0, row_lo, np.where(y < 0, row_hi, 0.0))
    row_terms = y * b
    d = np.asarray(c, dtype=float) - M.T @ y
    absA = abs(M)
    nnz = np.diff(M.indptr)
    d_err = (nnz + _EXTRA_ULPS) * np.finfo(float).eps * (np.abs(c) + absA.T @ np.abs(y))
    lo, hi = np.asarray(col_lo, dtype=float), np.asarray(col_hi, dtype=float)
    x = np.where(d > 0, lo, np.where(d < 0, hi, np.where(np.isfinite(lo), lo, np.where(np.isfinite(hi), hi, 0.0))))
    # where the sign of d is uncertain (|d| within its error) the bound must be finite on both sides
    unsure = np.abs(d) <= d_err
    if np.any(~np.isfinite(x)) or np.any(unsure & ~(np.isfinite(lo) & np.isfinite(hi))):
        return -math.inf
    reach = np.maximum(np.abs(lo), np.abs(hi))
    reach = np.where(np.isfinite(reach), reach, np.abs(x))
    col_terms = d * x
    value = math.fsum(row_terms.tolist()) + math.fsum(col_terms.tolist())
    eps = np.finfo(float).eps
    error = math.fsum((d_err * reach).tolist()) + _EXTRA_ULPS * eps * (
        math.fsum(np.abs(row_terms).tolist()) + math.fsum(np.abs(col_terms).tolist()))
    return value - 1.01 * error
