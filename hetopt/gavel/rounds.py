"""Gavel's own event loop of the round simulator (``mechanism="gavel"``) and the table of event loops.

:class:`GavelRounds` is Gavel's ``Scheduler.simulate`` in simulation mode, driven as
``scripts/drivers/simulate_scheduler_with_trace.py`` drives it (stanford-futuredata/gavel
``scheduler/scheduler.py`` at commit c4fa400), with Gavel's behaviours (a)-(h) (forced resets,
whole steps per round, priority-0 jobs that take GPUs, ...), each listed with Gavel's line numbers
in the card (models/gavel.md, section ``mechanism="gavel"``). :data:`MECHANISMS` maps a
name to its loop (:class:`~hetopt.gavel.round_loop.Mechanism`): ``"gavel"`` and ``"clean"``
(:class:`~hetopt.gavel.clean_rounds.CleanRounds`); :func:`hetopt.gavel.simulate` picks one with
``mechanism=``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ..errors import HetoptError
from .clean_rounds import CleanRounds
from .instance import GavelInstance
from .round_loop import Allocator, Mechanism, RunOptions, RunRecord, _arrival_order

__all__ = ["MECHANISMS", "GavelRounds", "UNSERVED_PRIORITY", "type_order_of"]

#: Gavel multiplies the allocation by this when a job has no share yet ("don't use inf").
UNSERVED_PRIORITY = 1e9


class GavelRounds:
    """Gavel's ``Scheduler.simulate`` (behaviours (a)-(h) of the card, models/gavel.md).

    Jobs get Gavel's ids in arrival order (ties by instance index); the policy sees them in id
    order and the GPU types with at least one GPU in name order, as Gavel's ``flatten`` does.
    """

    name: ClassVar[str] = "gavel"

    def policy_columns(self, inst: GavelInstance) -> list[int]:
        """Types with GPUs, sorted by name (Gavel registers no worker of a type it has none of)."""
        return sorted((r for r in range(inst.n_types) if inst.capacity[r] > 0), key=lambda r: inst.gpu_types[r])

    def run(self, inst: GavelInstance, allocator: Allocator, options: RunOptions) -> RunRecord:
        """Simulate ``inst`` as Gavel's simulator does (behaviours (a)-(h) of the card)."""
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


#: Mechanism name -> event loop: the one table ``simulate(..., mechanism=...)`` reads.
MECHANISMS: dict[str, Mechanism] = {"gavel": GavelRounds(), "clean": CleanRounds()}


def type_order_of(inst: GavelInstance, order: Sequence[int] | None) -> list[int]:
    """The queue order: ``order`` or the instance's columns (fastest first by convention)."""
    return list(range(inst.n_types)) if order is None else [int(r) for r in order]
