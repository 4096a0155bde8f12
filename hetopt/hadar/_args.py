"""Checks of Hadar's array arguments: ArgumentError naming the argument (never a raw numpy error)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ArgumentError, InstanceError
from ..inputs import check_positive, numeric_array

__all__ = ["real_array", "job_list", "check_now"]


def real_array(name: str, value: Any, shape: tuple[int, ...] | None, *, minimum: float | None = 0.0,
               integer: bool = False, finite: bool = True) -> np.ndarray:
    """``value`` as a float (or int64) array of ``shape`` (None: any) with entries ``>= minimum``; ArgumentError otherwise."""
    try:
        a = numeric_array(name, value, integer=integer)
    except InstanceError as exc:
        raise ArgumentError(str(exc)) from None
    if shape is not None and a.shape != shape:
        raise ArgumentError(f"{name} has shape {a.shape}; expected {shape}")
    bad = np.argwhere((~np.isfinite(a) if finite else np.isnan(a)) | ((a < minimum) if minimum is not None else False))
    if bad.size:
        idx = tuple(int(i) for i in bad[0])
        lo = f" >= {minimum:g}" if minimum is not None else ""
        raise ArgumentError(f"{name}{list(idx)} is {a[idx]!r}; expected {'finite ' if finite else ''}numbers{lo}")
    return a


def job_list(name: str, value: Any, n_jobs: int) -> list[int]:
    """Distinct job indices in ``0..n_jobs-1`` (no booleans, no negative wrap-around); ArgumentError otherwise."""
    if isinstance(value, (str, bytes)) or value is None or not hasattr(value, "__iter__"):
        raise ArgumentError(f"{name} is {value!r}; expected a sequence of job indices")
    out: list[int] = []
    for k, j in enumerate(value):
        if isinstance(j, (bool, np.bool_)) or not isinstance(j, (int, np.integer)) or not 0 <= int(j) < n_jobs:
            raise ArgumentError(f"{name}[{k}] is {j!r}; expected a job index in 0..{n_jobs - 1}")
        out.append(int(j))
    if len(set(out)) != len(out):
        raise ArgumentError(f"{name} repeats a job ({out}); expected distinct job indices")
    return out


def check_now(value: Any, name: str = "now") -> float:
    """A time in seconds: a finite real number >= 0 (NaN, inf, booleans and strings refused)."""
    return check_positive(value, name, allow_zero=True)
