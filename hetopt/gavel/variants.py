"""Gavel's other LP policies: agnostic, strategy-proof, water filling, finish-time fairness, cost.

The heterogeneity-agnostic variants, strategy-proof and water-filling max-min fairness,
finish-time fairness, and max-sum-throughput normalized by cost (with and without SLOs).  Each is posed as Gavel's ``scheduler/policies/*.py`` poses it (expression tree, constraint order,
coefficient arithmetic) and solved by ECOS, so that the allocations are Gavel's; the columns are
those the caller passes (Gavel's order is by type name, as :func:`hetopt.gavel.simulate` passes
them).  Policies that keep state between calls (finish-time fairness remembers each job's
isolated time so far) are classes with one object per simulation; the functions are a fresh
object's first call.

* :func:`max_min_fairness_agnostic` - ``MaxMinFairnessPolicy``: every throughput 1.
* :func:`min_total_duration_agnostic` - ``MinTotalDurationPolicy``: every type at the reference
  type's throughput (Gavel: the V100's).
* :func:`max_min_fairness_strategy_proof` - ``MaxMinFairnessStrategyProofPolicyWithPerf``: the
  geometric mean of the normalized throughputs, each job's allocation discounted by the others'
  loss from its presence.  (Gavel's heterogeneity-agnostic ``MaxMinFairnessStrategyProofPolicy``
  fails in its constructor with a ``NameError``: it refers to ``MaxMinFairnessPolicyWithPerf``,
  which its module does not import.)
* :func:`max_min_fairness_water_filling` (and ``_agnostic``) - ``MaxMinFairnessWaterFillingPolicy``
  ``WithPerf`` / plain: max-min fairness, then the jobs that are not bottlenecked are raised
  in further LPs.  Gavel detects the bottleneck jobs with a MILP solved by ``GLPK_MI``; without
  GLPK (the reference environment had none) that call raises, Gavel catches it and stops after
  the first LP.  hetopt solves the MILP with HiGHS (``bottleneck_solver="highs"``) or stops after
  the first LP as Gavel's reference run did (``bottleneck_solver=None``).
* :class:`FinishTimeFairness`, :func:`finish_time_fairness` (and ``_agnostic``) -
  ``FinishTimeFairnessPolicyWithPerf`` / plain: minimize the largest ratio of a job's expected
  finish time under the allocation to its finish time on its isolated share (a convex program,
  ECOS).
* :func:`max_sum_throughput_normalized_by_cost`, :func:`max_sum_throughput_normalized_by_cost_slos`
  - ``ThroughputNormalizedByCostSumWithPerf`` / ``...WithPerfSLOs``.

References
----------
stanford-futuredata/gavel (commit c4fa400), ``scheduler/policies/max_min_fairness.py``,
``min_total_duration.py``, ``max_min_fairness_strategy_proof.py``,
``max_min_fairness_water_filling.py``, ``finish_time_fairness.py``, ``max_sum_throughput.py``; MIT.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import ArgumentError, SolverError
from ..inputs import check_flag, numeric_array
from ..solvers import solve_problem
from .inputs import check_policy_inputs, required_vector
from .lp import (
    gavel_base_constraints,
    gavel_isolated_share,
    gavel_isolated_throughput,
    gavel_max_min_fairness,
    gavel_max_sum_throughput,
    gavel_min_total_duration,
    gavel_proportional_throughput,
    sf_array,
)

__all__ = ["max_min_fairness_agnostic", "min_total_duration_agnostic", "max_min_fairness_strategy_proof",
           "max_min_fairness_water_filling", "max_min_fairness_water_filling_agnostic", "FinishTimeFairness",
           "finish_time_fairness", "finish_time_fairness_agnostic", "max_sum_throughput_normalized_by_cost",
           "max_sum_throughput_normalized_by_cost_slos", "isolated", "proportional", "reference_column",
           "instance_cost_vector", "WATER_FILLING_SOLVERS"]

#: How the water-filling policies find the bottleneck jobs: HiGHS on Gavel's MILP, or not at all (one LP).
WATER_FILLING_SOLVERS = ("highs", None)


def _unused(name: str, **values: Any) -> None:
    for arg, v in values.items():
        if v is not None:
            raise ArgumentError(f"{arg} is not used by {name}; pass None")



def reference_column(reference_type: Any, R: int) -> int:
    """The column whose throughput the heterogeneity-agnostic variants give every type (Gavel: the V100's)."""
    if reference_type is None:
        raise ArgumentError("reference_type is None; pass the column of the reference GPU type (Gavel: v100)")
    if isinstance(reference_type, bool) or not isinstance(reference_type, int | np.integer) or \
            not 0 <= int(reference_type) < R:
        raise ArgumentError(f"reference_type is {reference_type!r}; expected a column index in 0..{R - 1}")
    return int(reference_type)


def isolated(throughput, scale_factor, capacity, priority_weight=None) -> np.ndarray:
    """Gavel's ``IsolatedPolicy``: each job an equal share ``c_r / J`` of every type, over its scale factor, rows at most 1.

    Examples
    --------
    >>> isolated([[2.0, 1.0], [3.0, 2.0]], [1, 1], [4, 4]).tolist()
    [[0.5, 0.5], [0.5, 0.5]]
    """
    _unused("isolated", priority_weight=priority_weight)
    T, s, c, _, _ = check_policy_inputs(throughput, scale_factor, capacity)
    return gavel_isolated_share(c, sf_array(s, T.shape[1]))


def proportional(throughput, scale_factor, capacity, priority_weight=None) -> np.ndarray:
    """Gavel's ``ProportionalPolicy``: every row ``(c / J) / max_row_sum``, i.e. ``c / sum(c)`` (scale factors ignored).

    It is a normalization reference, not always feasible (``sum_j s_j X_jr`` may exceed ``c_r``).
    """
    _unused("proportional", priority_weight=priority_weight)
    T, _, c, _, _ = check_policy_inputs(throughput, scale_factor, capacity)
    m = T.shape[0]
    x = np.array([[float(cr) / m for cr in c] for _ in range(m)])
    return x / np.sum(x, axis=1).max()


def max_min_fairness_agnostic(throughput, scale_factor, capacity, priority_weight=None) -> np.ndarray:
    """Gavel's heterogeneity-agnostic ``MaxMinFairnessPolicy``: max-min fairness with every throughput 1 (ECOS)."""
    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    return gavel_max_min_fairness(np.ones_like(T), s, c, w)


def min_total_duration_agnostic(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                                reference_type: int | None = None) -> np.ndarray:
    """Gavel's ``MinTotalDurationPolicy``: min-total-duration (bisection, ECOS) with every type at the reference type's throughput."""
    _unused("min_total_duration_agnostic", priority_weight=priority_weight)
    T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, None, remaining_steps)
    ref = reference_column(reference_type, T.shape[1])
    steps = required_vector("remaining_steps", steps, T.shape[0], policy="min_total_duration_agnostic")
    flat = np.repeat(T[:, [ref]], T.shape[1], axis=1)
    if np.any(flat[:, 0] <= 0):
        raise ArgumentError(f"a job has throughput 0 on the reference type {ref}; the agnostic policy cannot run it")
    return gavel_min_total_duration(flat, s, c, steps)[0]


