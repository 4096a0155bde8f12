"""Evaluation of a placement: JCT (eqs. (2)-(8), (10)-(14)), samples (12), fairness (32)-(33).

These functions are the independent evaluator of the subpackage: they recompute every metric
from an assignment (the job of each worker), without any model.  The two result types live
here too: :class:`PlacementSolution` (a placement and its metrics) and
:class:`PlacementSimulation` (a run of :func:`~hetopt.placement.simulate`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..certify import Status, relative_gap
from ..errors import ArgumentError
from ..inputs import check_choice, check_result_fields, numeric_array, takes_instance
from ..result import SimulationResult, Solution
from .instance import PlacementInstance

__all__ = [
    "PlacementSolution",
    "PlacementSimulation",
    "check_assignment",
    "job_metrics",
    "job_jct",
    "average_jct",
    "worker_samples",
    "fairness",
    "equal_share_jct",
    "heterogeneity_degree",
    "make_solution",
    "simulation_result",
]

SPLITS = ("proportional", "equal")


@takes_instance(PlacementInstance)
def check_assignment(inst: PlacementInstance, assignment: Any) -> np.ndarray:
    """Validate an assignment (length-K job index per worker) against (8b)-(8d).

    (8c) and (8d) hold by construction of the representation (each worker has exactly one
    job); (8b) requires every job to get at least one worker.

    Raises
    ------
    ArgumentError
        Naming ``assignment``, the index and the expected form.
    """
    a = numeric_array("assignment", assignment)
    K, S = inst.n_workers, inst.n_jobs
    if a.shape != (K,):
        raise ArgumentError(f"assignment has shape {a.shape}; expected ({K},): the job of each worker")
    if a.dtype.kind not in "iu":
        if a.dtype.kind == "f" and np.all(np.isfinite(a)) and np.all(a == np.round(a)):
            a = a.astype(int)
        else:
            raise ArgumentError(f"assignment must hold integer job indices; got dtype {a.dtype}")
    bad = np.flatnonzero((a < 0) | (a >= S))
    if bad.size:
        raise ArgumentError(f"assignment[{bad[0]}] is {a[bad[0]]}; job indices must be in [0, {S - 1}]")
    counts = np.bincount(a, minlength=S)
    idle = np.flatnonzero(counts == 0)
    if idle.size:
        raise ArgumentError(f"assignment: job {idle[0]} gets no worker; (8b) requires at least one worker per job")
    return a.astype(int)


@takes_instance(PlacementInstance)
def job_metrics(inst: PlacementInstance, assignment: Any, split: str = "proportional") -> dict[str, np.ndarray]:
    """Per-job metrics of an assignment.

    Returns a dict with ``workers`` (K_i), ``throughput`` (V_i, eq. (13) for the proportional
    split), ``spans_nodes``, ``computation`` (l_i^[p], eq. (11)), ``communication``
    (l_i^[c], eq. (6)), ``jct`` (Lambda_i, eq. (7)) and ``samples`` (|pi_{i,k}| of every worker,
    eq. (12)).  ``split="equal"`` divides each dataset into equal parts (Optimus' static load
    balancing): the straggler is then the slowest selected worker, V_i = K_i min rho_{i,k}.
    """
    check_choice(split, "split", SPLITS)
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


@takes_instance(PlacementInstance)
def job_jct(inst: PlacementInstance, assignment: Any, split: str = "proportional") -> np.ndarray:
    """Lambda_i of every job, eq. (7)."""
    return job_metrics(inst, assignment, split)["jct"]


@takes_instance(PlacementInstance)
def average_jct(inst: PlacementInstance, assignment: Any, split: str = "proportional") -> float:
    """The objective of P1, eq. (8): (1/S) sum_i T_i (l_i^[p] + l_i^[c])."""
    return float(job_jct(inst, assignment, split).mean())


@takes_instance(PlacementInstance)
def worker_samples(inst: PlacementInstance, assignment: Any, split: str = "proportional") -> np.ndarray:
    """|pi_{i,k}| of every worker for its job, eq. (12) (proportional workload assignment)."""
    return job_metrics(inst, assignment, split)["samples"]


@takes_instance(PlacementInstance)
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


@takes_instance(PlacementInstance)
def fairness(inst: PlacementInstance, assignment: Any, split: str = "proportional") -> float:
    """Jain's fairness degree F of eq. (33) over Lambda_i / Lambda_i^[e]; in [1/S, 1]."""
    x = job_jct(inst, assignment, split) / equal_share_jct(inst)
    return float(x.sum() ** 2 / (inst.n_jobs * (x**2).sum()))


