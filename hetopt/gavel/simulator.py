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

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import HetoptError, InstanceError
from ..result import Solution, Status
from .instance import GavelInstance
from .mechanism import DEFAULT_RECOMPUTE_INTERVAL, DEFAULT_ROUND_LENGTH, GavelMechanism, fastest_first
from .policies import POLICIES

__all__ = ["GavelSimulation", "simulate", "DONE_RTOL"]

#: A job is complete when its remaining steps are at most this fraction of its total.
DONE_RTOL = 1e-9


@dataclass(frozen=True, kw_only=True)
class GavelSimulation(Solution):
    """Result of :func:`simulate`; ``objective`` is the average JCT in seconds.

    Attributes
    ----------
    policy : str
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
    recompute_times: list = field(default_factory=list)
    rounds: list = field(default_factory=list)


def _policy(policy) -> tuple[str, Callable[..., Any]]:
    if callable(policy):
        return getattr(policy, "__name__", "custom"), policy
    if policy not in POLICIES:
        raise InstanceError(f"policy is {policy!r}; expected one of {sorted(POLICIES)} or a callable")
    return policy, POLICIES[policy]


def _policy_args(name: str, weight: np.ndarray, remaining: np.ndarray) -> dict[str, Any]:
    """Keyword arguments a policy uses: steps for the makespan policy, weights for the others but FIFO
    (whose priority is the arrival order).
    """
    if name == "min_total_duration":
        return {"remaining_steps": remaining}
    if name == "fifo":
        return {}
    return {"priority_weight": weight}


def simulate(inst: GavelInstance, policy="max_min_fairness", *, recompute_interval: float = DEFAULT_RECOMPUTE_INTERVAL,
             round_length: float = DEFAULT_ROUND_LENGTH, type_order=None, max_rounds: int = 1_000_000,
             record_rounds: bool = True) -> GavelSimulation:
    """Simulate Gavel on a workload until every job completes.

    Parameters
    ----------
    inst : GavelInstance
    policy : str or callable
        A name of :data:`hetopt.gavel.POLICIES` or a function with the policies' signature.
    recompute_interval : float
        Minimum seconds between recomputations of the allocation (Gavel: 1,920).
    round_length : float
        Seconds per round (Gavel: 360).
    type_order : sequence of int or "fastest", optional
        Order of the per-type queues: default the instance's columns (``gpu_types`` are listed
        fastest first, as Gavel's V100, P100, K80); ``"fastest"`` orders them by
        :func:`~hetopt.gavel.mechanism.fastest_first`.
    max_rounds : int
        Stop with ``HetoptError`` after this many rounds.
    record_rounds : bool
        Keep each round's placement in ``rounds``.

    Returns
    -------
    GavelSimulation
    """
    from ..inputs import check_instance

    check_instance(inst, GavelInstance, "inst")
    if not isinstance(inst, GavelInstance):
        raise InstanceError(f"inst is a {type(inst).__name__}; expected a GavelInstance")
    name, pol = _policy(policy)
    t0 = time.perf_counter()
    J = inst.n_jobs
    T = inst.effective_throughput()
    s = inst.scale_factor
    cap = inst.capacity
    if isinstance(type_order, str):
        if type_order != "fastest":
            raise InstanceError(f"type_order is {type_order!r}; expected 'fastest' or a permutation of the types")
        type_order = fastest_first(T)
    mech = GavelMechanism(inst.n_types, round_length=round_length, recompute_interval=recompute_interval,
                          type_order=type_order, work_conserving=name != "fifo")
    remaining = inst.total_steps.astype(float).copy()
    completion = np.full(J, np.nan)
    order = sorted(range(J), key=lambda j: (inst.arrival[j], j))
    nxt = 0
    t = 0.0
    rounds: list[dict] = []
    for _ in range(max_rounds):
        while nxt < J and inst.arrival[order[nxt]] <= t + 1e-9:
            mech.add_job(order[nxt])
            nxt += 1
        if not mech.jobs and nxt == J:
            break
        if mech.jobs and mech.recompute_due(t):
            act = np.array(sorted(mech.jobs))
            X = np.asarray(pol(T[act], s[act], cap, **_policy_args(name, inst.priority_weight[act], remaining[act])))
            mech.reset(t, dict(zip(act.tolist(), X)))
        place = mech.schedule({j: T[j] for j in mech.jobs}, {j: int(s[j]) for j in mech.jobs}, cap)
        if not place:
            later = [inst.arrival[order[nxt]]] if nxt < J else []
            if mech.jobs and mech.stale and mech.last_reset is not None:
                later.append(mech.last_reset + recompute_interval)
            later = [x for x in later if x > t + 1e-9]
            if not later:
                raise HetoptError(f"policy {name!r}: jobs {sorted(mech.jobs)[:5]} can never run at time {t:.1f} s")
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
                           makespan=float(completion.max()), recomputations=mech.resets, recompute_times=list(mech.reset_times),
                           rounds=rounds)
