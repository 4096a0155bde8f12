"""Exact time-indexed MILP of the contention-free scheduling problem (Section III, eq. (6)).

For a fixed placement (the GPU set of every job, the outcome of the placement stage), the
model schedules every task of the global DAG (Fig. 3) on a grid of time slots of length
``slot``: forward and backward passes on their GPUs, one all-reduce per iteration of a
multi-server job on its servers' networks, with each server's network carrying at most
one all-reduce at a time (the assumption of SRSF(1): eq. (5) with k = 1, i.e. eq. (2)).
It minimises the total JCT, eq. (6).  Binary ``x[tau, t]`` = task ``tau`` starts in slot
``t``; ``S[tau] = sum_t t x[tau, t]``.

Components (labels of the formulation card ``models/wang2019-contention.md``):

- ``total_jct``: (6) minimise ``sum_k (F_k - A_k)``, in slots (in seconds HiGHS ignored slots of 1e-9 s).
- ``start_once``: (S1) every task starts exactly once, not before its job arrives.
- ``forward_before_backward``: (S2a) f -> b of the same worker and iteration.
- ``backward_before_sync``: (S2b) every backward pass precedes the iteration's
  all-reduce (or the zero-length barrier of a single-server job).
- ``sync_before_forward``: (S2c) the all-reduce / barrier of iteration i precedes every
  forward pass of iteration i + 1.
- ``gpu_capacity``: (S3) a GPU runs at most one task per slot.
- ``network_capacity``: (S4) a server's network carries at most one all-reduce per slot.
- ``completion``: (S5) ``F_k`` is at least the end of the job's last task.
- ``jct_bound`` (only with ``upper_bound``): (S6) total JCT at most ``U``.

Not modelled: contention (eq. (5) with k >= 2; schedules that share a link are outside the
model), and GPU memory (the builder refuses placements where memory would bind).  Time
windows come from an upper bound ``U`` on the optimum (e.g. SRSF(1)'s total JCT):
``F_k <= A_k + U - sum_{j != k} LB_j`` with ``LB_j`` job j's critical path, which no
optimal schedule violates, so the windows keep the model exact; (S6) makes a bound below
the optimum an infeasible model instead of a wrong optimum.

The slot grid (issue 25, option "scale by the data's own resolution, with a bound on the integer
range"): by default the coarsest slot of which every time is a whole multiple
(:func:`hetopt.contention.timescale.grid_scale`: a power of ten times the gcd of the scaled
times; 1 s for integral data, 0.5 s for halves, 1e-6 s for data in microseconds); the builder
refuses (:class:`~hetopt.errors.SizeLimitError`) when that grid puts more than
:data:`MILP_MAX_SLOTS` slots on the serial horizon (a datum of 1e-10 s beside 1 s) and, with a
given ``slot``, names the first time that is not a multiple of it
(:class:`~hetopt.errors.InstanceError`).  Times that are multiples up to a relative 1e-12 (the
float noise of decimal data) are rounded to the grid and the solver's bound is turned into a
bound on the true data by :meth:`hetopt.contention.timescale.TimeScale.lower_bound`.

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Section III.
M. E. Dyer, L. A. Wolsey, "Formulating the single machine sequencing problem with release
dates as a mixed integer program", Discrete Applied Mathematics 26, 1990 (time-indexed
formulations).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import pyomo.environ as pyo

from ..errors import ArgumentError, InfeasibleError, InstanceError, SizeLimitError
from ..inputs import check_positive, check_size, takes_instance
from .instance import ContentionInstance
from .timescale import TimeScale, grid_scale, slot_scale

__all__ = ["MILP_MAX_BINARIES", "MILP_MAX_SLOTS", "MILP_NONZEROS_PER_BINARY", "TaskGrid", "task_grid", "build_milp",
           "milp_times", "milp_size", "milp_nonzeros"]

#: The builder refuses models with more binaries than this (SizeLimitError).
MILP_MAX_BINARIES = 60_000
#: Seconds per binary of the builder's parts that cannot be interrupted (variables, start expressions, start-once
#: rows): about 0.8 s for 28,552 binaries on a shared 2-core machine; under a time limit the build is not
#: started when they would pass the deadline.
SECONDS_PER_BINARY = 3e-5
#: The default slot grid is refused beyond this many slots on the serial horizon (SizeLimitError).
MILP_MAX_SLOTS = 1_000_000
#: Constraint-matrix entries allowed per binary of the guard (:func:`milp_nonzeros`; 6e6 at the default, a build
#: of about 25 s at 4 us an entry): the rows (S2)-(S4) of a task hold its window times its duration or its own
#: window, so long tasks in long windows pass the binaries with millions of entries (issue 31: two jobs on an
#: 8,750-slot grid, 16,511 binaries, up to 4.8e7 entries, a build past 300 s).  The engine bench's instances
#: have at most 184 entries per binary, and at most 5.8e6 entries below the binaries' guard.
MILP_NONZEROS_PER_BINARY = 100


def _slots(name: str, value: float, scale: TimeScale, *, allow_zero: bool = False) -> int:
    r = scale.near_units(value)
    if r is None or r < 0 or (r == 0 and not allow_zero):
        raise InstanceError(f"{name} is {value}; the MILP needs a {'non-negative' if allow_zero else 'positive'} "
                            f"integer multiple of slot = {float(1 / scale.unit):g}")
    return int(r)


def milp_times(inst: ContentionInstance, placement: Sequence[Sequence[int]]) -> tuple[list[float], float]:
    """The times the MILP puts on its grid (arrivals, ``t_f``, ``t_b``, all-reduces of multi-server jobs) and the serial horizon (s)."""
    gps = inst.gpus_per_server
    comm = [inst.comm_time(k) if len({int(g) // gps for g in placement[k]}) > 1 else 0.0 for k in range(inst.n_jobs)]
    work = sum(int(inst.iterations[k]) * (len(placement[k]) * (float(inst.t_f[k]) + float(inst.t_b[k])) + comm[k])
               for k in range(inst.n_jobs))
    return [*map(float, inst.arrival), *map(float, inst.t_f), *map(float, inst.t_b), *comm], \
        float(inst.arrival.max()) + work


def _grid_units(inst: ContentionInstance, placement, slot: float | None) -> TimeScale:
    """The MILP's time units: ``1 / slot``, or the default grid of the module docstring."""
    values, horizon = milp_times(inst, placement)
    if slot is not None:
        return slot_scale(slot, values)
    sc = grid_scale(values, horizon, limit=MILP_MAX_SLOTS)
    if sc is None:
        finest = min(v for v in values if v > 0)
        raise SizeLimitError(f"the MILP's time grid would need more than MILP_MAX_SLOTS = {MILP_MAX_SLOTS} slots on the "
                             f"serial horizon {horizon:g} s (the times, down to {finest:g} s, have no common slot "
                             "coarse enough): use engine='cpsat' (any magnitudes), or pass a coarser slot=... "
                             "(every time must then be a multiple of it)")
    return sc


