"""Gavel's round simulator: a policy's allocation turned into rounds by Gavel's mechanism.

Event loop as in Gavel's ``Scheduler.simulate``: at the start of each round, jobs that
have arrived join; if the allocation is stale (an arrival or a completion) and
``recompute_interval`` seconds have passed since the last recomputation, the policy is
solved for the jobs present (with their remaining steps) and the shares are reset; the
mechanism (:class:`~hetopt.gavel.mechanism.GavelMechanism`) picks the jobs of the round.
Each placed job runs ``min(round_length, remaining / throughput)`` seconds; the round
ends when the last of them stops, and a job's completion time is the moment its last
step ends.  When nothing can run, time jumps to the next arrival or to the moment a
recomputation is allowed, whichever comes first (Gavel jumps to the next arrival and
forces a recomputation only when no arrival is left).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self, cast

import numpy as np

from ..errors import ArgumentError, HetoptError, ScheduleViolation
from ..inputs import check_flag, check_positive, check_size, takes_instance
from ..result import Solution, Status
from .instance import GavelInstance
from .mechanism import ALLOCATION_TOL, DEFAULT_RECOMPUTE_INTERVAL, DEFAULT_ROUND_LENGTH, GavelMechanism, fastest_first
from .policies import policy_arguments, resolve_policy

__all__ = ["GavelSimulation", "simulate", "DONE_RTOL"]

#: A job is complete when its remaining steps are at most this fraction of its total.
DONE_RTOL = 1e-9


def same_fields(a: Solution, b: Solution) -> bool:
    """Equality of two results by their JSON fields (arrays compared by value, NaN equal to NaN; ``info`` left out)."""
    da, db = a.to_dict(), b.to_dict()
    da.pop("info", None)
    db.pop("info", None)
    return da == db


def json_number(x: Any) -> float | str:
    """A float for JSON: finite values as floats, ``inf`` / ``nan`` as strings (as ``Solution.to_dict`` writes them)."""
    v = float(x)
    return v if math.isfinite(v) else str(v)


@dataclass(frozen=True, kw_only=True, eq=False)
class GavelSimulation(Solution):
    """Result of :func:`simulate`; ``objective`` is the average JCT in seconds.

    Attributes
    ----------
    policy : str
        The policy's name (a key of :data:`~hetopt.gavel.POLICIES`, or a callable's ``__name__``).
    completion : numpy.ndarray, shape (J,)
        Completion time of each job (seconds from time 0).
    jct : numpy.ndarray, shape (J,)
        ``completion - arrival``.
    average_jct, makespan : float
        Seconds; the makespan is the last completion time.
    recomputations : int
        Times the policy was solved.
    recompute_times : list of float
        When (seconds).
    rounds : list of dict
        ``{"start", "end", "placement": {job: type}}`` per round (when recorded).
    """

    policy: str = ""
    completion: np.ndarray = field(default_factory=lambda: np.zeros(0))
    jct: np.ndarray = field(default_factory=lambda: np.zeros(0))
    average_jct: float = float("nan")
    makespan: float = float("nan")
    recomputations: int = 0
    recompute_times: list[float] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return same_fields(self, cast(Solution, other))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The simulation whose :meth:`to_dict` is ``data`` (placements keyed by job index again)."""
        d = dict(data)
        if isinstance(d.get("rounds"), list):
            d["rounds"] = [_round_from_json(rd) for rd in d["rounds"]]
        return super().from_dict(d)

    def summary(self) -> dict[str, Any]:
        """The common fields, the policy, average JCT, makespan, recomputations, rounds, completions and JCTs."""
        return super().summary() | {
            "policy": self.policy, "average_jct": json_number(self.average_jct), "makespan": json_number(self.makespan),
            "recomputations": self.recomputations, "rounds": len(self.rounds),
            "completion": [json_number(v) for v in self.completion], "jct": [json_number(v) for v in self.jct]}


def _round_from_json(rd: Any) -> Any:
    if not isinstance(rd, Mapping) or not isinstance(rd.get("placement"), Mapping):
        return rd
    return {**rd, "placement": {int(j): int(r) for j, r in rd["placement"].items()}}


def _type_order(type_order: Any, T: np.ndarray) -> list[int] | None:
    """``type_order`` checked: None, ``"fastest"`` or a permutation of the GPU types."""
    R = T.shape[1]
    if type_order is None:
        return None
    if isinstance(type_order, str):
        if type_order != "fastest":
            raise ArgumentError(f"type_order is {type_order!r}; expected 'fastest' or a permutation of the types")
        return fastest_first(T)
    if not isinstance(type_order, Sequence | np.ndarray) or \
            any(isinstance(r, bool) or not isinstance(r, int | np.integer) for r in type_order) or \
            sorted(int(r) for r in type_order) != list(range(R)):
        raise ArgumentError(f"type_order is {type_order!r}; expected 'fastest' or a permutation of 0..{R - 1}")
    return [int(r) for r in type_order]


def _checked_allocation(name: str, X: Any, jobs: np.ndarray, R: int) -> np.ndarray:
    """The policy's allocation for ``jobs``; :class:`ScheduleViolation` if it breaks (G1)-(G2) or its shape."""
    A = np.asarray(X, dtype=float)
    if A.shape != (jobs.size, R):
        raise ScheduleViolation(f"policy {name!r} returned an allocation of shape {A.shape} for {jobs.size} jobs and "
                                f"{R} GPU types; expected ({jobs.size}, {R})")
    bad = np.argwhere(~np.isfinite(A) | (A < -ALLOCATION_TOL) | (A > 1 + ALLOCATION_TOL))
    if bad.size:
        i, r = (int(v) for v in bad[0])
        raise ScheduleViolation(f"(G1) policy {name!r}: allocation of job {int(jobs[i])} on type {r} is {A[i, r]!r}; "
                                "time fractions are finite and in [0, 1]")
    rows = A.sum(axis=1)
    over = np.flatnonzero(rows > 1 + ALLOCATION_TOL)
    if over.size:
        i = int(over[0])
        raise ScheduleViolation(f"(G2) policy {name!r}: the allocation of job {int(jobs[i])} sums to {rows[i]:.6g} > 1")
    return A


