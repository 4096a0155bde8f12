"""The contention-aware problem (eq. (5), fluid reading) for a fixed placement: best schedule and a proven bound.

Problem: as the contention-free problem of the card ((6), (S1)-(S3), (S5)), but all-reduces may
share a server network; an all-reduce's end is given by the fluid model of eq. (5)
(:func:`hetopt.contention.comm.fluid_completion_times`: rate ``1 / (k b + (k - 1) eta)`` with k
the most tasks on any of its servers, after a latency ``a`` during which it already counts).
Its duration depends on every overlapping all-reduce, so no fixed-size interval model is exact.

What is computed instead, both proven:

* **incumbent**: the best of the contention-free optimum (:func:`solve_cpsat_exact`: no overlap,
  so eq. (5) with k = 1 holds), SRSF(2), SRSF(3) and Ada-SRSF on the same placement, each also
  improved by the local search of :mod:`hetopt.contention.search` (fluid re-timing); every
  candidate is re-checked against the fluid model by :func:`check_schedule`;
* **lower bound**: CP-SAT on a relaxation (``build_cpsat(..., network="shared")``): each
  all-reduce lasts at least ``a + b sigma`` (k >= 1), and two all-reduces of different jobs
  that share a server end no earlier than ``min(starts) + a + b (sigma_1 + sigma_2) +
  c min(a, |S_1 - S_2|)``, ``c = (b + eta) / (2b + eta)``.  Valid for every fluid schedule: on
  a server carrying ``n`` tasks each task has ``k >= n``, so the transfer rates there sum to at
  most ``n / (n b) = 1 / b`` MB/s; both transfers happen after the earlier start plus the
  latency, and while the later task is in its latency the earlier one moves at most
  ``1 / (2b + eta)`` (:func:`hetopt.contention.cuts.add_pair_cuts`).  Also the first of the
  pair to end moves at most ``1 / (2b + eta)`` while the other is present, so it ends no earlier
  than ``S_z + a + b sigma_z + c (T - max(S_z + a, S_w))``.  The dominated-GPU reduction of
  :mod:`hetopt.contention.cpsat` stays exact (given the sync times the GPUs are independent).
  With ``energy`` (default) the cuts of :mod:`hetopt.contention.link_cuts` are added: the
  stretch cut for every pair sharing a server (an all-reduce transferring while another task is
  on one of its servers moves at most ``1 / (2b + eta)``: ``E_x - S_x >= a + b sigma_x +
  c (min(E_x, E_y) - max(S_x + a, S_y))``, which prices eta), Queyranne's cuts on each server's
  single transfers, and, each time the relaxation is solved to optimality, the window-energy
  cut ``max_K E - min_K S >= a + b sum_K sigma`` of every set K of all-reduces on one server
  that its solution violates (then the relaxation is solved again; every bound of every round
  is proven, the largest is kept).
  Integer times (:mod:`hetopt.contention.timescale`): units ``REFINE`` times finer than the
  data's exact scaling (or, for data with no exact scaling in range, the finest power of ten in
  range, every time rounded down).  Take an optimal fluid schedule of the instance stretched by
  the scaling's ``stretch`` (1 unless some time was rounded up by at most 1e-12) and round every
  time DOWN.  The difference constraints (no-overlap, precedences, durations, the pair cuts
  without latency term: integer constants at most the true ones) still hold, min/max commute
  with rounding down, and the completion cuts and the pair cuts' latency term are lowered by the
  at most ``w(T)`` / 2 units rounding can cost them (:mod:`hetopt.contention.cuts`, ``robust``);
  the link cuts by the allowances stated in :mod:`hetopt.contention.link_cuts`; ``a`` is rounded
  up (``ceil(stretch unit a)``) where it is subtracted and down where it is added.  So an integer
  point of the model has total JCT at most the stretched optimum, and
  :meth:`~hetopt.contention.timescale.TimeScale.lower_bound` turns CP-SAT's bound into a proven
  lower bound of the contention-aware optimum on the true data.  The bound is never below the
  jobs' isolated times (:func:`~hetopt.contention.timescale.isolated_bound`), which is also the
  bound when the time limit leaves no time for the relaxation.

The result is OPTIMAL only when the bound meets the incumbent (relative 1e-6); otherwise
FEASIBLE with the bound and gap (TIME_LIMIT when a solve was stopped by the time limit).  The relaxation
prices eta per pair only and lets latencies overlap transfers at a price paid per pair only, so on
network-bound instances a gap remains.

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, eq. (5), Section III.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..certify import Status, certify, relative_gap
from ..errors import ArgumentError, SizeLimitError, SolverError
from ..inputs import check_choice, check_flag, check_gap, check_size, check_threads, check_time_limit, takes_instance
from ..solvers import solve_cpsat
from ..validate import FEAS_TOL
from .checker import check_schedule
from .cpsat import (
    CPSAT_MAX_TASKS,
    DEFAULT_OPTIONS,
    _starts_of,
    build_cpsat,
    check_cpsat_options,
    cpsat_seed,
    cpsat_tasks,
    gpu_representatives,
    retime,
    solve_cpsat_exact,
)
from .instance import ContentionInstance
from .simulator import simulate
from .solution import ContentionSolution
from .timescale import MAX_UNITS, above, integral_bound, isolated_bound

__all__ = ["LB_SHARE", "REFINE", "SHARED_MAX_PAIRS", "solve_contention_bound"]

#: The relaxation's time unit is this many times finer than the data's exact scaling.
REFINE = 10
#: Seconds to build the relaxation per pair of all-reduces and per task (about 0.9 s for 12,663 pairs and 864
#: tasks on a shared 2-core machine); under a time limit it is not built when it would pass the limit.
RELAXATION_SECONDS_PER_ITEM = 1e-4
#: ``solve_contention_bound`` refuses relaxations with more pairs of all-reduces on a common server (SizeLimitError).
SHARED_MAX_PAIRS = 20_000


def _left(deadline: float | None) -> float | None:
    """Seconds left before ``deadline`` (a ``perf_counter`` time; None: no limit), never below 0."""
    return None if deadline is None else max(deadline - time.perf_counter(), 0.0)


def _best_candidate(inst: ContentionInstance, placement, free: ContentionSolution, *, search: bool,
                    time_limit: float | None, deadline: float | None = None) -> ContentionSolution:
    """The best checked candidate (``free``, then SRSF(2), SRSF(3), Ada-SRSF), each also locally improved with ``search``.

    With a ``deadline`` (the call's start plus its time limit) no simulation, check or search is
    started once it has passed: ``free`` is always there (no overlap: eq. (5) with k = 1), the others
    as far as the clock allows (before issue 31 all three simulations and their checks ran after the
    limit: 1.41-2.83 s at 0.5 s beside a CPU-burning process).  The local searches get a tenth of the
    time limit in all, their setup and checks included, each an equal share of what is left; one is not
    started when what is left is below the most a search before it ran past its share.
    """
    p = [list(x) for x in placement]
    ok: list = [free] if check_schedule(inst, free).ok else []
    for name in ("srsf2", "srsf3", "ada_srsf"):
        if _left(deadline) == 0.0:
            break
        c = simulate(inst, name, placement=p, record=True)
        if _left(deadline) != 0.0 and check_schedule(inst, c).ok:
            ok.append(c)
    if not ok:  # free failed its check: the checker's word stands, nothing unchecked is reported
        raise SolverError("the contention-free schedule fails the contention-aware checker: no checked incumbent")
    if search:
        from .search import improve_schedule

        end = None if time_limit is None else time.perf_counter() + time_limit / 10
        if deadline is not None and end is not None:
            end = min(end, deadline)
        found, over = [], 0.0  # over: the most a search ran past its share (its setup, its last step)
        for i, c in enumerate(list(ok)):
            left = _left(end)
            if left is not None and left <= over:
                break
            share, s0 = None if left is None else left / (len(ok) - i), time.perf_counter()
            found.append(improve_schedule(inst, placement, c, time_limit=share))
            over = max(over, time.perf_counter() - s0 - (share or 0.0))
        ok += [c for c in found if all(c is not o for o in ok) and _left(deadline) != 0.0 and check_schedule(inst, c).ok]
    return min(ok, key=lambda c: c.objective)


def _from_relaxation(inst, placement, tasks, reps, v, values: np.ndarray, best: ContentionSolution,
                     limit: float, deadline: float | None = None) -> ContentionSolution:
    """Fluid schedules in the relaxation's order, locally improved; the best of them and ``best``.

    ``values`` is the relaxation's solution by variable index (:func:`~hetopt.solvers.solve_cpsat`).
    Each local search gets ``limit / 3`` or what is left before ``deadline``; nothing is started after it.
    """
    from .search import fluid_retime, improve_schedule

    starts = {key: int(values[var.index]) for key, var in v["S"].items()}
    for t in tasks:  # a dominated GPU copies its representative's order
        if t.key not in starts:
            starts[t.key] = starts[(t.kind, t.job, t.iteration, reps[t.where])]
    comm = [t for t in tasks if t.kind == "c"]
    ends = {t.key: int(values[v["E"][t.key].index]) for t in comm} if v["E"] else {}
    overlapping = frozenset(x.key for x in comm for y in comm if x.key != y.key and set(x.where) & set(y.where)
                            and starts[x.key] < ends.get(y.key, 0) and starts[y.key] < ends.get(x.key, 0))
    # three readings of the relaxed order: every all-reduce shared, those that overlap there, none
    for shared in (frozenset(t.key for t in comm), overlapping, frozenset()):
        if _left(deadline) == 0.0:
            break
        cand = fluid_retime(inst, placement, starts, shared, deadline=deadline)
        if cand is None or _left(deadline) == 0.0 or not check_schedule(inst, cand).ok:
            continue
        left = _left(deadline)
        cand = improve_schedule(inst, placement, cand, time_limit=limit / 3 if left is None else min(limit / 3, left))
        rep = check_schedule(inst, cand)
        if rep.ok and rep.objective is not None and rep.objective < best.objective:
            best = cand
    return best


#: Share of the relaxation's time kept for a bound-oriented solve (``optimize_with_lb_tree_search``)
#: when the default solve does not solve it.  Off by default: on the 8-job seeds of the card 0.25
#: gave bounds 140.5 / 108.3 / 105.7 against 140.2 / 107.9 / 109.6 (seed 2's default solve needs
#: nearly all of the limit to prove its relaxation).
LB_SHARE = 0.0
#: Most rounds of window-energy set cuts added to the relaxation after it is solved.
MAX_SET_ROUNDS = 10
#: Violated sets added per server and round.
SETS_PER_ROUND = 5


def _solve_with_set_cuts(inst, model, v, tasks, time_limit, t0, threads, seed, lazy: bool, latency: int,
                         latency_floor: int, options: dict | None = None, lb_share: float = 0.0):
    """Solve the relaxation, adding violated window cuts while it is solved to optimality.

    While the relaxation is solved to optimality and its solution violates window cuts
    (:func:`hetopt.contention.link_cuts.violated_sets`), add those sets' cuts and solve again.

    With a time limit and ``lb_share`` > 0, a solve gets ``1 - lb_share`` of the remaining
    time; when it does not solve the relaxation, the rest goes to a second solve with CP-SAT's
    ``optimize_with_lb_tree_search`` (a search aimed at the bound).  Every model solved is a
    relaxation (only valid cuts are added), so every bound is proven; the largest is returned
    (scaled units) with the record of the last default solve (its values in ``info["values"]``).
    """
    from .link_cuts import add_set_cut, violated_sets

    comm = [t for t in tasks if t.kind == "c"]
    servers = sorted({s for t in comm for s in t.where})
    top = v["top"]
    best, rounds, seen = None, 0, set()
    while True:
        rest = None if time_limit is None else max(time_limit - (time.perf_counter() - t0), 0.05)
        first = rest if rest is None or lb_share <= 0 else max(rest * (1 - lb_share), 0.05)
        res = solve_cpsat(model, time_limit=first, threads=threads, seed=seed, raise_on_failure=False,
                          options={**DEFAULT_OPTIONS, **(options or {})})
        values = res.info["values"]
        if res.bound is not None:
            best = res.bound if best is None else max(best, res.bound)
        if res.status is not Status.OPTIMAL and time_limit is not None and lb_share > 0:
            # not solved: the rest of the time on CP-SAT's bound-oriented search (its bound only)
            rest = time_limit - (time.perf_counter() - t0)
            if rest > 0.05:
                lb = solve_cpsat(model, time_limit=rest, threads=threads, seed=seed, raise_on_failure=False,
                                 options={**DEFAULT_OPTIONS, **(options or {}), "optimize_with_lb_tree_search": True})
                if lb.bound is not None:
                    best = lb.bound if best is None else max(best, lb.bound)
            return res, best, rounds
        if not lazy or res.status is not Status.OPTIMAL or values is None or rounds >= MAX_SET_ROUNDS or not comm or \
                (time_limit is not None and time.perf_counter() - t0 >= time_limit):
            return res, best, rounds
        sv = {t.key: int(values[v["S"][t.key].index]) for t in comm}
        ev = {t.key: int(values[v["E"][t.key].index]) for t in comm}
        added = 0
        for s in servers:
            group = [t for t in comm if s in t.where]
            for K in violated_sets(group, sv, ev, latency, latency_floor)[:SETS_PER_ROUND]:
                if K not in seen:
                    seen.add(K)
                    add_set_cut(model, [t for t in group if t.key in K], v["S"], v["E"], latency, latency_floor, top)
                    added += 1
        if not added:
            return res, best, rounds
        rounds += 1
        model.clear_hints()
        for var in v["S"].values():
            model.add_hint(var, int(values[var.index]))


@takes_instance(ContentionInstance)
def solve_contention_bound(
    inst: ContentionInstance,
    *,
    placement: Sequence[Sequence[int]] | None = None,
    time_limit: float | None = None,
    threads: int | None = 1,
    seed: int = 0,
    refine: int = REFINE,
    cuts: bool = True,
    search: bool = True,
    energy: bool = True,
    options: dict | None = None,
    literals: str | None = None,
    lb_share: float = LB_SHARE,
    max_size: int = CPSAT_MAX_TASKS,
) -> ContentionSolution:
    """Best contention-aware schedule found and a proven lower bound, for a fixed placement.

    Parameters
    ----------
    inst : ContentionInstance
        Any magnitudes: the relaxation's units come from :mod:`hetopt.contention.timescale`.
    placement : sequence of GPU lists, optional
        The GPUs of each job.  Default: the placement LWF-1 gives under SRSF(1)
        (``simulate(inst, "srsf1").placement``), as :func:`~hetopt.contention.solve_exact`.
    time_limit : float, optional
        Seconds in all, from the call's start: half for the contention-free optimum, the rest for the
        other candidates and the relaxation, no stage started after it (the relaxation's solves stop a
        twentieth early for the re-timing of its order); a stopped run is TIME_LIMIT with the best
        checked schedule and a proven bound.
    threads : int, optional
    seed : int
        CP-SAT's random seed.
    refine : int
        The relaxation works in units ``refine`` times finer than the exact scaling (module
        docstring).
    cuts : bool
        Add the (robust) completion-time cuts to the relaxation.
    options : dict, optional
        CP-SAT parameters of the relaxation's solves, over :data:`DEFAULT_OPTIONS` (e.g.
        ``{"optimize_with_lb_tree_search": True}``, a search aimed at the bound; see the card).
    energy : bool
        Add the stretch and transfer completion cuts of :mod:`hetopt.contention.link_cuts` to
        the relaxation, and the violated window-energy set cuts each time it is solved.
    lb_share : float
        With a time limit: the share of the relaxation's time kept for a bound-oriented second
        solve when the first does not solve it (:data:`LB_SHARE`; 0 turns it off).
    literals : {None, "windows", "overlap"}
        With ``energy``: the reified forms of :func:`hetopt.contention.cpsat.build_cpsat` (valid,
        slower on the card's 8-job instances).
    search : bool
        Improve every candidate by the local search of :mod:`hetopt.contention.search`
        (toggling all-reduces between exclusive and shared, swapping GPU neighbours; every
        schedule kept passes :func:`check_schedule`).
    max_size : int
        Size guard, in tasks (:data:`~hetopt.contention.cpsat.CPSAT_MAX_TASKS`); see Raises.

    Returns
    -------
    ContentionSolution
        The best candidate schedule (module docstring) with ``bound`` the relaxation's proven
        bound; OPTIMAL only when they meet.  ``solver`` is ``"contention-bound/<candidate>"``.

    Raises
    ------
    ArgumentError
        A bad placement or option.
    InstanceError
        Binding memory.
    SizeLimitError
        More than ``max_size`` tasks (:func:`~hetopt.contention.cpsat.cpsat_tasks`) or more than
        :data:`SHARED_MAX_PAIRS` pairs of all-reduces on a common server.
    """
    time_limit = check_time_limit(time_limit)
    threads = check_threads(threads)
    cp_seed = cpsat_seed(seed=seed)
    refine = check_size(refine, "refine", maximum=MAX_UNITS)  # beyond the integer range no exact scaling is finer
    cuts, search, energy = (check_flag(v, n) for v, n in ((cuts, "cuts"), (search, "search"), (energy, "energy")))
    opts = check_cpsat_options(options)
    literals = check_choice(literals, "literals", (None, "windows", "overlap"))
    share = check_gap(lb_share, "lb_share")
    if share is None:
        raise ArgumentError("lb_share is None; expected a number in [0, 1)")
    max_size = check_size(max_size, "max_size")
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    placement, tasks, sc, n_pairs = _tasks_and_guards(inst, placement, refine, max_size)
    free = solve_cpsat_exact(inst, placement, time_limit=time_limit and max(time_limit / 2 - (time.perf_counter() - t0),
                                                                            0.01),  # half, counted from the start
                             threads=threads, seed=seed, max_tasks=max_size, guard_name="max_size")
    best = _best_candidate(inst, placement, free, search=search, time_limit=time_limit, deadline=deadline)
    info: dict = {"scale": sc.describe(), "exact_scaling": sc.exact, "contention_free": free.status.value}
    relax = _Relaxation(inst, placement, tasks, sc, n_pairs, free, cuts=cuts, energy=energy, literals=literals)
    res, bound_units, rounds = relax.solve(info, time_limit, t0, threads, cp_seed, opts, share)
    if search and res is not None and res.objective is not None and _left(deadline) != 0.0:
        # the relaxation's task order, re-timed under eq. (5), in the twentieth of the limit it kept
        best = _from_relaxation(inst, placement, tasks, relax.reps, relax.v, res.info["values"], best,
                                10.0 if time_limit is None else time_limit / 20, deadline)
    return _certified(inst, placement, best, free, res, bound_units, rounds, sc, info, time_limit, t0)


def _tasks_and_guards(inst: ContentionInstance, placement, refine: int, max_size: int):
    """``(placement, tasks, scale, n_pairs)``: the relaxation's tasks in its units, after both size guards."""
    least = int(np.sum(inst.iterations * 2 * inst.n_gpus))
    if least > max_size:  # before the SRSF(1) run that picks the placement
        raise SizeLimitError(f"the relaxation would have at least {least} tasks (forward and backward passes); at most "
                             f"max_size = {max_size} tasks allowed: pass max_size=... (with a time_limit) or solve a "
                             "smaller instance")
    if placement is None:
        placement = simulate(inst, "srsf1").placement
    tasks, sc = cpsat_tasks(inst, placement, refine=refine, max_tasks=max_size, guard_name="max_size")  # its units
    placement = tuple(tuple(int(g) for g in p) for p in placement)
    comm = [t for t in tasks if t.kind == "c"]
    n_pairs = sum(1 for i, x in enumerate(comm) for y in comm[i + 1:] if x.job != y.job and set(x.where) & set(y.where))
    if n_pairs > SHARED_MAX_PAIRS:
        raise SizeLimitError(f"the contention-aware relaxation would have {n_pairs} pairs of all-reduces sharing a "
                             f"server (each a pair and a stretch cut); at most SHARED_MAX_PAIRS = {SHARED_MAX_PAIRS} "
                             "allowed: use solve_exact for the contention-free optimum, or a smaller instance")
    return placement, tasks, sc, n_pairs


class _Relaxation:
    """The contention-aware relaxation of one call: built and solved only while its time limit allows."""

    def __init__(self, inst, placement, tasks, sc, n_pairs: int, free: ContentionSolution, *, cuts: bool,
                 energy: bool, literals: str | None):
        self.inst, self.placement, self.tasks, self.sc, self.n_pairs, self.free = inst, placement, tasks, sc, n_pairs, free
        self.cuts, self.energy, self.literals = cuts, energy, literals
        self.reps = gpu_representatives(placement)
        self.model_tasks = [t for t in tasks if t.kind == "c" or self.reps[t.where] == t.where]
        self.latency, self.latency_floor = sc.ceil_stretched(inst.a), sc.floor_units(inst.a)
        self.v: dict = {}

    def solve(self, info: dict, time_limit: float | None, t0: float, threads, cp_seed: int, opts: dict, share: float):
        """``(result or None, bound in units or None, rounds)``; why it was skipped in ``info["skipped"]``.

        It is not built when its estimated build would pass the limit, not solved when the build
        passed it, and its solves stop a twentieth of the limit early, kept for the re-timing of its order.
        """
        inst, sc = self.inst, self.sc
        estimate = RELAXATION_SECONDS_PER_ITEM * (self.n_pairs + len(self.model_tasks))
        if time_limit is not None and time.perf_counter() - t0 + estimate >= time_limit:
            info["skipped"] = (f"time limit: about {estimate:.2g} s would be needed to build the relaxation "
                               f"({self.n_pairs} pairs of all-reduces, {len(self.model_tasks)} tasks)")
            return None, None, 0
        arr_s = [sc.units(float(a)) for a in inst.arrival]
        hint, hint_finish = retime(inst, self.placement, self.tasks, _starts_of(self.free.trace), scaled=True,
                                   arrival=arr_s)
        hint_obj = int(round(float(hint_finish.sum()) - sum(arr_s)))
        model, self.v = build_cpsat(inst, self.placement, self.model_tasks, arrival=arr_s, hint=hint,
                                    upper_objective=hint_obj, network="shared", latency=self.latency,
                                    latency_floor=self.latency_floor, waste=(inst.b + inst.eta) / (2 * inst.b + inst.eta),
                                    cuts=self.cuts, energy=self.energy, literals=self.literals if self.energy else None)
        solve_limit = None if time_limit is None else time_limit * 19 / 20
        if solve_limit is not None and time.perf_counter() - t0 >= solve_limit:
            info["skipped"] = "time limit reached while the relaxation was built"
            return None, None, 0
        return _solve_with_set_cuts(inst, model, self.v, self.tasks, solve_limit, t0, threads, cp_seed,
                                    self.energy and self.cuts, self.latency, self.latency_floor, opts, share)


def _certified(inst, placement, best: ContentionSolution, free: ContentionSolution, res, bound_units, rounds: int,
               sc, info: dict, time_limit: float | None, t0: float) -> ContentionSolution:
    """``best`` with the proven bound (the relaxation's or the isolated times) and an honest status."""
    arr_s = [sc.units(float(a)) for a in inst.arrival]
    bound, info["bound_from"] = isolated_bound(inst, placement), "isolated job times"
    if bound_units is not None:
        b = sc.lower_bound(integral_bound(bound_units), arr_s, inst.arrival)
        if b > bound:
            bound, info["bound_from"] = b, "relaxation"
    if above(bound, best.objective, inst, best.finish):
        # the candidates are event-driven fluid schedules, feasible up to the checker's tolerance
        # (FEAS_TOL relative): one may end a few ulps of its tasks early, so its total JCT may sit that much
        # below the optimum.  Within that tolerance min(bound, objective) is still a proven bound; beyond it
        # the relaxation is wrong.
        if bound - best.objective > FEAS_TOL * inst.n_jobs * max(abs(best.objective), float(np.max(best.finish))):
            raise SolverError(f"relaxation bound {bound} above the feasible total JCT {best.objective} of "
                              f"{best.solver}: the relaxation is not valid for this instance")
        info["bound_clipped"] = f"relaxation bound {bound} above {best.solver}'s total JCT (within FEAS_TOL)"
        bound = best.objective
    gap = relative_gap(best.objective, bound)
    stopped = time_limit is not None and (res is None or Status.TIME_LIMIT in (res.status, free.status)
                                          or time.perf_counter() - t0 >= time_limit)
    status = certify(best.objective, bound, stopped=stopped, sense="min")
    relax = "not solved: " + info["skipped"] if res is None else f"{res.status.value} after {rounds} round(s) of set cuts"
    msg = (f"incumbent {best.solver} (total JCT {best.objective:g}; contention-free optimum {free.objective:g}, "
           f"{free.status.value}); relaxation {relax}; {sc.describe()}; bound {bound} from {info['bound_from']}")
    return replace(best, status=status, bound=bound, gap=gap, wall_time=time.perf_counter() - t0,
                   solver=f"contention-bound/{best.solver}", message=msg, info={**best.info, **info})
