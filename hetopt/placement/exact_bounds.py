"""Bounds and incumbents that speed up :func:`~hetopt.placement.solve_exact` without changing its optimum.

* :func:`size_bounds`: from an achieved average JCT ``U``, the worker counts K_i and throughputs
  V_i that an assignment at least as good as ``U`` can have.  Job i alone with n workers needs at
  least ``g_i(n) = T_i (|Pi_i| / Vtop_i(n) + 2 D_i (n - 1) / (n r_i(n)))``, with Vtop_i(n) the
  throughput of job i's n fastest workers and r_i(n) the intra-node rate if n workers fit on one
  node, the inter-node rate otherwise (a lower bound on every placement of n workers).  Since the
  K_i sum to K, a dynamic programme over the other jobs' counts gives the least total
  ``R_i(K - n)`` of the others; a count n with ``g_i(n) + R_i(K - n) > S U`` is excluded, and
  for the others ``T_i |Pi_i| / V_i <= S U - T_i comm_i(n) - R_i(K - n)`` bounds V_i from below.
* :func:`improve_assignment`: steepest-descent local search (move one worker, swap two workers of
  different classes between two jobs), evaluated by the independent evaluator, so the starting
  incumbent (and therefore the bounds above) are tighter.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..inputs import check_size, takes_instance
from .evaluate import check_assignment, job_jct
from .instance import PlacementInstance

__all__ = ["SizeBounds", "improve_assignment", "size_bounds"]

#: Relative slack on the incumbent value, so that rounding never excludes an optimum.
SLACK = 1e-9


@dataclass(frozen=True)
class SizeBounds:
    """Counts and throughputs allowed by an incumbent value (see :func:`size_bounds`).

    Attributes
    ----------
    allowed : ndarray of bool, shape (S, K - S + 1)
        ``allowed[i, n - 1]``: job i may have n workers.
    vmin : ndarray, shape (S, K - S + 1)
        Least throughput V_i of job i with n workers (0 where not allowed).
    vtop : ndarray, shape (S, K - S + 1)
        Vtop_i(n): throughput of job i's n fastest workers (an upper bound on V_i with n workers).
    vbot : ndarray, shape (S, K - S + 1)
        Throughput of job i's n slowest workers (a lower bound on V_i with n workers).
    lower : float
        A lower bound on P1: ``min sum_i g_i(n_i) / S`` over counts summing to K (the dynamic
        programme's optimum; every job's T_i JCT_i is at least g_i of its count).
    upper : float
        The value the bounds were computed for.
    """

    allowed: np.ndarray
    vmin: np.ndarray
    vtop: np.ndarray
    vbot: np.ndarray
    lower: float = 0.0
    upper: float = float("inf")

    def sizes(self, i: int) -> np.ndarray:
        """Allowed worker counts of job i (1-based)."""
        return np.flatnonzero(self.allowed[i]) + 1


def _job_terms(inst: PlacementInstance) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per job and count n: computation lower bound, communication lower bound, Vtop, Vbot."""
    S, K = inst.n_jobs, inst.n_workers
    nmax = K - S + 1
    n = np.arange(1, nmax + 1)
    srt = np.sort(inst.throughput, axis=1)
    vtop = np.cumsum(srt[:, ::-1], axis=1)[:, :nmax]
    vbot = np.cumsum(srt, axis=1)[:, :nmax]
    comp = (inst.epochs * inst.dataset_size)[:, None] / vtop
    if inst.has_communication:
        node_max = int(np.bincount(inst.nodes).max())
        inv = np.where(n <= node_max, float(inst.inverse_rate(False)), float(inst.inverse_rate(inst.multi_node)))
        comm = (inst.epochs * inst.comm_coefficient)[:, None] * ((n - 1) / n * inv)[None, :]
    else:
        comm = np.zeros((S, nmax))
    return comp, comm, vtop, vbot


def _minplus(a: np.ndarray, b: np.ndarray, length: int) -> np.ndarray:
    """c[s] = min_t a[t] + b[s - t] for s < length (a, b indexed by a total count from 0)."""
    out = np.full(length, np.inf)
    for t in map(int, np.flatnonzero(np.isfinite(a))):
        m = min(length - t, b.size)
        if m > 0:
            np.minimum(out[t:t + m], a[t] + b[:m], out=out[t:t + m])
    return out


