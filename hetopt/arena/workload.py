"""The arena's workload: a cluster of servers and a stream of jobs (kind ``"arena"``).

A :class:`Workload` is what every scheduler of the arena runs on: servers (a GPU type, a number
of GPUs, a network link) and jobs (a job type, an arrival, a gang size, iterations to run, a
weight, the gang's throughput on each GPU type, the model size all-reduced per iteration).  Its
fields are the contract between the arena's modules (``models/arena.md``, *Workload*); readers
of Gavel's traces, the Philly log and Gavel's generator are in :mod:`hetopt.arena.sources`.

Examples
--------
>>> w = Workload(("k80", "v100"), [0, 1], [1, 1], [float("inf")] * 2, ("A",), [0.0], [1], [100.0], [1.0],
...              [[1.0, 4.0]], [0.0])
>>> w.capacity.tolist(), w.n_jobs
([1, 1], 1)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..data import check_header, meta_kwargs
from ..errors import InstanceError
from ..inputs import numeric_array
from ..schema import Field

__all__ = ["Workload", "KIND", "SCHEMA_VERSION"]

KIND = "arena"
SCHEMA_VERSION = 1

_INT = {"server_type", "server_gpus", "scale_factor"}
_ARRAYS = ("server_type", "server_gpus", "link_bandwidth", "arrival", "scale_factor", "steps", "weight",
           "throughput", "model_size")
_NAMES = ("gpu_types", "job_type")
_OPTIONAL = ("link_bandwidth", "weight", "model_size")


@dataclass(frozen=True, eq=False)
class Workload:
    """A cluster and a job stream.

    Attributes
    ----------
    gpu_types : tuple of str, length R
        GPU type names (Gavel's order: by name, ``("k80", "p100", "v100")``).
    server_type : numpy.ndarray of int, shape (S,)
        The GPU type index of each server.
    server_gpus : numpy.ndarray of int, shape (S,)
        GPUs in each server (>= 1).
    link_bandwidth : numpy.ndarray of float, shape (S,)
        Gbit/s of each server's network link (``inf``: no contention).
    job_type : tuple of str, length J
        Job types (Gavel's names, ``"ResNet-50 (batch size 64)"``, ...).
    arrival : numpy.ndarray of float, shape (J,)
        Arrival times (s, >= 0).
    scale_factor : numpy.ndarray of int, shape (J,)
        Gang sizes in GPUs (>= 1).
    steps : numpy.ndarray of float, shape (J,)
        Iterations to run (> 0).
    weight : numpy.ndarray of float, shape (J,)
        Job weights (> 0; 1 by default).
    throughput : numpy.ndarray of float, shape (J, R)
        Iterations/s of the whole gang of ``scale_factor[j]`` GPUs of each type (0: cannot run).
    model_size : numpy.ndarray of float, shape (J,)
        MB all-reduced per iteration (0: communication not modelled).
    description, source : str
        What the workload is and where it comes from.
    """

    KIND: ClassVar[str] = KIND
    SCHEMA_VERSION: ClassVar[int] = SCHEMA_VERSION
    #: The fields of a workload file (``hetopt schema arena`` and the docs' instance page).
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("gpu_types", "(n_types,)", "string", "Names of the GPU types, distinct (Gavel's order: by name)."),
        Field("server_type", "(n_servers,)", "integer", "GPU type index of each server.", minimum=0),
        Field("server_gpus", "(n_servers,)", "integer", "GPUs in each server.", "GPUs", minimum=1),
        Field("link_bandwidth", "(n_servers,)", "number", "Bandwidth of each server's network link (absent: "
              "unlimited, no contention).", "Gbit/s", minimum=0, exclusive_minimum=True, required=False),
        Field("job_type", "(n_jobs,)", "string", "Job type of each job, e.g. 'ResNet-50 (batch size 64)'."),
        Field("arrival", "(n_jobs,)", "number", "Arrival time of each job.", "s", minimum=0),
        Field("scale_factor", "(n_jobs,)", "integer", "GPUs each job's gang occupies.", "GPUs", minimum=1),
        Field("steps", "(n_jobs,)", "number", "Iterations each job runs before it completes.", "iterations",
              minimum=0, exclusive_minimum=True),
        Field("weight", "(n_jobs,)", "number", "Weight of each job (default 1).", minimum=0, exclusive_minimum=True,
              required=False),
        Field("throughput", "(n_jobs, n_types)", "number", "Iterations per second of job j's whole gang on GPUs "
              "of type r; 0 where it cannot run.", "iterations/s", minimum=0),
        Field("model_size", "(n_jobs,)", "number", "Megabytes all-reduced per iteration (default 0: "
              "communication not modelled).", "MB", minimum=0, required=False),
    )

    gpu_types: tuple[str, ...]
    server_type: np.ndarray
    server_gpus: np.ndarray
    link_bandwidth: np.ndarray
    job_type: tuple[str, ...]
    arrival: np.ndarray
    scale_factor: np.ndarray
    steps: np.ndarray
    weight: np.ndarray
    throughput: np.ndarray
    model_size: np.ndarray
    description: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        for name in ("description", "source"):
            if not isinstance(getattr(self, name), str):
                raise InstanceError(f"{name} is {getattr(self, name)!r}; expected a string")
        gpu = _names(self.gpu_types, "gpu_types")
        jobs = _names(self.job_type, "job_type")
        if not gpu:
            raise InstanceError("gpu_types is empty; expected at least one GPU type")
        if len(set(gpu)) != len(gpu):
            raise InstanceError(f"gpu_types {list(gpu)} has a duplicate name")
        if not jobs:
            raise InstanceError("job_type is empty; expected at least one job")
        R, J = len(gpu), len(jobs)
        S = _len(self.server_type, "server_type")
        if S == 0:
            raise InstanceError("server_type is empty; expected at least one server")
        shapes = {"server_type": (S,), "server_gpus": (S,), "link_bandwidth": (S,), "arrival": (J,),
                  "scale_factor": (J,), "steps": (J,), "weight": (J,), "throughput": (J, R), "model_size": (J,)}
        set_ = object.__setattr__
        set_(self, "gpu_types", gpu)
        set_(self, "job_type", jobs)
        for name, shape in shapes.items():
            a = _array(getattr(self, name), name, shape, integer=name in _INT, allow_inf=name == "link_bandwidth")
            a.flags.writeable = False
            set_(self, name, a)
        _check_ranges(self, R)

    # -- sizes -------------------------------------------------------------------------------
    @property
    def n_jobs(self) -> int:
        """Jobs ``J``."""
        return len(self.job_type)

    @property
    def n_types(self) -> int:
        """GPU types ``R``."""
        return len(self.gpu_types)

    @property
    def n_servers(self) -> int:
        """Servers ``S``."""
        return int(self.server_type.size)

    @property
    def capacity(self) -> np.ndarray:
        """GPUs of each type (``server_gpus`` summed by ``server_type``), int (R,)."""
        return np.bincount(self.server_type, weights=self.server_gpus, minlength=self.n_types).astype(np.int64)

    @property
    def contention(self) -> bool:
        """Some server's link has a finite bandwidth."""
        return bool(np.isfinite(self.link_bandwidth).any())

    def replace(self, **changes: Any) -> Workload:
        """A copy with ``changes`` (checked again)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        unknown = set(changes) - set(values)
        if unknown:
            raise InstanceError(f"Workload has no field {sorted(unknown)[0]!r}")
        return Workload(**(values | changes))

    def subset(self, jobs: Any) -> Workload:
        """The workload restricted to the job indices ``jobs`` (same cluster)."""
        from ..inputs import job_indices

        idx = job_indices("jobs", jobs, self.n_jobs)
        return self.replace(job_type=tuple(self.job_type[i] for i in idx), arrival=self.arrival[idx],
                            scale_factor=self.scale_factor[idx], steps=self.steps[idx], weight=self.weight[idx],
                            throughput=self.throughput[idx], model_size=self.model_size[idx])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Workload):
            return NotImplemented
        return all(np.array_equal(getattr(self, f.name), getattr(other, f.name)) if isinstance(getattr(self, f.name),
                                                                                              np.ndarray)
                   else getattr(self, f.name) == getattr(other, f.name) for f in fields(self))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Workload({self.n_jobs} jobs, {self.n_servers} servers, capacity "
                f"{dict(zip(self.gpu_types, self.capacity.tolist(), strict=True))})")

    # -- JSON --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON object (``kind``, ``schema_version``, the fields as lists); :meth:`from_dict` inverts it.

        ``link_bandwidth`` is left out when every link is unlimited; a workload that mixes
        unlimited and finite links cannot be written (JSON has no infinity).
        """
        d: dict[str, Any] = {"kind": KIND, "schema_version": SCHEMA_VERSION, "description": self.description,
                             "source": self.source, "gpu_types": list(self.gpu_types),
                             "job_type": list(self.job_type)}
        for name in _ARRAYS:
            d[name] = getattr(self, name).tolist()
        bw = self.link_bandwidth
        if np.isinf(bw).all():
            del d["link_bandwidth"]
        elif np.isinf(bw).any():
            raise InstanceError(f"link_bandwidth mixes unlimited (server {int(np.argmax(np.isinf(bw)))}) and finite "
                                "links; JSON cannot hold infinity: give every server a finite bandwidth")
        return d

    def to_json(self, path: str | Path | None = None, **kwargs: Any) -> str:
        """The JSON text; also written to ``path`` when given."""
        text = json.dumps(self.to_dict(), **({"indent": 1} | kwargs))
        if path is not None:
            Path(path).write_text(text + "\n", encoding="utf-8")
        return text

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Workload:
        """The workload of a parsed JSON object; :class:`InstanceError` naming the field on bad input."""
        if not isinstance(data, Mapping):
            raise InstanceError(f"an arena workload is a JSON object; got {type(data).__name__}")
        d = dict(data)
        names = tuple(f.name for f in cls.FIELDS)
        check_header(d, KIND, SCHEMA_VERSION, names, tuple(f.name for f in cls.FIELDS if f.required))
        meta: dict[str, Any] = dict(meta_kwargs(d))
        S = _len(d["server_type"], "server_type")
        J = _len(d["job_type"], "job_type")
        values: dict[str, Any] = {k: d[k] for k in names if k in d}
        values.setdefault("link_bandwidth", [float("inf")] * S)
        values.setdefault("weight", [1.0] * J)
        values.setdefault("model_size", [0.0] * J)
        return cls(**values, **meta)

    @classmethod
    def from_json(cls, data: str | Path | Mapping[str, Any]) -> Workload:
        """From JSON text, a file path or a parsed dict."""
        parsed: Any = data
        if isinstance(data, Path) or (isinstance(data, str) and not data.lstrip().startswith(("{", "["))):
            try:
                parsed = Path(data).read_text(encoding="utf-8")
            except OSError as exc:
                raise InstanceError(f"cannot read arena workload file {str(data)!r}: {exc.strerror}") from None
        if isinstance(parsed, str):
            try:
                parsed = json.loads(parsed)
            except json.JSONDecodeError as exc:
                raise InstanceError(f"not valid JSON: {exc.msg} at line {exc.lineno}") from None
        return cls.from_dict(parsed)


def _len(v: Any, name: str) -> int:
    if isinstance(v, (str, bytes)) or not hasattr(v, "__len__"):
        raise InstanceError(f"{name} is {v!r}; expected a list")
    return len(v)


def _names(v: Any, name: str) -> tuple[str, ...]:
    _len(v, name)
    out = tuple(v)
    for i, g in enumerate(out):
        if not isinstance(g, str) or not g.strip():
            raise InstanceError(f"{name}[{i}] is {g!r}; expected a non-empty string")
    return out


def _array(v: Any, name: str, shape: tuple[int, ...], *, integer: bool, allow_inf: bool) -> np.ndarray:
    if allow_inf and isinstance(v, (list, tuple)):
        v = [float("inf") if (isinstance(x, str) and x == "inf") else x for x in v]
    a = numeric_array(name, v, integer=integer)
    if a.shape != shape:
        raise InstanceError(f"{name} has shape {a.shape}; expected {shape}")
    bad = np.isnan(a) if allow_inf else ~np.isfinite(a)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        raise InstanceError(f"{name}{list(idx)} is {a[idx]!r}; expected a finite number")
    return a.copy()


def _first(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask.reshape(-1))[0])


def _check_ranges(w: Workload, R: int) -> None:
    checks = [("server_type", (w.server_type < 0) | (w.server_type >= R), f"a GPU type index in 0..{R - 1}"),
              ("server_gpus", w.server_gpus < 1, "an integer >= 1"),
              ("link_bandwidth", ~(w.link_bandwidth > 0), "> 0 Gbit/s (inf: unlimited)"),
              ("arrival", w.arrival < 0, ">= 0 seconds"),
              ("scale_factor", w.scale_factor < 1, "an integer >= 1"),
              ("steps", ~(w.steps > 0), "> 0 iterations"),
              ("weight", ~(w.weight > 0), "> 0"),
              ("model_size", w.model_size < 0, ">= 0 MB")]
    for name, bad, expected in checks:
        if bad.any():
            i = _first(bad)
            raise InstanceError(f"{name}[{i}] is {getattr(w, name)[i]!r}; expected {expected}")
    if np.any(w.throughput < 0):
        j, r = np.argwhere(w.throughput < 0)[0]
        raise InstanceError(f"throughput[{j}][{r}] is {w.throughput[j, r]!r}; expected >= 0 (0: cannot run there)")
    usable = np.where(w.throughput > 0, w.capacity[None, :], 0).sum(axis=1)
    stuck = np.flatnonzero(usable < w.scale_factor)
    if stuck.size:
        j = int(stuck[0])
        raise InstanceError(f"job {j} ({w.job_type[j]}, scale_factor {w.scale_factor[j]}) has only {usable[j]} GPUs of "
                            "the types it can run on (field throughput / scale_factor / server_gpus)")
