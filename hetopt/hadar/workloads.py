"""Workloads of Sultana et al.

The trace-driven setup (Section IV), the physical-cluster mixes M-1 ... M-12 (Section VI), the
motivating example (Section II-A), and eq. (10)'s initial throughput estimate of HadarE.

What is reconstructed is said in each docstring and in ``models/hadar2024.md``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..data import gavel_throughputs
from ..inputs import MAX_GENERATED, check_choice, check_positive, check_size, rng_from
from .instance import HadarInstance
from .utility import Utility

__all__ = ["trace_workload", "scaled_cluster", "physical_mix", "motivating_example", "estimate_throughput",
           "TABLE2_MODELS", "GPU_HOUR_CLASSES", "MIXES", "GAVEL_MODEL", "GAVEL_STANDIN", "SPEEDS", "GPU_SPECS", "MODEL_TRAITS"]

#: Table II: size class -> Gavel job types (model, dataset) of that class.
TABLE2_MODELS = {
    "S": ["ResNet-18 (batch size 64)"],            # ResNet-18 / CIFAR-10
    "M": ["CycleGAN"],                             # CycleGAN / Monet2photo
    "L": ["LM (batch size 20)", "Transformer (batch size 64)"],  # LSTM / Wikitext-2, Transformer / Multi30k
    "XL": ["ResNet-50 (batch size 64)"],           # ResNet-50 / ImageNet
}
#: Section IV-A: GPU-hour ranges of the four classes (Small, Medium, Large, XLarge).
GPU_HOUR_CLASSES = {"S": (0.0, 1.0), "M": (1.0, 10.0), "L": (10.0, 50.0), "XL": (60.0, 100.0)}
#: Gang sizes and their probabilities (Gavel's trace generator; the Microsoft trace's requests
#: are not in the paper).
GANG_SIZES, GANG_PROBS = (1, 2, 4, 8), (0.7, 0.1, 0.15, 0.05)


def _gavel_table() -> dict:
    """Gavel's measured throughputs: (job type, scale factor) -> {GPU type: iterations/s}."""
    out: dict = {}
    for e in gavel_throughputs()["entries"]:
        out[(e["job_type"], e["scale_factor"])] = e["iterations_per_second"]
    return out