@dataclass(frozen=True)
class TaskGrid:
    """The tasks of the global DAG in slot units, and their time windows.

    ``tasks`` maps a task key to ``(job, duration, resource, earliest, latest)``: keys are
    ``("f", k, i, g)``, ``("b", k, i, g)`` (resource: the GPU) and ``("c", k, i)`` (resource:
    the tuple of servers; ``("s", k, i)`` for the zero-length barrier of a single-server job).
    """

    slot: float
    tasks: dict
    horizon: int
    arrival: tuple[int, ...]
    multi: tuple[bool, ...]
    #: the grid's units (``1 / slot`` per second) and the certificate of :mod:`hetopt.contention.timescale`
    scale: TimeScale | None = None
    #: (S6) in slots: ``sum_k (F_k - A_k) <= cut`` (None without ``upper_bound``)
    cut: int | None = None


def check_exact_placement(inst: ContentionInstance, placement: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """The placement as tuples of GPU indices, checked for the exact models (MILP and CP-SAT).

    Raises ``ArgumentError`` naming the entry when a job does not get ``n_gpus[k]`` distinct GPUs
    of the cluster, ``InstanceError`` when some GPU would hold more than ``gpu_memory`` (the exact
    models assume memory does not bind).
    """
    if isinstance(placement, (str, bytes)) or not hasattr(placement, "__len__"):
        raise ArgumentError(f"placement is {placement!r:.60}; expected one GPU list per job")
    if len(placement) != inst.n_jobs:
        raise ArgumentError(f"placement has {len(placement)} entries; expected {inst.n_jobs}")
    mem = [0.0] * inst.n_total_gpus
    out = []
    for k in range(inst.n_jobs):
        gpus = tuple(int(g) for g in placement[k])
        if len(gpus) != inst.n_gpus[k] or len(set(gpus)) != len(gpus) or not all(0 <= g < inst.n_total_gpus for g in gpus):
            raise ArgumentError(f"placement[{k}] is {list(gpus)}; expected {inst.n_gpus[k]} distinct GPU indices")
        for g in gpus:
            mem[g] += float(inst.memory[k])
        out.append(gpus)
    for g, m in enumerate(mem):
        if m > inst.gpu_memory:
            raise InstanceError(f"GPU {g} would hold {m} MB > gpu_memory; the exact models assume memory does not bind")
    return tuple(out)


@takes_instance(ContentionInstance)
def task_grid(
    inst: ContentionInstance, placement: Sequence[Sequence[int]], *, slot: float | None = None,
    upper_bound: float | None = None
) -> TaskGrid:
    """Tasks, durations and time windows of the MILP (see :func:`build_milp`)."""
    if slot is not None:
        slot = check_positive(slot, "slot")
    if upper_bound is not None:
        upper_bound = check_positive(upper_bound, "upper_bound", allow_zero=True)
    gps = inst.gpus_per_server
    placement = check_exact_placement(inst, placement)
    sc = _grid_units(inst, placement, slot)
    jobs = []
    for k, gpus in enumerate(placement):
        servers = tuple(sorted({g // gps for g in gpus}))
        multi = len(servers) > 1
        pf = _slots(f"t_f[{k}]", float(inst.t_f[k]), sc)
        pb = _slots(f"t_b[{k}]", float(inst.t_b[k]), sc)
        pc = _slots(f"all-reduce time a + b*model_size[{k}]", inst.comm_time(k), sc, allow_zero=True) if multi else 0
        a = _slots(f"arrival[{k}]", float(inst.arrival[k]), sc, allow_zero=True)
        jobs.append((gpus, servers, multi, pf, pb, pc, a, int(inst.iterations[k])))
    lb = [it * (pf + pb + pc) for (_, _, _, pf, pb, pc, _, it) in jobs]
    total_work = sum(it * (len(gpus) * (pf + pb) + pc) for (gpus, _, _, pf, pb, pc, _, it) in jobs)
    serial = max(j[6] for j in jobs) + total_work
    cut = None
    if upper_bound is not None:
        cut = sc.cut(upper_bound, [j[6] for j in jobs], inst.arrival)
        if cut < sum(lb):
            raise InfeasibleError(f"upper_bound {upper_bound} is below the sum of the jobs' critical paths: "
                                  "no schedule meets it")
    tasks: dict = {}
    horizon = 0
    for k, (gpus, servers, multi, pf, pb, pc, a, it) in enumerate(jobs):
        h = serial
        if cut is not None:
            h = min(h, a + cut - (sum(lb) - lb[k]))
        horizon = max(horizon, h)
        period = pf + pb + pc
        for i in range(it):
            base = a + i * period
            tail = (it - i) * period
            for g in gpus:
                tasks[("f", k, i, g)] = (k, pf, g, base, h - tail)
                tasks[("b", k, i, g)] = (k, pb, g, base + pf, h - tail + pf)
            key = ("c", k, i) if multi else ("s", k, i)
            tasks[key] = (k, pc, servers if multi else None, base + pf + pb, h - tail + pf + pb)
    return TaskGrid(float(1 / sc.unit), tasks, horizon, tuple(j[6] for j in jobs), tuple(j[2] for j in jobs), sc, cut)


def _precedence(m, name: str, edges: list, by_task: dict, tasks: dict, doc: str, deadline: float | None = None) -> None:
    """Edges u -> v in the disaggregated time-indexed form (tighter LP than S_v >= S_u + p_u).

    ``sum_{s <= t} x[v, s] <= sum_{s <= t - p_u} x[u, s]`` for every slot t of v's window: v has
    started by t only if u had started by ``t - p_u``.  Rows are added one by one so that a
    ``deadline`` (perf_counter) stops the build (:class:`BuildTimeout`) within a few hundred rows.
    """
    rows = [(e, t) for e, (_, v) in enumerate(edges) for t in by_task[v]]
    m.add_component(name + "_rows", pyo.Set(initialize=rows, dimen=2))
    con = pyo.Constraint(m.component(name + "_rows"), doc=doc)
    m.add_component(name, con)
    for j, (e, t) in enumerate(rows):
        if j % 200 == 0:
            _check_deadline(deadline)
        u, v = edges[e]
        p_u = tasks[u][1]
        lhs = sum(m.x[v, s] for s in by_task[v] if s <= t)
        rhs = sum(m.x[u, s] for s in by_task[u] if s <= t - p_u)
        con[e, t] = lhs <= 0 if isinstance(rhs, int) and rhs == 0 else lhs <= rhs


def _check_entries(grid: TaskGrid, n_bin: int, max_binaries: int, guard_name: str) -> None:
    """SizeLimitError when :func:`milp_nonzeros` passes ``MILP_NONZEROS_PER_BINARY`` per binary of the guard."""
    nz, tasks = milp_nonzeros(grid), grid.tasks
    if nz > max_binaries * MILP_NONZEROS_PER_BINARY:
        need = -(-nz // MILP_NONZEROS_PER_BINARY)
        raise SizeLimitError(f"the MILP would have {n_bin} binaries but up to {nz} constraint entries (slot "
                             f"{grid.slot:g} s: tasks of up to {max(v[1] for v in tasks.values())} slots in windows "
                             f"of up to {max(v[4] - v[3] + 1 for v in tasks.values())}); at most {guard_name} = "
                             f"{max_binaries} binaries and {MILP_NONZEROS_PER_BINARY} entries per binary allowed: "
                             f"use engine='cpsat', or pass {guard_name}={need} (with a time_limit)")


class BuildTimeout(Exception):
    """Raised inside the builder when its deadline passes (caught by the MILP route)."""


def _check_deadline(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise BuildTimeout


def milp_nonzeros(grid: TaskGrid) -> int:
    """The constraint-matrix entries of the MILP on ``grid``, an upper bound counted from its windows (no model).

    (S1) a task's window ``w``; (S3)/(S4) ``w`` times its duration on each of its resources; (S2) for an
    edge ``u -> v``, one row per slot of v's window over v's starts up to it and u's up to it less ``p_u``:
    at most ``w_v (w_v + 1) / 2 + w_v w_u``.
    """
    tasks = grid.tasks
    width = {key: ls - es + 1 for key, (_, _, _, es, ls) in tasks.items()}
    nz = 0
    for key, (_, p, res, _, _) in tasks.items():
        w = width[key]
        nz += w + (w * p if key[0] in ("f", "b") else w * p * len(res) if key[0] == "c" else 0)
    edges = []
    for key in tasks:
        k, i = key[1], key[2]
        sync = ("c", k, i) if ("c", k, i) in tasks else ("s", k, i)
        if key[0] == "b":
            edges += [(("f", *key[1:]), key), (key, sync)]
        elif key[0] == "f" and i > 0:
            edges.append((("c", k, i - 1) if ("c", k, i - 1) in tasks else ("s", k, i - 1), key))
    return nz + sum(width[v] * (width[v] + 1) // 2 + width[v] * width[u] for u, v in edges)


def milp_size(inst: ContentionInstance, placement: Sequence[Sequence[int]]) -> int:
    """The number of tasks of the MILP (a lower bound on its binaries: each task starts in at least one slot)."""
    return int(sum(int(inst.iterations[k]) * (2 * len(placement[k]) + 1) for k in range(inst.n_jobs)))


@takes_instance(ContentionInstance)
def build_milp(
    inst: ContentionInstance,
    placement: Sequence[Sequence[int]],
    *,
    slot: float | None = None,
    upper_bound: float | None = None,
    max_binaries: int = MILP_MAX_BINARIES,
) -> pyo.ConcreteModel:
    """Time-indexed MILP of the contention-free problem for a fixed placement.

    Parameters
    ----------
    inst : ContentionInstance
        With ``slot`` given, all times (``t_f``, ``t_b``, ``a + b sigma`` of multi-server jobs,
        arrivals) must be integer multiples of it.
    placement : sequence of GPU lists
        The GPUs of each job.
    slot : float, optional
        Slot length (s); default: the coarsest grid of the data (module docstring).
    upper_bound : float, optional
        Total JCT (s) of a feasible contention-free schedule with this placement (e.g.
        SRSF(1)); tightens the time windows without cutting off an optimum, and is imposed
        as a constraint (S6), so a bound below the optimum makes the model infeasible.
    max_binaries : int
        Refuse larger models.

    Returns
    -------
    pyomo.environ.ConcreteModel
        Sets ``TASKS``, ``JOBS``; variables ``x``, ``F``; objective ``total_jct``; ``m.grid`` the
        :class:`TaskGrid` (slot, units, windows).

    Raises
    ------
    InstanceError
        Times that are not multiples of a given ``slot``, bad placement, binding memory.
    InfeasibleError
        ``upper_bound`` below a lower bound of the optimum (no model is built).
    SizeLimitError
        More than ``max_binaries`` start variables or ``MILP_NONZEROS_PER_BINARY`` times as many
        constraint entries (:func:`milp_nonzeros`), or a default grid finer than :data:`MILP_MAX_SLOTS`
        slots over the horizon.
    """
    return _build(inst, placement, slot=slot, upper_bound=upper_bound, max_binaries=max_binaries)


def _build(inst: ContentionInstance, placement, *, slot: float | None, upper_bound: float | None, max_binaries: int,
           deadline: float | None = None, guard_name: str = "max_binaries") -> pyo.ConcreteModel:
    """:func:`build_milp`, stopping with :class:`BuildTimeout` between components once ``deadline`` passes.

    ``deadline`` is a ``time.perf_counter()`` value; ``guard_name`` is the option a refusal names
    (``max_size`` when ``solve_exact`` builds the model).
    """
    max_binaries = check_size(max_binaries, "max_binaries")
    placement = check_exact_placement(inst, placement)
    n_tasks = milp_size(inst, placement)
    if n_tasks > max_binaries:
        raise SizeLimitError(f"the MILP would have at least {n_tasks} binaries (one per task); at most {guard_name} = "
                             f"{max_binaries} allowed: use engine='cpsat', or pass {guard_name}=... "
                             "(with a time_limit)")
    grid = task_grid(inst, placement, slot=slot, upper_bound=upper_bound)
    tasks = grid.tasks
    for key, (_, _, _, es, ls) in tasks.items():
        if ls < es:
            raise InfeasibleError(f"task {key} has an empty time window: upper_bound {upper_bound} is below the optimum")
    if (n_bin := sum(ls - es + 1 for (_, _, _, es, ls) in tasks.values())) > max_binaries:
        raise SizeLimitError(f"the MILP would have {n_bin} binaries (slot {grid.slot:g} s); at most {guard_name} = "
                             f"{max_binaries} allowed: use engine='cpsat', or pass {guard_name}={n_bin} "
                             "(with a time_limit)")
    _check_entries(grid, n_bin, max_binaries, guard_name)
    pairs = [(key, t) for key, (_, p, _, es, ls) in tasks.items() for t in range(es, ls + 1)]
    _check_deadline(deadline)
    if deadline is not None and time.perf_counter() + n_bin * SECONDS_PER_BINARY > deadline:
        raise BuildTimeout  # the variables, start expressions and start-once rows cannot be interrupted

    m = pyo.ConcreteModel(name="wang2019_no_contention")
    m.slot = grid.slot
    m.grid = grid
    m.JOBS = pyo.Set(initialize=range(inst.n_jobs), doc="jobs k")
    m.TASKS = pyo.Set(initialize=list(tasks), dimen=None, doc="tasks of the global DAG")
    m.STARTS = pyo.Set(initialize=pairs, dimen=None, doc="(task, slot) pairs inside the task's window")
    m.A = pyo.Param(m.JOBS, initialize={k: grid.arrival[k] for k in range(inst.n_jobs)}, doc="arrival A_k (slots)")
    m.p = pyo.Param(m.TASKS, initialize={key: v[1] for key, v in tasks.items()}, doc="task duration (slots)")
    m.x = pyo.Var(m.STARTS, domain=pyo.Binary, doc="x[tau, t] = 1 iff task tau starts in slot t")
    m.F = pyo.Var(m.JOBS, domain=pyo.NonNegativeReals, doc="completion time F_k (slots)")

    by_task: dict = {}
    for key, t in pairs:
        by_task.setdefault(key, []).append(t)

    def start(key):
        return sum(t * m.x[key, t] for t in by_task[key])

    m.S = pyo.Expression(m.TASKS, rule=lambda m, *key: start(key), doc="start slot S of each task")
    _check_deadline(deadline)

    m.total_jct = pyo.Objective(expr=sum(m.F[k] - m.A[k] for k in m.JOBS), sense=pyo.minimize,
                                doc="(6) minimise the total JCT sum_k (F_k - A_k), in slots")
    m.start_once = pyo.Constraint(m.TASKS, rule=lambda m, *key: sum(m.x[key, t] for t in by_task[key]) == 1,
                                  doc="(S1) every task starts exactly once, inside its window (not before A_k)")
    _check_deadline(deadline)

    fb, bs, sf, done = [], [], [], []
    for key in tasks:
        kind = key[0]
        if kind == "f":
            fb.append(key)
        elif kind in ("c", "s"):
            k, i = key[1], key[2]
            for g in placement[k]:
                bs.append((("b", k, i, int(g)), key))
                if i + 1 < inst.iterations[k]:
                    sf.append((key, ("f", k, i + 1, int(g))))
            if i + 1 == inst.iterations[k]:
                done.append(key)
    fb_edges = [(f, ("b",) + tuple(f[1:])) for f in fb]
    _check_deadline(deadline)
    _precedence(m, "forward_before_backward", fb_edges, by_task, tasks,
                "(S2a) DAG edge forward -> backward of the same worker and iteration (Fig. 3)", deadline)
    _check_deadline(deadline)
    _precedence(m, "backward_before_sync", bs, by_task, tasks,
                "(S2b) DAG edge backward -> all-reduce (barrier) of the iteration (Fig. 3)", deadline)
    _check_deadline(deadline)
    _precedence(m, "sync_before_forward", sf, by_task, tasks,
                "(S2c) DAG edge all-reduce of iteration i -> forward of iteration i + 1 (Fig. 3)", deadline)
    _check_deadline(deadline)
    last = {key[1]: key for key in done}
    m.completion = pyo.Constraint(m.JOBS, rule=lambda m, k: m.F[k] >= m.S[last[k]] + m.p[last[k]],
                                  doc="(S5) F_k is at least the end of the job's last all-reduce (barrier)")
    if grid.cut is not None:
        # the windows above are valid only for schedules within the bound; without this cut a bound
        # below the optimum left feasible schedules above it, reported as optimal
        m.jct_bound = pyo.Constraint(expr=sum(m.F[k] - m.A[k] for k in m.JOBS) <= grid.cut,
                                     doc="(S6) total JCT at most upper_bound (in slots, the windows assume it)")

    # (S3) and (S4): at most one task per slot on each GPU / server network
    gpu_rows: dict = {}
    net_rows: dict = {}
    for key, t in pairs:
        kind = key[0]
        _, p, res, _, _ = tasks[key]
        if kind in ("f", "b"):
            for s in range(t, t + p):
                gpu_rows.setdefault((res, s), []).append((key, t))
        elif kind == "c":
            for srv in res:
                for s in range(t, t + p):
                    net_rows.setdefault((srv, s), []).append((key, t))
    gpu_rows = {r: v for r, v in gpu_rows.items() if len(v) > 1}
    net_rows = {r: v for r, v in net_rows.items() if len(v) > 1}
    _check_deadline(deadline)
    m.GPU_SLOTS = pyo.Set(initialize=sorted(gpu_rows), dimen=2)
    m.gpu_capacity = pyo.Constraint(m.GPU_SLOTS, rule=lambda m, g, s: sum(m.x[key, t] for key, t in gpu_rows[g, s]) <= 1,
                                    doc="(S3) a GPU runs at most one task in each slot (Section III-B, 3))")
    m.NET_SLOTS = pyo.Set(initialize=sorted(net_rows), dimen=2)
    m.network_capacity = pyo.Constraint(
        m.NET_SLOTS, rule=lambda m, srv, s: sum(m.x[key, t] for key, t in net_rows[srv, s]) <= 1,
        doc="(S4) a server's network carries at most one all-reduce per slot (eq. (5) with k = 1)")
    return m
