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
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..data import check_header, meta_dict, meta_kwargs, read_json
from ..errors import InstanceError, SizeLimitError
from ..inputs import INT64_LIMIT, job_indices, numeric_array
from ..schema import Field
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


#: The fields with one entry per job (their common length is I).
_PER_JOB = ("arrival", "epochs", "chunks", "minibatches", "minibatch_time", "gradient_size", "worker_demand", "ps_demand",
            "utility")


def _job_count(values: dict[str, Any]) -> int:
    """I, the length the per-job fields share; InstanceError naming the field whose length differs from the others'."""
    lengths: dict[str, int] = {}
    for name, v in values.items():
        if isinstance(v, (str, bytes, dict)) or v is None or not hasattr(v, "__len__"):
            raise InstanceError(f"{name} is {v!r:.80}; expected a sequence with one entry per job")
        lengths[name] = len(v)
    counts: dict[int, int] = {}
    for n in lengths.values():
        counts[n] = counts.get(n, 0) + 1
    n_jobs = max(counts, key=lambda n: (counts[n], n))  # the length most fields have (ties: the longest)
    for name, n in lengths.items():
        if n != n_jobs:
            others = ", ".join(k for k, m in lengths.items() if m == n_jobs)
            raise InstanceError(f"{name} has length {n}; {others} have {n_jobs} (one entry per job)")
    if n_jobs == 0:
        raise InstanceError("arrival is empty; an instance needs at least one job")
    return n_jobs


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


_FIELDS = ("horizon", "worker_capacity", "ps_capacity", "arrival", "epochs", "chunks", "minibatches",
           "minibatch_time", "gradient_size", "worker_demand", "ps_demand", "utility", "resource_names")


def _matrix(name: str, value: Any, shape: tuple[int | None, int | None], rows: str) -> np.ndarray:
    a = numeric_array(name, value)
    if a.ndim != 2 or any(s is not None and a.shape[j] != s for j, s in enumerate(shape)) or a.shape[0] == 0:
        want = tuple("?" if s is None else s for s in shape)
        raise InstanceError(f"{name} has shape {a.shape}; expected {want} ({rows} x R, at least one row)")
    bad = np.argwhere(~np.isfinite(a) | (a < 0))
    if bad.size:
        i, r = bad[0]
        raise InstanceError(f"{name}[{i}, {r}] is {a[i, r]}; amounts must be finite and >= 0")
    a.setflags(write=False)
    return a


def _vector(name: str, value: Any, n: int, *, integer: bool, minimum: float, strict: bool) -> np.ndarray:
    a = numeric_array(name, value)
    if a.ndim != 1 or a.shape[0] != n:
        raise InstanceError(f"{name} has shape {a.shape}; expected ({n},), one value per job")
    for i, x in enumerate(a):
        if not math.isfinite(x):
            raise InstanceError(f"{name}[{i}] is {x}; values must be finite")
        if integer and (x != math.floor(x) or abs(x) >= INT64_LIMIT):
            raise InstanceError(f"{name}[{i}] is {x}; expected an integer")
        if x < minimum or (strict and x == minimum):
            raise InstanceError(f"{name}[{i}] is {x}; values must be {'>' if strict else '>='} {minimum:g}")
    out = a.astype(np.int64) if integer else a
    out.setflags(write=False)
    return out


