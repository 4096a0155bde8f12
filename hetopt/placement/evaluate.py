"""Evaluation of a placement: JCT (eqs. (2)-(8), (10)-(14)), samples (12), fairness (32)-(33).

These functions are the independent checker of the subpackage: they recompute every metric
from an assignment (the job of each worker), without any model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InstanceError
from ..result import Solution, Status
from .instance import PlacementInstance

__all__ = [
    "PlacementSolution",
    "check_assignment",
    "job_metrics",
    "job_jct",
    "average_jct",
    "worker_samples",
    "fairness",
    "equal_share_jct",
    "heterogeneity_degree",
    "make_solution",
]

SPLITS = ("proportional", "equal")


def check_assignment(inst: PlacementInstance, assignment: Any) -> np.ndarray:
    """Validate an assignment (length-K job index per worker) against (8b)-(8d).

    (8c) and (8d) hold by construction of the representation (each worker has exactly one
    job); (8b) requires every job to get at least one worker.
    """
    a = np.asarray(assignment)
    K, S = inst.n_workers, inst.n_jobs
    if a.shape != (K,):
        raise InstanceError(f"assignment has shape {a.shape}; expected ({K},): the job of each worker")
    if a.dtype.kind not in "iu":
        if a.dtype.kind == "f" and np.all(np.isfinite(a)) and np.all(a == np.round(a)):
            a = a.astype(int)
        else:
            raise InstanceError(f"assignment must hold integer job indices; got dtype {a.dtype}")
    bad = np.flatnonzero((a < 0) | (a >= S))
    if bad.size:
        raise InstanceError(f"assignment[{bad[0]}] is {a[bad[0]]}; job indices must be in [0, {S - 1}]")
    counts = np.bincount(a, minlength=S)
    idle = np.flatnonzero(counts == 0)
    if idle.size:
        raise InstanceError(f"job {idle[0]} gets no worker; (8b) requires at least one worker per job")
    return a.astype(int)


def job_metrics(inst: PlacementInstance, assignment: Any, split: str = "proportional") -> dict[str, np.ndarray]:
    """Per-job metrics of an assignment.

    Returns a dict with ``workers`` (K_i), ``throughput`` (V_i, eq. (13) for the proportional
    split), ``spans_nodes``, ``computation`` (l_i^[p], eq. (11)), ``communication``
    (l_i^[c], eq. (6)), ``jct`` (Lambda_i, eq. (7)) and ``samples`` (|pi_{i,k}| of every worker,
    eq. (12)).  ``split="equal"`` divides each dataset into equal parts (Optimus' static load
    balancing): the straggler is then the slowest selected worker, V_i = K_i min rho_{i,k}.
    """
    if split not in SPLITS:
        raise ValueError(f"split is {split!r}; expected one of {SPLITS}")
    a = check_assignment(inst, assignment)
    S, K = inst.n_jobs, inst.n_workers
    rho_own = inst.throughput[a, np.arange(K)]
    Ki = np.bincount(a, minlength=S).astype(float)
    if split == "proportional":
        V = np.bincount(a, weights=rho_own, minlength=S)
        samples = inst.dataset_size[a] * rho_own / V[a]
    else:
        slowest = np.full(S, np.inf)
        np.minimum.at(slowest, a, rho_own)
        V = Ki * slowest
        samples = inst.dataset_size[a] / Ki[a]
    nodes = inst.nodes
    lo = np.full(S, np.iinfo(int).max)
    hi = np.full(S, -1)
    np.minimum.at(lo, a, nodes)
    np.maximum.at(hi, a, nodes)
    spans = hi > lo
    comp = inst.dataset_size / V
    comm = inst.comm_coefficient * (Ki - 1.0) / Ki * inst.inverse_rate(spans)
    jct = inst.epochs * (comp + comm)
    return {"workers": Ki.astype(int), "throughput": V, "spans_nodes": spans, "computation": comp,
            "communication": comm, "jct": jct, "samples": samples}


def job_jct(inst: PlacementInstance, assignment: Any, split: str = "proportional") -> np.ndarray:
    """Lambda_i of every job, eq. (7)."""
    return job_metrics(inst, assignment, split)["jct"]


def average_jct(inst: PlacementInstance, assignment: Any, split: str = "proportional") -> float:
    """The objective of P1, eq. (8): (1/S) sum_i T_i (l_i^[p] + l_i^[c])."""
    return float(job_jct(inst, assignment, split).mean())


def worker_samples(inst: PlacementInstance, assignment: Any, split: str = "proportional") -> np.ndarray:
    """|pi_{i,k}| of every worker for its job, eq. (12) (proportional workload assignment)."""
    return job_metrics(inst, assignment, split)["samples"]


def equal_share_jct(inst: PlacementInstance) -> np.ndarray:
    """Lambda_i^[e] of eq. (32) (per job; the leading sum over i of the printed formula is spurious).

    Lambda_i^[e] = T_i (2 (K/S - 1) D_i / (r K/S) + |Pi_i| / (S sum_k rho_{i,k})), with ``r`` the
    cluster's bottleneck rate: the intra-node rate on a one-node cluster, the inter-node rate
    otherwise.
    """
    S, K = inst.n_jobs, inst.n_workers
    share = K / S
    comm = inst.comm_coefficient * (share - 1.0) / share * inst.inverse_rate(inst.multi_node)
    comp = inst.dataset_size / (S * inst.throughput.sum(axis=1))
    return inst.epochs * (comm + comp)


def fairness(inst: PlacementInstance, assignment: Any, split: str = "proportional") -> float:
    """Jain's fairness degree F of eq. (33) over Lambda_i / Lambda_i^[e]; in [1/S, 1]."""
    x = job_jct(inst, assignment, split) / equal_share_jct(inst)
    return float(x.sum() ** 2 / (inst.n_jobs * (x**2).sum()))


