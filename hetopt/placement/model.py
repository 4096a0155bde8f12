"""Pyomo and CVXPY models of Liu et al. 2024: P1 (eq. (8)), P2 (16)-(17), P3 (18).

Builders are pure functions of the instance.  Symbols follow the paper: ``sigma`` (sigma_{i,k}),
``pi`` (|pi_{i,k}|), ``lp`` (l_i^[p]), ``lc`` (l_i^[c]), ``rho``, ``Pi``, ``T``, ``D``.

P1 is shipped in two per-worker forms:

* ``form="minlp"``: the paper's direct form, with the products sigma |pi| of (8a), the straggler
  max of (3) and the ring bottleneck r_i^min of (5)-(6) as nonlinear constraints (SCIP).
* ``form="milp"``: an exact linearization for HiGHS.  (8a) becomes sum_k pi_{i,k} = |Pi_i| with
  pi_{i,k} <= |Pi_i| sigma_{i,k}; the straggler latency is lp_i >= pi_{i,k} / rho_{i,k} (exact:
  for fixed sigma the optimal split is the proportional one of (10)-(12)); K_i is encoded by a
  one-hot ``size`` variable, and r_i^min by a binary ``spans`` (the job uses a worker outside its
  ``home`` node); the product size x spans is linearized.  Since inter <= intra rate, every
  linearization is tight at the optimum, so the MILP optimum equals P1's.

:func:`build_p1_grouped` (in :mod:`hetopt.placement.grouped`, re-exported here) is the aggregated
model used by :func:`~hetopt.placement.solve_exact`: identical workers (same throughput column)
become one integer variable, and the convex computation latency |Pi_i| / V_i is either kept as a
nonlinear constraint (SCIP) or represented by tangent cuts added by outer approximation (HiGHS).
"""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo

from ..errors import InstanceError
from ..inputs import check_choice, takes_instance
from .categories import Category, check_category
from .grouped import add_tangent_cut, assignment_from_model, build_p1_grouped
from .instance import PlacementInstance

__all__ = ["build_p1", "build_p2", "build_p3", "build_p3_cvxpy", "build_p1_grouped", "add_tangent_cut", "assignment_from_model"]


def _base(inst: PlacementInstance, name: str) -> pyo.ConcreteModel:
    m = pyo.ConcreteModel(name=name)
    S, K = inst.n_jobs, inst.n_workers
    m.JOBS = pyo.Set(initialize=range(S), ordered=True, doc="learning jobs S")
    m.WORKERS = pyo.Set(initialize=range(K), ordered=True, doc="workers K")
    m.rho = pyo.Param(m.JOBS, m.WORKERS, initialize={(i, k): float(inst.throughput[i, k]) for i in range(S) for k in range(K)},
                      doc="rho_{i,k}: samples/s of job i on worker k")
    m.Pi = pyo.Param(m.JOBS, initialize={i: float(inst.dataset_size[i]) for i in range(S)}, doc="|Pi_i|: dataset size")
    m.T = pyo.Param(m.JOBS, initialize={i: float(inst.epochs[i]) for i in range(S)}, doc="T_i: epochs")
    m.D = pyo.Param(m.JOBS, initialize={i: float(inst.comm_coefficient[i] / 2) for i in range(S)}, doc="D_i: model size (bytes)")
    return m


def _add_job_units(m: pyo.ConcreteModel, inst: PlacementInstance) -> None:
    """Per-job units: ``rmax_i`` (fastest worker's samples/s) and ``tau_i = |Pi_i| / rmax_i`` (seconds)."""
    S = inst.n_jobs
    rmax = {i: float(inst.throughput[i].max()) for i in range(S)}
    m.rmax = pyo.Param(m.JOBS, initialize=rmax, doc="rmax_i: samples/s of job i on its fastest worker")
    m.tau = pyo.Param(m.JOBS, initialize={i: float(inst.dataset_size[i]) / rmax[i] for i in range(S)},
                      doc="tau_i = |Pi_i| / rmax_i: job i's unit of time")


