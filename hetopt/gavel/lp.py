"""The policy LPs as Gavel's code poses them, and the solver choice (ECOS or HiGHS).

Gavel solves its policy LPs with CVXPY and ECOS (the driver's ``--solver ECOS``).  When an
LP's optimum is not unique, ECOS returns an interior point of the optimal face and HiGHS a
vertex: the allocations differ although the objective is the same, and Gavel's mechanism
turns the difference into different rounds.  To reproduce Gavel's allocations bit for bit,
:func:`gavel_max_min_fairness`, :func:`gavel_max_sum_throughput` and
:func:`gavel_min_total_duration` pose each LP with the expression tree, the constraint order,
the variable shape and the coefficient arithmetic of Gavel's ``scheduler/policies/*.py``
(commit c4fa400), so that CVXPY hands ECOS the same matrices; the result is clipped to
``[0, 1]`` as Gavel clips it.  The columns are those the caller passes: Gavel orders them by
GPU-type name (``k80``, ``p100``, ``v100``), and :func:`hetopt.gavel.simulate` does the same.

HiGHS (``solver="highs"``) solves hetopt's own scaled formulations
(:mod:`~hetopt.gavel.fairness`, :mod:`~hetopt.gavel.makespan`): same optima, vertex
solutions.

References
----------
stanford-futuredata/gavel, ``scheduler/policies/policy.py`` (``get_base_constraints``),
``max_min_fairness.py`` (``MaxMinFairnessPolicyWithPerf``), ``proportional.py``,
``max_sum_throughput.py`` (``ThroughputNormalizedByCostSumWithPerfSLOs``),
``min_total_duration.py`` (``MinTotalDurationPolicyWithPerf``); MIT licence.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import ArgumentError, SolverError
from ..inputs import check_array, check_choice, check_size
from ..solvers import solve_problem
from .inputs import check_policy_inputs

__all__ = ["SOLVERS", "check_solver", "gavel_proportional_throughput", "gavel_base_constraints", "sf_array",
           "gavel_isolated_share", "gavel_isolated_throughput",
           "gavel_max_min_fairness", "gavel_max_sum_throughput", "gavel_min_total_duration",
           "BISECTION_BRACKET", "BISECTION_RATIO", "solve_clipped"]

#: The LP solvers of the policies: ``"ecos"`` (Gavel's, interior point) and ``"highs"`` (vertex).
SOLVERS = ("ecos", "highs")
#: Gavel's first bisection bracket of min-total-duration, in seconds (``min_T``, ``max_T``).
BISECTION_BRACKET = (100.0, 1_000_000.0)
#: Gavel's bisection stops when ``BISECTION_RATIO * low >= high`` (a 5 % bracket).
BISECTION_RATIO = 1.05


def check_solver(solver: object) -> str:
    """``solver`` checked: one of :data:`SOLVERS` (ArgumentError otherwise, names never coerced)."""
    if not isinstance(solver, str) or solver not in SOLVERS:
        raise ArgumentError(f"solver is {solver!r}; expected one of {SOLVERS}")
    return solver


def gavel_proportional_throughput(throughput: np.ndarray, capacity: np.ndarray) -> np.ndarray:
    """Each job's throughput on Gavel's proportional share, as ``ProportionalPolicy.get_throughputs`` computes it.

    Every row of the share is ``(c / m) / max_row_sum(c / m)`` for ``m`` jobs; the result has
    shape ``(m, 1)``.
    """
    m = throughput.shape[0]
    x = np.array([[float(cr) / m for cr in capacity] for _ in range(m)])
    x = x / np.sum(x, axis=1).max()
    return np.sum(np.multiply(throughput, x), axis=1).reshape((m, 1))


def gavel_isolated_share(capacity: np.ndarray, scale_factor_array: np.ndarray) -> np.ndarray:
    """Gavel's ``IsolatedPolicy`` share: ``c / m / s`` per row, rows scaled down to sum to at most 1."""
    m = scale_factor_array.shape[0]
    x = np.array([[float(cr) / m for cr in capacity] for _ in range(m)])
    x = x / scale_factor_array
    row = np.sum(x, axis=1)
    row = np.maximum(row, np.ones(row.shape))
    return x / row[:, None]


