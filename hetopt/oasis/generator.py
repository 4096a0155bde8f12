"""Instance generator of Section V-A (simulation settings) and the Fig. 5 setting.

Settings taken from the paper: H worker servers and K PS servers; server bandwidth in
[20, 50] Gbps; per worker 0-4 GPUs, 1-10 vCPUs, 2-32 GB memory, 5-10 GB storage, b_i in
[0.1, 5] Gbps; per PS 1-10 vCPUs, 2-32 GB, 5-10 GB, B_i in [5, 20] Gbps; E_i in [50, 200],
N_i in [5, 100], M_i in [10, 100], e_i in [30, 575] MB; sigmoid utilities with gamma1 in
the priority range ([1, 100] by default), gamma3 in [1, 15] and gamma2 = 0 / [0.01, 1] /
[4, 6] for 10% / 55% / 35% time-insensitive / -sensitive / -critical jobs.

Decisions where the paper is silent or inconsistent (recorded in ``models/oasis2018.md``):

* Server types: the text puts workers on EC2 C4 and PSs on P2/G3, the reverse of Section
  III-A (workers on GPU servers, PSs without GPU); we follow III-A: worker servers are drawn
  from p2.8xlarge, p2.16xlarge, g3.8xlarge, g3.16xlarge (GPUs, vCPUs, memory as listed by
  AWS) and PS servers from c4.4xlarge, c4.8xlarge (no GPU); storage 1000 GB per server.
* tau_i: read as a mini-batch time in [0.001, 0.1] slots, a job would need at least
  E_i M_i tau_i ~ 300 slots (median), inconsistent with T = 100-300 and gamma3 in [1, 15].
  We read the range as the compute time of one *chunk* (M_i mini-batches): tau_i is drawn
  as U[0.001, 0.1] / M_i.  Transfers use a slot of ``slot_hours`` (1 h by default):
  e_i / b_i = 8e-3 e_MB / (b_Gbps 3600 slot_hours) slots.
* Fig. 5 instances (10 jobs, T = 10): with E_i in [50, 200] only about 2 of 10 jobs can
  finish within 10 slots at all, so both OASiS and the optimum admit 0-3 jobs; the paper does
  not state its Fig. 5 job sizes, and :func:`fig5_instance` draws E_i in [5, 20].
* Arrivals: the Google trace is not shipped; arrival slots are drawn i.i.d. in 1..T with a
  diurnal weight 1 + 0.5 sin(2 pi (t - 1) / 24) (slots of an hour), a synthetic stand-in.
"""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentError
from ..inputs import check_size, rng_from
from .instance import DEFAULT_RESOURCES, OasisInstance
from .utility import SigmoidUtility

__all__ = ["generate_instance", "fig5_instance", "fixed_counts", "WORKER_SERVER_TYPES", "PS_SERVER_TYPES"]

#: (name, GPUs, vCPUs, memory GB) of the worker server types (EC2 P2 / G3).
WORKER_SERVER_TYPES = (("p2.8xlarge", 8, 32, 488), ("p2.16xlarge", 16, 64, 732),
                       ("g3.8xlarge", 2, 32, 244), ("g3.16xlarge", 4, 64, 488))
#: (name, GPUs, vCPUs, memory GB) of the PS server types (EC2 C4).
PS_SERVER_TYPES = (("c4.4xlarge", 0, 16, 30), ("c4.8xlarge", 0, 36, 60))
_STORAGE_GB = 1000.0


def _servers(rng: np.random.Generator, n: int, types, resources) -> np.ndarray:
    pick = rng.integers(0, len(types), size=n)
    full = {"gpu": np.array([types[j][1] for j in pick], float), "cpu": np.array([types[j][2] for j in pick], float),
            "memory": np.array([types[j][3] for j in pick], float), "storage": np.full(n, _STORAGE_GB),
            "bandwidth": np.round(rng.uniform(20.0, 50.0, size=n), 2)}
    return np.column_stack([full[r] for r in resources])


