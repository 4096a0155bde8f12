"""Matching markets for one category (Algorithm 2, eqs. (19)-(23)) and direct P3 optima.

Workers are sellers and jobs are buyers.  For a category (K_1, ..., K_S), every job prefers the
K_i workers of largest valuation Gamma_{i,k} = rho_{i,k} - p_k (the *preferred graph*); workers
chosen by two or more jobs form the *constricted set*.  While it is not empty, the price of one
competed worker k rises by max{1, max_{i in S_c} (V_i - V_i^k)} (eq. (22)), where V_i is the sum
of job i's K_i best valuations (20) and V_i^k the same sum without worker k (21).

When no worker is competed, every job holds a set of K_i workers that is best for it at the
current prices; since every worker is sold, the assignment maximizes total throughput (P3,
Theorem 2: for any other assignment sigma', sum (rho - p) over sigma' <= sum (rho - p) over
sigma and both pay all prices).  :func:`p3_assignment` computes a P3 optimum directly (Hungarian
algorithm on the K x K matrix of job slots x workers, scipy) and :func:`p3_optimum` with the
P3 model; the tests check all three agree.

Decisions where the paper is silent: ties in ``preferred_graph`` are broken by the lower worker
index; line 6 ("select k in K_c") takes the lowest-index competed worker; prices start at 0 for
every category (the paper's initialization).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_bipartite_matching

from ..certify import Status
from ..errors import ArgumentError, InstanceError, SolverError
from ..inputs import check_array, check_choice, check_flag, check_positive, check_size, numeric_array, takes_instance
from ..solvers import solve_model
from .categories import Category, check_category
from .instance import PlacementInstance
from .model import build_p3

__all__ = [
    "preferred_graph",
    "constricted_set",
    "sum_top",
    "matching_market",
    "MarketResult",
    "p3_assignment",
    "p3_optimum",
    "solve_category",
    "theorem1_steps",
]


#: Price rules of :func:`matching_market`.
RULES = ("dgs", "paper")


def sum_top(values: np.ndarray, n: int) -> float:
    """``sum_top`` of eq. (20): the sum of the ``n`` largest entries."""
    n = check_size(n, "n", minimum=0)
    values = check_array(values, "values", (None,))
    if n <= 0:
        return 0.0
    if n >= len(values):
        return float(np.sum(values))
    return float(np.sum(np.partition(values, len(values) - n)[len(values) - n:]))


def _top_sets(gamma: np.ndarray, category: np.ndarray) -> np.ndarray:
    """S x K boolean: worker k among the K_i largest of Gamma_i (ties -> lower index)."""
    order = np.argsort(-gamma, axis=1, kind="stable")
    ranks = np.empty_like(order)
    rows = np.arange(gamma.shape[0])[:, None]
    ranks[rows, order] = np.arange(gamma.shape[1])[None, :]
    return ranks < category[:, None]


def _tolerance(gamma: np.ndarray) -> float:
    """Ties within 1e-9 of the largest valuation, relative (a floor of 1, before issue 31, tied every worker at 1e-9)."""
    return 1e-9 * float(np.max(np.abs(gamma), initial=0.0))


def _valuations(gamma: Any) -> np.ndarray:
    """Gamma as a finite S x K float array; ArgumentError naming ``gamma`` otherwise."""
    try:
        g = numeric_array("gamma", gamma)
    except InstanceError as exc:
        raise ArgumentError(str(exc)) from None
    if g.ndim != 2 or g.size == 0 or not np.isfinite(g).all():
        raise ArgumentError(f"gamma has shape {g.shape}; expected a finite (S, K) array of valuations")
    return g


def _demands(category: Any, S: int, K: int) -> np.ndarray:
    """K_i of every job: S integers >= 1 summing to at most K; ArgumentError naming ``category`` otherwise."""
    if isinstance(category, (str, bytes)) or not hasattr(category, "__len__") or len(category) != S:
        raise ArgumentError(f"category is {category!r}; expected {S} worker counts (one per job)")
    cat = np.array([check_size(x, f"category[{i}]") for i, x in enumerate(category)], dtype=int)
    if cat.sum() > K:
        raise ArgumentError(f"category {cat.tolist()} asks for {cat.sum()} workers; there are {K}")
    return cat


def preferred_graph(gamma: np.ndarray, category: Category, *, ties: bool = True) -> nx.Graph:
    """The preferred graph G of job valuations Gamma (lines 3 and 13 of Algorithm 2).

    Nodes are ``("job", i)`` (``bipartite=0``, attribute ``demand`` = K_i) and ``("worker", k)``
    (``bipartite=1``).  With ``ties=True`` (default) job i is linked to every worker whose
    valuation reaches its K_i-th largest one, theta_i; edges with Gamma_{i,k} > theta_i are
    ``strict`` (job i must get them in any top-K_i set), the others are ties.  With
    ``ties=False`` job i is linked to exactly K_i workers, ties broken by the lower worker index
    (the literal reading of "selects K_i workers with larger values").
    """
    gamma = _valuations(gamma)
    S, K = gamma.shape
    cat = _demands(category, S, K)
    ties = check_flag(ties, "ties")
    G = nx.Graph()
    G.add_nodes_from((("job", i), {"bipartite": 0, "demand": int(cat[i])}) for i in range(S))
    G.add_nodes_from((("worker", k), {"bipartite": 1}) for k in range(K))
    if not ties:
        top = _top_sets(gamma, cat)
        G.add_edges_from((("job", int(i)), ("worker", int(k)), {"gamma": float(gamma[i, k]), "strict": True})
                         for i, k in np.argwhere(top))
        return G
    pref, strict = _preferred(gamma, cat)
    for i, k in np.argwhere(pref).tolist():
        G.add_edge(("job", i), ("worker", k), gamma=float(gamma[i, k]), strict=bool(strict[i, k]))
    return G


def _preferred(gamma: np.ndarray, cat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Job i's preferred workers (>= theta_i - tol, theta_i its K_i-th largest valuation), and its strict ones."""
    S, K = gamma.shape
    tol = _tolerance(gamma)
    pref, strict = np.empty((S, K), dtype=bool), np.empty((S, K), dtype=bool)
    for i in range(S):
        theta = np.partition(gamma[i], K - cat[i])[K - cat[i]]
        pref[i] = gamma[i] >= theta - tol
        strict[i] = pref[i] & (gamma[i] > theta + tol)
    return pref, strict


