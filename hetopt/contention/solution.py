"""Solution type of :mod:`hetopt.contention` and the metrics of Section V-A."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Self

import numpy as np

from ..errors import ArgumentError
from ..inputs import check_array
from ..result import SimulationResult, Solution

__all__ = ["TaskRecord", "ContentionSolution", "ContentionSimulation", "jct_metrics", "empirical_cdf",
           "schedule_solution"]


class TaskRecord(NamedTuple):
    """One executed task of the global DAG (Fig. 3).

    ``kind`` is "f" (forward), "b" (backward) or "c" (all-reduce); ``where`` is the GPU of a
    compute task or the tuple of servers of an all-reduce; ``iteration`` counts from 0.
    """

    kind: str
    job: int
    iteration: int
    #: the GPU (an int) of a forward or backward pass, the servers (a tuple) of an all-reduce (``kind`` says which)
    where: Any
    start: float
    end: float


def jct_metrics(jct: np.ndarray) -> dict[str, Any]:
    """Average, median and 95th-percentile JCT (Tables IV-V)."""
    jct = check_array(jct, "jct", (None,), minimum=0.0)
    if not jct.size:
        raise ArgumentError("jct is empty; expected one JCT per job")
    return {
        "average_jct": float(np.mean(jct)),
        "median_jct": float(np.median(jct)),
        "p95_jct": float(np.percentile(jct, 95)),
    }


def empirical_cdf(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points ``(x, F(x))`` of the empirical CDF of JCTs or utilisations (Figs. 4-6).

    Examples
    --------
    >>> empirical_cdf(np.array([3.0, 1.0, 2.0]))[1].tolist()
    [0.3333333333333333, 0.6666666666666666, 1.0]
    """
    x = np.sort(check_array(values, "values", (None,)))
    return x, np.arange(1, x.size + 1) / x.size


@dataclass(frozen=True, kw_only=True, eq=False)
class ContentionSolution(Solution):
    """A schedule of the DDL jobs and its metrics.

    ``objective`` is eq. (6), the total JCT ``sum_k (F_k - A_k)``.

    Attributes
    ----------
    finish : numpy.ndarray
        F_k, completion time of each job (s).
    jct : numpy.ndarray
        ``F_k - A_k``.
    placement : tuple of tuples of int
        GPUs of each job (global indices).
    placed_at : numpy.ndarray
        When each job got its GPUs (s).
    average_jct, median_jct, p95_jct : float
    gpu_busy : numpy.ndarray
        Compute time of each GPU (s).
    gpu_utilization : numpy.ndarray
        ``gpu_busy / makespan`` per GPU (Figs. 4(b), 5(b), 6(b)).
    avg_gpu_utilization : float
    makespan : float
        From the first arrival to the last completion.
    n_events : int
        Events processed by the simulator (0 for the MILP).
    trace : tuple of TaskRecord
        Every task, when recorded (``record=True``), else empty.
    """

    objective: float
    finish: np.ndarray
    jct: np.ndarray
    placement: tuple[tuple[int, ...], ...]
    placed_at: np.ndarray
    average_jct: float
    median_jct: float
    p95_jct: float
    gpu_busy: np.ndarray
    gpu_utilization: np.ndarray
    avg_gpu_utilization: float
    makespan: float
    n_events: int = 0
    trace: tuple[TaskRecord, ...] = field(default=())

    def summary(self) -> dict[str, Any]:
        """The common fields and the metrics of Tables IV-V.

        Total, average, median and 95th-percentile JCT, utilisation, makespan, each job's JCT and
        GPUs (the trace stays in :meth:`to_dict`).
        """
        return {
            **super().summary(),
            "method": self.solver,
            "total_jct": self.objective,
            "average_jct": self.average_jct,
            "median_jct": self.median_jct,
            "p95_jct": self.p95_jct,
            "avg_gpu_utilization": self.avg_gpu_utilization,
            "makespan": self.makespan,
            "jct": [float(x) for x in self.jct],
            "placement": [list(p) for p in self.placement],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The solution whose :meth:`to_dict` is ``data`` (the trace's records rebuilt as :class:`TaskRecord`)."""
        data = dict(data)
        if "trace" in data:
            data["trace"] = tuple(
                TaskRecord(str(kind), int(job), int(it),
                           tuple(int(s) for s in where) if isinstance(where, (list, tuple)) else int(where),
                           float(start), float(end))
                for kind, job, it, where, start, end in data["trace"])
        return super().from_dict(data)


@dataclass(frozen=True, kw_only=True, eq=False)
class ContentionSimulation(ContentionSolution, SimulationResult):
    """A run of :func:`~hetopt.contention.simulate`: a solution that is a simulation result too.

    A :class:`ContentionSolution` and a :class:`~hetopt.result.SimulationResult`: ``policy`` is the
    policy's name (a key of :data:`~hetopt.contention.POLICIES`, or ``"<admission>+<placement>"`` of
    a policy object), ``completion`` equals ``finish`` (seconds from time 0), and ``makespan`` is
    measured from the first arrival, as the paper's utilisation is.
    """


def schedule_solution(inst, placement, trace, finish: np.ndarray, **fields) -> ContentionSolution:
    """A :class:`ContentionSolution` of an exact engine from its task trace and completion times.

    ``placed_at`` is the arrival (memory does not bind in the exact models); GPU busy time and
    utilisation are computed from the trace; ``fields`` gives ``status``, ``bound``, ``gap``,
    ``wall_time``, ``solver``, ``message``.
    """
    finish = np.asarray(finish, dtype=float)
    jct = finish - inst.arrival
    busy = np.zeros(inst.n_total_gpus)
    for r in trace:
        if r.kind != "c":
            busy[r.where] += r.end - r.start
    makespan = float(finish.max() - inst.arrival.min())
    util = busy / makespan if makespan > 0 else busy
    return ContentionSolution(
        objective=float(jct.sum()),
        finish=finish,
        jct=jct,
        placement=tuple(tuple(int(g) for g in p) for p in placement),
        placed_at=inst.arrival.copy(),
        gpu_busy=busy,
        gpu_utilization=util,
        avg_gpu_utilization=float(util.mean()),
        makespan=makespan,
        trace=tuple(sorted(trace, key=lambda r: (r.start, r.kind, r.job))),
        **fields,
        **jct_metrics(jct),
    )
