"""Gavel's packed LPs handed to ECOS directly: the arrays CVXPY builds, without CVXPY.

Each builder writes the cone program ``(c, G, h, A, b)`` that ``problem.get_problem_data(cp.ECOS)`` returns for
the problem as :mod:`hetopt.gavel.packing` poses it, to the last bit (``tests/gavel/test_fastlp_packed.py``
compares the arrays), with its coefficients from the same numpy expressions; ``x`` is the ``(J + P) x R``
allocation of the jobs and the pairs in column order.  :func:`mmf_packed_lp`: ``max_min_fairness_packed``
(``(t, x)``, the epigraph rows, then the base rows, and ``A x = 0`` for the entries of pairs whose scale factors
differ); :func:`mtd_packed_lp`: the feasibility LPs of ``min_total_duration_packed``'s bisection (only ``h``
depends on ``mid``); :func:`mst_packed_lp`: ``max_sum_throughput_normalized_by_cost_packed_slos`` without SLOs;
:func:`ftf_packed_lp`: ``finish_time_fairness_packed`` (two jobs or more; its ``inv_pos`` SOC rows as ``ftf_lp``'s);
:func:`wf_packed_lp`: each LP of ``max_min_fairness_water_filling_packed`` (its loop and MILP: ``packing``'s).
The base rows: ``-x <= 0``, ``sum_k s_k x_kr <= c_r`` (zero scale factors left out), one ``<= 1`` row per job.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ..errors import SolverError
from . import packing
from .fastlp import HAS_SOLUTION, OPTIMAL, ConeLP, _csc, expected_isolated, solve
from .inputs import required_vector
from .lp import BISECTION_BRACKET, BISECTION_RATIO, gavel_isolated_throughput, gavel_proportional_throughput
from .packing import PackedProblem, packed_problem

__all__ = ["mmf_packed_lp", "max_min_fairness_packed", "mtd_packed_lp", "min_total_duration_packed", "mst_packed_lp",
           "max_sum_throughput_normalized_by_cost_packed_slos", "ftf_packed_lp", "FinishTimeFairnessPacked",
           "finish_time_fairness_packed", "wf_packed_lp", "max_min_fairness_water_filling_packed", "FAST_PACKED"]


def _zero_eq(lp: ConeLP, pp: PackedProblem, col0: int) -> ConeLP:
    """``A x = 0`` for the entries of the rows of scale factor 0 (``packing._zero_rows``), in (row, type) order."""
    zi, zr = np.nonzero(pp.sfa == 0)
    if zi.size:
        lp.a_data, lp.a_indices, lp.a_indptr = _csc(lp.c.size, np.arange(zi.size), col0 + zi + zr * pp.rows,
                                                    np.ones(zi.size))
        lp.b = np.zeros(zi.size)
    return lp


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
    return _zero_eq(ConeLP(c, data, indices, indptr, n_rows, h, n_rows, [], 1, (m, R)), pp, 1)


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


def _base_rows(pp: PackedProblem) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray], np.ndarray]:
    """``-x <= 0``, the capacity rows (zero scale factors left out), one ``<= 1`` row per job; their ``h``."""
    J, R = pp.T.shape
    m = pp.rows
    nx = m * R
    kk = np.arange(nx)
    sf = pp.sfa[kk % m, kk // m]
    nz = sf != 0
    jr, jc, jv = _job_rows(pp, m, R, nx + R)
    h = np.concatenate([np.zeros(nx), [float(v) for v in pp.c], np.ones(J)])
    return [kk, nx + (kk // m)[nz], *jr], [kk, kk[nz], *jc], [np.full(nx, -1.0), sf[nz], *jv], h


def mtd_packed_lp(pp: PackedProblem) -> ConeLP:
    """The feasibility LP of ``min_total_duration_packed``; at ``mid``, ``h[-J:] = -(steps / mid)`` (0 here)."""
    J, R = pp.T.shape
    m = pp.rows
    nx = m * R
    rows, cols, vals, h = _base_rows(pp)
    for i in range(J):
        rel = np.asarray(pp.relevant[i])
        coef = pp.all_m[i][pp.relevant[i]]
        k, r = np.nonzero(coef)
        rows.append(np.full(k.size, nx + R + J + i))
        cols.append(rel[k] + r * m)
        vals.append(-coef[k, r].astype(np.float64))
    data, indices, indptr = _csc(nx, np.concatenate(rows), np.concatenate(cols), np.concatenate(vals))
    h = np.concatenate([h, np.zeros(J)])
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


def mst_packed_lp(pp: PackedProblem, cost: np.ndarray | None) -> ConeLP:
    """The LP of ``max_sum_throughput_normalized_by_cost_packed_slos`` without SLOs (``cost``: per type, or None)."""
    J, R = pp.T.shape
    m = pp.rows
    costs = np.ones((m, R))
    if cost is not None:
        costs[:, :] = cost[None, :]
    where, what = [], []
    for i in range(J):  # job by job, as the objective's terms: a pair's entry adds its two jobs' in order
        rel = np.asarray(pp.relevant[i])
        coef = pp.all_m[i][pp.relevant[i]] / costs[pp.relevant[i]]
        where.append((rel[:, None] + np.arange(R)[None, :] * m).ravel())
        what.append(coef.ravel())
    total = np.zeros(m * R)
    np.add.at(total, np.concatenate(where), np.concatenate(what))
    rows, cols, vals, h = _base_rows(pp)
    data, indices, indptr = _csc(m * R, np.concatenate(rows), np.concatenate(cols), np.concatenate(vals))
    return ConeLP(0.0 - total, data, indices, indptr, h.size, h, h.size, [], 0, (m, R))


def max_sum_throughput_normalized_by_cost_packed_slos(throughput: Any, scale_factor: Any, capacity: Any,
                                                      priority_weight: Any = None, *, pairs: Any = None,
                                                      pair_throughput: Any = None, instance_costs: Any = None,
                                                      remaining_steps: Any = None, time_to_slo: Any = None,
                                                      gpu_types: Any = None) -> np.ndarray:
    """The packed cost-normalized throughput sum without CVXPY when no job has an SLO (the same allocation).

    With SLOs, or with ``priority_weight``, :func:`hetopt.gavel.packing.max_sum_throughput_normalized_by_cost_packed_slos`
    itself.
    """
    from ..gavel.variants import instance_cost_vector

    slos = time_to_slo is not None and bool(np.any(np.isfinite(np.asarray(time_to_slo, dtype=float))))
    if priority_weight is not None or slos:
        return packing.max_sum_throughput_normalized_by_cost_packed_slos(
            throughput, scale_factor, capacity, priority_weight, pairs=pairs, pair_throughput=pair_throughput,
            instance_costs=instance_costs, remaining_steps=remaining_steps, time_to_slo=time_to_slo,
            gpu_types=gpu_types)
    pp = packed_problem(throughput, scale_factor, capacity, None, pairs=pairs, pair_throughput=pair_throughput)
    if time_to_slo is not None and np.shape(time_to_slo) != (pp.T.shape[0],):  # refused there, with its message
        return packing.max_sum_throughput_normalized_by_cost_packed_slos(
            throughput, scale_factor, capacity, None, pairs=pairs, pair_throughput=pair_throughput,
            instance_costs=instance_costs, remaining_steps=remaining_steps, time_to_slo=time_to_slo,
            gpu_types=gpu_types)
    flag, x, _ = solve(mst_packed_lp(pp, instance_cost_vector(instance_costs, gpu_types, pp.T.shape[1])))
    if flag not in HAS_SOLUTION or x is None:
        raise SolverError("ecos returned no packed allocation")
    return np.asarray(x, dtype=float).clip(min=0.0).clip(max=1.0)


def ftf_packed_lp(pp: PackedProblem, since: np.ndarray, steps: np.ndarray, expected_iso: np.ndarray) -> ConeLP:
    """``FinishTimeFairnessPolicyWithPacking`` (two jobs or more): ``min max_i (since_i + steps_i / rate_i) / iso_i``.

    Variables ``(t, x, u)``, ``u_i >= 1 / rate_i``, ``rate_i = sum_{k in rows(i), r} all_m[i, k, r] x_kr``: the
    epigraph rows ``-t + (steps_i / iso_i) u_i <= -since_i / iso_i``, the base rows, one 3-dimensional cone per job
    ``(rate_i + u_i, rate_i - u_i, 2)`` (as :func:`hetopt.gavel.fastlp.ftf_lp`), and ``A x = 0`` for the rows held at 0.
    """
    J, R = pp.T.shape
    m = pp.rows
    nx = m * R
    cu = 1 + nx + np.arange(J)  # the u columns
    inv = 1.0 / expected_iso  # CVXPY divides by a constant as a product with its inverse
    rows: list[np.ndarray] = [np.arange(J), np.arange(J)]
    cols: list[np.ndarray] = [np.zeros(J, dtype=np.int64), cu]
    vals: list[np.ndarray] = [np.full(J, -1.0), steps * inv]
    br, bc, bv, h = _base_rows(pp)
    rows += [J + r for r in br]
    cols += [1 + k for k in bc]
    vals += bv
    n_lin = J + h.size
    for i in range(J):
        rel = np.asarray(pp.relevant[i])
        coef = pp.all_m[i][pp.relevant[i]]
        k, r = np.nonzero(coef)
        v = -coef[k, r].astype(np.float64)
        rows += [np.full(k.size, n_lin + 3 * i), np.full(k.size, n_lin + 3 * i + 1)]
        cols += [1 + rel[k] + r * m] * 2
        vals += [v, v]
    rows += [n_lin + 3 * np.arange(J), n_lin + 3 * np.arange(J) + 1]
    cols += [cu, cu]
    vals += [np.full(J, -1.0), np.ones(J)]
    data, indices, indptr = _csc(1 + nx + J, np.concatenate(rows), np.concatenate(cols), np.concatenate(vals))
    c = np.zeros(1 + nx + J)
    c[0] = 1.0
    h = np.concatenate([-(since * inv), h, np.tile([0.0, 0.0, 2.0], J)])
    return _zero_eq(ConeLP(c, data, indices, indptr, n_lin + 3 * J, h, n_lin, [3] * J, 1, (m, R)), pp, 1)


class FinishTimeFairnessPacked(packing.FinishTimeFairnessPacked):
    """:class:`hetopt.gavel.packing.FinishTimeFairnessPacked` without CVXPY (the same state, the same program).

    One job (an objective without a maximum) or ``job_ids`` of another length: the parent itself.
    """

    def __call__(self, throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                 times_since_start=None, pairs=None, pair_throughput=None,
                 job_ids: Any = None) -> np.ndarray:
        """The allocation of the jobs and pairs given, as the parent computes it."""
        pp = packed_problem(throughput, scale_factor, capacity, priority_weight, pairs=pairs,
                            pair_throughput=pair_throughput)
        J = pp.T.shape[0]
        if J == 1 or (job_ids is not None and len(job_ids) != J):
            return super().__call__(throughput, scale_factor, capacity, priority_weight,
                                    remaining_steps=remaining_steps, times_since_start=times_since_start,
                                    pairs=pairs, pair_throughput=pair_throughput, job_ids=job_ids)
        steps = required_vector("remaining_steps", remaining_steps, J)
        since = required_vector("times_since_start", times_since_start, J)
        ids = list(range(J)) if job_ids is None else [int(j) for j in job_ids]
        iso = gavel_isolated_throughput(pp.T, pp.s, pp.c)
        flag, x, _ = solve(ftf_packed_lp(pp, since, steps, expected_isolated(self, ids, steps, iso)))
        if flag not in HAS_SOLUTION or x is None:
            return packing.isolated_packed(pp)
        return np.asarray(x, dtype=float).clip(min=0.0).clip(max=1.0)


def finish_time_fairness_packed(throughput: Any, scale_factor: Any, capacity: Any, priority_weight: Any = None, *,
                                remaining_steps: Any = None, times_since_start: Any = None, pairs: Any = None,
                                pair_throughput: Any = None) -> np.ndarray:
    """:func:`hetopt.gavel.packing.finish_time_fairness_packed` without CVXPY."""
    return FinishTimeFairnessPacked()(throughput, scale_factor, capacity, priority_weight,
                                      remaining_steps=remaining_steps, times_since_start=times_since_start,
                                      pairs=pairs, pair_throughput=pair_throughput)


def wf_packed_lp(pp: PackedProblem, inv_prop: np.ndarray, so_far: np.ndarray, mult: np.ndarray, add: np.ndarray,
                 lower: np.ndarray) -> ConeLP:
    """One LP of ``max_min_fairness_water_filling_packed``: ``max min_i mult_i (n_i - so_far_i) + add_i``, ``n >= lower``.

    ``n_i = inv_prop_i rate_i``.  Variables ``(t, x)``: the epigraph rows ``-t - mult_i n_i <= add_i - mult_i
    so_far_i`` (no entries where ``mult_i = 0``), the base rows, then ``-n_i <= -lower_i`` (no ``A x = 0``: Gavel's
    water filling does not hold the rows of scale factor 0).
    """
    J, R = pp.T.shape
    m = pp.rows
    nx = m * R
    br, bc, bv, h = _base_rows(pp)
    rows: list[np.ndarray] = [np.arange(J)]
    cols: list[np.ndarray] = [np.zeros(J, dtype=np.int64)]
    vals: list[np.ndarray] = [np.full(J, -1.0)]
    rows += [J + r for r in br]
    cols += [1 + k for k in bc]
    vals += bv
    n_lin = J + h.size
    for i in range(J):
        rel = np.asarray(pp.relevant[i])
        coef = pp.all_m[i][pp.relevant[i]]
        k, r = np.nonzero(coef)
        norm = inv_prop[i] * coef[k, r].astype(np.float64)  # CVXPY's product of the diagonal operators
        obj = mult[i] * norm
        keep = obj != 0
        rows += [np.full(int(keep.sum()), i), np.full(k.size, n_lin + i)]
        cols += [1 + rel[k[keep]] + r[keep] * m, 1 + rel[k] + r * m]
        vals += [-obj[keep], -norm]
    data, indices, indptr = _csc(1 + nx, np.concatenate(rows), np.concatenate(cols), np.concatenate(vals))
    c = np.zeros(1 + nx)
    c[0] = 1.0
    h = np.concatenate([(0.0 - so_far) * mult + add, h, 0.0 - lower])  # +0.0 where lower is 0, as CVXPY writes it
    return ConeLP(c, data, indices, indptr, n_lin + J, h, n_lin + J, [], 1, (m, R))


def _wf_lp(pp: PackedProblem, prop: np.ndarray, so_far: np.ndarray, mult: np.ndarray, add: np.ndarray,
           lower: np.ndarray) -> tuple[np.ndarray | None, float]:
    """:func:`hetopt.gavel.packing._water_filling_lp` without CVXPY: ``(x or None, the problem's value)``.

    CVXPY's ``problem.value`` is its objective evaluated at ``x`` (not ECOS's cost): the same numpy operations here.
    """
    J = pp.T.shape[0]
    inv_prop = 1.0 / prop.reshape(J)
    flag, x, _ = solve(wf_packed_lp(pp, inv_prop, so_far, mult, add, lower))
    if flag not in HAS_SOLUTION or x is None:
        return None, float("nan")
    eff = np.array([np.sum(np.multiply(pp.all_m[i][pp.relevant[i]], x[pp.relevant[i]])) for i in range(J)])
    value = float(np.min(np.multiply(np.multiply(eff, inv_prop) - so_far, mult) + add))
    return np.asarray(x, dtype=float), value


def max_min_fairness_water_filling_packed(throughput: Any, scale_factor: Any, capacity: Any,
                                          priority_weight: Any = None, *, pairs: Any = None,
                                          pair_throughput: Any = None, bottleneck_solver: str | None = None
                                          ) -> np.ndarray:
    """:func:`hetopt.gavel.packing.max_min_fairness_water_filling_packed`, its LPs without CVXPY (the MILP by CVXPY)."""
    from .variants import _wf_solver

    solver = _wf_solver(bottleneck_solver)
    pp = packed_problem(throughput, scale_factor, capacity, None, pairs=pairs, pair_throughput=pair_throughput)
    return packing.water_filling_packed(pp, priority_weight, solver, _wf_lp)


#: The packed policies with a direct version (as :data:`hetopt.gavel.fastlp.FAST`).
FAST_PACKED = {"max_min_fairness_packed": (max_min_fairness_packed, None),
               "min_total_duration_packed": (min_total_duration_packed, None),
               "max_sum_throughput_normalized_by_cost_packed_slos": (max_sum_throughput_normalized_by_cost_packed_slos,
                                                                     None),
               "finish_time_fairness_packed": (finish_time_fairness_packed,
                                               lambda seed: FinishTimeFairnessPacked()),
               "max_min_fairness_water_filling_packed": (max_min_fairness_water_filling_packed, None)}
