"""The arena's workload: a cluster of servers and a stream of jobs (kind ``"arena"``).

A minimal stand-in with exactly the fields of the arena's shared design (``models/arena.md``,
*Workload*): the bounds and the exact model read these fields and :attr:`Workload.capacity` only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..errors import InstanceError
from ..inputs import numeric_array

__all__ = ["Workload"]

_INT = ("server_type", "server_gpus", "scale_factor")


@dataclass(frozen=True, eq=False)
class Workload:
    """A cluster (servers of one GPU type each) and a job stream.

    Attributes
    ----------
    gpu_types : tuple of str, length R
    server_type, server_gpus : numpy.ndarray of int, shape (S,)
        The GPU type index and the GPUs (>= 1) of each server.
    link_bandwidth : numpy.ndarray of float, shape (S,)
        Gbit/s of each server's link (``inf``: no contention).
    job_type : tuple of str, length J
    arrival : numpy.ndarray, shape (J,)
        Seconds, >= 0.
    scale_factor : numpy.ndarray of int, shape (J,)
        Gang sizes in GPUs, >= 1.
    steps : numpy.ndarray, shape (J,)
        Iterations to run, > 0.
    weight : numpy.ndarray, shape (J,)
        > 0.
    throughput : numpy.ndarray, shape (J, R)
        Iterations/s of the whole gang on GPUs of each type (0: cannot run there).
    model_size : numpy.ndarray, shape (J,)
        MB all-reduced per iteration, >= 0.
    """

    KIND: ClassVar[str] = "arena"

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
        R, J = len(self.gpu_types), len(self.job_type)
        if R == 0 or J == 0:
            raise InstanceError("gpu_types and job_type must be non-empty")
        object.__setattr__(self, "gpu_types", tuple(self.gpu_types))
        object.__setattr__(self, "job_type", tuple(self.job_type))
        S = len(self.server_type)
        shapes = {"server_type": (S,), "server_gpus": (S,), "link_bandwidth": (S,), "arrival": (J,),
                  "scale_factor": (J,), "steps": (J,), "weight": (J,), "throughput": (J, R), "model_size": (J,)}
        for name, shape in shapes.items():
            a = numeric_array(name, getattr(self, name), integer=name in _INT)
            if a.shape != shape:
                raise InstanceError(f"{name} has shape {a.shape}; expected {shape}")
            if name != "link_bandwidth" and not np.all(np.isfinite(a)):
                raise InstanceError(f"{name} has a non-finite entry; expected finite numbers")
            a = a.copy()
            a.flags.writeable = False
            object.__setattr__(self, name, a)
        _check_ranges(self, R)

    @property
    def n_jobs(self) -> int:
        """Jobs ``J``."""
        return len(self.job_type)

    @property
    def n_types(self) -> int:
        """GPU types ``R``."""
        return len(self.gpu_types)

    @property
    def capacity(self) -> np.ndarray:
        """GPUs of each type (``server_gpus`` summed by ``server_type``), int (R,)."""
        return np.bincount(self.server_type, weights=self.server_gpus, minlength=self.n_types).astype(np.int64)


def _check_ranges(w: Workload, R: int) -> None:
    checks: list[tuple[str, Any, str]] = [
        ("server_type", (w.server_type < 0) | (w.server_type >= R), f"a GPU type index in 0..{R - 1}"),
        ("server_gpus", w.server_gpus < 1, "an integer >= 1"),
        ("link_bandwidth", ~(w.link_bandwidth > 0), "> 0 Gbit/s (inf: unlimited)"),
        ("arrival", w.arrival < 0, ">= 0 seconds"),
        ("scale_factor", w.scale_factor < 1, "an integer >= 1"),
        ("steps", ~(w.steps > 0), "> 0 iterations"),
        ("weight", ~(w.weight > 0), "> 0"),
        ("model_size", w.model_size < 0, ">= 0 MB"),
        ("throughput", w.throughput < 0, ">= 0 (0: cannot run there)")]
    for name, bad, expected in checks:
        if np.any(bad):
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            raise InstanceError(f"{name}{list(idx)} is {getattr(w, name)[idx]!r}; expected {expected}")
    usable = np.where(w.throughput > 0, w.capacity[None, :], 0).sum(axis=1)
    stuck = np.flatnonzero(usable < w.scale_factor)
    if stuck.size:
        j = int(stuck[0])
        raise InstanceError(f"job {j} (scale_factor {w.scale_factor[j]}) has only {usable[j]} GPUs of the types it "
                            "can run on (field throughput / scale_factor / server_gpus)")