@takes_instance(PlacementInstance)
def size_bounds(inst: PlacementInstance, upper: float) -> SizeBounds:
    """Worker counts and throughputs possible in an assignment with average JCT at most ``upper``.

    Valid for every such assignment (see the module docstring), hence for an optimum whenever
    ``upper`` is achieved; a relative slack of ``SLACK`` keeps rounding on the safe side.
    """
    S, K = inst.n_jobs, inst.n_workers
    nmax = K - S + 1
    comp, comm, vtop, vbot = _job_terms(inst)
    g = comp + comm
    per = np.full((S, K + 1), np.inf)  # per[i, n]: least T_i JCT_i with n workers (n = 0 impossible)
    per[:, 1:nmax + 1] = g
    prefix = [np.r_[0.0, np.full(K, np.inf)]]
    for i in range(S):
        prefix.append(_minplus(prefix[-1], per[i], K + 1))
    suffix = [np.r_[0.0, np.full(K, np.inf)]]
    for i in range(S - 1, -1, -1):
        suffix.append(_minplus(suffix[-1], per[i], K + 1))
    suffix = suffix[::-1]  # suffix[i]: jobs i..S-1
    budget = S * upper * (1 + SLACK)
    n = np.arange(1, nmax + 1)
    allowed = np.zeros((S, nmax), dtype=bool)
    vmin = np.zeros((S, nmax))
    work = inst.epochs * inst.dataset_size
    for i in range(S):
        others = _minplus(prefix[i], suffix[i + 1], K + 1)  # least total of the other jobs, by their count
        rest = others[K - n]
        ok = g[i] + rest <= budget
        allowed[i] = ok
        room = budget - comm[i] - rest
        with np.errstate(divide="ignore", invalid="ignore"):
            v = np.where(ok & (room > 0), work[i] / room * (1 - SLACK), 0.0)
        vmin[i] = np.maximum(v, vbot[i] * (1 - SLACK)) * ok
    if not allowed.any(axis=1).all():  # cannot happen when ``upper`` is achieved; keep everything then
        allowed[:] = True
        vmin = vbot * (1 - SLACK)
    lower = float(prefix[S][K]) / S * (1 - SLACK)
    return SizeBounds(allowed=allowed, vmin=vmin, vtop=vtop, vbot=vbot, lower=lower if np.isfinite(lower) else 0.0,
                      upper=float(upper))


class _Moves:
    """Per-job sums of an assignment, for O(1) evaluation of a move or a swap (:func:`improve_assignment`)."""

    def __init__(self, inst: PlacementInstance, a: np.ndarray, labels: np.ndarray, nodes: np.ndarray, H: int) -> None:
        S, K = inst.n_jobs, inst.n_workers
        self.inst, self.a, self.labels, self.nodes = inst, a, labels, nodes
        self.rho = inst.throughput
        self.inv = (float(inst.inverse_rate(False)), float(inst.inverse_rate(True)))
        self.V = np.bincount(a, weights=self.rho[a, np.arange(K)], minlength=S)
        self.cnt = np.bincount(a, minlength=S)
        self.nc = np.zeros((S, H), dtype=int)
        np.add.at(self.nc, (a, nodes), 1)
        self.nz = (self.nc > 0).sum(axis=1)
        self.cur = np.array([self.jct(i, self.V[i], int(self.cnt[i]), bool(self.nz[i] > 1)) for i in range(S)])

    def jct(self, i: int, V: float, n: int, spans: bool) -> float:
        inst = self.inst
        return float(inst.epochs[i] * (inst.dataset_size[i] / V + inst.comm_coefficient[i] * (n - 1) / n * self.inv[spans]))

    def pick(self, i: int, g: int) -> int:
        """The worker of class g that job i gives away: the one on the node where job i has the fewest."""
        ks = np.flatnonzero((self.a == i) & (self.labels == g))
        return int(ks[0]) if ks.size == 1 else int(ks[np.argmin(self.nc[i, self.nodes[ks]])])

    def after(self, i: int, out_k: int | None, in_k: int | None) -> float:
        """Job i's JCT after losing worker ``out_k`` and gaining ``in_k`` (either may be None)."""
        v, n, z = self.V[i], int(self.cnt[i]), int(self.nz[i])
        here = self.nc[i].copy() if out_k is not None and in_k is not None else self.nc[i]
        if out_k is not None:
            v, n = v - self.rho[i, out_k], n - 1
            z -= int(self.nc[i, self.nodes[out_k]] == 1)
            if in_k is not None:
                here[self.nodes[out_k]] -= 1
        if in_k is not None:
            v, n = v + self.rho[i, in_k], n + 1
            z += int(here[self.nodes[in_k]] == 0)
        return self.jct(i, v, n, z > 1)


