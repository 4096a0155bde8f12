"""Integer scaling of a Hare instance and the time grids of the exact engines.

CP-SAT works on integers, and the time-indexed and column-generation bounds work on a grid of
integer units.  Times (arrivals, ``T^c``, ``T^s``) are multiplied by a factor ``S`` and rounded
UP, weights by ``W`` and rounded DOWN (:func:`scaling`, :func:`scaled_instance`).  ``S`` and ``W``
are the smallest powers of ten (up to :data:`MAX_DECIMALS` decimals) that make the data integral;
then the scaled model is the true one and the rounding error is zero.  Otherwise ``S`` is the
power of ten that puts the serial horizon near :data:`TARGET_HORIZON`.  How the engines keep
their certificates valid for the true data is in :mod:`hetopt.hare.exact.cpsat`,
:mod:`hetopt.hare.exact.timeindexed` and :mod:`hetopt.hare.exact.jobcolgen`.

Known defect (issue 25, not fixed here): :func:`scaling` and :func:`scaled_instance` take a value
within ``1e-9`` of an integer as that integer, so a time or weight of about ``1e-9`` or less
scales to 0 and is then raised to one unit (compute times, weights; weights below ``1 / W`` are
floored and raised too).  The scaled model is then no rounding-up of the true one, and the CP-SAT
route can report OPTIMAL with a wrong objective and a bound above the optimum.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..instance import HareInstance

__all__ = ["Scaling", "scaling", "scaled_instance", "units", "grid_step", "MAX_DECIMALS", "TARGET_HORIZON"]

#: Most decimal places tried for an exact integer scaling of times and weights.
MAX_DECIMALS = 6
#: Scaled serial horizon aimed at when the data have more decimals (integers stay far below 2^53).
TARGET_HORIZON = 1e9


@dataclass(frozen=True)
class Scaling:
    """Integer scaling of a Hare instance for CP-SAT.

    Attributes
    ----------
    time : int
        ``S``: scaled time = ``ceil(S t)``.
    weight : int
        ``W``: scaled weight = ``floor(W w)``.
    exact_times, exact_weights : bool
        Whether the scaled data equal ``S t`` and ``W w`` exactly.
    chain_error : int
        ``e``: most scaled units by which rounding up delays a job's completion (0 if exact).
    """

    time: int
    weight: int
    exact_times: bool
    exact_weights: bool
    chain_error: int


def _decimals(values: np.ndarray) -> int | None:
    """Smallest ``k <= MAX_DECIMALS`` with ``10^k v`` integral for all ``v`` (within 1e-9), else None."""
    for k in range(MAX_DECIMALS + 1):
        v = values * 10.0 ** k
        if np.all(np.abs(v - np.round(v)) <= 1e-9 * np.maximum(1.0, np.abs(v))):
            return k
    return None


def scaling(inst: HareInstance) -> Scaling:
    """The integer scaling of ``inst`` (module docstring).

    Parameters
    ----------
    inst : HareInstance
        The instance.

    Returns
    -------
    Scaling
        ``S``, ``W``, whether they are exact and the chain error ``e``.
    """
    times = np.concatenate([inst.arrival, inst.compute_time.ravel(), inst.sync_time.ravel()])
    kt, kw = _decimals(times), _decimals(inst.weight)
    if kt is None:
        horizon = float(inst.arrival.max() + inst.n_tasks * (inst.compute_time + inst.sync_time).max())
        kt = max(0, int(math.floor(math.log10(TARGET_HORIZON / max(horizon, 1e-300)))))
    w = 10 ** (kw if kw is not None else MAX_DECIMALS)
    exact_t = _decimals(times * 10.0 ** kt) == 0
    return Scaling(time=10 ** kt, weight=w, exact_times=exact_t, exact_weights=kw is not None,
                   chain_error=0 if exact_t else 1 + 2 * inst.n_tasks)


def scaled_instance(inst: HareInstance, sc: Scaling) -> HareInstance:
    """``inst`` with times ``ceil(S t)`` and weights ``floor(W w)`` (integer-valued floats).

    Parameters
    ----------
    inst : HareInstance
        The instance.
    sc : Scaling
        Its scaling (:func:`scaling`).

    Returns
    -------
    HareInstance
        The scaled instance (compute times and weights at least one unit).
    """
    def up(a: np.ndarray) -> np.ndarray:
        v = np.asarray(a) * sc.time
        return np.where(np.abs(v - np.round(v)) <= 1e-9 * np.maximum(1.0, np.abs(v)), np.round(v), np.ceil(v))

    def down(a: np.ndarray) -> np.ndarray:
        v = np.asarray(a) * sc.weight
        return np.where(np.abs(v - np.round(v)) <= 1e-9 * np.maximum(1.0, np.abs(v)), np.round(v), np.floor(v))

    return HareInstance(arrival=up(inst.arrival), weight=np.maximum(down(inst.weight), 1.0), rounds=inst.rounds,
                        tasks_per_round=inst.tasks_per_round, compute_time=np.maximum(up(inst.compute_time), 1.0),
                        sync_time=up(inst.sync_time), gpu_names=inst.gpu_names, job_names=inst.job_names)


def units(values: np.ndarray, scale: int) -> np.ndarray:
    """``floor(scale t)`` as int64, with products within 1e-9 of an integer taken as that integer.

    Parameters
    ----------
    values : numpy.ndarray
        Times.
    scale : int
        ``S``.

    Returns
    -------
    numpy.ndarray of int64
    """
    v = np.asarray(values, dtype=float) * scale
    r = np.round(v)
    return np.where(np.abs(v - r) <= 1e-9 * np.maximum(1.0, np.abs(v)), r, np.floor(v)).astype(np.int64)


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
