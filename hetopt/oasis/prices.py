"""Resource prices of OASiS: the bounds U and L (23)-(26), the price functions (22), Theorem 4.

Prices are arrays ``p`` of shape (T, H, R) (p_h^r(t), row ``t - 1`` is slot ``t``) and ``q``
of shape (T, K, R); usage ``g`` (g_h^r(t)) and ``v`` (v_k^r(t)) have the same shapes.  The
bounds are kept as logarithms: for a time-critical job, f_i(T - a_i) in (25)-(26) is of the
order of exp(-1,600) at T = 300 (below the smallest double, ~exp(-745)), while ln L1 and
alpha = ln(U/L) stay finite.  With the Section V-A utilities the literal (25) gives
ln(U/L) ~ 1,600, so every price stays negligible until a server is ~99% full; that, not the
representation of L, is what matters (prices in ``np.longdouble`` give the same picture).
The option ``log_ratio_cap`` (off by default) caps ln(U/L), see :func:`cap_bounds`.

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Section IV-B, eqs. (22)-(26), Theorem 4, Appendix A.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ArgumentError, a_type
from ..inputs import check_choice, check_positive, numeric_array, takes_instance
from .instance import EPS_WORK, OasisInstance, check_size

__all__ = ["PriceBounds", "cap_bounds", "Prices", "Usage", "price_bounds", "estimated_bounds", "price", "prices_from_usage",
           "competitive_bound", "alpha"]


@dataclass(frozen=True, eq=False)
class PriceBounds:
    """ln U_1^r, ln U_2^r (arrays of R), ln L_1, ln L_2 and the scaling factors eta_1, eta_2.

    A resource that no job's worker (PS) uses has ``ln U = ln L`` (a constant price, which
    multiplies a zero demand).
    """

    log_U1: np.ndarray
    log_U2: np.ndarray
    log_L1: float
    log_L2: float
    eta1: float = 1.0
    eta2: float = 1.0

    @property
    def U1(self) -> np.ndarray:
        """U_1^r (may overflow to inf; use ``log_U1``)."""
        return np.exp(self.log_U1)

    @property
    def U2(self) -> np.ndarray:
        """U_2^r (may overflow to inf; use ``log_U2``)."""
        return np.exp(self.log_U2)

    @property
    def L1(self) -> float:
        """L_1 (may underflow to 0; use ``log_L1``)."""
        return math.exp(self.log_L1)

    @property
    def L2(self) -> float:
        """L_2 (may underflow to 0; use ``log_L2``)."""
        return math.exp(self.log_L2)


@dataclass(frozen=True, eq=False)
class Prices:
    """Dual prices p (T, H, R) and q (T, K, R)."""

    p: np.ndarray
    q: np.ndarray

    @classmethod
    def zeros(cls, inst: OasisInstance) -> Prices:
        """Zero prices of the instance's shape."""
        check_size(inst, what="OASiS (prices and usage arrays)")
        T, R = inst.horizon, inst.n_resources
        return cls(np.zeros((T, inst.n_worker_servers, R)), np.zeros((T, inst.n_ps_servers, R)))


@dataclass(frozen=True, eq=False)
class Usage:
    """Allocated amounts g (T, H, R) and v (T, K, R) of earlier admitted jobs."""

    g: np.ndarray
    v: np.ndarray

    @classmethod
    def empty(cls, inst: OasisInstance) -> Usage:
        """No allocation yet."""
        check_size(inst, what="OASiS (prices and usage arrays)")
        T, R = inst.horizon, inst.n_resources
        return cls(np.zeros((T, inst.n_worker_servers, R)), np.zeros((T, inst.n_ps_servers, R)))

    def add(self, inst: OasisInstance, job: int, workers: np.ndarray, ps: np.ndarray) -> None:
        """G += w_i y_i, v += s_i z_i (Alg. 1, lines 9 and 11), in place."""
        np.add(self.g, np.einsum("ht,r->thr", workers, inst.worker_demand[job]), out=self.g)
        np.add(self.v, np.einsum("kt,r->tkr", ps, inst.ps_demand[job]), out=self.v)