@takes_instance(GavelInstance)
def simulate(inst: GavelInstance, policy: Any, *, recompute_interval: float = DEFAULT_RECOMPUTE_INTERVAL,
             round_length: float = DEFAULT_ROUND_LENGTH, type_order: Any = None, max_rounds: int = 1_000_000,
             record_rounds: bool = True) -> GavelSimulation:
    """Simulate Gavel on a workload until every job completes.

    Parameters
    ----------
    inst : GavelInstance
        The workload.
    policy : str or callable
        A name of :data:`hetopt.gavel.POLICIES` or a callable of the policies' protocol
        (:class:`hetopt.gavel.Policy`, ``models/gavel.md``, *Plug-in protocol*).
    recompute_interval : float
        Minimum seconds between recomputations of the allocation (Gavel: 1,920); >= 0.
    round_length : float
        Seconds per round (Gavel: 360); > 0.
    type_order : sequence of int or "fastest", optional
        Order of the per-type queues: default the instance's columns (``gpu_types`` are listed
        fastest first, as Gavel's V100, P100, K80); ``"fastest"`` orders them by
        :func:`~hetopt.gavel.mechanism.fastest_first`.
    max_rounds : int
        Stop with ``HetoptError`` after this many rounds.
    record_rounds : bool
        Keep each round's placement in ``rounds`` (:func:`~hetopt.gavel.check_schedule` reads them).

    Returns
    -------
    GavelSimulation

    Raises
    ------
    ArgumentError
        An unknown policy name or a bad option (naming it).
    ScheduleViolation
        The policy returned an allocation that breaks (G1)-(G2) or has the wrong shape.
    HetoptError
        Jobs that can never run, or ``max_rounds`` rounds without finishing.
    """
    name, pol = resolve_policy(policy)
    recompute_interval = check_positive(recompute_interval, "recompute_interval", allow_zero=True)
    round_length = check_positive(round_length, "round_length")
    max_rounds = check_size(max_rounds, "max_rounds")
    record_rounds = check_flag(record_rounds, "record_rounds")
    t0 = time.perf_counter()
    J = inst.n_jobs
    T = inst.effective_throughput()
    s = inst.scale_factor
    cap = inst.capacity
    mech = GavelMechanism(inst.n_types, round_length=round_length, recompute_interval=recompute_interval,
                          type_order=_type_order(type_order, T), work_conserving=name != "fifo")
    remaining = inst.total_steps.astype(float).copy()
    completion = np.full(J, np.nan)
    order = sorted(range(J), key=lambda j: (inst.arrival[j], j))
    nxt = 0
    t = 0.0
    rounds: list[dict[str, Any]] = []
    for _ in range(max_rounds):
        while nxt < J and inst.arrival[order[nxt]] <= t + 1e-9:
            mech.add_job(order[nxt])
            nxt += 1
        if not mech.jobs and nxt == J:
            break
        if mech.jobs and mech.recompute_due(t):
            act = np.array(sorted(cast(list[int], mech.jobs)))
            X = pol(T[act], s[act], cap, **policy_arguments(name, inst.priority_weight[act], remaining[act]))
            mech.reset(t, dict(zip(act.tolist(), _checked_allocation(name, X, act, inst.n_types), strict=True)))
        jobs = cast(list[int], mech.jobs)
        place = cast(dict[int, int], mech.schedule({j: T[j] for j in jobs}, {j: int(s[j]) for j in jobs}, cap))
        if not place:
            later = [inst.arrival[order[nxt]]] if nxt < J else []
            if mech.jobs and mech.stale and mech.last_reset is not None:
                later.append(mech.last_reset + recompute_interval)
            later = [x for x in later if x > t + 1e-9]
            if not later:
                raise HetoptError(f"policy {name!r}: jobs {sorted(jobs)[:5]} can never run at time {t:.1f} s")
            t = float(min(later))
            continue
        end = t
        for j, r in place.items():
            dt = min(round_length, remaining[j] / T[j, r])
            remaining[j] -= dt * T[j, r]
            mech.record(j, r, dt)
            if remaining[j] <= DONE_RTOL * inst.total_steps[j]:
                remaining[j] = 0.0
                completion[j] = t + dt
            end = max(end, t + dt)
        for j in place:
            if remaining[j] == 0.0:
                mech.remove_job(j)
        if record_rounds:
            rounds.append({"start": t, "end": end, "placement": dict(sorted(place.items()))})
        t = end
    else:
        raise HetoptError(f"policy {name!r} left jobs unfinished after {max_rounds} rounds")
    jct = completion - inst.arrival
    avg = float(jct.mean())
    return GavelSimulation(status=Status.FEASIBLE, objective=avg, wall_time=time.perf_counter() - t0,
                           solver=f"gavel:{name}", policy=name, completion=completion, jct=jct, average_jct=avg,
                           makespan=float(completion.max()), recomputations=mech.resets,
                           recompute_times=list(mech.reset_times), rounds=rounds)
