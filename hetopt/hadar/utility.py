"""Job utilities U_j of Hadar: non-increasing functions of the completion time f_j - a_j.

Two forms, as in Section III-A of Sultana et al.: the effective throughput (Gavel's
metric, ``E_j N_j`` iterations divided by the completion time) and a sigmoid, a common
utility of deadline-sensitive jobs in the primal-dual scheduling literature (OASiS).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InstanceError

__all__ = ["Utility", "UTILITY_KINDS"]

#: Known forms and the number of parameters per job each takes.
UTILITY_KINDS = {"effective_throughput": 0, "sigmoid": 3}


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
    """

    kind: str
    params: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.kind not in UTILITY_KINDS:
            raise InstanceError(f"utility kind is {self.kind!r}; expected one of {sorted(UTILITY_KINDS)}")
        if UTILITY_KINDS[self.kind] == 0:
            if self.params is not None:
                raise InstanceError(f"utility kind {self.kind!r} takes no params; got {self.params!r}")
            return
        p = np.asarray(self.params, dtype=float)
        if p.ndim != 2 or p.shape[1] != 3:
            raise InstanceError(f"utility params has shape {p.shape}; the sigmoid expects (J, 3)")
        nonfinite = np.argwhere(~np.isfinite(p))
        if nonfinite.size:
            raise InstanceError(f"utility params[{nonfinite[0][0]}, {nonfinite[0][1]}] is not finite")
        for col, name, lo in ((0, "theta1 (value)", 0.0), (1, "theta2 (urgency)", 0.0), (2, "theta3 (deadline)", 0.0)):
            bad = np.flatnonzero(p[:, col] <= lo) if col == 0 else np.flatnonzero(p[:, col] < lo)
            if bad.size:
                rel = "> 0" if col == 0 else ">= 0"
                raise InstanceError(f"utility params[{bad[0]}, {col}] is {p[bad[0], col]}; {name} must be {rel}")
        object.__setattr__(self, "params", p)

    def check_jobs(self, n_jobs: int) -> None:
        """Raise InstanceError unless the parameters cover exactly ``n_jobs`` jobs."""
        if self.params is not None and self.params.shape[0] != n_jobs:
            raise InstanceError(f"utility params has {self.params.shape[0]} rows; expected one per job ({n_jobs})")

    def _sigmoid(self) -> np.ndarray:
        """The (J, 3) sigmoid parameters (set for every kind that takes parameters)."""
        if self.params is None:
            raise InstanceError(f"utility kind {self.kind!r} has no params")
        return self.params

    def __call__(self, duration: Any, total_iterations: Any) -> np.ndarray:
        """``U_j(duration_j)`` for every job; ``duration`` shape (J,) or (J, K), seconds > 0.

        ``total_iterations`` is ``E_j N_j`` (shape (J,)), used by the effective throughput.
        """
        d = np.asarray(duration, dtype=float)
        n = np.asarray(total_iterations, dtype=float)
        if d.ndim == 2:
            n = n[:, None]
        if self.kind == "effective_throughput":
            with np.errstate(divide="ignore"):
                return np.where(d > 0, n / np.where(d > 0, d, 1.0), np.inf)
        p = self._sigmoid() if d.ndim == 1 else self._sigmoid()[:, None, :]
        z = np.clip(p[..., 1] * (d - p[..., 2]), -700.0, 700.0)
        return p[..., 0] / (1.0 + np.exp(z))

    def of_job(self, j: int, duration: Any, total_iterations_j: float) -> np.ndarray:
        """``U_j`` of one job at one or many durations (seconds)."""
        d = np.asarray(duration, dtype=float)
        if self.kind == "effective_throughput":
            return total_iterations_j / d
        t1, t2, t3 = self._sigmoid()[j]
        return t1 / (1.0 + np.exp(np.clip(t2 * (d - t3), -700.0, 700.0)))

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
            raise InstanceError(f"utility has unknown keys {sorted(unknown)}; expected 'kind' and 'params'")
        if "kind" not in data:
            raise InstanceError("utility mapping has no 'kind'")
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
