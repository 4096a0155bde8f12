"""Instance of the DDL job scheduling problem of Wang et al., Section III.

A cluster of ``n_servers`` servers with ``gpus_per_server`` identical GPUs each (GPU
``g_{i,j}`` has the global index ``i * gpus_per_server + j``), every GPU with
``gpu_memory`` MB; each server's network is shared by the communication tasks that use it
(eq. (5) with ``a``, ``b``, ``eta``).  Job ``k`` arrives at ``arrival[k]``, needs
``n_gpus[k]`` GPUs (one worker each, ``memory[k]`` MB on each), runs ``iterations[k]``
iterations of forward (``t_f[k]`` s), backward (``t_b[k]`` s) and, when its GPUs span more
than one server, an all-reduce of its model (``model_size[k]`` MB).

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Section III and Table II.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from ..data import check_header, meta_kwargs, read_json
from ..errors import InstanceError
from ..inputs import INT64_LIMIT, numeric_array, real_scalar
from ..schema import Field
from .comm import PAPER_A, SIM_BETA, SIM_ETA

__all__ = ["KIND", "SCHEMA_VERSION", "V100_MEMORY_MB", "ContentionInstance"]

#: JSON "kind" of the instances of this paper.
KIND = "contention"
SCHEMA_VERSION = 1
#: Memory of a Tesla V100-16GB in MB (16 GiB).
V100_MEMORY_MB = 16384.0

_JOB_FIELDS = ("arrival", "n_gpus", "iterations", "t_f", "t_b", "model_size", "memory")
_SCALARS = ("n_servers", "gpus_per_server", "gpu_memory", "a", "b", "eta")


def _int_scalar(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum or value >= INT64_LIMIT:
        raise InstanceError(f"{name} is {value!r}; expected an integer >= {minimum}")
    return int(value)


def _float_scalar(name: str, value: Any, *, positive: bool) -> float:
    v = real_scalar(name, value)
    if not math.isfinite(v) or v < 0 or (positive and v == 0):
        raise InstanceError(f"{name} is {value!r}; expected a finite number {'> 0' if positive else '>= 0'}")
    return v


def _vector(name: str, value: Any, n: int | None, *, integer: bool, positive: bool) -> np.ndarray:
    arr = numeric_array(name, value)
    if arr.ndim != 1:
        raise InstanceError(f"{name} has shape {arr.shape}; expected a 1-d array (one entry per job)")
    if n is not None and arr.shape[0] != n:
        raise InstanceError(f"{name} has {arr.shape[0]} entries; expected {n} (one per job)")
    if arr.dtype == bool or (arr.size and not np.issubdtype(arr.dtype, np.number)):
        raise InstanceError(f"{name} has dtype {arr.dtype}; expected numbers")
    arr = arr.astype(float)
    for k, v in enumerate(arr):
        if not math.isfinite(v):
            raise InstanceError(f"{name}[{k}] is {v}; expected a finite number")
        if integer and (v != round(v) or abs(v) >= INT64_LIMIT):
            raise InstanceError(f"{name}[{k}] is {v}; expected an integer")
        if v < 0 or (positive and v == 0):
            raise InstanceError(f"{name}[{k}] is {v}; expected a number {'> 0' if positive else '>= 0'}")
    if integer:
        arr = arr.astype(np.int64)
    arr.setflags(write=False)
    return arr


def _job_count(arrays: dict[str, np.ndarray]) -> int:
    """The number of jobs: the length most job fields share (arrival's on a tie); a field of another length is named."""
    lengths = [a.shape[0] for a in arrays.values()]
    n = max(sorted(set(lengths)), key=lambda m: (lengths.count(m), m == lengths[0]))
    for name, arr in arrays.items():
        if arr.shape[0] != n:
            others = ", ".join(k for k, a in arrays.items() if a.shape[0] == n)
            raise InstanceError(f"{name} has {arr.shape[0]} entries; expected {n}, one per job as {others}")
    if n == 0:
        raise InstanceError("arrival has 0 entries; expected at least one job")
    return n


def _names(value: Any, n: int) -> tuple[str, ...]:
    """The jobs' labels: a sequence of ``n`` strings, or empty (labels ""); InstanceError naming ``names``."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, np.ndarray)):
        raise InstanceError(f"names is {value!r:.60}; expected a list of {n} strings (one per job) or nothing")
    names = tuple(value.tolist() if isinstance(value, np.ndarray) else value)
    if not names:
        return ("",) * n
    if len(names) != n:
        raise InstanceError(f"names has {len(names)} entries; expected {n} strings (one per job)")
    for k, x in enumerate(names):
        if not isinstance(x, str):
            raise InstanceError(f"names[{k}] is {x!r}; expected a string")
    return names


@dataclass(frozen=True, eq=False)
class ContentionInstance:
    """Jobs and cluster of the DDL scheduling problem (Section III), checked at construction.

    Parameters
    ----------
    n_servers : int
        N_s, >= 1.
    gpus_per_server : int
        N_g, >= 1.
    gpu_memory : float
        Memory of each GPU (MB), > 0.
    a : float
        All-reduce latency of eq. (5) (s), >= 0.
    b : float
        All-reduce transfer time per MB of eq. (5) (s/MB), > 0.
    eta : float
        Contention penalty per MB of eq. (5) (s/MB), >= 0.
    arrival : array of float
        A_k (s), >= 0.
    n_gpus : array of int
        |G(J_k)|, in [1, n_servers * gpus_per_server].
    iterations : array of int
        I_k, >= 1.
    t_f, t_b : array of float
        Forward and backward time per iteration on one GPU, eqs. (3)-(4) (s), > 0.
    model_size : array of float
        sigma^k, the all-reduce message (MB), >= 0.
    memory : array of float
        GPU memory a worker of job k occupies (MB), in (0, gpu_memory].
    names : tuple of str, optional
        Labels (e.g. the DNN of Table III); default "".
    description : str, optional
        Free text (where the instance comes from).

    Raises
    ------
    InstanceError
        Naming the field, the index and the expected form.
    """

    #: The ``kind`` key of this class's JSON (the registry's name of the paper).
    KIND: ClassVar[str] = KIND
    #: The ``schema_version`` of this class's JSON.
    SCHEMA_VERSION: ClassVar[int] = SCHEMA_VERSION
    #: Every JSON field (:mod:`hetopt.schema`): ``hetopt schema contention`` and the docs' field table.
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("n_servers", "scalar", "integer", "N_s, the number of servers of the cluster (Section III).", minimum=1),
        Field("gpus_per_server", "scalar", "integer", "N_g, the identical GPUs of each server; GPU g_{i,j} has the "
              "global index i * N_g + j.", minimum=1),
        Field("gpu_memory", "scalar", "number", "The memory of every GPU; the jobs placed on a GPU must fit in it.",
              unit="MB", minimum=0, exclusive_minimum=True),
        Field("a", "scalar", "number", "The latency of an all-reduce, the constant term of eqs. (2) and (5).",
              unit="s", minimum=0),
        Field("b", "scalar", "number", "The transfer time per MB of an all-reduce alone on its servers, eq. (2).",
              unit="s/MB", minimum=0, exclusive_minimum=True),
        Field("eta", "scalar", "number", "The contention penalty per MB and per additional all-reduce on a server, "
              "eq. (5).", unit="s/MB", minimum=0),
        Field("arrival", "(n_jobs)", "number", "A_k, the time job k arrives.", unit="s", minimum=0),
        Field("n_gpus", "(n_jobs)", "integer", "|G(J_k)|, the GPUs job k needs, one worker on each (at most "
              "n_servers * gpus_per_server).", minimum=1),
        Field("iterations", "(n_jobs)", "integer", "I_k, the training iterations of job k.", minimum=1),
        Field("t_f", "(n_jobs)", "number", "The forward time of one iteration on one GPU, eq. (3).", unit="s",
              minimum=0, exclusive_minimum=True),
        Field("t_b", "(n_jobs)", "number", "The backward time of one iteration on one GPU, eq. (4).", unit="s",
              minimum=0, exclusive_minimum=True),
        Field("model_size", "(n_jobs)", "number", "sigma^k, the message (model) size of job k's all-reduce.",
              unit="MB", minimum=0),
        Field("memory", "(n_jobs)", "number", "The GPU memory a worker of job k occupies (at most gpu_memory).",
              unit="MB", minimum=0, exclusive_minimum=True),
        Field("names", "(n_jobs)", "string", "Labels of the jobs, e.g. the DNN of Table III; default empty.",
              required=False),
    )

    n_servers: int
    gpus_per_server: int
    gpu_memory: float
    a: float
    b: float
    eta: float
    arrival: np.ndarray
    n_gpus: np.ndarray
    iterations: np.ndarray
    t_f: np.ndarray
    t_b: np.ndarray
    model_size: np.ndarray
    memory: np.ndarray
    names: tuple[str, ...] = field(default=())
    description: str = ""
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        s = object.__setattr__
        s(self, "n_servers", _int_scalar("n_servers", self.n_servers, 1))
        s(self, "gpus_per_server", _int_scalar("gpus_per_server", self.gpus_per_server, 1))
        s(self, "gpu_memory", _float_scalar("gpu_memory", self.gpu_memory, positive=True))
        s(self, "a", _float_scalar("a", self.a, positive=False))
        s(self, "b", _float_scalar("b", self.b, positive=True))
        s(self, "eta", _float_scalar("eta", self.eta, positive=False))
        arrays = {name: _vector(name, getattr(self, name), None, integer=name in ("n_gpus", "iterations"),
                                positive=name not in ("arrival", "model_size")) for name in _JOB_FIELDS}
        n = _job_count(arrays)
        for name, arr in arrays.items():
            s(self, name, arr)
        total = self.n_servers * self.gpus_per_server
        for k, g in enumerate(self.n_gpus):
            if g > total:
                raise InstanceError(
                    f"n_gpus[{k}] is {g}; the cluster has only {total} GPUs ({self.n_servers} x {self.gpus_per_server})"
                )
        for k, m in enumerate(self.memory):
            if m > self.gpu_memory:
                raise InstanceError(f"memory[{k}] is {m} MB; expected <= gpu_memory = {self.gpu_memory} MB")
        s(self, "names", _names(self.names, n))
        for name in ("description", "source"):
            if not isinstance(getattr(self, name), str):
                raise InstanceError(f"{name} is {getattr(self, name)!r}; expected a string")

    # ------------------------------------------------------------------ sizes
    @property
    def n_jobs(self) -> int:
        """Number of jobs."""
        return int(self.arrival.shape[0])

    @property
    def n_total_gpus(self) -> int:
        """Number of GPUs of the cluster, ``n_servers * gpus_per_server``."""
        return self.n_servers * self.gpus_per_server

    def server_of(self, gpu: int) -> int:
        """Server index of a global GPU index."""
        return int(gpu) // self.gpus_per_server

    def comm_time(self, k: int) -> float:
        """Contention-free all-reduce time of job k, eq. (2): ``a + b sigma_k``."""
        return self.a + self.b * float(self.model_size[k])

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """The instance as JSON-ready values (``kind`` and ``schema_version`` first)."""
        d: dict[str, Any] = {"kind": KIND, "schema_version": SCHEMA_VERSION}
        for name in _SCALARS:
            d[name] = getattr(self, name)
        for name in _JOB_FIELDS:
            d[name] = getattr(self, name).tolist()
        d["names"] = list(self.names)
        d["description"] = self.description
        if self.source:
            d["source"] = self.source
        return d

    def to_json(self, path: str | None = None) -> str:
        """JSON text of the instance; also written to ``path`` when given."""
        text = json.dumps(self.to_dict(), indent=1)
        if path is not None:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        return text

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ContentionInstance:
        """The instance whose :meth:`to_dict` is ``data`` (InstanceError naming a bad field)."""
        check_header(data, KIND, SCHEMA_VERSION, (*_SCALARS, *_JOB_FIELDS, "names"), (*_SCALARS, *_JOB_FIELDS))
        kwargs = {k: data[k] for k in (*_SCALARS, *_JOB_FIELDS)}
        meta: dict[str, Any] = meta_kwargs(data)
        return cls(**kwargs, names=data.get("names", ()), **meta)

    @classmethod
    def from_json(cls, text_or_path: str) -> ContentionInstance:
        """Parse JSON text, or read a file when given a path."""
        return cls.from_dict(read_json(text_or_path))

    @classmethod
    def default_network(cls) -> dict[str, float]:
        """The 10 GbE constants used by default: ``a`` of Fig. 2(a), beta and eta of the authors' simulator."""
        return {"a": PAPER_A, "b": SIM_BETA, "eta": SIM_ETA}
