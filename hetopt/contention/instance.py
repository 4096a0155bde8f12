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

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from ..errors import InstanceError
from ..schema import Field, FieldsMixin
from .comm import PAPER_A, SIM_BETA, SIM_ETA

__all__ = ["KIND", "SCHEMA_VERSION", "V100_MEMORY_MB", "ContentionInstance"]

#: JSON "kind" of the instances of this paper.
KIND = "contention"
SCHEMA_VERSION = 1
#: Memory of a Tesla V100-16GB in MB (16 GiB).
V100_MEMORY_MB = 16384.0


@dataclass(frozen=True, eq=False)
class ContentionInstance(FieldsMixin):
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
    #:
    #: :meta hide-value:
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("n_servers", "scalar", "integer", "$N_s$, the number of servers of the cluster (Section III).",
              minimum=1),
        Field("gpus_per_server", "scalar", "integer", "$N_g$, the identical GPUs of each server; GPU $g_{i,j}$ has "
              "the global index $i N_g + j$.", minimum=1),
        Field("gpu_memory", "scalar", "number", "The memory of every GPU; the jobs placed on a GPU must fit in it.",
              unit="MB", minimum=0, exclusive_minimum=True),
        Field("a", "scalar", "number", "The latency of an all-reduce, the constant term of eqs. (2) and (5).",
              unit="s", minimum=0),
        Field("b", "scalar", "number", "The transfer time per MB of an all-reduce alone on its servers, eq. (2).",
              unit="s/MB", minimum=0, exclusive_minimum=True),
        Field("eta", "scalar", "number", "The contention penalty per MB and per additional all-reduce on a server, "
              "eq. (5).", unit="s/MB", minimum=0),
        Field("arrival", "(n_jobs,)", "number", "$A_k$, the time job $k$ arrives.", unit="s", minimum=0),
        Field("n_gpus", "(n_jobs,)", "integer", "$\\lvert G(J_k) \\rvert$, the GPUs job $k$ needs, one worker on each (at most "
              "`n_servers` times `gpus_per_server`).", minimum=1),
        Field("iterations", "(n_jobs,)", "integer", "$I_k$, the training iterations of job $k$.", minimum=1),
        Field("t_f", "(n_jobs,)", "number", "The forward time of one iteration on one GPU, eq. (3).", unit="s",
              minimum=0, exclusive_minimum=True),
        Field("t_b", "(n_jobs,)", "number", "The backward time of one iteration on one GPU, eq. (4).", unit="s",
              minimum=0, exclusive_minimum=True),
        Field("model_size", "(n_jobs,)", "number", "$\\sigma^k$, the message (model) size of job $k$'s all-reduce.",
              unit="MB", minimum=0),
        Field("memory", "(n_jobs,)", "number", "The GPU memory a worker of job $k$ occupies (at most `gpu_memory`).",
              unit="MB", minimum=0, exclusive_minimum=True),
        Field("names", "(n_jobs,)", "string", "Labels of the jobs, e.g. the DNN of Table III; empty strings allowed.",
              default="empty labels"),
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
    names: tuple[str, ...] | None = None
    description: str = ""
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.names, (list, tuple)) and len(self.names) == 0:
            object.__setattr__(self, "names", None)  # no labels, as an omitted key
        dims = self._check_fields()  # types, shapes, ranges and the shared n_jobs (FIELDS)
        if self.names is None:
            object.__setattr__(self, "names", ("",) * dims["n_jobs"])
        total = self.n_servers * self.gpus_per_server
        for k in np.flatnonzero(self.n_gpus > total)[:1]:
            raise InstanceError(f"n_gpus[{k}] is {self.n_gpus[k]}; the cluster has only {total} GPUs "
                                f"({self.n_servers} x {self.gpus_per_server})")
        for k in np.flatnonzero(self.memory > self.gpu_memory)[:1]:
            raise InstanceError(f"memory[{k}] is {self.memory[k]} MB; expected <= gpu_memory = {self.gpu_memory} MB")

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

    # ------------------------------------------------------------------ defaults
    @classmethod
    def default_network(cls) -> dict[str, float]:
        """The 10 GbE constants used by default: ``a`` of Fig. 2(a), beta and eta of the authors' simulator."""
        return {"a": PAPER_A, "b": SIM_BETA, "eta": SIM_ETA}
