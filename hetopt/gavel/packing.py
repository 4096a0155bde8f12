"""Gavel's space-sharing (``_packed``) policies that solve LPs: allocations over single jobs and pairs of jobs.

:func:`packed_problem` builds the ``J + P`` rows (single jobs, then pairs) with Gavel's
single-precision throughputs; the policies pose Gavel's ``*_Packing`` LPs and solve them by ECOS:
:func:`max_min_fairness_packed`, :class:`FinishTimeFairnessPacked` /
:func:`finish_time_fairness_packed`, :func:`min_total_duration_packed` (bisection),
:func:`max_sum_throughput_normalized_by_cost_packed_slos`, :func:`max_min_fairness_water_filling_packed`.
FIFO and Gandiva with packing are in :mod:`hetopt.gavel.packing_greedy`; the rows and constraints
are described in the card (models/gavel.md).

Reference: stanford-futuredata/gavel (commit c4fa400), ``scheduler/policies/policy.py``
(``PolicyWithPacking``), ``max_min_fairness.py``, ``finish_time_fairness.py``,
``min_total_duration.py``, ``max_sum_throughput.py``, ``max_min_fairness_water_filling.py``; MIT.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ArgumentError, SolverError
from ..inputs import check_size, numeric_array
from ..solvers import solve_problem
from .inputs import check_policy_inputs, required_vector
from .lp import (
    BISECTION_BRACKET,
    BISECTION_RATIO,
    gavel_isolated_share,
    gavel_isolated_throughput,
    gavel_proportional_throughput,
)

__all__ = ["PackedProblem", "packed_problem", "max_min_fairness_packed", "FinishTimeFairnessPacked",
           "finish_time_fairness_packed", "min_total_duration_packed",
           "max_sum_throughput_normalized_by_cost_packed_slos", "max_min_fairness_water_filling_packed",
           "water_filling_packed", "pair_rows"]


@dataclass(frozen=True)
class PackedProblem:
    """Gavel's flattened packing data (``PolicyWithPacking.flatten``) for ``J`` jobs and ``P`` pairs.

    Attributes
    ----------
    T : numpy.ndarray (J, R)
        Single-job throughputs.
    s, c : numpy.ndarray
        Scale factors (J,), GPUs per type (R,).
    pairs : list of (int, int)
        The pairs (rows ``J..J+P-1``).
    all_m : numpy.ndarray float32 (J, J + P, R)
        ``all_m[i, k, r]``: job ``i``'s steps/s in row ``k`` on type ``r`` (0 where it is not in the row),
        divided by its priority weight when weights are given.
    relevant : list of list of int
        Rows that contain each job: its own, then its pairs.
    sfa : numpy.ndarray (J + P, R)
        Each row's scale factor (0 for a pair of different scale factors).
    pair_thr : numpy.ndarray (P, R, 2)
        The pairs' throughputs as given (double precision).
    """

    T: np.ndarray
    s: np.ndarray
    c: np.ndarray
    pairs: list[tuple[int, int]]
    all_m: np.ndarray
    relevant: list[list[int]]
    sfa: np.ndarray
    pair_thr: np.ndarray

    @property
    def rows(self) -> int:
        """``J + P``."""
        return self.T.shape[0] + len(self.pairs)


def _pairs(pairs: Any, pair_throughput: Any, J: int, R: int) -> tuple[list[tuple[int, int]], np.ndarray]:
    if pairs is None:
        raise ArgumentError("pairs is required by a packed policy: a list of (a, b) row pairs, a < b")
    if not isinstance(pairs, Sequence | np.ndarray) or isinstance(pairs, str):
        raise ArgumentError(f"pairs is {pairs!r:.60}; expected a list of (a, b) row pairs, a < b")
    out = []
    for p in pairs:
        if not isinstance(p, Sequence | np.ndarray) or len(p) != 2:
            raise ArgumentError(f"pairs has {p!r}; expected (a, b) row indices")
        a, b = p
        if any(isinstance(v, bool) or not isinstance(v, int | np.integer) for v in (a, b)) or \
                not 0 <= int(a) < int(b) < J:
            raise ArgumentError(f"pairs has {p!r}; expected row indices 0 <= a < b < {J}")
        out.append((int(a), int(b)))
    if sorted(out) != out or len(set(out)) != len(out):
        raise ArgumentError("pairs must be distinct and sorted (Gavel's row order)")
    P = np.zeros((0, R, 2)) if not out else numeric_array("pair_throughput", pair_throughput)
    if P.shape != (len(out), R, 2) or not np.all(np.isfinite(P)) or np.any(P < 0):
        raise ArgumentError(f"pair_throughput has shape {P.shape} or a bad entry; expected ({len(out)}, {R}, 2) "
                            "finite steps/s >= 0")
    return out, P


def packed_problem(throughput, scale_factor, capacity, priority_weight=None, *, pairs=None,
                   pair_throughput=None) -> PackedProblem:
    """The flattened packing data of Gavel's ``PolicyWithPacking.flatten`` (inputs checked)."""
    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    J, R = T.shape
    plist, P = _pairs(pairs, pair_throughput, J, R)
    rows = J + len(plist)
    all_m = np.zeros((J, rows, R), dtype=np.float32)
    relevant: list[list[int]] = [[i] for i in range(J)]
    for i in range(J):
        all_m[i, i, :] = T[i]
    for k, (a, b) in enumerate(plist):
        relevant[a].append(J + k)
        relevant[b].append(J + k)
        all_m[a, J + k, :] = P[k, :, 0]
        all_m[b, J + k, :] = P[k, :, 1]
    if w is not None:
        for i in range(J):
            all_m[i] /= w[i]
    sfa = np.zeros((rows, R))
    for i in range(J):
        sfa[i, :] = s[i]
    for k, (a, b) in enumerate(plist):
        sfa[J + k, :] = s[a] if s[a] == s[b] else 0
    return PackedProblem(T, s, c, plist, all_m, relevant, sfa, P)