def heterogeneity_degree(inst: PlacementInstance) -> float:
    """H of eq. (35): sum_k sum_i rho_{i,k} / (K min_k sum_i rho_{i,k}); 1 for identical workers."""
    col = inst.throughput.sum(axis=0)
    return float(col.sum() / (inst.n_workers * col.min()))


@dataclass(frozen=True, kw_only=True)
class PlacementSolution(Solution):
    """A placement with its metrics recomputed from the assignment by the independent evaluator.

    Its attributes are those of :class:`~hetopt.result.Solution` and the following.

    Attributes
    ----------
    assignment : ndarray of int, shape (K,)
        Job index of every worker (sigma_{i,k} = 1 iff ``assignment[k] == i``).
    average_jct : float
        Eq. (8); equals ``objective``.
    jct : ndarray, shape (S,)
        Lambda_i, eq. (7).
    throughput : ndarray, shape (S,)
        V_i, eq. (13).
    samples : ndarray, shape (K,)
        |pi_{i,k}| of every worker, eq. (12).
    fairness : float
        F of eq. (33).
    split : str
        "proportional" (eq. (12)) or "equal" (Optimus' equal data split).
    category : tuple of int or None
        (K_1, ..., K_S) of the placement.
    info : dict
        Method-specific info (iterations, categories examined, P3 route, ...).
    """

    assignment: np.ndarray
    average_jct: float
    jct: np.ndarray
    throughput: np.ndarray
    samples: np.ndarray
    fairness: float
    split: str = "proportional"
    category: tuple[int, ...] | None = None
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def sigma(self) -> np.ndarray:
        """sigma_{i,k} as an S x K 0/1 matrix."""
        S = len(self.jct)
        return (self.assignment[None, :] == np.arange(S)[:, None]).astype(int)


def make_solution(inst: PlacementInstance, assignment: Any, *, status: Status = Status.FEASIBLE, solver: str,
                  wall_time: float = 0.0, bound: float | None = None, split: str = "proportional",
                  message: str = "", info: dict[str, Any] | None = None) -> PlacementSolution:
    """Build a :class:`PlacementSolution`, recomputing every metric from ``assignment``."""
    from ..result import relative_gap

    m = job_metrics(inst, assignment, split)
    a = check_assignment(inst, assignment)
    avg = float(m["jct"].mean())
    a.setflags(write=False)
    return PlacementSolution(
        status=status, objective=avg, bound=bound, gap=relative_gap(avg, bound), wall_time=wall_time,
        solver=solver, sense="min", message=message, assignment=a, average_jct=avg, jct=m["jct"],
        throughput=m["throughput"], samples=m["samples"], fairness=fairness(inst, a, split), split=split,
        category=tuple(int(x) for x in m["workers"]), info=dict(info or {}),
    )
