"""Job utility functions f_i of Bao et al. 2018: the sigmoid of Section V-A and a tabulated form.

A utility maps the completion offset ``d = t_hat_i - a_i`` (slots, an integer >= 0) to a
non-negative value, non-increasing in ``d`` (Section III-C).  Both forms evaluate on numpy
arrays and give ``log_value`` as well, so that the price bounds (25)-(26) stay finite when a
time-critical job's utility at the horizon underflows double precision.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ArgumentError, InstanceError
from ..inputs import numeric_array, real_scalar

__all__ = ["Utility", "SigmoidUtility", "TabulatedUtility", "utility_from_dict"]


class Utility:
    """Base class: a non-negative, non-increasing function of the completion offset."""

    #: Target completion offset (gamma3) when the form has one, else None.
    target: float | None = None

    def __call__(self, d: Any) -> Any:
        """f(d) at the completion offset(s) ``d`` (a float for a scalar, an array otherwise)."""
        out = np.exp(self.log_value(d))
        return float(out) if np.ndim(out) == 0 else out

    def log_value(self, d: Any) -> Any:  # pragma: no cover - abstract
        """The natural log of f(d), finite where f(d) underflows a double."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:  # pragma: no cover - abstract
        """The JSON form (``{"type": ..., ...}``)."""
        raise NotImplementedError


@dataclass(frozen=True)
class SigmoidUtility(Utility):
    """f(d) = gamma1 / (1 + exp(gamma2 (d - gamma3))), Section V-A (after CORA [23]).

    Parameters
    ----------
    gamma1 : float
        Priority, >= 0 (the paper draws it in [1, 100]).
    gamma2 : float
        Decay, >= 0: 0 for time-insensitive jobs (constant utility), [0.01, 1] for
        time-sensitive and [4, 6] for time-critical jobs.  A negative decay would make
        the utility increase and is rejected.
    gamma3 : float
        Target completion offset in slots (the paper: [1, 15]).
    """

    gamma1: float
    gamma2: float
    gamma3: float

    def __post_init__(self) -> None:
        for name in ("gamma1", "gamma2", "gamma3"):
            v = getattr(self, name)
            try:  # a real number: no boolean, string, complex, None or integer beyond int64 (no coercion)
                x = real_scalar(f"utility {name}", v)
            except InstanceError:
                raise InstanceError(f"utility {name} is {v!r}; expected a finite real number") from None
            if not math.isfinite(x):
                raise InstanceError(f"utility {name} is {v!r}; expected a finite number")
            object.__setattr__(self, name, x)
        if self.gamma1 < 0:
            raise InstanceError(f"utility gamma1 is {self.gamma1}; utilities must be non-negative (gamma1 >= 0)")
        if self.gamma2 < 0:
            raise InstanceError(f"utility gamma2 is {self.gamma2}; a negative decay makes the utility increase "
                                "with the completion time (f must be non-increasing, Section III-C)")

    @property
    def target(self) -> float:  # type: ignore[override]
        """gamma3, the target completion offset."""
        return self.gamma3

    def log_value(self, d: Any) -> Any:
        """ln(gamma1) - ln(1 + exp(gamma2 (d - gamma3))), computed without overflow."""
        d = np.asarray(d, dtype=float)
        if self.gamma1 == 0:
            return np.full(d.shape, -np.inf) if d.ndim else -math.inf
        out = math.log(self.gamma1) - np.logaddexp(0.0, self.gamma2 * (d - self.gamma3))
        return float(out) if np.ndim(out) == 0 else out

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "sigmoid", "gamma1": ..., "gamma2": ..., "gamma3": ...}``."""
        return {"type": "sigmoid", "gamma1": self.gamma1, "gamma2": self.gamma2, "gamma3": self.gamma3}


@dataclass(frozen=True, eq=False)
class TabulatedUtility(Utility):
    """A general non-increasing utility given by its values at offsets 0, 1, 2, ...

    Parameters
    ----------
    values : sequence of float
        ``values[d]`` = f(d) for d = 0, ..., len - 1; non-negative and non-increasing.
        An instance requires the table to cover every offset its job can reach
        (``T - a_i + 1`` values); offsets beyond the table are an error, never extrapolated.
    target : float, optional
        A target completion offset, used only to report completion timeliness.
    """

    values: Any
    target: float | None = None

    def __post_init__(self) -> None:
        if self.values is None or isinstance(self.values, (str, bytes)):
            raise InstanceError(f"utility values is {self.values!r}; expected a sequence of numbers")
        # numbers only: "10" or true in the table is an error, not 10.0 or 1.0
        v = numeric_array("utility values", self.values)
        if v.ndim != 1 or v.size == 0:
            raise InstanceError(f"utility values has shape {v.shape}; expected a non-empty 1-D table")
        bad = np.flatnonzero(~np.isfinite(v) | (v < 0))
        if bad.size:
            d = int(bad[0])
            raise InstanceError(f"utility values[{d}] is {v[d]}; utilities must be finite and >= 0")
        inc = np.nonzero(np.diff(v) > 0)[0]
        if inc.size:
            d = int(inc[0])
            raise InstanceError(f"utility values[{d + 1}] = {v[d + 1]} exceeds values[{d}] = {v[d]}; "
                                "the utility must be non-increasing in the completion time (Section III-C)")
        if self.target is not None:
            try:
                t = real_scalar("utility target", self.target)
            except InstanceError:
                raise InstanceError(f"utility target is {self.target!r}; expected a finite real number or None") from None
            if not math.isfinite(t):
                raise InstanceError(f"utility target is {self.target!r}; expected a finite number or None")
            object.__setattr__(self, "target", t)
        v.setflags(write=False)
        object.__setattr__(self, "values", v)

    def _index(self, d: Any) -> np.ndarray:
        d_arr = np.asarray(d)
        if np.any(d_arr < 0) or np.any(d_arr >= self.values.size) or np.any(d_arr != np.floor(d_arr)):
            raise ArgumentError(f"offset {d!r} is outside the table of {self.values.size} integer offsets")
        return d_arr.astype(int)

    def __call__(self, d: Any) -> Any:
        """values[d] itself (no detour through the log: a table scaled by a power of two stays exact)."""
        out = self.values[self._index(d)]
        return float(out) if np.ndim(out) == 0 else out

    def log_value(self, d: Any) -> Any:
        """The natural log of values[d]; an offset outside the table is an :class:`~hetopt.errors.ArgumentError`."""
        with np.errstate(divide="ignore"):
            out = np.log(self.values[self._index(d)])
        return float(out) if np.ndim(out) == 0 else out

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "table", "values": [...]}`` (and ``target`` when set)."""
        out: dict[str, Any] = {"type": "table", "values": [float(x) for x in self.values]}
        if self.target is not None:
            out["target"] = float(self.target)
        return out


