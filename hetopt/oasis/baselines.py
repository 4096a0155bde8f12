"""The four baselines of Section V-A, as policies of the slotted simulator.

* FIFO -- jobs start in arrival order with fixed worker counts (head-of-line blocking).
* DRF -- all jobs admitted; on every arrival and completion, workers (with their PSs) are
  handed out one at a time to the job of smallest dominant share (progressive filling,
  Ghodsi et al. NSDI 2011).
* RRH -- risk-reward heuristic after Irwin et al. (HPDC 2004); fixed worker counts; see
  :class:`RRHPolicy` for the exact rule adopted.
* Dorm -- on every arrival and completion, a MILP maximizing resource utilization subject to
  dominant-share fairness and a limit on how many running jobs may be resized (Sun et al.
  2017); see :class:`DormPolicy`.

Placement is round-robin over servers (Section V-A, "(i)-(iii)"); the PS count of a job is
always the smallest satisfying (6)-(7), ceil(w b_i / B_i).  Each baseline is a policy of the
slotted simulator, built for one instance (``FIFOPolicy(inst, ...)``) and registered by name in
:data:`~hetopt.oasis.policies.POLICIES`: ``simulate(inst, "fifo")`` returns an
:class:`~hetopt.oasis.schedule.OasisSolution` checked by the same checker as OASiS.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyomo.environ as pyo
from scipy import sparse

from ..errors import ArgumentError
from ..inputs import check_positive, check_seed, check_size
from ..solvers import solve_milp
from .cluster import FIT_RTOL, Cluster, ps_needed
from .generator import fixed_counts
from .instance import OasisInstance

#: Relative MIP gap of Dorm's per-event MILP (a heuristic baseline; no optimality claimed).
DORM_MIP_GAP = 1e-2
#: Branch-and-bound node limit per Dorm MILP: a deterministic work limit (unlike a time limit),
#: so that a simulation gives the same result on every machine.
DORM_MAX_NODES = 50
#: Objective weight of a job's fairness slack in Dorm's MILP.
DORM_SLACK_PENALTY = 10.0

__all__ = ["FIFOPolicy", "DRFPolicy", "RRHPolicy", "DormPolicy", "DormData", "dorm_data", "build_dorm_model",
           "dorm_arrays", "DORM_MIP_GAP", "DORM_MAX_NODES"]


def _counts(inst: OasisInstance, workers: int | Sequence[int] | np.ndarray | None, seed: Any) -> np.ndarray:
    """Fixed worker counts: ``workers`` (one for all jobs or one per job) capped at N_i, or seeded draws."""
    if workers is None:
        return fixed_counts(inst, seed=check_seed(seed))
    try:
        w = np.broadcast_to(np.asarray(workers), (inst.n_jobs,))
    except ValueError:
        raise ArgumentError(f"workers is {workers!r}; expected one count or {inst.n_jobs} counts (one per job)") from None
    if w.dtype.kind not in "iu" or np.any(w < 1):
        raise ArgumentError(f"workers is {workers!r}; fixed worker counts must be integers >= 1")
    return np.minimum(w.astype(np.int64), inst.chunks)


def _dominant_unit(inst: OasisInstance, job: int) -> float:
    """Dominant share of one worker plus its share of PSs, over the whole cluster."""
    total = inst.worker_capacity.sum(axis=0) + inst.ps_capacity.sum(axis=0)
    unit = inst.worker_demand[job] + inst.ps_demand[job] * inst.worker_bandwidth[job] / inst.ps_bandwidth[job]
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(total > 0, unit / np.where(total > 0, total, 1), 0.0)
    return float(share.max())


class FIFOPolicy:
    """FIFO: start queued jobs strictly in arrival order, each with its fixed worker count.

    Parameters
    ----------
    inst : OasisInstance
        The instance the policy runs on.
    workers : int or sequence of int, optional
        Fixed worker count (one for every job, or one per job), capped at N_i; default: drawn
        uniformly in [1, 30] per job with ``seed`` (:func:`~hetopt.oasis.generator.fixed_counts`).
    seed : int, numpy Generator or None
        Seed of the drawn counts.
    """

    name = "fifo"

    def __init__(self, inst: OasisInstance, workers: int | Sequence[int] | np.ndarray | None = None, *,
                 seed: Any = 0) -> None:
        self.inst = inst
        self.workers = _counts(inst, workers, seed)
        self.queue: list[int] = []

    def __call__(self, cl: Cluster, t: int, arrived: list[int], completed: list[int]) -> None:
        """Queue the arrivals, then start queued jobs from the head while their fixed allocation fits."""
        self.queue.extend(arrived)
        while self.queue:
            head = self.queue[0]
            if cl.try_place(head, int(self.workers[head])) == 0:
                break
            self.queue.pop(0)


class DRFPolicy:
    """Dominant resource fairness: progressive filling of dominant shares over all active jobs, recomputed on events.

    Parameters
    ----------
    inst : OasisInstance
        The instance the policy runs on.
    """

    name = "drf"

    def __init__(self, inst: OasisInstance) -> None:
        self.inst = inst

    def __call__(self, cl: Cluster, t: int, arrived: list[int], completed: list[int]) -> None:
        """Release every active job and hand out workers (with their PSs) one at a time to the smallest dominant share."""
        inst = cl.inst
        active = cl.active()
        for i in active:
            cl.release(i)
        fw, fp = cl.free()
        share = {i: 0.0 for i in active}
        unit = {i: _dominant_unit(inst, i) for i in active}
        y = {i: np.zeros(inst.n_worker_servers, dtype=np.int64) for i in active}
        z = {i: np.zeros(inst.n_ps_servers, dtype=np.int64) for i in active}
        growing = set(active)
        while growing:
            i = min(growing, key=lambda j: (share[j], j))
            n = int(y[i].sum())
            if n >= inst.chunks[i]:
                growing.discard(i)
                continue
            wd, sd = inst.worker_demand[i], inst.ps_demand[i]
            hw = np.nonzero(np.all(fw >= wd - FIT_RTOL * np.maximum(wd, inst.worker_capacity), axis=1))[0]
            extra = ps_needed(inst, i, n + 1) - int(z[i].sum())
            hp = (np.nonzero(np.all(fp >= sd * extra - FIT_RTOL * np.maximum(sd * extra, inst.ps_capacity), axis=1))[0]
                  if extra > 0 else np.array([0]))
            if hw.size == 0 or hp.size == 0:
                growing.discard(i)
                continue
            h = int(hw[(cl.pointer_w + n) % hw.size]) if hw.size else 0  # spread workers over fitting servers
            y[i][h] += 1
            fw[h] -= wd
            if extra > 0:
                k = int(hp[(cl.pointer_p + n) % hp.size])
                z[i][k] += extra
                fp[k] -= sd * extra
            share[i] += unit[i]
        for i in active:
            if y[i].sum() > 0:
                cl.workers[i], cl.ps[i] = y[i], z[i]


class RRHPolicy:
    """Risk-reward heuristic with fixed worker counts (our reading of [38] for this setting).

    For an admitted unfinished job j at slot t with fixed width w_j: rem_j = ceil(remaining
    work / w_j) slots, projected completion c_j = t + rem_j - 1, reward v_j = f_j(c_j - a_j),
    decay d_j(x) = f_j(c_j - a_j) - f_j(c_j + x - a_j) (utility lost if j waits x slots), and
    dominant share sh_j of its allocation.  The risk of running j is the utility it makes the
    others lose, cost_j = sh_j sum_{k != j} d_k(rem_j).  On arrival a job is admitted iff
    v_j - cost_j > ``threshold``.  On every event, jobs are ranked by (v_j - cost_j) /
    (sh_j rem_j) (net reward per unit of resource-time); a running job with v_j - cost_j <= 0
    is paused (its servers freed), the others keep running with the same servers; waiting
    jobs with a positive net reward start in rank order if their fixed allocation fits.

    Parameters
    ----------
    inst : OasisInstance
        The instance the policy runs on.
    workers : int or sequence of int, optional
        Fixed worker counts, as for :class:`FIFOPolicy` (default: the same seeded draws).
    threshold : float
        Admission threshold on the net reward v_j - cost_j (finite).
    seed : int, numpy Generator or None
        Seed of the drawn counts.
    """

    name = "rrh"

    def __init__(self, inst: OasisInstance, workers: int | Sequence[int] | np.ndarray | None = None, *,
                 threshold: float = 0.0, seed: Any = 0) -> None:
        self.inst = inst
        self.workers = _counts(inst, workers, seed)
        if isinstance(threshold, (bool, np.bool_)) or not isinstance(threshold, (int, float, np.integer, np.floating)) \
                or not math.isfinite(float(threshold)):
            raise ArgumentError(f"threshold is {threshold!r}; expected a finite number")
        self.threshold = float(threshold)
        self.admitted: list[int] = []

    def _scores(self, cl: Cluster, t: int, jobs: list[int]) -> dict[int, tuple[float, float]]:
        inst = cl.inst
        rem = {j: max(1, math.ceil(cl.remaining[j] / self.workers[j] - 1e-9)) for j in jobs}
        sh = {j: _dominant_unit(inst, j) * self.workers[j] for j in jobs}

        def f(j: int, c: int) -> float:
            return inst.utility_of(j, c) if c <= inst.horizon else 0.0

        out = {}
        for j in jobs:
            cj = t + rem[j] - 1
            vj = f(j, cj)
            cost = sh[j] * sum(f(k, t + rem[k] - 1) - f(k, t + rem[k] - 1 + rem[j]) for k in jobs if k != j)
            out[j] = (vj - cost, (vj - cost) / max(sh[j] * rem[j], 1e-12))
        return out

    def __call__(self, cl: Cluster, t: int, arrived: list[int], completed: list[int]) -> None:
        """Admit arrivals with a net reward above the threshold, pause running jobs whose net reward is <= 0, start the best-ranked waiting jobs."""
        live = [j for j in self.admitted if j not in cl.done]
        for i in arrived:
            sc = self._scores(cl, t, live + [i])
            if sc[i][0] > self.threshold:
                self.admitted.append(i)
                live.append(i)
        if not live:
            return
        sc = self._scores(cl, t, live)
        for j in live:
            if j in cl.workers and sc[j][0] <= 0:
                cl.release(j)  # pause
        for j in sorted(live, key=lambda j: (-sc[j][1], j)):
            if j not in cl.workers and sc[j][0] > 0:
                cl.try_place(j, int(self.workers[j]))


@dataclass(frozen=True)
class DormData:
    """The data of one Dorm MILP: active jobs ``J``, their previous worker counts, and the coefficients.

    The coefficients are shared by :func:`build_dorm_model` (Pyomo) and :func:`dorm_arrays` (numpy).
    """

    J: tuple[int, ...]
    prev: np.ndarray        # previous worker count of each job of J (0: not running)
    chunks: np.ndarray      # N_j, bound of W_j and Z_j, and big-M of the adjustment rows
    util_w: np.ndarray      # objective coefficient of W_j: sum_r w_j^r / C_W^r / R
    util_p: np.ndarray      # objective coefficient of Z_j: sum_r s_j^r / C_P^r / R
    wd: np.ndarray          # worker demand, |J| x R
    sd: np.ndarray          # PS demand, |J| x R
    cw: np.ndarray          # aggregated worker capacity, R
    cp: np.ndarray          # aggregated PS capacity, R
    bw_w: np.ndarray        # worker bandwidth b_j
    bw_p: np.ndarray        # PS bandwidth B_j
    unit: np.ndarray        # dominant share u_j of one worker with its PSs
    target: np.ndarray      # fairness target (1 - theta) min(1 / |J|, N_j u_j)
    running: np.ndarray     # positions in J of the running jobs (prev > 0)
    limit: int              # how many running jobs may change their worker count


def dorm_data(inst: OasisInstance, J, prev, *, theta: float = 0.2, max_adjust: int | None = None) -> DormData:
    """Coefficients of Dorm's MILP for active jobs ``J`` with previous worker counts ``prev``.

    Parameters
    ----------
    inst : OasisInstance
    J : sequence of int
        The active jobs.
    prev : sequence of int or mapping int -> int
        Previous worker counts, aligned with ``J`` or by job.
    theta : float
        Fairness slack.
    max_adjust : int, optional
        How many running jobs may be resized (default half of them, rounded up).

    Returns
    -------
    DormData
    """
    J = tuple(int(j) for j in J)
    idx = np.asarray(J, dtype=np.int64)
    prev_a = np.asarray([prev[j] for j in J] if isinstance(prev, dict) else prev, dtype=np.int64).reshape(len(J))
    cw, cp = inst.worker_capacity.sum(axis=0), inst.ps_capacity.sum(axis=0)
    R = inst.n_resources
    wd, sd = np.asarray(inst.worker_demand[idx], dtype=float), np.asarray(inst.ps_demand[idx], dtype=float)
    # summed term by term as Pyomo's linear representation of sum_r (w_j^r / C_W^r) W_j / R does, so
    # that the coefficients are bit-identical to those of the earlier Pyomo-built model
    inv_R = 1.0 / R
    util_w = np.array([sum(float(wd[k, r] / cw[r]) * inv_R for r in range(R) if cw[r] > 0) for k in range(len(J))])
    util_p = np.array([sum(float(sd[k, r] / cp[r]) * inv_R for r in range(R) if cp[r] > 0) for k in range(len(J))])
    unit = np.array([_dominant_unit(inst, j) for j in J])
    chunks = np.asarray(inst.chunks[idx], dtype=np.int64)
    target = (1 - theta) * np.minimum(1.0 / len(J), chunks * unit)
    running = np.nonzero(prev_a > 0)[0]
    limit = max_adjust if max_adjust is not None else math.ceil(running.size / 2)
    return DormData(J=J, prev=prev_a, chunks=chunks, util_w=util_w, util_p=util_p, wd=wd, sd=sd,
                    cw=np.asarray(cw, dtype=float), cp=np.asarray(cp, dtype=float),
                    bw_w=np.asarray(inst.worker_bandwidth[idx], dtype=float),
                    bw_p=np.asarray(inst.ps_bandwidth[idx], dtype=float),
                    unit=unit, target=target, running=running, limit=int(limit))


def build_dorm_model(d: DormData) -> pyo.ConcreteModel:
    """Dorm's per-event MILP as a Pyomo model (the reference formulation of :func:`dorm_arrays`)."""
    J = list(d.J)
    pos = {j: k for k, j in enumerate(J)}
    R = d.cw.size
    m = pyo.ConcreteModel(name="dorm")
    m.J = pyo.Set(initialize=J)
    m.W = pyo.Var(m.J, domain=pyo.NonNegativeIntegers, bounds=lambda _, j: (0, int(d.chunks[pos[j]])))
    m.Z = pyo.Var(m.J, domain=pyo.NonNegativeIntegers, bounds=lambda _, j: (0, int(d.chunks[pos[j]])))
    m.slack = pyo.Var(m.J, domain=pyo.NonNegativeReals)
    m.chg = pyo.Var(m.J, domain=pyo.Binary)
    util = sum(float(d.util_w[pos[j]]) * m.W[j] + float(d.util_p[pos[j]]) * m.Z[j] for j in J)
    m.obj = pyo.Objective(expr=util - DORM_SLACK_PENALTY * sum(m.slack[j] for j in J), sense=pyo.maximize)
    w = {j: float(d.bw_w[pos[j]]) for j in J}
    B = {j: float(d.bw_p[pos[j]]) for j in J}
    N = {j: int(d.chunks[pos[j]]) for j in J}
    prev = {j: int(d.prev[pos[j]]) for j in J}
    m.cap_w = pyo.Constraint(range(R), doc="aggregated worker capacity, cf. (4)",
                             rule=lambda _, r: sum(float(d.wd[pos[j], r]) * m.W[j] for j in J) <= float(d.cw[r]))
    m.cap_p = pyo.Constraint(range(R), doc="aggregated PS capacity, cf. (5)",
                             rule=lambda _, r: sum(float(d.sd[pos[j], r]) * m.Z[j] for j in J) <= float(d.cp[r]))
    m.bw = pyo.Constraint(m.J, doc="(6) PS bandwidth", rule=lambda _, j: w[j] * m.W[j] <= B[j] * m.Z[j])
    m.cnt = pyo.Constraint(m.J, doc="(7) no more PSs than workers", rule=lambda _, j: m.Z[j] <= m.W[j])
    m.fair = pyo.Constraint(m.J, doc="soft dominant-share fairness target",
                            rule=lambda _, j: float(d.unit[pos[j]]) * m.W[j] + m.slack[j] >= float(d.target[pos[j]]))
    m.adj_up = pyo.Constraint(m.J, doc="chg_j = 1 if W_j grows", rule=lambda _, j: m.W[j] - prev[j] <= N[j] * m.chg[j])
    m.adj_dn = pyo.Constraint(m.J, doc="chg_j = 1 if W_j shrinks", rule=lambda _, j: prev[j] - m.W[j] <= N[j] * m.chg[j])
    if d.running.size:
        m.adj = pyo.Constraint(doc="at most `limit` running jobs resized",
                               expr=sum(m.chg[J[k]] for k in d.running) <= d.limit)
    return m