def max_min_fairness_strategy_proof(throughput, scale_factor, capacity, priority_weight=None, *,
                                    return_discounts: bool = False) -> Any:
    """Gavel's ``MaxMinFairnessStrategyProofPolicyWithPerf`` (ECOS).

    Maximizes the geometric mean of the normalized throughputs (Gavel's max-min coefficients), then
    multiplies job ``j``'s allocation by ``prod_{k != j} rho_k / rho_k^{-j}``, the others' throughput
    with ``j`` over their throughput without it (each from the same program without ``j``).

    Returns
    -------
    numpy.ndarray, or (numpy.ndarray, numpy.ndarray) with ``return_discounts``
        The discounted allocation clipped to ``[0, 1]`` (and the discount factors).
    """
    import cvxpy as cp

    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    check_flag(return_discounts, "return_discounts")
    m, n = T.shape
    w = np.ones(m) if w is None else w

    def solve(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        Tr = T[rows]
        k = Tr.shape[0]
        sfa = sf_array(s[rows], n)
        pw = np.array([1.0 / float(v) for v in w[rows]])
        prop = gavel_proportional_throughput(Tr, c)
        pw = np.multiply(pw.reshape((k, 1)), 1.0 / prop.reshape((k, 1)))
        x = cp.Variable(Tr.shape)
        objective = cp.Maximize(cp.geo_mean(cp.sum(cp.multiply(np.multiply(Tr * pw.reshape((k, 1)), sfa), x),
                                                   axis=1)))
        problem = cp.Problem(objective, gavel_base_constraints(x, sfa, [float(v) for v in c]))
        solve_problem(problem, "ECOS", raise_on_failure=False)
        if x.value is None:
            raise SolverError(f"ecos returned no allocation for the strategy-proof LP (status {problem.status})")
        X = np.asarray(x.value, dtype=float)
        return X, np.sum(np.multiply(Tr, X), axis=1)

    X, rho = solve(np.arange(m))
    discounts = np.ones(m)
    if m > 1:
        for j in range(m):
            others = np.array([k for k in range(m) if k != j])
            _, rho_minus = solve(others)
            for pos, k in enumerate(others):
                discounts[j] *= rho[k] / rho_minus[pos]
    out = np.multiply(X.T, discounts).T.clip(min=0.0).clip(max=1.0)
    return (out, discounts) if return_discounts else out


def _check_costs(instance_costs: Any, gpu_types: Sequence[str] | None, R: int) -> np.ndarray | None:
    if gpu_types is not None and (isinstance(gpu_types, str) or not isinstance(gpu_types, Sequence) or len(gpu_types) != R
                                  or not all(isinstance(g, str) for g in gpu_types)):
        raise ArgumentError(f"gpu_types is {gpu_types!r:.60}; expected {R} GPU type names, one per column")
    if instance_costs is None:
        return None
    if isinstance(instance_costs, Mapping):
        if gpu_types is None or len(gpu_types) != R:
            raise ArgumentError("instance_costs is a mapping by GPU type; pass gpu_types, the names of the columns")
        missing = [g for g in gpu_types if g not in instance_costs]
        if missing:
            raise ArgumentError(f"instance_costs has no price for GPU type {missing[0]!r}")
        values = [instance_costs[g] for g in gpu_types]
    else:
        values = list(np.asarray(instance_costs, dtype=object).reshape(-1))
    if len(values) != R or any(isinstance(v, bool) or not isinstance(v, int | float | np.integer | np.floating)
                               or not np.isfinite(v) or v <= 0 for v in values):
        raise ArgumentError(f"instance_costs is {instance_costs!r}; expected {R} prices > 0 (one per GPU type)")
    return np.asarray(values, dtype=float)


def instance_cost_vector(instance_costs: Any, gpu_types: Sequence[str] | None, R: int) -> np.ndarray | None:
    """``instance_costs`` (array of R prices, or a mapping GPU type name -> price with ``gpu_types``) checked."""
    return _check_costs(instance_costs, gpu_types, R)


def max_sum_throughput_normalized_by_cost(throughput, scale_factor, capacity, priority_weight=None, *,
                                          instance_costs: Any = None,
                                          gpu_types: Sequence[str] | None = None) -> np.ndarray:
    """Gavel's ``ThroughputNormalizedByCostSumWithPerf``: ``max sum_jr T_jr / cost_r X_jr`` (ECOS).

    ``instance_costs``: a price per GPU type (array aligned with the columns, or a mapping by name
    with ``gpu_types``); None gives every type cost 1 (``ThroughputSumWithPerf``).
    """
    _unused("max_sum_throughput_normalized_by_cost", priority_weight=priority_weight)
    T, s, c, _, _ = check_policy_inputs(throughput, scale_factor, capacity)
    return gavel_max_sum_throughput(T, s, c, instance_costs=_check_costs(instance_costs, gpu_types, T.shape[1]))


def max_sum_throughput_normalized_by_cost_slos(throughput, scale_factor, capacity, priority_weight=None, *,
                                               remaining_steps=None, time_to_slo=None, instance_costs: Any = None,
                                               gpu_types: Sequence[str] | None = None) -> np.ndarray:
    """Gavel's ``ThroughputNormalizedByCostSumWithPerfSLOs``: the cost-normalized sum with ``T_j . X_j >= steps_j / slo_j``.

    ``time_to_slo[j]`` is the seconds left to job ``j``'s SLO (NaN: no SLO).  When the SLO rows make
    the LP infeasible Gavel drops them and solves again; so does this function.
    """
    _unused("max_sum_throughput_normalized_by_cost_slos", priority_weight=priority_weight)
    T, s, c, _, _ = check_policy_inputs(throughput, scale_factor, capacity)
    if remaining_steps is not None:
        numeric_array("remaining_steps", remaining_steps)  # numbers even when no job has an SLO
    m = T.shape[0]
    rates: dict[int, float] = {}
    if time_to_slo is not None:
        left = numeric_array("time_to_slo", time_to_slo)
        if left.shape != (m,) or np.any(np.isinf(left)):
            raise ArgumentError(f"time_to_slo has shape {left.shape} or an infinite entry; expected ({m},) seconds "
                                "(NaN: no SLO)")
        steps = np.full(m, np.nan) if remaining_steps is None else numeric_array("remaining_steps", remaining_steps)
        if steps.shape != (m,):
            raise ArgumentError(f"remaining_steps has shape {steps.shape}; expected ({m},)")
        for i in np.flatnonzero(np.isfinite(left)):
            if not np.isfinite(steps[i]) or steps[i] <= 0:
                raise ArgumentError(f"remaining_steps[{i}] is {steps[i]}; a job with an SLO needs its remaining steps")
            rates[int(i)] = float(steps[i] / left[i])
    return gavel_max_sum_throughput(T, s, c, instance_costs=_check_costs(instance_costs, gpu_types, T.shape[1]),
                                    slo_rate=rates)


class FinishTimeFairness:
    """Gavel's finish-time fairness, one object per simulation (it remembers each job's isolated time so far).

    ``FinishTimeFairnessPolicyWithPerf`` (``agnostic=False``) or ``FinishTimeFairnessPolicy``
    (every type at the reference type's throughput).  Each call minimizes
    ``max_j (t_j + steps_j / (T_j . X_j)) / (iso_j + steps_j / T_j . X^iso_j)`` where ``t_j`` is the
    time since the job arrived and ``iso_j`` the time it would have needed so far on its isolated
    share (accumulated from call to call); ECOS, clipped.  When ECOS returns no allocation the isolated
    share is returned.  Gavel does so only when the solve ends without a value; when ECOS itself
    fails (CVXPY raises ``SolverError``), Gavel's call raises and its simulation ends with that error,
    where hetopt falls back to the isolated share and goes on.
    """

    def __init__(self, agnostic: bool = False):
        self.agnostic = bool(agnostic)
        self.cumulative: dict[Any, float] = {}
        self.prev_steps: dict[Any, float] = {}
        self.prev_iso: dict[Any, float] = {}

    def __call__(self, throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                 times_since_start=None, job_ids: Sequence[Any] | None = None,
                 reference_type: int | None = None) -> np.ndarray:
        """The allocation of the jobs given (``job_ids`` name them across calls; default 0..J-1)."""
        import cvxpy as cp

        T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, priority_weight,
                                                remaining_steps)
        m, n = T.shape
        steps = required_vector("remaining_steps", steps, m, policy="finish_time_fairness")
        since = required_vector("times_since_start", times_since_start, m, policy="finish_time_fairness")
        ids = list(range(m)) if job_ids is None else [int(j) for j in job_ids]
        if len(ids) != m:
            raise ArgumentError(f"job_ids has {len(ids)} entries; expected {m}")
        if self.agnostic:
            ref = reference_column(reference_type, n)
            T = np.repeat(T[:, [ref]], n, axis=1)
        sfa = sf_array(s, n)
        x = cp.Variable(T.shape)
        iso = gavel_isolated_throughput(T, s, c)
        fractions = []
        for i, job in enumerate(ids):
            self.cumulative.setdefault(job, 0)
            if job in self.prev_steps:
                self.cumulative[job] += (self.prev_steps[job] - steps[i]) / self.prev_iso[job]
            rate = cp.sum(cp.multiply(T[i], x[i]))
            expected_iso = self.cumulative[job] + (steps[i] / iso[i])
            expected = since[i] + (steps[i] * cp.inv_pos(rate))
            fractions.append(expected / expected_iso)
        objective = cp.Minimize(fractions[0]) if len(fractions) == 1 else cp.Minimize(cp.maximum(*fractions))
        problem = cp.Problem(objective, gavel_base_constraints(x, sfa, [float(v) for v in c]))
        solve_problem(problem, "ECOS", raise_on_failure=False)
        self.prev_steps = {job: float(steps[i]) for i, job in enumerate(ids)}
        self.prev_iso = {job: iso[i] for i, job in enumerate(ids)}
        if x.value is None:
            return gavel_isolated_share(c, sfa)
        return np.asarray(x.value, dtype=float).clip(min=0.0).clip(max=1.0)