def _alternating_reach(free: list, neighbors, match: dict) -> tuple[set, set]:
    """Slots and workers reachable from the unmatched slots ``free`` by alternating paths.

    Any edge from a slot, the matching edge from a worker: the Hall violator of Koenig's proof.
    """
    seen_slots, seen_workers, stack = set(free), set(), list(free)
    while stack:
        s = stack.pop()
        for w in neighbors(s):
            if w not in seen_workers:
                seen_workers.add(w)
                s2 = match.get(w)
                if s2 is not None and s2 not in seen_slots:
                    seen_slots.add(s2)
                    stack.append(s2)
    return seen_slots, seen_workers


def _clear(G: nx.Graph) -> tuple[set[int], set[int], dict[int, int]]:
    """Try to clear the market on G: return (K_c, S_c, assignment worker -> job).

    Every job takes its strict workers; its remaining demand is matched to tied workers that no
    job holds strictly (Hopcroft-Karp on job slots x workers).  When that fails, the constricted
    set is the Hall violator found by alternating paths from an unmatched slot (Koenig).
    """
    jobs = sorted(i for (t, i) in G.nodes if t == "job")
    owner: dict[int, int] = {}
    over: dict[int, set[int]] = {}
    for i in jobs:
        for (_, k) in G.neighbors(("job", i)):
            if G.edges[("job", i), ("worker", k)]["strict"]:
                if k in owner:
                    over.setdefault(k, {owner[k]}).add(i)
                owner.setdefault(k, i)
    if over:
        return set(over), set().union(*over.values()), {}
    # Integer node labels keep networkx's set-based matching deterministic across processes.
    K = sum(1 for (t, _) in G.nodes if t == "worker")
    H = nx.Graph()
    slots: list[int] = []
    slot_job: dict[int, int] = {}
    for i in jobs:
        need = G.nodes[("job", i)]["demand"] - sum(1 for j in owner.values() if j == i)
        for _ in range(need):
            s = K + len(slots)
            slots.append(s)
            slot_job[s] = i
            H.add_node(s)
            H.add_edges_from((s, k) for (_, k) in G.neighbors(("job", i)) if k not in owner)
    match = nx.bipartite.hopcroft_karp_matching(H, top_nodes=slots) if slots else {}
    free = [s for s in slots if s not in match]
    if not free:
        out = dict(owner)
        out.update({match[s]: slot_job[s] for s in slots})
        return set(), set(), out
    seen_slots, seen_workers = _alternating_reach(free, lambda s: (w for (_, w) in G.neighbors(("job", slot_job[s]))), match)
    Sc = {slot_job[s] for s in seen_slots} | {owner[k] for k in seen_workers if k in owner}
    return set(seen_workers), Sc, {}


