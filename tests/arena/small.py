"""Seeded small arena workloads for the bound and exact tests (2-6 jobs, 1-3 GPU types, 1-8 GPUs per type).

Jobs have gangs of 1-4 GPUs and throughputs of 0 on some types; every job fits on at least one
single type (the exact model's rule), steps make a job last 0.3-4 rounds on its best type, and
about a third of the jobs arrive at time 0, the others within four rounds (arrivals on and off
the round grid).  Servers: each type's GPUs split over one or two servers.
"""

from __future__ import annotations

import numpy as np

from hetopt.arena.workload import Workload

ROUND = 360.0


def small_workload(seed: int, *, jobs: tuple[int, int] = (2, 6), types: tuple[int, int] = (1, 3),
                   round_length: float = ROUND, scale: float = 1.0, spread: float = 25.0,
                   rounds: float = 4.0, single_fit: bool = True) -> Workload:
    """A random small workload; ``scale`` multiplies steps and times (arrivals) alike.

    Throughputs lie in ``[5 / spread, 5]`` iterations/s; a job lasts 0.3 to ``rounds`` rounds on its
    best type (tiny ``spread`` and ``rounds`` keep the brute force small).
    """
    rng = np.random.default_rng(seed)
    R = int(rng.integers(types[0], types[1] + 1))
    J = int(rng.integers(jobs[0], jobs[1] + 1))
    cap = rng.integers(1, 9, R)
    server_type, server_gpus = [], []
    for r in range(R):
        if cap[r] >= 2 and rng.random() < 0.5:
            a = int(rng.integers(1, cap[r]))
            server_type += [r, r]
            server_gpus += [a, int(cap[r]) - a]
        else:
            server_type.append(r)
            server_gpus.append(int(cap[r]))
    g = rng.integers(1, 5, J)
    T = np.round(rng.uniform(5.0 / spread, 5.0, (J, R)), 3) * (rng.random((J, R)) < 0.7)
    for j in range(J):
        if not single_fit and np.where(T[j] > 0, cap, 0).sum() >= g[j]:
            continue
        if not np.any((T[j] > 0) & (cap >= g[j])):
            fit = np.flatnonzero(cap >= g[j])
            r = int(rng.choice(fit)) if fit.size else int(np.argmax(cap))
            g[j] = min(g[j], cap[r])
            T[j, r] = round(float(rng.uniform(5.0 / spread, 5.0)), 3)
    best = np.where((T > 0) & (cap[None, :] >= (g[:, None] if single_fit else 1)), T, 0).max(axis=1)
    steps = np.round(best * round_length * rng.uniform(0.3, 4.0, J), 1) * scale
    arrival = np.where(rng.random(J) < 0.35, 0.0, np.round(rng.uniform(0, 4 * round_length, J), 1)) * scale
    on_grid = rng.random(J) < 0.2
    arrival = np.where(on_grid, np.floor(arrival / (round_length * scale)) * round_length * scale, arrival)
    weight = np.round(rng.uniform(0.5, 2.0, J), 2)
    return Workload(gpu_types=tuple(f"t{r}" for r in range(R)), server_type=np.array(server_type),
                    server_gpus=np.array(server_gpus), link_bandwidth=np.full(len(server_type), np.inf),
                    job_type=tuple(f"job{j}" for j in range(J)), arrival=arrival, scale_factor=g, steps=steps,
                    weight=weight, throughput=T, model_size=np.zeros(J), description=f"small seed {seed}")


def replace(w: Workload, **changes) -> Workload:
    """A copy of ``w`` with some fields changed (checked again)."""
    from dataclasses import fields

    return Workload(**({f.name: getattr(w, f.name) for f in fields(w) if f.init} | changes))


def workloads():
    """A hypothesis strategy of small workloads with ties and edge values (equal arrivals, zero throughputs)."""
    from hypothesis import assume
    from hypothesis import strategies as st

    @st.composite
    def build(draw):
        R = draw(st.integers(1, 3))
        J = draw(st.integers(1, 5))
        cap = draw(st.lists(st.integers(1, 8), min_size=R, max_size=R))
        g = draw(st.lists(st.integers(1, 4), min_size=J, max_size=J))
        T = draw(st.lists(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.5, 4.0]), min_size=R, max_size=R),
                          min_size=J, max_size=J))
        T = np.array(T)
        assume(all(np.where(T[j] > 0, cap, 0).sum() >= g[j] for j in range(J)))
        rounds = draw(st.lists(st.sampled_from([0.25, 1.0, 1.5, 3.0]), min_size=J, max_size=J))
        arrival = draw(st.lists(st.sampled_from([0.0, 100.0, 360.0, 720.0, 1000.0]), min_size=J, max_size=J))
        steps = np.array(rounds) * ROUND * T.max(axis=1)
        return Workload(gpu_types=tuple(f"t{r}" for r in range(R)), server_type=np.arange(R), server_gpus=np.array(cap),
                        link_bandwidth=np.full(R, np.inf), job_type=tuple(f"j{j}" for j in range(J)),
                        arrival=np.array(arrival), scale_factor=np.array(g), steps=steps, weight=np.ones(J),
                        throughput=T, model_size=np.zeros(J))

    return build()
