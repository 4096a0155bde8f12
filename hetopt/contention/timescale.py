"""Integer time units of the exact engines (CP-SAT, the MILP's slots), certified on the true data.

CP-SAT works on integers and the MILP on a slot grid, so every time of an instance (arrivals,
``t_f``, ``t_b``, the all-reduce times ``a + b sigma``) is converted to a whole number of units,
``unit`` units per second.  The conversion is never assumed exact; the bound is computed from
the TRUE data:

* **Units.**  :func:`choose_scale` takes the coarsest power of ten in which every time is a
  whole number (up to a relative :data:`NEAR` = 1e-12, the noise of decimal data held as
  floats: ``0.3`` is ``0.29999999999999998889...``), if the scaled serial horizon stays within
  :data:`MAX_UNITS` (1e8: CP-SAT's linear relaxation is not reliable on larger domains).  Otherwise the finest power of ten within that range, and the times are rounded DOWN
  (``exact`` False): a datum of 1e-10 s beside 1 s becomes 0 units of 1e-7 s.
* **Rounding.**  ``units(t)`` is ``round(unit t)`` when that is within ``NEAR`` of ``unit t``
  (relative), else ``floor(unit t)``; so every converted time is at most ``stretch * unit * t``
  with ``stretch = 1 + NEAR`` when some time was rounded up, 1 otherwise.
* **Bound** (:meth:`TimeScale.lower_bound`).  Stretch the true instance by ``stretch`` (every
  time, and ``a``, ``b``, ``eta``: the optimum scales by the same factor) and express it in
  units.  Rounding every time of an optimal schedule of it DOWN to an integer keeps every
  difference constraint whose integer constant is at most the true one (``floor x - floor y >=
  floor(x - y)``), every start after its rounded arrival and every completion at most the true
  one, so the integer model (durations at most the true ones) has a point of objective at most
  ``stretch * unit * sum F - sum A'``.  Hence, with ``B`` the integer model's proven bound and
  ``A'`` the integer arrivals,

  ``OPT >= (B + sum A') / (stretch * unit) - sum A``,

  computed in rational arithmetic and rounded down to a float.  When the times are exact the
  bound is ``B / unit`` (the integer model is the true one).  Incumbents are re-timed on the
  true data by the engines, so OPTIMAL is reported only when this bound meets the true
  objective (relative ``OPTIMAL_RTOL``): with rounded data a gap may remain (FEASIBLE, or
  TIME_LIMIT, never a wrong OPTIMAL).

:func:`isolated_bound` is the trivial bound every exact route also keeps: each job alone on its
GPUs, ``sum_k I_k (t_f + t_b + [multi-server] (a + b sigma))``, valid for the contention-free
and the contention-aware problem (an all-reduce never lasts less than ``a + b sigma``).

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Section III.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = ["NEAR", "MAX_UNITS", "TimeScale", "choose_scale", "grid_scale", "slot_scale", "integral_bound",
           "isolated_bound", "float_down", "above"]

#: Relative distance to an integer below which a scaled time counts as that integer.
NEAR = Fraction(1, 10**12)
#: Largest scaled serial horizon (units).  At 1e9 units CP-SAT's linear relaxation (``linearization_level=2``)
#: proved a feasible 7-task model INFEASIBLE for 7 of 12 seeds (issue 25's magnitude tests; the model's own
#: feasible point fixed, it was accepted); at 1e8 and below no seed did.
MAX_UNITS = 10**8


def float_down(q: Fraction) -> float:
    """The largest float not above the rational ``q``."""
    f = float(q)
    if Fraction(f) > q:
        f = math.nextafter(f, -math.inf)
    return f


def _near(x: Fraction) -> int | None:
    """``round(x)`` when within ``NEAR`` of ``x`` (relative; 0 only for x = 0), else None."""
    n = round(x)
    return int(n) if abs(x - n) <= NEAR * abs(x) else None


def _stretch(scaled: Iterable[Fraction]) -> Fraction:
    """``1 + NEAR`` when some scaled time is rounded UP to its near integer, else 1."""
    for x in scaled:
        n = _near(x)
        if n is not None and n > x:
            return Fraction(1) + NEAR
    return Fraction(1)


@dataclass(frozen=True)
class TimeScale:
    """``unit`` integer units per second; ``exact``: every time was (near) integral; ``stretch`` (module docstring)."""

    unit: Fraction
    exact: bool
    stretch: Fraction

    @property
    def time(self) -> Fraction:
        """Alias of ``unit`` (units per second)."""
        return self.unit

    def near_units(self, t: float) -> int | None:
        """``t`` seconds as a whole number of units when it is one (up to ``NEAR``), else None."""
        x = Fraction(float(t)) * self.unit
        n = _near(x)
        return n if n is not None and (n <= x or self.stretch > 1) else None

    def units(self, t: float) -> int:
        """``t`` seconds in units: the nearest integer when within ``NEAR``, else rounded down."""
        n = self.near_units(t)
        return n if n is not None else self.floor_units(t)

    def floor_units(self, t: float) -> int:
        """``floor(unit t)``: at most the true value."""
        return int(math.floor(Fraction(float(t)) * self.unit))

    def ceil_stretched(self, t: float) -> int:
        """``ceil(stretch unit t)``: at least the stretched true value (a term subtracted in a cut)."""
        return int(math.ceil(Fraction(float(t)) * self.unit * self.stretch))

    def lower_bound(self, bound_units: int, arrival_units: Sequence[int], arrival: Iterable[float]) -> float:
        """A lower bound (s) on the true optimum from the integer model's proven bound (module docstring)."""
        q = (Fraction(int(bound_units)) + sum(int(a) for a in arrival_units)) / (self.stretch * self.unit) \
            - sum(Fraction(float(a)) for a in arrival)
        return max(0.0, float_down(q))

    def cut(self, upper_bound: float, arrival_units: Sequence[int], arrival: Iterable[float], rtol: float = 1e-9) -> int:
        """The integer cut ``sum F - sum A' <= cut`` that keeps a rounded optimal schedule whenever OPT <= upper_bound.

        ``upper_bound`` is taken with a relative tolerance ``rtol`` (float noise in a computed
        total JCT).
        """
        u = Fraction(float(upper_bound)) * (1 + Fraction(rtol))
        q = self.stretch * self.unit * (u + sum(Fraction(float(a)) for a in arrival)) - sum(int(a) for a in arrival_units)
        return int(math.floor(q))

    def describe(self) -> str:
        """``"x1e3, exact"`` / ``"x1e7, rounded down"`` for messages."""
        u = self.unit
        exp = round(math.log10(u))
        txt = f"x1e{exp}" if Fraction(10) ** exp == u else f"x{float(u):g}"
        return f"times {txt}, {'exact' if self.exact else 'rounded down'}" + ("" if self.stretch == 1 else " (stretch 1+1e-12)")