def scaled_cluster(n_machines: int, gpus_per_machine: int = 4,
                   types: tuple[str, ...] = ("v100", "p100", "k80")) -> np.ndarray:
    """Capacity of a cluster of single-type machines, types in turn (Gavel's simulated cluster)."""
    check_size(n_machines, "n_machines", maximum=MAX_GENERATED)
    check_size(gpus_per_machine, "gpus_per_machine", maximum=MAX_GENERATED)
    cap = np.zeros((n_machines, len(types)), dtype=np.int64)
    for h in range(n_machines):
        cap[h, (h * len(types)) // n_machines] = gpus_per_machine
    return cap


def trace_workload(n_jobs: int = 480, *, seed: Any = 0, n_machines: int = 15, gpus_per_machine: int = 4,
                   slot_length: float = 360.0, hours_scale: float = 1.0,
                   iterations_per_epoch: int = 1000) -> HadarInstance:
    """The trace-driven setup of Section IV.

    15 machines of 4 GPUs (5 each of V100, P100, K80: 60 GPUs, 20 per type) by default, all
    jobs at time 0, 6-minute slots.  Each job draws its class (Small/Medium/Large/XLarge)
    uniformly, a GPU-hour demand uniformly within the class range (Section IV-A), and a
    model of that class from Table II; its gang size ``W_j`` is 1/2/4/8 with probabilities
    0.7/0.1/0.15/0.05 (CycleGAN, measured only on one GPU, always 1).  Throughputs are
    Gavel's measurements at scale factor ``W_j`` divided by ``W_j`` (per GPU, iterations/s);
    ``E_j N_j`` is the demand in GPU-hours times ``hours_scale`` run on V100s.

    The Microsoft trace itself is not public with the paper, so the GPU-hour demand is
    sampled; ``n_machines`` grows the cluster proportionally (for the scalability benchmark).

    Raises
    ------
    ArgumentError
        A count that is not a positive integer, a non-positive slot length or ``hours_scale``,
        or a bad ``seed``.
    """
    check_size(n_jobs, "n_jobs", maximum=MAX_GENERATED)
    check_size(iterations_per_epoch, "iterations_per_epoch", maximum=2**53)  # exact as a float
    slot_length = check_positive(slot_length, "slot_length")
    hours_scale = check_positive(hours_scale, "hours_scale")
    rng = rng_from(seed)
    tab = _gavel_table()
    types = ("v100", "p100", "k80")
    cap = scaled_cluster(n_machines, gpus_per_machine, types)
    classes = list(GPU_HOUR_CLASSES)
    X = np.zeros((n_jobs, 3))
    W = np.zeros(n_jobs, dtype=np.int64)
    total = np.zeros(n_jobs)
    names = []
    for j in range(n_jobs):
        cls = classes[rng.integers(len(classes))]
        model = TABLE2_MODELS[cls][rng.integers(len(TABLE2_MODELS[cls]))]
        w = int(rng.choice(GANG_SIZES, p=GANG_PROBS)) if (model, 2) in tab else 1
        t = tab[(model, w)]
        X[j] = [t[r] / w for r in types]
        W[j] = w
        lo, hi = GPU_HOUR_CLASSES[cls]
        hours = rng.uniform(lo, hi) * hours_scale
        total[j] = max(1.0, hours * 3600.0 / w * t["v100"])
        names.append(f"{model}/{cls}/{w}gpu")
    N = np.full(n_jobs, iterations_per_epoch, dtype=np.int64)
    E = np.maximum(1, np.round(total / N)).astype(np.int64)
    return HadarInstance(capacity=cap, arrival=np.zeros(n_jobs, dtype=np.int64), gpus=W, epochs=E,
                         iterations_per_epoch=N, throughput=X, utility=Utility("effective_throughput"),
                         slot_length=slot_length, gpu_types=types, job_names=tuple(names))


# ---------------------------------------------------------------- eq. (10) and Section VI
#: Spec-sheet figures (approximate, public data sheets): peak tensor (or FP32 where no tensor
#: cores) TFLOPS, VRAM in GB, PCIe generation of the host in the paper's clusters.
GPU_SPECS = {
    "V100": (125.0, 16.0, 3), "K80": (8.7, 12.0, 3), "T4": (65.0, 16.0, 3),
    "TitanRTX": (130.0, 24.0, 3), "T400": (1.1, 4.0, 3), "RTX3090": (71.0, 24.0, 4), "A2000": (64.0, 6.0, 4),
}
#: Table III models: (batch size, model weight scale 1-4, dataset size scale S=1 ... XL=4).
MODEL_TRAITS = {
    "IC": (64, 2, 1),   # ResNet-18 / CIFAR-10 (S)
    "LM": (20, 1, 3),   # LSTM / Wikitext-2 (L)
    "LT": (64, 3, 3),   # Transformer / Multi30K (L)
    "RS": (512, 2, 4),  # Recoder / ML-20M (XL)
    "MM": (32, 3, 2),   # encoder-decoder Transformer / Mesonet + WRF-HRRR (M)
}
#: Section VI-B workload mixes.
MIXES = {
    "M-1": ["MM"], "M-3": ["LT", "MM", "MM"], "M-4": ["IC", "LM", "LT", "MM"],
    "M-5": ["IC", "LM", "LT", "RS", "MM"], "M-8": ["IC", "LM", "LT", "RS"] + ["MM"] * 4,
    "M-10": ["IC", "LM", "LT", "RS"] + ["MM"] * 6, "M-12": ["IC", "LM", "LT", "RS"] + ["MM"] * 8,
}
CLUSTERS = {"aws": ["V100", "K80", "K80", "T4", "T4"], "testbed": ["TitanRTX", "T4", "T400", "RTX3090", "A2000"]}


def estimate_throughput(gpu: str, model: str) -> float:
    """Eq. (10): ``PMI * batch_size * pcie_scaling / (model_weight * dataset_size)``.

    Reading adopted: PMI = TFLOPS / sqrt(VRAM GB) ("the ratio of the GPU's teraflops and
    its VRAM capacity in a square-root fashion"), ``pcie_scaling`` = 1 for PCIe 3.0 and 2 for
    PCIe 4.0, model weight and dataset size on the 1-4 scales of the paper.  The result is
    in the paper's (unstated) units; only ratios between GPUs and models matter.
    """
    check_choice(gpu, "gpu", sorted(GPU_SPECS))
    check_choice(model, "model", sorted(MODEL_TRAITS))
    tflops, vram, pcie = GPU_SPECS[gpu]
    batch, weight, size = MODEL_TRAITS[model]
    return tflops / math.sqrt(vram) * batch * (1.0 if pcie == 3 else 2.0) / (weight * size)


#: ``physical_mix(..., speeds="gavel")``: the Gavel job type measured for each Table III model.
GAVEL_MODEL = {"IC": "ResNet-18 (batch size 64)", "LM": "LM (batch size 20)", "LT": "Transformer (batch size 64)",
               "RS": "Recommendation (batch size 512)", "MM": "Transformer (batch size 32)"}
#: The Gavel-measured GPU standing in for each node GPU (Gavel measured only V100, P100, K80):
#: GPUs of the V100 class -> v100, mid-range data-centre or workstation GPUs -> p100, the
#: smallest -> k80.  A stand-in, not a measurement of the node's GPU.
GAVEL_STANDIN = {"V100": "v100", "K80": "k80", "T4": "p100", "TitanRTX": "v100", "RTX3090": "v100",
                 "A2000": "p100", "T400": "k80"}
SPEEDS = ("eq10", "gavel")


def physical_mix(name: str, cluster: str = "aws", *, speeds: str = "eq10", slot_length: float = 360.0,
                 minutes_on_fastest: float = 20.0) -> HadarInstance:
    """A Section VI workload mix on the 5-node AWS or lab cluster (one GPU per node).

    GPU types are the nodes' GPUs; every job has a gang of 1 and a length of
    ``minutes_on_fastest`` minutes on the cluster's fastest GPU for it.

    Parameters
    ----------
    speeds : {"eq10", "gavel"}
        ``"eq10"`` (default): eq. (10)'s estimate as the true speed (the paper's measured speeds
        are not published).  Eq. (10) is a product of a GPU factor and a model factor, so the
        throughput matrix has rank 1: every job has the same relative speeds on every GPU and
        there is no heterogeneity for a scheduler to exploit.  ``"gavel"``: the isolated
        throughputs Gavel measured (``hetopt/tables/gavel_throughputs.json``, from the Gavel
        scheduler's ``simulation_throughputs.json``, MIT licence) of the Gavel job type closest to
        each model (:data:`GAVEL_MODEL`) on the Gavel GPU standing in for each node's GPU
        (:data:`GAVEL_STANDIN`): a matrix of rank > 1.
    """
    check_choice(speeds, "speeds", SPEEDS)
    check_choice(name, "name (the mix)", sorted(MIXES))
    check_choice(cluster, "cluster", sorted(CLUSTERS))
    slot_length = check_positive(slot_length, "slot_length")
    minutes_on_fastest = check_positive(minutes_on_fastest, "minutes_on_fastest")
    gpus = CLUSTERS[cluster]
    types = sorted(set(gpus), key=gpus.index)
    cap = np.zeros((len(gpus), len(types)), dtype=np.int64)
    for h, g in enumerate(gpus):
        cap[h, types.index(g)] = 1
    jobs = MIXES[name]
    if speeds == "eq10":
        X = np.array([[estimate_throughput(g, m) for g in types] for m in jobs])
    else:
        tab = _gavel_table()
        X = np.array([[tab[(GAVEL_MODEL[m], 1)][GAVEL_STANDIN[g]] for g in types] for m in jobs])
    total = X.max(axis=1) * minutes_on_fastest * 60.0
    N = np.full(len(jobs), 100, dtype=np.int64)
    E = np.maximum(1, np.round(total / N)).astype(np.int64)
    return HadarInstance(capacity=cap, arrival=np.zeros(len(jobs), dtype=np.int64), gpus=np.ones(len(jobs), np.int64),
                         epochs=E, iterations_per_epoch=N, throughput=X, utility=Utility("effective_throughput"),
                         slot_length=slot_length, gpu_types=tuple(types),
                         job_names=tuple(f"{m}{i}" for i, m in enumerate(jobs)))


def motivating_example() -> HadarInstance:
    """Section II-A, reconstructed: three jobs on 2 V100, 3 P100 and 1 K80.

    From the text: J1 needs 3 GPUs and 80 epochs, J2 2 GPUs and 30 epochs, J3 2 GPUs and 50
    epochs; after Gavel's first round 60, 25 and 50 epochs remain.  The OCR of the speed
    matrix reads J1 (40, 20, 30), J2 (5, 15, 5), J3 (10, 2, 20) epochs per round on
    (V100, P100, K80); these digits agree with that first round (J1 on P100: 20 epochs,
    J2 on V100: 5 epochs) and are used as the gang's speed, i.e. a per-GPU throughput of
    ``speed * N / (W * L)`` iterations/s with N = 100 iterations per epoch and L = 360 s.
    Machines: one per GPU type (2 V100 | 3 P100 | 1 K80).
    """
    speed = np.array([[40.0, 20.0, 30.0], [5.0, 15.0, 5.0], [10.0, 2.0, 20.0]])
    W = np.array([3, 2, 2])
    N, L = 100, 360.0
    X = speed * N / (W[:, None] * L)
    cap = np.array([[2, 0, 0], [0, 3, 0], [0, 0, 1]])
    return HadarInstance(capacity=cap, arrival=np.zeros(3, dtype=np.int64), gpus=W, epochs=np.array([80, 30, 50]),
                         iterations_per_epoch=np.full(3, N), throughput=X, utility=Utility("effective_throughput"),
                         slot_length=L, gpu_types=("V100", "P100", "K80"), job_names=("J1", "J2", "J3"))
