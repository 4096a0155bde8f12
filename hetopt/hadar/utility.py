"""Job utilities U_j of Hadar: non-increasing functions of the completion time f_j - a_j.

Two forms, as in Section III-A of Sultana et al.: the effective throughput (Gavel's
metric, ``E_j N_j`` iterations divided by the completion time) and a sigmoid, a common
utility of deadline-sensitive jobs in the primal-dual scheduling literature (OASiS).

Both are evaluated without clipping: the sigmoid as ``theta1 e^{-z} / (1 + e^{-z})`` for
``z > 0`` (no overflow, the true value down to the float's underflow) and :meth:`Utility.log_of`
gives ``log U_j`` in closed form at every magnitude (``log theta1 - softplus(z)``), which the
exact routes use to scale P1's objective.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InstanceError
from ..inputs import numeric_array, real_scalar

__all__ = ["Utility", "UTILITY_KINDS", "SIGMOID_PARAMS"]

#: Known forms and the number of parameters per job each takes.
UTILITY_KINDS = {"effective_throughput": 0, "sigmoid": 3}
#: The sigmoid's parameters, in the column order of ``params``.
SIGMOID_PARAMS = ("theta1 (value)", "theta2 (urgency, 1/s)", "theta3 (soft deadline, s)")


def _params(value: Any) -> np.ndarray:
    """The sigmoid's ``params`` as a (J, 3) float array; InstanceError naming the entry otherwise."""
    if value is None:
        raise InstanceError("utility.params is None; the sigmoid expects a (J, 3) array "
                            f"[{', '.join(SIGMOID_PARAMS)}] per job")
    if isinstance(value, (list, tuple)):
        for j, row in enumerate(value):
            if not isinstance(row, (list, tuple, np.ndarray)) or len(row) != 3:
                raise InstanceError(f"utility.params[{j}] is {row!r}; expected 3 numbers [{', '.join(SIGMOID_PARAMS)}]")
            for c, v in enumerate(row):
                real_scalar(f"utility.params[{j}][{c}] ({SIGMOID_PARAMS[c]})", v)
    p = numeric_array("utility.params", value)
    if p.ndim != 2 or p.shape[1] != 3:
        raise InstanceError(f"utility.params has shape {p.shape}; the sigmoid expects (J, 3) "
                            f"[{', '.join(SIGMOID_PARAMS)}]")
    nonfinite = np.argwhere(~np.isfinite(p))
    if nonfinite.size:
        j, c = nonfinite[0]
        raise InstanceError(f"utility.params[{j}][{c}] ({SIGMOID_PARAMS[c]}) is {p[j, c]}; expected a finite number")
    for col in range(3):
        bad = np.flatnonzero(p[:, col] <= 0) if col == 0 else np.flatnonzero(p[:, col] < 0)
        if bad.size:
            rel = "> 0" if col == 0 else ">= 0"
            raise InstanceError(f"utility.params[{bad[0]}][{col}] ({SIGMOID_PARAMS[col]}) is {p[bad[0], col]}; "
                                f"it must be {rel}")
    return p


def _softplus(z: np.ndarray) -> np.ndarray:
    """``log(1 + e^z)`` without overflow or cancellation."""
    return np.maximum(z, 0.0) + np.log1p(np.exp(-np.abs(z)))


