"""Job placement of Section IV-A: LWF-kappa (Algorithm 1) and the baselines FF, LS, RAND.

Every placement function has the same signature::

    policy(free_memory, workload, gpus_per_server, n_gpus, memory) -> numpy.ndarray | None

``free_memory[g]`` is the memory left on GPU ``g`` (global index, server-major),
``workload[g]`` its remaining workload ``L_{g_{i,j}}`` (seconds of GPU work of the jobs
placed on it); the function returns the sorted GPU indices chosen for a job that needs
``n_gpus`` GPUs with ``memory`` MB each, or ``None`` when no such set exists now (the job
then waits in the queue).  Ties are broken by the GPU index, so every policy but RAND is
deterministic.

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Section IV-A and Algorithm 1.
G. L. Stavrinides, H. D. Karatza, "Scheduling multiple task graphs in heterogeneous
distributed real-time systems by exploiting schedule holes with bin packing techniques",
Simulation Modelling Practice and Theory 19(1), 2011 (FF and LS).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

from ..errors import ArgumentError
from ..inputs import check_choice, check_positive, check_seed, check_size, rng_from

__all__ = ["PLACEMENTS", "PlacementPolicy", "check_kappa", "lwf_kappa", "first_fit", "list_scheduling", "random_placement", "make_placement"]

#: The signature every placement function has (after binding kappa / rng).
PlacementPolicy = Callable[[np.ndarray, np.ndarray, int, int, float], "np.ndarray | None"]

#: The names :func:`make_placement` takes.
PLACEMENTS = ("lwf", "ff", "ls", "rand")


def _available(free_memory: np.ndarray, memory: float) -> np.ndarray:
    return np.flatnonzero(free_memory >= memory - 1e-9)


def _least_loaded(candidates: np.ndarray, workload: np.ndarray, n: int) -> np.ndarray:
    order = np.lexsort((candidates, workload[candidates]))  # by workload, then index
    return np.sort(candidates[order[:n]])


def _check_request(free_memory, workload, gpus_per_server, n_gpus, memory) -> int:
    """The GPUs' state and the request a placement function gets (ArgumentError naming the argument)."""
    for name, a in (("free_memory", free_memory), ("workload", workload)):  # no entry read: the claims ledger
        if not isinstance(a, np.ndarray) or a.ndim != 1:  # counts LWF's operations on arrays of counting numbers
            raise ArgumentError(f"{name} is {a!r:.60}; expected a 1-D numpy array of numbers, one per GPU")
    if workload.shape != free_memory.shape:
        raise ArgumentError(f"workload has shape {workload.shape}; expected {free_memory.shape} (one per GPU)")
    check_size(gpus_per_server, "gpus_per_server", maximum=max(free_memory.size, 1))
    if free_memory.size % gpus_per_server:
        raise ArgumentError(f"gpus_per_server is {gpus_per_server}; expected a divisor of the {free_memory.size} GPUs")
    check_positive(memory, "memory", allow_zero=True)
    return check_size(n_gpus, "n_gpus", maximum=free_memory.size)


def check_kappa(kappa: int) -> int:
    """Validate kappa of LWF-kappa (an integer >= 1; ArgumentError otherwise)."""
    if isinstance(kappa, bool) or not isinstance(kappa, (int, np.integer)) or kappa < 1:
        raise ArgumentError(f"kappa is {kappa!r}; expected an integer >= 1")
    return int(kappa)


