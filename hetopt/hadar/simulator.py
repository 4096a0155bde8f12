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
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..errors import HetoptError, InstanceError, SizeLimitError
from ..result import Status
from .instance import HadarInstance
from .result import SimulationResult

__all__ = ["RoundState", "Policy", "simulate", "total_utility", "RESTART_DELAY", "DONE_RTOL", "MAX_RECORD_BYTES"]

log = logging.getLogger(__name__)

#: Seconds lost by a job that receives a new allocation (checkpoint-restart), Section IV.
RESTART_DELAY = 10.0
#: A job is complete when its remaining iterations fall below this fraction of E_j N_j.
DONE_RTOL = 1e-9


@dataclass
class RoundState:
    """What a policy sees at the start of a round (read-only by convention)."""

    inst: HadarInstance
    index: int
    now: float
    round_length: float
    restart_delay: float
    remaining: np.ndarray          # (J,) iterations left
    active: np.ndarray             # (J,) bool: arrived and unfinished
    previous: np.ndarray           # (J, H, R) allocation of the previous round
    attained: np.ndarray           # (J,) GPU-seconds received so far
    rounds_received: np.ndarray    # (J, R) rounds run on each type (a gang counts once per type used)


class Policy(Protocol):
    """A scheduling policy: ``reset`` once per simulation, ``allocate`` once per round."""

    name: str

    def reset(self, inst: HadarInstance) -> None: ...

    def allocate(self, state: RoundState) -> list[tuple[int, np.ndarray]]: ...


def total_utility(inst: HadarInstance, jct) -> float:
    """``sum_j U_j(jct_j)`` for completion times in seconds: P1's objective for any policy."""
    return float(np.sum(inst.utility_of(np.asarray(jct, dtype=float))))


def _check_gangs(inst: HadarInstance, gangs, state: RoundState) -> np.ndarray:
    alloc = np.zeros((inst.n_jobs, inst.n_machines, inst.n_types), dtype=np.int64)
    for j, w in gangs:
        if not state.active[j]:
            raise HetoptError(f"policy allocated GPUs to job {j}, which is not active in round {state.index}")
        n = int(w.sum())
        if n != inst.gpus[j]:
            raise HetoptError(f"policy gave job {j} a gang of {n} GPUs; it needs {inst.gpus[j]}")
        if np.any(w.sum(axis=0)[inst.throughput[j] <= 0] > 0):
            raise HetoptError(f"policy placed job {j} on a type where its throughput is 0")
        alloc[j] += w
    if np.any(alloc.sum(axis=0) > inst.capacity):
        raise HetoptError(f"policy exceeded a machine's capacity in round {state.index}")
    return alloc


#: ``simulate`` refuses to record more than this many bytes of per-round allocations.
MAX_RECORD_BYTES = 2_000_000_000


def _check_size(inst: HadarInstance, RL: float, max_rounds: int, record_rounds: bool) -> None:
    """Refuse, before running, a simulation that needs more than ``max_rounds`` rounds (from a
    makespan lower bound) or whose recorded rounds would not fit in memory.
    """
    from .bounds import capacity_lower_bound

    if not (isinstance(max_rounds, (int, np.integer)) and not isinstance(max_rounds, bool) and max_rounds >= 1):
        raise InstanceError(f"max_rounds is {max_rounds!r}; expected a positive integer")
    need = capacity_lower_bound(inst, one_gang=False) / RL  # valid for HadarE's copies too
    if need > max_rounds:
        raise SizeLimitError(f"simulate: the jobs need at least {need:.3g} rounds of {RL:g} s (a makespan lower "
                             f"bound), above max_rounds = {max_rounds}; shorten the jobs or lengthen the rounds")
    per_round = inst.n_jobs * inst.n_machines * inst.n_types
    if record_rounds and need * per_round > MAX_RECORD_BYTES:
        raise SizeLimitError(f"simulate: recording at least {need:.3g} rounds of {per_round} allocation entries "
                             f"exceeds {MAX_RECORD_BYTES:.0e} bytes; pass record_rounds=False")


def _kept(w: np.ndarray, previous: np.ndarray) -> bool:
    """True when a gang keeps exactly the job's previous GPUs on the machines it uses (no restart)."""
    mach = w.sum(axis=1) > 0
    return bool(previous.any()) and np.array_equal(w[mach], previous[mach])


#: Consecutive rounds with GPUs allocated and no job advanced after which :func:`simulate` stops
#: (a policy that moves every job every round when the restart delay exceeds the round never ends).
STALL_ROUNDS = 1000