@dataclass(frozen=True, eq=False)
class OasisInstance:
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
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("horizon", "scalar", "integer", "T, the number of time slots 1..T of the schedule.", unit="slots",
              minimum=1),
        Field("worker_capacity", "(n_worker_servers, n_resources)", "number",
              "c_h^r, the capacity of resource r on worker server h (the servers that host workers).",
              unit="resource units", minimum=0),
        Field("ps_capacity", "(n_ps_servers, n_resources)", "number",
              "c_k^r, the capacity of resource r on parameter-server machine k.", unit="resource units", minimum=0),
        Field("arrival", "(n_jobs,)", "integer", "a_i, the slot in which job i arrives (at most T).", unit="slot",
              minimum=1),
        Field("epochs", "(n_jobs,)", "integer", "E_i, the training epochs of job i.", minimum=1),
        Field("chunks", "(n_jobs,)", "integer",
              "N_i, the data chunks of job i, also the most workers it can use in a slot.", minimum=1),
        Field("minibatches", "(n_jobs,)", "integer", "M_i, the mini-batches in one data chunk of job i.", minimum=1),
        Field("minibatch_time", "(n_jobs,)", "number", "tau_i, the time a worker takes to train one mini-batch.",
              unit="slots", minimum=0, exclusive_minimum=True),
        Field("gradient_size", "(n_jobs,)", "number",
              "e_i, the size of the gradients (and parameters) exchanged per mini-batch; e_i / b_i is a transfer time "
              "in slots.", unit="bandwidth unit x slot", minimum=0),
        Field("worker_demand", "(n_jobs, n_resources)", "number",
              "w_i^r, resource r taken by one worker of job i; its bandwidth column is b_i > 0.",
              unit="resource units", minimum=0),
        Field("ps_demand", "(n_jobs, n_resources)", "number",
              "s_i^r, resource r taken by one parameter server of job i; its bandwidth column is B_i >= b_i.",
              unit="resource units", minimum=0),
        UtilityField("utility", "(n_jobs,)", "object",
                     "f_i, job i's utility of its completion offset t_hat_i - a_i, non-negative and non-increasing: "
                     "an object {\"type\": \"sigmoid\", \"gamma1\": priority >= 0, \"gamma2\": decay >= 0, \"gamma3\": "
                     "target offset} for gamma1 / (1 + exp(gamma2 (d - gamma3))), or {\"type\": \"table\", \"values\": "
                     "[f(0), f(1), ...] covering the offsets 0..T - a_i, optional \"target\"}."),
        Field("resource_names", "(n_resources,)", "string",
              "The R resource types, distinct; one is \"bandwidth\" (default gpu, cpu, memory, storage, bandwidth).",
              required=False),
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
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        T = self.horizon
        if isinstance(T, (float, np.floating)) and float(T).is_integer():
            T = int(T)
        if not isinstance(T, (int, np.integer)) or isinstance(T, bool) or T < 1 or T >= INT64_LIMIT:
            raise InstanceError(f"horizon is {self.horizon!r}; expected an integer number of slots T >= 1")
        set_("horizon", int(T))
        rn = self.resource_names
        if isinstance(rn, (str, bytes)) or not isinstance(rn, (list, tuple, np.ndarray)):
            raise InstanceError(f"resource_names is {rn!r}; expected a list of distinct non-empty strings (R names)")
        names = tuple(rn)
        if not names or not all(isinstance(s, str) and s for s in names) or len(set(names)) != len(names):
            raise InstanceError(f"resource_names is {self.resource_names!r}; expected distinct non-empty strings")
        if "bandwidth" not in names:
            raise InstanceError(f"resource_names is {names!r}; one resource must be named 'bandwidth' (b_i, B_i)")
        set_("resource_names", names)
        R = len(names)
        set_("worker_capacity", _matrix("worker_capacity", self.worker_capacity, (None, R), "H"))
        set_("ps_capacity", _matrix("ps_capacity", self.ps_capacity, (None, R), "K"))
        n_jobs = _job_count({name: getattr(self, name) for name in _PER_JOB})
        a = _vector("arrival", self.arrival, n_jobs, integer=True, minimum=1, strict=False)
        late = np.nonzero(a > self.horizon)[0]
        if late.size:
            i = int(late[0])
            raise InstanceError(f"arrival[{i}] is {a[i]}; arrivals must be slots in 1..T = 1..{self.horizon}")
        set_("arrival", a)
        for name in ("epochs", "chunks", "minibatches"):
            set_(name, _vector(name, getattr(self, name), n_jobs, integer=True, minimum=1, strict=False))
        set_("minibatch_time", _vector("minibatch_time", self.minibatch_time, n_jobs, integer=False, minimum=0, strict=True))
        set_("gradient_size", _vector("gradient_size", self.gradient_size, n_jobs, integer=False, minimum=0, strict=False))
        set_("worker_demand", _matrix("worker_demand", self.worker_demand, (n_jobs, R), "I"))
        set_("ps_demand", _matrix("ps_demand", self.ps_demand, (n_jobs, R), "I"))
        bw = names.index("bandwidth")
        for i in range(n_jobs):
            b, B = self.worker_demand[i, bw], self.ps_demand[i, bw]
            if b <= 0:
                raise InstanceError(f"worker_demand[{i}, {bw}] (bandwidth b_i) is {b}; b_i must be > 0 (it divides e_i in (2))")
            if B < b:
                raise InstanceError(f"ps_demand[{i}, {bw}] (bandwidth B_i) is {B} < b_i = {b}; a parameter server "
                                    "could never serve a worker: (6)-(7) need B_i >= b_i")
        utils = self.utility
        if isinstance(utils, (Utility, dict)) or not hasattr(utils, "__len__") or len(utils) != n_jobs:
            raise InstanceError(f"utility must be a sequence of {n_jobs} utilities, one per job; got {utils!r:.80}")
        utils = tuple(utility_from_dict(u, f"utility[{i}]") for i, u in enumerate(utils))
        for i, u in enumerate(utils):
            values = getattr(u, "values", None)
            need = self.horizon - int(a[i]) + 1
            if values is not None and len(values) < need:
                raise InstanceError(f"utility[{i}] table has {len(values)} values; job {i} arriving at slot {a[i]} "
                                    f"can complete at offsets 0..{need - 1}, so it needs at least {need}")
        set_("utility", utils)

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

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``kind``, ``schema_version``, the fields, ``description`` / ``source`` when set)."""
        return {
            "kind": KIND,
            "schema_version": SCHEMA_VERSION,
            "horizon": self.horizon,
            "worker_capacity": self.worker_capacity.tolist(),
            "ps_capacity": self.ps_capacity.tolist(),
            "arrival": self.arrival.tolist(),
            "epochs": self.epochs.tolist(),
            "chunks": self.chunks.tolist(),
            "minibatches": self.minibatches.tolist(),
            "minibatch_time": self.minibatch_time.tolist(),
            "gradient_size": self.gradient_size.tolist(),
            "worker_demand": self.worker_demand.tolist(),
            "ps_demand": self.ps_demand.tolist(),
            "utility": [u.to_dict() for u in self.utility],
            "resource_names": list(self.resource_names),
            **meta_dict(self),
        }

    def to_json(self, path: str | Path | None = None) -> str:
        """The JSON text; also written to ``path`` when given."""
        text = json.dumps(self.to_dict(), indent=1)
        if path is not None:
            Path(path).write_text(text + "\n", encoding="utf-8")
        return text

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> OasisInstance:
        """Build from the JSON form; ``description`` and ``source`` keys are documentation only."""
        check_header(data, KIND, SCHEMA_VERSION, _FIELDS, tuple(f for f in _FIELDS if f != "resource_names"))
        kwargs: dict[str, Any] = {k: data[k] for k in _FIELDS if k in data}
        kwargs.update(meta_kwargs(data))
        return cls(**kwargs)

    @classmethod
    def from_json(cls, text_or_path: str | Path) -> OasisInstance:
        """Parse JSON text, or read a file when given a path that exists."""
        return cls.from_dict(read_json(text_or_path))

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
