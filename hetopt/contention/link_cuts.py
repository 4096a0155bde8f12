"""Link-energy and stretch cuts of the contention-aware relaxation (:mod:`hetopt.contention.shared`).

Both hold for every fluid schedule of eq. (5) (reading 1 of the card: a task whose busiest server
carries ``k`` active tasks, in latency or transferring, moves at ``1 / (k b + (k - 1) eta)`` MB/s
after its latency ``a``), and, lowered by the stated number of units, for the schedule obtained
by rounding every time of a fluid schedule DOWN to the relaxation's integer unit (the argument of
:mod:`hetopt.contention.shared`).  ``p_x = b sigma_x`` is all-reduce x's transfer time alone.

* **Window energy** (:func:`add_window_cuts`).  On a server with ``n`` active tasks each has
  ``k >= n``, so the transfer rates there sum to at most ``n / (n b + (n - 1) eta) <= 1 / b``.
  Take the all-reduces K on the server that start at or after ``S_i`` and end at or before
  ``E_j``: in ``[S_i, S_i + a]`` each of them is in its latency or not started, so their
  transfers all happen in ``[S_i + a, E_j]``: ``E_j - S_i >= a + sum_K p_k`` (a preemptive
  single machine with release/deadline windows).  Rounded: K computed on rounded times lies in
  the real window ``[floor S_i, floor E_j + 1)``, so the cut holds lowered by one unit.
  Modelled with order literals ``[S_i <= S_k]``, ``[E_k <= E_j]`` and an implied membership
  literal per (k, i, j): ``n^3`` literals per server.
* **Stretch** (:func:`add_stretch_cuts`).  While all-reduce x transfers and another task y that
  shares one of its servers is active, x's busiest server carries ``k >= 2``: x moves at most
  ``1 / (2b + eta)`` instead of ``1 / b``, so each such second costs x at least
  ``c = 1 - b / (2b + eta) = (b + eta) / (2b + eta)`` seconds of extra duration:
  ``E_x - S_x >= a + p_x + c (min(E_x, E_y) - max(S_x + a, S_y))`` (the overlap of x's transfer
  phase with y's lifetime; a negative right-hand side is implied by ``E_x >= S_x + a + p_x``).
  For two equal transfers started together this gives their fluid end exactly.  Rounded: with
  ``L = E_x - S_x - (a + p_x)`` and R the bracket, ``L - c R`` is a combination of the four
  times whose coefficients sum, over the negative ones, to at least ``-(1 + c)`` (y nested in x:
  ``E_x - S_x - c E_y + c S_y``), and rounding a time down moves it by less than one unit, so
  ``L' - c R' > -(1 + c)``; in thousandths with ``c`` rounded down, and L' integral,
  ``1000 L' >= c_1000 R' - (999 + ceil(1000 c))`` (:func:`_slack`).  (One unit is not enough
  in the nested case, although random fluid schedules did not hit it.)

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, eq. (5).
J. R. Jackson / W. A. Horn, preemptive single-machine feasibility with release dates and
deadlines (every window's work fits in the window).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

__all__ = ["add_window_cuts", "add_stretch_cuts", "order_literals", "add_set_cut", "violated_sets", "stretch_violated",
           "add_transfer_completion_cuts", "TRANSFER_ALL_SUBSETS", "add_overlap_disjunctions",
           "add_link_cuts"]


def _slack(waste: float) -> int:
    """Thousandths of a unit the stretch cuts give up to rounding: ``999 + ceil(1000 c)`` (< 2000)."""
    return 999 + int(math.ceil(waste * 1000 - 1e-12))


def _known_order(x, y) -> bool | None:
    """True when x's all-reduce precedes y's in every schedule (same job, earlier iteration)."""
    if x.job == y.job:
        return x.iteration < y.iteration
    return None


class _OrderLits:
    """Cached literals ``[V_x <= V_y]`` (fully reified) for start or end variables."""

    def __init__(self, m, V: dict):
        self.m, self.V = m, V
        self.cache: dict[tuple, Any] = {}

    def le(self, x, y):
        if x.key == y.key:
            return True
        known = _known_order(x, y)
        if known is not None:
            return known
        if (x.key, y.key) not in self.cache:
            lit = self.m.new_bool_var("")
            self.m.add(self.V[x.key] <= self.V[y.key]).only_enforce_if(lit)
            self.m.add(self.V[x.key] >= self.V[y.key] + 1).only_enforce_if(~lit)
            self.cache[(x.key, y.key)] = lit
            if (y.key, x.key) in self.cache:  # one of the two orders holds
                self.m.add_bool_or([lit, self.cache[(y.key, x.key)]])
        return self.cache[(x.key, y.key)]


def add_window_cuts(m, tasks: list, S: dict, E: dict, latency: int, latency_floor: int, orders: tuple) -> int:
    """Window energy cuts on one server (module docstring); returns the number of cuts.

    ``tasks`` are the server's all-reduces, ``scaled`` the exactly scaled ``a + b sigma`` (which
    :mod:`hetopt.contention.shared` requires); ``latency`` / ``latency_floor`` the scaled ``a``
    rounded up / down, so ``p = scaled - latency`` and the cut's constant
    ``latency_floor + sum p`` are at most the true ones;
    ``orders`` = (start-order, end-order) :class:`_OrderLits`, shared between servers.
    """
    starts, ends = orders
    p = {t.key: t.scaled - latency for t in tasks}
    n = 0
    for i, j in itertools.permutations(tasks, 2):
        oij, eij = starts.le(i, j), ends.le(i, j)
        if oij is False or eij is False:
            continue  # j starts before i, or i ends after j: another window covers the set
        terms = []
        for k in tasks:
            if k.key in (i.key, j.key):
                continue
            a_, b_ = starts.le(i, k), ends.le(k, j)
            if a_ is False or b_ is False:
                continue
            if a_ is True and b_ is True:
                terms.append(p[k.key])
                continue
            x = m.new_bool_var("")
            m.add_bool_or([x] + [~lit for lit in (a_, b_) if lit is not True])
            terms.append(p[k.key] * x)
        cond = [lit for lit in (oij, eij) if lit is not True]
        ct = m.add(E[j.key] - S[i.key] >= latency_floor + p[i.key] + p[j.key] + sum(terms) - 1)
        if cond:
            ct.only_enforce_if(cond)
        n += 1
    return n


def add_stretch_cuts(m, pairs, S: dict, E: dict, latency: int, waste: float, top: int) -> int:
    """Stretch cuts for every ordered pair of all-reduces sharing a server (module docstring).

    ``pairs``: unordered pairs (x, y) of all-reduces of different jobs on a common server, each
    once; ``latency`` is ``a`` scaled and rounded UP (a later max only weakens the cut);
    ``waste`` = ``c``.  Returns the number of cuts.
    """
    c_num = int(math.floor(waste * 1000 + 1e-12))
    if c_num <= 0:
        return 0
    n = 0
    for x, y in pairs:
        lo = m.new_int_var(0, top, "")
        m.add_min_equality(lo, [E[x.key], E[y.key]])
        for z, w in ((x, y), (y, x)):
            hi = m.new_int_var(0, top + latency, "")
            m.add_max_equality(hi, [S[z.key] + latency, S[w.key]])
            m.add(1000 * (E[z.key] - S[z.key] - z.scaled) >= c_num * (lo - hi) - _slack(waste))
            n += 1
    return n


def order_literals(m, S: dict, E: dict) -> tuple:
    """(start-order, end-order) literal caches for :func:`add_window_cuts`."""
    return _OrderLits(m, S), _OrderLits(m, E)


def add_set_cut(m, group: list, S: dict, E: dict, latency: int, latency_floor: int, top: int) -> None:
    """``max_K E - min_K S >= a + sum_K p`` for one set K of all-reduces on a common server.

    The unconditional form of the window cut (K lies in ``[min S, max E]``); a difference
    constraint with an integer constant, so rounding every time down keeps it (no unit lost).
    """
    hi, lo = m.new_int_var(0, top, ""), m.new_int_var(0, top, "")
    m.add_max_equality(hi, [E[t.key] for t in group])
    m.add_min_equality(lo, [S[t.key] for t in group])
    m.add(hi - lo >= latency_floor + sum(t.scaled - latency for t in group))


def violated_sets(group: list, s_val: dict, e_val: dict, latency: int, latency_floor: int) -> list[tuple]:
    """Sets of all-reduces of one server whose window cut a relaxed solution violates.

    For every window ``[S_i, E_j]`` of the solution, K = the all-reduces inside it; K is
    returned (as a tuple of task keys, largest violation first, each set once) when
    ``E_j - S_i < a + sum_K p``.
    """
    p = {t.key: t.scaled - latency for t in group}
    out: dict = {}
    for i in group:
        for j in group:
            if s_val[j.key] < s_val[i.key] or e_val[i.key] > e_val[j.key]:
                continue
            K = tuple(sorted(t.key for t in group if s_val[t.key] >= s_val[i.key] and e_val[t.key] <= e_val[j.key]))
            if len(K) < 2:
                continue
            excess = latency_floor + sum(p[k] for k in K) - (e_val[j.key] - s_val[i.key])
            if excess > 0:
                out[K] = max(out.get(K, 0), excess)
    return sorted(out, key=lambda K: -out[K])


def stretch_violated(x, y, s_val: dict, e_val: dict, latency: int, waste: float) -> bool:
    """Whether the relaxed solution violates a stretch cut of the pair (x, y) (beyond what rounding gives up)."""
    c_num = int(math.floor(waste * 1000 + 1e-12))
    lo = min(e_val[x.key], e_val[y.key])
    for z, w in ((x, y), (y, x)):
        hi = max(s_val[z.key] + latency, s_val[w.key])
        if 1000 * (e_val[z.key] - s_val[z.key] - z.scaled) < c_num * (lo - hi) - _slack(waste):
            return True
    return False


#: Per server, all subsets of its all-reduces get a completion cut up to this many; beyond, nested sets by release.
TRANSFER_ALL_SUBSETS = 8


def add_transfer_completion_cuts(m, group: list, E: dict, release: dict, latency: int,
                                 latency_floor: int | None = None) -> int:
    """Queyranne's inequalities at the level of single all-reduces on one server.

    The transfers of ``group`` form a fluid schedule of total rate at most ``1 / b`` on the
    server (module docstring), transfer k (work ``p_k`` in time units at full rate) released at
    ``release[k] + a`` (``release`` a lower bound of its start) and done by ``E_k``; the
    mean-busy-time argument of :func:`hetopt.contention.cuts.add_completion_cuts` holds for
    such schedules (the work is packed no earlier than at full rate from the release, and a
    transfer's own rate is at most full), so ``sum_T p_k E_k >= r(T) p(T) + (p(T)^2 + sum_T
    p_k^2) / 2`` with ``r(T) = min_T release + a``.  Lowered by ``p(T)``: still met after every
    time is rounded down.  ``latency`` (``a`` rounded up) gives ``p = scaled - latency``,
    ``latency_floor`` (rounded down; default ``latency``) the release.  Returns the number of cuts.
    """
    p = {t.key: t.scaled - latency for t in group}
    lat_lo = latency if latency_floor is None else latency_floor
    jobs = sorted((t for t in group if p[t.key] > 0), key=lambda t: (release[t.key], t.key))
    if len(jobs) < 2:
        return 0
    if len(jobs) <= TRANSFER_ALL_SUBSETS:
        subsets = [c for size in range(2, len(jobs) + 1) for c in itertools.combinations(jobs, size)]
    else:
        subsets = [tuple(jobs[i:]) for i in range(len(jobs) - 1)]
    from .cuts import cut_scale, upper

    s = cut_scale(max(p[t.key] for t in jobs), max(upper(E[t.key]) for t in jobs))
    w = {t.key: int(p[t.key]) // s for t in jobs}  # the first s * w_k units of each transfer (cuts.cut_scale)
    n = 0
    for T in subsets:
        pT = sum(w[t.key] for t in T)
        if pT == 0:
            continue
        # twice the right-hand side in exact integers (float squares round beyond 2**53)
        rhs2 = 2 * int(min(release[t.key] for t in T) + lat_lo) * pT + s * (pT * pT + sum(w[t.key] ** 2 for t in T)) \
            - 2 * pT
        m.add(sum(w[t.key] * E[t.key] for t in T) >= -(-rhs2 // 2))
        n += 1
    return n


def add_overlap_disjunctions(m, pairs, S: dict, E: dict, latency: int, waste: float) -> int:
    """Per pair: x before y, y before x, or they overlap, with the stretch cuts made linear per case.

    Literals ``o`` (``S_x <= S_y``) and ``e`` (``E_x <= E_y``) are enforced one way only, so the
    real orders give a consistent assignment after rounding down (floor is monotone).  With the
    pair overlapping and, say, x starting first: if x also ends first, both transfers overlap the
    other's lifetime for at least ``E_x - S_y - a``; if y ends first (nested), y overlaps x for
    its whole transfer, ``E_y - S_y - a``, and x at least as long.  Each gives the stretch cut
    ``E_z - S_z - (a + p_z) >= c * overlap``, lowered as in :func:`add_stretch_cuts`.
    Returns the number of pairs.
    """
    c_num, slack = int(math.floor(waste * 1000 + 1e-12)), _slack(waste)
    n = 0
    for x, y in pairs:
        bxy, byx, ov = m.new_bool_var(""), m.new_bool_var(""), m.new_bool_var("")
        m.add_bool_or([bxy, byx, ov])
        m.add(E[x.key] <= S[y.key]).only_enforce_if(bxy)
        m.add(E[y.key] <= S[x.key]).only_enforce_if(byx)
        o, e = m.new_bool_var(""), m.new_bool_var("")
        m.add(S[x.key] <= S[y.key]).only_enforce_if(o)
        m.add(S[y.key] <= S[x.key]).only_enforce_if(~o)
        m.add(E[x.key] <= E[y.key]).only_enforce_if(e)
        m.add(E[y.key] <= E[x.key]).only_enforce_if(~e)
        for first, later, lo_, le_ in ((x, y, o, e), (y, x, ~o, ~e)):
            # first starts first; le_: first ends first
            cross = E[first.key] - S[later.key] - latency  # both ends in order: overlap >= this
            nested = E[later.key] - S[later.key] - latency  # later nested in first
            for z in (first, later):
                m.add(1000 * (E[z.key] - S[z.key] - z.scaled) >= c_num * cross - slack).only_enforce_if([ov, lo_, le_])
                m.add(1000 * (E[z.key] - S[z.key] - z.scaled) >= c_num * nested - slack).only_enforce_if([ov, lo_, ~le_])
        n += 1
    return n


def add_link_cuts(m, comm: list, servers: list, S: dict, E: dict, release: dict, latency: int, latency_floor: int,
                  waste: float, top: int, literals: str | None = None) -> None:
    """All link cuts of :func:`hetopt.contention.cpsat.build_cpsat` with ``energy=True``.

    Stretch cuts for every pair of all-reduces of different jobs on a common server, the
    transfer completion cuts on each server of ``servers`` (those not implied by another), and
    with ``literals`` the reified window cuts (``"windows"``) or the overlap disjunctions
    (``"overlap"``).
    """
    pairs = [(x, y) for x, y in itertools.combinations(comm, 2) if x.job != y.job and set(x.where) & set(y.where)]
    add_stretch_cuts(m, pairs, S, E, latency, waste, top)
    if literals == "overlap":
        add_overlap_disjunctions(m, pairs, S, E, latency, waste)
    orders = order_literals(m, S, E) if literals == "windows" else None
    for s in servers:
        group = [t for t in comm if s in t.where]
        add_transfer_completion_cuts(m, group, E, release, latency, latency_floor)
        if orders is not None and len(group) > 1:
            add_window_cuts(m, group, S, E, latency, latency_floor, orders)