def utility_from_dict(data: Any, where: str = "utility") -> Utility:
    """Build a utility from its JSON form (``{"type": "sigmoid", ...}`` or ``{"type": "table", ...}``)."""
    if isinstance(data, Utility):
        return data
    if not isinstance(data, dict) or "type" not in data:
        raise InstanceError(f"{where} is {data!r}; expected a Utility or a dict with a 'type' of 'sigmoid' or 'table'")
    kind = data["type"]
    keys = set(data) - {"type"}
    if kind == "sigmoid":
        allowed = {"gamma1", "gamma2", "gamma3"}
        if keys != allowed:
            raise InstanceError(f"{where}: a sigmoid utility has keys {sorted(allowed)}; got {sorted(keys)}")
        try:
            return SigmoidUtility(data["gamma1"], data["gamma2"], data["gamma3"])
        except InstanceError as exc:
            raise InstanceError(f"{where}: {exc}") from None
    if kind == "table":
        if not keys <= {"values", "target"} or "values" not in keys:
            raise InstanceError(f"{where}: a table utility has keys 'values' and optional 'target'; got {sorted(keys)}")
        try:
            return TabulatedUtility(data["values"], data.get("target"))
        except InstanceError as exc:
            raise InstanceError(f"{where}: {exc}") from None
    raise InstanceError(f"{where} type is {kind!r}; expected 'sigmoid' or 'table'")