def simulate(inst: HadarInstance, policy, *, round_length: float | None = None, restart_delay: float = RESTART_DELAY,
             max_rounds: int = 1_000_000, record_rounds: bool = True, **policy_options) -> SimulationResult:
    """Run a policy round by round until every job completes.

    Parameters
    ----------
    inst : HadarInstance
    policy : str or Policy
        ``"hadar"``, ``"hadare"``, ``"gavel"``, ``"tiresias"``, ``"yarn_cs"`` (see
        :data:`hetopt.hadar.policies.POLICIES`) or an object with ``reset`` / ``allocate``.
    round_length : float, optional
        Seconds per round (default: the instance's slot length; the paper uses 360 s).
    restart_delay : float
        Checkpoint-restart delay of a job that receives a new allocation (Section IV: 10 s).
    max_rounds : int
        Stop with an error after this many rounds (a policy that starves a job forever).
    record_rounds : bool
        Keep every round's allocation and iterations in ``rounds``.
    **policy_options
        Passed to the policy's constructor when ``policy`` is a name.

    Raises
    ------
    SizeLimitError
        Before running, when a makespan lower bound needs more than ``max_rounds`` rounds, or
        the recorded rounds would exceed ``MAX_RECORD_BYTES``.
    HetoptError
        When jobs are unfinished after ``max_rounds`` rounds, or after ``STALL_ROUNDS``
        consecutive rounds in which GPUs were given and no job advanced (a livelock: the
        policy moves the jobs every round and each move costs a restart longer than the round).

    Returns
    -------
    SimulationResult
        Per-job ``jct``, ``total_duration`` (TTD), ``utilization`` (GRU, cluster-wide),
        ``job_utilization`` (GRU, per job),
        ``cluster_utilization`` (CRU), ``rounds``, ``total_utility``.
    """
    from ..inputs import check_instance

    check_instance(inst, HadarInstance, "inst")
    from .policies import make_policy

    pol = make_policy(policy, **policy_options) if isinstance(policy, str) else policy
    if policy_options and not isinstance(policy, str):
        raise InstanceError("policy options can only be given with a policy name")
    RL = inst.slot_length if round_length is None else float(round_length)
    if not RL > 0:
        raise InstanceError(f"round_length is {round_length!r}; expected a positive number of seconds")
    if not restart_delay >= 0:
        raise InstanceError(f"restart_delay is {restart_delay!r}; expected >= 0 seconds")
    J, H, R = inst.n_jobs, inst.n_machines, inst.n_types
    _check_size(inst, RL, max_rounds, record_rounds)
    t0 = time.perf_counter()
    pol.reset(inst)
    total = inst.total_iterations.astype(float)
    remaining = total.copy()
    arrival_s = inst.arrival * inst.slot_length
    completion = np.full(J, np.nan)
    state = RoundState(inst=inst, index=0, now=0.0, round_length=RL, restart_delay=restart_delay,
                       remaining=remaining, active=np.zeros(J, bool), previous=np.zeros((J, H, R), np.int64),
                       attained=np.zeros(J), rounds_received=np.zeros((J, R), np.int64))
    rounds: list[dict] = []
    busy_gpu = 0.0
    busy_machine = np.zeros(H)
    job_busy = np.zeros(J)             # seconds in which at least one gang of the job computes
    first_start = np.full(J, np.nan)   # start of the first round the job holds GPUs
    small = np.int8 if inst.capacity.max() <= 127 else np.int32
    k = 0
    stalled = 0  # consecutive rounds that gave GPUs but advanced no job (every gang restarted)
    while np.isnan(completion).any():
        if k >= max_rounds:
            raise HetoptError(f"policy {pol.name!r} left jobs unfinished after {max_rounds} rounds")
        if stalled >= STALL_ROUNDS:
            raise HetoptError(
                f"policy {pol.name!r} gave GPUs for {stalled} consecutive rounds without advancing any job: every "
                f"allocation changed, and a changed allocation pays restart_delay={restart_delay:g} s in a round of "
                f"{RL:g} s; use a restart_delay below the round length or longer rounds (round_length=)")
        now = k * RL
        state.index, state.now = k, now
        state.active = np.isnan(completion) & (arrival_s <= now + 1e-9)
        gangs = pol.allocate(state) if state.active.any() else []
        alloc = _check_gangs(inst, gangs, state)
        done_iter = np.zeros(J)
        machine_round = np.zeros(H)  # seconds each machine computes this round (max over its gangs)
        by_job: dict[int, list[np.ndarray]] = {}
        for j, w in gangs:
            by_job.setdefault(j, []).append(w)
        for j, ws in by_job.items():
            rates = np.array([w.sum() * inst.throughput[j, w.sum(axis=0) > 0].min() for w in ws])
            delays = np.array([0.0 if _kept(w, state.previous[j]) else restart_delay for w in ws])
            share = remaining[j] * rates / rates.sum()
            it = np.minimum(share, rates * np.maximum(RL - delays, 0.0))
            compute = it / rates
            got = float(it.sum())
            if remaining[j] - got <= DONE_RTOL * total[j]:
                completion[j] = now + float(np.max(np.where(it > 0, delays + compute, 0.0)))
                got = remaining[j]
            remaining[j] -= got
            done_iter[j] = got
            for w, c in zip(ws, compute):
                busy_gpu += w.sum() * c
                mach = w.sum(axis=1) > 0
                machine_round[mach] = np.maximum(machine_round[mach], c)
            state.attained[j] += float(sum(w.sum() * c for w, c in zip(ws, compute)))
            job_busy[j] += float(np.max(compute))
            if np.isnan(first_start[j]):
                first_start[j] = now
            state.rounds_received[j, alloc[j].sum(axis=0) > 0] += 1
        busy_machine += machine_round
        stalled = stalled + 1 if (gangs and not done_iter.any()) else 0
        if record_rounds:
            rounds.append({"start": now, "allocation": alloc.astype(small), "iterations": done_iter})
        state.previous = alloc
        k += 1
    ttd = float(np.max(completion))
    jct = completion - arrival_s
    log.info("simulate %s: %d jobs, %d rounds, TTD %.1f s, %.2f s wall", pol.name, J, k, ttd,
             time.perf_counter() - t0)
    gpus = float(inst.capacity.sum())
    util = total_utility(inst, jct)
    return SimulationResult(status=Status.FEASIBLE, objective=util, wall_time=time.perf_counter() - t0,
                            solver=pol.name, policy=pol.name, round_length=RL, jct=jct, completion=completion,
                            total_duration=ttd, utilization=busy_gpu / (gpus * ttd) if ttd > 0 else 0.0,
                            cluster_utilization=float(busy_machine.sum() / (H * ttd)) if ttd > 0 else 0.0,
                            rounds=rounds, total_utility=util, job_busy=job_busy, first_start=first_start)
