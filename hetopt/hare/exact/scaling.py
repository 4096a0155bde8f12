"""Integer scaling of a Hare instance for CP-SAT, and the integer units of the bound grids.

Times are multiplied by ``S = 10^k_t`` and weights by ``W = 10^k_w`` (:func:`scaling`,
:func:`scaled_instance`), every float read as the shortest decimal that prints as it and rounded
in exact decimal arithmetic. Exact mode: the scaled model IS the true one times ``S W`` when its
integers fit (:data:`MAX_INTEGER`, :data:`MAX_OBJECTIVE`); otherwise rounding mode, times UP and
weights DOWN, with the allowance :attr:`Scaling.allowance` that keeps CP-SAT's bound valid.
The grids of :mod:`hetopt.hare.exact.timeindexed` and :mod:`hetopt.hare.exact.jobpricing` use the
same ``S`` (:func:`data_units`, :func:`units`, :func:`grid_step`). The derivation and the
certificate: the card (models/hare2022.md, "Magnitudes, certificates and guards").
"""

from __future__ import annotations

import decimal
import functools
import math
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

import numpy as np

from ...errors import SizeLimitError
from ..instance import HareInstance

__all__ = ["Scaling", "scaling", "scaled_instance", "rounded_down_instance", "DataUnits", "data_units",
           "units", "grid_step", "decimal_places", "MAX_INTEGER", "MAX_OBJECTIVE", "TARGET_HORIZON", "TARGET_WEIGHT",
           "MARGIN"]

#: Every scaled datum and the scaled serial horizon stay below this (integers exact as floats).
MAX_INTEGER = 2**53
#: ``sum_n w'_n (H + longest task)`` (scaled units) stays below this: CP-SAT's integer range.
MAX_OBJECTIVE = 2**62
#: Rounding mode: the scaled serial horizon aimed at when the exact scaling does not fit.
TARGET_HORIZON = 1e9
#: Rounding mode: the sum of the scaled weights aimed at when the exact scaling does not fit.
TARGET_WEIGHT = 1e9
#: Relative margin of every certificate for reading the floats as their decimals (module docstring).
MARGIN = 1e-12

_CTX = decimal.Context(prec=120, Emin=-999999, Emax=999999)


def _dec(v: float) -> Decimal:
    """The shortest decimal that prints as the float ``v``."""
    return Decimal(repr(float(v)))


def decimal_places(values: np.ndarray) -> int:
    """Decimal places of the shortest decimals of ``values`` (0 for integers, 10 for ``1e-10``).

    Parameters
    ----------
    values : numpy.ndarray
        Finite floats.

    Returns
    -------
    int
        The largest number of decimal places among them.
    """
    out = 0
    for v in np.asarray(values, dtype=float).ravel():
        d = _dec(v)
        if d != 0:
            exp = d.normalize(_CTX).as_tuple().exponent
            out = max(out, -int(exp))
    return out


def _scale(values: list[Decimal], k: int, rounding: str) -> list[int]:
    return [int(d.scaleb(k, _CTX).to_integral_value(rounding=rounding, context=_CTX)) for d in values]


class _Decimals:
    """The instance's data as decimals (cached per instance) and their scaled integers by exponent."""

    def __init__(self, inst: HareInstance) -> None:
        self.arrival = [_dec(v) for v in inst.arrival]
        self.weight = [_dec(v) for v in inst.weight]
        self.tc = [_dec(v) for v in inst.compute_time.ravel()]
        self.ts = [_dec(v) for v in inst.sync_time.ravel()]
        self.d = [a + b for a, b in zip(self.tc, self.ts, strict=True)]  # exact decimal sums
        self.shape = inst.compute_time.shape
        self.kt = decimal_places(np.concatenate([inst.arrival, inst.compute_time.ravel(), inst.sync_time.ravel()]))
        self.kw = decimal_places(inst.weight)
        self.cache: dict[tuple, np.ndarray] = {}

    def times(self, which: str, k: int, rounding: str) -> np.ndarray:
        """``arrival``, ``tc``, ``ts`` or ``d`` (= tc + ts) times ``10^k`` rounded, as int64-valued Python ints."""
        key = (which, k, rounding)
        if key not in self.cache:
            vals = _scale(getattr(self, which), k, rounding)
            arr = np.array(vals, dtype=object)
            self.cache[key] = arr if which == "arrival" else arr.reshape(self.shape)
        return self.cache[key]

    def weights(self, k: int) -> np.ndarray:
        key = ("weight", k, ROUND_FLOOR)
        if key not in self.cache:
            self.cache[key] = np.array(_scale(self.weight, k, ROUND_FLOOR), dtype=object)
        return self.cache[key]