def pair_rows(pp: PackedProblem) -> list[list[int]]:
    """Each job's relevant rows (alias of ``pp.relevant``)."""
    return pp.relevant


def _base_constraints(x, pp: PackedProblem) -> list:
    """``PolicyWithPacking.get_base_constraints`` (and the rows of scale factor 0 held at 0)."""
    import cvxpy as cp

    cons = [x >= 0, cp.sum(cp.multiply(pp.sfa, x), axis=0) <= np.array([float(v) for v in pp.c])]
    J = pp.T.shape[0]
    counts = {len(r) for r in pp.relevant}
    if len(counts) == 1:  # Gavel's reshape groups the rows by job only when every job has as many
        idx = [k for r in pp.relevant for k in r]
        xv = x[idx]
        xv = cp.reshape(xv, (J, int(np.prod(xv.shape) / J)), order="C")
        cons.append(cp.sum(xv, axis=1) <= 1)
    else:
        cons += [cp.sum(x[r]) <= 1 for r in pp.relevant]
    return cons


def _zero_rows(x, pp: PackedProblem) -> list:
    return [x[i, j] == 0 for i in range(pp.rows) for j in range(pp.T.shape[1]) if pp.sfa[i, j] == 0]


def isolated_packed(pp: PackedProblem) -> np.ndarray:
    """Every job on its isolated share (Gavel's ``IsolatedPolicy``), no pair: finish-time fairness's fallback."""
    out = np.zeros((pp.rows, pp.T.shape[1]))
    out[:pp.T.shape[0]] = gavel_isolated_share(pp.c, pp.sfa[:pp.T.shape[0]])
    return out


def _clipped(x) -> np.ndarray:
    if x.value is None:
        raise SolverError("ecos returned no packed allocation")
    return np.asarray(x.value, dtype=float).clip(min=0.0).clip(max=1.0)


def max_min_fairness_packed(throughput, scale_factor, capacity, priority_weight=None, *, pairs=None,
                            pair_throughput=None) -> np.ndarray:
    """``MaxMinFairnessPolicyWithPacking``: max-min of each job's normalized throughput over its rows (ECOS).

    Returns
    -------
    numpy.ndarray, shape (J + P, R)
    """
    import cvxpy as cp
    import scipy.sparse as sp

    pp = packed_problem(throughput, scale_factor, capacity, priority_weight, pairs=pairs,
                        pair_throughput=pair_throughput)
    J = pp.T.shape[0]
    x = cp.Variable((pp.rows, pp.T.shape[1]))
    prop = gavel_proportional_throughput(pp.T, pp.c)
    idx: list[int] = []
    tputs = []
    for i in range(J):
        rows = pp.relevant[i]
        idx += rows
        tputs.append(np.multiply(pp.all_m[i][rows], pp.sfa[rows]) / float(prop[i, 0]))
    realized = cp.multiply(sp.csc_matrix(np.vstack(tputs)), x[idx])
    mat = cp.reshape(realized, (J, int(np.prod(realized.shape) / J)), order="C") \
        if len({len(r) for r in pp.relevant}) == 1 else None
    if mat is not None:
        objective = cp.Maximize(cp.min(cp.sum(mat, axis=1)))
    else:  # jobs with different numbers of pairs: one sum per job
        sums, start = [], 0
        for i in range(J):
            k = len(pp.relevant[i])
            sums.append(cp.sum(realized[start:start + k]))
            start += k
        objective = cp.Maximize(cp.min(cp.hstack(sums)))
    problem = cp.Problem(objective, _base_constraints(x, pp) + _zero_rows(x, pp))
    solve_problem(problem, "ECOS", raise_on_failure=False)
    return _clipped(x)