def finish_time_fairness(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                         times_since_start=None) -> np.ndarray:
    """``FinishTimeFairnessPolicyWithPerf`` on its first call (:class:`FinishTimeFairness` keeps the state)."""
    return FinishTimeFairness()(throughput, scale_factor, capacity, priority_weight, remaining_steps=remaining_steps,
                                times_since_start=times_since_start)


def finish_time_fairness_agnostic(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                                  times_since_start=None, reference_type: int | None = None) -> np.ndarray:
    """``FinishTimeFairnessPolicy`` (every type at the reference type's throughput) on its first call."""
    return FinishTimeFairness(agnostic=True)(throughput, scale_factor, capacity, priority_weight,
                                             remaining_steps=remaining_steps, times_since_start=times_since_start,
                                             reference_type=reference_type)


def _water_filling(T: np.ndarray, s: np.ndarray, c: np.ndarray, w: np.ndarray, bottleneck_solver: str | None,
                   slack: float = 1.0001, epsilon: float = 1e-5) -> np.ndarray:
    """Gavel's ``WaterFillingAlgorithm`` without entity reweighting (``priority_reweighting_policies=None``)."""
    import cvxpy as cp

    m, n = T.shape
    sfa = sf_array(s, n)
    prop = gavel_proportional_throughput(T, c)
    M = np.max(np.multiply(T * (1.0 / prop).reshape((m, 1)), sfa))
    cap = [float(v) for v in c]
    weights = np.array([1.0 / float(v) if v > 0 else 0.0 for v in w])
    final: dict[int, float] = {}
    so_far = np.zeros(m)
    x_best: np.ndarray | None = None
    for _ in range(m + 1):
        x = cp.Variable((m, n))
        normalized = cp.multiply(cp.sum(cp.multiply(T, x), axis=1), 1.0 / prop.reshape(m))
        mult, mask, add = np.zeros(m), np.zeros(m), np.zeros(m)
        lower = np.zeros(m)
        for i in range(m):
            if i not in final and weights[i] > 0.0:
                mult[i] = weights[i] * sfa[i, 0]
                mask[i] = 1.0 / mult[i]
            else:
                add[i] = M
            lower[i] = final[i] if i in final else so_far[i]
        objective = cp.Maximize(cp.min(cp.multiply(normalized - so_far, mult) + add))
        cons = gavel_base_constraints(x, sfa, cap) + [normalized >= lower]
        problem = cp.Problem(objective, cons)
        solve_problem(problem, "ECOS", raise_on_failure=False)
        if x.value is None:
            break
        x_best = np.asarray(x.value, dtype=float)
        so_far = so_far + np.multiply(mask, float(problem.value))
        z = np.zeros(m)
        if bottleneck_solver is not None:
            xz = cp.Variable((m, n))
            zv = cp.Variable(m, boolean=True)
            nz = cp.multiply(cp.sum(cp.multiply(T, xz), axis=1), 1.0 / prop.reshape(m))
            zmask = np.array([1.0 if (i in final or weights[i] == 0.0) else 0.0 for i in range(m)])
            lower = np.array([final[i] if i in final else so_far[i] for i in range(m)])
            mcons = gavel_base_constraints(xz, sfa, cap) + [
                M * zv >= nz - so_far * slack + epsilon, M * (1 - zv) >= so_far * slack - nz, nz >= lower,
                cp.multiply(zmask, zv) == 0]
            milp = cp.Problem(cp.Maximize(cp.sum(zv)), mcons)
            res = solve_problem(milp, "HIGHS", raise_on_failure=False)
            if zv.value is not None and res.status.value == "optimal":
                z = np.round(np.asarray(zv.value, dtype=float))
        before = len(final)
        for i in range(m):
            if i not in final and not z[i] and weights[i] > 0.0:
                final[i] = float(so_far[i])
        if len(final) == before or len(final) == m:
            break
    if x_best is None:
        raise SolverError("water filling: ecos returned no allocation for the first LP")
    return x_best.clip(min=0.0).clip(max=1.0)


def _wf_solver(bottleneck_solver: Any) -> str | None:
    if bottleneck_solver not in WATER_FILLING_SOLVERS or isinstance(bottleneck_solver, bool):
        raise ArgumentError(f"bottleneck_solver is {bottleneck_solver!r}; expected one of {WATER_FILLING_SOLVERS}")
    return bottleneck_solver


def max_min_fairness_water_filling(throughput, scale_factor, capacity, priority_weight=None, *,
                                   bottleneck_solver: str | None = None) -> np.ndarray:
    """Gavel's ``MaxMinFairnessWaterFillingPolicyWithPerf`` (LPs by ECOS; see the module docstring for the MILP)."""
    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    return _water_filling(T, s, c, np.ones(T.shape[0]) if w is None else w, _wf_solver(bottleneck_solver))


def max_min_fairness_water_filling_agnostic(throughput, scale_factor, capacity, priority_weight=None, *,
                                            bottleneck_solver: str | None = None) -> np.ndarray:
    """Gavel's ``MaxMinFairnessWaterFillingPolicy``: water filling with every throughput 1."""
    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    return _water_filling(np.ones_like(T), s, c, np.ones(T.shape[0]) if w is None else w,
                          _wf_solver(bottleneck_solver))
