"""Instance generators following Section VI-A of Liu et al. 2024.

Cluster: GPU types in ratio 1:1:1 (assigned round-robin over the workers), 5 GPUs per node,
300 Gbps inside a node, 10 Gbps between nodes.  Jobs: the models of Table III (dataset size,
epochs) with S = 4 by default.  Two workloads (``setting``):

``"paper"`` (default): the paper's setting as far as it is published.
    GPU types V100, P100, T4; the *first* ``n_jobs`` Table III jobs (ResNet101, ResNet18, VGG19,
    AlexNet for S = 4); model sizes D_i of the torchvision architectures (``PAPER_MODEL_SIZE``);
    per-type throughputs ``PAPER_THROUGHPUT`` built as follows.  The paper publishes four
    throughputs (Table II / eq. (9)): ResNet-18 T4 275, V100 644 and VGG-19 T4 884, V100 1,754
    samples/s; they are used as printed.  Every other number is derived from Gavel's measured
    throughputs (``hetopt.data.gavel_throughputs()``, MIT licence) and marked as such: P100 =
    V100 x Gavel's P100/V100 ratio of the closest Gavel job; V100 and P100 of ResNet101, AlexNet and
    Transformer are Gavel's samples/s of their proxies; their T4 is V100 x 0.466, the mean T4/V100
    ratio of the two published jobs.  Finally the speedups are compressed to the paper's stated
    heterogeneity degree H = 1.15 (eq. (35), Section VI-B "Impact of Heterogeneity Degree") with
    the ``heterogeneity`` knob: the published throughputs alone give H of about 1.6 at 1:1:1
    (and at least 1.35 whatever P100 is), so the paper's full throughput matrix, which is not
    published, must differ from them; ``heterogeneity=None`` keeps the numbers uncompressed.
``"gavel"``: the workload hetopt used before (kept for comparison).
    Gavel's measured V100/P100/K80 throughputs of the closest Gavel job of each model, a random
    choice of ``n_jobs`` distinct models (by ``seed``), CIFAR-variant model sizes
    (``TABLE_III[...]["parameters"]``).  Its heterogeneity degree is about 3.6-4.5.

The heterogeneity knob.  ``heterogeneity=H`` rescales every job's speedups over its slowest GPU
type by a common exponent lambda, rho_{i,t} = rho_{i,min} (rho_{i,t} / rho_{i,min})^lambda, with
lambda found by bisection so that eq. (35) of the generated cluster equals H (lambda = 0 gives
identical workers, H = 1).  The ordering of the types per job is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..data import gavel_throughputs
from ..errors import ArgumentError, InstanceError
from ..inputs import (
    MAX_GENERATED,
    check_choice,
    check_flag,
    check_positive,
    check_size,
    numeric_array,
    rng_from,
    takes_instance,
)
from .instance import PlacementInstance

__all__ = ["TABLE_III", "GPU_TYPES", "PAPER_GPU_TYPES", "PAPER_PUBLISHED", "PAPER_PARAMETERS", "PAPER_HETEROGENEITY",
           "SETTINGS", "paper_throughputs", "scale_heterogeneity", "job_throughputs", "generate_instance", "perturb_throughput", "INTRA_NODE_RATE", "INTER_NODE_RATE"]

#: 300 Gbps and 10 Gbps in bytes/s (Section VI-A).
INTRA_NODE_RATE = 300e9 / 8
INTER_NODE_RATE = 10e9 / 8
GPU_TYPES = ("v100", "p100", "k80")

#: Table III (model, dataset size, epochs) with the throughput proxy and model size used here.
TABLE_III: dict[str, dict[str, Any]] = {
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
        raise ArgumentError(f"model is {model!r}; expected one of {list(TABLE_III)}")
    spec = TABLE_III[model]
    for e in gavel_throughputs()["entries"]:
        if e["job_type"] == spec["gavel_job"] and e["scale_factor"] == 1:
            return np.array([e["iterations_per_second"][g] for g in GPU_TYPES]) * spec["batch"]
    raise InstanceError(f"Gavel table has no entry {spec['gavel_job']!r}")  # pragma: no cover


def _gavel_samples(job_type: str, batch: int) -> np.ndarray:
    for e in gavel_throughputs()["entries"]:
        if e["job_type"] == job_type and e["scale_factor"] == 1:
            return np.array([e["iterations_per_second"][g] for g in GPU_TYPES]) * batch
    raise InstanceError(f"Gavel table has no entry {job_type!r}")  # pragma: no cover


#: The four throughputs the paper publishes (Table II, samples/s): model -> {type: value}.
PAPER_PUBLISHED = {"ResNet18": {"v100": 644.0, "t4": 275.0}, "VGG19": {"v100": 1754.0, "t4": 884.0}}
#: Mean T4/V100 ratio of the two published jobs (used for the T4 of the other jobs).
T4_OVER_V100 = float(np.mean([v["t4"] / v["v100"] for v in PAPER_PUBLISHED.values()]))

#: Parameters of the torchvision architectures (resnet101, resnet18, vgg19, alexnet with their
#: ImageNet heads) and of the PyTorch word-language-model Transformer example (33,278-token
#: WikiText-2 vocabulary, 200-dim embeddings, 2 layers: 13.8 M); D_i = 4 bytes per parameter.
PAPER_PARAMETERS = {"ResNet101": 44_549_160, "ResNet18": 11_689_512, "VGG19": 143_667_240, "AlexNet": 61_100_840,
                    "Transformer": 13_828_478}
PAPER_GPU_TYPES = ("v100", "p100", "t4")
SETTINGS = ("paper", "gavel")
#: The heterogeneity degree of the paper's default setting (Section VI-B).
PAPER_HETEROGENEITY = 1.15


def paper_throughputs(model: str) -> np.ndarray:
    """Samples/s of a Table III model on (V100, P100, T4) in the ``"paper"`` setting.

    Before the heterogeneity knob: the paper's published values where given, Gavel-derived otherwise.
    """
    if model not in TABLE_III:
        raise ArgumentError(f"model is {model!r}; expected one of {list(TABLE_III)}")
    g = job_throughputs(model)  # Gavel (V100, P100, K80) of the proxy
    pub = PAPER_PUBLISHED.get(model)
    v100 = pub["v100"] if pub else g[0]
    t4 = pub["t4"] if pub else g[0] * T4_OVER_V100
    return np.array([v100, v100 * g[1] / g[0], t4])


def _heterogeneity(per_type: np.ndarray, types: np.ndarray) -> float:
    col = per_type[:, types].sum(axis=0)
    return float(col.sum() / (len(types) * col.min()))


def scale_heterogeneity(per_type: np.ndarray, types: np.ndarray, target: float) -> np.ndarray:
    """Rescale per-type throughputs (S x T) so that eq. (35) over the workers ``types`` is ``target``.

    rho_{i,t} = m_i (rho_{i,t} / m_i)^lambda with m_i = min_t rho_{i,t} over the types present;
    lambda >= 0 by bisection.  Raises ``ArgumentError`` when ``target`` is below 1 or above what
    lambda <= 64 reaches.
    """
    try:
        per_type = numeric_array("per_type", per_type)
        types = numeric_array("types", types, integer=True)
    except InstanceError as exc:
        raise ArgumentError(str(exc)) from None
    if per_type.ndim != 2 or per_type.size == 0 or not (np.isfinite(per_type).all() and (per_type > 0).all()):
        raise ArgumentError(f"per_type has shape {per_type.shape}; expected a finite, positive (S, T) array of throughputs")
    if types.ndim != 1 or types.size == 0 or types.min() < 0 or types.max() >= per_type.shape[1]:
        raise ArgumentError(f"types is {types.tolist()!r:.80}; expected the type (0..{per_type.shape[1] - 1}) of every worker")
    present = np.unique(types)
    m = per_type[:, present].min(axis=1, keepdims=True)
    ratio = per_type / m

    def at(lam: float) -> np.ndarray:
        return m * ratio ** lam

    if not (isinstance(target, (int, float, np.integer, np.floating)) and not isinstance(target, (bool, np.bool_))
            and target >= 1):
        raise ArgumentError(f"heterogeneity (target) is {target!r}; expected a number >= 1 (eq. (35); 1 = identical workers)")
    lo, hi = 0.0, 64.0
    if _heterogeneity(at(hi), types) < target:
        raise ArgumentError(f"target (heterogeneity) {target} is not reachable for these jobs and type_ratio "
                            f"(at most {_heterogeneity(at(hi), types):.3g})")
    for _ in range(100):
        mid = (lo + hi) / 2
        if _heterogeneity(at(mid), types) < target:
            lo = mid
        else:
            hi = mid
    return at((lo + hi) / 2)


_DEFAULT: Any = object()


def _noise(epsilon: Any) -> float:
    """Throughput noise in [0, 1); ArgumentError naming ``epsilon`` otherwise."""
    v = check_positive(epsilon, "epsilon", allow_zero=True)
    if v >= 1:
        raise ArgumentError(f"epsilon is {epsilon!r}; expected a number in [0, 1)")
    return v


def generate_instance(*, n_jobs: int = 4, n_workers: int = 15, seed: int | np.random.Generator | None = None,
                      setting: str = "paper",
                      jobs: Sequence[str] | None = None, type_ratio: Sequence[int] = (1, 1, 1), gpus_per_node: int = 5,
                      communication: bool = True, epsilon: float = 0.0, heterogeneity: Any = _DEFAULT) -> PlacementInstance:
    """An instance of Section VI-A (see the module docstring for the two settings and sources).

    Parameters
    ----------
    n_jobs, n_workers : int
        S and K (K >= S).
    seed : int, numpy.random.Generator or None
        ``"gavel"``: chooses the jobs (S distinct Table III models when S <= 5, with repetition
        beyond) and the noise ``epsilon``.  ``"paper"``: the noise only (the jobs are fixed).
    setting : {"paper", "gavel"}
        The workload (default ``"paper"``, Section VI-A as published; ``"gavel"`` is hetopt's
        earlier measured-throughput workload).
    jobs : sequence of str, optional
        Table III models to use instead of the setting's choice.
    type_ratio : three ints
        Ratio of the three GPU types (V100 : P100 : T4, or V100 : P100 : K80 for ``"gavel"``;
        default 1:1:1); types are laid out round-robin in proportion, so every node mixes types.
    gpus_per_node : int
        Workers per node (default 5).
    communication : bool
        Model the Ring-AllReduce term (model sizes and link rates); False gives the paper's
        computation-only setting of Table II.
    epsilon : float in [0, 1)
        Throughput noise: each rho_{i,k} is multiplied by U[1 - epsilon, 1 + epsilon] per (job,
        GPU type), so workers of one type stay identical.
    heterogeneity : float >= 1 or None
        Target heterogeneity degree H of eq. (35) (the knob of Fig. 14), applied after the noise;
        None keeps the throughputs as built.  Default: 1.15 for ``"paper"``, None for ``"gavel"``.
    """
    rng = rng_from(seed)
    check_choice(setting, "setting", SETTINGS)
    n_jobs = check_size(n_jobs, "n_jobs", maximum=MAX_GENERATED)
    n_workers = check_size(n_workers, "n_workers", minimum=n_jobs, maximum=MAX_GENERATED)
    gpus_per_node = check_size(gpus_per_node, "gpus_per_node", maximum=MAX_GENERATED)
    communication = check_flag(communication, "communication")
    try:
        ratio = np.asarray(type_ratio)
    except (TypeError, ValueError, OverflowError):  # ragged
        ratio = np.zeros(0)
    if ratio.shape != (3,) or ratio.dtype.kind not in "iu" or (ratio < 0).any() or ratio.sum() == 0:
        raise ArgumentError(f"type_ratio is {type_ratio!r}; expected three non-negative integers, not all zero")
    epsilon = _noise(epsilon)
    if heterogeneity is _DEFAULT:
        heterogeneity = PAPER_HETEROGENEITY if setting == "paper" else None
    names = list(TABLE_III)
    if jobs is None:
        if setting == "paper":
            jobs = [names[j % len(names)] for j in range(n_jobs)]
        else:
            jobs = [str(j) for j in rng.choice(names, size=n_jobs, replace=n_jobs > len(names))]
    if isinstance(jobs, (str, bytes)) or not isinstance(jobs, (Sequence, np.ndarray)):
        raise ArgumentError(f"jobs is {jobs!r}; expected a sequence of {n_jobs} Table III model names")
    jobs = list(jobs)
    if len(jobs) != n_jobs:
        raise ArgumentError(f"jobs has {len(jobs)} entries; expected n_jobs={n_jobs}")
    for j in jobs:
        if not isinstance(j, str) or j not in TABLE_III:
            raise ArgumentError(f"jobs contains {j!r}; expected Table III models {list(TABLE_III)}")
    pattern = np.repeat(np.arange(3), ratio)
    types = pattern[np.arange(n_workers) % len(pattern)]
    if setting == "paper":
        per_type = np.array([paper_throughputs(j) for j in jobs])  # S x 3
        gpu_types, sizes = PAPER_GPU_TYPES, [PAPER_PARAMETERS[j] * 4 for j in jobs]
    else:
        per_type = np.array([job_throughputs(j) for j in jobs])
        gpu_types, sizes = GPU_TYPES, [TABLE_III[j]["parameters"] * 4 for j in jobs]
    if epsilon > 0:
        per_type = per_type * rng.uniform(1 - epsilon, 1 + epsilon, size=per_type.shape)
    if heterogeneity is not None:
        per_type = scale_heterogeneity(per_type, types, heterogeneity)
    rho = per_type[:, types]
    counts: dict[str, int] = {}
    job_names = []
    for j in jobs:
        counts[j] = counts.get(j, 0) + 1
        job_names.append(j if jobs.count(j) == 1 else f"{j}#{counts[j]}")
    comm: dict[str, Any] = {}
    if communication:
        comm = {"model_size": np.asarray(sizes), "worker_node": np.arange(n_workers) // gpus_per_node,
                "intra_node_rate": INTRA_NODE_RATE, "inter_node_rate": INTER_NODE_RATE}
    return PlacementInstance(throughput=rho, dataset_size=np.asarray([TABLE_III[j]["dataset_size"] for j in jobs]),
                             epochs=np.asarray([TABLE_III[j]["epochs"] for j in jobs]), job_names=tuple(job_names),
                             worker_names=tuple(f"{gpu_types[t]}-{k}" for k, t in enumerate(types)), **comm)


@takes_instance(PlacementInstance)
def perturb_throughput(inst: PlacementInstance, epsilon: float, *, seed: Any = None) -> PlacementInstance:
    """The throughput the scheduler predicts under prediction error epsilon (Fig. 15).

    Every rho_{i,k} is drawn uniformly from [(1 - epsilon) rho*, (1 + epsilon) rho*]; decide on
    the returned instance and evaluate the decision on ``inst``.
    """
    epsilon = _noise(epsilon)
    rng = rng_from(seed)
    d = inst.to_dict()
    d["throughput"] = (inst.throughput * rng.uniform(1 - epsilon, 1 + epsilon, size=inst.throughput.shape)).tolist()
    return PlacementInstance.from_dict(d)
