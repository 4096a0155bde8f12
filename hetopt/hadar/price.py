"""Hadar's resource price function (5)-(7) and the competitive bound of Theorem 2.

Reading adopted (see ``models/hadar2024.md``; the OCR of (5)-(7) is damaged and the
reading follows OASiS, Bao et al. 2018, eqs. (22)-(26)):

* (5) ``k^r_h(gamma) = U_min * (U_max / U_min) ** (gamma / c^r_h)``, ``gamma`` = type-r GPUs
  of machine h already allocated in the slot;
* (6) ``U_max = max_j U_j(t^min_j) / W_j``: the largest utility per GPU, reached when the job
  runs on ``W_j`` GPUs of its fastest type from its arrival on;
* (7) ``U_min = (1/eta) min_j U_j(T - a_j) / (t^max_j W_j)``: the smallest utility per
  GPU-slot, reached when the job ends at the horizon and runs on its slowest type;
  ``t^min_j = ceil(N_j E_j / (W_j max_r X^r_j L))``, ``t^max_j = ceil(N_j E_j / (W_j min_r X^r_j L))``
  slots (min over usable types);
* ``eta`` scales the initial dual objective: ``1/eta <= t^max_j W_j / (T sum_hr c^r_h)`` for all j
  (OASiS), so by default ``eta = max(1, T C / min_j t^max_j W_j)``.

Neither bound depends on r in the printed formulas; the same value serves every type.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ArgumentError, InstanceError
from ..inputs import check_positive, takes_instance
from ._args import real_array
from .instance import HadarInstance

__all__ = ["PriceParameters", "price_parameters", "price", "competitive_bound"]


@dataclass(frozen=True)
class PriceParameters:
    """``U_max``, ``U_min`` and ``eta`` of eqs. (6)-(7); ``alpha`` of Theorem 2."""

    u_max: float
    u_min: float
    eta: float

    def __post_init__(self) -> None:
        for name in ("u_max", "u_min", "eta"):
            object.__setattr__(self, name, check_positive(getattr(self, name), name))
        if self.u_min > self.u_max:
            raise ArgumentError(f"u_min is {self.u_min!r}, above u_max {self.u_max!r}; expected u_min <= u_max")

    @property
    def alpha(self) -> float:
        """``alpha = max(1, ln(U_max / U_min))`` (Theorem 2; identical for every type)."""
        return max(1.0, math.log(self.u_max / self.u_min))


@takes_instance(HadarInstance)
def price_parameters(inst: HadarInstance, eta: float | None = None) -> PriceParameters:
    """Eqs. (6)-(7) on an instance (durations in seconds: slots times L).

    Raises
    ------
    ArgumentError
        ``eta`` is not a positive number.
    InstanceError
        When the utilities make ``U_min`` zero or ``U_max`` infinite.
    """
    L, T = inst.slot_length, inst.horizon
    t_min = inst.min_slots(slowest=False)
    t_max = inst.min_slots(slowest=True)
    u_best = inst.utility_of(t_min * L)
    u_max = float(np.max(u_best / inst.gpus))
    C = float(inst.capacity.sum())
    if eta is None:
        eta = max(1.0, T * C / float(np.min(t_max * inst.gpus)))
    else:
        eta = check_positive(eta, "eta")
    u_end = inst.utility_of(np.maximum(T - inst.arrival, 1) * L)
    u_min = float(np.min(u_end / (t_max * inst.gpus))) / eta
    if not (u_min > 0 and math.isfinite(u_max)):
        raise InstanceError(f"price bounds U_max={u_max}, U_min={u_min} are unusable; utilities must be "
                            "positive and finite at the horizon")
    return PriceParameters(u_max=u_max, u_min=u_min, eta=float(eta))


def price(gamma: Any, capacity: Any, params: PriceParameters) -> np.ndarray:
    """Eq. (5): unit price of each (machine, type) with ``gamma`` GPUs already allocated.

    Types a machine does not have (capacity 0) get an infinite price.  ArgumentError for ``params``
    that is not a :class:`PriceParameters`, or ``gamma`` / ``capacity`` that are not arrays of the
    same shape of finite numbers >= 0.
    """
    if not isinstance(params, PriceParameters):
        raise ArgumentError(f"params is {params!r}; expected a PriceParameters (hetopt.hadar.price_parameters)")
    c = real_array("capacity", capacity, None)
    if c.size == 0:
        raise ArgumentError("capacity is empty; expected the GPUs of each (machine, type)")
    return _price(real_array("gamma", gamma, c.shape), c, params)


def _price(g: np.ndarray, c: np.ndarray, params: PriceParameters) -> np.ndarray:
    """:func:`price` on checked arrays (the DP's inner loop)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.where(c > 0, g / np.where(c > 0, c, 1.0), np.inf)
    ratio = params.u_max / params.u_min
    return np.where(c > 0, params.u_min * np.power(ratio, np.minimum(frac, 1.0)), np.inf)


@takes_instance(HadarInstance)
def competitive_bound(inst: HadarInstance, eta: float | None = None) -> float:
    """Theorem 2: Hadar's claimed competitive ratio ``2 * alpha``."""
    return 2.0 * price_parameters(inst, eta).alpha
