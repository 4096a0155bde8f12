"""The event loops of the round simulator: Gavel's own (``"gavel"``) and hetopt's idealised one (``"clean"``).

Both implement :class:`Mechanism` (``run(job_set, allocator, options) -> RunRecord``) and are
found by name in :data:`MECHANISMS`; the policies stay outside (the ``allocator`` returns the
allocation of the jobs present).  :func:`hetopt.gavel.simulate` picks one with
``mechanism=``.

``"gavel"`` (:class:`GavelRounds`) is Gavel's ``Scheduler.simulate`` in simulation mode,
driven as ``scripts/drivers/simulate_scheduler_with_trace.py`` drives it (stanford-futuredata/gavel
``scheduler/scheduler.py`` at commit c4fa400; line numbers below are of that file):

(a) ``_update_priorities`` (l. 2358-2463): the allocation is recomputed (a *reset*) when an
    arrival or a completion is pending and at least ``recompute_interval`` seconds have passed
    since the last reset, **or** the last reset time is 0: a reset at t = 0 leaves it at 0, so
    the next change resets at once.
(b) ``simulate`` (l. 1275-1298): when no micro-task runs the clock jumps to the next arrival;
    with no arrival left and jobs remaining the last reset time is set to 0, which forces a
    reset at the same timestamp.  The last loop iteration schedules an empty round.
(c) ``_get_num_steps`` / ``_get_job_steps_and_finish_times`` (l. 959-1042): a job runs
    ``min(int(T * round), remaining)`` whole steps, which take ``steps / T`` seconds; the round
    ends when its slowest job ends (so rounds are a little shorter than ``round_length``), and
    a job's completion time is its own finish time.
(d) ``_schedule_jobs_on_workers_helper`` / ``_schedule_jobs_on_workers`` (l. 766-957): a job not
    in the current allocation (arrived since the last reset) has priority 0 but still takes GPUs
    in the greedy pass; it is then skipped when workers are assigned, so those GPUs idle.
(e) ``_update_priorities`` (l. 2443-2463): a job counts as unallocated on a type only when its
    time fraction is exactly 0.0; any positive value (ECOS noise of 1e-11 included) gives the
    priority ``X * 1e9`` until the job has run there.
(f) ``_reset_time_run_so_far`` (l. 2265-2311) and ``_done_callback`` (l. 2868-3095): deficits
    grow by ``(should - received)`` computed first; each type's time so far is summed in the
    order the round's micro-tasks complete (latest finish first, ties by job id, as the heap
    pops them); the queues are sorted by ``(priority, deficit, allocation)`` with Python's
    stable sort, so the floating-point values decide ties.
(g) ``simulate`` (l. 1303-1311, 1325-1330): a micro-task's execution time is its finish time
    minus the *current round start*, which is the previous round's end; after an idle gap it
    is stale, so the gap counts as time the job received.
(h) ``policies/fifo.py`` (``FIFOPolicy.get_allocation``): the heterogeneity-aware FIFO scans
    the free types in name order (``k80``, ``p100``, ``v100``) and keeps the first best, so ties
    go to k80; the simulator hands every policy its columns in that order
    (``Policy.flatten``).  FIFO's queues also skip entries of priority 0 (l. 816-819).

``"clean"`` (:class:`CleanRounds`) keeps hetopt's earlier semantics: real-valued steps, rounds
of exactly ``min(round, remaining / T)`` seconds, arrivals and completions that wait for the
recompute interval (no forced reset), jobs outside the allocation left out of the queues,
``ALLOCATION_EPS`` for "not allocated" (:class:`~hetopt.gavel.mechanism.GavelMechanism`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, cast

import numpy as np

from ..errors import ArgumentError, HetoptError
from .instance import GavelInstance
from .mechanism import GavelMechanism

__all__ = ["Mechanism", "MECHANISMS", "RunOptions", "RunRecord", "GavelRounds", "CleanRounds", "Allocator",
           "DONE_RTOL", "UNSERVED_PRIORITY"]

#: A job is complete when its remaining steps are at most this fraction of its total (clean mechanism).
DONE_RTOL = 1e-9
#: Gavel multiplies the allocation by this when a job has no share yet ("don't use inf").
UNSERVED_PRIORITY = 1e9

#: ``allocator(jobs, now, remaining, since_start, pairs) -> X``: the allocation (len(jobs) + len(pairs), R) of
#: the jobs present (instance indices, in Gavel's job-id order) and of the pairs of them that may share GPUs
#: (packing policies; empty otherwise), in the instance's GPU-type columns.
Allocator = Callable[[np.ndarray, float, np.ndarray, np.ndarray, list[tuple[int, int]]], np.ndarray]


@dataclass(frozen=True)
class RunOptions:
    """What the event loop needs besides the jobs and the allocator.

    Attributes
    ----------
    round_length, recompute_interval : float
        Seconds (Gavel: 360 and 1,920).
    type_order : list of int
        The order in which the per-type queues are visited (Gavel: v100, p100, k80).
    shuffle_types : bool
        Shuffle ``type_order`` every round (Gavel does for its heterogeneity-agnostic policies,
        with ``random.Random(seed + 5)``).
    skip_zero_priority : bool
        Leave entries of priority 0 out of the queues (Gavel's FIFO policies).
    seed : int
        Gavel's driver seed (the type shuffler is seeded with ``seed + 5``).
    max_rounds : int
        Stop with ``HetoptError`` after this many rounds.
    record_rounds : bool
        Keep each round's placement.
    pair_throughput : callable, optional
        ``pair_throughput(a, b) -> (R, 2)``: the steps/s of jobs ``a`` and ``b`` sharing a GPU of each
        type (None: not measured, never packed).  Given for the packing policies (Gavel's ``_packed``):
        every two jobs of the same scale factor then form a pair that the allocation and the queues may
        hold.
    """

    round_length: float
    recompute_interval: float
    type_order: list[int]
    shuffle_types: bool = False
    skip_zero_priority: bool = False
    seed: int = 0
    max_rounds: int = 1_000_000
    record_rounds: bool = True
    pair_throughput: Callable[[int, int], np.ndarray | None] | None = None


@dataclass
class RunRecord:
    """What an event loop returns: completions, resets and rounds (instance job indices)."""

    completion: np.ndarray
    reset_times: list[float] = field(default_factory=list)
    reset_reasons: list[str] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    allocations: list[tuple[float, dict[Any, np.ndarray]]] = field(default_factory=list)
    n_rounds: int = 0


class Mechanism(Protocol):
    """An event loop of the round simulator (``models/gavel.md``, *Mechanism*)."""

    name: ClassVar[str]

    def policy_columns(self, inst: GavelInstance) -> list[int]:
        """The instance's GPU-type columns in the order the policy receives them."""
        ...

    def run(self, inst: GavelInstance, allocator: Allocator, options: RunOptions) -> RunRecord:
        """Simulate until every job of ``inst`` completes."""
        ...


def _arrival_order(inst: GavelInstance) -> list[int]:
    return sorted(range(inst.n_jobs), key=lambda j: (float(inst.arrival[j]), j))


class GavelRounds:
    """Gavel's ``Scheduler.simulate`` (behaviours (a)-(h) of the module docstring).

    Jobs get Gavel's ids in arrival order (ties by instance index); the policy sees them in id
    order and the GPU types with at least one GPU in name order, as Gavel's ``flatten`` does.
    """

    name: ClassVar[str] = "gavel"

    def policy_columns(self, inst: GavelInstance) -> list[int]:
        """Types with GPUs, sorted by name (Gavel registers no worker of a type it has none of)."""
        return sorted((r for r in range(inst.n_types) if inst.capacity[r] > 0), key=lambda r: inst.gpu_types[r])

    def run(self, inst: GavelInstance, allocator: Allocator, options: RunOptions) -> RunRecord:
        """Simulate ``inst`` as Gavel's simulator does; see the module docstring."""
        return _GavelState(inst, allocator, options).simulate()


Key = int | tuple[int, int]


class _GavelState:
    """The scheduler state of one Gavel run.

    Keys are instance job indices and, when packing, pairs ``(a, b)`` of them (``a`` the earlier in
    Gavel's id order); dictionaries keep Gavel's insertion orders.
    """

    def __init__(self, inst: GavelInstance, allocator: Allocator, options: RunOptions):
        self.inst, self.allocator, self.opt = inst, allocator, options
        self.T = np.asarray(inst.throughput, dtype=float)
        self.cap = np.asarray(inst.capacity, dtype=np.int64)
        self.types = [r for r in options.type_order if self.cap[r] > 0]
        self.live = [r for r in range(inst.n_types) if self.cap[r] > 0]
        self.half = options.round_length / 2.0
        self.total = np.asarray(inst.total_steps, dtype=float)
        self.run_steps = np.zeros(inst.n_jobs)
        self.start = np.asarray(inst.arrival, dtype=float)
        self.latest = np.full(inst.n_jobs, np.nan)
        self.completion = np.full(inst.n_jobs, np.nan)
        order = _arrival_order(inst)
        self.gid = {j: k for k, j in enumerate(order)}  # Gavel's job ids: arrival order
        self.priority: dict[int, dict[Key, float]] = {r: {} for r in range(inst.n_types)}
        self.deficit: dict[int, dict[Key, float]] = {r: {} for r in range(inst.n_types)}
        self.time_so_far: dict[Key, dict[int, float]] = {}
        self.thr: dict[Key, np.ndarray] = {}  # (R,) for a job, (R, 2) for a pair; insertion order kept
        self.worker_time = dict.fromkeys(range(inst.n_types), 0.0)
        self.allocation: dict[Key, np.ndarray] = {}
        self.jobs: dict[int, None] = {}  # active jobs, insertion (arrival) order
        self.last_reset = 0.0
        self.need_update = False
        self.forced = False
        self.now = 0.0
        self.shuffler = random.Random(options.seed + 5)
        self.record = RunRecord(np.full(inst.n_jobs, np.nan))

    def order(self, k: Key) -> tuple[int, ...]:
        """Gavel's ``JobIdPair`` order: jobs by id, then pairs by ids."""
        if isinstance(k, tuple):
            return (1, self.gid[k[0]], self.gid[k[1]])
        return (0, self.gid[k])

    def pair(self, a: int, b: int) -> tuple[int, int]:
        return (a, b) if self.gid[a] < self.gid[b] else (b, a)

    def runs(self, k: Key, r: int) -> bool:
        """Gavel's "throughput > 0" test of a job or a pair on type ``r``."""
        t = self.thr[k]
        return bool(np.all(t[r] > 0)) if isinstance(k, tuple) else bool(t[r] > 0)

    def members(self, k: Key) -> tuple[int, ...]:
        return k if isinstance(k, tuple) else (k,)

    # -- jobs --------------------------------------------------------------------------------
    def add_job(self, j: int) -> None:
        """``Scheduler.add_job``: the job, and with packing its pairs with every job of its scale factor."""
        self.jobs[j] = None
        self.thr[j] = self.T[j]
        s = self.inst.scale_factor
        if self.opt.pair_throughput is not None:
            for other in self.jobs:
                if other == j or s[other] != s[j]:
                    continue
                p = self.pair(j, other)
                if p not in self.thr:
                    measured = self.opt.pair_throughput(p[0], p[1])
                    if measured is None:  # no measurement of this pair: never packed
                        continue
                    self.thr[p] = np.asarray(measured, dtype=float)
                    self.time_so_far[p] = {}
                for r in self.live:
                    self.time_so_far[p][r] = 0.0  # Gavel starts a pair's time at 0 (a job's at half a round)
        self.time_so_far[j] = dict.fromkeys(self.live, self.half)
        for r in self.live:
            self.priority[r][j] = 0.0
            self.deficit[r][j] = 0.0
            for k in self.thr:
                if isinstance(k, tuple) and j in k:
                    self.priority[r][k] = 0.0
                    self.deficit[r][k] = 0.0
        self.need_update = True

    def remove_job(self, j: int) -> None:
        """``Scheduler._remove_job``: the job and every pair that contains it."""
        self.completion[j] = self.latest[j]
        del self.jobs[j]
        gone = [k for k in self.thr if k == j or (isinstance(k, tuple) and j in k)]
        for k in gone:
            del self.thr[k]
            self.time_so_far.pop(k, None)
        for r in range(self.inst.n_types):
            for k in gone:
                self.priority[r].pop(k, None)
                self.deficit[r].pop(k, None)
        self.need_update = True

    # -- allocation ----------------------------------------------------------------------------
    def reset_time_run_so_far(self) -> None:
        elapsed = self.now - self.last_reset
        for r in self.live:
            self.worker_time[r] = 0.0
            for k, times in self.time_so_far.items():
                received = times[r] - self.half if r in times else 0.0
                should = float(self.allocation[k][r]) * elapsed if k in self.allocation else 0
                d = should - received
                self.deficit[r][k] = self.deficit[r].get(k, 0.0) + d
                times[r] = self.half
                self.worker_time[r] += times[r]
        self.last_reset = self.now

    def compute_allocation(self) -> dict[Key, np.ndarray]:
        if not self.jobs:
            return {}
        act = np.array(sorted(self.jobs, key=self.order), dtype=np.int64)
        pairs = sorted((k for k in self.thr if isinstance(k, tuple)), key=self.order)
        X = self.allocator(act, self.now, self.total[act] - self.run_steps[act], self.now - self.start[act], pairs)
        keys: list[Key] = [*act.tolist(), *pairs]
        alloc = {k: np.asarray(row, dtype=float) for k, row in zip(keys, X, strict=True)}
        self.record.reset_times.append(self.now)
        if self.opt.record_rounds:
            self.record.allocations.append((self.now, alloc))
        return alloc

    def update_priorities(self) -> None:
        since = self.now - self.last_reset
        due = since >= self.opt.recompute_interval or self.last_reset == 0
        if self.need_update and due:
            reason = ("interval" if since >= self.opt.recompute_interval else "forced" if self.forced
                      else "last reset at 0")
            self.forced = False
            self.record.reset_reasons.append(reason)
            self.reset_time_run_so_far()
            self.allocation = self.compute_allocation()
            self.need_update = False
        for r in self.live:
            wt = self.worker_time[r]
            for k in self.priority[r]:
                if k not in self.allocation:
                    self.priority[r][k] = 0.0
                    continue
                a = float(self.allocation[k][r])
                new = a * UNSERVED_PRIORITY
                if a == 0.0:
                    pass
                elif not self.runs(k, r):
                    new = 0.0
                else:
                    frac = 0.0 if wt == 0.0 or r not in self.time_so_far[k] else self.time_so_far[k][r] / wt
                    if frac > 0.0:
                        new = a / frac
                self.priority[r][k] = new

    # -- one round -----------------------------------------------------------------------------
    def schedule(self) -> list[tuple[Key, int]]:
        """Gavel's greedy pass, then the worker assignment that skips keys outside the allocation."""
        self.update_priorities()
        types = list(self.types)
        if self.opt.shuffle_types:
            self.shuffler.shuffle(types)
        left = {r: int(self.cap[r]) for r in types}
        done: set[int] = set()
        chosen: list[tuple[Key, int]] = []
        s = self.inst.scale_factor
        zero = np.zeros(self.inst.n_types)
        for r in types:  # Gavel concatenates the sorted queues type by type: a full type skips the rest of its queue
            prio, defi = self.priority[r], self.deficit[r]
            queue = sorted(prio, key=lambda k: (prio[k], defi[k], float(self.allocation.get(k, zero)[r])),
                           reverse=True)
            for k in queue:
                if left[r] == 0:
                    break
                if any(j in done for j in self.members(k)) or not self.runs(k, r):
                    continue
                self._take(k, r, left, done, chosen, s)
        return [(k, r) for k, r in chosen if k in self.allocation]  # (d)

    def _take(self, k: Key, r: int, left: dict[int, int], done: set[int], chosen: list[tuple[Key, int]],
              s: np.ndarray) -> None:
        """The rest of Gavel's greedy test for one queue entry; places it when it passes."""
        if self.opt.skip_zero_priority and self.priority[r][k] <= 0.0:
            return
        sf = {int(s[j]) for j in self.members(k)}
        if len(sf) > 1:
            return
        need = sf.pop()
        if need > left[r]:
            return
        left[r] -= need
        done.update(self.members(k))
        chosen.append((k, r))

    def steps_and_finish(self, k: Key, r: int) -> tuple[list[float], float]:
        """``_get_job_steps_and_finish_times``: whole steps of each member, the latest finish."""
        finish = self.now
        steps = []
        for i, j in enumerate(self.members(k)):
            thr = float(self.thr[k][r][i]) if isinstance(k, tuple) else float(self.thr[k][r])
            n = min(int(thr * self.opt.round_length), self.total[j] - self.run_steps[j])
            if n <= 0:
                raise HetoptError(f"gavel mechanism: job {j} runs int({thr:.6g} x {self.opt.round_length:g}) = 0 steps "
                                  f"per round on type {self.inst.gpu_types[r]}; Gavel's round cannot advance it "
                                  "(Gavel drops such a job after 5 failed micro-tasks)")
            steps.append(n)
            finish = max(finish, self.now + n / thr)
        return steps, finish

    def simulate(self) -> RunRecord:
        inst, opt = self.inst, self.opt
        queued = _arrival_order(inst)
        remaining_jobs = len(queued)
        running: list[tuple[float, Key, int, list[float]]] = []  # (finish, key, type, steps of each member)
        round_start, round_end = 0.0, None
        self.now = float(inst.arrival[queued[0]]) if queued else 0.0
        idle_resets = 0
        for _ in range(opt.max_rounds):
            if remaining_jobs == 0:
                break
            next_arrival = float(inst.arrival[queued[0]]) if queued else None
            if next_arrival is None and not running:
                self.last_reset = 0.0  # (b) force a reset
                self.forced = True
                idle_resets += 1
                if idle_resets > 2:
                    raise HetoptError(f"gavel mechanism: jobs {sorted(self.jobs)[:5]} can never run at "
                                      f"{self.now:.1f} s (no GPU type has room for them)")
            max_ts = 0.0
            if running and max(f for f, *_ in running) > max_ts:
                max_ts = max(f for f, *_ in running)
                if round_end is not None:
                    round_start = round_end  # (g) stale after an idle gap
                round_end = max_ts
            if max_ts > 0:
                self.now = max_ts
            elif next_arrival is not None:
                self.now = next_arrival
            # completions, in heap order: latest finish first, ties by Gavel's job-id order
            to_remove = []
            for finish, k, r, steps in sorted(running, key=lambda e: (-e[0], self.order(e[1]))):
                execution = finish - round_start
                for j, n in zip(self.members(k), steps, strict=True):
                    self.latest[j] = finish
                    if j in self.jobs:
                        self.run_steps[j] += n
                        if self.total[j] - self.run_steps[j] <= 0:
                            to_remove.append(j)
                if k in self.time_so_far:
                    self.time_so_far[k][r] += execution
                    self.worker_time[r] += execution
                for j in to_remove:
                    if j in self.jobs:
                        self.remove_job(j)
                        remaining_jobs -= 1
            running = []
            while queued and float(inst.arrival[queued[0]]) <= self.now:
                self.add_job(queued.pop(0))
            placed = self.schedule()
            record: dict[str, Any] = {"start": self.now, "placement": {}, "seconds": {}}
            for k, r in placed:
                steps, finish = self.steps_and_finish(k, r)
                running.append((finish, k, r, steps))
                for j, n in zip(self.members(k), steps, strict=True):
                    record["placement"][j] = r
                    thr = float(self.thr[k][r][self.members(k).index(j)]) if isinstance(k, tuple) else \
                        float(self.thr[k][r])
                    record["seconds"][j] = n / thr
                if isinstance(k, tuple):
                    record.setdefault("packed", []).append(list(k))
            if running:
                idle_resets = 0
            record["end"] = max([f for f, *_ in running], default=self.now)
            self.record.n_rounds += 1
            if opt.record_rounds:
                self.record.rounds.append(record)
        else:
            raise HetoptError(f"gavel mechanism: jobs left unfinished after {opt.max_rounds} rounds")
        self.record.completion = self.completion
        return self.record


class CleanRounds:
    """hetopt's idealised loop (:class:`~hetopt.gavel.mechanism.GavelMechanism`): the semantics before issue 23."""

    name: ClassVar[str] = "clean"

    def policy_columns(self, inst: GavelInstance) -> list[int]:
        """Every type, in the instance's column order."""
        return list(range(inst.n_types))

    def run(self, inst: GavelInstance, allocator: Allocator, options: RunOptions) -> RunRecord:
        """Rounds of ``min(round, remaining / T)`` seconds; resets at most every ``recompute_interval``."""
        if options.pair_throughput is not None:
            raise ArgumentError("the clean mechanism does not pack jobs; simulate a packing policy with "
                                "mechanism='gavel'")
        J = inst.n_jobs
        T = inst.effective_throughput()
        s = inst.scale_factor
        cap = inst.capacity
        mech = GavelMechanism(inst.n_types, round_length=options.round_length,
                              recompute_interval=options.recompute_interval, type_order=options.type_order,
                              work_conserving=not options.skip_zero_priority)
        remaining = inst.total_steps.astype(float).copy()
        completion = np.full(J, np.nan)
        order = _arrival_order(inst)
        out = RunRecord(completion)
        nxt, t = 0, 0.0
        for _ in range(options.max_rounds):
            while nxt < J and inst.arrival[order[nxt]] <= t + 1e-9:
                mech.add_job(order[nxt])
                nxt += 1
            if not mech.jobs and nxt == J:
                break
            if mech.jobs and mech.recompute_due(t):
                act = np.array(sorted(cast(list[int], mech.jobs)))
                X = allocator(act, t, remaining[act], t - inst.arrival[act], [])
                alloc = dict(zip(act.tolist(), np.asarray(X, dtype=float), strict=True))
                mech.reset(t, alloc)
                if options.record_rounds:
                    out.allocations.append((t, alloc))
            jobs = cast(list[int], mech.jobs)
            place = cast(dict[int, int], mech.schedule({j: T[j] for j in jobs}, {j: int(s[j]) for j in jobs}, cap))
            if not place:
                later = [inst.arrival[order[nxt]]] if nxt < J else []
                if mech.jobs and mech.stale and mech.last_reset is not None:
                    later.append(mech.last_reset + options.recompute_interval)
                later = [x for x in later if x > t + 1e-9]
                if not later:
                    raise HetoptError(f"clean mechanism: jobs {sorted(jobs)[:5]} can never run at time {t:.1f} s")
                t = float(min(later))
                continue
            end = t
            seconds = {}
            for j, r in place.items():
                dt = min(options.round_length, remaining[j] / T[j, r])
                remaining[j] -= dt * T[j, r]
                mech.record(j, r, dt)
                seconds[j] = dt
                if remaining[j] <= DONE_RTOL * inst.total_steps[j]:
                    remaining[j] = 0.0
                    completion[j] = t + dt
                end = max(end, t + dt)
            for j in place:
                if remaining[j] == 0.0:
                    mech.remove_job(j)
            out.n_rounds += 1
            if options.record_rounds:
                out.rounds.append({"start": t, "end": end, "placement": dict(sorted(place.items())),
                                   "seconds": dict(sorted(seconds.items()))})
            t = end
        else:
            raise HetoptError(f"clean mechanism: jobs left unfinished after {options.max_rounds} rounds")
        out.reset_times = list(mech.reset_times)
        out.reset_reasons = ["interval"] * len(out.reset_times)
        return out


#: Mechanism name -> event loop: the one table ``simulate(..., mechanism=...)`` reads.
MECHANISMS: dict[str, Mechanism] = {"gavel": GavelRounds(), "clean": CleanRounds()}


def type_order_of(inst: GavelInstance, order: Sequence[int] | None) -> list[int]:
    """The queue order: ``order`` or the instance's columns (fastest first by convention)."""
    return list(range(inst.n_types)) if order is None else [int(r) for r in order]
