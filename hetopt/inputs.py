"""Shared checks of numeric instance fields: exact types, no silent coercion.

Every instance class converts its array and scalar fields through these helpers, so that a
field given as a numeric string, a boolean, a complex number, ``None`` inside a list, a ragged
nested list or an integer beyond int64 is rejected with an :class:`~hetopt.errors.InstanceError`
naming the field, instead of being coerced (``"3"`` -> 3.0, ``True`` -> 1) or wrapped
(``2**63`` -> ``-2**63``).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .errors import InstanceError

__all__ = ["numeric_array", "real_scalar", "int_scalar", "names_tuple", "job_indices", "check_instance", "INT64_LIMIT"]

#: Integers at or beyond this magnitude do not fit int64 and are rejected.
INT64_LIMIT = 2**63


def _bad_leaf(x: Any) -> str | None:
    """Why a leaf of a nested sequence is not a real number (None if it is one)."""
    if isinstance(x, (bool, np.bool_)):
        return "a boolean"
    if isinstance(x, (str, bytes)):
        return "a string"
    if isinstance(x, (complex, np.complexfloating)):
        return "a complex number"
    if x is None:
        return "None"
    if isinstance(x, (int, np.integer)):
        return "an integer beyond int64" if abs(int(x)) >= INT64_LIMIT else None
    if isinstance(x, (numbers.Real, np.floating)):
        return None
    return f"of type {type(x).__name__}"


def _walk(name: str, value: Any, index: tuple[int, ...]) -> None:
    if isinstance(value, np.ndarray):
        kind = value.dtype.kind
        where = f"{name}{list(index) if index else ''}"
        if kind == "u" and value.size and int(value.max()) >= INT64_LIMIT:
            raise InstanceError(f"{where} holds integers >= 2**63; expected values that fit int64")
        if kind == "O":
            for j, v in enumerate(value.reshape(-1).tolist() if value.ndim else [value.item()]):
                _walk(name, v, index + (j,))
            return
        if kind not in "iuf":
            what = {"b": "booleans", "c": "complex numbers", "U": "strings", "S": "bytes"}.get(kind, f"dtype {value.dtype}")
            raise InstanceError(f"{where} holds {what}; expected real numbers")
        return
    if isinstance(value, (list, tuple)):
        for j, v in enumerate(value):
            _walk(name, v, index + (j,))
        return
    why = _bad_leaf(value)
    if why is not None:
        where = f"{name}[{', '.join(map(str, index))}]" if index else name
        raise InstanceError(f"{where} is {value!r} ({why}); expected a real number")


def numeric_array(name: str, value: Any, *, integer: bool = False) -> np.ndarray:
    """``value`` as a float array (int64 with ``integer=True``); InstanceError naming ``name`` otherwise.

    Rejects strings, booleans, complex numbers, None, objects, ragged nesting, non-finite
    values in integer fields, non-integral values in integer fields and integers of magnitude
    ``>= 2**63``.  Shape and sign checks are left to the caller.
    """
    if value is None:
        raise InstanceError(f"{name} is None; expected numbers")
    _walk(name, value, ())
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InstanceError(f"{name} is ragged or not numeric ({exc}); expected a rectangular array of numbers") from None
    if integer:
        bad = ~np.isfinite(a) | (a != np.round(a)) | (np.abs(a) >= INT64_LIMIT)
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            raise InstanceError(f"{name}{list(idx) if idx else ''} is {a[idx]!r}; expected an integer that fits int64")
        return a.astype(np.int64)
    return a


def real_scalar(name: str, value: Any) -> float:
    """A real number as float; rejects bool, str, complex, None with InstanceError naming ``name``."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    why = _bad_leaf(value)
    if why is not None:
        raise InstanceError(f"{name} is {value!r} ({why}); expected a real number")
    return float(value)


def int_scalar(name: str, value: Any) -> int:
    """An integer (int or integral float) as int; rejects bool, str, complex, beyond int64."""
    v = real_scalar(name, value)
    if not (v == v and abs(v) < INT64_LIMIT and float(v).is_integer()):
        raise InstanceError(f"{name} is {value!r}; expected an integer that fits int64")
    return int(value) if isinstance(value, (int, np.integer)) else int(v)


def names_tuple(name: str, value: Any, length: int, default: str) -> tuple[str, ...]:
    """``length`` strings (repeats allowed: models share names) (default ``f"{default}{j}"``); InstanceError naming ``name`` otherwise."""
    if value is None:
        return tuple(f"{default}{j}" for j in range(length))
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, np.ndarray)):
        raise InstanceError(f"{name} is {value!r}; expected a sequence of {length} strings")
    names = tuple(value)
    if len(names) != length or not all(isinstance(s, str) for s in names):
        raise InstanceError(f"{name} must be {length} strings; got {value!r}")
    return names


def job_indices(name: str, jobs: Any, n_jobs: int) -> np.ndarray:
    """Job indices as int64, each in ``0..n_jobs-1`` (no negative wrap-around); InstanceError naming ``name``."""
    if isinstance(jobs, (str, bytes)) or jobs is None:
        raise InstanceError(f"{name} is {jobs!r}; expected a sequence of job indices")
    idx = numeric_array(name, list(jobs) if not isinstance(jobs, np.ndarray) else jobs, integer=True).reshape(-1)
    bad = np.nonzero((idx < 0) | (idx >= n_jobs))[0]
    if bad.size:
        k = int(bad[0])
        raise InstanceError(f"{name}[{k}] is {int(idx[k])}; job indices must be in 0..{n_jobs - 1}")
    return idx


def check_instance(value: Any, cls: type, where: str = "inst") -> Any:
    """Return ``value`` if it is a ``cls``; else InstanceError (``expected a X, got Y``)."""
    if not isinstance(value, cls):
        raise InstanceError(f"{where} must be a {cls.__name__}; got {type(value).__name__} ({value!r:.60})")
    return value
