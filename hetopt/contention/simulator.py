"""Event-driven fluid simulator of DDL jobs on a GPU cluster with network contention.

The event loop follows Algorithm 3 at every instant where something happens: finished
tasks leave, arrived jobs join the queue, queued jobs are placed in SRSF order by the
placement policy (lines 6-13), ready all-reduces are admitted in SRSF order by the
admission rule (lines 14-21), then every idle GPU takes a compute task of its
highest-priority ready job (lines 22-30).  The policies are arguments; the loop knows
none of them.

Model (Section III): job k is a chain of ``I_k`` iterations; in each, every worker (GPU) runs forward then
backward, then the job's all-reduce runs when all workers are done (the synchronisation barrier of Fig. 3)
and the next iteration starts after it.  A job whose GPUs lie on one server has no inter-node all-reduce
(eq. (8): ``E = 0``; the barrier remains).  Tasks are non-preemptive; a GPU runs one task at a time; GPU
memory of a job is held from placement to completion.  All-reduces share the network of their servers by
the fluid form of eq. (5) (:mod:`hetopt.contention.comm`): their rates are recomputed whenever one starts
or ends.  SRSF priorities use the remaining service ``L_J = (remaining iterations) (t_f + t_b + E) |G(J)|``
(``E = 0`` before placement).

Aggregation of identical iterations: a job without all-reduce that starts an iteration on
all its GPUs at the same instant holds them for all its remaining iterations in one
*run* (one event instead of one per iteration and GPU).  A run is cut at the end of the
iteration in progress as soon as a job with a higher priority than the run's job had at
its start becomes ready on one of its GPUs; the cut re-enters the normal dispatch, which
is what the per-iteration loop would do then: while a job runs, its priority only rises
and that of every job waiting for its GPUs stays fixed, so nothing else can change the
dispatch decisions inside a run.  Likewise a refused all-reduce is asked about again only
when the task set of one of its servers has changed: admission rules must be *stable*
(a refusal stands while those sets do not change).  SRSF(n) depends on the counts only; AdaDUAL refuses
when ``M_new / M_old`` is too large, and ``M_old`` only shrinks.  Forward and backward of a worker run back
to back (a GPU switches jobs between iterations, not between the two passes whose activations share its memory).

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple Deep Learning
Training Jobs", arXiv:2002.10105, 2020, Sections III, IV-B, V-A.
"""

from __future__ import annotations

import heapq
import logging
import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..certify import Status
from ..errors import ArgumentError, ScheduleViolation, SizeLimitError
from ..inputs import check_flag, check_size, takes_instance
from .accounting import check_accounting, credit_counts
from .admission import lazy_rule
from .instance import ContentionInstance
from .policies import Policy, get_policy, with_options
from .solution import ContentionSimulation, TaskRecord, jct_metrics

__all__ = ["simulate", "TIME_EPS", "MAX_SIM_ITERATIONS", "RECORD_TASKS"]

log = logging.getLogger(__name__)

#: Events within this relative distance of the earliest (``t (1 + TIME_EPS)``) are processed as one instant;
#: relative at every magnitude (an arrival at 1e-9 s is not merged into time 0).
TIME_EPS = 1e-9

_ARRIVAL, _COMPUTE_END, _RUN_END, _COMM_END = 0, 1, 2, 3


class _Job:
    __slots__ = (
        "k", "n", "iters", "p", "tf", "size", "mem", "e", "gpus", "servers", "multi", "done", "pending",
        "n_finished", "state", "key", "run_t0", "run_end", "run_key", "run_ver", "c_rem", "c_lat", "c_rate",
        "c_last", "c_ver", "c_start", "finish", "placed_at", "c_mult", "queried",
    )

    def __init__(self, inst: ContentionInstance, k: int) -> None:
        self.k = k
        self.n = int(inst.n_gpus[k])
        self.iters = int(inst.iterations[k])
        self.tf = float(inst.t_f[k])
        self.p = float(inst.t_f[k] + inst.t_b[k])
        self.size = float(inst.model_size[k])
        self.mem = float(inst.memory[k])
        self.e = 0.0
        self.gpus: tuple[int, ...] = ()
        self.servers: tuple[int, ...] = ()
        self.multi = False
        self.done = 0
        self.pending: set[int] = set()
        self.n_finished = 0
        self.state = "queued"
        self.key = self.iters * self.p * self.n
        self.run_t0 = -1.0
        self.run_end = -1.0
        self.run_key = 0.0
        self.run_ver = 0
        self.c_rem = self.c_lat = self.c_rate = self.c_last = self.c_start = 0.0
        self.c_ver = 0
        self.c_mult = 1  # "authors" accounting: 1 + number of refused all-reduces reading this one
        self.queried: tuple[int, ...] = ()  # running tasks the admission rule read while refusing this one
        self.finish = math.nan
        self.placed_at = math.nan

    def update_key(self) -> None:
        self.key = (self.iters - self.done) * (self.p + self.e) * self.n


