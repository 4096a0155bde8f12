"""Seeded random Hare instances for tests and certification sweeps."""

from __future__ import annotations

import numpy as np

from .instance import HareInstance

__all__ = ["random_instance", "rng_from"]


def rng_from(seed: int | np.random.Generator | None) -> np.random.Generator:
    """A numpy Generator from a seed, a Generator (used as is) or None (fresh entropy)."""
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def random_instance(*, seed: int | np.random.Generator | None = None, n_jobs: int = 3, n_gpus: int = 2,
                    max_rounds: int = 2, max_tasks: int = 2, max_total_tasks: int | None = 8,
                    speed_spread: float = 3.0, sync_fraction: float = 0.3, arrival_span: float = 2.0,
                    max_weight: int = 3, homogeneous: bool = False) -> HareInstance:
    """A small random instance with heterogeneous GPUs.

    GPU ``m`` has a speed factor in ``[1, speed_spread]``; job ``n`` a base compute time in
    ``[1, 3]`` and a per-GPU affinity in ``[0.8, 1.25]`` (so the best GPU differs between
    jobs); ``T^c_{n,m} = base_n * affinity_{n,m} / speed_m``; ``T^s`` is a uniform fraction
    in ``[0, sync_fraction]`` of ``T^c`` (the paper assumes training longer than
    synchronization).  Rounds in ``1..max_rounds``, tasks per round in ``1..max_tasks``,
    arrivals uniform in ``[0, arrival_span]`` (the first job at 0), integer weights in
    ``1..max_weight``.  With ``homogeneous=True`` every GPU is identical (``T^c``, ``T^s``
    constant along a row), so that Lemma 3's ``alpha`` is 1 and Theorem 4's bound is 3,
    its most demanding case.  If ``max_total_tasks`` is given, rounds are removed from the
    largest jobs until ``|D|`` fits.
    """
    rng = rng_from(seed)
    speed = rng.uniform(1.0, speed_spread, n_gpus)
    base = rng.uniform(1.0, 3.0, n_jobs)
    affinity = rng.uniform(0.8, 1.25, (n_jobs, n_gpus))
    frac = rng.uniform(0.0, sync_fraction, (n_jobs, n_gpus))
    if homogeneous:
        speed[:], affinity[:], frac[:] = 1.0, 1.0, frac[:, :1]
    tc = np.round(base[:, None] * affinity / speed[None, :], 3)
    ts = np.round(tc * frac, 3)
    rounds = rng.integers(1, max_rounds + 1, n_jobs)
    tasks = rng.integers(1, max_tasks + 1, n_jobs)
    if max_total_tasks is not None:
        while (rounds * tasks).sum() > max_total_tasks:
            k = int(np.argmax(rounds * tasks))
            if rounds[k] > 1:
                rounds[k] -= 1
            elif tasks[k] > 1:
                tasks[k] -= 1
            else:
                break
    arrival = np.round(rng.uniform(0.0, arrival_span, n_jobs), 3)
    arrival[0] = 0.0
    weight = rng.integers(1, max_weight + 1, n_jobs).astype(float)
    return HareInstance(arrival=arrival, weight=weight, rounds=rounds, tasks_per_round=tasks,
                        compute_time=np.maximum(tc, 1e-3), sync_time=ts)
