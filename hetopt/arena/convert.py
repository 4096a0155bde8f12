"""Converters between the arena's :class:`Workload` and the papers' instances (``models/arena.md``, *Policies*).

Each paper's adapter (:mod:`hetopt.arena.paper_hadar` and the others) poses its scheduler's
problem on the paper's own instance, built here from the workload (or from the jobs present and
their remaining iterations), and each agreement test (``tests/arena/test_papers.py``) builds a
workload that fits the paper's model and checks that the arena decides as the paper's subpackage.

* :func:`to_hadar` -- Hadar (Sultana et al.): machines are the servers, ``X^r_j`` the gang's
  throughput over its ``W_j = scale_factor`` GPUs, one epoch of ``steps`` iterations, arrivals in
  slots of the round length, the effective-throughput utility.
* :func:`to_placement` -- Liu et al.: every GPU is a worker, ``rho_{i,k}`` the job's throughput per
  GPU of worker ``k``'s type, one epoch of ``remaining`` samples (one sample per iteration).
* :func:`to_hare` -- Hare (Chen et al.): every GPU is a GPU, a job is one training round of
  ``scale_factor`` tasks, each computing the job's remaining iterations at the gang's rate.
* :func:`to_oasis` -- OASiS (Bao et al.): the GPU types are the worker servers, a worker is a gang,
  slots of the round length (:mod:`hetopt.arena.paper_oasis`).
* :func:`from_contention` -- Wang et al.'s instance as a workload (homogeneous servers of equal size).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ArgumentError
from .workload import Workload

__all__ = ["to_hadar", "to_placement", "to_hare", "from_contention", "server_capacity", "gpu_servers"]


def server_capacity(w: Workload) -> np.ndarray:
    """``c^r_h``: GPUs of type ``r`` on server ``h``, int (S, R)."""
    cap = np.zeros((w.n_servers, w.n_types), dtype=np.int64)
    cap[np.arange(w.n_servers), w.server_type] = w.server_gpus
    return cap


def gpu_servers(w: Workload) -> np.ndarray:
    """The server of every GPU of the cluster, servers in order (int, ``capacity.sum()`` entries)."""
    return np.repeat(np.arange(w.n_servers), w.server_gpus)


def to_hadar(w: Workload, *, slot_length: float) -> Any:
    """The workload as a :class:`~hetopt.hadar.HadarInstance` (Hadar's Table I).

    ``c^r_h`` from the servers; ``a_j = floor(arrival / L)`` slots of ``L = slot_length``;
    ``W_j`` the scale factor; ``E_j = 1`` epoch of ``N_j = ceil(steps)`` iterations;
    ``X^r_j = throughput / scale_factor`` per GPU, so that a gang of ``W_j`` type-r GPUs runs at the
    workload's gang throughput (and a mixed gang at its slowest type's, (1b)); the utility is the
    effective throughput ``E_j N_j / tau`` (Hadar's example, Gavel's metric).
    """
    from ..hadar import HadarInstance, Utility

    if not slot_length > 0:
        raise ArgumentError(f"slot_length is {slot_length!r}; expected seconds > 0")
    return HadarInstance(capacity=server_capacity(w), arrival=np.floor(w.arrival / slot_length).astype(np.int64),
                         gpus=w.scale_factor.astype(np.int64), epochs=np.ones(w.n_jobs, dtype=np.int64),
                         iterations_per_epoch=np.maximum(np.ceil(w.steps), 1).astype(np.int64),
                         throughput=w.throughput / w.scale_factor[:, None], utility=Utility("effective_throughput"),
                         slot_length=float(slot_length), gpu_types=tuple(w.gpu_types),
                         job_names=tuple(f"{t} #{j}" for j, t in enumerate(w.job_type)),
                         description=f"arena workload as Hadar's instance: {w.description}", source=w.source)


def to_placement(w: Workload, jobs: Any, remaining: Any) -> Any:
    """Jobs of the workload as a :class:`~hetopt.placement.PlacementInstance` (Liu et al., Section III).

    Every GPU of the cluster is a worker (servers in order); ``rho_{i,k}`` is job ``i``'s throughput
    per GPU of worker ``k``'s type (``throughput / scale_factor``, iterations/s: one sample per
    iteration); ``|Pi_i|`` the job's ``remaining`` iterations and ``T_i = 1`` epoch; no
    communication (``model_size`` omitted), one node per server.  Liu et al. need every
    ``rho > 0``: a type where a job cannot run gets ``1e-9`` times its slowest positive rate.
    """
    from ..placement import PlacementInstance

    idx = np.asarray(jobs, dtype=np.int64)
    rem = np.asarray(remaining, dtype=float)
    per_gpu = w.throughput[idx] / w.scale_factor[idx, None]
    floor = np.where(per_gpu > 0, per_gpu, np.inf).min(axis=1, keepdims=True) * 1e-9
    rho = np.where(per_gpu > 0, per_gpu, floor)
    types = w.server_type[gpu_servers(w)]
    return PlacementInstance(throughput=rho[:, types], dataset_size=rem, epochs=np.ones(idx.size),
                             worker_node=gpu_servers(w), job_names=tuple(f"job{j}" for j in idx.tolist()),
                             worker_names=tuple(w.gpu_types[r] for r in types.tolist()))


def to_hare(w: Workload, jobs: Any, remaining: Any, *, arrival: Any = None) -> Any:
    """Jobs of the workload as a :class:`~hetopt.hare.HareInstance` at job level (one training round per job).

    Every GPU of the cluster is a GPU of Hare (servers in order); job ``n`` runs one round of
    ``scale_factor`` tasks, each computing for ``T^c_{n,m} = remaining / throughput`` on GPU ``m``'s
    type (the gang's time for the job's remaining iterations), with no synchronization time (the
    arena's throughputs include the gang's communication).  A type where the job cannot run gets
    ``1e6`` times the job's longest time (Hare needs ``T^c > 0``; the adapter never places a job
    there).  ``arrival`` (default 0 for every job): Hare's ``a_n``; weights are the workload's.
    """
    from ..hare import HareInstance

    idx = np.asarray(jobs, dtype=np.int64)
    rem = np.asarray(remaining, dtype=float)
    thr = w.throughput[idx]
    with np.errstate(divide="ignore"):
        t = np.where(thr > 0, rem[:, None] / np.where(thr > 0, thr, 1.0), np.inf)
    worst = np.where(np.isfinite(t), t, 0.0).max(axis=1, keepdims=True) * 1e6
    t = np.where(np.isfinite(t), t, worst)
    types = w.server_type[gpu_servers(w)]
    a = np.zeros(idx.size) if arrival is None else np.asarray(arrival, dtype=float)
    return HareInstance(arrival=a, weight=w.weight[idx], rounds=np.ones(idx.size, dtype=np.int64),
                        tasks_per_round=w.scale_factor[idx].astype(np.int64), compute_time=t[:, types],
                        sync_time=np.zeros((idx.size, types.size)),
                        gpu_names=tuple(f"{w.gpu_types[r]}#{g}" for g, r in enumerate(types.tolist())),
                        job_names=tuple(f"job{j}" for j in idx.tolist()))


def from_contention(inst: Any, *, gpu_type: str = "v100") -> Workload:
    """A :class:`~hetopt.contention.ContentionInstance` as a workload (Wang et al.'s cluster is homogeneous).

    Servers of ``gpus_per_server`` GPUs of one type, links of ``0.008 / b`` Gbit/s (``b`` s/MB),
    each job a gang of ``n_gpus`` GPUs running ``1 / (t_f + t_b)`` iterations/s (the iteration's
    compute; the all-reduce of a gang spread over servers is the contention penalty's, its
    contention-free time ``a + b model_size`` is not added), ``iterations`` steps, its model size.
    GPU memory is dropped: a GPU holds one job (:class:`~hetopt.arena.paper_wang.AdaSRSF`).
    """
    from ..contention import ContentionInstance

    if not isinstance(inst, ContentionInstance):
        raise ArgumentError(f"inst is {type(inst).__name__}; expected a ContentionInstance")
    S = int(inst.n_servers)
    return Workload((gpu_type,), np.zeros(S, dtype=np.int64), np.full(S, int(inst.gpus_per_server)),
                    np.full(S, 0.008 / float(inst.b)), tuple(n or f"job{k}" for k, n in enumerate(inst.names or ())),
                    inst.arrival, inst.n_gpus, inst.iterations.astype(float), np.ones(inst.n_jobs),
                    (1.0 / (inst.t_f + inst.t_b))[:, None], inst.model_size,
                    description=f"Wang et al.'s instance as an arena workload: {inst.description}", source=inst.source)