def _constricted_arrays(gamma: np.ndarray, cat: np.ndarray) -> tuple[set[int], set[int]] | None:
    """(K_c, S_c) of ``_clear(preferred_graph(gamma, cat))`` when the market does not clear, else None.

    On the graph's own edges (:func:`_preferred`): workers held strictly by two or more jobs first; else the Hall
    violator, the slots and workers reachable by alternating paths from the slots a maximum matching leaves free:
    by the Dulmage-Mendelsohn decomposition the same sets for every maximum matching, so SciPy's Hopcroft-Karp
    finds networkx's.  When the market clears, the tied workers follow the matching: the caller clears it on G.
    """
    S, K = gamma.shape
    pref, strict = _preferred(gamma, cat)
    held = strict.sum(axis=0)
    over = np.flatnonzero(held >= 2)
    if over.size:
        return set(over.tolist()), set(np.flatnonzero(strict[:, over].any(axis=1)).tolist())
    owned = held == 1
    need = cat - strict.sum(axis=1)
    slot_job = np.repeat(np.arange(S), need)
    tied = _slot_graph([np.flatnonzero(row) for row in pref & ~owned], need, K)  # to the workers no job holds strictly
    slot_to_worker = maximum_bipartite_matching(tied, perm_type="column")
    free = slot_to_worker < 0
    if not free.any():
        return None
    worker_job = dict(zip(slot_to_worker[~free].tolist(), slot_job[~free].tolist(), strict=True))
    jobs, workers = _alternating_reach(sorted(set(slot_job[free].tolist())),  # every preferred worker, owned too
                                       lambda j: np.flatnonzero(pref[j]).tolist(), worker_job)
    holder = strict.argmax(axis=0)
    return workers, jobs | {int(holder[k]) for k in workers if owned[k]}


def constricted_set(G: nx.Graph) -> tuple[set[int], set[int]]:
    """{K_c, S_c} of a preferred graph (lines 4 and 14 of Algorithm 2); empty when the market clears.

    K_c are the competed workers, S_c the competing jobs: workers held strictly by two or more
    jobs, or else a set of jobs whose remaining demand exceeds the tied workers available to
    them (a violation of Hall's condition, Easley and Kleinberg ch. 10).
    """
    if not isinstance(G, nx.Graph):
        raise ArgumentError(f"G is {G!r:.60}; expected the networkx graph of preferred_graph")
    Kc, Sc, _ = _clear(G)
    return Kc, Sc


@dataclass(frozen=True)
class MarketResult:
    """Outcome of the pricing process of Algorithm 2 for one category.

    ``assignment`` is the job of each worker, ``prices`` the final p_k, ``iterations`` the
    number of price updates (line 11), ``throughput`` the P3 objective sum sigma rho, and
    ``trace`` (when requested) one record per update: the worker, its increment, the
    competed workers and competing jobs.
    """

    assignment: np.ndarray
    prices: np.ndarray
    iterations: int
    throughput: float
    trace: list[dict[str, Any]] = field(default_factory=list)


@takes_instance(PlacementInstance)
def theorem1_steps(inst: PlacementInstance, category: Category, unit: float = 1.0) -> int:
    """The step bound of Theorem 1, P_max / unit with P_max = sum_i sum_top(rho_i, K_i) (eq. (28))."""
    return _steps_bound(inst.throughput, np.asarray(category, dtype=int), unit)


def _steps_bound(rho: np.ndarray, cat: np.ndarray, unit: float) -> int:
    """Theorem 1's step bound on the throughputs ``rho`` (S x K) and the category ``cat``."""
    pmax = sum(sum_top(rho[i], int(cat[i])) for i in range(rho.shape[0]))
    return int(math.ceil(pmax / unit))


