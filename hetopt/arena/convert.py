"""Converters between the arena's :class:`Workload` and the papers' instances (``models/arena.md``, *Policies*).

Each paper's adapter (``hetopt.arena.paper_*``) poses its scheduler's problem on the paper's own
instance built here (from the workload, or the jobs present); ``tests/arena/test_paper_*.py`` check both.

* :func:`to_hadar` -- Hadar (Sultana et al.): machines are the servers, ``X^r_j`` the gang's
  throughput over its ``W_j = scale_factor`` GPUs, one epoch of ``steps`` iterations, arrivals in
  slots of the round length, the effective-throughput utility.
* :func:`to_placement` -- Liu et al.: every GPU is a worker, ``rho_{i,k}`` the job's throughput per
  GPU of worker ``k``'s type, one epoch of ``remaining`` samples (one sample per iteration).
* :func:`to_hare` -- Hare (Chen et al.): every GPU is a GPU, a job is one training round of
  ``scale_factor`` tasks, each computing the job's remaining iterations at the gang's rate.
* :func:`to_oasis` -- OASiS (Bao et al.): the GPU types are the worker servers, a worker is a gang,
  one worker per slot, a job's work in slots at a type's speed, a sigmoid utility of its slowdown.
* :func:`from_contention` -- Wang et al.'s instance as a workload (homogeneous servers of equal size).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ArgumentError
from .workload import Workload

__all__ = ["to_hadar", "to_placement", "to_hare", "to_oasis", "from_contention", "server_capacity", "gpu_servers",
           "oasis_slots"]


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


def oasis_slots(w: Workload, slot_length: float) -> np.ndarray:
    """Slots every job needs on every type (``ceil(steps / (throughput x slot_length))``; 0 where it cannot run)."""
    with np.errstate(divide="ignore"):
        need = np.where(w.throughput > 0, np.ceil(w.steps[:, None] / (w.throughput * slot_length) - 1e-9), 0)
    return np.maximum(need, np.where(w.throughput > 0, 1, 0)).astype(np.int64)


def to_oasis(w: Workload, *, slot_length: float, epochs: Any = None, horizon: int | None = None,
             target: float = 2.0, decay: float = 4.0) -> Any:
    """The workload as an :class:`~hetopt.oasis.OasisInstance` (Bao et al., Table I): types are worker servers.

    * Slots of ``slot_length`` seconds; job ``i`` arrives in slot ``floor(arrival / L) + 1``.
    * Worker server ``r`` is the pool of GPUs of type ``r`` (``gpu`` capacity ``c_r``); a worker of job ``i`` is
      its gang (``scale_factor`` GPUs, bandwidth 1); one parameter-server machine serves every worker (gpu 0,
      bandwidth ``C``; ``b_i = B_i = 1``): parameter servers never bind.
    * ``N_i = M_i = 1``, ``tau_i = 1`` slot, ``e_i = 0``: at most one worker (gang) per slot, and ``E_i`` slots of
      work (``epochs``; default: the slots at the job's fastest type, :func:`oasis_slots`).
    * ``f_i(d) = w_i / (1 + exp(gamma_2 (d - gamma_3)))``: the sigmoid of Section V-A on the completion offset,
      ``gamma_3 = target x`` the job's slots at its fastest type, ``gamma_2 = decay / gamma_3``.
    * ``horizon`` (default): the last arrival slot plus the slots the cluster needs for all the work at the fastest
      types, plus the longest job's slots at its fastest type (so every job fits on its fastest type alone).
    """
    from ..oasis import OasisInstance
    from ..oasis.utility import SigmoidUtility

    if not slot_length > 0:
        raise ArgumentError(f"slot_length is {slot_length!r}; expected seconds > 0")
    slots = oasis_slots(w, slot_length)
    best = np.where(slots > 0, slots, np.iinfo(np.int64).max).min(axis=1)
    E = best if epochs is None else np.asarray(epochs, dtype=np.int64)
    arrival = np.floor(w.arrival / slot_length).astype(np.int64) + 1
    if horizon is None:
        C = float(w.capacity.sum())
        horizon = int(arrival.max() + np.ceil(float(np.sum(best * w.scale_factor)) / C) + best.max())
    cap = w.capacity.astype(float)
    g3 = target * best.astype(float)
    util = [SigmoidUtility(float(w.weight[i]), float(decay / g3[i]), float(g3[i])) for i in range(w.n_jobs)]
    ones = np.ones(w.n_jobs)
    return OasisInstance(horizon=int(horizon), worker_capacity=np.column_stack([cap, cap]),
                         ps_capacity=np.array([[0.0, cap.sum()]]), arrival=arrival, epochs=E,
                         chunks=np.ones(w.n_jobs, dtype=np.int64), minibatches=np.ones(w.n_jobs, dtype=np.int64),
                         minibatch_time=ones, gradient_size=np.zeros(w.n_jobs),
                         worker_demand=np.column_stack([w.scale_factor.astype(float), ones]),
                         ps_demand=np.column_stack([np.zeros(w.n_jobs), ones]), utility=util,
                         resource_names=("gpu", "bandwidth"),
                         description=f"arena workload as OASiS's instance: {w.description}", source=w.source)