def generate_instance(n_jobs: int, horizon: int, n_worker_servers: int = 50, n_ps_servers: int = 50,
                      *, seed: int | np.random.Generator | None = None, resources: tuple[str, ...] = DEFAULT_RESOURCES,
                      priority_range: tuple[float, float] = (1.0, 100.0), class_mix: tuple[float, float, float] = (0.10, 0.55, 0.35),
                      slot_hours: float = 1.0, epochs_range: tuple[int, int] = (50, 200),
                      chunks_range: tuple[int, int] = (5, 100), minibatches_range: tuple[int, int] = (10, 100)) -> OasisInstance:
    """A random instance following Section V-A (see the module docstring for our readings).

    Parameters
    ----------
    n_jobs, horizon, n_worker_servers, n_ps_servers : int
        I, T, H, K (the paper: T = 100-300, H = K = 50).
    seed : int, Generator or None
    resources : tuple of str
        A subset of ("gpu", "cpu", "memory", "storage", "bandwidth") containing "bandwidth".
    priority_range : (float, float)
        Range of gamma1.
    class_mix : 3 floats
        Fractions of time-insensitive, -sensitive and -critical jobs.
    slot_hours : float
        Slot length, used to convert gradient transfer times to slots.
    epochs_range, chunks_range, minibatches_range : (int, int)
        Ranges of E_i, N_i, M_i (the paper's by default; smaller ones for quick tests).
    """
    for name, v in (("n_jobs", n_jobs), ("horizon", horizon), ("n_worker_servers", n_worker_servers), ("n_ps_servers", n_ps_servers)):
        check_size(v, name)
    unknown = set(resources) - set(DEFAULT_RESOURCES)
    if unknown or "bandwidth" not in resources:
        raise ArgumentError(f"resources is {resources!r}; expected a subset of {DEFAULT_RESOURCES} containing 'bandwidth'")
    mix = np.asarray(class_mix, float)
    if mix.shape != (3,) or np.any(mix < 0) or not np.isclose(mix.sum(), 1.0):
        raise ArgumentError(f"class_mix is {class_mix!r}; expected three non-negative fractions summing to 1")
    rng = rng_from(seed)
    I, T = int(n_jobs), int(horizon)
    wcap = _servers(rng, n_worker_servers, WORKER_SERVER_TYPES, resources)
    pcap = _servers(rng, n_ps_servers, PS_SERVER_TYPES, resources)
    slots = np.arange(1, T + 1)
    weight = 1.0 + 0.5 * np.sin(2 * np.pi * (slots - 1) / 24.0)
    arrival = np.sort(rng.choice(slots, size=I, p=weight / weight.sum()))
    E = rng.integers(epochs_range[0], epochs_range[1] + 1, size=I)
    N = rng.integers(chunks_range[0], chunks_range[1] + 1, size=I)
    M = rng.integers(minibatches_range[0], minibatches_range[1] + 1, size=I)
    tau = np.round(rng.uniform(0.001, 0.1, size=I), 4) / M
    b = np.round(rng.uniform(0.1, 5.0, size=I), 2)
    B = np.round(rng.uniform(5.0, 20.0, size=I), 2)
    e_mb = np.round(rng.uniform(30.0, 575.0, size=I), 1)
    e = e_mb * 8e-3 / (3600.0 * slot_hours)  # Gb x slot: e / b (Gbps) is in slots
    wfull = {"gpu": rng.integers(0, 5, size=I).astype(float), "cpu": rng.integers(1, 11, size=I).astype(float),
             "memory": rng.integers(2, 33, size=I).astype(float), "storage": rng.integers(5, 11, size=I).astype(float),
             "bandwidth": b}
    sfull = {"gpu": np.zeros(I), "cpu": rng.integers(1, 11, size=I).astype(float),
             "memory": rng.integers(2, 33, size=I).astype(float), "storage": rng.integers(5, 11, size=I).astype(float),
             "bandwidth": B}
    cls = rng.choice(3, size=I, p=mix)
    g1 = np.round(rng.uniform(priority_range[0], priority_range[1], size=I), 3)
    g3 = np.round(rng.uniform(1.0, 15.0, size=I), 3)
    g2 = np.where(cls == 0, 0.0, np.where(cls == 1, rng.uniform(0.01, 1.0, size=I), rng.uniform(4.0, 6.0, size=I)))
    utility = [SigmoidUtility(float(g1[i]), float(np.round(g2[i], 4)), float(g3[i])) for i in range(I)]
    return OasisInstance(
        horizon=T, worker_capacity=wcap, ps_capacity=pcap, arrival=arrival, epochs=E, chunks=N, minibatches=M,
        minibatch_time=tau, gradient_size=e, worker_demand=np.column_stack([wfull[r] for r in resources]),
        ps_demand=np.column_stack([sfull[r] for r in resources]), utility=utility, resource_names=tuple(resources))


def fig5_instance(*, seed: int | np.random.Generator | None = None, n_servers: int = 40,
                  priority_range: tuple[float, float] = (1.0, 100.0), n_jobs: int = 10, horizon: int = 10,
                  resources: tuple[str, ...] = ("gpu", "cpu", "bandwidth"),
                  epochs_range: tuple[int, int] = (5, 20)) -> OasisInstance:
    """The Fig. 5 setting: 10 jobs, T = 10, ``n_servers`` split evenly between workers and PSs.

    R = 3 (GPU, CPU, bandwidth) and E_i in [5, 20] by default (see the module docstring).
    """
    check_size(n_servers, "n_servers", minimum=2)
    return generate_instance(n_jobs, horizon, n_servers // 2, n_servers - n_servers // 2, seed=seed,
                             resources=resources, priority_range=priority_range, epochs_range=epochs_range)


def fixed_counts(inst: OasisInstance, *, seed: int | np.random.Generator | None = 0, low: int = 1, high: int = 30) -> np.ndarray:
    """Per-job fixed worker counts of FIFO and RRH: uniform in [low, high], capped at N_i (3)."""
    rng = rng_from(seed)
    return np.minimum(rng.integers(low, high + 1, size=inst.n_jobs), inst.chunks).astype(np.int64)
