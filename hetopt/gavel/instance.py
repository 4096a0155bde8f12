"""A Gavel workload: a cluster of GPU types and jobs in Gavel's trace format (kind ``"gavel"``).

Each job has a job type (a model of Gavel's throughput table), a scale factor (GPUs of one
type it occupies), a total number of steps (iterations), an arrival time in seconds and a
priority weight; ``throughput[j, r]`` is its steps/s on ``scale_factor[j]`` GPUs of type
``r`` (0: it cannot run there).

Examples
--------
>>> inst = GavelInstance(["v100", "k80"], [1, 1], ["A", "B"], [1, 1], [10.0, 10.0], [0.0, 0.0],
...                      [[2.0, 1.0], [1.0, 1.0]])
>>> GavelInstance.from_json(inst.to_json()).n_jobs
2
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..errors import InstanceError
from ..schema import Field, FieldsMixin

__all__ = ["KIND", "SCHEMA_VERSION", "GavelInstance"]

KIND = "gavel"
SCHEMA_VERSION = 1


@dataclass
class GavelInstance(FieldsMixin):
    """A cluster and a list of jobs for Gavel's policies and round simulator.

    Attributes
    ----------
    gpu_types : tuple of str, length R
        Names of the GPU types, fastest first (the order of Gavel's per-type queues).
    capacity : numpy.ndarray of int, shape (R,)
        GPUs of each type.
    job_types : tuple of str, length J
        Job type of each job (e.g. ``"ResNet-50 (batch size 64)"``).
    scale_factor : numpy.ndarray of int, shape (J,)
        GPUs of a single type each job occupies when it runs.
    total_steps : numpy.ndarray of float, shape (J,)
        Steps (iterations) each job must run.
    arrival : numpy.ndarray of float, shape (J,)
        Arrival times in seconds.
    throughput : numpy.ndarray of float, shape (J, R)
        Steps/s of each job on ``scale_factor[j]`` GPUs of each type; 0 where it cannot run.
    priority_weight : numpy.ndarray of float, shape (J,)
        Gavel's priority weights (default 1).
    description, source : str
        What the workload is and where it comes from.
    """

    #: The ``kind`` key of this class's JSON (the registry's name of the paper).
    KIND: ClassVar[str] = KIND
    #: The version of the JSON layout :meth:`from_dict` reads.
    SCHEMA_VERSION: ClassVar[int] = SCHEMA_VERSION
    #: The fields of an instance file (the docs' instance page and ``hetopt schema gavel``).
    #:
    #: :meta hide-value:
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("gpu_types", "(n_types,)", "string", "Names of the GPU types, fastest first (the order of Gavel's "
              "per-type queues); distinct, non-empty.", nonempty=True, unique=True),
        Field("job_types", "(n_jobs,)", "string", "Job type of each job, e.g. `ResNet-50 (batch size 64)` (Gavel's "
              "throughput table key); non-empty.", nonempty=True),
        Field("capacity", "(n_types,)", "integer", "Number of GPUs of each type in the cluster.", "GPUs", minimum=0),
        Field("scale_factor", "(n_jobs,)", "integer", "GPUs of one type each job occupies when it runs (Gavel's "
              "scale factor).", "GPUs", minimum=1),
        Field("total_steps", "(n_jobs,)", "number", "Steps (iterations) each job must run before it completes.",
              "steps", minimum=0, exclusive_minimum=True),
        Field("arrival", "(n_jobs,)", "number", "Arrival time of each job.", "s", minimum=0),
        Field("throughput", "(n_jobs, n_types)", "number", "Steps per second of job $j$ on `scale_factor[j]` GPUs "
              "of type $r$; 0 where it cannot run (every job needs one type with throughput $> 0$ and enough GPUs).",
              "steps/s", minimum=0),
        Field("priority_weight", "(n_jobs,)", "number", "Gavel's priority weight of each job.",
              minimum=0, exclusive_minimum=True, default="1 for every job"),
    )

    gpu_types: Any
    capacity: Any
    job_types: Any
    scale_factor: Any
    total_steps: Any
    arrival: Any
    throughput: Any
    priority_weight: Any = None
    description: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        dims = self._check_fields()  # types, shapes, ranges and the shared n_jobs, n_types (FIELDS)
        if self.priority_weight is None:
            self.priority_weight = np.ones(dims["n_jobs"])
            self.priority_weight.setflags(write=False)
        runnable = (self.throughput > 0) & (self.scale_factor[:, None] <= self.capacity[None, :])
        stuck = np.flatnonzero(~runnable.any(axis=1))
        if stuck.size:
            j = int(stuck[0])
            raise InstanceError(f"job {j} ({self.job_types[j]}, scale_factor {self.scale_factor[j]}) has no GPU type "
                                "with throughput > 0 and at least scale_factor GPUs (field throughput / capacity)")

    @property
    def n_jobs(self) -> int:
        """Number of jobs ``J``."""
        return len(self.job_types)

    @property
    def n_types(self) -> int:
        """Number of GPU types ``R``."""
        return len(self.gpu_types)

    def effective_throughput(self) -> np.ndarray:
        """``throughput`` with 0 where a type has fewer GPUs than the job's scale factor."""
        return np.where(self.scale_factor[:, None] <= self.capacity[None, :], self.throughput, 0.0)

    def subset(self, jobs) -> GavelInstance:
        """The instance restricted to the job indices ``jobs`` (same cluster)."""
        from ..inputs import job_indices

        idx = job_indices("jobs", jobs, len(self.job_types))
        return GavelInstance(self.gpu_types, self.capacity, [self.job_types[i] for i in idx], self.scale_factor[idx],
                             self.total_steps[idx], self.arrival[idx], self.throughput[idx], self.priority_weight[idx],
                             self.description, self.source)
