"""Shared checks of instance fields and of arguments: exact types, no silent coercion.

Instance fields raise :class:`~hetopt.errors.InstanceError`; arguments of functions and options
of methods raise :class:`~hetopt.errors.ArgumentError` (both name the field or the argument and
the expected form).  :func:`takes_instance` is the one place where a function checks that it
was given an instance of its paper.

Every instance class converts its array and scalar fields through these helpers, so that a
field given as a numeric string, a boolean, a complex number, ``None`` inside a list, a ragged
nested list or an integer beyond int64 is rejected with an :class:`~hetopt.errors.InstanceError`
naming the field, instead of being coerced (``"3"`` -> 3.0, ``True`` -> 1) or wrapped
(``2**63`` -> ``-2**63``).
"""

from __future__ import annotations

import functools
import inspect
import itertools
import math
import numbers
from collections.abc import Callable, Collection
from typing import Any, TypeVar, cast

import numpy as np

from .errors import ArgumentError, InstanceError, a_type

__all__ = ["numeric_array", "real_scalar", "int_scalar", "names_tuple", "job_indices", "INT64_LIMIT",
           "takes_instance", "check_time_limit", "check_gap", "check_threads", "check_seed", "rng_from",
           "check_size", "check_positive", "check_choice", "check_flag", "check_tol", "MAX_SEED",
           "check_example", "MAX_EXAMPLE_SIZE", "MAX_THREADS", "MAX_WORKERS", "MAX_GENERATED", "check_real",
           "check_text", "check_array", "check_result_fields"]

F = TypeVar("F", bound=Callable[..., Any])

#: Seeds are integers in ``[0, MAX_SEED]`` (numpy's SeedSequence takes any non-negative int; the
#: cap keeps JSON round trips exact).
MAX_SEED = 2**63 - 1

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


def _plain_numbers(value: Any) -> np.ndarray | None:
    """``value`` as float64 when it is plainly real numbers (no leaf walk: fast on large inputs), else None.

    Plainly numbers: an int or float numpy array, or (nested lists of) Python or numpy ints and
    floats, up to two levels, with no boolean (numpy would read ``True`` as 1) and no integer of
    magnitude ``>= 2**63`` (numpy would round it into a float).  Anything else takes the leaf
    walk, which names the offending entry.
    """
    if isinstance(value, np.ndarray):
        return value.astype(float, copy=False) if value.dtype.kind in "if" else None
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError):
        return None
    if raw.dtype.kind not in "if" or raw.ndim > 2:
        return None
    leaves = [value] if raw.ndim == 0 else value if raw.ndim == 1 else itertools.chain.from_iterable(value)
    for t in set(map(type, leaves)):
        if not issubclass(t, _PLAIN) or issubclass(t, (bool, np.bool_)):
            return None
    a = raw.astype(float, copy=False)
    if raw.dtype.kind == "f" and a.size and float(np.abs(a).max()) >= INT64_LIMIT:
        return None  # an int beyond int64 may hide among the floats: the walk tells
    return a


_PLAIN = (int, float, np.integer, np.floating)


def numeric_array(name: str, value: Any, *, integer: bool = False) -> np.ndarray:
    """``value`` as a float array (int64 with ``integer=True``); InstanceError naming ``name`` otherwise.

    Rejects strings, booleans, complex numbers, None, objects, ragged nesting, non-finite
    values in integer fields, non-integral values in integer fields and integers of magnitude
    ``>= 2**63``.  Shape and sign checks are left to the caller.
    """
    if value is None:
        raise InstanceError(f"{name} is None; expected numbers")
    a = _plain_numbers(value)
    if a is None:  # not plainly numbers: find the offending leaf, or the raggedness, and name it
        _walk(name, value, ())
        try:
            a = np.asarray(value, dtype=float)
        except (TypeError, ValueError) as exc:
            raise InstanceError(f"{name} is ragged or not numeric ({exc}); expected a rectangular array of "
                                "numbers") from None
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