class _Sim:
    """State of one simulation run (one object per call of :func:`simulate`)."""

    def __init__(self, inst, placement, admission, fixed, record, aggregate, accounting="correct"):
        self.inst = inst
        self.authors = accounting == "authors"
        self.aggregate = aggregate
        self.placement = placement
        self.admission = admission  # a LazyRule (admission.lazy_rule)
        self.fixed = fixed
        self.record = record
        self.jobs = [_Job(inst, k) for k in range(inst.n_jobs)]
        g = inst.n_total_gpus
        self.busy = [-1] * g
        self.residents: list[list[int]] = [[] for _ in range(g)]
        self.free_mem = np.full(g, inst.gpu_memory)
        self.gpu_busy = np.zeros(g)
        self.server_tasks: list[set[int]] = [set() for _ in range(inst.n_servers)]
        self.waiting_on: list[set[int]] = [set() for _ in range(inst.n_servers)]
        self.wait_dirty: set[int] = set()
        self.queue: list[int] = []
        self.waiting: set[int] = set()
        self.comm: set[int] = set()  # the running all-reduces
        self.heap: list[tuple] = []
        self.seq = 0
        self.trace: list[TaskRecord] = []
        self.n_events = 0
        self.dirty: set[int] = set()
        self.comm_dirty = False
        self.place_dirty = False
        self.n_done = 0

    # ----------------------------------------------------------------- events
    def push(self, t: float, kind: int, *payload) -> None:
        self.seq += 1
        heapq.heappush(self.heap, (t, self.seq, kind, payload))

    def run(self) -> None:
        inst = self.inst
        for k in range(inst.n_jobs):
            self.push(float(inst.arrival[k]), _ARRIVAL, k)
        heap = self.heap
        while heap:
            t = heap[0][0]
            horizon = t + TIME_EPS * abs(t)
            while heap and heap[0][0] <= horizon:
                _, _, kind, payload = heapq.heappop(heap)
                self.n_events += 1
                if kind == _COMPUTE_END:
                    self.on_compute_end(t, *payload)
                elif kind == _COMM_END:
                    self.on_comm_end(t, *payload)
                elif kind == _RUN_END:
                    self.on_run_end(t, *payload)
                else:
                    self.queue.append(payload[0])
                    self.place_dirty = True
            if self.place_dirty:
                self.place_dirty = False
                self.place_queue(t)
            if self.comm_dirty:
                self.comm_dirty = False
                self.admit_comms(t)
            if self.dirty:
                self.dispatch(t)
        if self.n_done != inst.n_jobs:  # pragma: no cover - a bug, not an input error
            raise RuntimeError(f"simulation ended with {inst.n_jobs - self.n_done} unfinished jobs")

    # -------------------------------------------------------------- placement
    def workload(self, t: float) -> np.ndarray:
        """L_{g_{i,j}}: remaining service of the jobs placed on each GPU, at time t."""
        load = np.zeros(self.inst.n_total_gpus)
        for g, res in enumerate(self.residents):
            for k in res:
                job = self.jobs[k]
                done = job.done
                if job.run_t0 >= 0:
                    done += int(math.floor((t - job.run_t0) / job.p + 1e-9))
                load[g] += (job.iters - done) * (job.p + job.e) * job.n
        return load

    def place_queue(self, t: float) -> None:
        if not self.queue:
            return
        self.queue.sort(key=lambda k: (self.jobs[k].key, k))
        load = self.workload(t) if self.fixed is None else None
        gps = self.inst.gpus_per_server
        still = []
        for k in self.queue:
            job = self.jobs[k]
            if self.fixed is not None:
                gpus = self.fixed[k]
                if np.any(self.free_mem[list(gpus)] < job.mem - 1e-9):
                    gpus = None
            else:
                gpus = self.placement(self.free_mem, load, gps, job.n, job.mem)
            if gpus is None:
                still.append(k)
                continue
            gpus = tuple(int(g) for g in gpus)
            if len(gpus) != job.n or len(set(gpus)) != job.n:
                raise ScheduleViolation(f"placement returned {gpus} for job {k}; expected {job.n} distinct GPUs")
            self.allocate(t, job, gpus)
            if load is not None:
                load[list(gpus)] += job.key  # Algorithm 1, lines 6 and 18
        self.queue = still

    def allocate(self, t: float, job: _Job, gpus: tuple[int, ...]) -> None:
        inst = self.inst
        job.gpus = gpus
        job.servers = tuple(sorted({g // inst.gpus_per_server for g in gpus}))
        job.multi = len(job.servers) > 1
        job.e = inst.comm_time(job.k) if job.multi else 0.0  # eq. (8)
        job.update_key()
        job.placed_at = t
        for g in gpus:
            self.free_mem[g] -= job.mem
            self.residents[g].append(job.k)
        self.start_iteration(t, job)

    # ---------------------------------------------------------------- compute
    def start_iteration(self, t: float, job: _Job) -> None:
        job.state = "compute"
        job.pending = set(job.gpus)
        job.n_finished = 0
        self.dirty.update(job.gpus)
        key = (job.key, job.k)
        for g in job.gpus:  # a run on g is cut if this job may now outrank it
            j = self.busy[g]
            if j >= 0:
                other = self.jobs[j]
                if other.run_t0 >= 0 and key < (other.run_key, other.k):
                    self.cut_run(t, other)

    def dispatch(self, t: float) -> None:
        chosen: dict[int, list[int]] = {}
        jobs = self.jobs
        for g in sorted(self.dirty):
            if self.busy[g] >= 0:
                continue
            best, best_key = -1, None
            for k in self.residents[g]:
                job = jobs[k]
                if job.state == "compute" and g in job.pending:
                    key = (job.key, k)
                    if best_key is None or key < best_key:
                        best, best_key = k, key
            if best >= 0:
                chosen.setdefault(best, []).append(g)
        self.dirty.clear()
        for k, gpus in chosen.items():
            job = jobs[k]
            job.pending.difference_update(gpus)
            for g in gpus:
                self.busy[g] = k
            if self.aggregate and not job.multi and len(gpus) == job.n:
                job.run_t0 = t
                job.run_key = job.key
                job.run_end = t + (job.iters - job.done) * job.p
                job.run_ver += 1
                self.push(job.run_end, _RUN_END, k, job.run_ver)
            else:
                self.push(t + job.p, _COMPUTE_END, k, tuple(gpus), t)

    def on_compute_end(self, t: float, k: int, gpus: tuple[int, ...], start: float) -> None:
        job = self.jobs[k]
        for g in gpus:
            self.busy[g] = -1
            self.gpu_busy[g] += job.p
            if self.record:
                self.trace.append(TaskRecord("f", k, job.done, g, start, start + job.tf))
                self.trace.append(TaskRecord("b", k, job.done, g, start + job.tf, t))
        self.dirty.update(gpus)
        job.n_finished += len(gpus)
        if job.n_finished == job.n:
            if job.multi:
                job.state = "comm_wait"
                self.waiting.add(k)
                self.wait_dirty.add(k)
                for s in job.servers:
                    self.waiting_on[s].add(k)
                self.comm_dirty = True
            else:
                self.end_iteration(t, job)

    def cut_run(self, t: float, job: _Job) -> None:
        n_cut = max(1, math.ceil((t - job.run_t0) / job.p - 1e-9))
        t_cut = job.run_t0 + n_cut * job.p
        if t_cut < job.run_end - TIME_EPS * abs(t_cut):
            job.run_end = t_cut
            job.run_ver += 1
            self.push(t_cut, _RUN_END, job.k, job.run_ver)

    def on_run_end(self, t: float, k: int, ver: int) -> None:
        job = self.jobs[k]
        if ver != job.run_ver:
            return
        n_it = int(round((job.run_end - job.run_t0) / job.p))
        for g in job.gpus:
            self.busy[g] = -1
            self.gpu_busy[g] += n_it * job.p
        if self.record:
            for i in range(n_it):
                s = job.run_t0 + i * job.p
                for g in job.gpus:
                    self.trace.append(TaskRecord("f", k, job.done + i, g, s, s + job.tf))
                    self.trace.append(TaskRecord("b", k, job.done + i, g, s + job.tf, s + job.p))
        self.dirty.update(job.gpus)
        job.done += n_it - 1
        job.run_t0 = -1.0
        self.end_iteration(t, job)

    def end_iteration(self, t: float, job: _Job) -> None:
        job.done += 1
        job.update_key()
        if job.done == job.iters:
            job.state = "done"
            job.finish = t
            self.n_done += 1
            for g in job.gpus:
                self.free_mem[g] += job.mem
                self.residents[g].remove(job.k)
            self.place_dirty = True
        else:
            self.start_iteration(t, job)

    # ------------------------------------------------------------ all-reduce
    def progress(self, t: float, job: _Job) -> None:
        dt = t - job.c_last
        lat = min(job.c_lat, dt)
        job.c_lat -= lat
        job.c_rem = max(0.0, job.c_rem - (dt - lat) * job.c_rate)
        job.c_last = t

    def rerate(self, t: float, servers: Sequence[int]) -> None:
        inst = self.inst
        affected: set[int] = set()
        for s in servers:
            affected |= self.server_tasks[s]
        for k in affected:
            job = self.jobs[k]
            self.progress(t, job)
            kk = max(len(self.server_tasks[s]) for s in job.servers)
            job.c_rate = job.c_mult / (kk * inst.b + (kk - 1) * inst.eta)  # fluid form of eq. (5)
            job.c_ver += 1
            self.push(t + job.c_lat + job.c_rem / job.c_rate, _COMM_END, k, job.c_ver)

    def server_changed(self, s: int) -> None:
        """The task set of server s changed: the all-reduces waiting on it are asked again."""
        self.wait_dirty |= self.waiting_on[s]

    def admit_comms(self, t: float) -> None:
        if self.aggregate:
            cands, self.wait_dirty = self.wait_dirty, set()
        else:
            cands, self.wait_dirty = set(self.waiting), set()
        while cands:
            self.ask(t, cands)
            if not self.authors:
                break
            # "authors" accounting: what a refused all-reduce reads decides the credits, so the ones
            # asked before a start at this instant are asked again (still refused: the rules are stable)
            cands, self.wait_dirty = self.wait_dirty & self.waiting, set()
        if self.authors:
            self.apply_credits(t)

    def ask(self, t: float, cands: set[int]) -> None:
        """Ask the admission rule about the ready all-reduces ``cands``, in SRSF order; start the accepted."""
        inst = self.inst
        jobs = self.jobs
        for k in sorted(cands, key=lambda k: (jobs[k].key, k)):
            self.wait_dirty.discard(k)
            job = jobs[k]
            tasks = [self.server_tasks[s] for s in job.servers]
            start, read = self.admission(tasks, lambda c: self.remaining(t, c), job.size, inst.b, inst.eta)
            if not start:
                job.queried = tuple(read)
                continue
            job.queried = ()
            job.state = "comm"
            self.comm.add(k)
            job.c_rem, job.c_lat, job.c_last, job.c_start = job.size, inst.a, t, t
            self.waiting.discard(k)
            for s in job.servers:
                self.waiting_on[s].discard(k)
                self.server_tasks[s].add(k)
                self.server_changed(s)
            self.rerate(t, job.servers)

    def remaining(self, t: float, c: int) -> float:
        """MB that running all-reduce c still has to move at time t (latency not counted)."""
        old = self.jobs[c]
        self.progress(t, old)
        return old.c_rem

    def apply_credits(self, t: float) -> None:
        """The published simulator's accounting error (:mod:`hetopt.contention.accounting`).

        Every running all-reduce moves at ``1 + q`` times its rate, q being the number of
        refused all-reduces whose admission read its remaining size.
        """
        counts = credit_counts({k: self.jobs[k].queried for k in self.waiting})
        for job in (self.jobs[k] for k in sorted(self.comm)):  # in job order, as the heap's ties need
            mult = 1 + counts.get(job.k, 0)
            if mult != job.c_mult:
                self.progress(t, job)
                job.c_rate *= mult / job.c_mult
                job.c_mult = mult
                job.c_ver += 1
                self.push(t + job.c_lat + job.c_rem / job.c_rate, _COMM_END, job.k, job.c_ver)

    def on_comm_end(self, t: float, k: int, ver: int) -> None:
        job = self.jobs[k]
        if ver != job.c_ver or job.state != "comm":
            return
        job.state = "comm_done"
        self.comm.discard(k)
        job.c_mult = 1
        for s in job.servers:
            self.server_tasks[s].discard(k)
            self.server_changed(s)
        if self.record:
            self.trace.append(TaskRecord("c", k, job.done, job.servers, job.c_start, t))
        self.rerate(t, job.servers)
        self.comm_dirty = True
        self.end_iteration(t, job)


def _check_fixed(inst: ContentionInstance, fixed: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    if isinstance(fixed, (str, bytes)) or not hasattr(fixed, "__len__"):
        raise ArgumentError(f"placement is {fixed!r:.60}; expected one GPU list per job")
    if len(fixed) != inst.n_jobs:
        raise ArgumentError(f"placement has {len(fixed)} entries; expected {inst.n_jobs} (one GPU list per job)")
    out = []
    for k, gpus in enumerate(fixed):
        g = tuple(int(x) for x in gpus)
        if len(g) != inst.n_gpus[k] or len(set(g)) != len(g):
            raise ArgumentError(f"placement[{k}] is {list(g)}; expected {inst.n_gpus[k]} distinct GPUs")
        if any(x < 0 or x >= inst.n_total_gpus for x in g):
            raise ArgumentError(f"placement[{k}] is {list(g)}; GPU indices must be in [0, {inst.n_total_gpus})")
        out.append(g)
    return tuple(out)


#: Default limit on the total iterations :func:`simulate` runs: about 18 us per iteration on one
#: core (the 160-job paper workload, 582,759 iterations, in 10.6 s), so about 90 s.
MAX_SIM_ITERATIONS = 5_000_000

#: ``record=None`` keeps the task trace when the instance has at most this many compute tasks
#: (iterations times GPUs, summed over the jobs): small instances come back checkable by
#: :func:`~hetopt.contention.checker.check_schedule`, the paper's workload (2.6 million) does not
#: fill the memory.
RECORD_TASKS = 100_000


@takes_instance(ContentionInstance)
def simulate(
    inst: ContentionInstance,
    policy: str | Policy | Any,
    *,
    options: Mapping[str, Any] | None = None,
    placement: Sequence[Sequence[int]] | None = None,
    record: bool | None = None,
    aggregate: bool = True,
    transfer_accounting: str = "correct",
    max_size: int | None = MAX_SIM_ITERATIONS,
) -> ContentionSimulation:
    """Simulate the jobs of ``inst`` under a scheduling policy (Algorithm 3's event loop).

    Parameters
    ----------
    inst : ContentionInstance
    policy : str or Policy
        A name of :data:`~hetopt.contention.policies.POLICIES` (``"ada_srsf"``, ``"srsf1"``, ...),
        or a policy object: an admission rule and a placement (the protocol of
        :mod:`hetopt.contention.policies`).
    options : mapping, optional
        Options of the policy's built-in placement: ``kappa`` (of LWF-kappa) and ``seed`` (of
        RAND), replacing the policy's own (:class:`~hetopt.contention.Policy`); any other key is
        an :class:`~hetopt.errors.ArgumentError` naming ``options``.
    placement : sequence of GPU lists, optional
        A fixed GPU list per job instead of the policy's placement (the job is placed as soon as
        those GPUs have memory for it); ``Solution.solver`` then ends in ``+fixed``.
    record : bool, optional
        Keep every task in ``trace`` (for :func:`~hetopt.contention.checker.check_schedule` and
        Gantt charts; costs memory).  Default: when the instance has at most
        :data:`RECORD_TASKS` compute tasks.
    aggregate : bool
        Run the iterations of a job without all-reduce as one event while nothing can
        interrupt them, and do not re-ask the admission rule about a refused all-reduce
        until the task set of one of its servers changes (see the module notes); False
        processes every iteration and re-asks at every instant, for checks.
    transfer_accounting : {"correct", "authors"}
        "correct" (default): a running all-reduce moves at the fluid rate of eq. (5).
        "authors": the published simulator's error, for diagnosis only: each refused
        all-reduce whose admission rule reads a running task's remaining size credits
        that task with extra progress, so it moves at ``1 + q`` times its rate with q
        such readers (:mod:`hetopt.contention.accounting`).  Only AdaDUAL reads it.
    max_size : int or None
        Size guard, in iterations of all the jobs: refuse (SizeLimitError) an instance with more
        (default :data:`MAX_SIM_ITERATIONS`, about 90 s; None for no limit).

    Returns
    -------
    ContentionSimulation
        A :class:`ContentionSolution` and a :class:`~hetopt.result.SimulationResult`.  Status
        FEASIBLE (a heuristic schedule), no bound; ``solver`` is
        ``"<admission>+<placement>"`` (e.g. ``"ada-srsf+lwf1"``), followed by
        ``" (authors' accounting)"`` with that accounting.

    Raises
    ------
    ArgumentError
        An unknown policy, a bad fixed placement or option.
    SizeLimitError
        More iterations than ``max_size``.
    ScheduleViolation
        A placement function returned a GPU set that is not ``n_gpus[k]`` distinct GPUs.

    Examples
    --------
    >>> from hetopt.contention import generate_instance, simulate
    >>> sol = simulate(generate_instance(seed=0, n_jobs=8, iterations=(20, 40), arrival_window=10.0), "ada_srsf")
    >>> sol.status.value, sol.solver, len(sol.jct)
    ('feasible', 'ada-srsf+lwf1', 8)
    """
    pol = with_options(get_policy(policy), options)
    total = int(np.sum(inst.iterations, dtype=object))
    if max_size is not None:
        max_size = check_size(max_size, "max_size")
        if total > max_size:
            raise SizeLimitError(f"the jobs have {total:.3g} iterations in all; simulate handles at most "
                                 f"max_size = {max_size} (about 18 us each): pass max_size={total} or None to run "
                                 "it anyway")
    accounting = check_accounting(transfer_accounting)
    aggregate = check_flag(aggregate, "aggregate")
    if record is None:
        record = sum(int(i) * int(g) for i, g in zip(inst.iterations, inst.n_gpus, strict=True)) <= RECORD_TASKS
    record = check_flag(record, "record")
    fixed = None if placement is None else _check_fixed(inst, placement)
    rule = lazy_rule(pol.admission_rule())
    place = pol.placement_policy() if fixed is None else None
    name = f"{pol.admission_label}+{'fixed' if fixed is not None else pol.placement_label}"
    t0 = time.perf_counter()
    sim = _Sim(inst, place, rule, fixed, record, aggregate, accounting)
    sim.run()
    return _solution(inst, sim, name if accounting == "correct" else f"{name} (authors' accounting)",
                     time.perf_counter() - t0, policy if isinstance(policy, str) else name)


def _solution(inst: ContentionInstance, sim: _Sim, name: str, wall: float, policy: str) -> ContentionSimulation:
    """The :class:`ContentionSimulation` of a finished run."""
    finish = np.array([j.finish for j in sim.jobs])
    jct = finish - inst.arrival
    makespan = float(finish.max() - inst.arrival.min())
    util = sim.gpu_busy / makespan if makespan > 0 else np.zeros_like(sim.gpu_busy)
    m = jct_metrics(jct)
    log.info("%s: %d events in %.2f s, average JCT %.1f s", name, sim.n_events, wall, m["average_jct"])
    return ContentionSimulation(
        status=Status.FEASIBLE,
        objective=float(jct.sum()),
        wall_time=wall,
        solver=name,
        message=f"{sim.n_events} events",
        policy=policy,
        finish=finish,
        completion=finish,
        jct=jct,
        placement=tuple(j.gpus for j in sim.jobs),
        placed_at=np.array([j.placed_at for j in sim.jobs]),
        gpu_busy=sim.gpu_busy.copy(),
        gpu_utilization=util,
        avg_gpu_utilization=float(util.mean()),
        makespan=makespan,
        n_events=sim.n_events,
        trace=tuple(sim.trace),
        **m,
    )
