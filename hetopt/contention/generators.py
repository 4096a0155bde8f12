"""Generators: the 160-job workload of Section V-A (Table III models) and tiny integral instances.

:func:`generate_instance` is the paper's generator (the workload and cluster of Section V-A);
:func:`tiny_instance` makes the small integral instances the exact engines certify.

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Section V-A and Table III.
M. Jeon et al., "Analysis of large-scale multi-tenant GPU clusters for DNN training
workloads", arXiv:1901.05758, 2019 (the Microsoft trace the job mix follows).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..errors import ArgumentError
from ..inputs import MAX_GENERATED, check_positive, check_size, rng_from
from .comm import PAPER_A, SIM_BETA, SIM_ETA
from .instance import V100_MEMORY_MB, ContentionInstance

__all__ = ["TABLE_III", "PAPER_GPU_MIX", "SIM_GPU_MEMORY_MB", "generate_instance", "tiny_instance"]

#: GPU memory of the simulated cluster (MB): the authors' simulator gives every GPU 32 GB
#: (``CLUSTER["gpu_mem"] = 32768`` in ``online/job_master.py``); the paper measured t_f, t_b
#: on a V100-16GB (Section V-A), whose 16 GB (:data:`V100_MEMORY_MB`) hetopt used before.
SIM_GPU_MEMORY_MB = 32768.0

#: Table III: name -> (model size MB, GPU memory MB, batch size, t_f ms, t_b ms) on a Tesla V100.
TABLE_III: dict[str, tuple[float, float, int, float, float]] = {
    "VGG-16": (526.4, 4527.0, 16, 35.8, 53.7),
    "ResNet-50": (99.2, 3213.0, 16, 25.0, 37.4),
    "Inception-V3": (103.0, 3291.0, 16, 34.9, 52.4),
    "LSTM-PTB": (251.8, 2751.0, 64, 31.5, 47.3),
}

#: The generators refuse more jobs than this (ArgumentError): the paper's workload has 160.
MAX_JOBS = 1_000_000

#: Section V-A: number of jobs per GPU count in the 160-job workload.
PAPER_GPU_MIX: dict[int, int] = {1: 80, 2: 14, 4: 26, 8: 30, 16: 8, 32: 2}


def _scaled_mix(n_jobs: int) -> dict[int, int]:
    """The paper's GPU mix scaled to ``n_jobs`` jobs (largest remainders)."""
    total = sum(PAPER_GPU_MIX.values())
    exact = {g: c * n_jobs / total for g, c in PAPER_GPU_MIX.items()}
    mix = {g: int(np.floor(x)) for g, x in exact.items()}
    rest = n_jobs - sum(mix.values())
    for g in sorted(exact, key=lambda g: (-(exact[g] - mix[g]), g))[:rest]:
        mix[g] += 1
    return mix


def _check_mix(gpu_mix: object) -> dict[int, int]:
    """``gpu_mix`` as GPU count -> number of jobs (ArgumentError naming ``gpu_mix`` otherwise)."""
    if not isinstance(gpu_mix, Mapping):
        raise ArgumentError(f"gpu_mix is {gpu_mix!r:.60}; expected a mapping GPU count -> number of jobs")
    out = {}
    for g, c in gpu_mix.items():
        out[check_size(g, "gpu_mix key")] = check_size(c, f"gpu_mix[{g!r}]", minimum=0)
    return out


def _iteration_range(iterations: tuple[int, int]) -> tuple[int, int]:
    """``(low, high)`` with ``1 <= low <= high`` (ArgumentError naming ``iterations`` otherwise)."""
    if not isinstance(iterations, (tuple, list)) or len(iterations) != 2:
        raise ArgumentError(f"iterations is {iterations!r}; expected (low, high) with 1 <= low <= high")
    lo, hi = (check_size(v, "iterations") for v in iterations)
    if lo > hi:
        raise ArgumentError(f"iterations is {iterations!r}; expected (low, high) with 1 <= low <= high")
    return lo, hi