def _is_real(value: Any) -> bool:
    return isinstance(value, (numbers.Real, np.floating, np.integer)) and not isinstance(value, (bool, np.bool_))


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def takes_instance(cls: type) -> Callable[[F], F]:
    """Decorator: the function's first argument must be a ``cls`` (:class:`ArgumentError` otherwise).

    The one place where a paper's public functions check what they were given; the instance
    checked its own fields when it was built.
    """
    def decorate(func: F) -> F:
        first = next(iter(inspect.signature(func).parameters))  # passed by position or by its own name

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not args and first not in kwargs:
                raise ArgumentError(f"{func.__name__} needs {first}, a {cls.__name__}")
            inst = args[0] if args else kwargs[first]
            if not isinstance(inst, cls):
                raise ArgumentError(f"{first} is {a_type(inst)} ({inst!r:.60}); {func.__name__} expects a "
                                    f"{cls.__name__} (hetopt.load_instance reads files, names and dicts)")
            return func(*args, **kwargs)
        return cast(F, wrapper)
    return decorate


def check_time_limit(value: Any, name: str = "time_limit") -> float | None:
    """Seconds as a float, or None for no limit (``inf`` also means no limit).

    NaN, zero, negative, infinite-as-bool, booleans, strings and other types are an
    :class:`ArgumentError` naming ``name``.
    """
    if value is None:
        return None
    if not _is_real(value) or not float(value) > 0:
        raise ArgumentError(f"{name} is {value!r}; expected a positive number of seconds or None")
    v = float(value)
    return None if math.isinf(v) else v


def check_gap(value: Any, name: str = "mip_gap") -> float | None:
    """A relative optimality gap in ``[0, 1)``, or None; anything else is an :class:`ArgumentError`."""
    if value is None:
        return None
    if not _is_real(value) or not 0 <= float(value) < 1:
        raise ArgumentError(f"{name} is {value!r}; expected a relative gap in [0, 1) or None")
    return float(value)


def check_tol(value: Any, name: str = "tol") -> float:
    """A tolerance: a finite real number >= 0; anything else is an :class:`ArgumentError`."""
    if not _is_real(value) or not (math.isfinite(float(value)) and float(value) >= 0):
        raise ArgumentError(f"{name} is {value!r}; expected a finite number >= 0")
    return float(value)


#: The most solver threads any route accepts (OR-Tools takes a 32-bit count: 2**70 was a TypeError there).
MAX_THREADS = 1024
#: The most worker processes a parallel run starts.
MAX_WORKERS = 1024


def check_threads(value: Any, name: str = "threads") -> int | None:
    """A positive thread count up to :data:`MAX_THREADS`, or None (the solver's default)."""
    if value is None:
        return None
    if not _is_int(value) or not 1 <= int(value) <= MAX_THREADS:
        raise ArgumentError(f"{name} is {value!r}; expected an integer in [1, {MAX_THREADS}] or None")
    return int(value)


def check_seed(value: Any, name: str = "seed") -> int | np.random.Generator | None:
    """An integer seed in ``[0, MAX_SEED]``, a ``numpy.random.Generator``, or None."""
    if value is None or isinstance(value, np.random.Generator):
        return value
    if not _is_int(value) or not 0 <= int(value) <= MAX_SEED:
        raise ArgumentError(f"{name} is {value!r}; expected an integer in [0, 2**63 - 1], a numpy Generator or None")
    return int(value)


#: The largest count (jobs, GPUs, machines, servers, slots) a generator accepts: a bigger request is refused by
#: name before any array is allocated (``n_jobs=2**70`` hung Gavel's generator and was a numpy error elsewhere).
MAX_GENERATED = 1_000_000

#: The largest ``size`` of a kind's ``example`` (an example is small: solved exactly in well under a second).
MAX_EXAMPLE_SIZE = 10


def check_example(seed: Any, size: Any) -> tuple[int, int]:
    """The ``seed`` and ``size`` of a kind's ``example(*, seed, size)``, checked.

    ``seed``: an integer in ``[0, MAX_SEED]`` (None and generators are refused: an example is
    reproducible); ``size``: an integer in ``[0, MAX_EXAMPLE_SIZE]`` (:func:`check_size`).
    Anything else is an :class:`ArgumentError` naming the argument.
    """
    if not _is_int(seed) or not 0 <= int(seed) <= MAX_SEED:
        raise ArgumentError(f"seed is {seed!r:.60}; an example takes an integer in [0, 2**63 - 1]")
    return int(seed), check_size(size, "size", minimum=0, maximum=MAX_EXAMPLE_SIZE)


