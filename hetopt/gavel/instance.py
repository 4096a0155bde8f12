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

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..data import check_expected, meta_kwargs
from ..errors import InstanceError
from ..inputs import INT64_LIMIT, numeric_array
from ..schema import Field

__all__ = ["KIND", "SCHEMA_VERSION", "GavelInstance"]

KIND = "gavel"
SCHEMA_VERSION = 1
_ARRAYS = ("capacity", "scale_factor", "total_steps", "arrival", "throughput", "priority_weight")
_FIELDS = ("gpu_types", "capacity", "job_types", "scale_factor", "total_steps", "arrival", "throughput",
           "priority_weight", "description", "source")


@dataclass
class GavelInstance:
    """A cluster and a list of jobs for Gavel's policies and round simulator.

    Attributes
    ----------
    gpu_types : list of str, length R
        Names of the GPU types, fastest first (the order of Gavel's per-type queues).
    capacity : numpy.ndarray of int, shape (R,)
        GPUs of each type.
    job_types : list of str, length J
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
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("gpu_types", "(n_types,)", "string", "Names of the GPU types, fastest first (the order of Gavel's "
              "per-type queues); distinct, non-empty."),
        Field("capacity", "(n_types,)", "integer", "Number of GPUs of each type in the cluster.", "GPUs", minimum=0),
        Field("job_types", "(n_jobs,)", "string", "Job type of each job, e.g. 'ResNet-50 (batch size 64)' (Gavel's "
              "throughput table key); non-empty."),
        Field("scale_factor", "(n_jobs,)", "integer", "GPUs of one type each job occupies when it runs (Gavel's "
              "scale factor).", "GPUs", minimum=1),
        Field("total_steps", "(n_jobs,)", "number", "Steps (iterations) each job must run before it completes.",
              "steps", minimum=0, exclusive_minimum=True),
        Field("arrival", "(n_jobs,)", "number", "Arrival time of each job.", "s", minimum=0),
        Field("throughput", "(n_jobs, n_types)", "number", "Steps per second of job j on scale_factor[j] GPUs of "
              "type r; 0 where it cannot run (every job needs one type with throughput > 0 and enough GPUs).",
              "steps/s", minimum=0),
        Field("priority_weight", "(n_jobs,)", "number", "Gavel's priority weight of each job (default 1).",
              minimum=0, exclusive_minimum=True, required=False),
    )

    gpu_types: list
    capacity: Any
    job_types: list
    scale_factor: Any
    total_steps: Any
    arrival: Any
    throughput: Any
    priority_weight: Any = None
    description: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        self.gpu_types = _names(self.gpu_types, "gpu_types")
        self.job_types = _names(self.job_types, "job_types")
        for name in ("description", "source"):
            if not isinstance(getattr(self, name), str):
                raise InstanceError(f"{name} is {getattr(self, name)!r}; expected a string")
        R, J = len(self.gpu_types), len(self.job_types)
        if R == 0:
            raise InstanceError("gpu_types is empty; expected at least one GPU type")
        if len(set(self.gpu_types)) != R:
            raise InstanceError(f"gpu_types {self.gpu_types} has a duplicate name")
        if self.priority_weight is None:
            self.priority_weight = np.ones(J)
        self.capacity = _array(self.capacity, "capacity", (R,), integer=True)
        self.scale_factor = _array(self.scale_factor, "scale_factor", (J,), integer=True)
        self.total_steps = _array(self.total_steps, "total_steps", (J,))
        self.arrival = _array(self.arrival, "arrival", (J,))
        self.throughput = _array(self.throughput, "throughput", (J, R))
        self.priority_weight = _array(self.priority_weight, "priority_weight", (J,))
        if np.any(self.capacity < 0):
            raise InstanceError(f"capacity {self.capacity.tolist()} has a negative entry")
        if np.any(self.scale_factor < 1):
            raise InstanceError(f"scale_factor has an entry < 1 (job {int(np.argmin(self.scale_factor))})")
        if np.any(self.total_steps <= 0):
            raise InstanceError(f"total_steps must be > 0 (job {int(np.argmin(self.total_steps))})")
        if np.any(self.arrival < 0):
            raise InstanceError(f"arrival must be >= 0 seconds (job {int(np.argmin(self.arrival))})")
        if np.any(self.throughput < 0):
            raise InstanceError("throughput has a negative entry; 0 means the job cannot run on that type")
        if np.any(self.priority_weight <= 0):
            raise InstanceError(f"priority_weight must be > 0 (job {int(np.argmin(self.priority_weight))})")
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

    # -- JSON ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the instance (``kind``, ``schema_version``, the fields as lists); ``from_dict`` inverts it."""
        d: dict[str, Any] = {"kind": KIND, "schema_version": SCHEMA_VERSION, "description": self.description,
                             "source": self.source, "gpu_types": list(self.gpu_types), "job_types": list(self.job_types)}
        for name in _ARRAYS:
            d[name] = getattr(self, name).tolist()
        return d

    def to_json(self, path: str | Path | None = None, **kwargs: Any) -> str:
        """The JSON text (``description`` and ``source`` kept); also written to ``path`` when given."""
        text = json.dumps(self.to_dict(), **({"indent": 1} | kwargs))
        if path is not None:
            Path(path).write_text(text + "\n", encoding="utf-8")
        return text

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GavelInstance:
        """Build from parsed JSON; ``InstanceError`` naming the field on bad input."""
        if not isinstance(data, Mapping):
            raise InstanceError(f"a gavel instance is a JSON object; got {type(data).__name__}")
        d = dict(data)
        if d.get("kind") != KIND:
            raise InstanceError(f"kind is {d.get('kind')!r}; expected {KIND!r}")
        version = d.get("schema_version", SCHEMA_VERSION)
        if isinstance(version, bool) or version != SCHEMA_VERSION:
            raise InstanceError(f"schema_version is {d.get('schema_version')!r}; expected {SCHEMA_VERSION}")
        extra = set(d) - set(_FIELDS) - {"kind", "schema_version", "expected"}
        if extra:
            raise InstanceError(f"unknown keys {sorted(extra)}; expected {list(_FIELDS)}")
        missing = [k for k in ("gpu_types", "capacity", "job_types", "scale_factor", "total_steps", "arrival",
                               "throughput") if k not in d]
        if missing:
            raise InstanceError(f"missing field {missing[0]!r} (a gavel instance needs {missing})")
        meta_kwargs(d)  # description / source must be strings
        check_expected(d.get("expected"))  # method -> certified objective (bundled instances)
        return cls(**{k: d[k] for k in _FIELDS if k in d})

    @classmethod
    def from_json(cls, data: str | Path | Mapping[str, Any]) -> GavelInstance:
        """From JSON text, a file path or a parsed dict."""
        parsed: Any = data
        if isinstance(data, Path) or (isinstance(data, str) and not data.lstrip().startswith(("{", "["))):
            try:
                parsed = Path(data).read_text(encoding="utf-8")
            except OSError as exc:
                raise InstanceError(f"cannot read gavel instance file {str(data)!r}: {exc.strerror}") from None
        if isinstance(parsed, str):
            try:
                parsed = json.loads(parsed)
            except json.JSONDecodeError as exc:
                raise InstanceError(f"not valid JSON: {exc.msg} at line {exc.lineno}") from None
        return cls.from_dict(parsed)


def _names(v, name: str) -> list[str]:
    """A list of names: every entry a non-empty string (names are never coerced: None is not 'None')."""
    items = _list(v, name)
    for i, g in enumerate(items):
        if not isinstance(g, str) or not g.strip():
            raise InstanceError(f"{name}[{i}] is {g!r}; expected a non-empty string")
    return list(items)


def _list(v, name: str) -> list:
    if isinstance(v, (str, bytes)) or not hasattr(v, "__len__"):
        raise InstanceError(f"{name} must be a list of names, got {type(v).__name__}")
    return list(v)


def _array(v, name: str, shape: tuple, integer: bool = False) -> np.ndarray:
    a = numeric_array(name, v)
    if a.shape != shape:
        raise InstanceError(f"{name} has shape {a.shape}; expected {shape}")
    if not np.all(np.isfinite(a)):
        raise InstanceError(f"{name} has a non-finite entry")
    if integer:
        if np.any(a != np.round(a)) or np.any(np.abs(a) >= INT64_LIMIT):
            raise InstanceError(f"{name} must hold integers, got {a.tolist()}")
        return a.astype(np.int64)
    return a