class FinishTimeFairnessPacked:
    """``FinishTimeFairnessPolicyWithPacking``, one object per simulation (isolated time so far kept).

    When ECOS returns no allocation, the isolated share of every job and no pair (:func:`isolated_packed`),
    as :class:`~hetopt.gavel.variants.FinishTimeFairness` does; Gavel's run ends with the solver's error there.
    """

    def __init__(self) -> None:
        self.cumulative: dict[Any, float] = {}
        self.prev_steps: dict[Any, float] = {}
        self.prev_iso: dict[Any, Any] = {}

    def __call__(self, throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                 times_since_start=None, pairs=None, pair_throughput=None,
                 job_ids: Sequence[Any] | None = None) -> np.ndarray:
        """The allocation of the jobs and pairs given (``job_ids`` name the jobs across calls)."""
        import cvxpy as cp

        pp = packed_problem(throughput, scale_factor, capacity, priority_weight, pairs=pairs,
                            pair_throughput=pair_throughput)
        J, R = pp.T.shape
        steps = required_vector("remaining_steps", remaining_steps, J)
        since = required_vector("times_since_start", times_since_start, J)
        ids = list(range(J)) if job_ids is None else [int(j) for j in job_ids]
        x = cp.Variable((pp.rows, R))
        iso = gavel_isolated_throughput(pp.T, pp.s, pp.c)
        fractions = []
        for i, job in enumerate(ids):
            self.cumulative.setdefault(job, 0)
            if job in self.prev_steps:
                self.cumulative[job] += (self.prev_steps[job] - steps[i]) / self.prev_iso[job]
            rows = pp.relevant[i]
            rate = cp.sum(cp.multiply(pp.all_m[i][rows], x[rows]))
            expected_iso = self.cumulative[job] + (steps[i] / iso[i])
            expected = since[i] + (steps[i] * cp.inv_pos(rate))
            fractions.append(expected / expected_iso)
        objective = cp.Minimize(fractions[0]) if len(fractions) == 1 else cp.Minimize(cp.maximum(*fractions))
        problem = cp.Problem(objective, _base_constraints(x, pp) + _zero_rows(x, pp))
        solve_problem(problem, "ECOS", raise_on_failure=False)
        self.prev_steps = {job: float(steps[i]) for i, job in enumerate(ids)}
        self.prev_iso = {job: iso[i] for i, job in enumerate(ids)}
        if x.value is None:  # as FinishTimeFairness: where ECOS fails Gavel's run ends with the error; hetopt goes on
            return isolated_packed(pp)
        return _clipped(x)


def finish_time_fairness_packed(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                                times_since_start=None, pairs=None, pair_throughput=None) -> np.ndarray:
    """``FinishTimeFairnessPolicyWithPacking`` on its first call."""
    return FinishTimeFairnessPacked()(throughput, scale_factor, capacity, priority_weight,
                                      remaining_steps=remaining_steps, times_since_start=times_since_start,
                                      pairs=pairs, pair_throughput=pair_throughput)


