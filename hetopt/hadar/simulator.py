"""The round-based trace simulator of Section IV, apart from the policies it calls.

Time advances in rounds of ``round_length`` seconds.  At the start of every round the
policy returns a list of *gangs* ``(job, w)`` with ``w`` an H x R matrix of GPUs; a job has
one gang, except under HadarE, where each forked copy is a gang of its own.  A gang runs at
``sum(w) * min{X^r_j : type r used}`` iterations per second (the bottleneck of (1b)) after a
checkpoint-restart delay (10 s by default) when the job's GPUs on those machines differ from
the previous round's.  A job with several gangs divides its remaining iterations among
them in proportion to their rates (HadarE's Job Tracker); their completed iterations are
summed (aggregation).  A job completes when its iterations reach ``E_j N_j``, at the instant
its last gang finishes its share.

References
----------
A. Sultana et al., Hadar/HadarE, Sections IV and V-A.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..certify import Status
from ..errors import ArgumentError, ScheduleViolation, SizeLimitError
from ..inputs import check_choice, check_flag, check_positive, check_size, takes_instance
from ._args import real_array
from .bounds import capacity_lower_bound
from .instance import HadarInstance
from .policies import POLICIES, make_policy
from .protocol import Gangs, Policy, RoundState
from .result import HadarSimulation

__all__ = ["simulate", "total_utility", "RESTART_DELAY", "DONE_RTOL", "MAX_RECORD_BYTES", "STALL_ROUNDS"]

log = logging.getLogger(__name__)

#: Seconds lost by a job that receives a new allocation (checkpoint-restart), Section IV.
RESTART_DELAY = 10.0
#: A job is complete when its remaining iterations fall below this fraction of E_j N_j.
DONE_RTOL = 1e-9


@takes_instance(HadarInstance)
def total_utility(inst: HadarInstance, jct: Any) -> float:
    """``sum_j U_j(jct_j)`` for completion times in seconds: P1's objective for any policy.

    Raises
    ------
    ArgumentError
        ``jct`` is not ``J`` finite numbers > 0.
    """
    d = real_array("jct", jct, (inst.n_jobs,))
    if np.any(d <= 0):
        raise ArgumentError(f"jct is {d.tolist()}; completion times must be > 0 seconds")
    return float(np.sum(inst.utility_of(d)))


class _Round:
    """A round's gangs as arrays, each derived once.

    Their jobs ``js``, GPU matrices ``G`` (n, H, R) and (J, H, R) sum ``alloc``; per gang its GPUs
    ``n_gpus``, the types ``types`` (n, R) and the machines ``machines`` (n, H) it uses.
    """

    __slots__ = ("js", "G", "alloc", "n_gpus", "types", "machines")

    def __init__(self, js: np.ndarray, G: np.ndarray, alloc: np.ndarray) -> None:
        self.js, self.G, self.alloc = js, G, alloc
        self.n_gpus = G.sum(axis=(1, 2))
        self.types = G.sum(axis=1) > 0
        self.machines = G.sum(axis=2) > 0


def _check_gangs(inst: HadarInstance, gangs: Gangs, state: RoundState) -> _Round:
    """The round's gangs and (J, H, R) allocation; :class:`ScheduleViolation` when a gang breaks (1b), (1d) or (1e).

    The first gang that breaks a rule is named, with the first rule it breaks (activity, (1e), (1b)).
    """
    alloc = np.zeros((inst.n_jobs, inst.n_machines, inst.n_types), dtype=np.int64)
    if not gangs:
        return _Round(np.zeros(0, np.int64), alloc[:0], alloc)
    rnd = _Round(np.array([j for j, _ in gangs], dtype=np.int64), np.stack([w for _, w in gangs]), alloc)
    js, n = rnd.js, rnd.n_gpus
    idle = ~state.active[js]
    size = n != inst.gpus[js]
    typ = (rnd.types & (inst.throughput[js] <= 0)).any(axis=1)
    bad = np.flatnonzero(idle | size | typ)
    if bad.size:
        g = int(bad[0])
        j = int(js[g])
        if idle[g]:
            raise ScheduleViolation(f"policy allocated GPUs to job {j}, which is not active in round {state.index}")
        if size[g]:
            raise ScheduleViolation(f"(1e) policy gave job {j} a gang of {int(n[g])} GPUs; it needs {inst.gpus[j]}")
        raise ScheduleViolation(f"(1b) policy placed job {j} on a type where its throughput is 0")
    np.add.at(alloc, js, rnd.G)
    if np.any(alloc.sum(axis=0) > inst.capacity):
        raise ScheduleViolation(f"(1d) policy exceeded a machine's capacity in round {state.index}")
    return rnd


#: ``simulate`` refuses to record more than this many bytes of per-round allocations.
MAX_RECORD_BYTES = 2_000_000_000


def _check_size(inst: HadarInstance, RL: float, max_rounds: int, record_rounds: bool) -> None:
    """Refuse, before running, a simulation too long or too large to record.

    Too long: more than ``max_rounds`` rounds (from a makespan lower bound); too large: recorded
    rounds that would not fit in memory.
    """
    need = capacity_lower_bound(inst, one_gang=False) / RL  # valid for HadarE's copies too
    if need > max_rounds:
        raise SizeLimitError(f"simulate: the jobs need at least {need:.3g} rounds of {RL:g} s (a makespan lower "
                             f"bound), above max_rounds = {max_rounds}; shorten the jobs or lengthen the rounds")
    per_round = inst.n_jobs * inst.n_machines * inst.n_types
    if record_rounds and need * per_round > MAX_RECORD_BYTES:
        raise SizeLimitError(f"simulate: recording at least {need:.3g} rounds of {per_round} allocation entries "
                             f"exceeds {MAX_RECORD_BYTES:.0e} bytes; pass record_rounds=False")


def _kept(rnd: _Round, previous: np.ndarray) -> np.ndarray:
    """Per gang: True when it keeps exactly its job's ``previous`` GPUs on the machines it uses."""
    same = ((rnd.G == previous) | ~rnd.machines[:, :, None]).all(axis=(1, 2))
    return previous.any(axis=(1, 2)) & same


