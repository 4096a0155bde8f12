"""Min-total-duration (makespan), scaled so that it is exact at any magnitude, and certified.

The LP is ``min M`` s.t. (G1)-(G3) and ``T_j . X_j >= steps_j / M``.  With raw data and
``z = 1/M`` its coefficients are step counts (1e6-1e7 on the Hadar trace) and ``z`` is
~1e-7, below HiGHS's tolerances: the solver reported "optimal" for an allocation whose
makespan was 1.83x the optimum.  Here every job's constraint is written in its own units
and time in units of a lower bound ``D`` of the makespan (:func:`makespan_reference`)::

    (T_j / Tmax_j) . X_j >= (D_j / D) z,    D_j = steps_j / Tmax_j,   z = D / M in (0, 1]

so the coefficients lie in ``[0, 1]`` and ``z`` is O(1).  The returned allocation's makespan
is recomputed from the data (:func:`makespan_of`) and compared with the LP's ``D / z``
(:func:`solve_min_total_duration`); Gavel itself bisects on ``M`` with feasibility LPs
(``scheduler/policies/min_total_duration.py``), which ends within 5% of the optimum.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..certify import Status, certify, relative_gap
from ..errors import ArgumentError, InstanceError, SolverError
from ..inputs import check_threads, check_time_limit, numeric_array
from ..solvers import solve_problem
from .inputs import ROUNDOFF, base_constraints, check_policy_inputs, solved_allocation

__all__ = ["CERT_RTOL", "MakespanResult", "CertifiedMakespan", "makespan_of", "makespan_reference",
           "build_min_total_duration", "solve_min_total_duration", "min_total_duration", "MTD_METHODS", "TINY_JOB",
           "tiny_jobs", "place_tiny_jobs", "feasible_allocation",
           "dual_makespan_bound", "certify_min_total_duration"]

#: Largest relative difference accepted between the LP's makespan and the recomputed one.
CERT_RTOL = 1e-6


@dataclass(frozen=True)
class MakespanResult:
    """A min-total-duration allocation with its certified makespan.

    Attributes
    ----------
    allocation : numpy.ndarray, shape (J, R)
    makespan : float
        ``max_j steps_j / (T_j . X_j)`` recomputed from the returned allocation (time units
        of ``steps / throughput``, e.g. seconds).
    lp_makespan : float
        The LP's value ``reference / z``.
    reference : float
        The time unit ``D`` of the solved LP.
    """

    allocation: np.ndarray
    makespan: float
    lp_makespan: float
    reference: float

    @property
    def gap(self) -> float:
        """``|makespan - lp_makespan| / lp_makespan``."""
        return abs(self.makespan - self.lp_makespan) / self.lp_makespan


def makespan_of(allocation, throughput, remaining_steps) -> float:
    """The time every job needs to finish at the rates of ``allocation``: ``max_j steps_j / T_j . X_j``.

    ``inf`` when some job gets rate 0.
    """
    X = numeric_array("allocation", allocation)
    T = numeric_array("throughput", throughput)
    steps = numeric_array("remaining_steps", remaining_steps)
    if X.ndim != 2 or X.shape != T.shape or steps.shape != (T.shape[0],):
        raise InstanceError(f"allocation {X.shape}, throughput {T.shape}, remaining_steps {steps.shape} do not agree")
    rate = np.sum(T * X, axis=1)
    if np.any(rate <= 0):
        return float("inf")
    return float(np.max(steps / rate))


def _per_job(T, c, steps):
    usable = c > 0
    tmax = np.where(usable[None, :], T, 0.0).max(axis=1)
    stuck = np.flatnonzero(tmax <= 0)
    if stuck.size:
        raise InstanceError(f"job {stuck[0]} has zero throughput on every GPU type with capacity > 0; "
                            "it can never finish")
    return tmax, steps / tmax


def makespan_reference(throughput, scale_factor, capacity, remaining_steps=None) -> float:
    """A lower bound ``D`` of the optimal makespan, used as the LP's unit of time.

    ``D = max(max_j D_j, sum_j s_j D_j / C)`` with ``D_j = steps_j / max_r T_jr`` (over types
    with GPUs): no job finishes faster than on its fastest type full time, and the jobs
    together need at least ``sum_j s_j D_j`` GPU-time from ``C`` GPUs.
    """
    T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, None, remaining_steps)
    steps = np.ones(T.shape[0]) if steps is None else steps
    _, D = _per_job(T, c, steps)
    return float(max(D.max(), np.sum(s * D) / c.sum()))


def build_min_total_duration(throughput, scale_factor, capacity, remaining_steps=None, *, reference=None):
    """Min-total-duration as the scaled LP ``max z`` s.t. (G1)-(G3) and (G5).

    (G5) is ``(T_j / Tmax_j) . X_j >= (D_j / D) z``; the makespan is ``D / z``.
    ``remaining_steps=None`` means one unit of work per job; ``reference`` (the time unit
    ``D``) defaults to :func:`makespan_reference`.

    Returns
    -------
    tuple
        ``(problem, x, reference)``: the CVXPY problem, the allocation variable and ``D``.
    """
    import cvxpy as cp

    T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, None, remaining_steps)
    J, R = T.shape
    steps = np.ones(J) if steps is None else steps
    tmax, D = _per_job(T, c, steps)
    if reference is not None and (isinstance(reference, bool) or not isinstance(reference, int | float | np.integer
                                                                                    | np.floating)):
        raise ArgumentError(f"reference is {reference!r:.60}; expected a positive time unit")
    ref = makespan_reference(T, s, c, steps) if reference is None else float(reference)
    if not np.isfinite(ref) or ref <= 0:
        raise ArgumentError(f"reference is {reference}; expected a positive time unit")
    x = cp.Variable((J, R), name="X")
    z = cp.Variable(name="z", nonneg=True)
    cons = base_constraints(x, s, c, "min-total-duration")
    done = cp.sum(cp.multiply(T / tmax[:, None], x), axis=1) >= (D / ref) * z
    done.set_label("(G5) every job finishes its remaining steps within the makespan D/z")
    cons.append(done)
    return cp.Problem(cp.Maximize(z), cons), x, ref


#: A job whose own time ``D_j`` (its steps at its fastest type) is below this fraction of the time unit ``D``
#: is *tiny*: its row of (G5) would have a coefficient under the LP solver's feasibility tolerance (HiGHS:
#: 1e-7), which lets it return 0 time for the job (issue 25: makespan ``inf``).  Tiny jobs are left out of
#: the LP and given their time afterwards (:func:`place_tiny_jobs`).
TINY_JOB = 1e-6


def tiny_jobs(throughput, capacity, remaining_steps, reference: float) -> np.ndarray:
    """Mask of the jobs whose ``D_j < TINY_JOB * reference`` (never all of them)."""
    _, D = _per_job(np.asarray(throughput, dtype=float), np.asarray(capacity, dtype=float),
                    np.asarray(remaining_steps, dtype=float))
    mask = D < TINY_JOB * reference
    return mask if not mask.all() else np.zeros_like(mask)


def place_tiny_jobs(allocation, throughput, scale_factor, capacity, remaining_steps, tiny, span: float) -> np.ndarray:
    """The allocation of the other jobs, plus for each tiny job the time it needs to finish within ``span``.

    Each tiny job takes its fastest type that still has that much idle GPU time (the other jobs'
    allocation unchanged); when none has, the other jobs' rows are scaled by ``1 - eps`` with
    ``eps = max_r demand_r / c_r``, which frees at least ``eps c_r`` GPUs of every type, and the
    tiny jobs go to their fastest types.  The makespan grows by at most the factor ``1 / (1 - eps)``.
    """
    X = np.array(allocation, dtype=float)
    T = np.asarray(throughput, dtype=float)
    s = np.asarray(scale_factor, dtype=float)
    c = np.asarray(capacity, dtype=float)
    steps = np.asarray(remaining_steps, dtype=float)
    X[tiny] = 0.0
    used = s @ X
    late = []
    for j in np.flatnonzero(tiny):
        types = [r for r in np.argsort(-T[j], kind="stable") if T[j, r] > 0 and c[r] >= s[j]]
        for r in types:
            f = steps[j] / (span * T[j, r])
            if f <= 1.0 and c[r] - used[r] >= s[j] * f:
                X[j, r] = f
                used[r] += s[j] * f
                break
        else:
            late.append((int(j), int(types[0])))
    if late:
        demand = np.zeros_like(c)
        for jj, rr in late:
            demand[rr] += s[jj] * steps[jj] / (span * T[jj, rr])
        eps = float(np.max(np.where(c > 0, demand / np.where(c > 0, c, 1.0), 0.0)))
        others = ~tiny
        X[others] *= 1.0 - eps
        for jj, rr in late:
            X[jj, rr] = min(1.0, steps[jj] / (span * T[jj, rr]))
    return X


def solve_min_total_duration(throughput, scale_factor, capacity, remaining_steps=None, *,
                             solver: str = "highs") -> MakespanResult:
    """Solve min-total-duration and certify the makespan of the returned allocation.

    The LP is solved in units of :func:`makespan_reference`; if the recomputed makespan
    differs from the LP's by more than :data:`CERT_RTOL` (relative), it is solved once more
    in units of the recomputed makespan (so that ``z`` is about 1).

    Raises
    ------
    SolverError
        If the two makespans still differ by more than :data:`CERT_RTOL`.

    Examples
    --------
    >>> r = solve_min_total_duration([[2, 1], [1, 1]], [1, 1], [1, 1], [4e6, 1e6])
    >>> round(r.makespan, 3), r.gap < 1e-6
    (2000000.0, True)
    """
    T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, None, remaining_steps)
    from .lp import check_solver

    check_solver(solver)
    steps = np.ones(T.shape[0]) if steps is None else steps
    tiny = tiny_jobs(T, c, steps, makespan_reference(T, s, c, steps))
    if tiny.any():  # tiny jobs out of the LP, their time given afterwards (issue 25)
        big = solve_min_total_duration(T[~tiny], s[~tiny], c, steps[~tiny], solver=solver)
        X = np.zeros_like(T)
        X[~tiny] = big.allocation
        X = place_tiny_jobs(X, T, s, c, steps, tiny, big.makespan)
        return MakespanResult(X, makespan_of(X, T, steps), big.lp_makespan, big.reference)
    ref = None
    for _ in range(2):
        problem, x, ref = build_min_total_duration(T, s, c, steps, reference=ref)
        X = solved_allocation(problem, x, solver)
        z = float(problem.value)
        if z <= 0:
            raise SolverError(f"min-total-duration LP returned z = {z}; no finite makespan")
        result = MakespanResult(X, makespan_of(X, T, steps), ref / z, ref)
        if result.gap <= CERT_RTOL:
            return result
        ref = result.makespan if np.isfinite(result.makespan) else result.lp_makespan
    raise SolverError(f"min-total-duration: recomputed makespan {result.makespan:.9g} differs from the LP's "
                      f"{result.lp_makespan:.9g} by {result.gap:.2e} (> {CERT_RTOL})")


#: Methods of :func:`min_total_duration`: Gavel's bisection and the exact LP.
MTD_METHODS = ("bisection", "exact")


def min_total_duration(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                       method: str = "bisection", solver: str = "ecos") -> np.ndarray:
    """Allocation minimizing the time to finish every job's ``remaining_steps`` (makespan).

    Parameters
    ----------
    throughput, scale_factor, capacity
        As for :func:`~hetopt.gavel.max_min_fairness`.
    priority_weight : None
        Not used by this policy; must be None.
    remaining_steps : array_like, shape (J,), optional
        Steps left (> 0); default one unit of work per job.
    method : {"bisection", "exact"}
        ``"bisection"`` (default): Gavel's ``MinTotalDurationPolicyWithPerf``, bisection on the
        makespan with feasibility LPs from the bracket [100 s, 1e6 s] to a 5 % bracket
        (:func:`~hetopt.gavel.lp.gavel_min_total_duration`); ``"exact"``: the scaled exact LP
        (:func:`solve_min_total_duration`, its makespan recomputed and checked).
    solver : {"ecos", "highs"}
        The LP solver (Gavel: ECOS).

    Returns
    -------
    numpy.ndarray, shape (J, R)
    """
    from .lp import check_solver, gavel_min_total_duration

    if priority_weight is not None:
        raise ArgumentError("priority_weight is not used by min_total_duration; pass None")
    if not isinstance(method, str) or method not in MTD_METHODS:
        raise ArgumentError(f"method is {method!r}; expected one of {MTD_METHODS}")
    solver = check_solver(solver)
    if method == "exact":
        return solve_min_total_duration(throughput, scale_factor, capacity, remaining_steps, solver=solver).allocation
    T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, None, remaining_steps)
    steps = np.ones(T.shape[0]) if steps is None else steps
    return gavel_min_total_duration(T, s, c, steps, solver=solver.upper())[0]


# -- the certified optimum (solve_exact) ------------------------------------------------------------

#: Relative safety margin of :func:`feasible_allocation` when it scales a row or a column down.
_SHRINK = 1e-12


@dataclass(frozen=True)
class CertifiedMakespan:
    """The minimum makespan bracketed by two certificates that do not trust the solver.

    Attributes
    ----------
    allocation : numpy.ndarray, shape (J, R)
        An allocation that satisfies (G1)-(G3) exactly (:func:`feasible_allocation` of the LP's).
    makespan : float
        Its makespan, recomputed from the data: an upper bound on the optimum.
    lower_bound : float
        A proven lower bound on the optimum: :func:`dual_makespan_bound` of the LP's duals, or
        :func:`makespan_reference` when no dual is available.
    status : Status
        OPTIMAL when the two meet within ``OPTIMAL_RTOL``; TIME_LIMIT when the time limit stopped
        the LP first; FEASIBLE when the LP finished but the certificates still differ.
    lp_makespan : float or None
        The LP's own value ``D / z`` of the last solve (None when it returned none).
    solves : int
        LPs solved (1, or 2 when the first certificates did not meet).
    """

    allocation: np.ndarray
    makespan: float
    lower_bound: float
    status: Status
    lp_makespan: float | None
    solves: int

    @property
    def gap(self) -> float | None:
        """``relative_gap(makespan, lower_bound)``."""
        return relative_gap(self.makespan, self.lower_bound)


def feasible_allocation(allocation, scale_factor, capacity) -> np.ndarray:
    """``allocation`` shrunk until it satisfies (G1)-(G3) exactly (no entry grows).

    Entries below ``ROUNDOFF`` (negative round-off included) become 0; a row whose sum exceeds 1
    and a column whose GPU count ``sum_j s_j X_jr`` exceeds ``c_r`` are scaled down.  A vertex the
    LP solver returns within its feasibility tolerance moves by that tolerance at most.

    Examples
    --------
    >>> feasible_allocation([[0.6, 0.5], [-1e-12, 1.0]], [1, 1], [2, 1]).round(6).tolist()
    [[0.545455, 0.3125], [0.0, 0.6875]]
    """
    X = numeric_array("allocation", allocation).copy()
    s = numeric_array("scale_factor", scale_factor)
    c = numeric_array("capacity", capacity)
    if X.ndim != 2 or s.shape != (X.shape[0],) or c.shape != (X.shape[1],):
        raise InstanceError(f"allocation {X.shape}, scale_factor {s.shape}, capacity {c.shape} do not agree")
    X[~np.isfinite(X) | (X < ROUNDOFF)] = 0.0
    rows = X.sum(axis=1)
    over = rows > 1.0
    X[over] *= ((1.0 - _SHRINK) / rows[over])[:, None]
    load = s @ X
    full = load > c
    X[:, full] *= (c[full] * (1.0 - _SHRINK) / load[full])[None, :]
    return X


def dual_makespan_bound(throughput, scale_factor, capacity, remaining_steps, job_weight, type_price) -> float:
    """A lower bound on the minimum makespan from any multipliers ``job_weight >= 0``, ``type_price >= 0``.

    For every allocation meeting (G1)-(G3) with makespan ``M`` (``T_j . X_j >= steps_j / M``)::

        sum_j l_j steps_j / M  <=  sum_jr l_j T_jr X_jr  <=  sum_j mu_j + sum_r c_r nu_r,
        mu_j = max(0, max_r (l_j T_jr - s_j nu_r)),

    so ``M >= sum_j l_j steps_j / (sum_j mu_j + c . nu)``.  The LP's optimal duals make it tight;
    any other multipliers (negative entries count as 0) still give a valid bound, so it does not
    rest on the solver's accuracy.  Returns 0 when the multipliers prove nothing.

    Examples
    --------
    One job, 4 steps at 2 steps/s on one GPU: ``M >= 2``.

    >>> dual_makespan_bound([[2.0]], [1], [1], [4.0], [1.0], [2.0])
    2.0
    """
    T = numeric_array("throughput", throughput)
    s = numeric_array("scale_factor", scale_factor)
    c = numeric_array("capacity", capacity)
    steps = numeric_array("remaining_steps", remaining_steps)
    lam = np.clip(np.nan_to_num(numeric_array("job_weight", job_weight)), 0.0, None)
    nu = np.clip(np.nan_to_num(numeric_array("type_price", type_price)), 0.0, None)
    if T.ndim != 2 or s.shape != (T.shape[0],) or c.shape != (T.shape[1],) or steps.shape != (T.shape[0],) or \
            lam.shape != (T.shape[0],) or nu.shape != (T.shape[1],):
        raise InstanceError("throughput (J, R), scale_factor, remaining_steps, job_weight (J,) and capacity, "
                            "type_price (R,) do not agree")
    mu = np.clip((lam[:, None] * T - np.outer(s, nu)).max(axis=1), 0.0, None)
    num = float(lam @ steps)
    den = float(mu.sum() + c @ nu)
    if not (num > 0 and den > 0 and np.isfinite(num) and np.isfinite(den)):
        return 0.0
    return num / den


def _fallback_allocation(T, s, c) -> np.ndarray:
    """The isolated equal share (:func:`~hetopt.gavel.fairness.isolated_allocation`), an incumbent before any LP.

    It meets (G1)-(G3) and gives every job a positive rate on a type with GPUs.
    """
    from .fairness import isolated_allocation

    return feasible_allocation(isolated_allocation(s, c), s, c)


def certify_min_total_duration(throughput, scale_factor, capacity, remaining_steps=None, *,
                               time_limit: float | None = None, threads: int | None = 1) -> CertifiedMakespan:
    """The minimum makespan with a proven lower bound and a feasible allocation that reaches it.

    Solves the scaled LP of :func:`build_min_total_duration` (in units of
    :func:`makespan_reference`), makes its allocation exactly feasible
    (:func:`feasible_allocation`) and recomputes its makespan (the upper bound), and turns the
    duals of (G3) and (G5) into a lower bound (:func:`dual_makespan_bound`).  OPTIMAL only when
    the two meet within ``OPTIMAL_RTOL``; otherwise the LP is solved once more in units of the
    upper bound, and the best of both certificates is kept.

    Parameters
    ----------
    throughput, scale_factor, capacity, remaining_steps
        As for :func:`solve_min_total_duration`.
    time_limit : float, optional
        Seconds for all the LP solves.  When it stops the LP, the result has status TIME_LIMIT,
        the best allocation found (the isolated equal share if none) and the best bound
        (:func:`makespan_reference` if no dual was returned).
    threads : int, optional
        HiGHS threads of the LP solves (default 1; None: HiGHS's default).

    Returns
    -------
    CertifiedMakespan
    """
    T, s, c, _, steps = check_policy_inputs(throughput, scale_factor, capacity, None, remaining_steps)
    steps = np.ones(T.shape[0]) if steps is None else steps
    tmax, _ = _per_job(T, c, steps)
    time_limit, threads = check_time_limit(time_limit), check_threads(threads)
    start = time.perf_counter()
    lower = makespan_reference(T, s, c, steps)
    tiny = tiny_jobs(T, c, steps, lower)
    if tiny.any():  # the other jobs' certificate; tiny jobs placed after (a bound of a subset bounds the whole)
        big = certify_min_total_duration(T[~tiny], s[~tiny], c, steps[~tiny], time_limit=time_limit, threads=threads)
        X = np.zeros_like(T)
        X[~tiny] = big.allocation
        # big.allocation is exactly feasible; the tiny jobs' fractions (1e-12 and less) are kept as computed
        X = place_tiny_jobs(X, T, s, c, steps, tiny, big.makespan)
        upper = makespan_of(X, T, steps)
        low = min(max(lower, big.lower_bound), upper)
        status = certify(upper, low, stopped=big.status is Status.TIME_LIMIT, sense="min")
        return CertifiedMakespan(X, upper, low, status, big.lp_makespan, big.solves)
    best: np.ndarray | None = None
    upper = np.inf
    ref, lp_value, solves, stopped = None, None, 0, False
    for _ in range(2):
        left = None if time_limit is None else time_limit - (time.perf_counter() - start)
        if left is not None and left <= 0:
            stopped = True
            break
        problem, x, ref = build_min_total_duration(T, s, c, steps, reference=ref)
        res = solve_problem(problem, "HIGHS", time_limit=left, threads=threads, require_incumbent=False)
        solves += 1
        stopped = res.status is Status.TIME_LIMIT
        if x.value is not None:
            X = feasible_allocation(x.value, s, c)
            span = makespan_of(X, T, steps)
            if best is None or span < upper:
                best, upper = X, span
        z = problem.value
        lp_value = ref / float(z) if z is not None and np.isfinite(z) and z > 0 else None
        g5, g3 = problem.constraints[3], problem.constraints[2]
        if g5.dual_value is not None and g3.dual_value is not None:
            lam = np.asarray(g5.dual_value, dtype=float).reshape(-1) / tmax
            lower = max(lower, dual_makespan_bound(T, s, c, steps, lam, np.asarray(g3.dual_value).reshape(-1)))
        if stopped or certify(upper, lower, stopped=False, sense="min") is Status.OPTIMAL:
            break
        ref = upper if np.isfinite(upper) else None
    if best is None:  # the LP returned no allocation before the time limit
        best = _fallback_allocation(T, s, c)
        upper = makespan_of(best, T, steps)
    status = certify(upper, lower, stopped=stopped, sense="min")
    return CertifiedMakespan(best, upper, min(lower, upper), status, lp_value, solves)
