"""The metrics of one arena run: JCT statistics, makespan, GPU utilization, finish-time fairness.

* JCT = completion - arrival; its average, and its 50th, 95th and 99th percentiles (numpy's
  linear interpolation between order statistics).
* Makespan: the last completion (s from time 0).
* GPU utilization: GPU-seconds occupied by gangs (restart delays included) over the cluster's
  GPUs times the span from the first arrival to the makespan.
* Finish-time fairness (Themis' rho, as Gavel's ``FinishTimeFairnessPolicy`` defines it): a job's
  JCT over the time it would have taken on its isolated share, ``c_r / (N s_j)`` of each type
  (scaled to a total of at most 1) with ``N`` the jobs present, accumulated round by round as the
  job ran (:class:`hetopt.arena.engine.Run`, ``isolated_time``); its maximum and mean.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ArgumentError
from .engine import Run
from .workload import Workload

__all__ = ["Metrics", "metrics_of", "METRIC_COLUMNS"]

#: The metric columns of :func:`hetopt.arena.run`'s table, in order (seconds unless said).
METRIC_COLUMNS = ("avg_jct", "p50_jct", "p95_jct", "p99_jct", "makespan", "utilization", "ftf_max", "ftf_mean")


@dataclass(frozen=True)
class Metrics:
    """The metrics of one run (the module docstring); ``jct`` per job (s), in the workload's order."""

    avg_jct: float
    p50_jct: float
    p95_jct: float
    p99_jct: float
    makespan: float
    utilization: float
    ftf_max: float
    ftf_mean: float
    jct: np.ndarray = field(repr=False)
    rho: np.ndarray = field(repr=False)

    def row(self) -> list[float]:
        """The values of :data:`METRIC_COLUMNS`."""
        return [float(getattr(self, c)) for c in METRIC_COLUMNS]

    def to_dict(self) -> dict[str, Any]:
        """The metrics, with the per-job JCTs and rho as lists."""
        return {**{c: float(getattr(self, c)) for c in METRIC_COLUMNS}, "jct": self.jct.tolist(),
                "rho": self.rho.tolist()}


def metrics_of(w: Workload, run: Run) -> Metrics:
    """The metrics of ``run`` (every job completed) on ``w``."""
    if not isinstance(w, Workload):
        raise ArgumentError(f"w is {w!r:.60}; expected a Workload")
    if not isinstance(run, Run) or len(run.completion) != w.n_jobs:
        raise ArgumentError(f"run is {run!r:.60}; expected the Run of execute() on w")
    jct = run.completion - w.arrival
    makespan = float(run.completion.max())
    span = makespan - float(w.arrival.min())
    util = run.busy_gpu_seconds / (float(w.capacity.sum()) * span) if span > 0 else float("nan")
    rho = jct / run.isolated_time
    p50, p95, p99 = (float(v) for v in np.percentile(jct, [50, 95, 99]))
    return Metrics(float(jct.mean()), p50, p95, p99, makespan, util, float(rho.max()), float(rho.mean()), jct, rho)