def min_total_duration_packed(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                              pairs=None, pair_throughput=None, max_brackets: int = 30) -> np.ndarray:
    """``MinTotalDurationPolicyWithPacking``: Gavel's bisection on the makespan over singles and pairs (ECOS)."""
    import cvxpy as cp

    if priority_weight is not None:
        raise ArgumentError("priority_weight is not used by min_total_duration_packed; pass None")
    check_size(max_brackets, "max_brackets", maximum=300)  # 1e6 * 10**300 s is the largest float bracket
    pp = packed_problem(throughput, scale_factor, capacity, None, pairs=pairs, pair_throughput=pair_throughput)
    J, R = pp.T.shape
    steps = required_vector("remaining_steps", remaining_steps, J)
    low, high = BISECTION_BRACKET
    last_high = high
    for _ in range(max_brackets):
        feasible = None
        while BISECTION_RATIO * low < high:
            mid = (low + high) / 2.0
            x = cp.Variable((pp.rows, R))
            cons = _base_constraints(x, pp)
            for i in range(J):
                rows = pp.relevant[i]
                cons.append(cp.sum(cp.multiply(pp.all_m[i][rows], x[rows])) >= (steps[i] / mid))
            problem = cp.Problem(cp.Maximize(1), cons)
            solve_problem(problem, "ECOS", raise_on_failure=False)
            if problem.status == "optimal":
                feasible, high = x, mid
            else:
                low = mid
        if feasible is not None:
            return _clipped(feasible)
        high, low = last_high * 10.0, last_high
        last_high *= 10
    raise SolverError(f"min-total-duration (packed) bisection: no feasible makespan below {last_high:.3g} s")


def max_sum_throughput_normalized_by_cost_packed_slos(throughput, scale_factor, capacity, priority_weight=None, *,
                                                      pairs=None, pair_throughput=None, instance_costs=None,
                                                      remaining_steps=None, time_to_slo=None,
                                                      gpu_types: Sequence[str] | None = None) -> np.ndarray:
    """``ThroughputNormalizedByCostSumWithPackingSLOs`` (ECOS): total cost-normalized throughput over singles and pairs."""
    import cvxpy as cp

    from .variants import instance_cost_vector

    if priority_weight is not None:
        raise ArgumentError("priority_weight is not used by max_sum_throughput_normalized_by_cost_packed_slos")
    pp = packed_problem(throughput, scale_factor, capacity, None, pairs=pairs, pair_throughput=pair_throughput)
    J, R = pp.T.shape
    for name, v in (("remaining_steps", remaining_steps), ("time_to_slo", time_to_slo)):
        if v is not None:
            numeric_array(name, v)  # numbers even when no job has an SLO
    x = cp.Variable((pp.rows, R))
    costs = np.ones((pp.rows, R))
    cvec = instance_cost_vector(instance_costs, gpu_types, R)
    if cvec is not None:
        costs[:, :] = cvec[None, :]
    terms = [cp.sum(cp.multiply(pp.all_m[i][pp.relevant[i]] / costs[pp.relevant[i]], x[pp.relevant[i]]))
             for i in range(J)]
    objective = cp.Maximize(terms[0]) if len(terms) == 1 else cp.Maximize(cp.sum(cp.hstack(terms)))
    cons = _base_constraints(x, pp)
    slo_cons = []
    if time_to_slo is not None:
        left = np.asarray(time_to_slo, dtype=float)
        if left.shape != (J,):
            raise ArgumentError(f"time_to_slo has shape {left.shape}; expected ({J},) seconds (NaN: no SLO)")
        steps = np.full(J, np.nan) if remaining_steps is None else np.asarray(remaining_steps, dtype=float)
        rates, need = [], []
        for i in range(J):
            if np.isfinite(left[i]):
                rates.append(cp.sum(cp.multiply(pp.all_m[i][pp.relevant[i]], x[pp.relevant[i]])))
                need.append(steps[i] / left[i])
        if rates:
            slo_cons.append(cp.vstack(rates) >= cp.vstack(need))
    problem = cp.Problem(objective, cons + slo_cons)
    solve_problem(problem, "ECOS", raise_on_failure=False)
    if x.value is None and slo_cons:
        problem = cp.Problem(objective, cons)
        solve_problem(problem, "ECOS", raise_on_failure=False)
    return _clipped(x)


def max_min_fairness_water_filling_packed(throughput, scale_factor, capacity, priority_weight=None, *, pairs=None,
                                          pair_throughput=None, bottleneck_solver: str | None = None) -> np.ndarray:
    """``MaxMinFairnessWaterFillingPolicyWithPacking`` (LPs by ECOS, bottleneck MILP by HiGHS or skipped).

    See :mod:`hetopt.gavel.variants` for the MILP: Gavel solves it with GLPK_MI and, without GLPK,
    stops after the first LP (``bottleneck_solver=None``).
    """
    from .variants import _wf_solver

    solver = _wf_solver(bottleneck_solver)
    pp = packed_problem(throughput, scale_factor, capacity, None, pairs=pairs, pair_throughput=pair_throughput)
    return water_filling_packed(pp, priority_weight, solver, _water_filling_lp)


