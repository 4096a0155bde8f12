"""Valid inequalities of the CP-SAT models of :mod:`hetopt.contention.cpsat` (no schedule is cut off).

References
----------
M. Queyranne, "Structure of a simple scheduling polyhedron", Mathematical Programming 58, 1993
(the completion-time inequalities; the release-date form by the mean-busy-time argument of
M. X. Goemans, "Improved approximation algorithms for scheduling with release dates", SODA 1997).
"""

from __future__ import annotations

import itertools
import math

__all__ = ["CUT_ALL_SUBSETS", "FIRST_FINISHER_MAX_TASKS", "COEF_LIMIT", "add_completion_cuts", "add_pair_cuts",
           "cut_scale", "upper"]


#: The first-finisher cut of :func:`add_pair_cuts` is added only on servers with at most this many
#: all-reduces: it raises the bound of small instances (3 jobs: gaps 4.4% / 1.9% -> 1.9% / 0.3% with
#: the latency term) but slows the 8-job relaxations (their servers carry 6-11 all-reduces).
FIRST_FINISHER_MAX_TASKS = 4


def add_pair_cuts(m, tasks: list, S: dict, E: dict, latency: int, top: int, *, latency_floor: int = 0,
                  waste: float = 0.0, done: set | None = None, first_finisher: bool = True) -> None:
    """Two all-reduces of different jobs on one server (the relaxation of :mod:`hetopt.contention.shared`).

    With ``S_1 <= S_2``, ``d = S_2 - S_1``: nothing is transferred in ``[S_1, S_1 + a]`` (both in
    latency or not started); in ``[max(S_2, S_1 + a), S_2 + a]`` (length ``min(a, d)``) task 2 is in
    its latency and task 1, if active, shares the server (k >= 2), so the pair moves at most
    ``b / (2b + eta) = 1 - c`` of the capacity; elsewhere at most all of it.  Hence
    ``max(E_1, E_2) >= S_1 + a + b (sigma_1 + sigma_2) + c min(a, d)`` with
    ``c = (b + eta) / (2b + eta)`` (``waste``, rounded down to 1e-3 here; ``latency`` is ``a``
    rounded up where it is subtracted, ``latency_floor`` rounded down where it is added).  The
    latency term is lowered by 2 units so that the cut still holds after every time is rounded
    down to an integer (each difference then loses less than one unit, ``d`` changes by less than
    one); the term without it is a difference constraint with an integer constant, which rounding
    down keeps.  ``done``: pairs already cut on another server (skipped, then recorded).  The
    first-finisher cut (:func:`_first_finisher`) only when ``tasks`` has at most
    ``FIRST_FINISHER_MAX_TASKS`` all-reduces and ``first_finisher``.
    """
    c_num = int(math.floor(waste * 1000 + 1e-12))
    finisher = first_finisher and len(tasks) <= FIRST_FINISHER_MAX_TASKS
    for x, y in itertools.combinations(tasks, 2):
        if x.job == y.job:
            continue
        if done is not None:  # a pair sharing several servers is cut once
            pair = frozenset((x.key, y.key))
            if pair in done:
                continue
            done.add(pair)
        hi, lo = m.new_int_var(0, top, ""), m.new_int_var(0, top, "")
        m.add_max_equality(hi, [E[x.key], E[y.key]])
        m.add_min_equality(lo, [S[x.key], S[y.key]])
        base = x.scaled + y.scaled - latency
        if c_num > 0 and latency_floor > 0:
            d, w = m.new_int_var(0, top, ""), m.new_int_var(0, latency_floor, "")
            m.add_abs_equality(d, S[x.key] - S[y.key])
            m.add_min_equality(w, [d, m.new_constant(latency_floor)])
            m.add(1000 * (hi - lo) >= 1000 * base + c_num * w - 2000)
        else:
            m.add(hi >= lo + base)
        if c_num > 0 and finisher:
            _first_finisher(m, x, y, S, E, latency, c_num, top)


def _first_finisher(m, x, y, S: dict, E: dict, latency: int, c_num: int, top: int) -> None:
    """The completion cut of the first of a pair of all-reduces to end.

    The all-reduce z of a pair that ends first, at T, shares the server with the other one, w,
    from ``max(S_z + a, S_w)`` to T (w has started and not ended), moving at most ``1/(2b + eta)``
    there and ``1/b`` before: ``T - S_z - (a + b sigma_z) >= c (T - max(S_z + a, S_w))``.  The
    right-hand side is lowered by one unit so that the cut holds after every time is rounded down
    (the left side loses less than one unit, ``c`` times the right side less than one); ``a`` is
    rounded up inside the max (a later max only weakens the cut).
    """
    first = m.new_bool_var("")
    m.add(E[x.key] <= E[y.key]).only_enforce_if(first)
    m.add(E[y.key] <= E[x.key]).only_enforce_if(~first)
    for z, w, lit in ((x, y, first), (y, x, ~first)):
        mz = m.new_int_var(0, top + latency, "")
        m.add_max_equality(mz, [S[z.key] + latency, S[w.key]])
        m.add(1000 * (E[z.key] - S[z.key] - z.scaled) >= c_num * (E[z.key] - mz) - 1000).only_enforce_if(lit)


