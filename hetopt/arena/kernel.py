"""The arena's event loop for its common case, lean: an allocation policy of single jobs, no servers needed.

:func:`run_allocation` is :func:`hetopt.arena.engine.execute`'s loop (Gavel's round mechanism,
behaviours (a)-(h) of :mod:`hetopt.gavel.rounds`) specialized to what most runs are: an allocation
policy without pairs, under options that need no servers (no restart delay, no contention, rounds not
recorded).  Every number is computed by the same floating-point operations in the same order as the
general loop (:class:`~hetopt.arena.engine._Mechanism` and :class:`~hetopt.arena.execution.RoundRunner`),
so the runs are identical (``tests/arena/test_kernel.py``); what changes is the bookkeeping:

* the keys present live in the first ``n`` columns of type-major arrays (``(R, J)``: time received,
  deficit, allocation), compacted when a job leaves, so every round reads views, never copies;
* what only a reset changes (the allocation, its masks, the negated deficits and allocations the queues
  sort by) is computed at the reset; a round computes the priorities (one division) and sorts every
  type's queue in one ``lexsort``;
* the policy's view of the run (``RoundState``) is updated before each call, by the same additions.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..errors import HetoptError, ScheduleViolation
from ..gavel.rounds import UNSERVED_PRIORITY
from .execution import FAST_GANGS, Run, queue_order
from .protocol import Options, Policy, RoundState
from .workload import Workload

__all__ = ["run_allocation", "applies"]


def applies(policy: Policy, options: Options, w: Workload) -> bool:
    """Whether :func:`run_allocation` runs ``policy``: allocation mode, no pairs, no copies, no servers needed."""
    return (getattr(policy, "mode", None) == "allocation" and getattr(policy, "pair_throughput", None) is None
            and not getattr(policy, "copies", False)
            and options.restart_delay == 0 and not (options.contention and w.contention)
            and not options.record_rounds)


class _Kernel:
    """Gavel's mechanism and the round's execution for one run (the module docstring)."""

    def __init__(self, w: Workload, policy: Policy, opt: Options, state: RoundState, gid: np.ndarray):
        self.w, self.policy, self.opt, self.state = w, policy, opt, state
        J, R = w.n_jobs, w.n_types
        self.R = R
        self.gid = gid.tolist()
        self.gid_arr = gid
        cap = w.capacity
        self.cap = cap.tolist()
        self.live_types = [r for r in range(R) if cap[r] > 0]
        self.types = [r for r in queue_order(w) if cap[r] > 0]
        self.half = opt.round_length / 2.0
        self.shuffle = bool(getattr(policy, "shuffle_types", False))
        self.skip_zero = bool(getattr(policy, "skip_zero_priority", False))
        self.shuffler = random.Random(state.seed + 5)
        # the keys present: columns 0..n-1, in Gavel's insertion order (= job id order)
        size = max(J, 1)
        self.n = 0
        self.slot_job: list[int] = []
        self.tsf = np.zeros((R, size))
        self.deficit = np.zeros((R, size))
        self.alloc = np.zeros((R, size))
        self.runs = np.zeros((R, size), dtype=bool)
        self.in_alloc = np.zeros(size, dtype=bool)
        self.neg_d = np.zeros((R, size))
        self.neg_a = np.zeros((R, size))
        self.unserved = np.zeros((R, size))  # X * 1e9 where a served priority applies, else 0
        self.served = np.zeros((R, size), dtype=bool)  # allocated, runnable, X != 0
        self.wt = np.zeros((R, 1))
        self.wt_zero = True
        self.last_reset = 0.0
        self.need_update = False
        self.n_resets = 0
        # the jobs
        T = w.throughput
        self.T = T.tolist()
        self.runnable = T > 0
        self.sf = w.scale_factor.tolist()
        self.sf_arr = w.scale_factor
        self.total = w.steps.astype(float).tolist()
        self.total_arr = w.steps.astype(float)
        self.done = [0.0] * J
        self.latest = [float("nan")] * J
        capf = cap.astype(float)
        self.tc_arr = T @ capf
        self.tc = self.tc_arr.tolist()
        self.C = float(capf.sum())
        self.iso = [0.0] * J
        self.busy = 0.0
        self.compute = 0.0
        # the policy's view, brought up to date before each call
        self.pending_jobs: list[Any] = []
        self.pending_occ: list[Any] = []
        self.last_jobs: Any = []
        self.last_types: Any = []

    # -- keys -----------------------------------------------------------------------------------
    def add_job(self, j: int) -> None:
        i = self.n
        self.n += 1
        self.slot_job.append(j)
        self.tsf[:, i] = self.half
        for a in (self.deficit, self.alloc, self.neg_d, self.neg_a, self.unserved):
            a[:, i] = 0.0
        self.served[:, i] = False
        self.runs[:, i] = self.runnable[j]
        self.in_alloc[i] = False
        self.need_update = True

    def remove_job(self, j: int) -> None:
        i = self.slot_job.index(j)
        n = self.n
        del self.slot_job[i]
        for a in (self.tsf, self.deficit, self.alloc, self.neg_d, self.neg_a, self.unserved, self.served, self.runs):
            a[:, i:n - 1] = a[:, i + 1:n]
        self.in_alloc[i:n - 1] = self.in_alloc[i + 1:n]
        self.n = n - 1
        self.need_update = True

    # -- the policy's view ------------------------------------------------------------------------
    def flush(self) -> None:
        """``attained``, ``previous`` and ``remaining`` as the general loop keeps them round by round."""
        st = self.state
        if self.pending_jobs:
            np.add.at(st.attained, np.concatenate(self.pending_jobs), np.concatenate(self.pending_occ))
            self.pending_jobs, self.pending_occ = [], []
        st.previous[:] = -1
        if len(self.last_jobs):
            st.previous[self.last_jobs] = self.last_types
        np.subtract(self.total_arr, np.array(self.done), out=st.remaining)

    # -- resets -----------------------------------------------------------------------------------
    def reset(self, now: float) -> None:
        """``_reset_time_run_so_far`` then the policy's allocation of the jobs present."""
        n = self.n
        elapsed = now - self.last_reset
        tsf, alloc = self.tsf[:, :n], self.alloc[:, :n]
        received = tsf - self.half
        should = np.where(self.in_alloc[None, :n], alloc * elapsed, 0.0)
        self.deficit[:, :n] = self.deficit[:, :n] + (should - received)
        tsf[:] = self.half
        total = float(np.cumsum(np.full(n, self.half))[-1]) if n else 0.0  # Gavel adds key by key
        for r in self.live_types:
            self.wt[r, 0] = total
        self.wt_zero = bool((self.wt == 0.0).any())
        self.last_reset = now
        self.in_alloc[:] = False
        self.alloc[:] = 0.0
        if n == 0:
            self._masks(0)
            return
        self.flush()
        st = self.state
        jobs = np.array(self.slot_job, dtype=np.int64)
        st.jobs, st.pairs, st.now = jobs, [], now
        X = np.asarray(self.policy(st), dtype=float)
        if X.shape != (n, self.R):
            raise ScheduleViolation(f"policy {self.policy.name!r} returned an allocation of shape {X.shape}; expected "
                                    f"({n}, {self.R}) (the jobs present, then the pairs)")
        alloc[:] = X.T
        self.in_alloc[:n] = True
        self.n_resets += 1
        self._masks(n)

    def _masks(self, n: int) -> None:
        """What the rounds until the next reset sort by and divide (columns 0..n-1; the others are 0)."""
        a = self.alloc[:, :n]
        served = (a != 0.0) & self.runs[:, :n] & self.in_alloc[None, :n]
        self.served[:, :n] = served
        self.unserved[:, :n] = np.where(served, a * UNSERVED_PRIORITY, 0.0)
        self.neg_a[:, :n] = -a
        self.neg_d[:, :n] = -self.deficit[:, :n]

    def maybe_reset(self, now: float) -> None:
        """(a): a reset when a job arrived or left and the interval has passed, or the last reset was at 0."""
        if self.need_update and (now - self.last_reset >= self.opt.recompute_interval or self.last_reset == 0):
            self.reset(now)
            self.need_update = False

    # -- a round ----------------------------------------------------------------------------------
    def schedule(self, now: float) -> list[tuple[int, int]]:
        """Priorities, the per-type queues and the greedy pass; keys outside the allocation dropped after it (d)."""
        self.maybe_reset(now)
        types = list(self.types)
        if self.shuffle:
            self.shuffler.shuffle(types)
        n = self.n
        if n == 0:
            return []
        if self.wt_zero:
            zero = self.wt[:, 0] == 0.0
            frac = self.tsf[:, :n] / np.where(self.wt == 0.0, 1.0, self.wt)
            frac[zero, :] = 0.0
        else:
            frac = self.tsf[:, :n] / self.wt
        prio = self.unserved[:, :n].copy()
        np.divide(self.alloc[:, :n], frac, out=prio, where=(frac > 0.0) & self.served[:, :n])
        order = np.lexsort((self.neg_a[:, :n], self.neg_d[:, :n], -prio)).tolist()
        ok = (self.runs[:, :n] & (prio > 0.0) if self.skip_zero else self.runs[:, :n]).tolist()
        sf, jobs, cap = self.sf, self.slot_job, self.cap
        placed = [False] * n
        chosen: list[tuple[int, int]] = []
        for r in types:
            left = cap[r]
            row = ok[r]
            for i in order[r]:
                if placed[i] or not row[i]:
                    continue
                need = sf[jobs[i]]
                if need > left:
                    continue
                left -= need
                placed[i] = True
                chosen.append((i, r))
                if left == 0:
                    break
        in_alloc = self.in_alloc
        return [(i, r) for i, r in chosen if in_alloc[i]]

    def start(self, chosen: list[tuple[int, int]], now: float, n_present: int) -> Any:
        """The round's gangs: whole steps, finish times, isolated time, busy GPU-seconds (c)."""
        if len(chosen) >= FAST_GANGS:
            return self._start_arrays(chosen, now, n_present)
        T, total, done, sf, tc, C, jobs_of = self.T, self.total, self.done, self.sf, self.tc, self.C, self.slot_job
        L, iso = self.opt.round_length, self.iso
        slots, jobs, types, steps, finish, occupied = [], [], [], [], [], []
        busy = 0.0
        for i, r in chosen:
            j = jobs_of[i]
            thr = T[j][r]
            nsteps: float = int(thr * L)
            left = total[j] - done[j]
            if left < nsteps:
                nsteps = left
            if nsteps <= 0:
                raise HetoptError(f"arena: job {j} runs int({thr:.6g} x {L:g}) = 0 steps per round on "
                                  f"{self.w.gpu_types[r]}; a round cannot advance it")
            end = now + nsteps / thr
            iso[j] += nsteps * max(C, n_present * sf[j]) / tc[j]
            o = sf[j] * (end - now)
            busy += o
            slots.append(i)
            jobs.append(j)
            types.append(r)
            steps.append(nsteps)
            finish.append(end)
            occupied.append(o)
        self.busy += busy
        self.compute += busy
        self.last_jobs, self.last_types = jobs, types
        if jobs:
            self.pending_jobs.append(jobs)
            self.pending_occ.append(occupied)
        return slots, jobs, types, steps, finish

    def _start_arrays(self, chosen: list[tuple[int, int]], now: float, n_present: int) -> Any:
        """``start`` with arrays, as ``RoundRunner._fast``."""
        sl = np.array([i for i, _ in chosen], dtype=np.int64)
        rs = np.array([r for _, r in chosen], dtype=np.int64)
        js = np.array(self.slot_job, dtype=np.int64)[sl]
        thr = self.w.throughput[js, rs]
        jl = js.tolist()
        total, done = self.total, self.done
        n = np.minimum(np.trunc(thr * self.opt.round_length), np.array([total[j] - done[j] for j in jl]))
        if np.any(n <= 0):
            i = int(np.argmax(n <= 0))
            raise HetoptError(f"arena: job {int(js[i])} runs int({thr[i]:.6g} x {self.opt.round_length:g}) = 0 steps "
                              f"per round on {self.w.gpu_types[int(rs[i])]}; a round cannot advance it")
        finish = now + n / thr
        sf = self.sf_arr[js]
        iso = self.iso
        for j, v in zip(jl, (n * np.maximum(self.C, n_present * sf) / self.tc_arr[js]).tolist(), strict=True):
            iso[j] += v
        occupied = sf * (finish - now)
        self.busy += float(occupied.sum())
        self.compute += float(occupied.sum())
        self.last_jobs, self.last_types = js, rs
        self.pending_jobs.append(js)
        self.pending_occ.append(occupied)
        return sl, js, rs, n, finish

    def complete(self, running: Any, round_start: float) -> list[int]:
        """Book the round in heap order (latest finish first, ties by job id); the jobs it completes, in that order."""
        slots, jobs, types, steps, finish = running
        if isinstance(jobs, np.ndarray):
            return self._complete_arrays(slots, jobs, types, steps, finish, round_start)
        gid, latest, total, done = self.gid, self.latest, self.total, self.done
        tsf, wt = self.tsf, self.wt
        out = []
        for q in sorted(range(len(jobs)), key=lambda q: (-finish[q], gid[jobs[q]])):
            j, f, r = jobs[q], finish[q], types[q]
            latest[j] = f
            done[j] += steps[q]
            if total[j] - done[j] <= 0:
                out.append(j)
            execution = f - round_start
            tsf[r, slots[q]] += execution
            wt[r, 0] += execution
        self.wt_zero = bool((wt == 0.0).any())
        return out

    def _complete_arrays(self, sl: np.ndarray, js: np.ndarray, rs: np.ndarray, n: np.ndarray, finish: np.ndarray,
                         round_start: float) -> list[int]:
        order = np.lexsort((self.gid_arr[js], -finish))
        sl, js, rs, n, finish = sl[order], js[order], rs[order], n[order], finish[order]
        latest, total, done = self.latest, self.total, self.done
        jl = js.tolist()
        out = []
        for j, f, nn in zip(jl, finish.tolist(), n.tolist(), strict=True):
            latest[j] = f
            done[j] += nn
            if total[j] - done[j] <= 0:
                out.append(j)
        execution = finish - round_start
        self.tsf[rs, sl] += execution
        wt = self.wt
        for r in np.unique(rs).tolist():  # Gavel adds micro-task by micro-task, in heap order
            wt[r, 0] = float(np.cumsum(np.concatenate(([wt[r, 0]], execution[rs == r])))[-1])
        self.wt_zero = bool((wt == 0.0).any())
        return out


