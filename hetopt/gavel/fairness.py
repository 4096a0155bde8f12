"""Max-min fairness (Gavel's heterogeneity-aware LAS) and max-sum-throughput.

Max-min fairness maximizes ``min_j A_j . X_j`` where the coefficient matrix ``A``
(:func:`fairness_coefficients`) normalizes each job's effective throughput
``T_j . X_j``.  Two normalizations are offered:

``"gavel"`` (default)
    Gavel's ``MaxMinFairnessPolicyWithPerf``: ``A_jr = s_j T_jr / (w_j T_j . p)`` with the
    proportional allocation ``p_r = c_r / C`` (:func:`proportional_allocation`; Gavel's
    ``ProportionalPolicy`` divides ``c_r / J`` by its largest row sum ``C / J``), i.e. the
    job's throughput relative to what it would get on the proportional share of every
    type, times its scale factor.
``"isolated"``
    ``A_jr = T_jr / (w_j T_j . X^iso_j)`` with the feasible equal share
    ``X^iso_jr = (c_r / C) min(1, C / (J s_j))`` (:func:`isolated_allocation`): the
    optimum is ``>= 1`` and equals 1 on a homogeneous cluster.

When every job is contended (``J s_j >= C``) ``T_j . X^iso_j = (C / (J s_j)) T_j . p``, so
the two coefficient matrices differ by the constant ``J / C`` and the LPs have the same
optimal allocations.  When some job is not contended they differ: the isolated reading
caps that job's reference at full time (``min(1, ...)``) and ignores its scale factor,
which changes which job is the bottleneck (``models/gavel.md``,
``gavel2021.policy_mmf.normalization_reading``, a conformance check).
"""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentError, InstanceError
from ..inputs import MAX_GENERATED, check_size, numeric_array
from .inputs import base_constraints, check_policy_inputs, no_steps, solved_allocation
from .lp import check_solver, gavel_max_min_fairness, gavel_max_sum_throughput

__all__ = [
    "NORMALIZATIONS",
    "proportional_allocation",
    "isolated_allocation",
    "fairness_coefficients",
    "max_min_fairness_objective",
    "build_max_min_fairness",
    "build_max_sum_throughput",
    "max_min_fairness",
    "max_sum_throughput",
]

#: Normalizations of max-min fairness accepted by ``normalization=``.
NORMALIZATIONS = ("gavel", "isolated")


def proportional_allocation(capacity, n_jobs: int) -> np.ndarray:
    """Gavel's proportional allocation: every row is ``c / sum(c)``.

    Gavel's ``ProportionalPolicy`` gives each of the ``J`` jobs ``c_r / J`` of type ``r``
    and divides by the largest row sum ``C / J``, so every row is ``c_r / C`` whatever the
    contention.  It is a normalization reference, not a feasible allocation in general
    (``sum_j s_j c_r / C`` may exceed ``c_r``).

    Examples
    --------
    >>> proportional_allocation([2, 6], 3)
    array([[0.25, 0.75],
           [0.25, 0.75],
           [0.25, 0.75]])
    """
    c = numeric_array("capacity", capacity)
    if c.ndim != 1 or c.size == 0 or np.any(~np.isfinite(c)) or np.any(c < 0):
        raise InstanceError(f"capacity is {c!r}; expected a vector of GPU counts >= 0, one per type")
    n = check_size(n_jobs, "n_jobs", minimum=0, maximum=MAX_GENERATED)
    C = c.sum()
    row = c / C if C > 0 else np.zeros_like(c)
    return np.tile(row, (n, 1))


