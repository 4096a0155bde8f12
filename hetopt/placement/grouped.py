"""P1 over classes of identical workers (:func:`build_p1_grouped`) and the scaled master of ``solve_exact``.

Workers with the same throughput column form a class g (n_g workers); ``x[i, g]`` of them go to job i.
The model is written in the units of a :class:`~hetopt.placement.grouped_scale.GroupedScale`
(exact with :meth:`~hetopt.placement.grouped_scale.GroupedScale.plain`, a clipped relaxation
around an achieved value with ``around``). With communication on several nodes, a job is
single-node (all its workers on one home node) or multi-node, with symmetry breaking among
identical nodes. The units, the clipping rules and their proofs: the card
(models/liu2024-placement.md, "Exact engines at every magnitude").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pyomo.environ as pyo

from ..errors import ArgumentError, SolverError
from ..inputs import MAX_GENERATED, check_choice, check_size, takes_instance
from .grouped_scale import CAP, Q_FLOOR, GroupedScale, throughput_range
from .instance import PlacementInstance

if TYPE_CHECKING:
    from .exact_bounds import SizeBounds

__all__ = ["build_p1_grouped", "build_master", "add_tangent_cut", "assignment_from_model", "load_assignment",
           "model_size_estimate", "tangent_point"]


def _groups(inst: PlacementInstance) -> tuple[np.ndarray, list[np.ndarray]]:
    return inst.worker_groups(by_node=False)


def _homes(inst: PlacementInstance, labels: np.ndarray, G: int) -> tuple[list[int], dict[int, np.ndarray], dict]:
    nodes = sorted(set(int(h) for h in inst.nodes))
    cap = {h: np.bincount(labels[inst.nodes == h], minlength=G) for h in nodes}
    by_comp: dict[tuple, list[int]] = {}
    for h in nodes:
        by_comp.setdefault(tuple(cap[h].tolist()), []).append(h)
    homes = sorted(h for hs in by_comp.values() for h in hs[:inst.n_jobs])
    return homes, cap, by_comp


def model_size_estimate(inst: PlacementInstance, kept_sizes: int | None = None) -> dict[str, int]:
    """Variables and constraints of :func:`build_master` before it is built.

    ``kept_sizes`` is the number of (job, worker count) pairs the model keeps (default all,
    S (K - S + 1); fewer after pruning).  Counts every variable and row the builder creates
    (tangent cuts excluded): the size guard of ``solve_exact`` compares them with its limits
    before building anything, and its time limit with the time a build of that size takes.
    """
    S, K = inst.n_jobs, inst.n_workers
    labels, members = _groups(inst)
    G = len(members)
    n = S * (K - S + 1) if kept_sizes is None else int(kept_sizes)
    variables = S * G + 2 * S  # x, Vn, thn
    rows = 3 * S + G  # throughput, at least one, all workers (G), ...
    if inst.has_communication:
        variables += S + n  # lc, size
        rows += 3 * S  # one-hot, count, latency
        if inst.multi_node:
            homes, _, _ = _homes(inst, labels, G)
            H = len(homes)
            variables += S * H + S + S * H * G + S * G + n  # home, spans, y, w, size_spans
            rows += S + S * G + S * H * G + S * G + H * G + n
    return {"variables": int(variables), "constraints": int(rows)}


@takes_instance(PlacementInstance)
def build_p1_grouped(inst: PlacementInstance, computation: str = "cuts", tangent_points: int = 8,
                     cut_range: tuple[np.ndarray, np.ndarray] | None = None) -> pyo.ConcreteModel:
    """P1 over classes of identical workers, exact, for large clusters (in seconds; the card).

    ``x[i, g]`` workers of class g go to job i, V_i = sum_g rho_{i,g} x_{i,g}.  The computation
    latency theta_i >= |Pi_i| / V_i is either the nonlinear constraint ``theta_i V_i >= |Pi_i|``
    (``computation="nonlinear"``, SCIP) or tangent cuts of the convex |Pi_i| / V at
    ``tangent_points`` points (``computation="cuts"``, HiGHS; outer approximation adds more,
    :func:`add_tangent_cut`), geometrically spaced over V_i's range or over ``cut_range``
    (per-job low and high throughputs in samples/s; any points give valid cuts).
    """
    check_choice(computation, "computation", ("cuts", "nonlinear"))
    tangent_points = check_size(tangent_points, "tangent_points", maximum=MAX_GENERATED)
    if cut_range is not None:
        try:
            lo, hi = (np.asarray(c, dtype=float) for c in cut_range)
        except (TypeError, ValueError):
            lo = hi = np.zeros(0)
        if lo.shape != (inst.n_jobs,) or hi.shape != (inst.n_jobs,) or not (np.isfinite(lo) & (lo > 0) & (hi >= lo)).all():
            raise ArgumentError(f"cut_range is {cut_range!r}; expected (low, high): two arrays of {inst.n_jobs} "
                                "finite throughputs > 0 (samples/s), low <= high")
    return build_master(inst, GroupedScale.plain(inst), computation=computation, tangent_points=tangent_points,
                        cut_range=cut_range)


def build_master(inst: PlacementInstance, scale: GroupedScale, *, computation: str = "cuts", tangent_points: int = 8,
                 cut_range: tuple[np.ndarray, np.ndarray] | None = None,
                 bounds: SizeBounds | None = None) -> pyo.ConcreteModel:
    """The grouped model of P1 in the units of ``scale`` (the card, models/liu2024-placement.md).

    ``bounds`` (:func:`~hetopt.placement.exact_bounds.size_bounds` of an achieved value) keeps only
    the worker counts they allow (one ``size`` binary per allowed count), bounds ``Vn`` by them and
    adds the valid rows ``sum_n vmin_i(n) size[i, n] <= V_i <= sum_n Vtop_i(n) size[i, n]``.
    ``cut_range`` is in samples/s.
    """
    S, K = inst.n_jobs, inst.n_workers
    labels, members = _groups(inst)
    G = len(members)
    rep = [int(ws[0]) for ws in members]
    nu = scale.nu
    m = pyo.ConcreteModel(name=f"P1 grouped ({computation})")
    m._scale = scale
    m._groups = members
    m._homes = []
    m._cut_points = set()
    m.JOBS = pyo.Set(initialize=range(S), ordered=True, doc="learning jobs S")
    m.GROUPS = pyo.Set(initialize=range(G), ordered=True, doc="classes of identical workers")
    m.n = pyo.Param(m.GROUPS, initialize={g: len(members[g]) for g in range(G)}, doc="workers in class g")
    q, capped = scale.throughput_coefficients(inst, rep)
    m.q = pyo.Param(m.JOBS, m.GROUPS, initialize={(i, g): float(q[i, g]) for i in range(S) for g in range(G)},
                    doc="rho_{i,g} / nu_i (clipped in the solver's master)")
    m.nu = pyo.Param(m.JOBS, initialize={i: float(nu[i]) for i in range(S)}, doc="nu_i: job i's unit of throughput (samples/s)")
    s = scale.objective_weights(inst)
    m.s = pyo.Param(m.JOBS, initialize={i: float(s[i]) for i in range(S)}, doc="T_i |Pi_i| / (S unit nu_i)")
    m.x = pyo.Var(m.JOBS, m.GROUPS, domain=pyo.NonNegativeIntegers, bounds=lambda m, i, g: (0, m.n[g]),
                  doc="workers of class g assigned to job i (sum of sigma_{i,k} over the class)")
    vlo, vhi = throughput_range(inst, bounds)
    sizes = [np.arange(1, K - S + 2) for _ in range(S)] if bounds is None else [bounds.sizes(i) for i in range(S)]
    lo, hi = vlo / nu, vhi / nu
    if scale.clip:
        lo = np.minimum(np.maximum(lo, scale.w_lo), scale.q_cap())
    lo = np.minimum(lo, hi)
    m.Vn = pyo.Var(m.JOBS, bounds=lambda m, i: (float(lo[i]), float(hi[i])), doc="V_i / nu_i")
    m.V = pyo.Expression(m.JOBS, rule=lambda m, i: m.nu[i] * m.Vn[i], doc="V_i: training throughput (13)")
    th_hi = np.where(lo > 0, 1 / np.maximum(lo, 1e-300), np.inf)
    if scale.clip:
        th_hi = np.minimum(th_hi, np.where(s > 0, CAP / np.maximum(s, 1e-300), np.inf))
        if computation == "cuts":  # no cut exceeds 2 / w_lo: a bound that never binds, and keeps the master bounded
            th_hi = np.minimum(th_hi, 2 / scale.w_lo)
    m.thn = pyo.Var(m.JOBS, bounds=lambda m, i: (min(float(1 / hi[i]), float(th_hi[i])),
                                                 float(th_hi[i]) if np.isfinite(th_hi[i]) else None),
                    doc="l_i^[p] / (|Pi_i| / nu_i)")
    if scale.clip:
        m.throughput_def = pyo.Constraint(m.JOBS, rule=lambda m, i: m.Vn[i] <= sum(m.q[i, g] * m.x[i, g] for g in m.GROUPS),
                                          doc="(13) V_i = sum_k sigma_{i,k} rho_{i,k} (in units of nu_i, relaxed to <=)")
    else:
        m.throughput_def = pyo.Constraint(m.JOBS, rule=lambda m, i: m.Vn[i] == sum(m.q[i, g] * m.x[i, g] for g in m.GROUPS),
                                          doc="(13) V_i = sum_k sigma_{i,k} rho_{i,k} (in units of nu_i)")
    m.at_least_one = pyo.Constraint(m.JOBS, rule=lambda m, i: sum(m.x[i, g] for g in m.GROUPS) >= 1, doc="(8b) at least one worker")
    m.all_workers = pyo.Constraint(m.GROUPS, rule=lambda m, g: sum(m.x[i, g] for i in m.JOBS) == m.n[g],
                                   doc="(8c)-(8d) every worker of the class trains exactly one job")
    if computation == "nonlinear":
        qcap = scale.q_cap()
        kappa = {i: (1.0 / qcap[i] if capped[i] else 0.0) for i in range(S)}
        m.computation = pyo.Constraint(m.JOBS, rule=lambda m, i: (m.thn[i] + kappa[i]) * m.Vn[i] >= 1,
                                       doc="(11) l_i^[p] V_i >= |Pi_i| (in job units)")
    else:
        m.cuts = pyo.ConstraintList(doc="(11) tangent cuts of |Pi_i| / V_i (outer approximation)")
        c_lo, c_hi = (lo, hi) if cut_range is None else (np.asarray(cut_range[0]) / nu, np.asarray(cut_range[1]) / nu)
        if scale.clip:
            c_lo, c_hi = np.maximum(c_lo, scale.w_lo), np.minimum(c_hi, scale.w_hi)
        for i in range(S):
            a, b = max(float(c_lo[i]), float(lo[i])), max(float(c_hi[i]), float(c_lo[i]))
            for w in np.geomspace(max(a, 1e-300), max(b, a, 1e-300), max(2, tangent_points)):
                add_tangent_cut(m, i, float(w) * float(nu[i]))
    if inst.has_communication:
        _add_communication(m, inst, scale, labels, sizes)
    if bounds is not None:
        _add_size_rows(m, inst, bounds, sizes, scale)
    comm = inst.has_communication
    m.average_jct = pyo.Objective(expr=scale.weight * sum(m.s[i] * m.thn[i] + (m.lc[i] if comm else 0) for i in m.JOBS),
                                  sense=pyo.minimize, doc="(8)/(14) average JCT / unit (times the scale's weight)")
    return m


def _add_communication(m: pyo.ConcreteModel, inst: PlacementInstance, scale: GroupedScale, labels: np.ndarray,
                       sizes: list[np.ndarray]) -> None:
    """(5)-(6): worker count one-hot over the kept counts, modes of every job, lc_i in objective units."""
    S, G = inst.n_jobs, len(m._groups)
    pairs = [(i, int(n)) for i in range(S) for n in sizes[i]]
    m.SIZES = pyo.Set(initialize=pairs, dimen=2, ordered=True, doc="possible K_i of each job (pairs i, n)")
    m.lc = pyo.Var(m.JOBS, domain=pyo.NonNegativeReals, doc="T_i l_i^[c] / (S unit): communication term of job i")
    m.size = pyo.Var(m.SIZES, domain=pyo.Binary, doc="size[i,n] = 1 iff K_i = n")
    m.size_onehot = pyo.Constraint(m.JOBS, rule=lambda m, i: sum(m.size[i, int(n)] for n in sizes[i]) == 1,
                                   doc="(6) K_i takes exactly one value")
    m.size_count = pyo.Constraint(m.JOBS, rule=lambda m, i: sum(int(n) * m.size[i, int(n)] for n in sizes[i])
                                  == sum(m.x[i, g] for g in m.GROUPS), doc="(6) K_i = sum_k sigma_{i,k}")
    coef = {}
    for i in range(S):
        b, beta = scale.comm_coefficients(inst, i, sizes[i])
        for j, n in enumerate(sizes[i]):
            coef[i, int(n)] = (float(b[j]), float(beta[j]))
    if inst.multi_node:
        _add_node_modes(m, inst, labels, G)
        m.size_spans = pyo.Var(m.SIZES, bounds=(0, 1), doc="size[i,n] * spans[i]")
        m.size_spans_link = pyo.Constraint(m.SIZES, rule=lambda m, i, n: m.size_spans[i, n] >= m.size[i, n] + m.spans[i] - 1,
                                           doc="(6) linearized product size x spans")
        m.comm_latency = pyo.Constraint(m.JOBS, rule=lambda m, i: m.lc[i] >= sum(
            coef[i, int(n)][0] * m.size[i, int(n)] + coef[i, int(n)][1] * m.size_spans[i, int(n)] for n in sizes[i]),
            doc="(6) l_i^[c] = 2 (K_i - 1) D_i / (r_i^min K_i) (objective units)")
    else:
        m.comm_latency = pyo.Constraint(m.JOBS, rule=lambda m, i: m.lc[i] >= sum(
            coef[i, int(n)][0] * m.size[i, int(n)] for n in sizes[i]),
            doc="(6) l_i^[c] = 2 (K_i - 1) D_i / (r_i^min K_i) (objective units)")


def _add_size_rows(m: pyo.ConcreteModel, inst: PlacementInstance, bounds: SizeBounds, sizes: list[np.ndarray],
                   scale: GroupedScale) -> None:
    """Valid rows of :class:`~hetopt.placement.exact_bounds.SizeBounds` (see :func:`build_master`)."""
    if not hasattr(m, "size"):
        return
    nu = scale.nu
    m.size_throughput = pyo.ConstraintList(doc="V_i between the allowed bounds for its count (valid rows)")
    for i in range(inst.n_jobs):
        ns = sizes[i]
        low = bounds.vmin[i, ns - 1] / nu[i]
        if scale.clip:  # a lower row may only get weaker: cap, and drop what HiGHS would drop anyway
            low = np.where(low < Q_FLOOR, 0.0, np.minimum(low, scale.q_cap()[i]))
        m.size_throughput.add(m.Vn[i] >= sum(float(v) * m.size[i, int(n)] for v, n in zip(low, ns, strict=True)))
        m.size_throughput.add(m.Vn[i] <= sum(float(v) / nu[i] * (1 + 1e-9) * m.size[i, int(n)]
                                             for v, n in zip(bounds.vtop[i, ns - 1], ns, strict=True)))
    if hasattr(m, "home"):
        per_node = np.bincount(inst.nodes)
        for i in range(inst.n_jobs):
            least = int(sizes[i][0])
            for h in m.HOMES:
                if per_node[h] < least:
                    m.home[i, h].fix(0)
            if all(m.home[i, h].fixed for h in m.HOMES):
                m.spans[i].fix(1)


def _add_node_modes(m: pyo.ConcreteModel, inst: PlacementInstance, labels: np.ndarray, G: int) -> None:
    """Single-node / multi-node modes of every job (see the card)."""
    S = inst.n_jobs
    homes, cap, by_comp = _homes(inst, labels, G)
    m._homes = homes
    m.HOMES = pyo.Set(initialize=homes, ordered=True, doc="candidate home nodes (first S of each node composition)")
    m.home = pyo.Var(m.JOBS, m.HOMES, domain=pyo.Binary, doc="home[i,h] = 1: job i runs on node h only")
    m.spans = pyo.Var(m.JOBS, domain=pyo.Binary, doc="spans_i = 1: job i may use workers of several nodes")
    m.y = pyo.Var(m.JOBS, m.HOMES, m.GROUPS, domain=pyo.NonNegativeIntegers,
                  bounds=lambda m, i, h, g: (0, int(cap[h][g])), doc="workers of class g on node h for single-node job i")
    m.w = pyo.Var(m.JOBS, m.GROUPS, domain=pyo.NonNegativeIntegers, bounds=lambda m, i, g: (0, m.n[g]),
                  doc="workers of class g for multi-node job i")
    m.one_mode = pyo.Constraint(m.JOBS, rule=lambda m, i: sum(m.home[i, h] for h in m.HOMES) + m.spans[i] == 1,
                                doc="(5) job i is single-node on one home node or multi-node")
    m.split = pyo.Constraint(m.JOBS, m.GROUPS, rule=lambda m, i, g: m.x[i, g] == sum(m.y[i, h, g] for h in m.HOMES) + m.w[i, g],
                             doc="(5) workers of job i by mode")
    m.home_only = pyo.Constraint(m.JOBS, m.HOMES, m.GROUPS, rule=lambda m, i, h, g: m.y[i, h, g] <= int(cap[h][g]) * m.home[i, h],
                                 doc="(5) a single-node job uses its home node only")
    m.multi_only = pyo.Constraint(m.JOBS, m.GROUPS, rule=lambda m, i, g: m.w[i, g] <= m.n[g] * m.spans[i],
                                  doc="(5) only multi-node jobs use workers of any node")
    m.node_capacity = pyo.Constraint(m.HOMES, m.GROUPS, rule=lambda m, h, g: sum(m.y[i, h, g] for i in m.JOBS) <= int(cap[h][g]),
                                     doc="(8d) single-node jobs fit in their node")
    m.symmetry = pyo.ConstraintList(doc="order identical candidate home nodes (symmetry breaking)")
    for hs in by_comp.values():
        hs = hs[:S]
        for a, b in zip(hs, hs[1:], strict=False):
            m.symmetry.add(sum(2**i * m.home[i, a] for i in range(S)) >= sum(2**i * m.home[i, b] for i in range(S)))


def tangent_point(m: pyo.ConcreteModel, i: int, v: float) -> float | None:
    """The point ``w = v / nu_i`` of a new tangent cut of job i, recorded in ``m._cut_points``; None if not new.

    In a clipped master the point is moved into ``[w_lo_i, w_hi_i]`` (a tangent anywhere is valid).
    """
    w = float(v) / float(pyo.value(m.nu[i]))
    scale = m._scale
    if scale.clip:
        w = min(max(w, float(scale.w_lo[i])), float(scale.w_hi[i]))
    if not w > 0:
        return None
    key = (i, float(f"{w:.12g}"))
    if key in m._cut_points:
        return None
    m._cut_points.add(key)
    return key[1]


def add_tangent_cut(m: pyo.ConcreteModel, i: int, v: float) -> bool:
    """Add thn_i >= 1 / w - (Vn_i - w) / w^2, the tangent of the convex |Pi_i| / V at ``v`` (samples/s).

    ``w`` is :func:`tangent_point`'s.  Returns False when that cut is already in the model (nothing added).
    """
    w = tangent_point(m, i, v)
    if w is None:
        return False
    m.cuts.add(m.thn[i] >= 2.0 / w - m.Vn[i] / w**2)
    return True


@takes_instance(PlacementInstance)
def assignment_from_model(inst: PlacementInstance, m: pyo.ConcreteModel) -> np.ndarray:
    """Worker-level assignment from a solved model (``sigma`` per worker, or ``x`` per group).

    For grouped models, each job takes the lowest-index workers of each group in job order.

    Raises
    ------
    SolverError
        The solved values do not describe an assignment of every worker (a solver that returned an
        inconsistent point).
    """
    K = inst.n_workers
    a = np.full(K, -1, dtype=int)
    if hasattr(m, "sigma"):
        for k in range(K):
            vals = [pyo.value(m.sigma[i, k]) for i in range(inst.n_jobs)]
            a[k] = int(np.argmax(vals))
        return a
    S = inst.n_jobs
    for g, ws in enumerate(m._groups):
        if getattr(m, "_homes", None):  # single-node jobs first, on their home node; multi-node jobs take the rest
            for i in range(S):
                for h in m._homes:
                    c = int(round(pyo.value(m.y[i, h, g])))
                    if c:
                        free = [k for k in ws if a[k] < 0 and inst.nodes[k] == h]
                        a[free[:c]] = i
            for i in range(S):
                c = int(round(pyo.value(m.w[i, g])))
                free = [k for k in ws if a[k] < 0]
                a[free[:c]] = i
            continue
        pos = 0
        for i in range(S):
            c = int(round(pyo.value(m.x[i, g])))
            a[ws[pos:pos + c]] = i
            pos += c
    if (a < 0).any() or np.bincount(a[a >= 0], minlength=S).min() == 0:
        raise SolverError("grouped solution does not assign every worker to a job with every job served")
    return a


def load_assignment(inst: PlacementInstance, m: pyo.ConcreteModel, assignment: np.ndarray) -> bool:
    """Set the model's integer variables to the image of a worker-level ``assignment`` (a solver's warm start).

    A job whose workers share a node that is a candidate home becomes single-node there, every other
    job multi-node; the continuous variables get their least values for those.  Returns False when
    the assignment has no image (a single-node job on a node that is not a candidate home, or a count
    the model does not keep): the model is then left without a start.
    """
    a = np.asarray(assignment)
    S = inst.n_jobs
    label = np.empty(inst.n_workers, dtype=int)
    for g, ws in enumerate(m._groups):
        label[ws] = g
    values: dict[int, tuple[Any, int]] = {}
    homes = set(m._homes)
    for i in range(S):
        ks = np.flatnonzero(a == i)
        counts = np.bincount(label[ks], minlength=len(m._groups))
        nodes = set(inst.nodes[ks].tolist())
        home = next(iter(nodes)) if len(nodes) == 1 and next(iter(nodes)) in homes else None
        for g in m.GROUPS:
            values[id(m.x[i, g])] = (m.x[i, g], int(counts[g]))
        if hasattr(m, "home"):
            values[id(m.spans[i])] = (m.spans[i], 0 if home is not None else 1)
            for h in m.HOMES:
                values[id(m.home[i, h])] = (m.home[i, h], int(h == home))
                for g in m.GROUPS:
                    values[id(m.y[i, h, g])] = (m.y[i, h, g], int(counts[g]) if h == home else 0)
            for g in m.GROUPS:
                values[id(m.w[i, g])] = (m.w[i, g], 0 if home is not None else int(counts[g]))
        if hasattr(m, "size"):
            if (i, len(ks)) not in m.SIZES:
                return False
            for (j, n) in m.SIZES:
                if j == i:
                    values[id(m.size[j, n])] = (m.size[j, n], int(n == len(ks)))
                    if hasattr(m, "size_spans"):
                        values[id(m.size_spans[j, n])] = (m.size_spans[j, n], int(n == len(ks) and home is None))
    for v, val in values.values():
        if v.fixed and v.value != val:  # a variable fixed by pruning excludes this point
            return False
    for v, val in values.values():
        v.set_value(val, skip_validation=True)
    _complete(m, inst)
    return True


def _complete(m: pyo.ConcreteModel, inst: PlacementInstance) -> None:
    """The continuous variables at their least values for the integer values set (a full warm start)."""
    points: dict[int, list[float]] = {}
    for (j, w) in getattr(m, "_cut_points", ()):  # by job once (a scan per job was S^2 tangent_points)
        points.setdefault(j, []).append(w)
    for i in range(inst.n_jobs):
        v = sum(float(pyo.value(m.q[i, g])) * float(m.x[i, g].value) for g in m.GROUPS)
        lo, hi = m.Vn[i].bounds
        m.Vn[i].set_value(min(max(v, lo or 0.0), hi if hi is not None else v), skip_validation=True)
        vn = float(m.Vn[i].value)
        lb = m.thn[i].lb or 0.0
        if hasattr(m, "cuts"):
            pts = points.get(i, [])
            th = max([lb, *(2.0 / w - vn / w**2 for w in pts)])
        else:
            th = max(lb, 1.0 / vn if vn > 0 else lb)
        m.thn[i].set_value(min(th, m.thn[i].ub) if m.thn[i].ub is not None else th, skip_validation=True)
        if hasattr(m, "lc"):
            m.lc[i].set_value(0.0, skip_validation=True)
            m.lc[i].set_value(max(0.0, float(pyo.value(m.comm_latency[i].body))), skip_validation=True)