def dorm_arrays(d: DormData) -> dict[str, Any]:
    """Dorm's per-event MILP as arrays for :func:`hetopt.solvers.solve_milp` (same model as :func:`build_dorm_model`).

    Columns: W (0..n-1), Z (n..2n-1), slack (2n..3n-1), chg (3n..4n-1); rows: cap_w (R),
    cap_p (R), bw, cnt, fair, adj_up, adj_dn (n each), adj (1, if any job runs).

    Parameters
    ----------
    d : DormData

    Returns
    -------
    dict
        Keyword arguments of :func:`~hetopt.solvers.solve_milp`: ``c``, ``sense``, ``A_ub``,
        ``b_ub``, ``lb``, ``ub``, ``integrality``.
    """
    n, R = len(d.J), d.cw.size
    eye = sparse.identity(n, format="csr")
    zero = sparse.csr_matrix((n, n))
    blocks = [
        [sparse.csr_matrix(d.wd.T), sparse.csr_matrix((R, n)), sparse.csr_matrix((R, n)), sparse.csr_matrix((R, n))],  # cap_w
        [sparse.csr_matrix((R, n)), sparse.csr_matrix(d.sd.T), sparse.csr_matrix((R, n)), sparse.csr_matrix((R, n))],  # cap_p
        [sparse.diags(d.bw_w), sparse.diags(-d.bw_p), zero, zero],                                                     # bw
        [-eye, eye, zero, zero],                                                                                        # cnt
        [sparse.diags(-d.unit), zero, -eye, zero],                                                                      # fair
        [eye, zero, zero, sparse.diags(-d.chunks.astype(float))],                                                      # adj_up
        [-eye, zero, zero, sparse.diags(-d.chunks.astype(float))],                                                     # adj_dn
    ]
    b = [d.cw, d.cp, np.zeros(n), np.zeros(n), -d.target, d.prev.astype(float), -d.prev.astype(float)]
    if d.running.size:
        row = np.zeros((1, n))
        row[0, d.running] = 1.0
        blocks.append([sparse.csr_matrix((1, n)), sparse.csr_matrix((1, n)), sparse.csr_matrix((1, n)), sparse.csr_matrix(row)])
        b.append(np.array([float(d.limit)]))
    A = sparse.bmat(blocks, format="csr")
    c = np.concatenate([d.util_w, d.util_p, np.full(n, -DORM_SLACK_PENALTY), np.zeros(n)])
    lb = np.zeros(4 * n)
    ub = np.concatenate([d.chunks, d.chunks, np.full(n, np.inf), np.ones(n)]).astype(float)
    integrality = np.concatenate([np.ones(2 * n), np.zeros(n), np.ones(n)])
    return dict(c=c, sense="max", A_ub=A, b_ub=np.concatenate(b), lb=lb, ub=ub, integrality=integrality)


