"""The multi-job placement instance of Liu et al. 2024 (Section III).

``S`` jobs share ``K`` heterogeneous workers; ``throughput[i, k]`` is rho_{i,k}, the samples per
second job ``i`` processes on worker ``k``.  Communication (Ring-AllReduce, eqs. (5)-(6)) is
modelled when model sizes are given: the bottleneck rate r_i^min of a job is the intra-node
rate when all its workers share one node and the inter-node rate otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from ..errors import InstanceError
from ..schema import Field, FieldsMixin

__all__ = ["PlacementInstance", "KIND", "SCHEMA_VERSION"]

KIND = "placement"
SCHEMA_VERSION = 1


@dataclass(frozen=True, eq=False)
class PlacementInstance(FieldsMixin):
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
    #:
    #: :meta hide-value:
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("throughput", "(n_jobs, n_workers)", "number", "$\\rho_{i,k}$: the samples per second job $i$ "
              "processes on worker $k$ (Section III); $S \\le K$.", unit="samples/s", minimum=0,
              exclusive_minimum=True),
        Field("dataset_size", "(n_jobs,)", "number", "$\\lvert \\Pi_i \\rvert$: the training samples of job $i$, "
              "split over its workers (eqs. (10)-(12)).", unit="samples", minimum=0, exclusive_minimum=True),
        Field("epochs", "(n_jobs,)", "number", "$T_i$: the training epochs of job $i$ (fractional for the remaining "
              "work of a running job).", unit="epochs", minimum=0, exclusive_minimum=True),
        Field("model_size", "(n_jobs,)", "number", "$D_i$: the model size of job $i$ exchanged by Ring-AllReduce "
              "(eq. (6)); all zero, communication is ignored.", unit="bytes", minimum=0,
              default="no communication, as in Table II"),
        Field("worker_node", "(n_workers,)", "integer", "The node of each worker.", minimum=0,
              default="every worker on node 0"),
        Field("intra_node_rate", "scalar", "number", "The link rate $r_{k,k'}$ of eq. (5) between two workers of one "
              "node; required with `model_size`.", unit="bytes/s", minimum=0, exclusive_minimum=True,
              default="none"),
        Field("inter_node_rate", "scalar", "number", "The link rate $r_{k,k'}$ of eq. (5) between workers of two "
              "nodes, at most `intra_node_rate`; required with `model_size` on several nodes.", unit="bytes/s",
              minimum=0, exclusive_minimum=True, default="none"),
        Field("job_names", "(n_jobs,)", "string", "A name for each job.", default="job0, job1, ..."),
        Field("worker_names", "(n_workers,)", "string", "A name for each worker, e.g. its GPU type.",
              default="worker0, worker1, ..."),
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
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        dims = self._check_fields()  # types, shapes, ranges and the shared n_jobs, n_workers (FIELDS)
        S, K = dims["n_jobs"], dims["n_workers"]
        if K < S:
            raise InstanceError(f"throughput has K={K} workers for S={S} jobs; P1 needs K >= S so that every job gets "
                                "a worker (8b)")
        if self.model_size is not None and not self.model_size.any():
            set_("model_size", None)  # all zero: no communication
        nodes = np.zeros(K, dtype=np.int64) if self.worker_node is None else self.worker_node
        set_("_nodes", nodes)
        intra, inter = self.intra_node_rate, self.inter_node_rate
        if self.model_size is not None:
            if intra is None:
                raise InstanceError("intra_node_rate is required when model_size is given (communication is modelled, eq. (6))")
            if len(np.unique(nodes)) > 1 and inter is None:
                raise InstanceError("inter_node_rate is required when model_size is given and workers are on several nodes")
        if intra is not None and inter is not None and inter > intra:
            raise InstanceError(f"inter_node_rate ({inter}) exceeds intra_node_rate ({intra}); hetopt requires inter <= intra so that "
                                "r_i^min of eq. (5) is the inter-node rate exactly when a job spans several nodes")
        if self.job_names is None:
            set_("job_names", tuple(f"job{j}" for j in range(S)))
        if self.worker_names is None:
            set_("worker_names", tuple(f"worker{k}" for k in range(K)))

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
        indices of each group (groups ordered by their first worker), read-only arrays kept per
        instance.
        """
        if by_node is None:
            by_node = self.has_communication and self.multi_node
        kept = self.__dict__.setdefault("_groups", {})  # computed once per instance (its arrays do not change)
        if by_node not in kept:
            keys: dict[tuple, int] = {}
            labels = np.empty(self.n_workers, dtype=int)
            for k in range(self.n_workers):
                key = tuple(self.throughput[:, k].tolist()) + ((int(self._nodes[k]),) if by_node else ())
                labels[k] = keys.setdefault(key, len(keys))
            members = [np.flatnonzero(labels == g) for g in range(len(keys))]
            for a in (labels, *members):
                a.flags.writeable = False
            kept[by_node] = (labels, members)
        labels, members = kept[by_node]
        return labels, list(members)

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
