"""Gavel's strategy-proof max-min fairness handed to ECOS directly: the cone program CVXPY builds for ``cp.geo_mean``.

``max geo_mean(coef_i . x_i)`` s.t. the base constraints, as :func:`hetopt.gavel.variants.max_min_fairness_strategy_proof`
poses it: CVXPY (``GeoMeanApprox``) writes the geometric mean of ``k`` terms as a tree of 3-dimensional second-order
cones over the dyadic completion of the weights ``(1/k, ..., 1/k)`` (``cvxpy.utilities.power_tools``: ``fracify``,
``dyad_completion``, ``decompose``, ``gm_constrs``; the tree is computed once per ``k`` by those same functions).
:func:`geo_mean_lp` writes ``(c, G, h, dims)`` as ``problem.get_problem_data(cp.ECOS)`` returns them, to the last bit
(``tests/gavel/test_fastlp_more.py``), and ECOS solves them as CVXPY calls it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from ..errors import SolverError
from . import variants
from .fastlp import ConeLP, _base, _csc, _mmf_coef, solve
from .inputs import check_policy_inputs

__all__ = ["gm_tree", "geo_mean_lp", "max_min_fairness_strategy_proof", "FAST_MORE"]

_T = -1  # the epigraph variable t in a node of gm_tree (x rows are 0..k-1, auxiliary variables k + 0, 1, ...)


@cache
def gm_tree(k: int) -> tuple[tuple[tuple[int, int, int], ...], tuple[int, ...]]:
    """CVXPY's cones for ``geo_mean`` of ``k >= 2`` terms: ``((node, left, right), ...)`` and the column order.

    Each cone is ``gm(node, left, right)``: ``(left + right, left - right, 2 node)`` in the cone, in the order of
    ``gm_constrs``.  A node is ``_T``, a term ``0..k-1`` (the slots of the dyadic completion beyond ``k`` are ``t``
    itself), or an auxiliary variable ``k + j``.  The column order lists ``_T``, then every auxiliary variable and
    the allocation (``k``, as one block: ``-2``) in their order of first appearance, as CVXPY orders its variables.
    """
    from cvxpy.utilities.power_tools import decompose, dyad_completion, fracify

    w, _ = fracify([1] * k, 1024)
    w_dyad = dyad_completion(w)
    tree = decompose(w_dyad)
    node: dict[Any, int] = {tuple(w_dyad): _T}
    for i, p in enumerate(w_dyad):
        if p > 0:
            unit = [0] * len(w_dyad)
            unit[i] = 1
            node[tuple(unit)] = i if i < k else _T

    def of(elem: Any) -> int:
        if elem not in node:
            node[elem] = k + sum(1 for v in node.values() if v >= k)
        return node[elem]

    cones = []
    for elem, children in tree.items():
        if 1 not in elem:
            cones.append((of(elem), of(children[0]), of(children[1])))
    order = [_T]
    for e, a, b in cones:
        for v in (a, b, e):
            block = -2 if 0 <= v < k else v
            if block not in order:
                order.append(block)
    if -2 not in order:
        order.append(-2)
    return tuple(cones), tuple(order)


def geo_mean_lp(coef: np.ndarray, sfa: np.ndarray, cap: list[float]) -> ConeLP:
    """``max geo_mean(sum_r coef_ir x_ir)`` s.t. the base constraints (``k >= 2`` jobs): ECOS's arrays as CVXPY's.

    Rows: the base rows (``-x <= 0``, capacity, one ``<= 1`` per job), then three per cone of :func:`gm_tree`:
    ``-(l + r)``, ``-(l - r)``, ``-2 node`` (``h = 0``), a term ``i`` being ``coef_i . x_i`` (zero coefficients left
    out).  ``c``: ``-1`` on ``t``.
    """
    k, n = coef.shape
    cones, order = gm_tree(k)
    col = np.zeros(k + len(order) + 1, dtype=np.int64)  # a node's column (index node + 1; the terms' unused)
    at = 0
    for v in order:
        if v != -2:
            col[v + 1] = at
        at += k * n if v == -2 else 1
    n_cols = at
    x0 = int(sum(k * n if v == -2 else 1 for v in order[:order.index(-2)]))
    rows, cols, vals, h = _base(k, n, sfa, cap, 0, x0)
    n_lin = k * n + n + k
    kk = np.arange(k * n)
    nz = kk[coef[kk % k, kk // k] != 0]
    by_job = nz[np.argsort(nz % k, kind="stable")]  # the nonzero entries of x, job by job
    count = np.bincount(nz % k, minlength=k)
    first = np.cumsum(count) - count
    cone = np.asarray(cones, dtype=np.int64).reshape(-1, 3)
    r0 = n_lin + 3 * np.arange(len(cones))
    for node, row, sign in ((cone[:, 1], r0, -1.0), (cone[:, 2], r0, -1.0), (cone[:, 1], r0 + 1, -1.0),
                            (cone[:, 2], r0 + 1, 1.0), (cone[:, 0], r0 + 2, -2.0)):
        term = (node >= 0) & (node < k)
        rows.append(row[~term])
        cols.append(col[node[~term] + 1])
        vals.append(np.full(int((~term).sum()), sign))
        jobs, cnt = node[term], count[node[term]]
        ent = by_job[np.repeat(first[jobs], cnt) + np.arange(cnt.sum()) - np.repeat(np.cumsum(cnt) - cnt, cnt)]
        rows.append(np.repeat(row[term], cnt))
        cols.append(x0 + ent)
        vals.append(sign * coef[ent % k, ent // k])
    data, indices, indptr = _csc(n_cols, np.concatenate(rows), np.concatenate(cols), np.concatenate(vals))
    c = np.zeros(n_cols)
    c[col[_T + 1]] = -1.0
    n_rows = n_lin + 3 * len(cones)
    return ConeLP(c, data, indices, indptr, n_rows, np.array(h + [0.0] * (3 * len(cones))), n_lin,
                  [3] * len(cones), x0, (k, n))


def max_min_fairness_strategy_proof(throughput, scale_factor, capacity, priority_weight=None, *,
                                    return_discounts: bool = False) -> Any:
    """:func:`hetopt.gavel.variants.max_min_fairness_strategy_proof` without CVXPY (the same programs and discounts).

    A program of one job (``geo_mean`` of one term is that term: an LP) is posed by CVXPY as there.
    """
    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    m, n = T.shape
    if m < 3:  # every program has one job or two; the one-job LPs are CVXPY's
        return variants.max_min_fairness_strategy_proof(throughput, scale_factor, capacity, priority_weight,
                                                        return_discounts=return_discounts)
    w = np.ones(m) if w is None else w
    cap = [float(v) for v in c]

    def program(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        Tr = T[rows]
        coef, sfa = _mmf_coef(Tr, s[rows], c, w[rows])
        flag, x, _ = solve(geo_mean_lp(coef, sfa, cap))
        if x is None:
            raise SolverError(f"ecos returned no allocation for the strategy-proof LP (exit flag {flag})")
        X = np.asarray(x, dtype=float)
        return X, np.sum(np.multiply(Tr, X), axis=1)

    X, rho = program(np.arange(m))
    discounts = np.ones(m)
    for j in range(m):
        others = np.array([k for k in range(m) if k != j])
        _, rho_minus = program(others)
        for pos, k in enumerate(others):
            discounts[j] *= rho[k] / rho_minus[pos]
    out = np.multiply(X.T, discounts).T.clip(min=0.0).clip(max=1.0)
    return (out, discounts) if return_discounts else out


#: The direct versions of this module (as :data:`hetopt.gavel.fastlp.FAST`).
FAST_MORE: dict[str, tuple[Callable[..., Any], None]] = {
    "max_min_fairness_strategy_proof": (max_min_fairness_strategy_proof, None)}