def rng_from(seed: Any) -> np.random.Generator:
    """A ``numpy.random.Generator`` from a seed checked by :func:`check_seed` (a Generator is used as is)."""
    checked = check_seed(seed)
    return checked if isinstance(checked, np.random.Generator) else np.random.default_rng(checked)


def check_size(value: Any, name: str, *, minimum: int = 1, maximum: int | None = None) -> int:
    """An integer count in ``[minimum, maximum]`` (no booleans, no fractions, no strings)."""
    if not _is_int(value) or int(value) < minimum or (maximum is not None and int(value) > maximum):
        upper = f" and <= {maximum}" if maximum is not None else ""
        raise ArgumentError(f"{name} is {value!r}; expected an integer >= {minimum}{upper}")
    return int(value)


def check_positive(value: Any, name: str, *, allow_zero: bool = False, allow_inf: bool = False) -> float:
    """A real number > 0 (>= 0 with ``allow_zero``), finite unless ``allow_inf``."""
    ok = _is_real(value) and not math.isnan(float(value)) and (float(value) >= 0 if allow_zero else float(value) > 0)
    if ok and not allow_inf and math.isinf(float(value)):
        ok = False
    if not ok:
        what = ">= 0" if allow_zero else "> 0"
        raise ArgumentError(f"{name} is {value!r}; expected a {'' if allow_inf else 'finite '}number {what}")
    return float(value)


def check_choice(value: Any, name: str, choices: Collection[Any]) -> Any:
    """``value`` if it is one of ``choices`` (compared by equality, types must match for strings)."""
    if not any(type(value) is type(c) and value == c for c in choices):
        raise ArgumentError(f"{name} is {value!r}; expected one of {', '.join(map(repr, choices))}")
    return value


def check_flag(value: Any, name: str) -> bool:
    """A real boolean (``True``/``False``, numpy bools included); 0, 1 and strings are refused."""
    if not isinstance(value, (bool, np.bool_)):
        raise ArgumentError(f"{name} is {value!r}; expected True or False")
    return bool(value)


def check_real(value: Any, name: str) -> float:
    """A finite real number of any sign (no booleans, no strings)."""
    if not _is_real(value) or not math.isfinite(float(value)):
        raise ArgumentError(f"{name} is {value!r}; expected a finite real number")
    return float(value)


def check_text(value: Any, name: str) -> str:
    """A str (free text)."""
    if not isinstance(value, str):
        raise ArgumentError(f"{name} is {value!r}; expected a str")
    return value


def check_array(value: Any, name: str, shape: tuple[int | None, ...] | None = None, *, integer: bool = False,
                minimum: float | None = None) -> np.ndarray:
    """A rectangular array of finite numbers (``numeric_array``) of ``shape`` (None: any length), ``>= minimum``."""
    a = numeric_array(name, value, integer=integer)
    if shape is not None and (a.ndim != len(shape) or any(s is not None and n != s for n, s in zip(a.shape, shape, strict=True))):
        want = "(" + ", ".join("n" if s is None else str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
        raise ArgumentError(f"{name} has shape {a.shape}; expected {want}")
    if not np.isfinite(a).all() or (minimum is not None and (a < minimum).any()):
        raise ArgumentError(f"{name} has an entry that is not finite{'' if minimum is None else f' or below {minimum}'}")
    return a


def check_result_fields(status: Any, bound: Any, wall_time: Any, solver: Any, message: Any, info: Any) -> None:
    """The common fields of a :class:`~hetopt.result.Solution` (its ``__post_init__``)."""
    from .certify import Status

    if not isinstance(status, Status):
        raise ArgumentError(f"status is {status!r}; expected a hetopt.Status")
    # a NaN bound of an OPTIMAL solution is the route's defect: Solution raises SolverError for it
    if bound is not None and (not _is_real(bound) or (math.isnan(float(bound)) and status is not Status.OPTIMAL)):
        raise ArgumentError(f"bound is {bound!r}; expected None or a real number")
    if not _is_real(wall_time) or not 0 <= float(wall_time) < math.inf:
        raise ArgumentError(f"wall_time is {wall_time!r}; expected a finite number of seconds >= 0")
    check_text(solver, "solver")
    check_text(message, "message")
    if not isinstance(info, dict):
        raise ArgumentError(f"info is {info!r}; expected a dict")