def gavel_isolated_throughput(throughput: np.ndarray, scale_factor: np.ndarray, capacity: np.ndarray) -> np.ndarray:
    """Each job's throughput on its isolated share (``IsolatedPolicy.get_throughputs``), shape ``(m, 1)``."""
    m, n = throughput.shape
    x = gavel_isolated_share(capacity, sf_array(scale_factor, n))
    return np.sum(np.multiply(throughput, x), axis=1).reshape((m, 1))


def gavel_base_constraints(x, scale_factor_array: np.ndarray, capacity: Sequence[float]) -> list:
    """Gavel's ``get_base_constraints`` in its order: ``x >= 0``, GPUs per type, time per job."""
    import cvxpy as cp

    cons = [x >= 0, cp.sum(cp.multiply(scale_factor_array, x), axis=0) <= list(capacity),
            cp.sum(x, axis=1) <= 1]
    cons[0].set_label("(G1) time fractions are non-negative")
    cons[1].set_label("(G3) GPUs of each type, counting scale factors, within capacity")
    cons[2].set_label("(G2) each job's time fractions sum to at most 1")
    return cons


def sf_array(scale_factor: np.ndarray, n: int) -> np.ndarray:
    """Gavel's ``scale_factors_array``: row ``i`` is job ``i``'s scale factor repeated ``n`` times."""
    m = scale_factor.shape[0]
    out = np.zeros((m, n))
    for i in range(m):
        out[i, :] = float(scale_factor[i])
    return out


def solve_clipped(problem, x, solver: str = "ECOS") -> np.ndarray:
    """Solve ``problem`` (``solve_problem``, no extra options) and return ``x`` clipped to ``[0, 1]`` as Gavel does."""
    solve_problem(problem, solver)
    if x.value is None:
        raise SolverError(f"{solver.lower()} returned no allocation (status {problem.status})")
    return np.asarray(x.value, dtype=float).clip(min=0.0).clip(max=1.0)


def gavel_max_min_fairness(throughput: np.ndarray, scale_factor: np.ndarray, capacity: np.ndarray,
                           priority_weight: np.ndarray | None = None) -> np.ndarray:
    """``MaxMinFairnessPolicyWithPerf`` posed as Gavel poses it, solved with ECOS and clipped.

    ``max min_j sum_r (T_jr * (1 / w_j) * (1 / prop_j)) * s_j * X_jr`` s.t. Gavel's base
    constraints; ``prop_j`` is :func:`gavel_proportional_throughput`.
    """
    import cvxpy as cp

    check_policy_inputs(throughput, scale_factor, capacity, priority_weight)  # named errors; the data as given

    T = np.asarray(throughput, dtype=float)
    m, n = T.shape
    w = np.ones(m) if priority_weight is None else np.asarray(priority_weight, dtype=float)
    sfa = sf_array(np.asarray(scale_factor), n)
    weights = np.array([1.0 / float(v) for v in w])
    prop = gavel_proportional_throughput(T, np.asarray(capacity))
    weights = np.multiply(weights.reshape((m, 1)), 1.0 / prop.reshape((m, 1)))
    x = cp.Variable(T.shape)
    coef = np.multiply(T * weights.reshape((m, 1)), sfa)
    objective = cp.Maximize(cp.min(cp.sum(cp.multiply(coef, x), axis=1)))
    problem = cp.Problem(objective, gavel_base_constraints(x, sfa, [float(v) for v in capacity]))
    return solve_clipped(problem, x)