def integral_bound(value: float) -> int:
    """A proven bound of an integer-valued objective, as an integer: rounded when within 1e-6 (solver noise), else down."""
    n = round(value)
    # absolute below 1 on purpose: value counts the relaxation's integer units (dimensionless)
    return int(n) if abs(value - n) <= 1e-6 * max(1.0, abs(value)) else int(math.floor(value))


def _exact_power(vals: list[Fraction], d_from: int, d_to: int) -> int | None:
    """The smallest d in ``[d_from, d_to]`` with every value a whole number of 10**-d (up to ``NEAR``)."""
    for d in range(d_from, d_to + 1):
        unit = Fraction(10) ** d
        if all(_near(v * unit) is not None for v in vals):
            return d
    return None


def choose_scale(values: Iterable[float], horizon: float, *, refine: int = 1, limit: int = MAX_UNITS) -> TimeScale:
    """The units of the module docstring for these times (s) and this serial horizon (s).

    With ``refine`` > 1 an exact scaling is made ``refine`` times finer (the contention-aware
    relaxation rounds a fluid schedule down to it).
    """
    vals = [Fraction(float(v)) for v in values if float(v) != 0.0]
    h = max(float(horizon), 1e-300)
    d_range = math.floor(math.log10(limit / (refine * h)))
    if vals:
        d_lo = -math.ceil(math.log10(float(max(vals)))) - 1
        d = _exact_power(vals, min(d_lo, d_range), d_range)
        if d is not None:
            unit = Fraction(10) ** d * refine
            return TimeScale(unit, True, _stretch(v * unit for v in vals))
    unit = Fraction(10) ** math.floor(math.log10(limit / h))
    return TimeScale(unit, False, _stretch(v * unit for v in vals))


