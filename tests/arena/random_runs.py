"""Random runs of the execution model, for the bounds' validity: any policy, any rule, rounds of any length.

A run starts rounds at arbitrary times (after the previous round ends, sometimes after an idle
gap), of random lengths; in each round the present unfinished jobs are visited in a random order
and each, with some probability, takes a whole gang of GPUs drawn at random from the free GPUs of
the types where its throughput is positive (under ``"single"`` all on one type with room, under
``"bottleneck"`` spread over types, running at the slowest one's rate).  Every such run is a run of
some policy of the model, so every bound must lie below its metrics.
"""

from __future__ import annotations

import numpy as np

from hetopt.arena.schedule import RoundSchedule
from hetopt.result import Status


def _gang(rng, w, j, free, rule):
    g = int(w.scale_factor[j])
    ok = np.flatnonzero(w.throughput[j] > 0)
    if rule == "single":
        room = [r for r in ok if free[r] >= g]
        return {int(rng.choice(room)): g} if room else None
    pool = [r for r in ok for _ in range(int(free[r]))]
    if len(pool) < g:
        return None
    picked = rng.choice(len(pool), size=g, replace=False)
    gang: dict[int, int] = {}
    for i in picked:
        gang[int(pool[i])] = gang.get(int(pool[i]), 0) + 1
    return gang


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
        free = np.asarray(w.capacity, dtype=np.int64).copy()
        place, seconds = {}, {}
        for j in rng.permutation(present):
            if rng.random() > greed:
                continue
            gang = _gang(rng, w, int(j), free, rule)
            if gang is None:
                continue
            for r, n in gang.items():
                free[r] -= n
            rate = min(float(w.throughput[j, r]) for r in gang)
            dt = min(length, left[j] / rate)
            left[j] -= rate * dt
            if left[j] <= 1e-12 * w.steps[j]:
                left[j] = 0.0
                completion[j] = t + dt
            place[int(j)] = gang if len(gang) > 1 else next(iter(gang))
            seconds[int(j)] = dt
        if place:
            rounds.append({"start": t, "end": t + length, "placement": place, "seconds": seconds})
        t += length + (rng.uniform(0, round_length) if rng.random() < 0.1 else 0.0)
    wt = np.asarray(w.weight if weights is None else weights, dtype=float)
    jct = completion - w.arrival
    avg = float(wt @ jct / wt.sum())
    return RoundSchedule(status=Status.FEASIBLE, objective=avg, metric="average_jct", weights=wt, completion=completion,
                         jct=jct, average_jct=avg, makespan=float(np.max(completion)), round_length=round_length,
                         rounds=rounds)
