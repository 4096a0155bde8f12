"""The contention-free scheduling problem of Wang et al. as an OR-Tools CP-SAT interval model.

Same problem as the time-indexed MILP (:func:`hetopt.contention.model.build_milp`): a fixed
placement, the global DAG of Fig. 3, each GPU runs one forward/backward pass at a time (S3),
each server's network carries at most one all-reduce at a time (S4: eq. (5) with k = 1),
minimise the total JCT (6).  In continuous time:

- one fixed-size interval per forward ``("f", k, i, g)`` and backward ``("b", k, i, g)`` pass,
  in one ``AddNoOverlap`` per GPU (S3);
- one fixed-size interval per all-reduce ``("c", k, i)`` of a multi-server job, in the
  ``AddNoOverlap`` of every server it uses (S4);
- precedences (S2a) f -> b, (S2b) every b -> the iteration's all-reduce, or -> a barrier
  variable ``B[k, i]`` (the zero-length barrier of a single-server job), (S2c) all-reduce /
  barrier -> every forward of the next iteration; starts not before ``A_k`` (S1);
- ``F_k`` = end of the last all-reduce / barrier (S5); objective ``sum_k (F_k - A_k)`` (6);
  with ``upper_bound`` U the cut ``sum_k (F_k - A_k) <= U`` (S6).

Dominated GPUs (an exact reduction).  Given the all-reduce / barrier times, the GPUs are
independent: a GPU's schedule is feasible iff each forward of iteration i starts after the
iteration i - 1 sync and each backward ends before the iteration i sync.  So when the jobs of
GPU g' are a subset of those of GPU g, g's schedule restricted to them is feasible on g' with
the same syncs: only the GPUs whose job set is maximal under inclusion (one per set) are
modelled (:func:`gpu_representatives`), and each other GPU copies the schedule of a GPU whose
job set contains its own.  The optimum is unchanged (the tests compare with the full MILP).

Equivalence with the MILP.  With integral data, some optimal schedule is semi-active (every
task starts at the end of a predecessor or resource predecessor, or at an arrival), so its
starts are integral and lie on the MILP's slot grid: both models have the same optimum (the
tests compare them).  The CP-SAT model does not need a grid, so it also takes data that are
not multiples of a slot.

Integer scaling and the certificate
-----------------------------------
Times (arrivals, ``t_f``, ``t_b``, ``a + b sigma``) are converted to integer units by
:mod:`hetopt.contention.timescale` (the issue-25 option "solve a scaled copy and certify on the
true data"): the coarsest power of ten in which they are whole numbers when the scaled horizon
stays within :data:`~hetopt.contention.timescale.MAX_UNITS`, else the finest power of ten
within it, every time rounded DOWN (a task of 1e-10 s beside 1 s lasts 0 units of 1e-7 s).

* incumbent: CP-SAT's per-resource orders (and SRSF(1)'s, the better one is kept) are re-timed
  semi-actively on the TRUE data (:func:`retime`); the objective is recomputed on the true data;
* bound: rounding an optimal true schedule down to the units keeps it feasible for the integer
  model, so ``OPT >= (B + sum A') / (stretch * unit) - sum A`` with ``B`` CP-SAT's bound
  (:meth:`~hetopt.contention.timescale.TimeScale.lower_bound`), and never below the jobs'
  isolated times (:func:`~hetopt.contention.timescale.isolated_bound`).

OPTIMAL only when this bound, computed on the true data after the solve, meets the true
objective within ``OPTIMAL_RTOL``; with rounded data a gap may remain (FEASIBLE).

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Section III.
L. Perron, F. Didier, "CP-SAT", OR-Tools v9, Google (2024).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..certify import Status, certify, relative_gap
from ..errors import ArgumentError, InfeasibleError, SizeLimitError, SolverError
from ..inputs import check_flag, check_positive, check_seed, check_size, check_threads, check_time_limit, takes_instance
from ..solvers import solve_cpsat
from .cuts import add_completion_cuts, add_pair_cuts
from .instance import ContentionInstance
from .model import check_exact_placement
from .solution import ContentionSolution, TaskRecord, schedule_solution
from .timescale import TimeScale, above, choose_scale, integral_bound, isolated_bound

__all__ = ["CPSAT_MAX_TASKS", "DEFAULT_OPTIONS", "CpTask", "cpsat_tasks", "gpu_representatives", "build_cpsat",
           "retime", "best_retimed", "solve_cpsat_exact", "check_cpsat_options", "cpsat_seed"]

#: ``solve_cpsat_exact`` refuses instances with more tasks than this (SizeLimitError).
CPSAT_MAX_TASKS = 20_000
_PHASE = {"f": 0, "b": 1, "c": 2}
#: CP-SAT parameters of :func:`solve_cpsat_exact`: the full linear relaxation (with the cuts it
#: proves the 8-job instances of the bench; the default level 1 leaves a large bound gap).
DEFAULT_OPTIONS = {"linearization_level": 2}


@dataclass(frozen=True)
class CpTask:
    """One task of the global DAG: key ``(kind, k, i[, g])``, resource, true and scaled durations."""

    key: tuple
    job: int
    iteration: int
    kind: str
    #: the GPU (an int) of a forward or backward pass, the servers (a tuple) of an all-reduce (``kind`` says which)
    where: Any
    duration: float
    scaled: int


def check_cpsat_options(options: Any, name: str = "options") -> dict:
    """CP-SAT parameters by name (a dict of ``SatParameters`` fields), checked: ArgumentError naming ``name``."""
    from ortools.sat.python import cp_model

    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ArgumentError(f"{name} is {options!r:.60}; expected a dict of CP-SAT parameters or None")
    params = cp_model.CpSolver().parameters
    for key, value in options.items():
        if not isinstance(key, str) or not hasattr(params, key):
            raise ArgumentError(f"{name} has {key!r}; not a CP-SAT parameter (SatParameters field)")
        try:
            setattr(params, key, value)
        except (TypeError, ValueError) as exc:
            raise ArgumentError(f"{name}[{key!r}] is {value!r}; {exc}") from None
    return dict(options)


def cpsat_seed(*, seed: Any) -> int:
    """CP-SAT's 31-bit ``random_seed`` from a seed checked by :func:`hetopt.inputs.check_seed`.

    An integer seed in ``[0, 2**63 - 1]`` is taken modulo ``2**31`` (seeds below it unchanged); a
    ``numpy.random.Generator`` draws one.
    """
    checked = check_seed(seed)
    if checked is None:
        return 0
    if isinstance(checked, np.random.Generator):
        return int(checked.integers(0, 2**31))
    return int(checked) % 2**31


def cpsat_tasks(inst: ContentionInstance, placement: Sequence[Sequence[int]], *,
                max_tasks: int = CPSAT_MAX_TASKS, refine: int = 1,
                guard_name: str = "max_tasks") -> tuple[list[CpTask], TimeScale]:
    """Tasks of the contention-free problem with their durations in integer units, and the units.

    Parameters
    ----------
    refine : int
        An exact scaling is made this many times finer (:func:`hetopt.contention.timescale.choose_scale`).
    guard_name : str
        The option a refusal names (``max_size`` when a method's guard is passed on).

    Raises
    ------
    ArgumentError
        A bad placement.
    InstanceError
        Memory that would bind.
    SizeLimitError
        More than ``max_tasks`` tasks.
    """
    placement = check_exact_placement(inst, placement)
    gps = inst.gpus_per_server
    servers = [tuple(sorted({g // gps for g in p})) for p in placement]
    count = int(sum(int(inst.iterations[k]) * (2 * len(placement[k]) + (len(servers[k]) > 1))
                    for k in range(inst.n_jobs)))
    if count > max_tasks:
        raise SizeLimitError(f"the CP-SAT model would have {count} tasks (forward, backward passes and all-reduces); "
                             f"at most {guard_name} = {max_tasks} allowed: pass {guard_name}={count} "
                             "(with a time_limit) "
                             "or solve a smaller instance")
    comm = np.array([inst.comm_time(k) if len(servers[k]) > 1 else 0.0 for k in range(inst.n_jobs)])
    work = float(sum(inst.iterations[k] * (len(placement[k]) * (inst.t_f[k] + inst.t_b[k]) + comm[k])
                     for k in range(inst.n_jobs)))
    horizon = float(inst.arrival.max()) + work
    sc = choose_scale([*inst.arrival, *inst.t_f, *inst.t_b, *comm], horizon, refine=refine)
    per_job = [(sc.units(inst.t_f[k]), sc.units(inst.t_b[k]), sc.units(comm[k])) for k in range(inst.n_jobs)]
    tasks: list[CpTask] = []
    for k in range(inst.n_jobs):
        pf, pb, pc = per_job[k]
        for i in range(int(inst.iterations[k])):
            for g in placement[k]:
                tasks.append(CpTask(("f", k, i, g), k, i, "f", g, float(inst.t_f[k]), pf))
                tasks.append(CpTask(("b", k, i, g), k, i, "b", g, float(inst.t_b[k]), pb))
            if len(servers[k]) > 1:
                tasks.append(CpTask(("c", k, i), k, i, "c", servers[k], float(comm[k]), pc))
    return tasks, sc


def gpu_representatives(placement) -> dict[int, int]:
    """GPU -> the modelled GPU whose schedule it copies (module docstring: dominated GPUs).

    A GPU represents itself when its job set is maximal under inclusion and it is the lowest
    index with that set; any other GPU maps to the lowest-index GPU with a maximal set that
    contains its own.
    """
    jobs: dict[int, frozenset] = {}
    for k, gpus in enumerate(placement):
        for g in gpus:
            jobs[int(g)] = jobs.get(int(g), frozenset()) | {k}
    rep_of_set: dict[frozenset, int] = {}
    for g in sorted(jobs):
        rep_of_set.setdefault(jobs[g], g)
    maximal = [js for js in rep_of_set if not any(js < other for other in rep_of_set)]
    out = {}
    for g, js in jobs.items():
        out[g] = min(rep_of_set[m] for m in maximal if js <= m)
    return out


def retime(inst: ContentionInstance, placement, tasks: list[CpTask], starts: dict, *, scaled: bool,
           arrival: Sequence[float] | None = None) -> tuple[dict, np.ndarray]:
    """Semi-active schedule keeping the per-GPU and per-network order of ``starts``.

    Tasks are taken in the order ``(start, job, iteration, phase)`` (a topological order of the
    DAG plus the resource orders when ``starts`` is a schedule) and each starts as early as its
    predecessors, its resources and its job's arrival allow, with the true durations (or the
    scaled ones when ``scaled``).  With durations no longer than those ``starts`` was built
    with, no start moves later.

    Returns
    -------
    (dict, numpy.ndarray)
        Start of every task key, and each job's completion ``F_k``.
    """
    dur = {t.key: t.scaled for t in tasks} if scaled else {}
    out, _, sync_end = semi_active_pass(inst, placement, tasks, starts, durations=dur, arrival=arrival)
    finish = np.array([sync_end[(k, int(inst.iterations[k]) - 1)] for k in range(inst.n_jobs)], dtype=float)
    return out, finish


def semi_active_pass(inst: ContentionInstance, placement, tasks: list[CpTask], starts: dict, *,
                     durations: dict | None = None, arrival: Sequence[float] | None = None,
                     shared: frozenset = frozenset()) -> tuple[dict, dict, dict]:
    """One semi-active pass in the order ``(start, job, iteration, phase)`` of ``starts``.

    Each task starts as early as its predecessors, its resources and its job's arrival allow;
    its length is ``durations[key]`` (default ``t.duration``).  The all-reduces in ``shared``
    do not wait for their network resources (they still occupy them until they end).

    Returns
    -------
    (dict, dict, dict)
        Starts and ends by task key, and the end of every iteration's all-reduce or barrier by
        ``(job, iteration)``.
    """
    arr = inst.arrival if arrival is None else arrival
    durations = {} if durations is None else durations
    multi = [_has_comm(inst, placement[k]) for k in range(inst.n_jobs)]
    free: dict = {}
    end: dict = {}
    sync_end: dict = {}  # (k, i) -> end of the all-reduce or barrier
    b_end: dict = {}  # (k, i) -> latest backward end so far
    b_left = {(k, i): len(placement[k]) for k in range(inst.n_jobs) for i in range(int(inst.iterations[k]))}
    out: dict = {}
    for t in sorted(tasks, key=lambda t: (starts[t.key], t.job, t.iteration, _PHASE[t.kind])):
        p = durations.get(t.key, t.duration)
        k, i = t.job, t.iteration
        if t.kind == "f":
            ready = float(arr[k]) if i == 0 else sync_end[(k, i - 1)]
            res = [("g", t.where)]
        elif t.kind == "b":
            ready = end[("f", k, i, t.where)]
            res = [("g", t.where)]
        else:
            ready = b_end[(k, i)]
            res = [("n", s) for s in t.where]
        wait = [] if t.key in shared else res
        s = max([ready] + [free.get(r, 0.0) for r in wait])
        out[t.key] = s
        end[t.key] = s + p
        for r in res:
            free[r] = max(free.get(r, 0.0), s + p)
        if t.kind == "b":
            b_end[(k, i)] = max(b_end.get((k, i), -math.inf), s + p)
            b_left[(k, i)] -= 1
            if b_left[(k, i)] == 0 and not multi[k]:
                sync_end[(k, i)] = b_end[(k, i)]  # the zero-length barrier of a single-server job
        elif t.kind == "c":
            sync_end[(k, i)] = s + p
    return out, end, sync_end


def _has_comm(inst: ContentionInstance, gpus) -> bool:
    return len({g // inst.gpus_per_server for g in gpus}) > 1


def build_cpsat(inst: ContentionInstance, placement, tasks: list[CpTask], *, arrival: Sequence[int],
                upper_objective: int | None = None, cut: int | None = None, hint: dict | None = None,
                cuts: bool = True, network: str = "exclusive", latency: int = 0, latency_floor: int = 0,
                waste: float = 0.0, energy: bool = False, literals: str | None = None):
    """The CP-SAT model of the contention-free problem on scaled integer data.

    Parameters
    ----------
    inst : ContentionInstance
    placement : sequence of GPU tuples
    tasks : list of CpTask
        From :func:`cpsat_tasks` (``scaled`` durations are used).
    arrival : sequence of int
        Scaled arrivals.
    upper_objective : int, optional
        Scaled total JCT of a schedule at least as good as every solution sought: the start
        domains become the windows ``F_k <= A_k + U - sum_{j != k} LB_j`` (``LB_j`` the job's
        critical path), which no such solution violates.
    cut : int, optional
        Impose ``sum_k (F_k - A_k) <= cut`` (S6).
    hint : dict, optional
        Scaled start of every task key (a feasible schedule), given to CP-SAT as a hint.
    cuts : bool
        Add the valid completion-time inequalities of :func:`hetopt.contention.cuts.add_completion_cuts` (they
        tighten CP-SAT's linear relaxation; no schedule is cut off).
    network : {"exclusive", "shared"}
        "exclusive": (S4), one all-reduce at a time per server network.  "shared": the
        relaxation of the contention-aware problem of :mod:`hetopt.contention.shared`: an
        all-reduce lasts at least its contention-free time, and any two that share a server
        end no earlier than ``min(starts) + latency + (their durations - 2 latency)``.
    latency, latency_floor : int
        Scaled latency ``a`` rounded up / down (``network="shared"`` only).
    waste : float
        ``(b + eta) / (2b + eta)`` for the pair cuts (``network="shared"`` only;
        :func:`hetopt.contention.cuts.add_pair_cuts`).
    energy : bool
        ``network="shared"`` only: add the stretch cuts of :mod:`hetopt.contention.link_cuts`
        for every pair of all-reduces on a common server (the first-finisher cut stays where
        :func:`hetopt.contention.cuts.add_pair_cuts` adds it: its rounding allowance is smaller)
        and the per-all-reduce completion cuts of each server's transfers.
    literals : {None, "windows", "overlap"}
        With ``energy``: also the window-energy cuts with order literals (``n^3`` literals per
        server; :func:`hetopt.contention.link_cuts.add_window_cuts`), or the per-pair overlap
        disjunctions (:func:`hetopt.contention.link_cuts.add_overlap_disjunctions`).  Both are
        valid; on the 8-job instances of the card both make CP-SAT's bound worse at 60 s.

    Returns
    -------
    (CpModel, dict)
        The model; ``"S"`` maps task keys to start variables, ``"F"`` the completions.
    """
    from ortools.sat.python import cp_model

    nj = inst.n_jobs
    dur = {(t.job, t.kind): t.scaled for t in tasks}
    period = [dur[(k, "f")] + dur[(k, "b")] + dur.get((k, "c"), 0) for k in range(nj)]
    lb = [int(inst.iterations[k]) * period[k] for k in range(nj)]
    serial = max(arrival) + sum(t.scaled for t in tasks)
    if upper_objective is not None and upper_objective < sum(lb):
        raise InfeasibleError(f"the scaled bound {upper_objective} is below the sum of the jobs' critical paths")
    h = [serial if upper_objective is None else min(serial, arrival[k] + upper_objective - (sum(lb) - lb[k]))
         for k in range(nj)]
    if network not in ("exclusive", "shared"):
        raise ArgumentError(f"network is {network!r}; expected 'exclusive' or 'shared'")
    if literals not in (None, "windows", "overlap"):
        raise ArgumentError(f"literals is {literals!r}; expected None, 'windows' or 'overlap'")
    shared = network == "shared"
    m = cp_model.CpModel()
    S, iv, E = {}, {}, {}
    for t in tasks:
        k, i = t.job, t.iteration
        base = arrival[k] + i * period[k]
        tail = (int(inst.iterations[k]) - i) * period[k]
        off = {"f": 0, "b": dur[(k, "f")], "c": dur[(k, "f")] + dur[(k, "b")]}[t.kind]
        lo, hi = base + off, h[k] - tail + off
        S[t.key] = m.new_int_var(lo, max(lo, hi), "S" + "_".join(map(str, t.key)))
        iv[t.key] = m.new_fixed_size_interval_var(S[t.key], t.scaled, "I" + "_".join(map(str, t.key)))
        if shared and t.kind == "c":
            e_hi = h[k] - (int(inst.iterations[k]) - i - 1) * period[k]
            E[t.key] = m.new_int_var(lo + t.scaled, max(lo + t.scaled, e_hi), "E" + "_".join(map(str, t.key)))
            m.add(E[t.key] >= S[t.key] + t.scaled)
    per_res: dict = {}
    for t in tasks:
        for r in ([("g", t.where)] if t.kind != "c" else [("n", s) for s in t.where]):
            per_res.setdefault(r, []).append(iv[t.key] if t.kind != "c" or not shared else t)
    # a server network whose all-reduces all use another server too is implied by that one's no-overlap
    net_jobs = {r: frozenset(t.job for t in tasks if t.kind == "c" and r[1] in t.where) for r in per_res if r[0] == "n"}
    implied = {r for r in net_jobs if any(net_jobs[r] < net_jobs[o] or (net_jobs[r] == net_jobs[o] and o < r)
                                          for o in net_jobs)}
    cut_pairs: set = set()
    top = max(max(h), serial) + max(t.scaled for t in tasks)
    for r, ivs in per_res.items():
        if len(ivs) > 1 and r not in implied:
            if shared and r[0] == "n":
                add_pair_cuts(m, ivs, S, E, latency, top, latency_floor=latency_floor, waste=waste, done=cut_pairs)
            else:
                m.add_no_overlap(ivs)  # (S3) per GPU, (S4) per server network
    if energy and shared:
        from .link_cuts import add_link_cuts

        release = {t.key: arrival[t.job] + t.iteration * period[t.job] + dur[(t.job, "f")] + dur[(t.job, "b")]
                   for t in tasks if t.kind == "c"}  # the lower end of the all-reduce's start domain
        add_link_cuts(m, [t for t in tasks if t.kind == "c"], sorted(r[1] for r in per_res if r[0] == "n" and
                                                                     r not in implied),
                      S, E, release, latency, latency_floor, waste, top, literals)
    F = [m.new_int_var(arrival[k] + lb[k], max(arrival[k] + lb[k], h[k]), f"F{k}") for k in range(nj)]
    by_job: dict = {}
    for t in tasks:
        by_job.setdefault((t.job, t.iteration, t.kind), []).append(t)
    for k in range(nj):
        it = int(inst.iterations[k])
        for i in range(it):
            fs, bs, cs = (by_job.get((k, i, x), []) for x in "fbc")
            for f in fs:  # (S2a)
                m.add(S[("b", k, i, f.where)] >= S[f.key] + f.scaled)
            if cs:
                sync = S[cs[0].key]
                sync_end = E[cs[0].key] if shared else sync + cs[0].scaled
            else:
                sync = sync_end = m.new_int_var(0, max(h[k], serial), f"B{k}_{i}")
            for b in bs:  # (S2b)
                m.add(sync >= S[b.key] + b.scaled)
            if i + 1 < it:
                for f in by_job[(k, i + 1, "f")]:  # (S2c)
                    m.add(S[f.key] >= sync_end)
            else:
                m.add(F[k] >= sync_end)  # (S5)
    if cuts:
        add_completion_cuts(m, inst, tasks, F, arrival, dur, latency=latency if shared else 0, robust=shared,
                            latency_floor=latency_floor if shared else 0)
    total = sum(F) - int(sum(arrival))
    m.minimize(total)  # (6)
    if cut is not None:
        m.add(total <= cut)  # (S6)
    if hint is not None:
        for key, var in S.items():
            m.add_hint(var, int(round(hint[key])))
    return m, {"S": S, "F": F, "E": E, "top": top}


def _starts_of(trace) -> dict:
    """Task key -> start of a recorded schedule."""
    return {(r.kind, r.job, r.iteration) if r.kind == "c" else (r.kind, r.job, r.iteration, r.where): r.start
            for r in trace}


def _upper_cut_hit(objective: float, upper_bound: float | None) -> bool:
    return upper_bound is not None and objective > upper_bound * (1 + 1e-9)


@takes_instance(ContentionInstance)

def best_retimed(inst, placement, tasks, candidates):
    """The best of ``candidates`` (``(name, starts)`` task orders), each re-timed on the TRUE data.

    Returns ``(objective, name, true_starts, finish, trace)``: the total JCT, the winning
    candidate's name, its re-timed starts and job finishes, and its :class:`TaskRecord` trace.
    """
    best = None
    for name, starts in candidates:
        true_starts, finish = retime(inst, placement, tasks, starts, scaled=False)
        objective = float(np.sum(finish - inst.arrival))
        if best is None or objective < best[0]:
            best = (objective, name, true_starts, finish)
    if best is None:
        raise ValueError("best_retimed needs at least one candidate")
    objective, name, true_starts, finish = best
    trace = [TaskRecord(t.kind, t.job, t.iteration, t.where, true_starts[t.key], true_starts[t.key] + t.duration)
             for t in tasks]
    return objective, name, true_starts, finish, trace


def solve_cpsat_exact(
    inst: ContentionInstance,
    placement: Sequence[Sequence[int]],
    *,
    upper_bound: float | None = None,
    time_limit: float | None = None,
    threads: int | None = 1,
    seed: int | np.random.Generator | None = 0,
    cuts: bool = True,
    reduce: bool = True,
    options: dict | None = None,
    max_tasks: int = CPSAT_MAX_TASKS,
    guard_name: str = "max_tasks",
) -> ContentionSolution:
    """Optimal contention-free schedule for a fixed placement, by CP-SAT (module docstring).

    Parameters
    ----------
    inst : ContentionInstance
    placement : sequence of GPU lists
    upper_bound : float, optional
        Total JCT (s) imposed as a constraint (S6), with a relative tolerance of 1e-9; a bound
        below the optimum raises :class:`~hetopt.errors.InfeasibleError`, never an OPTIMAL result.
    time_limit : float, optional
        Seconds in all (the SRSF(1) hint, the model and the solve); a stopped solve is TIME_LIMIT
        with its incumbent (or SRSF(1)'s schedule when CP-SAT has none) and a valid bound (at
        least the jobs' isolated times).
    threads : int, optional
        CP-SAT workers (1: deterministic for a given ``seed``).
    seed : int or numpy.random.Generator, optional
        CP-SAT's random seed (:func:`cpsat_seed`).
    cuts : bool
        Add the valid completion-time cuts (:func:`hetopt.contention.cuts.add_completion_cuts`).
    reduce : bool
        Model only the GPUs of :func:`gpu_representatives` (exact; module docstring).
    options : dict, optional
        CP-SAT parameters by name (``SatParameters`` fields), over :data:`DEFAULT_OPTIONS`.
    max_tasks : int
        Refuse larger models (:class:`~hetopt.errors.SizeLimitError`).
    guard_name : str
        The option the refusal names (``max_size`` when :func:`~hetopt.contention.solve_exact`
        passes its guard on).

    Returns
    -------
    ContentionSolution
        ``solver="cpsat"``; the schedule in ``trace``; ``bound`` valid for the true problem;
        ``info`` says the units (``scale``, ``exact_scaling``), where the bound and the incumbent
        come from.
    """
    from .simulator import simulate

    time_limit = check_time_limit(time_limit)
    threads = check_threads(threads)
    cp_seed = cpsat_seed(seed=seed)
    cuts = check_flag(cuts, "cuts")
    reduce = check_flag(reduce, "reduce")
    opts = check_cpsat_options(options)
    max_tasks = check_size(max_tasks, "max_tasks")
    if upper_bound is not None:
        upper_bound = check_positive(upper_bound, "upper_bound", allow_zero=True)
    t0 = time.perf_counter()
    tasks, sc = cpsat_tasks(inst, placement, max_tasks=max_tasks, guard_name=guard_name)
    placement = tuple(tuple(int(g) for g in p) for p in placement)
    trivial = isolated_bound(inst, placement)
    if upper_bound is not None and trivial > upper_bound * (1 + 1e-9):
        raise InfeasibleError(f"upper_bound {upper_bound} is below the sum of the jobs' critical paths ({trivial}): "
                              "no schedule meets it")
    arr_s = [sc.units(float(a)) for a in inst.arrival]
    # hint: SRSF(1) on this placement, re-timed on the integer data (feasible there)
    heur = simulate(inst, "srsf1", placement=[list(p) for p in placement], record=True)
    heur_starts = _starts_of(heur.trace)
    hint, hint_finish = retime(inst, placement, tasks, heur_starts, scaled=True, arrival=arr_s)
    hint_obj = int(round(float(hint_finish.sum()) - sum(arr_s)))
    cut = None if upper_bound is None else sc.cut(upper_bound, arr_s, inst.arrival)
    reps = gpu_representatives(placement) if reduce else {g: g for p in placement for g in p}
    model_tasks = [t for t in tasks if t.kind == "c" or reps[t.where] == t.where]
    info: dict[str, Any] = {"scale": sc.describe(), "exact_scaling": sc.exact}
    res, v = None, None
    if time_limit is not None and time.perf_counter() - t0 >= time_limit:
        info["skipped"] = "time limit reached before the model was built"
    else:
        try:
            model, v = build_cpsat(inst, placement, model_tasks, arrival=arr_s, hint=hint, cut=cut, cuts=cuts,
                                   upper_objective=hint_obj if cut is None else min(hint_obj, cut))
        except InfeasibleError:
            raise InfeasibleError(f"upper_bound {upper_bound} is below the sum of the jobs' critical paths: "
                                  "no schedule meets it") from None
        rest = None if time_limit is None else time_limit - (time.perf_counter() - t0)
        if rest is not None and rest <= 0.01:
            info["skipped"] = "time limit reached while the model was built"
        else:
            res = solve_cpsat(model, time_limit=rest, threads=threads, seed=cp_seed, raise_on_failure=False,
                              options={**DEFAULT_OPTIONS, **opts})
            if res.status is Status.INFEASIBLE and (cut is None or hint_obj <= cut):
                # the hint is a feasible point of the model: CP-SAT's claim is a solver failure (its linear
                # relaxation on large domains); solve again without the full linearization
                info["fallback"] = (f"CP-SAT declared a model with a feasible point infeasible ({res.message}, "
                                    "linearization_level 2); solved again with linearization_level 1")
                rest = None if time_limit is None else max(time_limit - (time.perf_counter() - t0), 0.01)
                res = solve_cpsat(model, time_limit=rest, threads=threads, seed=cp_seed, raise_on_failure=False,
                                  options={**DEFAULT_OPTIONS, **opts, "linearization_level": 1})
                if res.status is Status.INFEASIBLE:
                    raise SolverError(f"cpsat: a model with a feasible point declared infeasible twice ({res.message})")
            if res.status is Status.INFEASIBLE:
                raise InfeasibleError(f"no contention-free schedule with this placement has total JCT <= upper_bound = "
                                      f"{upper_bound}: the bound is below the optimum (CP-SAT proved infeasibility)")
            if res.objective is None and res.status is not Status.TIME_LIMIT:
                raise SolverError(f"cpsat: solve failed ({res.status.value}: {res.message})")
    candidates = [("srsf1", heur_starts)]
    if res is not None and res.objective is not None and res.info["values"] is not None and v is not None:
        values = res.info["values"]
        starts = {key: int(values[var.index]) for key, var in v["S"].items()}
        for t in tasks:  # a dominated GPU copies its representative's schedule
            if t.key not in starts:
                starts[t.key] = starts[(t.kind, t.job, t.iteration, reps[t.where])]
        candidates.insert(0, ("cpsat", starts))
    objective, source, true_starts, finish, trace = best_retimed(inst, placement, tasks, candidates)
    bound, info["bound_from"] = trivial, "isolated job times"
    if res is not None and res.bound is not None:
        b = sc.lower_bound(integral_bound(res.bound), arr_s, inst.arrival)
        if b > bound:
            bound, info["bound_from"] = b, "cpsat"
    info["incumbent"] = source
    if above(bound, objective, inst, finish):
        raise SolverError(f"cpsat: bound {bound} above the re-timed schedule's total JCT {objective}: "
                          "the scaling certificate does not hold")
    if _upper_cut_hit(objective, upper_bound) and bound > upper_bound * (1 + 1e-9):  # type: ignore[operator]
        raise InfeasibleError(f"no contention-free schedule with this placement has total JCT <= upper_bound = "
                              f"{upper_bound}: the proven bound is {bound}")
    stopped = time_limit is not None and (res is None or res.status is Status.TIME_LIMIT)
    status = certify(objective, bound, stopped=stopped, sense="min")
    gap = relative_gap(objective, bound)
    msg = (f"{res.message if res is not None else 'not solved: ' + info['skipped']}; {sc.describe()}; "
           f"incumbent {source}, bound from {info['bound_from']}")
    return schedule_solution(inst, placement, trace, finish, status=status, bound=bound, gap=gap,
                             wall_time=time.perf_counter() - t0, solver="cpsat", message=msg, info=info)