#: Per resource, all subsets of its jobs get a cut up to this many jobs; beyond, nested subsets by release.
CUT_ALL_SUBSETS = 7


def add_completion_cuts(m, inst, tasks, F, arrival, dur, *, latency: int = 0, robust: bool = False,
                        latency_floor: int | None = None) -> int:
    """Queyranne's inequalities with release dates, per GPU and per server network.

    On a resource, job ``k``'s tasks form a (preemptive) block of total length ``w_k``, released
    at ``r_k`` and finished by ``C_k <= F_k - q_k`` (``q_k`` the work of job k that must follow
    its last task there: the last all-reduce for a GPU, nothing for a network).  Every
    preemptive single-machine schedule satisfies, for every subset ``T`` of the blocks,
    ``sum_T w_k C_k >= r(T) w(T) + (w(T)^2 + sum_T w_k^2) / 2`` with ``r(T) = min_T r_k``
    (mean-busy-time argument: ``C_k >= M_k + w_k / 2`` and ``sum w_k M_k >= r(T) w(T) + w(T)^2 / 2``),
    so these cuts keep every schedule.  Returns the number of cuts added.

    With shared networks (``latency`` > 0, the relaxation of :mod:`hetopt.contention.shared`) a
    network's blocks are the transfers only, ``w_k = I_k (p_c - latency)`` released ``latency``
    later: the transfer rates on a server sum to at most ``1 / b`` (that module), so the
    transfers form a preemptive schedule at unit capacity.  ``robust``: each right-hand side is
    lowered by ``w(T)``, so the cut also holds after every time is rounded down to an integer.
    ``latency`` is ``a`` rounded up (work ``p_c - latency``), ``latency_floor`` rounded down (the
    release; default ``latency``).
    """
    lat_lo = latency if latency_floor is None else latency_floor  # the release uses a rounded down
    blocks: dict = {}
    for t in tasks:
        res = [("g", t.where)] if t.kind != "c" else [("n", s) for s in t.where]
        for r in res:
            blocks.setdefault(r, {}).setdefault(t.job, 0)
            blocks[r][t.job] += t.scaled if t.kind != "c" else max(0, t.scaled - latency)
    n = 0
    for r, work in blocks.items():
        jobs = sorted((k for k in work if work[k] > 0), key=lambda k: (arrival[k], k))
        if len(jobs) < 2:
            continue
        rel = {k: arrival[k] + (0 if r[0] == "g" else dur[(k, "f")] + dur[(k, "b")] + lat_lo) for k in jobs}
        tail = {k: (dur.get((k, "c"), 0) if r[0] == "g" else 0) for k in jobs}
        if len(jobs) <= CUT_ALL_SUBSETS:
            subsets = [c for size in range(2, len(jobs) + 1) for c in itertools.combinations(jobs, size)]
        else:
            subsets = [tuple(jobs[i:]) for i in range(len(jobs) - 1)]
        s = cut_scale(max(work[k] for k in jobs), max(upper(F[k]) for k in jobs))
        w = {k: int(work[k]) // s for k in jobs}  # blocks of s * w_k <= work: the first part of each block
        for T in subsets:
            wT = sum(w[k] for k in T)
            if wT == 0:
                continue
            # twice the right-hand side in exact integers (float squares round beyond 2**53, which once cut
            # off the optimum: issue 25, a bound 0.005 s above it)
            rhs2 = 2 * int(min(rel[k] for k in T)) * wT + s * (wT * wT + sum(w[k] ** 2 for k in T))
            if robust:  # still met after every time is rounded down (each F_k by less than one unit)
                rhs2 -= 2 * wT
            m.add(sum(w[k] * (F[k] - tail[k]) for k in T) >= -(-rhs2 // 2))
            n += 1
    return n


#: Largest product of a cut coefficient and a variable's bound: CP-SAT's linear relaxation
#: (``linearization_level=2``) proved a feasible model INFEASIBLE, depending on the seed, with completion
#: cuts of coefficients 2.5e8 on times of 6e8 units (issue 25's magnitude tests); the cuts are then
#: taken on works divided by :func:`cut_scale`.
COEF_LIMIT = 10**12


def upper(var) -> int:
    """The upper end of a CP-SAT integer variable's domain."""
    return int(list(var.proto.domain)[-1])


def cut_scale(max_work: int, max_time: int) -> int:
    """The divisor ``s`` of the works in a completion cut: ``(max_work / s) * max_time <= COEF_LIMIT``.

    With works ``w'_k = floor(w_k / s)`` the cut is taken on the first ``s w'_k`` units of each block
    (completed no later than the block): ``sum w'_k C_k >= r w'(T) + s (w'(T)^2 + sum w'_k^2) / 2``,
    valid for every schedule, weaker than the full cut by the works' remainders only.
    """
    return max(1, -(-int(max_work) * int(max(max_time, 1)) // COEF_LIMIT))