@dataclass(frozen=True, eq=False)
class Utility:
    """A family of non-increasing job utilities, evaluated on durations in seconds.

    Parameters
    ----------
    kind : {"effective_throughput", "sigmoid"}
        ``effective_throughput``: ``U_j(tau) = E_j N_j / tau`` (iterations per second over the
        job's lifetime).  ``sigmoid``: ``U_j(tau) = theta1_j / (1 + exp(theta2_j (tau - theta3_j)))``
        with ``theta1 > 0`` (value), ``theta2 >= 0`` (urgency, 1/s), ``theta3 >= 0`` (soft deadline, s).
    params : array_like, shape (J, 3), optional
        The sigmoid parameters; None for ``effective_throughput``.

    Raises
    ------
    InstanceError
        An unknown ``kind``, ``params`` given to the effective throughput, or a sigmoid parameter
        that is not a finite real number in its range (named ``utility.params[j][c]`` with the
        parameter's name).
    """

    kind: str
    params: np.ndarray | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in UTILITY_KINDS:
            raise InstanceError(f"utility.kind is {self.kind!r}; expected one of {sorted(UTILITY_KINDS)}")
        if UTILITY_KINDS[self.kind] == 0:
            if self.params is not None:
                raise InstanceError(f"utility.params is {self.params!r}; utility kind {self.kind!r} takes no params "
                                    "(null)")
            return
        object.__setattr__(self, "params", _params(self.params))

    def check_jobs(self, n_jobs: int) -> None:
        """Raise InstanceError unless the parameters cover exactly ``n_jobs`` jobs."""
        if self.params is not None and self.params.shape[0] != n_jobs:
            raise InstanceError(f"utility.params has {self.params.shape[0]} rows; expected one per job ({n_jobs})")

    def _sigmoid(self) -> np.ndarray:
        """The (J, 3) sigmoid parameters (set for every kind that takes parameters)."""
        if self.params is None:
            raise InstanceError(f"utility kind {self.kind!r} has no params")
        return self.params

    @staticmethod
    def _sig(t1: Any, t2: Any, t3: Any, d: np.ndarray) -> np.ndarray:
        """``t1 / (1 + e^z)``, ``z = t2 (d - t3)``, exact at every magnitude (no clipping, no overflow)."""
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            z = t2 * (d - t3)
            e = np.exp(-np.abs(z))  # in (0, 1]: never overflows
            return np.where(z > 0, t1 * (e / (1.0 + e)), t1 / (1.0 + e))

    def __call__(self, duration: Any, total_iterations: Any) -> np.ndarray:
        """``U_j(duration_j)`` for every job; ``duration`` shape (J,) or (J, K), seconds > 0.

        ``total_iterations`` is ``E_j N_j`` (shape (J,)), used by the effective throughput.
        """
        d = np.asarray(duration, dtype=float)
        n = np.asarray(total_iterations, dtype=float)
        if d.ndim == 2:
            n = n[:, None]
        if self.kind == "effective_throughput":
            with np.errstate(divide="ignore", over="ignore"):
                return np.where(d > 0, n / np.where(d > 0, d, 1.0), np.inf)
        p = self._sigmoid() if d.ndim == 1 else self._sigmoid()[:, None, :]
        return self._sig(p[..., 0], p[..., 1], p[..., 2], d)

    def log_of(self, duration: Any, total_iterations: Any) -> np.ndarray:
        """``log U_j(duration_j)``, exact where ``U_j`` itself under- or overflows (same shapes as ``__call__``)."""
        d = np.asarray(duration, dtype=float)
        n = np.asarray(total_iterations, dtype=float)
        if d.ndim == 2:
            n = n[:, None]
        if self.kind == "effective_throughput":
            with np.errstate(divide="ignore"):
                return np.where(d > 0, np.log(n) - np.log(np.where(d > 0, d, 1.0)), np.inf)
        p = self._sigmoid() if d.ndim == 1 else self._sigmoid()[:, None, :]
        return np.log(p[..., 0]) - _softplus(p[..., 1] * (d - p[..., 2]))

    def of_job(self, j: int, duration: Any, total_iterations_j: float) -> np.ndarray:
        """``U_j`` of one job at one or many durations (seconds)."""
        d = np.asarray(duration, dtype=float)
        if self.kind == "effective_throughput":
            with np.errstate(over="ignore"):
                return total_iterations_j / d
        t1, t2, t3 = self._sigmoid()[j]
        return self._sig(t1, t2, t3, d)

    def log_of_job(self, j: int, duration: Any, total_iterations_j: float) -> np.ndarray:
        """``log U_j`` of one job at one or many durations (seconds), exact at every magnitude."""
        d = np.asarray(duration, dtype=float)
        if self.kind == "effective_throughput":
            with np.errstate(divide="ignore"):
                return np.log(float(total_iterations_j)) - np.log(d)
        t1, t2, t3 = self._sigmoid()[j]
        return np.log(t1) - _softplus(t2 * (d - t3))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form ``{"kind": ..., "params": ...}`` (``params`` None or a (J, 3) list)."""
        return {"kind": self.kind, "params": None if self.params is None else self.params.tolist()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Utility:
        """The utility whose :meth:`to_dict` is ``data``; :class:`InstanceError` naming the key otherwise."""
        if not isinstance(data, Mapping):
            raise InstanceError(f"utility is {data!r}; expected a mapping with 'kind' and 'params'")
        unknown = set(data) - {"kind", "params"}
        if unknown:
            raise InstanceError(f"utility has unknown keys {sorted(map(str, unknown))}; expected 'kind' and 'params'")
        if "kind" not in data:
            raise InstanceError("utility.kind is missing; expected one of " + ", ".join(sorted(UTILITY_KINDS)))
        if data["kind"] == "sigmoid" and "params" not in data:
            raise InstanceError("utility.params is missing; the sigmoid expects a (J, 3) array")
        return cls(data["kind"], data.get("params"))

    @classmethod
    def coerce(cls, value: Any) -> Utility:
        """Accept a Utility, a kind name, or a ``{"kind": ..., "params": ...}`` mapping (:meth:`from_dict`)."""
        if isinstance(value, Utility):
            return value
        if isinstance(value, str):
            return cls(value)
        if isinstance(value, Mapping):
            return cls.from_dict(value)
        raise InstanceError(f"utility is {value!r}; expected a Utility, a kind name or a mapping")