def _add_comm_linear(m: pyo.ConcreteModel, inst: PlacementInstance, count: dict, uses_node) -> None:
    """l_i^[c] of (5)-(6), linearized: one-hot worker count, spans-nodes binary, product linearized.

    ``count[i]`` is the expression K_i; ``uses_node(i, h)`` yields (expression, capacity) pairs of
    workers of job i on node h, used in ``x <= cap (home_{i,h} + spans_i)``.
    """
    S, K = inst.n_jobs, inst.n_workers
    nmax = K - S + 1
    m.SIZES = pyo.RangeSet(1, nmax, doc="possible K_i")
    m.size = pyo.Var(m.JOBS, m.SIZES, domain=pyo.Binary, doc="size[i,n] = 1 iff K_i = n")
    m.size_onehot = pyo.Constraint(m.JOBS, rule=lambda m, i: sum(m.size[i, n] for n in m.SIZES) == 1,
                                   doc="(6) K_i takes exactly one value")
    m.size_count = pyo.Constraint(m.JOBS, rule=lambda m, i: sum(n * m.size[i, n] for n in m.SIZES) == count[i],
                                  doc="(6) K_i = sum_k sigma_{i,k}")
    inv_intra = float(inst.inverse_rate(False))
    if inst.multi_node:
        inv_inter = float(inst.inverse_rate(True))
        if uses_node is not None:
            nodes = sorted(set(int(h) for h in inst.nodes))
            m.NODES = pyo.Set(initialize=nodes, doc="nodes")
            m.home = pyo.Var(m.JOBS, m.NODES, domain=pyo.Binary, doc="home[i,h]: job i's home node")
            m.spans = pyo.Var(m.JOBS, domain=pyo.Binary, doc="spans_i = 1 if job i uses workers of two or more nodes")
            m.one_home = pyo.Constraint(m.JOBS, rule=lambda m, i: sum(m.home[i, h] for h in m.NODES) == 1,
                                        doc="(5) every job has one home node")
            m.bottleneck = pyo.ConstraintList(doc="(5) r_i^min is the inter-node rate if job i uses a worker off its home node")
            for i in range(S):
                for h in nodes:
                    for expr, cap in uses_node(i, h):
                        m.bottleneck.add(expr <= cap * (m.home[i, h] + m.spans[i]))
        m.size_spans = pyo.Var(m.JOBS, m.SIZES, bounds=(0, 1), doc="size[i,n] * spans[i]")
        m.size_spans_link = pyo.Constraint(m.JOBS, m.SIZES, rule=lambda m, i, n: m.size_spans[i, n] >= m.size[i, n] + m.spans[i] - 1,
                                           doc="(6) linearized product size x spans")
        m.comm_latency = pyo.Constraint(m.JOBS, rule=lambda m, i: m.lc[i] >= sum(
            2 * m.D[i] * (n - 1) / n * (inv_intra * m.size[i, n] + (inv_inter - inv_intra) * m.size_spans[i, n]) for n in m.SIZES),
            doc="(6) l_i^[c] = 2 (K_i - 1) D_i / (r_i^min K_i)")
    else:
        m.comm_latency = pyo.Constraint(m.JOBS, rule=lambda m, i: m.lc[i] >= sum(
            2 * m.D[i] * (n - 1) / n * inv_intra * m.size[i, n] for n in m.SIZES),
            doc="(6) l_i^[c] = 2 (K_i - 1) D_i / (r_i^min K_i)")