def isolated_allocation(scale_factor, capacity) -> np.ndarray:
    """Each job's equal share of the cluster (the ``"isolated"`` normalization's reference).

    ``X_iso[j, r] = (c_r / C) * min(1, C / (J * s_j))`` with ``C = sum_r c_r``: every job
    receives the same GPU-time ``min(C/J, s_j)`` per unit of time, spread over the types in
    proportion to their GPU counts.  It satisfies every base constraint.
    """
    s = numeric_array("scale_factor", scale_factor)
    c = numeric_array("capacity", capacity)
    if s.ndim != 1 or c.ndim != 1 or c.size == 0 or np.any(~np.isfinite(s)) or np.any(s < 1) or np.any(~np.isfinite(c)) or \
            np.any(c < 0):
        raise InstanceError("scale_factor and capacity must be vectors: scale factors >= 1, GPU counts >= 0")
    C = c.sum()
    if C <= 0:
        return np.zeros((s.size, c.size))
    share = np.minimum(1.0, C / (s.size * s))
    return np.outer(share, c / C)


def fairness_coefficients(throughput, scale_factor, capacity, priority_weight=None, *,
                          normalization: str = "gavel") -> np.ndarray:
    """The matrix ``A`` of max-min fairness: job ``j``'s normalized throughput is ``A_j . X_j``.

    Parameters
    ----------
    throughput, scale_factor, capacity, priority_weight
        As for :func:`max_min_fairness`.
    normalization : {"gavel", "isolated"}
        See the module docstring.

    Returns
    -------
    numpy.ndarray, shape (J, R)

    Raises
    ------
    InstanceError
        On malformed input, an unknown normalization, or a job whose reference throughput
        is zero (it runs only on types with no GPUs).
    """
    if normalization not in NORMALIZATIONS:
        raise ArgumentError(f"normalization is {normalization!r}; expected one of {NORMALIZATIONS}")
    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    J = T.shape[0]
    w = np.ones(J) if w is None else w
    if normalization == "gavel":
        ref = np.sum(T * proportional_allocation(c, J), axis=1)
        gain = s
    else:
        ref = np.sum(T * isolated_allocation(s, c), axis=1)
        gain = np.ones(J)
    stuck = np.flatnonzero(ref <= 0)
    if stuck.size:
        raise InstanceError(f"job {stuck[0]} has zero throughput on every GPU type with capacity > 0; "
                            "max-min fairness cannot normalize it")
    return T * (gain / (w * ref))[:, None]


def max_min_fairness_objective(X, throughput, scale_factor, capacity, priority_weight=None, *,
                               normalization: str = "gavel") -> float:
    """Evaluate any allocation ``X`` on max-min fairness's objective ``min_j A_j . X_j``.

    Examples
    --------
    The hand example of issue 10: with Gavel's normalization giving job 0 all of type 0
    scores ``4/3``; both jobs at rate 5/3 (hetopt's former optimum) scores less.

    >>> T, s, c = [[2, 1], [2, 1]], [1, 2], [2, 2]
    >>> round(max_min_fairness_objective([[1, 0], [0.5, 0.5]], T, s, c), 6)
    1.333333
    """
    A = fairness_coefficients(throughput, scale_factor, capacity, priority_weight, normalization=normalization)
    X = numeric_array("X", X)
    if X.shape != A.shape:
        raise InstanceError(f"X (the allocation) has shape {X.shape}; expected {A.shape}")
    return float(np.min(np.sum(A * X, axis=1)))


def build_max_min_fairness(throughput, scale_factor, capacity, priority_weight=None, *,
                           normalization: str = "gavel"):
    """Max-min fairness as an LP: ``max z`` s.t. (G1)-(G3) and (G4) ``z <= A_j . X_j``.

    ``A`` is :func:`fairness_coefficients` (each row is scale-free: multiplying a job's
    throughputs by any constant leaves it unchanged).  Returns ``(problem, x)``.
    """
    import cvxpy as cp

    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    A = fairness_coefficients(T, s, c, w, normalization=normalization)
    J, R = T.shape
    x = cp.Variable((J, R), name="X")
    z = cp.Variable(name="z")
    cons = base_constraints(x, s, c, "max-min fairness")
    fair = z <= cp.sum(cp.multiply(A, x), axis=1)
    fair.set_label("(G4) z is below every job's normalized throughput")
    cons.append(fair)
    return cp.Problem(cp.Maximize(z), cons), x


