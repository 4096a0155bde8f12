"""One round's execution: gangs on servers, whole steps, restart delays, contention, completions.

:class:`RoundRunner` starts the round's gangs (``start``) and, at the next round, books what they
did (``complete``), in the order Gavel's heap pops its micro-tasks (latest finish first, ties by
job id).  A gang runs ``min(int(T x budget), remaining)`` whole steps, ``T`` its throughput on the
type it uses (the slowest type of a mixed gang under the ``"bottleneck"`` rule) slowed by the
contention penalty, ``budget`` the round length less the restart delay when its GPUs changed.
Servers are assigned only when an option needs them (a restart delay, contention, recorded
rounds): a gang keeps last round's servers when they are free, else takes the fullest server
that holds it, else the servers with the most free GPUs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import HetoptError, ScheduleViolation
from .protocol import Copies, Options, RoundState
from .workload import Workload

if TYPE_CHECKING:
    from .engine import _Mechanism

__all__ = ["Gang", "Round", "FastRound", "RoundRunner", "Run", "queue_order", "ETA_OVER_B", "FAST_GANGS"]

#: From this many gangs in a round on, the round is started and booked as arrays (:class:`FastRound`); below
#: it, element by element (numpy's per-call cost exceeds the loop's).
FAST_GANGS = 16

#: The contention penalty per MB over the transfer time per MB: eta / beta of Wang et al.'s simulator
#: (0.235 / 0.856 ms/MB on 10 GbE, ``hetopt.contention.comm``).
ETA_OVER_B = 0.235 / 0.856


@dataclass(slots=True)
class Gang:
    """A gang started in a round: its key (mechanism row, -1 for a placement policy), jobs, type, steps."""

    finish: float
    key: int
    members: tuple[int, ...]
    type: int
    steps: list[float]
    order: tuple[float, ...]


@dataclass
class Round:
    """A recorded round: start, end, and its gangs.

    Each gang is a dict: ``jobs`` (one job, two when packed), ``type`` (-1: mixed types),
    ``servers`` ([server, GPUs] pairs), ``steps`` (per job), ``finish`` (s) and ``delay`` (s of restart).
    """

    start: float
    end: float
    gangs: list[dict[str, Any]]


@dataclass
class FastRound:
    """A round of single-job gangs on whole types, as arrays (the common case, started and booked at once)."""

    keys: np.ndarray
    jobs: np.ndarray
    types: np.ndarray
    steps: np.ndarray
    finish: np.ndarray

    def __len__(self) -> int:
        return int(self.jobs.size)


@dataclass
class Run:
    """What one run records.

    Attributes
    ----------
    completion : numpy.ndarray, shape (J,)
        Completion time of every job (s).
    busy_gpu_seconds : float
        GPU-seconds occupied by the gangs (restart delays included).
    compute_gpu_seconds : float
        GPU-seconds of computation (restart delays excluded).
    isolated_time : numpy.ndarray, shape (J,)
        Seconds each job would have taken on its isolated share with the number of jobs present
        when it ran (Gavel's finish-time-fairness denominator, accumulated round by round).
    n_rounds, n_resets : int
    restarts : int
        Gangs that paid the restart delay.
    rounds : list of Round
        When ``record_rounds``.
    """

    completion: np.ndarray
    busy_gpu_seconds: float = 0.0
    compute_gpu_seconds: float = 0.0
    isolated_time: np.ndarray = field(default_factory=lambda: np.zeros(0))
    n_rounds: int = 0
    n_resets: int = 0
    restarts: int = 0
    rounds: list[Round] = field(default_factory=list)


def queue_order(w: Workload) -> list[int]:
    """The order of the per-type queues: Gavel's ``v100, p100, k80`` for its types, then the others fastest first."""
    from ..gavel.mechanism import fastest_first
    from .sources import GAVEL_ORDER

    known = [w.gpu_types.index(g) for g in GAVEL_ORDER if g in w.gpu_types]
    return known + [r for r in fastest_first(w.throughput) if r not in known]


class RoundRunner:
    """Starts and books the gangs of every round of one run (the module docstring)."""

    def __init__(self, w: Workload, opt: Options, state: RoundState, gid: np.ndarray):
        self.w, self.opt, self.state = w, opt, state
        self.gid = gid.tolist()
        J = w.n_jobs
        self.latest: list[float] = [float("nan")] * J
        self.remaining = state.remaining
        self.total: list[float] = w.steps.astype(float).tolist()
        self.run_steps: list[float] = [0.0] * J
        self.busy = 0.0
        self.compute = 0.0
        self.restarts = 0
        #: Gavel's isolated time: each run of n steps counts n / (T_j . c / max(C, m s_j)) seconds, the job's
        #: throughput on its isolated share (``c_r / (m s_j)`` of each type, scaled to a total <= 1) among the
        #: ``m`` jobs present (``IsolatedPolicy``)
        self.isolated: list[float] = [0.0] * J
        self.rounds: list[Round] = []
        self.servers = opt.restart_delay > 0 or (opt.contention and w.contention) or opt.record_rounds
        self.prev: dict[int, tuple[tuple[int, int], ...]] = {}
        self.cap = w.capacity.astype(float)
        self.b = 0.008 / w.link_bandwidth  # s per MB (inf bandwidth: 0)
        self.tc_arr = w.throughput @ self.cap
        self.tc = self.tc_arr.tolist()
        self.C = float(self.cap.sum())
        self.sf = w.scale_factor.tolist()
        self.T = w.throughput.tolist()
        self.gid_arr = gid
        #: A placement policy may run a job as several gangs in a round (``copies``: HadarE's forked copies);
        #: the engine sets both from the policy's ``copies`` attribute (``start_copies``:
        #: :func:`hetopt.arena.copies.start_copies`, given by the engine so that this module does not import it)
        self.allow_copies = False
        self.start_copies: Any = None
        self.copies_now = False
        self.copy_prev: dict[int, frozenset[tuple[tuple[int, int], ...]]] = {}
        self.copy_prev_at = -2

    # -- placement policies ----------------------------------------------------------------------
    def gangs_of(self, decision: Any, present: dict[int, None]) -> list[tuple[int, tuple[int, ...], Any]]:
        """A placement policy's gangs, checked: present jobs, whole gangs, runnable types, capacity."""
        if not isinstance(decision, dict):
            raise ScheduleViolation(f"a placement policy returns a dict job -> type or job -> GPUs per server; got "
                                    f"{type(decision).__name__}")
        w = self.w
        out: list[tuple[int, tuple[int, ...], Any]] = []
        used = np.zeros(w.n_types)
        self.copies_now = False
        for j, where in self._entries(decision):
            if j not in present:
                raise ScheduleViolation(f"the policy placed job {j}, which is not present at {self.state.now:.1f} s")
            s = int(w.scale_factor[j])
            if isinstance(where, (int, np.integer)):
                r = int(where)
                if not 0 <= r < w.n_types or w.throughput[j, r] <= 0:
                    raise ScheduleViolation(f"the policy placed job {j} on type {where!r}, where it cannot run")
                used[r] += s
                out.append((-1, (j,), r))
                continue
            counts = np.asarray(where)
            if counts.shape != (w.n_servers,) or np.any(counts < 0) or int(counts.sum()) != s:
                raise ScheduleViolation(f"job {j}: GPUs per server {where!r} do not form a gang of {s} GPUs on "
                                        f"{w.n_servers} servers")
            types = set(w.server_type[counts > 0].tolist())
            if len(types) > 1 and self.opt.gang_rule == "single":
                raise ScheduleViolation(f"job {j}'s gang spans GPU types {sorted(types)}; the gang rule 'single' "
                                        "runs a gang on one type (gang_rule='bottleneck' allows more)")
            if any(w.throughput[j, r] <= 0 for r in types):
                raise ScheduleViolation(f"job {j}'s gang uses a GPU type where it cannot run")
            np.add.at(used, w.server_type, counts)
            out.append((-1, (j,), counts.astype(np.int64)))
        if np.any(used > self.cap):
            r = int(np.argmax(used > self.cap))
            raise ScheduleViolation(f"the policy placed {int(used[r])} GPUs of type {w.gpu_types[r]}; it has "
                                    f"{int(self.cap[r])}")
        return out

    def _entries(self, decision: dict[Any, Any]) -> list[tuple[int, Any]]:
        """(job, type or GPUs per server) of every gang; a :class:`Copies` of them for a job is its copies."""
        out: list[tuple[int, Any]] = []
        for j, where in decision.items():
            if not isinstance(where, Copies):
                out.append((int(j), where))
                continue
            if not self.allow_copies:
                raise ScheduleViolation(f"the policy gave job {int(j)} several gangs (Copies); only a policy with "
                                        "copies = True runs a job as several gangs in a round")
            self.copies_now = self.copies_now or len(where) > 1
            out += [(int(j), g) for g in where]
        return out

    # -- servers -------------------------------------------------------------------------------
    def _servers(self, placed: list[tuple[int, tuple[int, ...], Any]]) -> list[dict[int, int]]:
        free, out = self.given_servers(placed)
        for i, (_, mem, where) in enumerate(placed):  # gangs given by type: keep last round's servers if free
            if out[i] is None:
                out[i] = self._place(mem, int(where), free)
        return [o for o in out if o is not None]

    def given_servers(self, placed: list[tuple[int, tuple[int, ...], Any]]
                      ) -> tuple[np.ndarray, list[dict[int, int] | None]]:
        """The GPUs left free per server and the servers of the gangs given as counts (None: given by type)."""
        free = self.w.server_gpus.astype(np.int64).copy()
        out: list[dict[int, int] | None] = [None] * len(placed)
        for i, (_, mem, where) in enumerate(placed):
            if not isinstance(where, (int, np.integer)):
                counts = np.asarray(where)
                if np.any(counts > free):
                    raise ScheduleViolation(f"job {mem[0]}: more GPUs on a server than it has free")
                free -= counts
                out[i] = {int(s): int(counts[s]) for s in np.flatnonzero(counts)}
        return free, out

    def _place(self, mem: tuple[int, ...], r: int, free: np.ndarray) -> dict[int, int]:
        w = self.w
        n = int(w.scale_factor[mem[0]])
        prev = self.prev.get(mem[0])
        if prev and all(w.server_type[s] == r and free[s] >= c for s, c in prev) and sum(c for _, c in prev) == n:
            for s, c in prev:
                free[s] -= c
            return dict(prev)
        cand = np.flatnonzero((w.server_type == r) & (free > 0))
        fits = cand[free[cand] >= n]
        if fits.size:
            s = int(fits[np.argmin(free[fits])])
            free[s] -= n
            return {s: n}
        got: dict[int, int] = {}
        for s in cand[np.argsort(-free[cand], kind="stable")].tolist():
            take = min(n, int(free[s]))
            got[s] = take
            free[s] -= take
            n -= take
            if n == 0:
                return got
        raise ScheduleViolation(f"job {mem[0]}: not enough free GPUs of type {w.gpu_types[r]} on the servers")

    def _penalty(self, gangs: list[dict[int, int]], mem: list[tuple[int, ...]]) -> np.ndarray:
        """Seconds per iteration each gang loses to contention on shared links (eq. (5))."""
        w = self.w
        out = np.zeros(len(gangs))
        spread = [i for i, g in enumerate(gangs) if len(g) > 1 and w.model_size[mem[i][0]] > 0]
        if not spread:
            return out
        users = np.zeros(w.n_servers)
        for i in spread:
            users[list(gangs[i])] += 1
        for i in spread:
            k = users[list(gangs[i])]
            b = self.b[list(gangs[i])]
            out[i] = float(np.max((k - 1) * b * (1 + ETA_OVER_B))) * float(w.model_size[mem[i][0]])
        return out

    # -- a round -------------------------------------------------------------------------------
    def max_finish(self, running: list[Gang] | FastRound) -> float:
        """The end of the round that ran (0 when nothing ran)."""
        if isinstance(running, FastRound):
            return float(running.finish.max()) if len(running) else 0.0
        return max((g.finish for g in running), default=0.0)

    def _fast(self, placed: list[tuple[int, tuple[int, ...], Any]], now: float, n_present: int) -> FastRound:
        """``start`` for single-job gangs on whole types without servers: the same arithmetic, element by element."""
        ks = np.fromiter((p[0] for p in placed), dtype=np.int64, count=len(placed))
        js = np.fromiter((p[1][0] for p in placed), dtype=np.int64, count=len(placed))
        rs = np.fromiter((p[2] for p in placed), dtype=np.int64, count=len(placed))
        thr = self.w.throughput[js, rs]
        jl = js.tolist()
        total, done = self.total, self.run_steps
        n = np.minimum(np.trunc(thr * self.opt.round_length), np.array([total[j] - done[j] for j in jl]))
        if np.any(n <= 0):
            i = int(np.argmax(n <= 0))
            raise HetoptError(f"arena: job {int(js[i])} runs int({thr[i]:.6g} x {self.opt.round_length:g}) = 0 steps "
                              f"per round on {self.w.gpu_types[int(rs[i])]}; a round cannot advance it")
        finish = now + n / thr
        sf = self.w.scale_factor[js]
        iso = self.isolated
        for j, v in zip(jl, (n * np.maximum(self.C, n_present * sf) / self.tc_arr[js]).tolist(), strict=True):
            iso[j] += v
        occupied = sf * (finish - now)
        self.busy += float(occupied.sum())
        self.compute += float(occupied.sum())
        np.add.at(self.state.attained, js, occupied)
        prev = self.state.previous
        prev[:] = -1
        prev[js] = rs
        return FastRound(ks, js, rs, n, finish)

    def _singles(self, placed: list[tuple[int, tuple[int, ...], Any]], now: float, n_present: int) -> list[Gang]:
        """``start`` for a few single-job gangs on whole types without servers (no restart delay)."""
        T, total, done, sf, tc, C, gid = self.T, self.total, self.run_steps, self.sf, self.tc, self.C, self.gid
        L, iso = self.opt.round_length, self.isolated
        gangs: list[Gang] = []
        jobs, types, occupied = [], [], []
        busy = 0.0
        for k, mem, r in placed:
            j = mem[0]
            thr = T[j][r]
            n: float = int(thr * L)
            left = total[j] - done[j]
            if left < n:
                n = left
            if n <= 0:
                raise HetoptError(f"arena: job {j} runs int({thr:.6g} x {L:g}) = 0 steps per round on "
                                  f"{self.w.gpu_types[r]}; a round cannot advance it")
            end = now + n / thr
            iso[j] += n * max(C, n_present * sf[j]) / tc[j]
            o = sf[j] * (end - now)
            busy += o
            jobs.append(j)
            types.append(r)
            occupied.append(o)
            gangs.append(Gang(end, k, mem, r, [n], (-end, 0, gid[j])))
        self.busy += busy
        self.compute += busy
        prev = self.state.previous
        prev[:] = -1
        if jobs:
            prev[jobs] = types
            np.add.at(self.state.attained, jobs, occupied)
        return gangs

    def start(self, placed: list[tuple[int, tuple[int, ...], Any]], now: float, n_present: int,
              mech: _Mechanism | None) -> list[Gang] | FastRound:
        """Start the round's gangs; ``placed`` holds (mechanism key or -1, jobs, type or GPUs per server)."""
        w, opt = self.w, self.opt
        if self.copies_now:
            return self.start_copies(self, placed, now, n_present)
        if not self.servers and all(len(p[1]) == 1 and type(p[2]) is int for p in placed):
            if len(placed) >= FAST_GANGS:
                return self._fast(placed, now, n_present)
            return self._singles(placed, now, n_present)
        servers = self._servers(placed) if self.servers else None
        penalty = self._penalty(servers, [p[1] for p in placed]) if servers is not None and opt.contention else None
        gangs: list[Gang] = []
        record = []
        new_prev: dict[int, tuple[tuple[int, int], ...]] = {}
        ran_jobs, ran_types, occupied = [], [], []
        T, total, run_steps, sf, tc, C = self.T, self.total, self.run_steps, self.sf, self.tc, self.C
        round_length, iso = opt.round_length, self.isolated
        for i, (k, mem, where) in enumerate(placed):
            if type(where) is int:
                r = where
                types = None
            else:
                types = sorted(set(w.server_type[np.asarray(where) > 0].tolist()))
                r = types[0] if len(types) == 1 else -1
            delay = 0.0
            if servers is not None:
                mine = tuple(sorted(servers[i].items()))
                if opt.restart_delay > 0 and any(self.prev.get(j) != mine for j in mem):
                    delay = opt.restart_delay
                    self.restarts += 1
                for j in mem:
                    new_prev[j] = mine
            finish = now
            steps = []
            budget = round_length - delay
            for idx, j in enumerate(mem):
                if len(mem) == 2 and mech is not None:
                    thr = float(mech.keys.thr[k][r][idx])
                elif types is None:
                    thr = T[j][r]
                else:
                    thr = min(T[j][q] for q in types)
                if penalty is not None and penalty[i] > 0:
                    thr = 1.0 / (1.0 / thr + penalty[i])
                n = min(int(thr * budget), total[j] - run_steps[j])
                if n <= 0:
                    raise HetoptError(f"arena: job {j} runs int({thr:.6g} x {budget:g}) = 0 steps per round on "
                                      f"{'mixed types' if r < 0 else w.gpu_types[r]}; a round cannot advance it")
                steps.append(n)
                end = now + delay + n / thr
                if end > finish:
                    finish = end
                iso[j] += n * max(C, n_present * sf[j]) / tc[j]
                ran_jobs.append(j)
                ran_types.append(r if r >= 0 else types[0])  # type: ignore[index]
            gpus = sf[mem[0]]
            self.busy += gpus * (finish - now)
            self.compute += gpus * (finish - now - delay)
            occupied += [gpus * (finish - now)] * len(mem)
            order = (-finish, 0, self.gid[mem[0]]) if len(mem) == 1 else \
                (-finish, 1, self.gid[mem[0]], self.gid[mem[1]])
            gangs.append(Gang(finish, k, mem, r, steps, order))
            if opt.record_rounds and servers is not None:
                record.append({"jobs": list(mem), "type": r, "servers": sorted([s_, c] for s_, c in servers[i].items()),
                               "steps": [float(n) for n in steps], "finish": finish, "delay": delay})
        prev_type = self.state.previous
        prev_type[:] = -1
        if ran_jobs:
            prev_type[ran_jobs] = ran_types
            np.add.at(self.state.attained, ran_jobs, occupied)
        if servers is not None:
            self.prev = new_prev
        if opt.record_rounds:
            self.rounds.append(Round(now, max((g.finish for g in gangs), default=now), record))
        return gangs

    def _complete_fast(self, run: FastRound, round_start: float, mech: _Mechanism | None) -> list[int]:
        """``complete`` of a :class:`FastRound`: every job is present and its key alive, so only sums need order."""
        order = np.lexsort((self.gid_arr[run.jobs], -run.finish))
        js, ks, rs, n, finish = run.jobs[order], run.keys[order], run.types[order], run.steps[order], run.finish[order]
        latest, total, done = self.latest, self.total, self.run_steps
        jl = js.tolist()
        lefts = []
        for j, f, nn in zip(jl, finish.tolist(), n.tolist(), strict=True):
            latest[j] = f
            done[j] += nn
            lefts.append(total[j] - done[j])
        self.remaining[js] = lefts
        if mech is not None and ks.size and ks[0] >= 0:
            execution = finish - round_start
            mech.keys.tsf[ks, rs] += execution
            wt = mech.worker_time
            for r in np.unique(rs).tolist():  # Gavel adds micro-task by micro-task, in heap order
                wt[r] = float(np.cumsum(np.concatenate(([wt[r]], execution[rs == r])))[-1])
        return [j for j, left in zip(jl, lefts, strict=True) if left <= 0]

    def complete(self, running: list[Gang] | FastRound, round_start: float, mech: _Mechanism | None,
                 present: dict[int, None]):
        """Book the finished round in heap order; yields each job as it completes (Gavel removes it at once)."""
        if isinstance(running, FastRound):
            yield from self._complete_fast(running, round_start, mech)
            return
        done: list[int] = []
        total, run_steps, latest, remaining = self.total, self.run_steps, self.latest, self.remaining
        for g in sorted(running, key=lambda g: g.order):
            execution = g.finish - round_start
            for j, n in zip(g.members, g.steps, strict=True):
                latest[j] = g.finish
                if j in present:
                    run_steps[j] += n
                    left = total[j] - run_steps[j]
                    remaining[j] = left
                    if left <= 0:
                        done.append(j)
            if mech is not None and g.key >= 0 and g.type >= 0:
                mech.credit(g.key, g.type, execution)
            yield from list(done)
