"""Input checks and the shared pieces of Gavel's policy LPs.

Every policy takes ``(throughput, scale_factor, capacity, priority_weight=None, *,
remaining_steps=None)``; :func:`check_policy_inputs` validates them, naming the argument
and the index of the first bad entry.  :func:`base_constraints` are Gavel's
``get_base_constraints`` (equations (G1)-(G3) of ``models/gavel.md``).
"""

from __future__ import annotations

import numbers

import numpy as np

from ..errors import ArgumentError, InstanceError, a_type
from ..solvers import solve_problem

__all__ = ["as_numbers", "check_policy_inputs", "base_constraints", "solved_allocation", "no_steps", "required_vector", "ROUNDOFF"]

#: HiGHS vertex solutions carry round-off like -1e-12; entries below this in absolute value are zero.
ROUNDOFF = 1e-10


def as_numbers(name: str, value) -> np.ndarray:
    """``value`` as a float array; ArgumentError naming ``name`` for a str, a bool, a non-number or ragged nesting.

    ``numpy.asarray(..., dtype=float)`` alone reads ``"1"`` and ``True`` as 1.0 and turns ``[True, 2.0]``
    into numbers silently, and answers ragged lists with a bare ValueError.
    """
    if isinstance(value, np.ndarray) and value.dtype.kind in "iuf":
        return value.astype(float, copy=False)
    try:
        obj = np.asarray(value, dtype=object)
    except ValueError:  # nesting numpy cannot even lay out
        raise ArgumentError(f"{name} is ragged (rows of different lengths); expected an array of numbers") from None
    for x in obj.flat:
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
            if isinstance(x, (list, tuple, np.ndarray)):
                raise ArgumentError(f"{name} is ragged (rows of different lengths); expected an array of numbers")
            raise ArgumentError(f"{name} has {a_type(x)} entry {str(x)[:40]!r}; expected numbers (no str, no bool)")
    return np.asarray(obj, dtype=float)


def check_policy_inputs(throughput, scale_factor, capacity, priority_weight=None, remaining_steps=None):
    """Validate and convert the common policy arguments.

    Returns
    -------
    tuple of numpy arrays
        ``(throughput (J, R) float, scale_factor (J,) float, capacity (R,) float,
        priority_weight (J,) float or None, remaining_steps (J,) float or None)``.

    Raises
    ------
    InstanceError
        Naming the argument and index of the first malformed entry.
    ArgumentError
        Naming the argument that holds a str, a bool or ragged rows (:func:`as_numbers`).
    """
    T = as_numbers("throughput", throughput)
    if T.ndim != 2 or T.shape[0] == 0 or T.shape[1] == 0:
        raise InstanceError(f"throughput has shape {T.shape}; expected a non-empty J x R matrix")
    J, R = T.shape
    neg = np.argwhere(~np.isfinite(T) | (T < 0))
    if neg.size:
        j, r = neg[0]
        raise InstanceError(f"throughput[{j}, {r}] is {T[j, r]}; throughputs must be finite and >= 0")
    dead = np.flatnonzero(T.max(axis=1) <= 0)
    if dead.size:
        raise InstanceError(f"throughput[{dead[0]}, :] is all zero; every job must run on some GPU type")
    s = as_numbers("scale_factor", scale_factor)
    if s.shape != (J,):
        raise InstanceError(f"scale_factor has shape {s.shape}; expected ({J},)")
    bad = np.flatnonzero(~np.isfinite(s) | (s < 1) | (s != np.round(s)))
    if bad.size:
        raise InstanceError(f"scale_factor[{bad[0]}] is {s[bad[0]]}; scale factors must be integers >= 1")
    c = as_numbers("capacity", capacity)
    if c.shape != (R,):
        raise InstanceError(f"capacity has shape {c.shape}; expected ({R},)")
    bad = np.flatnonzero(~np.isfinite(c) | (c < 0))
    if bad.size:
        raise InstanceError(f"capacity[{bad[0]}] is {c[bad[0]]}; GPU counts must be >= 0")
    w = None
    if priority_weight is not None:
        w = as_numbers("priority_weight", priority_weight)
        if w.shape != (J,):
            raise InstanceError(f"priority_weight has shape {w.shape}; expected ({J},)")
        bad = np.flatnonzero(~np.isfinite(w) | (w <= 0))
        if bad.size:
            raise InstanceError(f"priority_weight[{bad[0]}] is {w[bad[0]]}; weights must be > 0")
    steps = None
    if remaining_steps is not None:
        steps = as_numbers("remaining_steps", remaining_steps)
        if steps.shape != (J,):
            raise InstanceError(f"remaining_steps has shape {steps.shape}; expected ({J},)")
        bad = np.flatnonzero(~np.isfinite(steps) | (steps <= 0))
        if bad.size:
            raise InstanceError(f"remaining_steps[{bad[0]}] is {steps[bad[0]]}; remaining steps must be > 0")
    return T, s, c, w, steps


def base_constraints(x, s, c, tag: str):
    """Gavel's base constraints (G1)-(G3) on the CVXPY variable ``x``, labelled for the card."""
    import cvxpy as cp

    cons = [
        x >= 0,
        cp.sum(x, axis=1) <= 1,
        s @ x <= c,
    ]
    cons[0].set_label(f"(G1) {tag}: time fractions are non-negative")
    cons[1].set_label(f"(G2) {tag}: each job's time fractions sum to at most 1")
    cons[2].set_label(f"(G3) {tag}: GPUs of each type, counting scale factors, within capacity")
    return cons


def solved_allocation(problem, x, solver: str = "highs") -> np.ndarray:
    """Solve ``problem`` (HiGHS by default) and return ``x`` with round-off (``|v| < ROUNDOFF``) set to 0.

    With ``solver="ecos"`` the result is clipped to ``[0, 1]`` as Gavel clips its ECOS solutions.
    """
    solve_problem(problem, solver.upper())
    if solver == "ecos":
        return np.asarray(x.value, dtype=float).clip(min=0.0).clip(max=1.0)
    X = np.asarray(x.value, dtype=float)
    X[np.abs(X) < ROUNDOFF] = 0.0
    return X


def no_steps(name: str, remaining_steps) -> None:
    """Reject ``remaining_steps`` for a policy that does not use it."""
    if remaining_steps is not None:
        raise ArgumentError(f"remaining_steps is not used by {name}; pass None")


def required_vector(arg: str, value, m: int, *, policy: str | None = None) -> np.ndarray:
    """``value`` as ``m`` finite floats; ArgumentError naming ``arg`` (and ``policy``) when it is None or malformed."""
    if value is None:
        raise ArgumentError(f"{policy} needs {arg} (shape ({m},))" if policy else f"{arg} is required (shape ({m},))")
    a = as_numbers(arg, value)
    if a.shape != (m,) or not np.all(np.isfinite(a)):
        raise ArgumentError(f"{arg} has shape {a.shape} or a non-finite entry; expected ({m},) finite numbers")
    return a