def gavel_max_sum_throughput(throughput: np.ndarray, scale_factor: np.ndarray, capacity: np.ndarray, *,
                             instance_costs: np.ndarray | None = None, slo_rate: dict[int, float] | None = None
                             ) -> np.ndarray:
    """``ThroughputNormalizedByCostSumWithPerfSLOs`` as Gavel poses it (ECOS, clipped).

    ``max sum_j sum_r (T_jr / cost_r) X_jr`` s.t. the base constraints and, for each job ``j``
    of ``slo_rate``, ``T_j . X_j >= slo_rate[j]`` (remaining steps over the time left to its
    SLO).  Without costs (``ThroughputSumWithPerf``) every cost is 1.  When the SLO constraints
    make the LP infeasible Gavel drops them and solves again; so does this function.
    """
    import cvxpy as cp

    _, _, cap, _, _ = check_policy_inputs(throughput, scale_factor, capacity)  # named errors; the data as given
    if instance_costs is not None:
        check_array(instance_costs, "instance_costs", (len(cap),), minimum=0.0)
    if slo_rate is not None and not isinstance(slo_rate, dict):
        raise ArgumentError(f"slo_rate is {slo_rate!r:.60}; expected a dict job -> steps/s")

    T = np.asarray(throughput, dtype=float)
    m, n = T.shape
    sfa = sf_array(np.asarray(scale_factor), n)
    costs = np.ones((1, n))
    if instance_costs is not None:
        for r in range(n):
            costs[0, r] = float(instance_costs[r])
    x = cp.Variable(T.shape)
    objective = cp.Maximize(cp.sum(cp.sum(cp.multiply(T / costs, x), axis=1)))
    cons = gavel_base_constraints(x, sfa, [float(v) for v in capacity])
    slo = [cp.sum(cp.multiply(T[i], x[i])) >= float(rate) for i, rate in (slo_rate or {}).items()]
    problem = cp.Problem(objective, cons + slo)
    solve_problem(problem, "ECOS", raise_on_failure=False)
    if x.value is None and slo:
        problem = cp.Problem(objective, cons)
        solve_problem(problem, "ECOS", raise_on_failure=False)
    if x.value is None:
        raise SolverError(f"ecos returned no allocation (status {problem.status})")
    return np.asarray(x.value, dtype=float).clip(min=0.0).clip(max=1.0)


def gavel_min_total_duration(throughput: np.ndarray, scale_factor: np.ndarray, capacity: np.ndarray,
                             remaining_steps: np.ndarray, *, solver: str = "ECOS",
                             max_brackets: int = 30) -> tuple[np.ndarray, float, int]:
    """Gavel's min-total-duration: bisection on the makespan ``M`` with feasibility LPs.

    Starting from the bracket ``[100 s, 1e6 s]`` (:data:`BISECTION_BRACKET`), each step solves
    ``max 1`` s.t. the base constraints and ``T_j . X_j >= steps_j / M`` at the midpoint and
    keeps the half where the LP is ``"optimal"`` (any other status counts as infeasible, as in
    Gavel), until ``1.05 * low >= high``; when no ``M`` of the bracket is feasible the next one
    is ``[1e6, 1e7]``, then ``[1e7, 1e8]``, ...  Returns ``(X, M, lps)``: the clipped allocation of
    the last feasible ``M``, that ``M`` (within 5 % above the optimum) and the LPs solved.

    Raises
    ------
    SolverError
        No feasible ``M`` below ``1e6 * 10**max_brackets`` seconds.
    """
    import cvxpy as cp

    check_policy_inputs(throughput, scale_factor, capacity, remaining_steps=remaining_steps)  # the data as given
    if remaining_steps is None:
        raise ArgumentError("remaining_steps is None; expected the steps left per job")
    check_choice(solver, "solver", tuple(s.upper() for s in SOLVERS))
    check_size(max_brackets, "max_brackets", maximum=300)  # 1e6 * 10**300 s is the largest float bracket

    T = np.asarray(throughput, dtype=float)
    m, n = T.shape
    sfa = sf_array(np.asarray(scale_factor), n)
    steps = np.asarray(remaining_steps)
    cap = [float(v) for v in capacity]
    low, high = BISECTION_BRACKET
    last_high = high
    feasible_x, feasible_m, lps = None, float("nan"), 0
    for _ in range(max_brackets):
        while BISECTION_RATIO * low < high:
            mid = (low + high) / 2.0
            x = cp.Variable(T.shape)
            cons = gavel_base_constraints(x, sfa, cap)
            cons.append(cp.sum(cp.multiply(T, x), axis=1) >= steps / mid)
            problem = cp.Problem(cp.Maximize(1), cons)
            solve_problem(problem, solver, raise_on_failure=False)
            lps += 1
            if problem.status == "optimal":
                feasible_x, feasible_m = x, mid
                high = mid
            else:
                low = mid
        if feasible_x is not None:
            return np.asarray(feasible_x.value, dtype=float).clip(min=0.0).clip(max=1.0), feasible_m, lps
        high = last_high * 10.0
        low = last_high
        last_high *= 10
    raise SolverError(f"min-total-duration bisection: no feasible makespan below {last_high:.3g} s")