def _max_finish(running: Any) -> float:
    finish = running[4]
    if isinstance(finish, np.ndarray):
        return float(finish.max()) if finish.size else 0.0
    return max(finish, default=0.0)


def run_allocation(w: Workload, policy: Policy, opt: Options, state: RoundState, order: list[int],
                   gid: np.ndarray) -> Run:
    """Gavel's ``simulate`` loop for a policy :func:`applies` takes; the :class:`~hetopt.arena.execution.Run`."""
    k = _Kernel(w, policy, opt, state, gid)
    run = Run(np.full(w.n_jobs, np.nan), isolated_time=np.zeros(w.n_jobs))
    arrival = w.arrival.tolist()
    queued = list(order)
    nxt = 0
    present: dict[int, None] = {}
    remaining_jobs = len(queued)
    running: Any = None
    round_start, round_end = 0.0, None
    now = float(arrival[queued[0]])
    idle = 0
    for _ in range(opt.max_rounds):
        if remaining_jobs == 0:
            break
        next_arrival = arrival[queued[nxt]] if nxt < len(queued) else None
        if next_arrival is None and running is None:
            k.last_reset = 0.0  # (b) force a reset
            idle += 1
            if idle > 2:
                raise HetoptError(f"arena: jobs {sorted(present)[:5]} can never run at {now:.1f} s under policy "
                                  f"{policy.name!r} (no gang placed with no arrival left)")
        max_ts = 0.0 if running is None else _max_finish(running)
        if max_ts > 0.0:
            if round_end is not None:
                round_start = round_end  # (g) stale after an idle gap
            round_end = max_ts
            now = max_ts
        elif next_arrival is not None:
            now = next_arrival
        if running is not None:
            for j in k.complete(running, round_start):
                del present[j]
                run.completion[j] = k.latest[j]
                remaining_jobs -= 1
                k.remove_job(j)
        while nxt < len(queued) and arrival[queued[nxt]] <= now:
            j = queued[nxt]
            nxt += 1
            present[j] = None
            k.add_job(j)
        state.now, state.index = now, run.n_rounds
        chosen = k.schedule(now)
        if chosen:
            running = k.start(chosen, now, len(present))
            idle = 0
        else:
            running = None
            k.last_jobs, k.last_types = [], []
        run.n_rounds += 1
    else:
        raise HetoptError(f"arena: jobs left unfinished after {opt.max_rounds} rounds (policy {policy.name!r})")
    k.flush()
    run.busy_gpu_seconds, run.compute_gpu_seconds = k.busy, k.compute
    run.isolated_time = np.array(k.iso)
    run.n_resets = k.n_resets
    return run