_DECIMALS: weakref.WeakKeyDictionary[HareInstance, _Decimals] = weakref.WeakKeyDictionary()


def _decimals(inst: HareInstance) -> _Decimals:
    out = _DECIMALS.get(inst)
    if out is None:
        out = _DECIMALS[inst] = _Decimals(inst)
    return out


@dataclass(frozen=True)
class Scaling:
    """Integer scaling of a Hare instance (module docstring).

    Attributes
    ----------
    time : int or float
        ``S = 10^time_exponent``: scaled time ``ceil(S t)`` (``S t`` exactly when ``exact_times``).
    weight : int or float
        ``W = 10^weight_exponent``: scaled weight ``floor(W w)`` (raised to 1 when it floors to 0).
    exact_times, exact_weights : bool
        Whether the scaled data equal ``S t`` and ``W w`` exactly.
    chain_error : int
        ``e``: most scaled units by which rounding up delays a job's completion (0 if exact).
    raised_weights : int
        Weights that floored to 0 and were raised to one unit.
    horizon : int
        The scaled serial horizon ``H`` (arrival of the last job plus every task's longest round).
    allowance : float
        ``A = e sum w' + raised_weights H``: subtracted from a bound on the scaled model (0 when exact).
    time_exponent, weight_exponent : int
        ``k_t``, ``k_w``.
    """

    time: int | float
    weight: int | float
    exact_times: bool
    exact_weights: bool
    chain_error: int
    raised_weights: int = 0
    horizon: int = 0
    allowance: float = 0.0
    time_exponent: int = 0
    weight_exponent: int = 0
    objective_range: int = field(default=0, compare=False)

    @property
    def exact(self) -> bool:
        """The scaled model is the true one (times ``S W``)."""
        return self.exact_times and self.exact_weights


def _power(k: int) -> int | float:
    return 10 ** k if k >= 0 else 10.0 ** k


def _trial(inst: HareInstance, dec: _Decimals, kt: int, kw: int = 0) -> Scaling | None:
    """The scaling with exponents ``kt``, ``kw``, or None when it does not fit the integer range."""
    a = dec.times("arrival", kt, ROUND_CEILING)
    tc = dec.times("tc", kt, ROUND_CEILING)
    ts = dec.times("ts", kt, ROUND_CEILING)
    w = dec.weights(kw)
    longest = [max(int(x) + int(y) for x, y in zip(rc, rs, strict=True)) for rc, rs in zip(tc, ts, strict=True)]
    tasks = (inst.rounds * inst.tasks_per_round).tolist()
    horizon = max(int(v) for v in a) + sum(int(n) * int(L) for n, L in zip(tasks, longest, strict=True))
    top = horizon + max(longest)
    raised = sum(1 for v in w if int(v) == 0)
    w_sum = sum(max(int(v), 1) for v in w)
    if top > MAX_INTEGER or max(int(v) for v in w) > MAX_INTEGER or w_sum * top > MAX_OBJECTIVE:
        return None
    exact_t = kt >= dec.kt
    exact_w = kw >= dec.kw
    e = 0 if exact_t else 1 + 2 * inst.n_tasks
    return Scaling(time=_power(kt), weight=_power(kw), exact_times=exact_t, exact_weights=exact_w, chain_error=e,
                   raised_weights=raised, horizon=horizon, allowance=float(e * w_sum + raised * horizon),
                   time_exponent=kt, weight_exponent=kw, objective_range=w_sum * top)