def build_max_sum_throughput(throughput, scale_factor, capacity, priority_weight=None):
    """Max-sum-throughput: ``max sum_j w_j T_j . X_j`` s.t. (G1)-(G3).  Returns ``(problem, x)``.

    The objective is divided by ``max_jr w_j T_jr`` (a positive constant, so the argmax is
    unchanged) to keep its coefficients in ``(0, 1]`` at any throughput magnitude.
    """
    import cvxpy as cp

    T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
    J, R = T.shape
    w = np.ones(J) if w is None else w
    coef = T * w[:, None]
    coef = coef / coef.max()
    x = cp.Variable((J, R), name="X")
    cons = base_constraints(x, s, c, "max-sum-throughput")
    return cp.Problem(cp.Maximize(cp.sum(cp.multiply(coef, x))), cons), x


def max_min_fairness(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                     normalization: str = "gavel", solver: str = "ecos") -> np.ndarray:
    """Allocation of heterogeneity-aware max-min fairness (Gavel's LAS policy).

    Parameters
    ----------
    throughput : array_like, shape (J, R)
        ``throughput[j, r]``: iterations/s of job ``j`` on ``scale_factor[j]`` GPUs of type ``r``
        (0 where it cannot run there).
    scale_factor : array_like, shape (J,)
        GPUs a job occupies when it runs (all of one type).
    capacity : array_like, shape (R,)
        GPUs of each type.
    priority_weight : array_like, shape (J,), optional
        The objective is ``min_j rho_j / w_j`` (Gavel's ``1/w_m`` weighting).
    remaining_steps : None
        Not used by this policy; must be None (accepted for the common signature).
    normalization : {"gavel", "isolated"}
        ``"gavel"`` (default): Gavel's ``MaxMinFairnessPolicyWithPerf`` (proportional-share
        reference times scale factor); ``"isolated"``: equal feasible share, no scale factor.
    solver : {"ecos", "highs"}
        ``"ecos"`` (default): the LP as Gavel's code poses it, solved by ECOS and clipped to
        ``[0, 1]`` (:func:`~hetopt.gavel.lp.gavel_max_min_fairness`; Gavel's interior solution when
        the optimum is not unique); ``"highs"``: hetopt's epigraph LP (:func:`build_max_min_fairness`),
        a vertex.  Both reach the same objective.

    Returns
    -------
    numpy.ndarray, shape (J, R)
        Time fractions.

    Examples
    --------
    >>> X = max_min_fairness([[2, 1], [2, 1]], [1, 2], [2, 2])
    >>> round(max_min_fairness_objective(X, [[2, 1], [2, 1]], [1, 2], [2, 2]), 6)
    1.333333

    References
    ----------
    Narayanan et al., OSDI 2020, Section 4.1; ``scheduler/policies/max_min_fairness.py``.
    """
    no_steps("max_min_fairness", remaining_steps)
    if check_solver(solver) == "ecos" and normalization == "gavel":
        T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
        return gavel_max_min_fairness(T, s, c, w)
    problem, x = build_max_min_fairness(throughput, scale_factor, capacity, priority_weight,
                                        normalization=normalization)
    return solved_allocation(problem, x, solver)


def max_sum_throughput(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None,
                       solver: str = "ecos") -> np.ndarray:
    """Allocation maximizing the (weighted) sum of effective throughputs.

    Gavel's ``ThroughputSumWithPerf`` is the unweighted case (``priority_weight=None``; the
    simulator passes no weights, as Gavel's); see :func:`max_min_fairness` for the arguments.
    ``solver="ecos"`` poses Gavel's LP (raw throughputs as the objective, ECOS, clipped);
    ``"highs"`` hetopt's LP with the objective divided by its largest coefficient.
    """
    no_steps("max_sum_throughput", remaining_steps)
    if check_solver(solver) == "ecos":
        T, s, c, w, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight)
        return gavel_max_sum_throughput(T if w is None else T * w[:, None], s, c)
    problem, x = build_max_sum_throughput(throughput, scale_factor, capacity, priority_weight)
    return solved_allocation(problem, x, "highs")
