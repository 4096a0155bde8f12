"""The weak-duality bound: below the optimum for any multipliers, at the optimum for the optimal ones."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from hetopt.arena.lagrangian import dual_bound
from hetopt.solvers import solve_lp_duals


def _random_lp(seed):
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(2, 8)), int(rng.integers(2, 8))
    A = rng.uniform(-1, 1, (m, n)) * (rng.random((m, n)) < 0.7)
    x0 = rng.uniform(0, 1, n)  # a feasible point
    slack = rng.uniform(0, 1, m)
    lo = np.where(rng.random(m) < 0.5, A @ x0 - slack, -np.inf)
    hi = np.where(np.isinf(lo) | (rng.random(m) < 0.3), A @ x0 + slack, np.inf)
    c = rng.uniform(-1, 1, n)
    return c, sp.csc_matrix(A), lo, hi, np.zeros(n), np.full(n, 2.0)


def _optimum(c, A, lo, hi, cl, cu):
    Ad = A.toarray()
    up, low = np.isfinite(hi), np.isfinite(lo)
    res = linprog(c, A_ub=np.vstack([Ad[up], -Ad[low]]), b_ub=np.concatenate([hi[up], -lo[low]]),
                  bounds=list(zip(cl, cu, strict=True)), method="highs")
    assert res.status == 0
    return res.fun


@settings(derandomize=True, deadline=None, max_examples=30)
@given(seed=st.integers(0, 2**31 - 1), scale=st.sampled_from([1e-8, 1.0, 1e8]))
def test_any_multipliers_give_a_bound(seed, scale):
    c, A, lo, hi, cl, cu = _random_lp(seed)
    best = _optimum(c, A, lo, hi, cl, cu)
    rng = np.random.default_rng(seed + 1)
    for y in (np.zeros(A.shape[0]), rng.normal(size=A.shape[0]) * scale, rng.normal(size=A.shape[0])):
        assert dual_bound(c, A, lo, hi, cl, cu, y) <= best + 1e-12 * max(1.0, abs(best))
    out = solve_lp_duals(c, A, lo, hi, cl, cu)
    tight = dual_bound(c, A, lo, hi, cl, cu, out.row_dual)
    assert tight <= best + 1e-12 * max(1.0, abs(best))
    assert tight == pytest.approx(best, rel=1e-7, abs=1e-9)


def test_infinite_column_bounds():
    A = sp.csc_matrix(np.array([[1.0, 1.0]]))
    c = np.array([1.0, 2.0])
    # the optimal duals leave x1's reduced cost at 0 up to rounding: with x1 unbounded above its sign is
    # unproven and the bound is -inf; with a finite bound (the fluid LPs give every column one) it is the optimum
    y = np.array([1.0])
    assert dual_bound(c, A, np.array([1.0]), np.array([np.inf]), np.zeros(2), np.full(2, np.inf), y) == -math.inf
    b = dual_bound(c, A, np.array([1.0]), np.array([np.inf]), np.zeros(2), np.full(2, 1e3), y)
    assert b == pytest.approx(1.0, rel=1e-9) and b <= 1.0
    # multipliers that make a reduced cost negative on an unbounded column prove nothing
    assert dual_bound(c, A, np.array([1.0]), np.array([np.inf]), np.zeros(2), np.full(2, np.inf),
                      np.array([3.0])) == -math.inf
    # a multiplier on an infinite side is dropped, NaN counts as 0
    for y in (np.array([-5.0]), np.array([np.nan])):
        b = dual_bound(c, A, np.array([1.0]), np.array([np.inf]), np.zeros(2), np.ones(2), y)
        assert -1e-13 < b <= 0.0
