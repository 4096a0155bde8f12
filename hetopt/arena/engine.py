"""The arena's execution model: Gavel's round mechanism, vectorized, with options.

:func:`execute` runs one :class:`~hetopt.arena.protocol.Policy` on a workload.  With the default
options (no restart delay, no contention, gang rule ``"single"``) it is the event loop of
:class:`hetopt.gavel.rounds.GavelRounds` (behaviours (a)-(h) there: whole steps per round, the
round ending with its slowest job, Gavel's resets, priorities ``X / (time fraction received)``,
deficits, the greedy pass over per-type queues sorted by ``(priority, deficit, allocation)``),
so an allocation policy gives, job for job, the completion times of
:func:`hetopt.gavel.simulate` (``tests/arena/test_agreement.py``).  The state is held in arrays
(one row per job or pair, in Gavel's insertion order); only the greedy pass and the round's
completions, whose floating-point order matters, stay sequential.

A placement policy's gangs are the round's.  Rounds run in :mod:`hetopt.arena.execution`; most runs
take the same loop with lean bookkeeping, :mod:`hetopt.arena.kernel` (identical, about twice as fast).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..errors import ArgumentError, HetoptError, ScheduleViolation
from ..gavel.rounds import UNSERVED_PRIORITY
from ..inputs import MAX_SEED, check_flag, check_size
from .execution import RoundRunner, Run, queue_order
from .kernel import applies, run_allocation
from .protocol import Options, Policy, RoundState
from .workload import Workload

__all__ = ["Run", "execute", "queue_order", "FAST_KEYS"]

#: From this many queue entries on, the greedy pass filters the entries that cannot be placed with numpy first.
FAST_KEYS = 12


class _Keys:
    """Rows of the mechanism's state: jobs and pairs, in Gavel's insertion order (growable arrays)."""

    def __init__(self, R: int, size: int):
        self.R = R
        self.n = 0
        self.members: list[tuple[int, ...]] = []
        self.order: list[tuple[int, ...]] = []
        self.thr: list[np.ndarray] = []
        self.alive: list[bool] = []
        self.live: list[int] = []
        self._live_arr: np.ndarray | None = None
        self.tsf = np.zeros((size, R))
        self.deficit = np.zeros((size, R))
        self.alloc = np.zeros((size, R))
        self.runs = np.zeros((size, R), dtype=bool)
        self.in_alloc = np.zeros(size, dtype=bool)

    def _grow(self, size: int) -> None:
        for name in ("tsf", "deficit", "alloc", "runs", "in_alloc"):
            a = getattr(self, name)
            b = np.zeros((size, *a.shape[1:]), dtype=a.dtype)
            b[:self.n] = a[:self.n]
            setattr(self, name, b)

    def add(self, members: tuple[int, ...], order: tuple[int, ...], thr: np.ndarray, tsf: float) -> int:
        k = self.n
        if k == self.tsf.shape[0]:
            self._grow(2 * k)
        self.n += 1
        self.members.append(members)
        self.order.append(order)
        self.thr.append(thr)
        self.alive.append(True)
        self.live.append(k)
        self._live_arr = None
        self.tsf[k] = tsf
        self.runs[k] = np.all(thr > 0, axis=1) if thr.ndim == 2 else thr > 0
        return k

    def kill(self, k: int) -> None:
        self.alive[k] = False
        self.live.remove(k)
        self._live_arr = None

    @property
    def live_arr(self) -> np.ndarray:
        """The live rows, in insertion order."""
        if self._live_arr is None:
            self._live_arr = np.array(self.live, dtype=np.int64)
        return self._live_arr


class _Mechanism:
    """Gavel's scheduler state for one run of an allocation policy (hetopt.gavel.rounds behaviours (a)-(h))."""

    def __init__(self, w: Workload, policy: Policy, options: Options, state: RoundState, gid: np.ndarray):
        self.w, self.policy, self.opt, self.state, self.gid = w, policy, options, state, gid
        self.cap = w.capacity
        self.live = [r for r in range(w.n_types) if self.cap[r] > 0]
        self.types = [r for r in queue_order(w) if self.cap[r] > 0]
        self.half = options.round_length / 2.0
        self.keys = _Keys(w.n_types, max(16, 2 * w.n_jobs))
        self.job_key = np.full(w.n_jobs, -1, dtype=np.int64)
        self.pair_thr = getattr(policy, "pair_throughput", None)
        self.worker_time = np.zeros(w.n_types)
        self.jobs: dict[int, None] = {}
        self.last_reset = 0.0
        self.need_update = False
        self.n_resets = 0
        self.shuffle = bool(getattr(policy, "shuffle_types", False))
        self.skip_zero = bool(getattr(policy, "skip_zero_priority", False))
        self.shuffler = random.Random(state.seed + 5)
        self.sf = w.scale_factor.tolist()
        self.sf_arr = w.scale_factor
        self.key_job = np.zeros(max(16, 2 * w.n_jobs), dtype=np.int64)

    def add_job(self, j: int) -> None:
        keys = self.keys
        self.jobs[j] = None
        k = keys.add((j,), (0, int(self.gid[j])), self.w.throughput[j], self.half)
        self.job_key[j] = k
        if k >= self.key_job.size:
            self.key_job = np.concatenate([self.key_job, np.zeros_like(self.key_job)])
        self.key_job[k] = j
        if self.pair_thr is not None:
            sf = self.sf
            for other in self.jobs:
                if other == j or sf[other] != sf[j]:
                    continue
                a, b = (j, other) if self.gid[j] < self.gid[other] else (other, j)
                measured = self.pair_thr(a, b)
                if measured is None:
                    continue
                keys.add((a, b), (1, int(self.gid[a]), int(self.gid[b])), np.asarray(measured, dtype=float), 0.0)
        self.need_update = True

    def remove_job(self, j: int) -> None:
        del self.jobs[j]
        keys = self.keys
        for k in [k for k in keys.live if j in keys.members[k]]:
            keys.kill(k)
        self.need_update = True

    def reset(self, now: float) -> None:
        """``_reset_time_run_so_far`` then the policy's allocation of the jobs present."""
        keys = self.keys
        live = keys.live_arr
        elapsed = now - self.last_reset
        received = keys.tsf[live] - self.half
        should = np.where(keys.in_alloc[live, None], keys.alloc[live] * elapsed, 0.0)
        keys.deficit[live] = keys.deficit[live] + (should - received)
        keys.tsf[live] = self.half
        total = float(np.cumsum(np.full(live.size, self.half))[-1]) if live.size else 0.0  # Gavel adds key by key
        for r in self.live:
            self.worker_time[r] = total
        self.last_reset = now
        keys.in_alloc[:] = False
        keys.alloc[:] = 0.0
        if not self.jobs:
            return
        jobs = np.array(sorted(self.jobs, key=lambda j: self.gid[j]), dtype=np.int64)
        pair_keys = sorted((k for k in keys.live if len(keys.members[k]) == 2), key=lambda k: keys.order[k])
        st = self.state
        st.jobs, st.pairs, st.now = jobs, [keys.members[k] for k in pair_keys], now  # type: ignore[misc]
        X = np.asarray(self.policy(st), dtype=float)
        rows = [int(self.job_key[j]) for j in jobs] + pair_keys
        if X.shape != (len(rows), self.w.n_types):
            raise ScheduleViolation(f"policy {self.policy.name!r} returned an allocation of shape {X.shape}; expected "
                                    f"({len(rows)}, {self.w.n_types}) (the jobs present, then the pairs)")
        keys.alloc[rows] = X
        keys.in_alloc[rows] = True
        self.n_resets += 1

    def maybe_reset(self, now: float) -> None:
        """The reset of Gavel's ``_update_priorities``: when a job arrived or left and the interval has passed (a)."""
        since = now - self.last_reset
        due = since >= self.opt.recompute_interval or self.last_reset == 0
        if self.need_update and due:
            self.reset(now)
            self.need_update = False

    def update_priorities(self, now: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Gavel's ``_update_priorities``; returns the live rows and their priorities, deficits, allocations."""
        self.maybe_reset(now)
        keys = self.keys
        live = keys.live_arr
        a = keys.alloc[live]
        wt = self.worker_time
        zero = wt == 0.0
        if zero.any():
            frac = keys.tsf[live] / np.where(zero, 1.0, wt)
            frac[:, zero] = 0.0
        else:
            frac = keys.tsf[live] / wt
        pos = frac > 0.0
        unserved = a * UNSERVED_PRIORITY
        served = np.where(pos, a / np.where(pos, frac, 1.0), unserved)
        new = np.where(a == 0.0, unserved, np.where(keys.runs[live], served, 0.0))
        new[~keys.in_alloc[live]] = 0.0
        return live, new, keys.deficit[live], a

    def schedule(self, now: float) -> list[tuple[int, int]]:
        """The greedy pass over the per-type queues; keys outside the allocation are dropped after it (d)."""
        if len(self.keys.live) < FAST_KEYS:
            self.maybe_reset(now)
            types = list(self.types)
            if self.shuffle:
                self.shuffler.shuffle(types)
            return self._schedule_small(types)
        live, prio, deficit, alloc = self.update_priorities(now)
        keys = self.keys
        types = list(self.types)
        if self.shuffle:
            self.shuffler.shuffle(types)
        if not self.pair_thr and live.size >= FAST_KEYS:
            return self._schedule_jobs(live, prio, deficit, alloc, types)
        sf = self.sf
        members, runs = keys.members, keys.runs
        done: set[int] = set()
        chosen: list[tuple[int, int]] = []
        na, nd, np_ = -alloc, -deficit, -prio
        for r in types:
            left = int(self.cap[r])
            rows = np.lexsort((na[:, r], nd[:, r], np_[:, r]))
            pr = prio[:, r]
            for i in rows.tolist():
                if left == 0:
                    break
                k = int(live[i])
                mem = members[k]
                if not runs[k, r] or (mem[0] in done or (len(mem) == 2 and mem[1] in done)):
                    continue
                if self.skip_zero and pr[i] <= 0.0:
                    continue
                need = sf[mem[0]]
                if (len(mem) == 2 and sf[mem[1]] != need) or need > left:
                    continue
                left -= need
                done.update(mem)
                chosen.append((k, r))
        in_alloc = keys.in_alloc
        return [(k, r) for k, r in chosen if in_alloc[k]]

    def _schedule_jobs(self, live: np.ndarray, prio: np.ndarray, deficit: np.ndarray, alloc: np.ndarray,
                       types: list[int]) -> list[tuple[int, int]]:
        """The greedy pass when every key is a job: the queue's entries that cannot be placed are filtered at once."""
        keys = self.keys
        placed = np.zeros(live.size, dtype=bool)
        runs = keys.runs[live]
        need = self.sf_arr[self.key_job[live]]
        chosen: list[tuple[int, int]] = []
        na, nd, np_ = -alloc, -deficit, -prio
        for r in types:
            left = int(self.cap[r])
            rows = np.lexsort((na[:, r], nd[:, r], np_[:, r]))
            ok = runs[rows, r] & ~placed[rows] & (need[rows] <= left)
            if self.skip_zero:
                ok &= prio[rows, r] > 0.0
            for i in rows[ok].tolist():
                n = int(need[i])
                if n > left:
                    continue
                left -= n
                placed[i] = True
                chosen.append((int(live[i]), r))
                if left == 0:
                    break
        in_alloc = keys.in_alloc
        return [(k, r) for k, r in chosen if in_alloc[k]]

    def _schedule_small(self, types: list[int]) -> list[tuple[int, int]]:
        """Priorities and the greedy pass element by element, as Gavel's own loops (fewer than FAST_KEYS keys)."""
        keys = self.keys
        wt = self.worker_time.tolist()
        L = self.live
        live = keys.live
        rows_p: list[list[float]] = []
        rows_d: list[list[float]] = []
        rows_a: list[list[float]] = []
        rows_r: list[list[bool]] = []
        for k in live:
            a_row, run_row = keys.alloc[k].tolist(), keys.runs[k].tolist()
            p = [0.0] * keys.R
            if keys.in_alloc[k]:
                t_row = keys.tsf[k].tolist()
                for r in L:
                    a = a_row[r]
                    new = a * UNSERVED_PRIORITY
                    if a == 0.0:
                        pass
                    elif not run_row[r]:
                        new = 0.0
                    else:
                        frac = 0.0 if wt[r] == 0.0 else t_row[r] / wt[r]
                        if frac > 0.0:
                            new = a / frac
                    p[r] = new
            rows_p.append(p)
            rows_d.append(keys.deficit[k].tolist())
            rows_a.append(a_row)
            rows_r.append(run_row)
        sf, members = self.sf, keys.members
        done: set[int] = set()
        chosen: list[tuple[int, int]] = []
        back = range(0, -len(live), -1)  # reverse=True keeps ties in their order: the last key breaks them
        for r in types:
            left = int(self.cap[r])
            queue = sorted(zip([row[r] for row in rows_p], [row[r] for row in rows_d], [row[r] for row in rows_a],
                               back, strict=True), reverse=True)
            for entry in queue:
                if left == 0:
                    break
                i = -entry[3]
                k = live[i]
                mem = members[k]
                if not rows_r[i][r] or (mem[0] in done or (len(mem) == 2 and mem[1] in done)):
                    continue
                if self.skip_zero and entry[0] <= 0.0:
                    continue
                need = sf[mem[0]]
                if (len(mem) == 2 and sf[mem[1]] != need) or need > left:
                    continue
                left -= need
                done.update(mem)
                chosen.append((k, r))
        in_alloc = keys.in_alloc
        return [(k, r) for k, r in chosen if in_alloc[k]]

    def credit(self, k: int, r: int, execution: float) -> None:
        """A key's micro-task of ``execution`` seconds on type ``r`` (if the key still exists)."""
        if self.keys.alive[k]:
            self.keys.tsf[k, r] += execution
            self.worker_time[r] += execution


def execute(w: Workload, policy: Policy, options: Options | None = None, *, seed: int = 0, lean: bool = True) -> Run:
    """Run ``policy`` on ``w`` until every job completes (the module docstring).

    ``lean`` (default): an allocation policy without pairs, under options that need no servers, runs in
    :func:`hetopt.arena.kernel.run_allocation`, the same loop with lean bookkeeping (the same run, faster);
    False runs every policy in the general loop.

    Raises
    ------
    ScheduleViolation
        The policy returned an allocation of the wrong shape or a gang that breaks a constraint.
    HetoptError
        Jobs that can never run, or ``max_rounds`` rounds without finishing.
    """
    if not isinstance(w, Workload):
        raise ArgumentError(f"w is {w!r:.60}; expected a Workload")
    if not (callable(getattr(policy, "reset", None)) and callable(policy)):
        raise ArgumentError(f"policy is {policy!r:.60}; expected a Policy (reset(...) and a call on the round's state; "
                            "make one with the factory of hetopt.arena's registry)")
    if options is not None and not isinstance(options, Options):
        raise ArgumentError(f"options is {options!r:.60}; expected an Options or None")
    check_size(seed, "seed", minimum=0, maximum=MAX_SEED)
    check_flag(lean, "lean")
    opt = options or Options()
    J = w.n_jobs
    order = sorted(range(J), key=lambda j: (float(w.arrival[j]), j))
    gid = np.empty(J, dtype=np.int64)
    gid[order] = np.arange(J)
    state = RoundState(w, opt, 0.0, 0, np.zeros(0, dtype=np.int64), [], w.steps.astype(float).copy(), np.zeros(J),
                       np.full(J, -1, dtype=np.int64), seed)
    policy.reset(w, opt, seed=seed)
    runner = RoundRunner(w, opt, state, gid)
    runner.allow_copies = bool(getattr(policy, "copies", False))
    if runner.allow_copies:
        from .copies import start_copies

        runner.start_copies = start_copies
    mode = getattr(policy, "mode", None)
    if mode not in ("allocation", "placement"):
        raise ScheduleViolation(f"policy {getattr(policy, 'name', policy)!r} has mode {mode!r}; expected "
                                "'allocation' or 'placement'")
    if lean and applies(policy, opt, w):
        return run_allocation(w, policy, opt, state, order, gid)
    mech = _Mechanism(w, policy, opt, state, gid) if mode == "allocation" else None
    return _loop(w, policy, opt, state, runner, mech, order, gid)


def _loop(w: Workload, policy: Policy, opt: Options, state: RoundState, runner: RoundRunner,
          mech: _Mechanism | None, order: list[int], gid: np.ndarray) -> Run:
    """Gavel's ``simulate`` loop (hetopt.gavel.rounds ``_GavelState.simulate``) around either kind of policy."""
    run = Run(np.full(w.n_jobs, np.nan), isolated_time=np.zeros(w.n_jobs))
    queued = list(order)
    nxt = 0
    present: dict[int, None] = {}
    remaining_jobs = len(queued)
    running: Any = []
    round_start, round_end = 0.0, None
    now = float(w.arrival[queued[0]])
    idle = 0
    for _ in range(opt.max_rounds):
        if remaining_jobs == 0:
            break
        next_arrival = float(w.arrival[queued[nxt]]) if nxt < len(queued) else None
        if next_arrival is None and not running:
            if mech is not None:
                mech.last_reset = 0.0  # (b) force a reset
            idle += 1
            if idle > 2:
                raise HetoptError(f"arena: jobs {sorted(present)[:5]} can never run at {now:.1f} s under policy "
                                  f"{policy.name!r} (no gang placed with no arrival left)")
        max_ts = runner.max_finish(running)
        if max_ts > 0.0:
            if round_end is not None:
                round_start = round_end  # (g) stale after an idle gap
            round_end = max_ts
            now = max_ts
        elif next_arrival is not None:
            now = next_arrival
        for j in runner.complete(running, round_start, mech, present):
            if j in present:
                del present[j]
                run.completion[j] = runner.latest[j]
                remaining_jobs -= 1
                if mech is not None:
                    mech.remove_job(j)
        running = []
        while nxt < len(queued) and float(w.arrival[queued[nxt]]) <= now:
            j = queued[nxt]
            nxt += 1
            present[j] = None
            if mech is not None:
                mech.add_job(j)
        state.now, state.index = now, run.n_rounds
        if mech is not None:
            placed = [(k, mech.keys.members[k], r) for k, r in mech.schedule(now)]
        else:
            state.jobs = np.array(sorted(present, key=lambda j: gid[j]), dtype=np.int64)
            state.pairs = []
            placed = runner.gangs_of(policy(state), present)
        running = runner.start(placed, now, len(present), mech)
        if running:
            idle = 0
        run.n_rounds += 1
    else:
        raise HetoptError(f"arena: jobs left unfinished after {opt.max_rounds} rounds (policy {policy.name!r})")
    run.busy_gpu_seconds, run.compute_gpu_seconds = runner.busy, runner.compute
    run.isolated_time, run.restarts, run.rounds = np.array(runner.isolated), runner.restarts, runner.rounds
    run.n_resets = 0 if mech is None else mech.n_resets
    return run