def _largest(lo: int, hi: int, fits: Callable[[int], Scaling | None]) -> tuple[int, Scaling] | None:
    """The largest ``k`` in ``[lo, hi]`` whose trial fits (the trials are monotone in ``k``), or None."""
    best = fits(lo)
    if best is None:
        return None
    found = lo
    while lo < hi:
        mid = (lo + hi + 1) // 2
        sc = fits(mid)
        if sc is None:
            hi = mid - 1
        else:
            lo, found, best = mid, mid, sc
    return found, best


_SCALINGS: weakref.WeakKeyDictionary[HareInstance, Scaling] = weakref.WeakKeyDictionary()


def scaling(inst: HareInstance) -> Scaling:
    """The integer scaling of ``inst``: exact when it fits the integer range, else rounding (module docstring).

    Parameters
    ----------
    inst : HareInstance
        The instance.

    Returns
    -------
    Scaling
        ``S``, ``W``, whether they are exact, the chain error and the allowance.

    Raises
    ------
    SizeLimitError
        When not even a coarse rounding fits CP-SAT's integer range (the instance's total work
        and weights together beyond ``2^62`` units at any resolution).
    """
    cached = _SCALINGS.get(inst)
    if cached is not None:
        return cached
    dec = _decimals(inst)
    sc = _trial(inst, dec, dec.kt, dec.kw)
    if sc is None:
        horizon = float(inst.arrival.max() + ((inst.rounds * inst.tasks_per_round)
                                              * (inst.compute_time + inst.sync_time).max(axis=1)).sum())
        kw0 = min(dec.kw, math.floor(math.log10(TARGET_WEIGHT / float(inst.weight.sum()))))
        kt0 = min(dec.kt, math.floor(math.log10(TARGET_HORIZON / horizon)))
        out = None
        for shift in range(0, 40):  # a coarser start until something fits (needs no shift in practice)
            kw_s = kw0 - shift
            out = _largest(kt0 - shift, dec.kt, functools.partial(_trial, inst, dec, kw=kw_s))
            if out is not None:
                break
        if out is None:
            raise SizeLimitError(f"no integer scaling of the instance fits CP-SAT's range 2^62 (serial horizon "
                                 f"{horizon:.6g}, total weight {float(inst.weight.sum()):.6g}); use engine='milp'")
        kt = out[0]
        kw_lo = out[1].weight_exponent
        grown = _largest(kw_lo, max(dec.kw, kw_lo), functools.partial(_trial, inst, dec, kt))
        sc = grown[1] if grown is not None else out[1]
    _SCALINGS[inst] = sc
    return sc


def scaled_instance(inst: HareInstance, sc: Scaling) -> HareInstance:
    """``inst`` with times ``ceil(S t)`` and weights ``floor(W w)`` (raised to 1), integer-valued floats.

    Parameters
    ----------
    inst : HareInstance
        The instance.
    sc : Scaling
        Its scaling (:func:`scaling`).

    Returns
    -------
    HareInstance
        The scaled instance; with an exact scaling it is the true instance times ``S`` and ``W``.
    """
    dec = _decimals(inst)
    kt, kw = sc.time_exponent, sc.weight_exponent

    def arr(which: str) -> np.ndarray:
        return np.asarray(dec.times(which, kt, ROUND_CEILING), dtype=float)

    w = np.maximum(np.asarray(dec.weights(kw), dtype=float), 1.0)
    return inst.rescaled(arrival=arr("arrival"), weight=w, compute_time=arr("tc"), sync_time=arr("ts"))


def rounded_down_instance(inst: HareInstance, time_exponent: int, weight_exponent: int) -> HareInstance | None:
    """``inst`` with times ``floor(10^k_t t)`` and weights ``floor(10^k_w w)`` (exact decimal floors).

    Every true schedule, re-timed semi-actively on these data with the same assignment and order,
    starts every task no later than ``10^k_t`` times its true start, so the optimum of this
    instance is at most ``10^(k_t + k_w)`` times the true one (the coarse bound of
    :func:`hetopt.hare.exact.cpsat.coarse_bound`).

    Returns
    -------
    HareInstance or None
        None when a compute time or a weight floors to 0 (no such instance).
    """
    dec = _decimals(inst)
    tc = np.asarray(dec.times("tc", time_exponent, ROUND_FLOOR), dtype=float)
    w = np.asarray(_scale(dec.weight, weight_exponent, ROUND_FLOOR), dtype=float)
    if tc.min() < 1 or w.min() < 1:
        return None
    return inst.rescaled(arrival=np.asarray(dec.times("arrival", time_exponent, ROUND_FLOOR), dtype=float), weight=w,
                         compute_time=tc, sync_time=np.asarray(dec.times("ts", time_exponent, ROUND_FLOOR), dtype=float))