@takes_instance(PlacementInstance)
def build_p1(inst: PlacementInstance, form: str = "milp") -> pyo.ConcreteModel:
    """P1, eq. (8) with (8a)-(8d), per worker, with workload variables |pi_{i,k}|.

    Parameters
    ----------
    inst : PlacementInstance
    form : {"milp", "minlp"}
        "minlp": the paper's direct nonlinear form (solve with SCIP).  "milp": the exact
        linearization (HiGHS); see the module docstring.

    Returns
    -------
    pyomo.environ.ConcreteModel
        Objective ``average_jct`` (8); variables ``sigma``, ``pi``, ``lp``, ``lc`` (``lc`` only with
        communication).
    """
    check_choice(form, "form", ("milp", "minlp"))
    S, K = inst.n_jobs, inst.n_workers
    m = _base(inst, f"P1 ({form})")
    m.sigma = pyo.Var(m.JOBS, m.WORKERS, domain=pyo.Binary, doc="sigma_{i,k} = 1 iff worker k trains job i")
    _add_job_units(m, inst)
    # Per-job units (scaling): frac = |pi| / |Pi_i| in [0, 1] and u = l^[p] / tau_i, so no coefficient
    # carries a sample count (1e5-1e7); |pi| and l^[p] are kept as expressions in the paper's units.
    m.frac = pyo.Var(m.JOBS, m.WORKERS, bounds=(0, 1), doc="|pi_{i,k}| / |Pi_i|: share of job i's samples on worker k")
    m.pi = pyo.Expression(m.JOBS, m.WORKERS, rule=lambda m, i, k: m.Pi[i] * m.frac[i, k], doc="|pi_{i,k}|: samples of job i on worker k")
    m.u = pyo.Var(m.JOBS, bounds=lambda m, i: (0, m.rmax[i] / float(inst.throughput[i].min())), doc="l_i^[p] / tau_i")
    m.lp = pyo.Expression(m.JOBS, rule=lambda m, i: m.tau[i] * m.u[i], doc="l_i^[p]: computation latency of an epoch")
    comm = inst.has_communication
    if comm:
        m.lc = pyo.Var(m.JOBS, domain=pyo.NonNegativeReals, doc="l_i^[c]: communication latency of an epoch")
    if form == "minlp":
        m.samples_assigned = pyo.Constraint(m.JOBS, rule=lambda m, i: sum(m.sigma[i, k] * m.frac[i, k] for k in m.WORKERS) == 1,
                                            doc="(8a) all samples of job i are assigned (in shares of |Pi_i|)")
        m.straggler = pyo.Constraint(m.JOBS, m.WORKERS, rule=lambda m, i, k: m.u[i] >= m.sigma[i, k] * m.frac[i, k] * (m.rmax[i] / m.rho[i, k]),
                                     doc="(2)-(3) l_i^[p] = max_k |pi_{i,k}| / rho_{i,k} sigma_{i,k} (in units of tau_i)")
    else:
        m.samples_assigned = pyo.Constraint(m.JOBS, rule=lambda m, i: sum(m.frac[i, k] for k in m.WORKERS) == 1,
                                            doc="(8a) all samples of job i are assigned (linearized, in shares of |Pi_i|)")
        m.samples_on_selected = pyo.Constraint(m.JOBS, m.WORKERS, rule=lambda m, i, k: m.frac[i, k] <= m.sigma[i, k],
                                               doc="(8a) samples only on selected workers (linearized sigma |pi|)")
        m.straggler = pyo.Constraint(m.JOBS, m.WORKERS, rule=lambda m, i, k: m.u[i] >= m.frac[i, k] * (m.rmax[i] / m.rho[i, k]),
                                     doc="(2)-(3) l_i^[p] = max_k |pi_{i,k}| / rho_{i,k} (in units of tau_i)")
    m.at_least_one = pyo.Constraint(m.JOBS, rule=lambda m, i: sum(m.sigma[i, k] for k in m.WORKERS) >= 1,
                                    doc="(8b) every job gets at least one worker")
    m.all_workers = pyo.Constraint(expr=sum(m.sigma[i, k] for i in m.JOBS for k in m.WORKERS) == K,
                                   doc="(8c) all workers participate")
    m.one_job = pyo.Constraint(m.WORKERS, rule=lambda m, k: sum(m.sigma[i, k] for i in m.JOBS) <= 1,
                               doc="(8d) a worker trains at most one job")
    if comm:
        if form == "minlp":
            _add_comm_direct(m, inst)
        else:
            count = {i: sum(m.sigma[i, k] for k in m.WORKERS) for i in range(S)}
            node_of = inst.nodes
            _add_comm_linear(m, inst, count, lambda i, h: [(m.sigma[i, k], 1) for k in range(K) if node_of[k] == h])
    m.average_jct = pyo.Objective(
        expr=sum(m.T[i] * (m.lp[i] + (m.lc[i] if comm else 0)) for i in m.JOBS) / S, sense=pyo.minimize,
        doc="(8) average JCT (1/S) sum_i T_i (l_i^[p] + l_i^[c])")
    return m