def _log_utilities(inst: OasisInstance) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(feasible, ln f_i(earliest offset), ln f_i(T - a_i)) per job."""
    earliest = np.maximum(inst.min_slots - 1, 0)
    latest = inst.horizon - inst.arrival
    feasible = earliest <= latest
    best = np.array([inst.utility[i].log_value(min(int(earliest[i]), int(latest[i]))) for i in range(inst.n_jobs)])
    worst = np.array([inst.utility[i].log_value(int(latest[i])) for i in range(inst.n_jobs)])
    return feasible, best, worst


def _side(inst: OasisInstance, demand: np.ndarray, capacity: np.ndarray, feasible: np.ndarray,
          best: np.ndarray, worst: np.ndarray) -> tuple[np.ndarray, float, float]:
    work = np.ceil(inst.workload * (1 - EPS_WORK))  # ceil(E_i N_i M_i (tau_i + 2 e_i / b_i))
    total_demand = demand.sum(axis=1)
    jobs = np.nonzero(feasible & (total_demand > 0))[0]
    R = demand.shape[1]
    if jobs.size == 0:
        return np.zeros(R), 0.0, 1.0
    cap_total = inst.horizon * capacity.sum()
    # eta: the smallest value with 1/eta <= work_i sum_r w_i^r / (T sum_h sum_r c_h^r) for all i, and eta >= 1
    eta = max(1.0, float(np.max(cap_total / (work[jobs] * total_demand[jobs]))))
    log_L = float(np.min(worst[jobs] - np.log(work[jobs] * total_demand[jobs]))) - math.log(4.0 * eta)
    log_U = np.full(R, log_L)
    for r in range(R):
        users = jobs[demand[jobs, r] > 0]
        if users.size:
            log_U[r] = float(np.max(best[users] - np.log(demand[users, r])))
    return log_U, log_L, eta


@takes_instance(OasisInstance)
def price_bounds(inst: OasisInstance, log_ratio_cap: float | None = None) -> PriceBounds:
    """U_1^r, U_2^r, L_1, L_2 of (23)-(26) from all jobs of the instance (the exact values).

    ``log_ratio_cap`` (default None, the literal (25)-(26)) caps every ln(U/L), see
    :func:`cap_bounds`.

    Notes
    -----
    Reading adopted (see ``models/oasis2018.md``): the argument of f_i in (23)-(24), printed
    ``ceil(E_i M_i (tau_i + 2 e_i / b_i)) - a_i``, is the smallest completion offset a job can
    reach, ``ceil(E_i M_i (tau_i + 2 e_i / b_i)) - 1`` (N_i workers in every slot from a_i on),
    which makes (23)-(24) equal to Appendix A's max over schedules.  Jobs that cannot finish
    by T even so have no schedule and are left out of the max and min, as in Appendix A.
    eta_1, eta_2 are the smallest values allowed by the condition under (26) and by
    ``1 / eta <= 1`` (Appendix A).
    """
    feasible, best, worst = _log_utilities(inst)
    lu1, ll1, eta1 = _side(inst, inst.worker_demand, inst.worker_capacity, feasible, best, worst)
    lu2, ll2, eta2 = _side(inst, inst.ps_demand, inst.ps_capacity, feasible, best, worst)
    return cap_bounds(PriceBounds(lu1, lu2, ll1, ll2, eta1, eta2), log_ratio_cap)


def _check_cap(log_ratio_cap: Any) -> float | None:
    """None, or the cap as a float: a finite number > 0 (:class:`ArgumentError` otherwise)."""
    if log_ratio_cap is None:
        return None
    return check_positive(log_ratio_cap, "log_ratio_cap")


def _cap_side(log_U: np.ndarray, log_L: float, cap: float) -> tuple[np.ndarray, float]:
    top = float(np.max(log_U))
    new_L = max(log_L, top - cap)
    return np.maximum(log_U, new_L), new_L


def cap_bounds(bounds: PriceBounds, log_ratio_cap: float | None) -> PriceBounds:
    """Bounds with every ln(U^r / L) at most ``log_ratio_cap`` (None: ``bounds`` unchanged).

    The largest U of each side is kept (a full server still costs the largest unit utility,
    property (iii) of Section IV-B); L is raised to ``max_r U^r / exp(cap)`` when it is below,
    and a U below the new L is raised to it (a price never decreases with use).  This is an
    option of hetopt, not the paper's (25)-(26): it gives up property (i) (any job can be
    admitted at empty prices) for prices that grow over the whole capacity.

    Raises
    ------
    ArgumentError
        When ``log_ratio_cap`` is not None or a finite number > 0.
    """
    cap = _check_cap(log_ratio_cap)
    if cap is None:
        return bounds
    lu1, ll1 = _cap_side(bounds.log_U1, bounds.log_L1, cap)
    lu2, ll2 = _cap_side(bounds.log_U2, bounds.log_L2, cap)
    return PriceBounds(lu1, lu2, ll1, ll2, bounds.eta1, bounds.eta2)


def estimated_bounds(inst: OasisInstance, fraction: float) -> PriceBounds:
    """Bounds whose ratios U/L are ``fraction`` times the true ones (Fig. 6): U scaled, L kept.

    Raises
    ------
    ArgumentError
        When ``fraction`` is not positive or would put some U below its L (a price that
        decreases with use).
    """
    if isinstance(fraction, (bool, np.bool_)) or not isinstance(fraction, (int, float)) or not math.isfinite(fraction) \
            or not fraction > 0:
        raise ArgumentError(f"fraction is {fraction!r}; expected a positive number (1.0 = the exact U/L)")
    b = price_bounds(inst)
    shift = math.log(fraction)
    # a resource no job uses keeps U = L (its price multiplies zero demand)
    lu1 = np.where(b.log_U1 > b.log_L1, b.log_U1 + shift, b.log_U1)
    lu2 = np.where(b.log_U2 > b.log_L2, b.log_U2 + shift, b.log_U2)
    if np.any(lu1 < b.log_L1 - 1e-12) or np.any(lu2 < b.log_L2 - 1e-12):
        raise ArgumentError(f"fraction {fraction} puts an estimated U below L; the price functions (22) would decrease with use")
    return PriceBounds(lu1, lu2, b.log_L1, b.log_L2, b.eta1, b.eta2)


def price(log_L: float, log_U: np.ndarray | float, used: np.ndarray, capacity: np.ndarray, dtype=float) -> np.ndarray:
    """Price function (22): L (U / L)^(used / capacity), elementwise.

    ``dtype`` is the float type of the result: ``np.longdouble`` (80-bit on x86-64, smallest
    ~exp(-11,400)) keeps the prices that are 0 in double precision; at most tie-breaks among
    servers change (the claims ledger's Fig. 3 checks run both).

    ``used`` and ``capacity`` broadcast (capacity indexed by server and resource).  A server
    with zero capacity of a resource counts as full (price U).  With ln L = -inf (a utility
    that is exactly zero at T) the price is 0 below capacity and U at capacity.
    """
    if isinstance(log_L, bool) or not isinstance(log_L, int | float | np.floating | np.integer) or not (
            -math.inf <= log_L < math.inf):
        raise ArgumentError(f"log_L is {log_L!r}; expected a real number or -inf (ln L)")
    for name, v in (("log_U", log_U), ("used", used), ("capacity", capacity)):
        a = numeric_array(name, v)
        if not np.isfinite(a).all() or (name == "capacity" and (a < 0).any()) or (name != "log_U" and a.size == 0):
            raise ArgumentError(f"{name} is empty or has an entry that is not finite{' or below 0' * (name == 'capacity')}")
    check_choice(dtype, "dtype", (float, np.float64, np.longdouble))
    cap = np.asarray(capacity, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.where(cap > 0, np.asarray(used, dtype=float) / np.where(cap > 0, cap, 1.0), 1.0)
    frac = np.clip(frac, 0.0, 1.0).astype(dtype)
    log_U = np.asarray(log_U, dtype=dtype)
    if math.isinf(log_L):
        return np.where(frac >= 1.0, np.exp(log_U), np.zeros((), dtype=dtype))
    return np.exp(dtype(log_L) + frac * (log_U - dtype(log_L)))


@takes_instance(OasisInstance)
def prices_from_usage(inst: OasisInstance, bounds: PriceBounds, usage: Usage, dtype=float) -> Prices:
    """p_h^r(t) = P_h^r(g_h^r(t)) and q_k^r(t) = Q_k^r(v_k^r(t)) of (22) (Alg. 1, lines 10 and 12).

    ``dtype``: float type of the prices (``np.longdouble`` for extended precision).
    """
    _check_usage_args(bounds, usage)
    p = price(bounds.log_L1, bounds.log_U1[None, None, :], usage.g, inst.worker_capacity[None, :, :], dtype)
    q = price(bounds.log_L2, bounds.log_U2[None, None, :], usage.v, inst.ps_capacity[None, :, :], dtype)
    return Prices(p, q)


def _check_usage_args(bounds: Any, usage: Any) -> None:
    """``prices_from_usage``'s bounds and usage (ArgumentError naming the bad one)."""
    if not isinstance(bounds, PriceBounds):
        raise ArgumentError(f"bounds is {bounds!r:.60}; expected a PriceBounds (price_bounds or estimated_bounds)")
    if not isinstance(usage, Usage):
        raise ArgumentError(f"usage is {usage!r:.60}; expected a Usage (g, v)")


@takes_instance(OasisInstance)
def alpha(inst: OasisInstance, bounds: PriceBounds | None = None) -> float:
    """Alpha = max_r (1, ln U_1^r / L_1, ln U_2^r / L_2) of Theorem 4."""
    if bounds is not None and not isinstance(bounds, PriceBounds):
        raise ArgumentError(f"bounds is {a_type(bounds)}; expected a PriceBounds (hetopt.oasis.price_bounds) or None")
    b = price_bounds(inst) if bounds is None else bounds
    vals = [1.0, float(np.max(b.log_U1 - b.log_L1)), float(np.max(b.log_U2 - b.log_L2))]
    return max(vals)


@takes_instance(OasisInstance)
def competitive_bound(inst: OasisInstance, bounds: PriceBounds | None = None) -> float:
    """2 alpha, the competitive ratio Theorem 4 claims for OASiS on this instance."""
    return 2.0 * alpha(inst, bounds)
