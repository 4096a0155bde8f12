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

from dataclasses import dataclass, fields
from typing import Any, ClassVar

import numpy as np

from ..errors import InstanceError
from ..schema import Field, FieldsMixin

__all__ = ["Workload", "KIND", "SCHEMA_VERSION"]

KIND = "arena"
SCHEMA_VERSION = 1


@dataclass(frozen=True, eq=False)
class Workload(FieldsMixin):
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
        Gbit/s of each server's network link (``inf``: no contention; omitted in the JSON when every
        link is unlimited).
    job_type : tuple of str, length J
        Job types (Gavel's names, "ResNet-50 (batch size 64)").
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
    #:
    #: :meta hide-value:
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("gpu_types", "(n_types,)", "string", "Names of the GPU types (Gavel's order: by name).",
              nonempty=True, unique=True),
        Field("server_type", "(n_servers,)", "integer", "GPU type index of each server (into `gpu_types`).",
              minimum=0),
        Field("server_gpus", "(n_servers,)", "integer", "GPUs in each server.", "GPUs", minimum=1),
        Field("link_bandwidth", "(n_servers,)", "number", "Bandwidth of each server's network link.", "Gbit/s",
              minimum=0, exclusive_minimum=True, default="unlimited links: no contention"),
        Field("job_type", "(n_jobs,)", "string", "Job type of each job, e.g. `ResNet-50 (batch size 64)`.",
              nonempty=True),
        Field("arrival", "(n_jobs,)", "number", "Arrival time of each job.", "s", minimum=0),
        Field("scale_factor", "(n_jobs,)", "integer", "GPUs each job's gang occupies.", "GPUs", minimum=1),
        Field("steps", "(n_jobs,)", "number", "Iterations each job runs before it completes.", "iterations",
              minimum=0, exclusive_minimum=True),
        Field("weight", "(n_jobs,)", "number", "Weight of each job.", minimum=0, exclusive_minimum=True,
              default="1 for every job"),
        Field("throughput", "(n_jobs, n_types)", "number", "Iterations per second of job $j$'s whole gang on GPUs "
              "of type $r$; 0 where it cannot run.", "iterations/s", minimum=0),
        Field("model_size", "(n_jobs,)", "number", "Megabytes all-reduced per iteration.", "MB", minimum=0,
              default="0 for every job: communication not modelled"),
    )

    gpu_types: Any
    server_type: Any
    server_gpus: Any
    link_bandwidth: Any = None  # every field after an optional one needs a default: required ones are checked
    job_type: Any = None
    arrival: Any = None
    scale_factor: Any = None
    steps: Any = None
    weight: Any = None
    throughput: Any = None
    model_size: Any = None
    description: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        unlimited = _unlimited_links(self.link_bandwidth)
        if unlimited is not None:  # inf (unlimited) passes the field's check as 1, then comes back
            object.__setattr__(self, "link_bandwidth", np.where(unlimited, 1.0, self.link_bandwidth))
        dims = self._check_fields()
        if unlimited is not None:
            bw = np.where(unlimited, np.inf, self.link_bandwidth)
            bw.setflags(write=False)
            object.__setattr__(self, "link_bandwidth", bw)
        S, J = dims["n_servers"], dims["n_jobs"]
        filled = {"link_bandwidth": np.full(S, np.inf), "weight": np.ones(J), "model_size": np.zeros(J)}
        for name, value in filled.items():
            if getattr(self, name) is None:
                value.setflags(write=False)
                object.__setattr__(self, name, value)
        _check_ranges(self, dims["n_types"])

    def to_dict(self) -> dict[str, Any]:
        """The JSON object (:meth:`FieldsMixin.to_dict`), without ``link_bandwidth`` when every link is unlimited.

        A workload that mixes unlimited and finite links cannot be written (JSON has no infinity).
        """
        bw = self.link_bandwidth
        if np.isinf(bw).any() and not np.isinf(bw).all():
            raise InstanceError(f"link_bandwidth mixes unlimited (server {int(np.argmax(np.isinf(bw)))}) and finite "
                                "links; JSON cannot hold infinity: give every server a finite bandwidth")
        d = super().to_dict()
        if np.isinf(bw).all():
            del d["link_bandwidth"]
        return d

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


def _unlimited_links(bw: Any) -> np.ndarray | None:
    """The mask of +inf entries of a list or array of real numbers (None when there is none, or not such a list)."""
    if bw is None or isinstance(bw, (str, bytes)):
        return None
    items = bw.tolist() if isinstance(bw, np.ndarray) and bw.dtype.kind == "f" else bw
    if not isinstance(items, (list, tuple)) or not all(isinstance(x, float) for x in items):
        return None
    mask = np.isposinf(np.asarray(items, dtype=float))
    return mask if mask.any() else None


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