def _loss(gamma_i: np.ndarray, k: int, n: int, tol: float) -> float:
    """V_i - V_i^k of eqs. (20)-(21): what job i loses when worker k leaves its valuations."""
    others = np.delete(gamma_i, k)
    if len(others) < n:
        return float(gamma_i[k])
    nth = np.partition(others, len(others) - n)[len(others) - n]  # n-th largest without k
    return max(0.0, float(gamma_i[k] - nth)) if gamma_i[k] >= nth - tol else 0.0


def _slot_graph(cols: list[np.ndarray], counts: np.ndarray, n_workers: int) -> Any:
    """``csr_matrix(pref[slot_job].astype(np.int8))`` built by job: its ``counts[i]`` slots link to ``cols[i]``."""
    indices = np.concatenate([np.tile(c, int(n)) for c, n in zip(cols, counts, strict=True)]).astype(np.int32)
    per_slot = np.repeat([c.size for c in cols], counts)
    indptr = np.zeros(per_slot.size + 1, dtype=np.int32)
    np.cumsum(per_slot, out=indptr[1:])
    return csr_matrix((np.ones(indices.size, dtype=np.int8), indices, indptr), shape=(per_slot.size, n_workers))


#: Markets (throughputs, category) whose outcome :func:`matching_market` keeps (about 1 kB each at K = 30).
DGS_MEMO_SIZE = 4096


def _dgs_market(rho: np.ndarray, cat: np.ndarray, tol: float, limit: int, trace: bool):
    """Exact matching-market auction on the replicated market (job i = K_i identical buyers).

    Each slot of job i prefers the workers of maximal payoff rho_{i,k} - p_k.  While no perfect
    matching of slots to preferred workers exists, the Hall violator found by alternating paths
    (slots R, their preferred workers N(R)) is the constricted set, and every price in N(R) rises
    by the smallest amount that gives a job of R a new preferred worker (Demange, Gale and
    Sotomayor 1986; Easley and Kleinberg 2010, ch. 10).  Returns (assignment, prices, steps, trace).
    """
    S, K = rho.shape
    slot_job = np.repeat(np.arange(S), cat)
    prices = np.zeros(K)
    records: list[dict[str, Any]] = []
    for step in range(limit + 1):
        gamma = rho - prices
        best = gamma.max(axis=1)
        pref = gamma >= best[:, None] - tol  # S x K preferred workers of every job
        cols = [np.flatnonzero(row) for row in pref]  # each job's preferred workers
        slot_to_worker = maximum_bipartite_matching(_slot_graph(cols, cat, K), perm_type="column")  # Hopcroft-Karp
        free = np.flatnonzero(slot_to_worker < 0).tolist()
        if not free:
            assignment = np.empty(K, dtype=int)
            assignment[slot_to_worker] = slot_job
            return assignment, prices, step, records
        if step == limit:
            break
        held = slot_to_worker >= 0
        worker_to_job = dict(zip(slot_to_worker[held].tolist(), slot_job[held].tolist(), strict=True))
        # the slots of a job prefer the same workers: alternating paths between jobs reach the same sets
        seen_j, seen_w = _alternating_reach(sorted({int(slot_job[s_]) for s_ in free}),
                                            [c.tolist() for c in cols].__getitem__, worker_to_job)
        raised = np.array(sorted(seen_w))
        jobs = sorted(seen_j)
        out = np.ones(K, dtype=bool)
        out[raised] = False
        outside = np.flatnonzero(out)
        delta = (best[jobs] - gamma[np.ix_(jobs, outside)].max(axis=1)).min()
        prices[raised] += delta
        if trace:
            records.append({"iteration": step + 1, "raised": raised.tolist(), "increment": float(delta),
                            "competed": raised.tolist(), "competing_jobs": jobs, "prices": prices.copy()})
    raise SolverError(f"the exact auction did not clear within {limit} steps")