def lwf_kappa(
    free_memory: np.ndarray, workload: np.ndarray, gpus_per_server: int, n_gpus: int, memory: float, *, kappa: int = 1
) -> np.ndarray | None:
    """LWF-kappa, least workload first with consolidation (Algorithm 1).

    If ``n_gpus <= kappa``: the ``n_gpus`` GPUs with enough free memory and the least
    workload (lines 2-9, as LS).  Otherwise (lines 10-21): servers sorted by their total
    remaining workload ``L_{S_i}``, within each server its GPUs with enough free memory by
    workload, concatenated; the first ``n_gpus`` of that list.

    Notes
    -----
    Line 11 names the top ``ceil(n / N_g)`` servers ``S_chosen`` but lines 13-15 loop over
    all servers; we read the loop as running over all servers in the sorted order, so that a
    job still finds GPUs when its first servers are short of memory (the first
    ``ceil(n / N_g)`` servers are used whenever they have room).  When ``n_gpus <= kappa``
    and too few GPUs are free the job waits (line 10 is then false and line 22 returns the
    empty set).
    """
    kappa = check_kappa(kappa)
    n_gpus = _check_request(free_memory, workload, gpus_per_server, n_gpus, memory)
    avail = _available(free_memory, memory)
    if avail.size < n_gpus:
        return None
    if n_gpus <= kappa:
        return _least_loaded(avail, workload, n_gpus)
    n_servers = free_memory.shape[0] // gpus_per_server
    server_load = workload.reshape(n_servers, gpus_per_server).sum(axis=1)
    order = np.lexsort((np.arange(n_servers), server_load))
    chosen: list[int] = []
    for s in order:
        gpus = np.arange(s * gpus_per_server, (s + 1) * gpus_per_server)
        gpus = gpus[free_memory[gpus] >= memory - 1e-9]
        gpus = gpus[np.lexsort((gpus, workload[gpus]))]
        chosen.extend(int(g) for g in gpus[: n_gpus - len(chosen)])
        if len(chosen) == n_gpus:
            return np.sort(np.asarray(chosen, dtype=np.int64))
    return None  # pragma: no cover - avail.size >= n_gpus guarantees a return above


def first_fit(
    free_memory: np.ndarray, workload: np.ndarray, gpus_per_server: int, n_gpus: int, memory: float
) -> np.ndarray | None:
    """First-Fit (FF): the first ``n_gpus`` GPUs, in index order, with enough free memory."""
    n_gpus = _check_request(free_memory, workload, gpus_per_server, n_gpus, memory)
    avail = _available(free_memory, memory)
    return avail[:n_gpus].astype(np.int64) if avail.size >= n_gpus else None


def list_scheduling(
    free_memory: np.ndarray, workload: np.ndarray, gpus_per_server: int, n_gpus: int, memory: float
) -> np.ndarray | None:
    """List-Scheduling (LS): the ``n_gpus`` GPUs with enough memory and the least workload."""
    n_gpus = _check_request(free_memory, workload, gpus_per_server, n_gpus, memory)
    avail = _available(free_memory, memory)
    return _least_loaded(avail, workload, n_gpus) if avail.size >= n_gpus else None


def random_placement(
    free_memory: np.ndarray,
    workload: np.ndarray,
    gpus_per_server: int,
    n_gpus: int,
    memory: float,
    *,
    rng: np.random.Generator,
) -> np.ndarray | None:
    """RAND: ``n_gpus`` GPUs drawn uniformly among those with enough free memory."""
    n_gpus = _check_request(free_memory, workload, gpus_per_server, n_gpus, memory)
    if not isinstance(rng, np.random.Generator):
        raise ArgumentError(f"rng is {rng!r}; expected a numpy.random.Generator (make_placement('rand', seed=...) "
                            "makes one)")
    avail = _available(free_memory, memory)
    if avail.size < n_gpus:
        return None
    return np.sort(rng.choice(avail, size=n_gpus, replace=False)).astype(np.int64)


def make_placement(name: str, *, kappa: int = 1, seed: int | np.random.Generator | None = None) -> PlacementPolicy:
    """A placement policy by name: "lwf" (LWF-kappa), "ff", "ls" or "rand" (seeded).

    Raises
    ------
    ArgumentError
        Any other name, a bad ``kappa`` or ``seed``.
    """
    check_choice(name, "name", PLACEMENTS)
    check_seed(seed)
    if name == "lwf":
        return partial(lwf_kappa, kappa=check_kappa(kappa))
    if name == "ff":
        return first_fit
    if name == "ls":
        return list_scheduling
    if name == "rand":
        return partial(random_placement, rng=rng_from(seed))
    raise ArgumentError(f"placement is {name!r}; expected one of 'lwf', 'ff', 'ls', 'rand'")
