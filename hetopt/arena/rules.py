"""Per-round placement rules: Tiresias, least attained service, shortest remaining time, YARN-CS.

Each is a :class:`~hetopt.arena.protocol.Policy` of ``mode="placement"``: every round it orders the
jobs present and gives each, in that order, a gang of its ``scale_factor`` GPUs on one type with
room (preemptive: a job left out loses its GPUs; YARN-CS is the exception, non-preemptive).

* :class:`Tiresias` -- hetopt.hadar's ``TiresiasPolicy``: discretized two-queue LAS (high queue
  below 3,600 GPU-seconds attained), FIFO within a queue, PromoteKnob off, heterogeneity-unaware
  (the first type with room in a fixed order: the engine's queue order, V100, P100, K80, as hadar's
  instances list their types).
* :class:`LAS` -- least attained service (GPU-seconds), the fastest type with room.
* :class:`SRTF` -- shortest remaining time first (iterations left over the job's best throughput),
  the fastest type with room.
* :class:`YarnCS` -- hetopt.hadar's ``YarnCSPolicy``: a running job keeps its GPUs until it
  completes; waiting jobs start in arrival order on the first type (the same fixed order) with room.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ..inputs import check_positive
from .protocol import Gangs, Options, RoundState
from .workload import Workload

__all__ = ["Tiresias", "LAS", "SRTF", "YarnCS"]


class _Rule:
    """A priority order and a greedy placement on one type per job."""

    mode: ClassVar[str] = "placement"
    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    source: ClassVar[str] = "arena"
    keeps: ClassVar[str] = ""
    drops: ClassVar[str] = ""
    #: Place each job on its fastest type with room (else the first type with room in the fixed type order).
    aware: ClassVar[bool] = True

    def reset(self, workload: Workload, options: Options, *, seed: int) -> None:
        """The fixed type order of the heterogeneity-unaware rules: the engine's queue order (V100, P100, K80)."""
        from .engine import queue_order

        self.T = workload.throughput
        self.cap = workload.capacity
        self.sf = workload.scale_factor
        self.order = np.array(queue_order(workload), dtype=np.int64)

    def priority(self, state: RoundState) -> np.ndarray:
        """The present jobs (``state.jobs``), highest priority first."""
        raise NotImplementedError

    def _first(self, ok: np.ndarray) -> int:
        return _first_in(self.order, ok)

    def __call__(self, state: RoundState) -> Gangs:
        """Each job in priority order on a type with ``scale_factor`` free GPUs where it runs."""
        free = self.cap.astype(np.int64).copy()
        out: Gangs = {}
        for j in self.priority(state).tolist():
            ok = np.flatnonzero((self.T[j] > 0) & (free >= self.sf[j]))
            if ok.size == 0:
                continue
            r = int(ok[np.argmax(self.T[j, ok])]) if self.aware else self._first(ok)
            free[r] -= self.sf[j]
            out[j] = r
        return out


def _first_in(order: np.ndarray, ok: np.ndarray) -> int:
    """The first type of ``order`` among ``ok``."""
    return int(order[np.isin(order, ok)][0])


def _by(keys: tuple[np.ndarray, ...], jobs: np.ndarray) -> np.ndarray:
    """``jobs`` sorted by ``keys`` (the last is the primary key), ties in Gavel's id order (``jobs``' order)."""
    return jobs[np.lexsort((np.arange(jobs.size), *keys))]


class Tiresias(_Rule):
    """Tiresias' discretized 2D-LAS (hetopt.hadar's rule): two queues by attained GPU-seconds, FIFO within.

    Parameters
    ----------
    threshold : float
        GPU-seconds attained above which a job moves to the low queue (hadar: 3,600).
    """

    name = "tiresias"
    description = "Tiresias: discretized 2D-LAS, two queues split at 3,600 attained GPU-seconds, FIFO within"
    source = "hadar"
    keeps = ("hetopt.hadar's TiresiasPolicy: two queues by attained GPU-seconds (threshold 3,600), FIFO by "
             "arrival within a queue, preemptive, PromoteKnob off, heterogeneity-unaware (the first type with room "
             "in a fixed order, V100, P100, K80, as hadar's instances list them)")
    drops = ("hadar's machine-level placement (the engine places gangs on servers); the gang's rate is Gavel's "
             "gang throughput on the type, not W_j times a per-GPU rate")
    aware = False

    def __init__(self, threshold: float = 3600.0):
        self.threshold = check_positive(threshold, "threshold", allow_inf=True)

    def priority(self, state: RoundState) -> np.ndarray:
        """High queue first, then arrival."""
        jobs = state.jobs
        low = (state.attained[jobs] >= self.threshold).astype(int)
        return _by((low,), jobs)


class LAS(_Rule):
    """Least attained service: fewest GPU-seconds first, each job on its fastest type with room."""

    name = "las"
    description = "Least attained service: fewest GPU-seconds received first, each job on its fastest type with room"
    keeps = ("the classic LAS order (attained GPU-seconds, ties by arrival), preemptive every round; Gavel's own "
             "LAS is its max-min fairness LP (max_min_fairness)")
    drops = "no time-sharing within a round: a job runs a whole round or not at all"

    def priority(self, state: RoundState) -> np.ndarray:
        """Fewest attained GPU-seconds first, then arrival."""
        return _by((state.attained[state.jobs],), state.jobs)


class SRTF(_Rule):
    """Shortest remaining time first: iterations left over the best throughput, smallest first."""

    name = "srtf"
    description = "Shortest remaining time first (iterations left over the job's best throughput), fastest type"
    keeps = "the SRTF order on the remaining time at the job's best type, preemptive every round"
    drops = "remaining times are estimates at the best type, not at the type the job will get"

    def priority(self, state: RoundState) -> np.ndarray:
        """Least remaining time at the best type first, then arrival."""
        jobs = state.jobs
        left = state.remaining[jobs] / self.T[jobs].max(axis=1)
        return _by((left,), jobs)


class YarnCS(_Rule):
    """YARN's capacity scheduler (hetopt.hadar's rule): non-preemptive FIFO, first type with room."""

    name = "yarn_cs"
    description = "YARN capacity scheduler: non-preemptive FIFO, each job on the first type with room (V100 first)"
    source = "hadar"
    keeps = ("hetopt.hadar's YarnCSPolicy: a running job keeps its GPUs until it completes, waiting jobs start in "
             "arrival order where their gang fits")
    drops = ("gangs spread over types and servers (hadar's rule mixes types): here one type per gang; the engine "
             "picks the servers")
    aware = False

    def __call__(self, state: RoundState) -> Gangs:
        """Running jobs keep their type; waiting jobs start in arrival order where they fit."""
        free = self.cap.astype(np.int64).copy()
        out: Gangs = {}
        jobs = state.jobs
        for j in jobs.tolist():  # running jobs keep their type
            r = int(state.previous[j])
            if r >= 0:
                out[j] = r
                free[r] -= self.sf[j]
        for j in jobs.tolist():
            if j in out:
                continue
            ok = np.flatnonzero((self.T[j] > 0) & (free >= self.sf[j]))
            if ok.size:
                r = self._first(ok)
                free[r] -= self.sf[j]
                out[j] = r
        return out

    def priority(self, state: RoundState) -> np.ndarray:
        """Arrival order."""
        return state.jobs
