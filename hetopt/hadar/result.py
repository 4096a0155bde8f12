"""Result types of Hadar: P1 schedules (:class:`HadarSolution`) and simulation traces (:class:`HadarSimulation`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Self

import numpy as np

from ..errors import ArgumentError
from ..result import SimulationResult, Solution

__all__ = ["HadarSolution", "HadarSimulation"]


def _array(value: Any, dtype: type) -> np.ndarray | None:
    """``value`` as an array of ``dtype`` (None stays None): JSON lists back to the fields' arrays."""
    return None if value is None else np.asarray(value, dtype=dtype)


def _required(value: np.ndarray | None, name: str) -> np.ndarray:
    """``value``, which a metric needs; :class:`ArgumentError` naming the field when it was not given."""
    if value is None:
        raise ArgumentError(f"{name} is None on this result; the metric needs it")
    return value


@dataclass(frozen=True, kw_only=True)
class HadarSolution(Solution):
    """A time-indexed schedule with P1's metrics.

    Attributes
    ----------
    schedule : numpy.ndarray of int, shape (J, H, R, T)
        ``w^r_jh(t)``: type-r GPUs of machine h given to job j in slot t.
    finish_slot : numpy.ndarray of int, shape (J,)
        ``f_j``: last slot in which job j runs.
    jct : numpy.ndarray, shape (J,)
        ``(f_j + 1 - a_j) L`` seconds (a job finishes at the end of its last slot).
    total_utility : float
        ``sum_j U_j(jct_j)``, P1's objective (also ``objective``).
    """

    sense: str = "max"
    schedule: np.ndarray | None = None
    finish_slot: np.ndarray | None = None
    jct: np.ndarray | None = None
    total_utility: float | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The solution whose :meth:`to_dict` is ``data`` (GPU counts and slots as integers)."""
        sol = super().from_dict(data)
        return replace(sol, schedule=_array(sol.schedule, np.int64), finish_slot=_array(sol.finish_slot, np.int64),
                       jct=_array(sol.jct, float))

    def summary(self) -> dict[str, Any]:
        """The common fields with P1's metrics: total utility, finish slots and JCTs."""
        out = super().summary()
        out.update(total_utility=self.total_utility,
                   finish_slot=None if self.finish_slot is None else self.finish_slot.tolist(),
                   jct=None if self.jct is None else self.jct.tolist())
        return out


@dataclass(frozen=True, kw_only=True)
class HadarSimulation(SimulationResult):
    """Trace of the round-based simulator (Section IV) with the paper's metrics.

    The fields of :class:`~hetopt.result.SimulationResult` in seconds: ``policy``,
    ``completion`` (completion instants), ``jct`` (completion minus arrival), ``average_jct``
    and ``makespan`` (equal to ``total_duration``).

    Attributes
    ----------
    round_length : float
        Seconds.
    total_duration : float
        TTD: the last completion instant (seconds from time 0), the paper's name of ``makespan``.
    utilization : float
        GRU: GPU-seconds spent computing over (total GPUs x TTD).
    cluster_utilization : float
        CRU: machine-seconds with at least one GPU computing over (machines x TTD).
    rounds : list of dict
        One per round: ``start`` (s), ``allocation`` (J x H x R int array), ``iterations``
        (length J, iterations each job completed in the round).
    total_utility : float
        ``sum_j U_j(jct_j)`` (also ``objective``).
    job_busy : numpy.ndarray, shape (J,)
        Seconds in which at least one gang of the job computed (restart delays excluded).
    first_start : numpy.ndarray, shape (J,)
        Start of the first round in which the job held GPUs, seconds.
    """

    sense: str = "max"
    round_length: float = 0.0
    total_duration: float = 0.0
    utilization: float = 0.0
    cluster_utilization: float = 0.0
    rounds: list[dict[str, Any]] = field(default_factory=list)
    total_utility: float | None = None
    job_busy: np.ndarray | None = None
    first_start: np.ndarray | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The result whose :meth:`to_dict` is ``data`` (per-job fields and rounds as arrays)."""
        sol = super().from_dict(data)
        rounds = [{"start": float(r["start"]), "allocation": np.asarray(r["allocation"], dtype=np.int64),
                   "iterations": np.asarray(r["iterations"], dtype=float)} for r in sol.rounds]
        return replace(sol, jct=np.asarray(sol.jct, dtype=float), completion=np.asarray(sol.completion, dtype=float),
                       job_busy=_array(sol.job_busy, float), first_start=_array(sol.first_start, float),
                       rounds=rounds)

    def summary(self) -> dict[str, Any]:
        """The common fields with the simulation's metrics (TTD, mean JCT, GRU in both readings, CRU)."""
        out = super().summary()
        out.update(policy=self.policy, total_utility=self.total_utility, total_duration=self.total_duration,
                   average_jct=self.average_jct, utilization=self.utilization, job_utilization=self.job_utilization,
                   cluster_utilization=self.cluster_utilization, rounds=len(self.rounds),
                   jct=_required(self.jct, "jct").tolist())
        return out

    @property
    def job_utilizations(self) -> np.ndarray:
        """Per-job GRU: ``job_busy / (completion - first_start)``.

        The fraction of the job's run (from its first start to its completion) in which it computes.
        """
        span = _required(self.completion, "completion") - _required(self.first_start, "first_start")
        return np.where(span > 0, _required(self.job_busy, "job_busy") / np.where(span > 0, span, 1.0), 1.0)

    @property
    def job_utilization(self) -> float:
        """Mean per-job GRU (:attr:`job_utilizations`).

        The reading of "the percentage of the total job run-time during which GPUs are utilized"
        per job, against ``utilization``, the cluster-wide reading (busy GPU-seconds over all GPUs
        times TTD).
        """
        return float(np.mean(self.job_utilizations))

    def completed_fraction(self, times: Any) -> np.ndarray:
        """Cumulative fraction of completed jobs at each time (seconds), Fig. 4."""
        t = np.asarray(times, dtype=float)
        return (np.sort(_required(self.completion, "completion"))[None, :] <= t[..., None]).mean(axis=-1)

    def schedule(self) -> np.ndarray:
        """The rounds' allocations stacked as a (J, H, R, n_rounds) array."""
        return np.stack([r["allocation"] for r in self.rounds], axis=-1)