@functools.lru_cache(maxsize=DGS_MEMO_SIZE)
def _dgs_memo(rho: bytes, shape: tuple[int, ...], dtype: str, cat: tuple[int, ...], unit: float,
              max_iter: int | None) -> tuple[np.ndarray, np.ndarray, int]:
    """:func:`_dgs_market` without a trace, keyed by the throughputs' bytes (a deterministic function of them).

    The tolerance and the step limit are computed here, on a miss: they are functions of the key.
    """
    r = np.frombuffer(rho, dtype=dtype).reshape(shape)
    c = np.array(cat, dtype=int)
    limit = max_iter if max_iter is not None else _limit(r, c, unit)
    a, p, it, _ = _dgs_market(r, c, _tolerance(r), limit, False)
    return a, p, it


def _limit(rho: np.ndarray, cat: np.ndarray, unit: float) -> int:
    """The default safety limit on price updates: 10 times Theorem 1's bound plus K."""
    return 10 * _steps_bound(rho, cat, unit) + rho.shape[1]


@takes_instance(PlacementInstance)
def matching_market(inst: PlacementInstance, category: Category, *, rule: str = "dgs", unit: float = 1.0,
                    ties: bool = True, max_iter: int | None = None, trace: bool = False) -> MarketResult:
    """Algorithm 2's pricing (lines 2-16) for one feasible solution category.

    Parameters
    ----------
    inst : PlacementInstance
    category : sequence of int
        (K_1, ..., K_S), summing to K.
    rule : {"dgs", "paper"}
        The price update.  "paper": eq. (22) as printed, the price of the lowest-index competed
        worker rises by max{1, max_{i in S_c} (V_i - V_i^k)}.  This need not end: it creeps up in
        unit steps forever on realistic instances (see the formulation card), contradicting
        Theorem 1.  "dgs" (default): the exact auction of Demange, Gale and Sotomayor (1986) on
        the same preferred graph and constricted set: every worker of K_c rises by the smallest
        amount that makes a job of S_c indifferent to a worker outside K_c, on the market where
        job i is K_i identical buyers (each then prefers its maximal-payoff workers).  It always
        ends, with a P3 optimum (Theorem 2's argument applies to any clearing prices), and at its
        prices every job's workers are also a top-K_i set, as the paper's preferred graph asks.
    unit : float
        The minimum price increment of eq. (22) (the paper's unit price 1, in samples/s).
    ties : bool
        For ``rule="paper"``: preferred graph with all tied workers (default; see
        :func:`preferred_graph`).  With
        ``ties=False`` each job takes exactly K_i workers, ties broken by index: the pricing then
        need not end (it cycles on the paper's own Table II category (3, 1)), and reaching
        ``max_iter`` raises.
    max_iter : int, optional
        Safety limit on price updates; default: 10 times Theorem 1's bound plus K.  Reaching it
        raises :class:`SolverError` (it would contradict Theorem 1).
    trace : bool
        Record every price update (for teaching).

    Returns
    -------
    MarketResult

    References
    ----------
    K. Liu, J. Wang, Z. Huang, J. Pan, "Sampling-Based Multi-Job Placement for Heterogeneous Deep
    Learning Clusters", IEEE TPDS 35(6), 2024, Algorithm 2 and Theorems 1-2.
    D. Easley, J. Kleinberg, Networks, Crowds, and Markets, Cambridge Univ. Press, 2010, ch. 10.
    """
    cat = check_category(inst, category)
    unit = check_positive(unit, "unit")
    check_choice(rule, "rule", RULES)
    ties = check_flag(ties, "ties")
    trace = check_flag(trace, "trace")
    if max_iter is not None:
        max_iter = check_size(max_iter, "max_iter", minimum=0)
    rho = inst.throughput
    S, K = rho.shape
    records: list[dict[str, Any]] = []
    if rule == "dgs" and not trace:  # the same market on the same throughputs clears the same way: JPS's seeds and HAS
        a, p, it = _dgs_memo(rho.tobytes(), rho.shape, rho.dtype.str, tuple(cat.tolist()), unit, max_iter)
        return MarketResult(assignment=a.copy(), prices=p.copy(), iterations=it,
                            throughput=float(rho[a, np.arange(K)].sum()), trace=records)
    limit = max_iter if max_iter is not None else _limit(rho, cat, unit)
    prices = np.zeros(K)
    gamma = rho.copy()  # (19)
    tol = _tolerance(rho)
    it = 0
    if rule == "dgs":
        assignment, prices, it, records = _dgs_market(rho, cat, tol, limit, trace)
        return MarketResult(assignment=assignment, prices=prices, iterations=it,
                            throughput=float(rho[assignment, np.arange(K)].sum()), trace=records)
    owner: dict[int, int]
    while True:
        conflict = _constricted_arrays(gamma, cat) if ties else None
        if conflict is not None:  # what _clear finds, without building G (the creeping loop of eq. (22))
            (Kc, Sc), owner = conflict, {}
        elif ties:
            Kc, Sc, owner = _clear(preferred_graph(gamma, cat, ties=True))  # lines 3-4, 13-14
        else:
            G = preferred_graph(gamma, cat, ties=False)
            Kc, Sc = {k for (t, k) in G.nodes if t == "worker" and G.degree[("worker", k)] >= 2}, set()
            Sc = {i for k in Kc for (_, i) in G.neighbors(("worker", k))}
            owner = {k: i for (_, i), (_, k) in (sorted(e) for e in G.edges)} if not Kc else {}
        if not Kc:
            break
        if it >= limit:
            raise SolverError(f"matching market for category {cat.tolist()} did not end within {limit} price updates "
                              f"(Theorem 1 bounds it by {theorem1_steps(inst, cat, unit)})")
        k = min(Kc)  # line 6
        raised = [k]
        inc = max(unit, max(_loss(gamma[i], k, int(cat[i]), tol) for i in Sc))  # lines 7-11, (22)
        prices[raised] += inc
        gamma[:, raised] = rho[:, raised] - prices[raised]  # (23)
        it += 1
        if trace:
            records.append({"iteration": it, "raised": raised, "increment": inc, "competed": sorted(Kc),
                            "competing_jobs": sorted(Sc), "prices": prices.copy()})
    assignment = np.array([owner[k] for k in range(K)], dtype=int)
    return MarketResult(assignment=assignment, prices=prices, iterations=it,
                        throughput=float(rho[assignment, np.arange(K)].sum()), trace=records)