#: Consecutive rounds with GPUs allocated and no job advanced after which :func:`simulate` stops
#: (a policy that moves every job every round when the restart delay exceeds the round never ends).
STALL_ROUNDS = 1000


def _make(policy: Any, options: Mapping[str, Any] | None) -> Policy:
    """The policy object: a name of :data:`POLICIES` built with ``options``, or a :class:`Policy` as is."""
    if options is not None and not isinstance(options, Mapping):
        raise ArgumentError(f"options is {options!r}; expected a mapping of option names to values")
    if isinstance(policy, str):
        return make_policy(check_choice(policy, "policy", tuple(POLICIES)), **(options or {}))
    if not (callable(getattr(policy, "reset", None)) and callable(getattr(policy, "allocate", None))):
        raise ArgumentError(f"policy is {policy!r}; expected one of {', '.join(POLICIES)} or an object with "
                            "reset(inst) and allocate(state) (the Policy protocol)")
    if options:
        raise ArgumentError(f"options {sorted(options)} can only be given with a policy name (a policy "
                            "object carries its own options)")
    return policy


class _Trace:
    """The simulator's bookkeeping: remaining work, completions and the busy time the metrics need."""

    def __init__(self, inst: HadarInstance, state: RoundState, record_rounds: bool) -> None:
        J, H = inst.n_jobs, inst.n_machines
        self.inst, self.state, self.record_rounds = inst, state, record_rounds
        self.total = inst.total_iterations.astype(float)
        self.completion = np.full(J, np.nan)
        self.rounds: list[dict[str, Any]] = []
        self.busy_gpu = 0.0
        self.busy_machine = np.zeros(H)
        self.job_busy = np.zeros(J)             # seconds in which at least one gang of the job computes
        self.first_start = np.full(J, np.nan)   # start of the first round the job holds GPUs
        self.small = np.int8 if inst.capacity.max() <= 127 else np.int32

    def run_round(self, rnd: _Round) -> bool:
        """Advance every job by one round of gangs; True when some job advanced.

        A job's only gang is advanced with the others at once, a job's several gangs (HadarE) in a loop;
        every value is the same double as a job-by-job loop's (the same operations in the same order).
        """
        inst, state, js, n_gpus = self.inst, self.state, rnd.js, rnd.n_gpus
        done_iter = np.zeros(inst.n_jobs)
        rates = n_gpus * np.where(rnd.types, inst.throughput[js], np.inf).min(axis=1)  # (1b)
        delays = np.where(_kept(rnd, state.previous[js]), 0.0, state.restart_delay)
        compute = np.zeros(js.size)
        one = np.bincount(js, minlength=inst.n_jobs)[js] == 1
        if one.any():
            compute[one] = self._advance_alone(js[one], n_gpus[one], rates[one], delays[one], done_iter)
        order = np.arange(js.size)
        if not one.all():
            first: dict[int, int] = {}
            for k, j in enumerate(js.tolist()):
                first.setdefault(j, k)
            for j, k in first.items():
                if not one[k]:
                    mine = js == j
                    compute[mine] = self._advance_copies(j, n_gpus[mine], rates[mine], delays[mine], done_iter)
            order = np.argsort([first[j] for j in js.tolist()], kind="stable")  # job by job, as they first appear
        for v in (n_gpus * compute)[order].tolist():  # GPU-seconds: a sequential float sum, gang by gang
            self.busy_gpu += v
        if js.size:
            self.busy_machine += np.where(rnd.machines, compute[:, None], 0.0).max(axis=0)
            jobs = np.unique(js)
            state.rounds_received[jobs] += rnd.alloc[jobs].sum(axis=1) > 0
        if self.record_rounds:
            self.rounds.append({"start": state.now, "allocation": rnd.alloc.astype(self.small), "iterations": done_iter})
        return bool(done_iter.any())

    def _advance_alone(self, j: np.ndarray, n: np.ndarray, rate: np.ndarray, delay: np.ndarray,
                       done_iter: np.ndarray) -> np.ndarray:
        """Jobs ``j`` (distinct) with one gang each, of ``n`` GPUs: advance them; each gang's compute seconds."""
        state, now = self.state, self.state.now
        rem = state.remaining[j]
        it = np.minimum(rem * rate / rate, rate * np.maximum(state.round_length - delay, 0.0))
        compute = it / rate
        got = it.copy()
        done = rem - got <= DONE_RTOL * self.total[j]
        self.completion[j[done]] = now + np.where(it > 0, delay + compute, 0.0)[done]
        got[done] = rem[done]
        state.remaining[j] = rem - got
        done_iter[j] = got
        state.attained[j] += n * compute
        self.job_busy[j] += compute
        self.first_start[j] = np.where(np.isnan(self.first_start[j]), now, self.first_start[j])
        return compute

    def _advance_copies(self, j: int, n: np.ndarray, rates: np.ndarray, delays: np.ndarray,
                        done_iter: np.ndarray) -> np.ndarray:
        """Job ``j``'s several gangs, of ``n`` GPUs each: their shares of its remaining iterations; their compute seconds."""
        state, now = self.state, self.state.now
        remaining = state.remaining
        share = remaining[j] * rates / rates.sum()
        it = np.minimum(share, rates * np.maximum(state.round_length - delays, 0.0))
        compute = it / rates
        got = float(it.sum())
        if remaining[j] - got <= DONE_RTOL * self.total[j]:
            self.completion[j] = now + float(np.max(np.where(it > 0, delays + compute, 0.0)))
            got = remaining[j]
        remaining[j] -= got
        done_iter[j] = got
        state.attained[j] += float(sum(k * c for k, c in zip(n, compute, strict=True)))
        self.job_busy[j] += float(np.max(compute))
        if np.isnan(self.first_start[j]):
            self.first_start[j] = now
        return compute

    def result(self, name: str, wall_time: float) -> HadarSimulation:
        """The :class:`HadarSimulation` with the paper's metrics."""
        inst, RL = self.inst, self.state.round_length
        ttd = float(np.max(self.completion))
        jct = self.completion - inst.arrival * inst.slot_length
        gpus = float(inst.capacity.sum())
        util = total_utility(inst, jct)
        H = inst.n_machines
        return HadarSimulation(status=Status.FEASIBLE, objective=util, wall_time=wall_time, solver=name, policy=name,
                               round_length=RL, jct=jct, completion=self.completion, average_jct=float(np.mean(jct)),
                               makespan=ttd, total_duration=ttd,
                               utilization=self.busy_gpu / (gpus * ttd) if ttd > 0 else 0.0,
                               cluster_utilization=float(self.busy_machine.sum() / (H * ttd)) if ttd > 0 else 0.0,
                               rounds=self.rounds, total_utility=util, job_busy=self.job_busy,
                               first_start=self.first_start)