@takes_instance(PlacementInstance)
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

    objective: float
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

    def summary(self) -> dict[str, Any]:
        """The common fields, the average JCT (8), the assignment, category, per-job JCTs and throughputs, fairness."""
        return super().summary() | {
            "average_jct": self.average_jct, "assignment": self.assignment.tolist(),
            "category": None if self.category is None else list(self.category), "jct": self.jct.tolist(),
            "throughput": self.throughput.tolist(), "fairness": self.fairness, "split": self.split}


@dataclass(frozen=True, kw_only=True)
class PlacementSimulation(SimulationResult):
    """A run of :func:`~hetopt.placement.simulate`: completion times of a static or dynamic policy.

    ``objective`` is the average JCT over the run (all jobs start at time 0, so a job's JCT is
    its completion time); status FEASIBLE, no bound.  The fields of
    :class:`~hetopt.result.SimulationResult`: ``policy`` (a key of
    :data:`~hetopt.placement.POLICIES`, or the callable's name), ``completion`` (seconds from
    time 0), ``jct`` (equal to ``completion``), ``average_jct`` (equal to ``objective``) and
    ``makespan`` (the largest completion time).

    Attributes
    ----------
    reset_on_completion : bool
        True for a dynamic run (the placement is recomputed at each completion, Section VI-B2).
    events : list of dict
        One record per placement decision.  Reset-event runs: ``time``, ``jobs`` (the jobs
        still running) and ``assignment`` (the job of every worker).  Gavel runs: one record per
        round, ``time``, ``placed`` (``(job, GPU type)`` pairs) and ``workers`` (the workers of
        each placed job, in the order of ``placed``).
    """

    objective: float
    reset_on_completion: bool = True
    events: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """The common fields, the policy, average JCT, makespan, completion times and the number of events."""
        return super().summary() | {
            "policy": self.policy, "average_jct": self.average_jct, "makespan": self.makespan,
            "completion": self.completion.tolist(), "reset_on_completion": self.reset_on_completion,
            "events": len(self.events)}


def simulation_result(completion: np.ndarray, *, policy: str, reset_on_completion: bool, events: list[dict[str, Any]],
                      wall_time: float = 0.0, round_length: float | None = None,
                      message: str | None = None) -> PlacementSimulation:
    """Build a :class:`PlacementSimulation` from completion times (average JCT and makespan derived)."""
    done = np.asarray(completion, dtype=float)
    avg = float(done.mean())
    info: dict[str, Any] = {} if round_length is None else {"round_length": float(round_length)}
    if message is None:
        how = "dynamic (reset at every completion)" if reset_on_completion else "static"
        message = f"{how}, {len(events)} events"
    return PlacementSimulation(status=Status.FEASIBLE, objective=avg, wall_time=wall_time, solver=policy, sense="min",
                               message=message, policy=policy, completion=done, jct=done, average_jct=avg,
                               makespan=float(done.max()), reset_on_completion=reset_on_completion, events=events,
                               info=info)


@takes_instance(PlacementInstance)
def make_solution(inst: PlacementInstance, assignment: Any, *, status: Status = Status.FEASIBLE, solver: str,
                  wall_time: float = 0.0, bound: float | None = None, split: str = "proportional",
                  message: str = "", info: dict[str, Any] | None = None) -> PlacementSolution:
    """Build a :class:`PlacementSolution`, recomputing every metric from ``assignment``."""
    check_result_fields(status, bound, wall_time, solver, message, {} if info is None else info)
    check_choice(split, "split", SPLITS)
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