def _add_comm_direct(m: pyo.ConcreteModel, inst: PlacementInstance) -> None:
    """(5)-(6) in direct form: r_i^min as a variable bounded by every selected pair's rate."""
    intra = inst.intra_node_rate
    inter = inst.inter_node_rate if inst.multi_node else intra
    if intra is None or inter is None:  # unreachable: the instance requires the rates with communication
        raise InstanceError("intra_node_rate and inter_node_rate are required when model_size is given")
    K = inst.n_workers
    m.r_min = pyo.Var(m.JOBS, bounds=(inter, intra), doc="r_i^min: bottleneck rate of job i's ring")
    m.bottleneck = pyo.ConstraintList(doc="(5) r_i^min = min over selected worker pairs of r_{k,k'}")
    nodes = inst.nodes
    for i in m.JOBS:
        for k in range(K):
            for k2 in range(k + 1, K):
                if nodes[k] != nodes[k2]:
                    m.bottleneck.add(m.r_min[i] <= inter + (intra - inter) * (2 - m.sigma[i, k] - m.sigma[i, k2]))
    m.comm_latency = pyo.Constraint(m.JOBS, rule=lambda m, i: m.lc[i] * m.r_min[i] * sum(m.sigma[i, k] for k in m.WORKERS)
                                    >= 2 * m.D[i] * (sum(m.sigma[i, k] for k in m.WORKERS) - 1),
                                    doc="(6) l_i^[c] = 2 (K_i - 1) D_i / (r_i^min K_i)")


@takes_instance(PlacementInstance)
def build_p2(inst: PlacementInstance, category: Category) -> pyo.ConcreteModel:
    """P2, eqs. (16)-(17): P1 with the worker counts fixed to a category (direct form, SCIP).

    The computation latency |Pi_i| / sum_k sigma rho of (16) is the nonlinear constraint
    ``lp_i * V_i >= |Pi_i|``; the communication term is linear in the binary ``spans``.
    """
    cat = check_category(inst, category)
    S = inst.n_jobs
    m = _base(inst, "P2")
    m.Kcat = pyo.Param(m.JOBS, initialize={i: int(cat[i]) for i in range(S)}, doc="K_i of the category")
    m.sigma = pyo.Var(m.JOBS, m.WORKERS, domain=pyo.Binary, doc="sigma_{i,k}")
    _add_job_units(m, inst)
    m.u = pyo.Var(m.JOBS, bounds=lambda m, i: (0, m.rmax[i] / float(inst.throughput[i].min())), doc="l_i^[p] / tau_i")
    m.lp = pyo.Expression(m.JOBS, rule=lambda m, i: m.tau[i] * m.u[i], doc="l_i^[p]")
    m.workers_per_job = pyo.Constraint(m.JOBS, rule=lambda m, i: sum(m.sigma[i, k] for k in m.WORKERS) == m.Kcat[i],
                                       doc="(17) job i gets K_i workers")
    m.one_job = pyo.Constraint(m.WORKERS, rule=lambda m, k: sum(m.sigma[i, k] for i in m.JOBS) <= 1,
                               doc="(8d) a worker trains at most one job")
    m.computation = pyo.Constraint(m.JOBS, rule=lambda m, i: m.u[i] * sum(m.sigma[i, k] * (m.rho[i, k] / m.rmax[i]) for k in m.WORKERS) >= 1,
                                   doc="(16) l_i^[p] = |Pi_i| / sum_k sigma_{i,k} rho_{i,k} (in units of tau_i)")
    comm_terms = {i: 0.0 for i in range(S)}
    if inst.has_communication:
        inv_intra = float(inst.inverse_rate(False))
        if inst.multi_node:
            inv_inter = float(inst.inverse_rate(True))
            nodes = sorted(set(int(h) for h in inst.nodes))
            m.NODES = pyo.Set(initialize=nodes)
            m.home = pyo.Var(m.JOBS, m.NODES, domain=pyo.Binary, doc="home node of job i")
            m.spans = pyo.Var(m.JOBS, domain=pyo.Binary, doc="job i spans two or more nodes")
            m.one_home = pyo.Constraint(m.JOBS, rule=lambda m, i: sum(m.home[i, h] for h in m.NODES) == 1, doc="(5) one home node")
            m.bottleneck = pyo.Constraint(m.JOBS, m.WORKERS, rule=lambda m, i, k: m.sigma[i, k] <= m.home[i, int(inst.nodes[k])] + m.spans[i],
                                          doc="(5) r_i^min is the inter-node rate if job i leaves its home node")
            for i in range(S):
                c = inst.comm_coefficient[i] * (cat[i] - 1) / cat[i]
                comm_terms[i] = c * (inv_intra + (inv_inter - inv_intra) * m.spans[i])
        else:
            for i in range(S):
                comm_terms[i] = inst.comm_coefficient[i] * (cat[i] - 1) / cat[i] * inv_intra
    m.average_jct = pyo.Objective(expr=sum(m.T[i] * (comm_terms[i] + m.lp[i]) for i in m.JOBS) / S, sense=pyo.minimize,
                              doc="(16) average JCT of the category")
    return m