@dataclass(frozen=True)
class DataUnits:
    """The instance's times in integer units of ``S = 10^k`` (exact decimal roundings, int64).

    Attributes
    ----------
    arrival : numpy.ndarray, shape (N,)
        ``floor(S a_n)``.
    compute : numpy.ndarray, shape (N, M)
        ``floor(S T^c)``.
    compute_up : numpy.ndarray, shape (N, M)
        ``ceil(S T^c)``.
    round : numpy.ndarray, shape (N, M)
        ``floor(S (T^c + T^s))``.
    """

    arrival: np.ndarray
    compute: np.ndarray
    compute_up: np.ndarray
    round: np.ndarray


def data_units(inst: HareInstance, scale_exponent: int) -> DataUnits:
    """The instance's times in units of ``S = 10^scale_exponent``, rounded exactly (:class:`DataUnits`).

    Parameters
    ----------
    inst : HareInstance
        The instance.
    scale_exponent : int
        ``k`` with ``S = 10^k`` (:attr:`Scaling.time_exponent`).

    Returns
    -------
    DataUnits
    """
    dec = _decimals(inst)
    k = int(scale_exponent)

    def arr(which: str, rounding: str) -> np.ndarray:
        return np.asarray(dec.times(which, k, rounding), dtype=np.int64)

    return DataUnits(arrival=arr("arrival", ROUND_FLOOR), compute=arr("tc", ROUND_FLOOR),
                     compute_up=arr("tc", ROUND_CEILING), round=arr("d", ROUND_FLOOR))


def units(values: np.ndarray, scale: int | float, *, upper: bool = False, snap: bool = False) -> np.ndarray:
    """``floor(scale t)`` of derived times (windows, horizons, starts) as int64.

    A lower bound (default) is lowered by a relative ``1e-12`` before the floor, an upper bound
    (``upper=True``) raised, so that the float product never lands on the wrong side of an integer
    that the exact value lies on.  ``snap=True`` takes a product within ``1e-9`` relative of an
    integer as that integer (the starts of a schedule of decimal data, to keep its slots apart).
    The data themselves use :func:`data_units` (exact).

    Parameters
    ----------
    values : numpy.ndarray
        Times.
    scale : int or float
        ``S``.
    upper : bool
        The values are upper bounds.
    snap : bool
        Snap to a nearby integer instead (schedules, not bounds).

    Returns
    -------
    numpy.ndarray of int64
    """
    v = np.asarray(values, dtype=float) * float(scale)
    if snap:
        r = np.round(v)
        return np.where(np.abs(v - r) <= 1e-9 * np.maximum(1.0, np.abs(v)), r, np.floor(v)).astype(np.int64)
    nudge = 1e-12 * np.abs(v)
    return np.floor(v + nudge if upper else v - nudge).astype(np.int64)


def grid_step(median_units: float, resolution: float, horizon_units: float, max_slots: int) -> int:
    """Grid step in units: the largest of 1, 2, 5 x 10^k not above ``median / resolution``.

    The step is then raised (same sequence) until the horizon has at most ``max_slots`` slots;
    it is at least 1.

    Parameters
    ----------
    median_units : float
        The median compute time in units.
    resolution : float
        Slots per median compute time.
    horizon_units : float
        The horizon in units.
    max_slots : int
        Most slots in the horizon.

    Returns
    -------
    int
        The step in units.
    """
    target = max(median_units / resolution, 1.0)
    k = int(math.floor(math.log10(target)))
    cands = [c * 10 ** j for j in range(max(k - 1, 0), k + 40) for c in (1, 2, 5)]
    step = max([c for c in cands if c <= target] or [1])
    for c in cands:
        if c >= step and horizon_units / c <= max_slots:
            return int(c)
    return int(cands[-1])  # pragma: no cover