@takes_instance(HadarInstance)
def simulate(inst: HadarInstance, policy: str | Policy, *, options: Mapping[str, Any] | None = None,
             round_length: float | None = None, restart_delay: float = RESTART_DELAY, max_rounds: int = 1_000_000,
             record_rounds: bool = True) -> HadarSimulation:
    """Run a policy round by round until every job completes.

    Parameters
    ----------
    inst : HadarInstance
    policy : str or Policy
        ``"hadar"``, ``"hadare"``, ``"gavel"``, ``"tiresias"``, ``"yarn_cs"`` (see
        :data:`hetopt.hadar.policies.POLICIES`) or an object of the :class:`Policy` protocol
        (``name``, ``reset``, ``allocate``).
    options : mapping, optional
        Keyword arguments of the policy's constructor when ``policy`` is a name, e.g.
        ``{"queue_order": "longest_first"}`` for :class:`~hetopt.hadar.policies.HadarPolicy`
        (a policy object carries its own options).
    round_length : float, optional
        Seconds per round (default: the instance's slot length; the paper uses 360 s).
    restart_delay : float
        Checkpoint-restart delay of a job that receives a new allocation (Section IV: 10 s).
    max_rounds : int
        Stop with an error after this many rounds (a policy that starves a job forever).
    record_rounds : bool
        Keep every round's allocation and iterations in ``rounds``.

    Returns
    -------
    HadarSimulation
        A :class:`~hetopt.result.SimulationResult`: per-job ``jct``, ``total_duration`` (TTD, also
        ``makespan``), ``utilization`` (GRU, cluster-wide),
        ``job_utilization`` (GRU, per job),
        ``cluster_utilization`` (CRU), ``rounds``, ``total_utility``.

    Raises
    ------
    ArgumentError
        An unknown policy name or option, a policy object without ``reset`` / ``allocate``, or
        a bad ``round_length``, ``restart_delay``, ``max_rounds`` or ``record_rounds``.
    SizeLimitError
        Before running, when a makespan lower bound needs more than ``max_rounds`` rounds, or
        the recorded rounds would exceed ``MAX_RECORD_BYTES``.
    ScheduleViolation
        When the policy gives a job that is not active GPUs, a gang of the wrong size, a type it
        cannot run on or more GPUs than a machine has; when jobs are unfinished after
        ``max_rounds`` rounds; or after ``STALL_ROUNDS`` consecutive rounds in which GPUs were
        given and no job advanced (a livelock: the policy moves the jobs every round and each
        move costs a restart longer than the round).
    """
    pol = _make(policy, options)
    RL = inst.slot_length if round_length is None else check_positive(round_length, "round_length")
    restart_delay = check_positive(restart_delay, "restart_delay", allow_zero=True)
    check_size(max_rounds, "max_rounds")
    check_flag(record_rounds, "record_rounds")
    J, H, R = inst.n_jobs, inst.n_machines, inst.n_types
    _check_size(inst, RL, max_rounds, record_rounds)
    t0 = time.perf_counter()
    pol.reset(inst)
    name = pol.name
    state = RoundState(inst=inst, index=0, now=0.0, round_length=RL, restart_delay=restart_delay,
                       remaining=inst.total_iterations.astype(float), active=np.zeros(J, bool),
                       previous=np.zeros((J, H, R), np.int64), attained=np.zeros(J),
                       rounds_received=np.zeros((J, R), np.int64))
    trace = _Trace(inst, state, record_rounds)
    arrival_s = inst.arrival * inst.slot_length
    k = 0
    stalled = 0  # consecutive rounds that gave GPUs but advanced no job (every gang restarted)
    while np.isnan(trace.completion).any():
        if k >= max_rounds:
            raise ScheduleViolation(f"(1a) policy {name!r} left jobs unfinished after {max_rounds} rounds")
        if stalled >= STALL_ROUNDS:
            raise ScheduleViolation(
                f"policy {name!r} gave GPUs for {stalled} consecutive rounds without advancing any job: every "
                f"allocation changed, and a changed allocation pays restart_delay={restart_delay:g} s in a round of "
                f"{RL:g} s; use a restart_delay below the round length or longer rounds (round_length=)")
        state.index, state.now = k, k * RL
        # arrived: up to a relative DONE_RTOL of the round (an absolute 1e-9 s was a whole round of 1e-9 s)
        state.active = np.isnan(trace.completion) & (arrival_s <= state.now + DONE_RTOL * max(RL, state.now))
        gangs = pol.allocate(state) if state.active.any() else []
        rnd = _check_gangs(inst, gangs, state)
        advanced = trace.run_round(rnd)
        stalled = stalled + 1 if (gangs and not advanced) else 0
        state.previous = rnd.alloc
        k += 1
    res = trace.result(name, time.perf_counter() - t0)
    log.info("simulate %s: %d jobs, %d rounds, TTD %.1f s, %.2f s wall", name, J, k, res.total_duration,
             res.wall_time)
    return res
