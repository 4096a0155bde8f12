"""Baselines of Section VI: Optimus, Optimus-LB and LAS (the motivating example's policy)."""

from __future__ import annotations

import time

import numpy as np
import pyomo.environ as pyo

from ..errors import SolverError
from ..inputs import check_choice, check_time_limit, takes_instance
from ..solvers import solve_model
from .evaluate import PlacementSolution, make_solution
from .instance import PlacementInstance
from .model import assignment_from_model

__all__ = ["optimus", "optimus_lb", "las", "build_las", "OPTIMUS_LB_READINGS"]


def _jct(inst: PlacementInstance, rsum: np.ndarray, rmin: np.ndarray, cnt: np.ndarray, spans: np.ndarray,
         split: str, consts: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """Every job's JCT with the given per-job sums (the same operations, in the same order, for each job)."""
    epochs, data, coef = consts
    V = rsum if split == "proportional" else cnt * rmin
    comm = coef * (cnt - 1) / cnt * np.asarray(inst.inverse_rate(spans), dtype=float)
    return epochs * (data / V + comm)


def _greedy(inst: PlacementInstance, split: str) -> np.ndarray:
    """Optimus' greedy: one worker per job, then marginal gains until every worker is placed (8c).

    Repeatedly the job with the largest JCT reduction gets its best free worker (highest rho_{i,k},
    the lowest index among equals; among equal gains the lowest job).  Each job's workers are sorted
    once and a pointer skips the taken ones, and the gains of all jobs are computed together: O(S K)
    array operations in all (the scan of every free worker for every job at every step was S K^2).
    """
    S, K = inst.n_jobs, inst.n_workers
    rho, nodes = inst.throughput, np.asarray(inst.nodes)
    free = np.ones(K, dtype=bool)
    a = np.full(K, -1, dtype=int)
    rsum, rmin, cnt = np.zeros(S), np.full(S, np.inf), np.zeros(S, dtype=int)
    node0 = np.full(S, -1)
    spans = np.zeros(S, dtype=bool)
    consts = (np.asarray(inst.epochs, dtype=float), np.asarray(inst.dataset_size, dtype=float),
              np.asarray(inst.comm_coefficient, dtype=float))
    order = np.argsort(-rho, axis=1, kind="stable")  # each job's workers, fastest first, ties by index
    ptr = np.zeros(S, dtype=int)
    rows = np.arange(S)

    def best_free() -> np.ndarray:
        while True:
            taken = ~free[order[rows, ptr]]
            if not taken.any():
                return order[rows, ptr]
            ptr[taken] += 1

    def take(i: int, k: int) -> None:
        free[k], a[k] = False, i
        rsum[i] += rho[i, k]
        rmin[i] = min(rmin[i], rho[i, k])
        cnt[i] += 1
        if node0[i] < 0:
            node0[i] = nodes[k]
        elif nodes[k] != node0[i]:
            spans[i] = True

    for i in range(S):  # each job first gets one worker, to avoid starvation
        take(i, int(best_free()[i]))
    for _ in range(K - S):
        ks = best_free()
        r = rho[rows, ks]
        now = _jct(inst, rsum, rmin, cnt, spans, split, consts)
        new = _jct(inst, rsum + r, np.minimum(rmin, r), cnt + 1, spans | (nodes[ks] != node0), split, consts)
        gain = now - new
        gain = np.where(np.isnan(gain), -np.inf, gain)
        i = int(np.argmax(gain))
        if not gain[i] > -np.inf:  # unreachable: a free worker always gives some job a finite gain
            raise SolverError("Optimus' greedy found no job for a free worker")
        take(i, int(ks[i]))
    return a


@takes_instance(PlacementInstance)
def optimus(inst: PlacementInstance) -> PlacementSolution:
    """Optimus (Peng et al., EuroSys 2018) as described in Section VI-A.

    Greedy marginal gain with the dataset divided into equal parts (no load balancing); JCT
    evaluated with that equal split.

    Status FEASIBLE, no bound.
    """
    t0 = time.perf_counter()
    a = _greedy(inst, "equal")
    return make_solution(inst, a, solver="optimus", split="equal", wall_time=time.perf_counter() - t0)


#: Readings of Section VI-A's Optimus-LB ("we extend Optimus with the Proportional Workload Assignment").
OPTIMUS_LB_READINGS = ("optimus_placement", "balanced_gains")


@takes_instance(PlacementInstance)
def optimus_lb(inst: PlacementInstance, *, reading: str = "optimus_placement") -> PlacementSolution:
    """Optimus-LB: Optimus extended with the proportional workload assignment of eqs. (10)-(12).

    The text does not say whether the extension changes the placement.  Two named readings:

    ``"optimus_placement"`` (default, the paper's reading)
        Optimus' placement unchanged (the greedy's marginal gains computed with Optimus' equal
        data split), then the data of each job split proportionally, eq. (12).  Load balancing is
        added after the placement, which is what the paper's 15.1 % loss (Fig. 9) and its argument
        against sequential placement (Section IV-A) describe.
    ``"balanced_gains"`` (hetopt's earlier reading)
        The greedy's marginal gains themselves are computed with the proportional split, so the
        placement already knows the load balancing.  It is stronger.

    Status FEASIBLE, no bound.
    """
    check_choice(reading, "reading", OPTIMUS_LB_READINGS)
    t0 = time.perf_counter()
    a = _greedy(inst, "equal" if reading == "optimus_placement" else "proportional")
    return make_solution(inst, a, solver=f"optimus_lb[{reading}]", wall_time=time.perf_counter() - t0)


@takes_instance(PlacementInstance)
def build_las(inst: PlacementInstance) -> pyo.ConcreteModel:
    """LAS as an ILP over groups of identical workers: maximize min_i sum_k sigma rho / V_i^Equal.

    V_i^Equal = sum_k rho_{i,k} / S is job i's throughput under an equal share of the cluster
    (Section IV-A).  Constraints (8b)-(8d) as in P1.
    """
    S = inst.n_jobs
    _, members = inst.worker_groups(by_node=False)
    rep = [int(ws[0]) for ws in members]
    veq = inst.throughput.sum(axis=1) / S
    m = pyo.ConcreteModel(name="LAS")
    m.JOBS = pyo.Set(initialize=range(S), ordered=True)
    m.GROUPS = pyo.Set(initialize=range(len(members)), ordered=True)
    m.x = pyo.Var(m.JOBS, m.GROUPS, domain=pyo.NonNegativeIntegers, bounds=lambda m, i, g: (0, len(members[g])),
                  doc="workers of group g assigned to job i")
    m.norm = pyo.Expression(m.JOBS, rule=lambda m, i: sum(float(inst.throughput[i, rep[g]] / veq[i]) * m.x[i, g] for g in m.GROUPS),
                            doc="sum_k sigma_{i,k} rho_{i,k} / V_i^Equal")
    m.z = pyo.Var(bounds=(0, S), doc="min_i normalized throughput")
    m.max_min = pyo.Constraint(m.JOBS, rule=lambda m, i: m.z <= m.norm[i], doc="LAS: z <= normalized throughput of job i")
    m.at_least_one = pyo.Constraint(m.JOBS, rule=lambda m, i: sum(m.x[i, g] for g in m.GROUPS) >= 1, doc="(8b)")
    m.all_workers = pyo.Constraint(m.GROUPS, rule=lambda m, g: sum(m.x[i, g] for i in m.JOBS) == len(members[g]), doc="(8c)-(8d)")
    m.fairness = pyo.Objective(expr=m.z, sense=pyo.maximize, doc="LAS: max-min normalized throughput")
    m._groups = members
    return m


@takes_instance(PlacementInstance)
def las(inst: PlacementInstance, *, time_limit: float | None = None) -> PlacementSolution:
    """LAS (Tiresias' Least Attained Service, as used in Section IV-A), solved exactly as an ILP.

    Lexicographic: first the max-min normalized throughput z*, then, among placements reaching
    z*, the largest total normalized throughput (the max-min optimum is rarely unique; this makes
    the placement well defined).  The data are then split proportionally (load balancing after
    placement, the sequential approach the paper criticizes).  Status FEASIBLE for P1.
    """
    time_limit = check_time_limit(time_limit)
    t0 = time.perf_counter()
    m = build_las(inst)
    first = solve_model(m, "highs", time_limit=time_limit)
    zstar = first.objective
    if zstar is None:
        raise SolverError(f"LAS max-min ILP returned no incumbent ({first.status.value}: {first.message})")
    m.fairness.deactivate()
    # absolute below 1 on purpose: z is a normalized throughput (dimensionless, in [0, S])
    m.keep_min = pyo.Constraint(expr=m.z >= zstar - 1e-9 * max(1.0, abs(zstar)))
    m.total = pyo.Objective(expr=sum(m.norm[i] for i in m.JOBS), sense=pyo.maximize)
    solve_model(m, "highs", time_limit=time_limit)
    a = assignment_from_model(inst, m)
    return make_solution(inst, a, solver="las", wall_time=time.perf_counter() - t0,
                         info={"max_min_normalized_throughput": zstar})