def _effective(pp: PackedProblem, x):
    """Each job's steps/s over its rows, as Gavel's ``effective_throughputs`` (one hstack of J sums)."""
    import cvxpy as cp

    return cp.hstack([cp.sum(cp.multiply(pp.all_m[i][pp.relevant[i]], x[pp.relevant[i]]))
                      for i in range(pp.T.shape[0])])


def _water_filling_lp(pp: PackedProblem, prop: np.ndarray, so_far: np.ndarray, mult: np.ndarray, add: np.ndarray,
                      lower: np.ndarray) -> tuple[np.ndarray | None, float]:
    """One LP of the packed water filling by CVXPY and ECOS: ``(x or None, the problem's value)``."""
    import cvxpy as cp

    J, R = pp.T.shape
    x = cp.Variable((pp.rows, R))
    normalized = cp.multiply(_effective(pp, x), 1.0 / prop.reshape(J))
    problem = cp.Problem(cp.Maximize(cp.min(cp.multiply(normalized - so_far, mult) + add)),
                         _base_constraints(x, pp) + [normalized >= lower])
    solve_problem(problem, "ECOS", raise_on_failure=False)
    if x.value is None:
        return None, float("nan")
    return np.asarray(x.value, dtype=float), float(problem.value)


def water_filling_packed(pp: PackedProblem, priority_weight: Any, solver: str | None,
                         solve_lp: Callable[..., tuple[np.ndarray | None, float]]) -> np.ndarray:
    """Gavel's packed water filling on ``pp``; each LP by ``solve_lp(pp, prop, so_far, mult, add, lower)``.

    ``solve_lp``: :func:`_water_filling_lp` (CVXPY) or :mod:`hetopt.gavel.fastlp_packed`'s (the same arrays to
    ECOS directly); it returns ``(x or None, the problem's value)``.  The bottleneck MILP is posed by CVXPY.
    """
    import cvxpy as cp

    J, R = pp.T.shape
    w = np.ones(J) if priority_weight is None else required_vector("priority_weight", priority_weight, J)
    prop = gavel_proportional_throughput(pp.T, pp.c)
    M = max(float(np.max(np.multiply(pp.all_m[i][pp.relevant[i]], pp.sfa[pp.relevant[i]]))) / float(prop[i, 0])
            for i in range(J))
    weights = np.array([1.0 / float(v) if v > 0 else 0.0 for v in w])
    final: dict[int, float] = {}
    so_far = np.zeros(J)
    best = None
    for _ in range(pp.rows + 1):
        mult, mask, add = np.zeros(J), np.zeros(J), np.zeros(J)
        for i in range(J):
            if i not in final and weights[i] > 0.0:
                mult[i] = weights[i] * pp.sfa[i, 0]
                mask[i] = 1.0 / mult[i]
            else:
                add[i] = M
        lower = np.array([final.get(i, so_far[i]) for i in range(J)])
        x, value = solve_lp(pp, prop, so_far, mult, add, lower)
        if x is None:
            break
        best = x
        so_far = so_far + np.multiply(mask, value)
        z = np.zeros(J)
        if solver is not None:
            xz = cp.Variable((pp.rows, R))
            zv = cp.Variable(J, boolean=True)
            nz = cp.multiply(_effective(pp, xz), 1.0 / prop.reshape(J))
            zmask = np.array([1.0 if (i in final or weights[i] == 0.0) else 0.0 for i in range(J)])
            lower = np.array([final.get(i, so_far[i]) for i in range(J)])
            cons = _base_constraints(xz, pp) + [M * zv >= nz - so_far * 1.0001 + 1e-5,
                                                 M * (1 - zv) >= so_far * 1.0001 - nz, nz >= lower,
                                                 cp.multiply(zmask, zv) == 0]
            milp = cp.Problem(cp.Maximize(cp.sum(zv)), cons)
            res = solve_problem(milp, "HIGHS", raise_on_failure=False)
            if zv.value is not None and res.status.value == "optimal":
                z = np.round(np.asarray(zv.value, dtype=float))
        before = len(final)
        for i in range(J):
            if i not in final and not z[i] and weights[i] > 0.0:
                final[i] = float(so_far[i])
        # Gavel stops when no job was fixed or when as many are fixed as the allocation has *rows*
        # (jobs and pairs): with pairs it solves one more LP, every job held at its level, and keeps it
        if len(final) == before or len(final) == pp.rows:
            break
    if best is None:
        raise SolverError("water filling (packed): ecos returned no allocation for the first LP")
    return best.clip(min=0.0).clip(max=1.0)
