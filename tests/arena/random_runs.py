"""Random runs of the execution model, for the bounds' validity: any policy, any rule, rounds of any length.

A run starts rounds at arbitrary times (after the previous round ends, sometimes after an idle
gap), of random lengths; in each round the present unfinished jobs are visited in a random order
and each, with some probability, takes a whole gang of GPUs drawn at random from the free GPUs of
the servers of types where its throughput is positive (under ``"single"`` all on one type with
room, under ``"bottleneck"`` spread over types, running at the slowest one's rate).  Every such
run is a run of some policy of the model, so every bound must lie below its metrics.  Rounds are
recorded as the arena's engine records them.
"""

from __future__ import annotations

import numpy as np

from hetopt.arena.schedule import RoundSchedule
from hetopt.certify import Status


def _gang(rng, w, j, free, rule):
    """``{server: GPUs}`` of a random whole gang of job j within ``free`` (per server), or None."""
    g = int(w.scale_factor[j])
    ok = w.throughput[j] > 0
    if rule == "single":
        room = [r for r in np.flatnonzero(ok) if free[w.server_type == r].sum() >= g]
        if not room:
            return None
        r = int(rng.choice(room))
        slots = [s for s in np.flatnonzero(w.server_type == r) for _ in range(int(free[s]))]
    else:
        slots = [s for s in range(w.server_type.size) if ok[w.server_type[s]] for _ in range(int(free[s]))]
    if len(slots) < g:
        return None
    held: dict[int, int] = {}
    for i in rng.choice(len(slots), size=g, replace=False):
        held[int(slots[i])] = held.get(int(slots[i]), 0) + 1
    return held


def random_run(w, seed: int, *, rule: str = "bottleneck", round_length: float = 360.0, weights=None) -> RoundSchedule:
    """A random complete run of ``w`` (see the module docstring) as a :class:`RoundSchedule`."""
    rng = np.random.default_rng(seed)
    J = w.n_jobs
    left = np.asarray(w.steps, dtype=float).copy()
    completion = np.full(J, np.nan)
    t = float(np.min(w.arrival))
    rounds = []
    greed = rng.uniform(0.5, 1.0)
    while np.any(np.isnan(completion)):
        present = [j for j in range(J) if np.isnan(completion[j]) and w.arrival[j] <= t]
        if not present:
            t = float(min(w.arrival[j] for j in range(J) if np.isnan(completion[j])))
            continue
        length = round_length * rng.uniform(0.2, 1.5)
        free = np.asarray(w.server_gpus, dtype=np.int64).copy()
        gangs = []
        for j in rng.permutation(present):
            if rng.random() > greed:
                continue
            held = _gang(rng, w, int(j), free, rule)
            if held is None:
                continue
            for s, n in held.items():
                free[s] -= n
            types = sorted({int(w.server_type[s]) for s in held})
            rate = min(float(w.throughput[j, r]) for r in types)
            n = min(left[j], rate * length)
            dt = n / rate
            left[j] -= n
            if left[j] <= 1e-12 * w.steps[j]:
                n += left[j]
                left[j] = 0.0
                completion[j] = t + dt
            gangs.append({"jobs": [int(j)], "type": types[0] if len(types) == 1 else -1,
                          "servers": sorted([s, c] for s, c in held.items()), "steps": [float(n)], "finish": t + dt,
                          "delay": 0.0})
        if gangs:
            rounds.append({"start": t, "end": t + length, "gangs": gangs})
        t += length + (rng.uniform(0, round_length) if rng.random() < 0.1 else 0.0)
    wt = np.asarray(w.weight if weights is None else weights, dtype=float)
    jct = completion - w.arrival
    avg = float(wt @ jct / wt.sum())
    return RoundSchedule(status=Status.FEASIBLE, objective=avg, metric="average_jct", weights=wt, completion=completion,
                         jct=jct, average_jct=avg, makespan=float(np.max(completion)), rounds=rounds,
                         options={"round_length": round_length, "restart_delay": 0.0, "contention": False,
                                  "gang_rule": rule})


def packed_run(w, seed: int, *, round_length: float = 360.0) -> tuple[np.ndarray, float]:
    """(completions, makespan) of a random run that packs two jobs of equal gang size on the same GPUs.

    A packed pair shares one gang's GPUs (one type), each job at a random fraction (0.3 to 1) of its own
    rate, as Gavel's packing policies run pairs (no measured pair runs a job faster than alone).
    """
    rng = np.random.default_rng(seed)
    J = w.n_jobs
    left = np.asarray(w.steps, dtype=float).copy()
    completion = np.full(J, np.nan)
    t = float(np.min(w.arrival))
    while np.any(np.isnan(completion)):
        present = [int(j) for j in rng.permutation(J) if np.isnan(completion[j]) and w.arrival[j] <= t]
        if not present:
            t = float(min(w.arrival[j] for j in range(J) if np.isnan(completion[j])))
            continue
        length = round_length * rng.uniform(0.2, 1.5)
        free = np.asarray(w.capacity, dtype=np.int64).copy()
        while present:
            j = present.pop()
            mates = [k for k in present if w.scale_factor[k] == w.scale_factor[j]]
            mate = mates[0] if mates and rng.random() < 0.7 else None
            group = [j] if mate is None else [j, mate]
            if mate is not None:
                present.remove(mate)
            room = [r for r in range(w.n_types) if free[r] >= w.scale_factor[j]
                    and all(w.throughput[k, r] > 0 for k in group)]
            if not room:
                continue
            r = int(rng.choice(room))
            free[r] -= int(w.scale_factor[j])
            for k in group:
                rate = float(w.throughput[k, r]) * (rng.uniform(0.3, 1.0) if mate is not None else 1.0)
                dt = min(length, left[k] / rate)
                left[k] -= rate * dt
                if left[k] <= 1e-12 * w.steps[k]:
                    completion[k] = t + dt
        t += length
    return completion, float(np.max(completion))