def grid_scale(values: Iterable[float], horizon: float, *, limit: int) -> TimeScale | None:
    """The coarsest slot grid on which every time is a whole number of slots (up to ``NEAR``), or None.

    The slot is ``g / 10**d``: ``10**d`` the coarsest exact power-of-ten scaling and ``g`` the
    gcd of the scaled times.  None when no such grid keeps ``horizon / slot <= limit``.
    """
    vals = [Fraction(float(v)) for v in values if float(v) != 0.0]
    if not vals:
        return TimeScale(Fraction(1), True, Fraction(1))
    d_lo = -math.ceil(math.log10(float(max(vals)))) - 1
    d_hi = 13 - math.floor(math.log10(float(min(vals))))  # every value has >= 1e13 units there
    d = _exact_power(vals, d_lo, d_hi)
    if d is None:  # pragma: no cover - d_hi always qualifies
        return None
    unit = Fraction(10) ** d
    g = 0
    for v in vals:
        g = math.gcd(g, _near(v * unit) or 0)
    unit = unit / g
    if Fraction(float(horizon)) * unit > limit:
        return None
    return TimeScale(unit, True, _stretch(v * unit for v in vals))


def slot_scale(slot: float, values: Iterable[float]) -> TimeScale:
    """The units of a given slot length (s), ``1 / slot`` with the slot read as the decimal it prints as.

    ``exact`` says whether every time is a whole number of slots (up to ``NEAR``).
    """
    unit = 1 / Fraction(repr(float(slot)))
    scaled = [Fraction(float(v)) * unit for v in values]
    return TimeScale(unit, all(_near(x) is not None for x in scaled), _stretch(scaled))


def above(bound: float, objective: float, inst, finish=None) -> bool:
    """``bound`` exceeds ``objective`` by more than the float error of a total JCT (a broken certificate).

    ``objective = sum_k (F_k - A_k)`` is computed in floats: with arrivals of 1e6 s and JCTs of
    20 s each difference loses about ``1e-10`` s, far above ``1e-12`` of the objective.
    """
    mags = np.abs(inst.arrival).sum() + (np.abs(finish).sum() if finish is not None else 0.0) + abs(objective)
    return bool(bound > objective + 1e-12 * abs(objective) + 16 * np.finfo(float).eps * float(mags))


def isolated_bound(inst, placement: Sequence[Sequence[int]]) -> float:
    """``sum_k I_k (t_f + t_b + c_k)`` (s), rounded down: every job alone (module docstring).

    ``c_k = a + b sigma_k`` (:meth:`ContentionInstance.comm_time`, the duration the models and the
    checker use) when the job's GPUs span several servers, else 0.
    """
    gps = inst.gpus_per_server
    total = Fraction(0)
    for k, gpus in enumerate(placement):
        per = Fraction(float(inst.t_f[k])) + Fraction(float(inst.t_b[k]))
        if len({int(g) // gps for g in gpus}) > 1:
            per += Fraction(float(inst.comm_time(k)))
        total += int(inst.iterations[k]) * per
    return float_down(total)