def generate_instance(
    *, seed: int | np.random.Generator | None = None,
    n_jobs: int = 160,
    gpu_mix: Mapping[int, int] | None = None,
    iterations: tuple[int, int] = (1000, 6000),
    arrival_window: float = 1200.0,
    n_servers: int = 16,
    gpus_per_server: int = 4,
    gpu_memory: float = SIM_GPU_MEMORY_MB,
    a: float = PAPER_A,
    b: float = SIM_BETA,
    eta: float = SIM_ETA,
) -> ContentionInstance:
    """The workload and cluster of Section V-A, seeded.

    ``n_jobs`` jobs (160) with the GPU mix of the paper (80 single-GPU, 14 2-GPU, 26 4-GPU,
    30 8-GPU, 8 16-GPU, 2 32-GPU; scaled by largest remainders for other ``n_jobs``), a DNN
    of Table III drawn uniformly per job, iterations uniform in ``iterations`` (1,000-6,000),
    arrivals in whole seconds uniform over ``[0, arrival_window)`` (20 minutes), on
    ``n_servers`` x ``gpus_per_server`` V100s (16 x 4) on 10 GbE, each with ``gpu_memory``
    MB (default 32 GB as in the authors' simulator; pass :data:`V100_MEMORY_MB` for the
    16 GB of the V100-16GB the paper measured on).  Memory decides how many jobs share a
    GPU, so it moves every absolute JCT.  ``seed`` is None by default (fresh entropy), as in
    every kind.

    Notes
    -----
    The paper draws the number of arrivals per one-second slot from a uniform distribution
    and "refines it" until they sum to 160; we draw each job's slot uniformly, which gives
    the same multinomial counts, and assign jobs (in a random order) to slots in time
    order.

    Raises
    ------
    ArgumentError
        Bad sizes or ranges, or a ``gpu_mix`` that does not sum to ``n_jobs``.
    InstanceError
        A GPU count larger than the cluster (raised by the instance).

    Examples
    --------
    >>> inst = generate_instance(seed=0)
    >>> inst.n_jobs, inst.n_total_gpus
    (160, 64)
    """
    rng = rng_from(seed)
    n_jobs = check_size(n_jobs, "n_jobs", maximum=MAX_JOBS)
    lo, hi = _iteration_range(iterations)
    check_positive(arrival_window, "arrival_window")
    n_servers = check_size(n_servers, "n_servers")
    gpus_per_server = check_size(gpus_per_server, "gpus_per_server")
    gpu_memory = check_positive(gpu_memory, "gpu_memory")
    a, b, eta = check_positive(a, "a", allow_zero=True), check_positive(b, "b"), check_positive(eta, "eta", allow_zero=True)
    mix = dict(_scaled_mix(n_jobs) if gpu_mix is None else _check_mix(gpu_mix))
    if sum(mix.values()) != n_jobs:
        raise ArgumentError(f"gpu_mix sums to {sum(mix.values())} jobs; expected n_jobs = {n_jobs}")
    n_gpus = np.array([g for g, c in sorted(mix.items()) for _ in range(c)], dtype=np.int64)
    rng.shuffle(n_gpus)
    names = list(TABLE_III)
    model = rng.integers(0, len(names), size=n_jobs)
    iters = rng.integers(lo, hi + 1, size=n_jobs)
    arrival = np.sort(rng.integers(0, int(np.ceil(arrival_window)), size=n_jobs)).astype(float)
    spec = np.array([TABLE_III[names[m]] for m in model])
    return ContentionInstance(
        n_servers=n_servers,
        gpus_per_server=gpus_per_server,
        gpu_memory=gpu_memory,
        a=a,
        b=b,
        eta=eta,
        arrival=arrival,
        n_gpus=n_gpus,
        iterations=iters,
        t_f=spec[:, 3] / 1000.0,
        t_b=spec[:, 4] / 1000.0,
        model_size=spec[:, 0],
        memory=spec[:, 1],
        names=tuple(names[m] for m in model),
        description=f"Section V-A workload, seed {seed if not isinstance(seed, np.random.Generator) else 'generator'}",
    )


def tiny_instance(
    *, seed: int | np.random.Generator | None = None,
    n_jobs: int = 3,
    n_servers: int = 2,
    gpus_per_server: int = 2,
    max_iterations: int = 2,
    max_arrival: int = 3,
) -> ContentionInstance:
    """A small instance with integral times, for the exact time-indexed MILP.

    ``t_f, t_b`` in {1, 2} s, all-reduce ``a + b sigma`` = 1 + sigma s with sigma in {1, 2, 3}
    MB (``a = 1``, ``b = 1``, ``eta = 0.5``), arrivals in {0, ..., max_arrival}, 1 to
    ``max_iterations`` iterations, 1 to all GPUs per job; memory never binds (each job
    1 MB on 16 GB GPUs), so the placement does not wait.
    """
    rng = rng_from(seed)
    n_jobs = check_size(n_jobs, "n_jobs", maximum=MAX_JOBS)
    n_servers = check_size(n_servers, "n_servers", maximum=MAX_GENERATED)
    gpus_per_server = check_size(gpus_per_server, "gpus_per_server", maximum=MAX_GENERATED)
    max_iterations = check_size(max_iterations, "max_iterations", maximum=MAX_GENERATED)
    max_arrival = check_size(max_arrival, "max_arrival", minimum=0, maximum=MAX_GENERATED)
    total = n_servers * gpus_per_server
    return ContentionInstance(
        n_servers=n_servers,
        gpus_per_server=gpus_per_server,
        gpu_memory=V100_MEMORY_MB,
        a=1.0,
        b=1.0,
        eta=0.5,
        arrival=rng.integers(0, max_arrival + 1, size=n_jobs).astype(float),
        n_gpus=rng.integers(1, total + 1, size=n_jobs),
        iterations=rng.integers(1, max_iterations + 1, size=n_jobs),
        t_f=rng.integers(1, 3, size=n_jobs).astype(float),
        t_b=rng.integers(1, 3, size=n_jobs).astype(float),
        model_size=rng.integers(1, 4, size=n_jobs).astype(float),
        memory=np.ones(n_jobs),
        description="tiny integral instance for the time-indexed MILP",
    )
