"""Instance generators following Section VI-A of Liu et al. 2024.

Cluster: GPU types in ratio 1:1:1 (assigned round-robin over the workers), 5 GPUs per node,
300 Gbps inside a node, 10 Gbps between nodes.  Jobs: the five models of Table III (dataset size,
epochs) with S = 4 by default.

Throughput source.  The paper's per-GPU throughputs (V100, P100, T4) are not published beyond
the four values of its motivating example, and Table III gives dataset sizes and epochs only.
The generator therefore uses *real measured* throughputs from the Gavel scheduler's repository
(``hetopt.data.gavel_throughputs()``: isolated iterations/s on V100, P100 and K80, MIT licence),
converted to samples/s by the batch size, for the closest Gavel job type of each Table III model
(``TABLE_III[...]["gavel_job"]``; VGG-19 and AlexNet have no Gavel measurement and use the
ResNet-18 measurements at batch sizes 128 and 256 as proxies).  The GPU types are thus V100,
P100 and K80 instead of V100, P100 and T4.  Model sizes D_i are the parameter counts of the
reference architectures times 4 bytes (fp32 gradients).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..data import gavel_throughputs
from ..errors import InstanceError
from .instance import PlacementInstance

__all__ = ["TABLE_III", "GPU_TYPES", "job_throughputs", "generate_instance", "perturb_throughput", "INTRA_NODE_RATE", "INTER_NODE_RATE"]

#: 300 Gbps and 10 Gbps in bytes/s (Section VI-A).
INTRA_NODE_RATE = 300e9 / 8
INTER_NODE_RATE = 10e9 / 8
GPU_TYPES = ("v100", "p100", "k80")

#: Table III (model, dataset size, epochs) with the throughput proxy and model size used here.
TABLE_III = {
    "ResNet101": {"dataset": "CIFAR-10", "dataset_size": 50_000, "epochs": 200, "gavel_job": "ResNet-50 (batch size 64)",
                  "batch": 64, "parameters": 44.5e6},
    "ResNet18": {"dataset": "Tiny ImageNet", "dataset_size": 100_000, "epochs": 200, "gavel_job": "ResNet-18 (batch size 64)",
                 "batch": 64, "parameters": 11.7e6},
    "VGG19": {"dataset": "CIFAR-10", "dataset_size": 50_000, "epochs": 200, "gavel_job": "ResNet-18 (batch size 128)",
              "batch": 128, "parameters": 20.0e6},
    "AlexNet": {"dataset": "CIFAR-10", "dataset_size": 50_000, "epochs": 100, "gavel_job": "ResNet-18 (batch size 256)",
                "batch": 256, "parameters": 2.5e6},
    "Transformer": {"dataset": "WikiText-2", "dataset_size": 36_718, "epochs": 3, "gavel_job": "Transformer (batch size 64)",
                    "batch": 64, "parameters": 44.0e6},
}


def job_throughputs(model: str) -> np.ndarray:
    """Samples/s of a Table III model on (V100, P100, K80): Gavel iterations/s x batch size."""
    if model not in TABLE_III:
        raise InstanceError(f"model is {model!r}; expected one of {list(TABLE_III)}")
    spec = TABLE_III[model]
    for e in gavel_throughputs()["entries"]:
        if e["job_type"] == spec["gavel_job"] and e["scale_factor"] == 1:
            return np.array([e["iterations_per_second"][g] for g in GPU_TYPES]) * spec["batch"]
    raise InstanceError(f"Gavel table has no entry {spec['gavel_job']!r}")  # pragma: no cover


def generate_instance(n_jobs: int = 4, n_workers: int = 15, seed=None, *, jobs: Sequence[str] | None = None,
                      type_ratio: Sequence[int] = (1, 1, 1), gpus_per_node: int = 5, communication: bool = True,
                      epsilon: float = 0.0) -> PlacementInstance:
    """A random instance of Section VI-A.

    Parameters
    ----------
    n_jobs, n_workers : int
        S and K (K >= S).
    seed : int, numpy.random.Generator or None
        Chooses the jobs (S distinct Table III models when S <= 5, with repetition beyond) and the
        measurement noise ``epsilon``.
    jobs : sequence of str, optional
        Table III models to use instead of a random choice.
    type_ratio : three ints
        Ratio of V100 : P100 : K80 workers (default 1:1:1); types are laid out round-robin in
        proportion, so every node mixes types.
    gpus_per_node : int
        Workers per node (default 5).
    communication : bool
        Model the Ring-AllReduce term (model sizes and link rates); False reproduces the paper's
        computation-only setting of Table II.
    epsilon : float in [0, 1)
        Throughput noise: each rho_{i,k} is multiplied by U[1 - epsilon, 1 + epsilon] per (job,
        GPU type), so workers of one type stay identical.
    """
    rng = np.random.default_rng(seed)
    if not isinstance(n_workers, int) or not isinstance(n_jobs, int) or n_jobs < 1 or n_workers < n_jobs:
        raise InstanceError(f"need integers 1 <= n_jobs <= n_workers; got n_jobs={n_jobs!r}, n_workers={n_workers!r}")
    if not (isinstance(gpus_per_node, int) and gpus_per_node >= 1):
        raise InstanceError(f"gpus_per_node is {gpus_per_node!r}; expected a positive integer")
    ratio = np.asarray(type_ratio, dtype=int)
    if ratio.shape != (3,) or (ratio < 0).any() or ratio.sum() == 0:
        raise InstanceError(f"type_ratio is {type_ratio!r}; expected three non-negative integers, not all zero")
    if not (0 <= epsilon < 1):
        raise InstanceError(f"epsilon is {epsilon!r}; expected a number in [0, 1)")
    names = list(TABLE_III)
    if jobs is None:
        jobs = [str(j) for j in rng.choice(names, size=n_jobs, replace=n_jobs > len(names))]
    jobs = list(jobs)
    if len(jobs) != n_jobs:
        raise InstanceError(f"jobs has {len(jobs)} entries; expected n_jobs={n_jobs}")
    pattern = np.repeat(np.arange(3), ratio)
    types = pattern[np.arange(n_workers) % len(pattern)]
    per_type = np.array([job_throughputs(j) for j in jobs])  # S x 3
    if epsilon > 0:
        per_type = per_type * rng.uniform(1 - epsilon, 1 + epsilon, size=per_type.shape)
    rho = per_type[:, types]
    counts: dict[str, int] = {}
    job_names = []
    for j in jobs:
        counts[j] = counts.get(j, 0) + 1
        job_names.append(j if jobs.count(j) == 1 else f"{j}#{counts[j]}")
    kw = {}
    if communication:
        kw = dict(model_size=[TABLE_III[j]["parameters"] * 4 for j in jobs],
                  worker_node=(np.arange(n_workers) // gpus_per_node).tolist(),
                  intra_node_rate=INTRA_NODE_RATE, inter_node_rate=INTER_NODE_RATE)
    return PlacementInstance(throughput=rho, dataset_size=[TABLE_III[j]["dataset_size"] for j in jobs],
                             epochs=[TABLE_III[j]["epochs"] for j in jobs], job_names=job_names,
                             worker_names=[f"{GPU_TYPES[t]}-{k}" for k, t in enumerate(types)], **kw)


def perturb_throughput(inst: PlacementInstance, epsilon: float, seed=None) -> PlacementInstance:
    """The throughput the scheduler predicts under prediction error epsilon (Fig. 15).

    Every rho_{i,k} is drawn uniformly from [(1 - epsilon) rho*, (1 + epsilon) rho*]; decide on
    the returned instance and evaluate the decision on ``inst``.
    """
    if not (0 <= epsilon < 1):
        raise InstanceError(f"epsilon is {epsilon!r}; expected a number in [0, 1)")
    rng = np.random.default_rng(seed)
    d = inst.to_dict()
    d["throughput"] = (inst.throughput * rng.uniform(1 - epsilon, 1 + epsilon, size=inst.throughput.shape)).tolist()
    return PlacementInstance.from_dict(d)
