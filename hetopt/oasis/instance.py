"""The OASiS instance of Bao et al. 2018 (Section III, Table I).

A cluster of ``H`` worker servers and ``K`` parameter-server (PS) servers with capacities of
``R`` resource types hosts ``I`` data-parallel training jobs over slots ``1..T``.  Job ``i``
arrives at slot ``a_i`` and trains ``N_i`` chunks of ``M_i`` mini-batches for ``E_i`` epochs;
one mini-batch costs a worker ``tau_i + 2 e_i / b_i`` slots (compute plus gradient push and
parameter pull at the worker's reserved bandwidth ``b_i``).  Each worker (PS) of job ``i``
takes ``w_i^r`` (``s_i^r``) of resource ``r``; the column named ``"bandwidth"`` of
``worker_demand`` (``ps_demand``) is ``b_i`` (``B_i``).

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, "Online Job Scheduling in Distributed Machine Learning
Clusters", IEEE INFOCOM 2018, Section III.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from ..errors import InstanceError, SizeLimitError
from ..inputs import job_indices
from ..schema import Field, FieldsMixin
from .utility import Utility, utility_from_dict

__all__ = ["OasisInstance", "KIND", "SCHEMA_VERSION", "DEFAULT_RESOURCES", "EPS_WORK", "MAX_HORIZON", "MAX_CELLS",
           "check_size"]

KIND = "oasis"
SCHEMA_VERSION = 1
DEFAULT_RESOURCES = ("gpu", "cpu", "memory", "storage", "bandwidth")
#: Relative slack used when rounding workloads (d M_i (tau_i + 2 e_i / b_i)) to whole workers.
EPS_WORK = 1e-9

#: Largest horizon T any OASiS route accepts (the paper's largest is 300).
MAX_HORIZON = 100_000
#: Largest number of (slot, server, resource) cells, T (H + K) R, of the arrays every route allocates
#: (the paper's Fig. 3 setting has 150,000; 2e7 cells are 160 MB per float array).
MAX_CELLS = 20_000_000


def check_size(inst: OasisInstance, extra_cells: int = 0, what: str = "this route") -> None:
    """Raise :class:`~hetopt.errors.SizeLimitError` when the instance is too large to schedule.

    Every OASiS route allocates arrays over slots x servers x resources (prices, usage,
    schedules); ``extra_cells`` adds a route's own arrays (e.g. the simulator's I (H + K) T).

    Raises
    ------
    SizeLimitError
        Naming the horizon or the cell count and the limit.
    """
    T = inst.horizon
    if T > MAX_HORIZON:
        raise SizeLimitError(f"horizon is {T} slots; {what} handles at most MAX_HORIZON = {MAX_HORIZON}")
    cells = T * (inst.n_worker_servers + inst.n_ps_servers) * inst.n_resources + int(extra_cells)
    if cells > MAX_CELLS:
        raise SizeLimitError(f"T (H + K) R{' + extra' if extra_cells else ''} = {cells} cells (T = {T}, H = "
                             f"{inst.n_worker_servers}, K = {inst.n_ps_servers}, R = {inst.n_resources}); {what} "
                             f"handles at most MAX_CELLS = {MAX_CELLS}")


#: JSON Schema of one utility (a leaf of ``utility``): a sigmoid or a table, as :func:`~hetopt.oasis.utility.utility_from_dict` reads it.
UTILITY_SCHEMA: dict[str, Any] = {
    "oneOf": [
        {"type": "object", "description": "f(d) = gamma1 / (1 + exp(gamma2 (d - gamma3))) of the completion offset d",
         "properties": {"type": {"const": "sigmoid"},
                        "gamma1": {"type": "number", "minimum": 0, "description": "priority"},
                        "gamma2": {"type": "number", "minimum": 0, "description": "decay (0: time-insensitive)"},
                        "gamma3": {"type": "number", "description": "target completion offset, slots"}},
         "required": ["type", "gamma1", "gamma2", "gamma3"], "additionalProperties": False},
        {"type": "object", "description": "f(d) = values[d], non-increasing, covering the offsets 0..T - a_i",
         "properties": {"type": {"const": "table"},
                        "values": {"type": "array", "items": {"type": "number", "minimum": 0}, "minItems": 1},
                        "target": {"type": "number", "description": "target completion offset, slots (reports only)"}},
         "required": ["type", "values"], "additionalProperties": False},
    ],
}


class UtilityField(Field):
    """A :class:`~hetopt.schema.Field` whose leaf is a utility object (:data:`UTILITY_SCHEMA`), not a number."""

    def leaf_schema(self) -> dict[str, Any]:
        """The object schema of one utility."""
        return json.loads(json.dumps(UTILITY_SCHEMA))  # a fresh copy

    def check(self, value: Any) -> tuple[Utility, ...]:
        """One :class:`~hetopt.oasis.utility.Utility` per entry (from itself or its JSON object)."""
        if isinstance(value, (Utility, dict, str, bytes)) or not hasattr(value, "__len__"):
            raise InstanceError(f"{self.name} is {value!r:.80}; expected a list of utilities, one per job")
        return tuple(utility_from_dict(u, f"{self.name}[{i}]") for i, u in enumerate(value))


@dataclass(frozen=True, eq=False)
class OasisInstance(FieldsMixin):
    """An online ML-job scheduling instance (problem (1)-(13)).

    Parameters
    ----------
    horizon : int
        T, the number of slots; slots are ``1..T`` as in the paper.
    worker_capacity : array_like, shape (H, R)
        c_h^r >= 0 of the servers that host workers.
    ps_capacity : array_like, shape (K, R)
        c_k^r >= 0 of the servers that host parameter servers.
    arrival : array_like of int, shape (I,)
        a_i in ``1..T`` (1-based, as in the paper).
    epochs, chunks, minibatches : array_like of int, shape (I,)
        E_i, N_i, M_i >= 1.
    minibatch_time : array_like, shape (I,)
        tau_i > 0, compute time of one mini-batch, in slots.
    gradient_size : array_like, shape (I,)
        e_i >= 0 in bandwidth-unit x slot, so that ``e_i / b_i`` is the one-way transfer
        time in slots (the generator converts MB and Gbps with a slot of one hour).
    worker_demand, ps_demand : array_like, shape (I, R)
        w_i^r and s_i^r >= 0; their ``"bandwidth"`` column is b_i > 0 and B_i >= b_i.
    utility : sequence of Utility or dict, length I
        f_i, non-negative and non-increasing in the completion offset ``t_hat_i - a_i``;
        a :class:`~hetopt.oasis.utility.SigmoidUtility` or
        :class:`~hetopt.oasis.utility.TabulatedUtility` (or their JSON dicts).
    resource_names : sequence of str
        R distinct names, one of which is ``"bandwidth"``.

    Raises
    ------
    InstanceError
        Naming the field, the index and the expected form.

    Notes
    -----
    ``B_i >= b_i`` is required: constraints (6)-(7) give ``b_i sum_h y <= B_i sum_k z <=
    B_i sum_h y``, so a job whose PS bandwidth is below its worker bandwidth could never run
    a single worker.
    """

    #: The ``kind`` key of this class's JSON (the registry's name of the paper).
    KIND: ClassVar[str] = KIND
    #: The ``schema_version`` of this class's JSON.
    SCHEMA_VERSION: ClassVar[int] = SCHEMA_VERSION
    #: Every JSON field (:mod:`hetopt.schema`): shape, type, unit, range, whether required, meaning.
    #:
    #: :meta hide-value:
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("horizon", "scalar", "integer", "$T$, the number of time slots $1..T$ of the schedule.", unit="slots",
              minimum=1),
        Field("worker_capacity", "(n_worker_servers, n_resources)", "number",
              "$c_h^r$, the capacity of resource $r$ on worker server $h$ (the servers that host workers).",
              unit="resource units", minimum=0),
        Field("ps_capacity", "(n_ps_servers, n_resources)", "number",
              "$c_k^r$, the capacity of resource $r$ on parameter-server machine $k$.", unit="resource units",
              minimum=0),
        Field("arrival", "(n_jobs,)", "integer", "$a_i$, the slot in which job $i$ arrives (at most $T$).",
              unit="slot", minimum=1),
        Field("epochs", "(n_jobs,)", "integer", "$E_i$, the training epochs of job $i$.", minimum=1),
        Field("chunks", "(n_jobs,)", "integer",
              "$N_i$, the data chunks of job $i$, also the most workers it can use in a slot.", minimum=1),
        Field("minibatches", "(n_jobs,)", "integer", "$M_i$, the mini-batches in one data chunk of job $i$.",
              minimum=1),
        Field("minibatch_time", "(n_jobs,)", "number", "$\\tau_i$, the time a worker takes to train one mini-batch.",
              unit="slots", minimum=0, exclusive_minimum=True),
        Field("gradient_size", "(n_jobs,)", "number",
              "$e_i$, the size of the gradients (and parameters) exchanged per mini-batch; $e_i / b_i$ is a transfer "
              "time in slots.", unit="bandwidth unit x slot", minimum=0),
        Field("worker_demand", "(n_jobs, n_resources)", "number",
              "$w_i^r$, resource $r$ taken by one worker of job $i$; its bandwidth column is $b_i > 0$.",
              unit="resource units", minimum=0),
        Field("ps_demand", "(n_jobs, n_resources)", "number",
              "$s_i^r$, resource $r$ taken by one parameter server of job $i$; its bandwidth column is "
              "$B_i \\ge b_i$.", unit="resource units", minimum=0),
        UtilityField("utility", "(n_jobs,)", "object",
                     "$f_i$, job $i$'s utility of its completion offset $\\hat t_i - a_i$, non-negative and "
                     "non-increasing: an object `{\"type\": \"sigmoid\", \"gamma1\": ..., \"gamma2\": ..., "
                     "\"gamma3\": ...}` (priority $\\gamma_1 \\ge 0$, decay $\\gamma_2 \\ge 0$, target offset "
                     "$\\gamma_3$) for $\\gamma_1 / (1 + e^{\\gamma_2 (d - \\gamma_3)})$, or `{\"type\": \"table\", "
                     "\"values\": [...]}` holding $f(0), f(1), \\ldots$ over the offsets $0..T - a_i$, with an "
                     "optional `\"target\"`."),
        Field("resource_names", "(n_resources,)", "string",
              "The $R$ resource types, distinct; one is `bandwidth`.",
              default="gpu, cpu, memory, storage, bandwidth", nonempty=True, unique=True),
    )

    horizon: int
    worker_capacity: Any
    ps_capacity: Any
    arrival: Any
    epochs: Any
    chunks: Any
    minibatches: Any
    minibatch_time: Any
    gradient_size: Any
    worker_demand: Any
    ps_demand: Any
    utility: Any
    resource_names: Sequence[str] = DEFAULT_RESOURCES
    description: str = field(default="", compare=False)
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        self._check_fields()  # types, shapes, ranges and the shared dimensions (FIELDS)
        names = self.resource_names
        if "bandwidth" not in names:
            raise InstanceError(f"resource_names is {names!r}; one resource must be named 'bandwidth' (b_i, B_i)")
        late = np.flatnonzero(self.arrival > self.horizon)
        if late.size:
            i = int(late[0])
            raise InstanceError(f"arrival[{i}] is {self.arrival[i]}; arrivals must be slots in 1..T = 1..{self.horizon}")
        bw = names.index("bandwidth")
        b, B = self.worker_demand[:, bw], self.ps_demand[:, bw]
        bad = np.flatnonzero((b <= 0) | (B < b))
        if bad.size:
            i = int(bad[0])
            if b[i] <= 0:
                raise InstanceError(f"worker_demand[{i}, {bw}] (bandwidth b_i) is {b[i]}; b_i must be > 0 (it divides "
                                    "e_i in (2))")
            raise InstanceError(f"ps_demand[{i}, {bw}] (bandwidth B_i) is {B[i]} < b_i = {b[i]}; a parameter server "
                                "could never serve a worker: (6)-(7) need B_i >= b_i")
        for i, u in enumerate(self.utility):
            values = getattr(u, "values", None)
            need = self.horizon - int(self.arrival[i]) + 1
            if values is not None and len(values) < need:
                raise InstanceError(f"utility[{i}] table has {len(values)} values; job {i} arriving at slot "
                                    f"{self.arrival[i]} can complete at offsets 0..{need - 1}, so it needs at least {need}")

    # ------------------------------------------------------------------ sizes
    @property
    def n_jobs(self) -> int:
        """I, the number of jobs."""
        return int(self.arrival.shape[0])

    @property
    def n_worker_servers(self) -> int:
        """H."""
        return int(self.worker_capacity.shape[0])

    @property
    def n_ps_servers(self) -> int:
        """K."""
        return int(self.ps_capacity.shape[0])

    @property
    def n_resources(self) -> int:
        """R."""
        return len(self.resource_names)

    @property
    def bandwidth_index(self) -> int:
        """Position of the resource named ``"bandwidth"`` (b_i, B_i)."""
        return self.resource_names.index("bandwidth")

    # ------------------------------------------------------------------ derived quantities
    @property
    def worker_bandwidth(self) -> np.ndarray:
        """b_i."""
        return self.worker_demand[:, self.bandwidth_index]

    @property
    def ps_bandwidth(self) -> np.ndarray:
        """B_i."""
        return self.ps_demand[:, self.bandwidth_index]

    @property
    def chunk_time(self) -> np.ndarray:
        """m_i = M_i (tau_i + 2 e_i / b_i): worker-slots needed to train one data chunk once."""
        return self.minibatches * (self.minibatch_time + 2.0 * self.gradient_size / self.worker_bandwidth)

    @property
    def workload(self) -> np.ndarray:
        """E_i N_i M_i (tau_i + 2 e_i / b_i): the worker-slots constraint (2) asks for."""
        return self.epochs * self.chunks * self.chunk_time

    @property
    def min_slots(self) -> np.ndarray:
        """ceil(E_i M_i (tau_i + 2 e_i / b_i)): slots a job needs at N_i workers in every slot."""
        return np.ceil(self.epochs * self.chunk_time * (1 - EPS_WORK)).astype(np.int64)

    def utility_of(self, i: int, completion: int) -> float:
        """f_i(completion - a_i) for a completion slot ``completion`` >= a_i."""
        return float(self.utility[i](completion - int(self.arrival[i])))

    def utility_table(self, i: int) -> np.ndarray:
        """f_i(t - a_i) for t = a_i..T (index 0 is the arrival slot)."""
        d = np.arange(self.horizon - int(self.arrival[i]) + 1)
        return np.atleast_1d(np.asarray(self.utility[i](d), dtype=float))

    def with_jobs(self, jobs: Sequence[int]) -> OasisInstance:
        """The sub-instance of the given jobs (in that order), same cluster."""
        idx = job_indices("jobs", jobs, self.n_jobs)
        d = self.to_dict()
        for k in ("arrival", "epochs", "chunks", "minibatches", "minibatch_time", "gradient_size"):
            d[k] = [d[k][j] for j in idx]
        d["worker_demand"] = [d["worker_demand"][j] for j in idx]
        d["ps_demand"] = [d["ps_demand"][j] for j in idx]
        d["utility"] = [d["utility"][j] for j in idx]
        return OasisInstance.from_dict(d)