@takes_instance(PlacementInstance)
def improve_assignment(inst: PlacementInstance, assignment: np.ndarray, *, max_steps: int = 2000,
                       deadline: float | None = None, max_evaluations: int | None = None) -> np.ndarray:
    """Steepest-descent local search on an assignment (average JCT, eq. (8)).

    Neighbourhood: move one worker of job i to job j (job i keeping a worker), or swap a worker of
    job i with a worker of job j of another class; within a (job, class) pair the worker moved is
    the one on the node where job i has the fewest workers (so a job tends to leave nodes).  A
    move changes two jobs only, so each candidate is evaluated in O(1) from per-job sums; the
    accepted assignment is re-evaluated from scratch.  ``deadline`` (a ``time.perf_counter()``
    value) stops the search early; ``max_evaluations`` (candidate evaluations, counted before each step
    as at most P (S - 1) + P^2 for P (job, class) pairs) stops it deterministically before a step
    that would exceed it.  Returns an assignment no worse than ``assignment``.
    """
    a = check_assignment(inst, assignment).copy()
    max_steps = check_size(max_steps, "max_steps", minimum=0)
    max_evaluations = None if max_evaluations is None else check_size(max_evaluations, "max_evaluations", minimum=0)
    S = inst.n_jobs
    labels, _ = inst.worker_groups(by_node=False)
    _, nodes = np.unique(inst.nodes, return_inverse=True)
    H = int(nodes.max()) + 1
    work = 0
    for _ in range(max_steps):
        if deadline is not None and time.perf_counter() > deadline:
            break
        present = sorted(set(zip(a.tolist(), labels.tolist(), strict=True)))
        work += len(present) * (S - 1) + len(present) ** 2
        if max_evaluations is not None and work > max_evaluations:
            break
        step = _best_move(inst, a, labels, nodes, H, present)
        if step is None:
            break
        k, k2, j, total = step
        b = a.copy()
        b[k] = j
        if k2 is not None:
            b[k2] = a[k]
        if float(job_jct(inst, b).sum()) >= total:  # rounding of the O(1) update: keep the proven value
            break
        a = b
    return a


def _best_move(inst: PlacementInstance, a: np.ndarray, labels: np.ndarray, nodes: np.ndarray, H: int,
               present: list[tuple[int, int]]) -> tuple[int, int | None, int, float] | None:
    """The best improving move or swap of :func:`improve_assignment` and the current total, or None."""
    S = inst.n_jobs
    mv = _Moves(inst, a, labels, nodes, H)
    total = float(mv.cur.sum())
    picks = {(i, g): mv.pick(i, g) for (i, g) in present}  # the state is fixed within a step
    classes: dict[int, list[int]] = {}
    for (j, h) in present:
        classes.setdefault(j, []).append(h)
    best_total, step = total, None
    for (i, g) in present:
        k = picks[(i, g)]
        for j in range(S):
            if j == i:
                continue
            cands: list[int | None] = [None] if mv.cnt[i] > 1 else []
            if i < j:
                cands += [picks[(j, h)] for h in classes.get(j, ()) if h != g]
            for k2 in cands:
                t = total - mv.cur[i] - mv.cur[j] + mv.after(i, k, k2) + mv.after(j, k2, k)
                if t < best_total * (1 - 1e-12):
                    best_total, step = t, (k, k2, j)
    return None if step is None else (*step, total)
