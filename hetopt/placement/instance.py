"""The multi-job placement instance of Liu et al. 2024 (Section III).

``S`` jobs share ``K`` heterogeneous workers; ``throughput[i, k]`` is rho_{i,k}, the samples per
second job ``i`` processes on worker ``k``.  Communication (Ring-AllReduce, eqs. (5)-(6)) is
modelled when model sizes are given: the bottleneck rate r_i^min of a job is the intra-node
rate when all its workers share one node and the inter-node rate otherwise.
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
from ..errors import InstanceError
from ..inputs import names_tuple, numeric_array, real_scalar
from ..schema import Field

__all__ = ["PlacementInstance", "KIND", "SCHEMA_VERSION"]

KIND = "placement"
SCHEMA_VERSION = 1


def _vector(name: str, value: Any, length: int, *, positive: bool, allow_zero: bool = False) -> np.ndarray:
    a = numeric_array(name, value)
    if a.ndim != 1 or a.shape[0] != length:
        raise InstanceError(f"{name} has shape {a.shape}; expected ({length},), one value per job (throughput has "
                            f"{length} rows)")
    for idx, x in enumerate(a):
        if not math.isfinite(x):
            raise InstanceError(f"{name}[{idx}] is {x}; values must be finite")
        if positive and (x < 0 or (x == 0 and not allow_zero)):
            raise InstanceError(f"{name}[{idx}] is {x}; values must be {'>= 0' if allow_zero else '> 0'}")
    a.setflags(write=False)
    return a


def _rate(name: str, value: Any) -> float | None:
    if value is None:
        return None
    v = real_scalar(name, value)
    if not math.isfinite(v) or v <= 0:
        raise InstanceError(f"{name} is {v}; expected a positive finite number of bytes/s")
    return v


def _names(name: str, value: Sequence[str] | None, length: int, default: str) -> tuple[str, ...]:
    return names_tuple(name, value, length, default)


@dataclass(frozen=True, eq=False)
class PlacementInstance:
    """A heterogeneity-aware job placement and load balancing instance (problem P1, eq. (8)).

    Parameters
    ----------
    throughput : array_like, shape (S, K)
        rho_{i,k} > 0, samples per second of job ``i`` on worker ``k``.
    dataset_size : array_like, shape (S,)
        |Pi_i| > 0, training samples of job ``i``.
    epochs : array_like, shape (S,)
        T_i > 0, training epochs of job ``i`` (fractional values are allowed, e.g. for the
        remaining work of a job in :func:`~hetopt.placement.simulate`).
    model_size : array_like, shape (S,), optional
        D_i >= 0 in bytes.  ``None`` or all zeros: communication is ignored, as in Table II.
    worker_node : array_like of int, shape (K,), optional
        Node of each worker; default: all workers on node 0.
    intra_node_rate, inter_node_rate : float, optional
        Link rates in bytes/s used for r_{k,k'} in eq. (5): intra for two workers on the same
        node, inter otherwise.  Required when communication is modelled (inter only if there
        is more than one node); ``inter_node_rate <= intra_node_rate`` is required, so that
        r_i^min is the inter-node rate exactly when a job spans two nodes.
    job_names, worker_names : sequence of str, optional

    Raises
    ------
    InstanceError
        Naming the field, the index and the expected form.
    """

    #: The ``kind`` key of this class's JSON (the registry's name of the paper).
    KIND: ClassVar[str] = KIND
    #: The ``schema_version`` of this class's JSON.
    SCHEMA_VERSION: ClassVar[int] = SCHEMA_VERSION
    #: Every JSON field (:mod:`hetopt.schema`): the docs' field table and ``hetopt schema placement``.
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("throughput", "(n_jobs, n_workers)", "number", "rho_{i,k}: the samples per second job i processes on "
              "worker k (Section III); S <= K.", unit="samples/s", minimum=0, exclusive_minimum=True),
        Field("dataset_size", "(n_jobs,)", "number", "|Pi_i|: the training samples of job i, split over its workers "
              "(eqs. (10)-(12)).", unit="samples", minimum=0, exclusive_minimum=True),
        Field("epochs", "(n_jobs,)", "number", "T_i: the training epochs of job i (fractional for the remaining work of "
              "a running job).", unit="epochs", minimum=0, exclusive_minimum=True),
        Field("model_size", "(n_jobs,)", "number", "D_i: the model size of job i exchanged by Ring-AllReduce (eq. (6)); "
              "omitted or all zero, communication is ignored as in Table II.", unit="bytes", minimum=0, required=False),
        Field("worker_node", "(n_workers,)", "integer", "The node of each worker; omitted, every worker is on node 0.",
              minimum=0, required=False),
        Field("intra_node_rate", "scalar", "number", "The link rate r_{k,k'} of eq. (5) between two workers of one node; "
              "required with model_size.", unit="bytes/s", minimum=0, exclusive_minimum=True, required=False),
        Field("inter_node_rate", "scalar", "number", "The link rate r_{k,k'} of eq. (5) between workers of two nodes, at "
              "most intra_node_rate; required with model_size on several nodes.", unit="bytes/s", minimum=0,
              exclusive_minimum=True, required=False),
        Field("job_names", "(n_jobs,)", "string", "A name for each job (default job0, job1, ...).", required=False),
        Field("worker_names", "(n_workers,)", "string", "A name for each worker, e.g. its GPU type (default worker0, "
              "worker1, ...).", required=False),
    )

    throughput: np.ndarray
    dataset_size: np.ndarray
    epochs: np.ndarray
    model_size: np.ndarray | None = None
    worker_node: np.ndarray | None = None
    intra_node_rate: float | None = None
    inter_node_rate: float | None = None
    job_names: tuple[str, ...] | None = None
    worker_names: tuple[str, ...] | None = None
    description: str = field(default="", compare=False)
    source: str = field(default="", compare=False)
    _nodes: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        rho = numeric_array("throughput", self.throughput)
        if rho.ndim != 2 or rho.size == 0:
            raise InstanceError(f"throughput has shape {rho.shape}; expected (S, K) with S >= 1 jobs and K >= 1 workers")
        S, K = rho.shape
        bad = np.argwhere(~np.isfinite(rho) | (rho <= 0))
        if bad.size:
            i, k = bad[0]
            raise InstanceError(f"throughput[{i}, {k}] is {rho[i, k]}; throughputs must be finite and > 0")
        if K < S:
            raise InstanceError(f"throughput has K={K} workers for S={S} jobs; P1 needs K >= S so that every job gets a worker (8b)")
        rho.setflags(write=False)
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        set_("throughput", rho)
        set_("dataset_size", _vector("dataset_size", self.dataset_size, S, positive=True))
        set_("epochs", _vector("epochs", self.epochs, S, positive=True))
        D = None
        if self.model_size is not None:
            D = _vector("model_size", self.model_size, S, positive=True, allow_zero=True)
            if not D.any():
                D = None
        set_("model_size", D)
        if self.worker_node is None:
            nodes = np.zeros(K, dtype=int)
            set_("worker_node", None)
        else:
            raw = numeric_array("worker_node", self.worker_node, integer=True)
            if raw.ndim != 1 or raw.shape[0] != K:
                raise InstanceError(f"worker_node has shape {raw.shape}; expected ({K},), one node per worker")
            for k, x in enumerate(raw):
                if not (isinstance(x, (int, np.integer)) or (isinstance(x, (float, np.floating)) and float(x).is_integer())) or x < 0:
                    raise InstanceError(f"worker_node[{k}] is {x!r}; node ids must be integers >= 0")
            nodes = raw.astype(int)
            nodes.setflags(write=False)
            set_("worker_node", nodes)
        set_("_nodes", nodes)
        intra, inter = _rate("intra_node_rate", self.intra_node_rate), _rate("inter_node_rate", self.inter_node_rate)
        set_("intra_node_rate", intra)
        set_("inter_node_rate", inter)
        if D is not None:
            if intra is None:
                raise InstanceError("intra_node_rate is required when model_size is given (communication is modelled, eq. (6))")
            if len(np.unique(nodes)) > 1 and inter is None:
                raise InstanceError("inter_node_rate is required when model_size is given and workers are on several nodes")
        if intra is not None and inter is not None and inter > intra:
            raise InstanceError(f"inter_node_rate ({inter}) exceeds intra_node_rate ({intra}); hetopt requires inter <= intra so that "
                                "r_i^min of eq. (5) is the inter-node rate exactly when a job spans several nodes")
        set_("job_names", _names("job_names", self.job_names, S, "job"))
        set_("worker_names", _names("worker_names", self.worker_names, K, "worker"))
        for meta in ("description", "source"):
            if not isinstance(getattr(self, meta), str):
                raise InstanceError(f"{meta} is {getattr(self, meta)!r}; expected a string")

    # ------------------------------------------------------------------ sizes
    @property
    def n_jobs(self) -> int:
        """S, the number of jobs."""
        return self.throughput.shape[0]

    @property
    def n_workers(self) -> int:
        """K, the number of workers."""
        return self.throughput.shape[1]

    @property
    def nodes(self) -> np.ndarray:
        """Node of every worker (zeros when ``worker_node`` is not given)."""
        return self._nodes

    @property
    def has_communication(self) -> bool:
        """True when the communication term (6) is modelled."""
        return self.model_size is not None

    @property
    def multi_node(self) -> bool:
        """True when the workers sit on two or more nodes."""
        return len(np.unique(self._nodes)) > 1

    @property
    def comm_coefficient(self) -> np.ndarray:
        """2 D_i per job (bytes), zeros without communication: l_i^[c] = 2 D_i (K_i - 1) / (K_i r_i^min)."""
        return np.zeros(self.n_jobs) if self.model_size is None else 2.0 * self.model_size

    def inverse_rate(self, spans_nodes: bool | np.ndarray) -> float | np.ndarray:
        """1 / r^min for a job on one node (False) or spanning nodes (True); 0 without communication."""
        if not self.has_communication:
            return np.zeros_like(np.asarray(spans_nodes, dtype=float))
        if self.intra_node_rate is None:  # unreachable: __post_init__ requires it with communication
            raise InstanceError("intra_node_rate is required when model_size is given")
        inv_intra = 1.0 / self.intra_node_rate
        inv_inter = 1.0 / self.inter_node_rate if self.inter_node_rate is not None else inv_intra
        return np.where(spans_nodes, inv_inter, inv_intra)

    def worker_groups(self, by_node: bool | None = None) -> tuple[np.ndarray, list[np.ndarray]]:
        """Group identical workers (same throughput column, and same node if ``by_node``).

        ``by_node`` defaults to whether the instance has communication on several nodes.
        Returns ``(labels, members)``: the group of each worker and the sorted worker
        indices of each group (groups ordered by their first worker).
        """
        if by_node is None:
            by_node = self.has_communication and self.multi_node
        keys: dict[tuple, int] = {}
        labels = np.empty(self.n_workers, dtype=int)
        for k in range(self.n_workers):
            key = tuple(self.throughput[:, k].tolist()) + ((int(self._nodes[k]),) if by_node else ())
            labels[k] = keys.setdefault(key, len(keys))
        members = [np.flatnonzero(labels == g) for g in range(len(keys))]
        return labels, members

    def subset(self, jobs: Sequence[int], epochs: Sequence[float] | np.ndarray | None = None) -> PlacementInstance:
        """The instance restricted to ``jobs`` (all workers kept), optionally with new epochs."""
        from ..inputs import job_indices

        idx = job_indices("jobs", jobs, self.n_jobs).tolist()
        names = self.job_names or tuple(f"job{j}" for j in range(self.n_jobs))
        return PlacementInstance(
            throughput=self.throughput[idx],
            dataset_size=self.dataset_size[idx],
            epochs=self.epochs[idx] if epochs is None else np.asarray(epochs),
            model_size=None if self.model_size is None else self.model_size[idx],
            worker_node=self.worker_node,
            intra_node_rate=self.intra_node_rate,
            inter_node_rate=self.inter_node_rate,
            job_names=tuple(names[j] for j in idx),
            worker_names=self.worker_names,
        )

    # ------------------------------------------------------------------ JSON
    _FIELDS: ClassVar[tuple[str, ...]] = tuple(f.name for f in FIELDS)
    _REQUIRED: ClassVar[tuple[str, ...]] = tuple(f.name for f in FIELDS if f.required)

    def to_dict(self) -> dict[str, Any]:
        """The instance as JSON-ready values (``kind``, ``schema_version``, the fields, the metadata).

        Optional fields that are absent (no communication, one node) are left out, as the loader
        and the schema (:attr:`FIELDS`) expect.
        """
        out: dict[str, Any] = {"kind": KIND, "schema_version": SCHEMA_VERSION}
        for f in self._FIELDS:
            v = getattr(self, f)
            if v is not None:
                out[f] = v.tolist() if isinstance(v, np.ndarray) else (list(v) if isinstance(v, tuple) else v)
        return out | meta_dict(self)

    def to_json(self, path: str | Path | None = None, **kw: Any) -> str:
        """JSON text of the instance; also written to ``path`` when given."""
        text = json.dumps(self.to_dict(), **({"indent": 1} | kw))
        if path is not None:
            Path(path).write_text(text + "\n", encoding="utf-8")
        return text

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlacementInstance:
        """The instance of a :meth:`to_dict` (or a bundled JSON file's) mapping; InstanceError naming a bad field."""
        check_header(data, KIND, SCHEMA_VERSION, cls._FIELDS, cls._REQUIRED)
        kwargs: dict[str, Any] = {k: data[k] for k in cls._FIELDS if k in data}
        kwargs.update(meta_kwargs(data))
        return cls(**kwargs)

    @classmethod
    def from_json(cls, text_or_path: str | Path) -> PlacementInstance:
        """Read an instance from JSON text or a file path."""
        return cls.from_dict(read_json(text_or_path))