@takes_instance(PlacementInstance)
def build_p3(inst: PlacementInstance, category: Category) -> pyo.ConcreteModel:
    """P3, eq. (18): maximize total throughput sum sigma rho for a category.

    A transportation ILP, totally unimodular, so its LP relaxation is integral.
    """
    cat = check_category(inst, category)
    S = inst.n_jobs
    m = _base(inst, "P3")
    m.Kcat = pyo.Param(m.JOBS, initialize={i: int(cat[i]) for i in range(S)}, doc="K_i of the category")
    m.sigma = pyo.Var(m.JOBS, m.WORKERS, domain=pyo.Binary, doc="sigma_{i,k}")
    m.workers_per_job = pyo.Constraint(m.JOBS, rule=lambda m, i: sum(m.sigma[i, k] for k in m.WORKERS) == m.Kcat[i],
                                       doc="(17) job i gets K_i workers")
    m.one_job = pyo.Constraint(m.WORKERS, rule=lambda m, k: sum(m.sigma[i, k] for i in m.JOBS) <= 1,
                               doc="(8d) a worker trains at most one job")
    m.total_throughput = pyo.Objective(expr=sum(m.sigma[i, k] * m.rho[i, k] for i in m.JOBS for k in m.WORKERS),
                                       sense=pyo.maximize, doc="(18) total training throughput V")
    return m


@takes_instance(PlacementInstance)
def build_p3_cvxpy(inst: PlacementInstance, category: Category):
    """P3 (18) as a CVXPY LP over sigma in [0, 1]^{S x K} (exact: the constraint matrix is TU).

    Constraints are labelled with their equation numbers; ``rho`` is a ``cp.Parameter`` so the
    problem can be re-solved for new throughputs.
    """
    import cvxpy as cp

    cat = check_category(inst, category)
    S, K = inst.n_jobs, inst.n_workers
    rho = cp.Parameter((S, K), value=np.array(inst.throughput), name="rho", nonneg=True)
    sigma = cp.Variable((S, K), name="sigma")
    cons = [
        (cp.sum(sigma, axis=1) == cat).set_label("(17) workers_per_job"),
        (cp.sum(sigma, axis=0) <= 1).set_label("(8d) one_job"),
        (sigma >= 0).set_label("sigma_lower"),
        (sigma <= 1).set_label("sigma_upper"),
    ]
    return cp.Problem(cp.Maximize(cp.sum(cp.multiply(rho, sigma))), cons)
