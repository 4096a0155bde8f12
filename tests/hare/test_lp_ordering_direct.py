"""The round-level LP of ``lp_ordering`` goes to HiGHS directly, as CVXPY's conic interface would hand it.

The reference is the former route, kept here: the same LP stated in CVXPY and solved by
``hetopt.solvers.solve_problem``.  Every LP solve of ``lp_ordering`` (each separation round) must give
the same optimal point and optimum to the bit, and HiGHS must receive the same arrays.
"""

from __future__ import annotations

import sys

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

from hetopt.hare import generate_instance, lp_ordering
from hetopt.solvers import solve_problem

LP = sys.modules["hetopt.hare.lp_ordering"]


def _cvxpy_route(cost, G, h):
    v = cp.Variable(G.shape[1])
    prob = cp.Problem(cp.Minimize(cost @ v), [G @ v >= h])
    res = solve_problem(prob, "HIGHS")
    return res, np.asarray(v.value, dtype=float), prob


def _record(route, calls):
    def solve(cost, G, h):
        res, v = route(cost, G, h)[:2]
        calls.append((res.objective, res.bound, res.status, v.copy()))
        return res, v
    return solve


@pytest.mark.parametrize("seed,n_jobs", [(0, 4), (1, 8), (2, 15), (5, 30)])
def test_every_lp_solve_equals_the_cvxpy_route(monkeypatch, seed, n_jobs):
    inst = generate_instance(n_jobs=n_jobs, seed=seed)
    direct: list = []
    with monkeypatch.context() as m:
        m.setattr(LP, "_solve_lp", _record(LP._solve_lp, direct))
        fast = lp_ordering(inst)
    ref: list = []
    with monkeypatch.context() as m:
        m.setattr(LP, "_solve_lp", _record(_cvxpy_route, ref))
        slow = lp_ordering(inst)
    assert len(direct) == len(ref) == fast.iterations
    for (o1, b1, s1, v1), (o2, b2, s2, v2) in zip(direct, ref, strict=True):
        assert (o1, b1, s1) == (o2, b2, s2)
        assert np.array_equal(v1, v2)
    assert np.array_equal(fast.x_hat, slow.x_hat) and np.array_equal(fast.H, slow.H)
    assert (fast.objective, fast.bound, fast.cuts) == (slow.objective, slow.bound, slow.cuts)


def test_highs_gets_the_arrays_cvxpy_builds():
    rng = np.random.default_rng(3)
    G = sp.csr_matrix(np.where(rng.random((12, 9)) < 0.3, rng.normal(size=(12, 9)), 0.0))
    h, cost = rng.normal(size=12), rng.random(9)
    v = cp.Variable(9)
    data = cp.Problem(cp.Minimize(cost @ v), [G @ v >= h]).get_problem_data(cp.HIGHS)[0]
    A = sp.csc_matrix(-G)
    A.sort_indices()
    ref = data["A"].tocsc()
    assert np.array_equal(ref.indptr, A.indptr) and np.array_equal(ref.indices, A.indices)
    assert np.array_equal(ref.data, A.data) and np.array_equal(data["b"], -h) and np.array_equal(data["c"], cost)
    assert data["lower_bounds"] is None and data["upper_bounds"] is None  # free columns, as _solve_lp states them


def test_an_unbounded_lp_is_an_error():
    from hetopt.errors import SolverError

    with pytest.raises(SolverError, match="round-level LP"):
        LP._solve_lp(np.array([1.0]), sp.csr_matrix(np.array([[-1.0]])), np.array([0.0]))


def test_a_repeated_lp_returns_the_first_answer_as_a_copy(monkeypatch):
    monkeypatch.setattr(LP, "_LP_MEMO", type(LP._LP_MEMO)())
    G = sp.csr_matrix(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))
    h, cost = np.array([1.0, 2.0, 4.0]), np.array([1.0, 3.0])
    first, v1 = LP._solve_lp(cost, G, h)
    v1[:] = -7.0
    again, v2 = LP._solve_lp(cost, G, h.copy())
    assert again is first and len(LP._LP_MEMO) == 1
    assert np.array_equal(v2, [2.0, 2.0]) and again.objective == 8.0
    other, _ = LP._solve_lp(cost, G, np.array([1.0, 2.0, 5.0]))  # another right-hand side: solved anew
    assert other.objective == 9.0 and len(LP._LP_MEMO) == 2