class DormPolicy:
    """Dorm-style MILP re-solved on every arrival and completion (our reading of [18]).

    Over the active jobs J, integer worker and PS counts W_j <= N_j, Z_j with (6)-(7),
    maximize the mean utilization sum_r (sum_j w_j^r W_j / C_W^r + s_j^r Z_j / C_P^r) / R over
    the cluster totals C (aggregated capacity), subject to fairness: each job's dominant
    share W_j u_j (u_j: dominant share of a worker with its PSs) reaches
    (1 - ``theta``) min(1 / |J|, N_j u_j) or pays a penalty, and adjustment overhead: at most
    ``max_adjust`` running jobs change their worker count (default half of them, rounded
    up).  Placement follows by round-robin; workers that do not fit the servers are dropped
    (with their PSs), so the aggregated MILP never breaks (4)-(5).

    The MILP (:func:`dorm_data`, :func:`dorm_arrays`; the same model in Pyomo:
    :func:`build_dorm_model`) is solved by :func:`hetopt.solvers.solve_milp` with relative
    gap ``DORM_MIP_GAP`` and at most ``DORM_MAX_NODES`` branch-and-bound nodes; when no
    incumbent is found the current allocations are kept.

    Parameters
    ----------
    inst : OasisInstance
        The instance the policy runs on.
    theta : float
        Fairness slack in [0, 1).
    max_adjust : int, optional
        How many running jobs may change their worker count per event (default: half of them,
        rounded up).

    Attributes
    ----------
    solves : int
        MILPs solved so far.
    """

    name = "dorm"

    def __init__(self, inst: OasisInstance, *, theta: float = 0.2, max_adjust: int | None = None) -> None:
        self.inst = inst
        self.theta = check_positive(theta, "theta", allow_zero=True)
        if self.theta >= 1:
            raise ArgumentError(f"theta is {theta!r}; expected a fairness slack in [0, 1)")
        self.max_adjust = None if max_adjust is None else check_size(max_adjust, "max_adjust", minimum=0)
        self.solves = 0

    def __call__(self, cl: Cluster, t: int, arrived: list[int], completed: list[int]) -> None:
        """Solve Dorm's MILP over the active jobs and place the new worker counts round-robin."""
        J = cl.active()
        if not J:
            return
        prev = {j: int(cl.workers[j].sum()) if j in cl.workers else 0 for j in J}
        d = dorm_data(cl.inst, J, prev, theta=self.theta, max_adjust=self.max_adjust)
        res = solve_milp(**dorm_arrays(d), mip_gap=DORM_MIP_GAP, threads=1, options={"node_limit": DORM_MAX_NODES},
                         raise_on_failure=False)
        x = res.info["x"]
        self.solves += 1
        if not res.status.has_solution or res.objective is None or x is None:
            return  # no incumbent within the node limit: keep the current allocations
        want = {j: int(round(x[k])) for k, j in enumerate(J)}
        keep = [j for j in J if want[j] == prev[j] and prev[j] > 0]
        for j in J:
            if j not in keep:
                cl.release(j)
        for j in sorted((j for j in J if j not in keep and want[j] > 0), key=lambda j: (-want[j], j)):
            cl.try_place(j, want[j], partial=True)