@takes_instance(PlacementInstance)
def p3_assignment(inst: PlacementInstance, category: Category) -> np.ndarray:
    """A P3 optimum (eq. (18)) by the Hungarian algorithm on job slots x workers.

    Job i is expanded into K_i identical slots; ``scipy.optimize.linear_sum_assignment``
    maximizes total throughput exactly.  Among identical workers (same throughput column), the
    returned assignment gives each job the lowest-index workers first, in job order, so that
    jobs stay on contiguous workers (nodes) where the optimum allows it.
    """
    cat = check_category(inst, category)
    rho = inst.throughput
    slots = np.repeat(np.arange(inst.n_jobs), cat)
    _, cols = linear_sum_assignment(rho[slots], maximize=True)
    assignment = np.empty(inst.n_workers, dtype=int)
    assignment[cols] = slots
    labels, members = inst.worker_groups(by_node=False)
    for ws in members:
        if len(ws) > 1:
            assignment[ws] = np.sort(assignment[ws])
    return assignment


@takes_instance(PlacementInstance)
def p3_optimum(inst: PlacementInstance, category: Category, *, solver: str = "highs") -> tuple[float, np.ndarray]:
    """P3 solved with its model (:func:`~hetopt.placement.model.build_p3`); returns (value, assignment)."""
    check_choice(solver, "solver", ("highs", "scip"))
    m = build_p3(inst, category)
    sol = solve_model(m, solver=solver)
    if sol.status is not Status.OPTIMAL or sol.objective is None:
        raise SolverError(f"P3 was not solved to optimality: {sol.status.value}")
    sig = np.array([[m.sigma[i, k].value for k in m.WORKERS] for i in m.JOBS])
    return float(sol.objective), np.argmax(sig, axis=0)


@takes_instance(PlacementInstance)
def solve_category(inst: PlacementInstance, category: Category, *, market: str = "auction") -> np.ndarray:
    """The assignment Algorithm 2 keeps for one category: a P3 optimum by ``market`` ("auction" or "assignment")."""
    if market == "auction":
        return matching_market(inst, category).assignment
    if market == "assignment":
        return p3_assignment(inst, category)
    raise ArgumentError(f"market is {market!r}; expected 'auction' or 'assignment'")
