"""Seeded Hare instances: the random small instances of the certification sweeps and the Section 7 workload.

* :func:`generate_instance`: small random instances with heterogeneous GPUs (tests, sweeps,
  benchmarks, the hypothesis strategies);
* :func:`generate_workload`: the trace-driven workload of Section 7.1, Table 2's job types on a
  cluster of V100, P100 and K80 GPUs (:func:`cluster`), with Poisson or bursty arrivals
  (:func:`arrivals`).

Data sources of the workload (documented substitutes, since the paper's testbed traces are not
public):

* per-GPU task times: the Gavel throughput table shipped with hetopt
  (:func:`hetopt.data.gavel_throughputs`, MIT licence; V100, P100, K80 at scale factor 1).
  Gavel has no VGG, Inception, BERT, DeepSpeech or GNN models, so each Table 2 type uses
  the Gavel type named in :data:`JOB_TYPES` as a proxy;
* synchronization: a PS push + pull of fp32 parameters,
  ``T^s = 2 * 4 bytes * params / bandwidth`` (default 25 Gbps, the testbed's Ethernet),
  with public parameter counts of the models (approximate, in :data:`JOB_TYPES`);
* arrivals: a Poisson process, or a bursty two-state Markov-modulated Poisson process
  standing in for the Google cluster trace the paper samples (``"google"``; not the
  trace itself).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..data import gavel_throughputs
from ..errors import ArgumentError
from ..inputs import MAX_GENERATED, check_choice, check_flag, check_positive, check_size, rng_from
from .instance import HareInstance

__all__ = ["generate_instance", "generate_workload", "arrivals", "cluster", "JOB_TYPES", "CATEGORIES", "JobType",
           "GPU_TYPES", "PROCESSES"]

#: GPU types of the Gavel throughput table (the workload's cluster).
GPU_TYPES = ("v100", "p100", "k80")
#: Arrival processes of :func:`arrivals`.
PROCESSES = ("poisson", "google")


def generate_instance(*, seed: int | np.random.Generator | None = None, n_jobs: int = 3, n_gpus: int = 2,
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

    Parameters
    ----------
    seed : int, numpy.random.Generator or None
        The random seed (keyword-only).
    n_jobs, n_gpus : int
        Jobs and GPUs (at least 1).
    max_rounds, max_tasks : int
        Most rounds per job and tasks per round (at least 1).
    max_total_tasks : int or None
        Most tasks in all (at least 1), or None for no cap.
    speed_spread : float
        Speed factors are uniform in ``[1, speed_spread]``.
    sync_fraction : float
        Largest ``T^s / T^c`` (at least 0).
    arrival_span : float
        Arrivals in ``[0, arrival_span]`` (at least 0).
    max_weight : int
        Weights in ``1..max_weight``.
    homogeneous : bool
        Identical GPUs (``alpha = 1``).

    Returns
    -------
    HareInstance

    Raises
    ------
    ArgumentError
        An argument of the wrong type or out of range.

    Examples
    --------
    >>> from hetopt.hare import generate_instance
    >>> generate_instance(seed=0).n_jobs
    3
    """
    check_size(n_jobs, "n_jobs", maximum=MAX_GENERATED)
    check_size(n_gpus, "n_gpus", maximum=MAX_GENERATED)
    check_size(max_rounds, "max_rounds", maximum=MAX_GENERATED)
    check_size(max_tasks, "max_tasks", maximum=MAX_GENERATED)
    if max_total_tasks is not None:
        check_size(max_total_tasks, "max_total_tasks", maximum=MAX_GENERATED)
    check_positive(speed_spread, "speed_spread")
    check_positive(sync_fraction, "sync_fraction", allow_zero=True)
    check_positive(arrival_span, "arrival_span", allow_zero=True)
    check_size(max_weight, "max_weight")
    check_flag(homogeneous, "homogeneous")
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


@dataclass(frozen=True)
class JobType:
    """One row of Table 2 with the data source used for it."""

    model: str
    category: str
    dataset: str
    batch_size: int
    gavel_proxy: str
    params_millions: float


#: The 8 job types of Table 2 (model, category, dataset, batch size), each with its Gavel
#: throughput proxy and approximate parameter count (millions, public model sizes).
JOB_TYPES: tuple[JobType, ...] = (
    JobType("VGG-19", "CV", "Cifar10", 128, "ResNet-18 (batch size 128)", 143.7),
    JobType("ResNet50", "CV", "Cifar100", 64, "ResNet-50 (batch size 64)", 25.6),
    JobType("Inception V3", "CV", "Cifar100", 32, "ResNet-50 (batch size 32)", 23.8),
    JobType("Bert_base", "NLP", "SQuAD", 32, "LM (batch size 20)", 110.0),
    JobType("Transformer", "NLP", "WMT16", 128, "Transformer (batch size 128)", 65.0),
    JobType("DeepSpeech", "Speech", "ComVoice", 8, "LM (batch size 5)", 38.0),
    JobType("FastGCN", "Rec.", "Cora", 128, "Recommendation (batch size 1024)", 0.1),
    JobType("GraphSAGE", "Rec.", "Cora", 16, "Recommendation (batch size 512)", 0.1),
)
#: The four categories of Table 2, 25% of the workload each by default.
CATEGORIES = ("CV", "NLP", "Speech", "Rec.")


def cluster(v100: int = 0, p100: int = 0, k80: int = 0) -> list[str]:
    """GPU type names of a cluster, e.g. ``cluster(v100=64, p100=48, k80=48)``.

    Parameters
    ----------
    v100, p100, k80 : int
        GPUs of each type (at least 0).

    Returns
    -------
    list of str
        One type name per GPU, V100s first.
    """
    for name, value in (("v100", v100), ("p100", p100), ("k80", k80)):
        check_size(value, name, minimum=0, maximum=MAX_GENERATED)
    return ["v100"] * v100 + ["p100"] * p100 + ["k80"] * k80


def arrivals(n_jobs: int, *, process: str = "poisson", rate: float = 1.0 / 60.0,
             seed: int | np.random.Generator | None = None, burst_factor: float = 5.0,
             switch_prob: float = 0.1) -> np.ndarray:
    """Arrival times of ``n_jobs`` jobs, starting at 0.

    ``"poisson"``: exponential gaps of mean ``1 / rate``.  ``"google"``: a two-state
    Markov-modulated Poisson process (calm at ``rate / 2``, bursts at ``rate * burst_factor /
    2``, switching state after each arrival with probability ``switch_prob``), the usual
    stand-in for the bursty submissions of the Google cluster trace.

    Parameters
    ----------
    n_jobs : int
        Number of arrivals (at least 1).
    process : {"poisson", "google"}
        The arrival process.
    rate : float
        Mean arrivals per second.
    seed : int, numpy.random.Generator or None
        The random seed.
    burst_factor : float
        Rate of the bursty state over the calm one (``"google"``).
    switch_prob : float
        Probability of switching state after each arrival (``"google"``).

    Returns
    -------
    numpy.ndarray, shape (n_jobs,)
        Non-decreasing arrival times, the first at 0 (rounded to 1e-6).
    """
    check_size(n_jobs, "n_jobs", maximum=MAX_GENERATED)
    check_choice(process, "process", PROCESSES)
    check_positive(rate, "rate")
    check_positive(burst_factor, "burst_factor")
    if isinstance(switch_prob, bool) or not isinstance(switch_prob, (int, float, np.floating)) or not 0 <= switch_prob <= 1:
        raise ArgumentError(f"switch_prob is {switch_prob!r}; expected a probability in [0, 1]")
    rng = rng_from(seed)
    if process == "poisson":
        gaps = rng.exponential(1.0 / rate, n_jobs)
    else:  # "google"
        gaps, burst = np.empty(n_jobs), False
        for k in range(n_jobs):
            r = rate * (burst_factor if burst else 1.0) / 2.0
            gaps[k] = rng.exponential(1.0 / r)
            if rng.random() < switch_prob:
                burst = not burst
    t = np.cumsum(gaps)
    return np.round(t - t[0], 6)


def generate_workload(n_jobs: int, gpus: Sequence[str], *, seed: int | np.random.Generator | None = None,
                      process: str = "poisson", rate: float = 1.0 / 60.0,
                      category_mix: Mapping[str, float] | None = None, rounds: tuple[int, int] = (2, 6),
                      scales: Sequence[int] = (1, 2, 4), iterations_per_task: int = 50,
                      bandwidth_gbps: float = 25.0, weights: Sequence[float] = (1, 2, 3, 4)) -> HareInstance:
    """A Hare instance from Table 2 job types on a cluster of V100/P100/K80 GPUs.

    Parameters
    ----------
    n_jobs : int
        Number of jobs (at least 1).
    gpus : sequence of {"v100", "p100", "k80"}
        One entry per GPU (see :func:`cluster`).
    seed : int or Generator, optional
        The random seed.
    process, rate
        Arrival process, see :func:`arrivals` (rate in jobs per second).
    category_mix : mapping, optional
        Share of each category of :data:`CATEGORIES` (default 25% each, Section 7.1); the
        model inside a category is uniform.
    rounds : (int, int)
        Rounds per job, uniform in this inclusive range.
    scales : sequence of int
        Tasks per round (the job's synchronization scale), uniform over these values
        (capped at the number of GPUs).
    iterations_per_task : int
        Mini-batches per task: ``T^c = iterations_per_task / throughput``.
    bandwidth_gbps : float
        Network speed for ``T^s`` (Fig. 18 varies it).
    weights : sequence of float
        Job weights, uniform over these values (the paper does not give its weights).

    Returns
    -------
    HareInstance
        ``job_names`` are ``"<k>:<model>"``, ``gpu_names`` ``"<type><k>"``.

    Raises
    ------
    ArgumentError
        An unknown GPU type or category, a category mix without a positive share, or another
        argument out of range.
    """
    check_size(n_jobs, "n_jobs", maximum=MAX_GENERATED)
    check_size(iterations_per_task, "iterations_per_task")
    check_positive(bandwidth_gbps, "bandwidth_gbps")
    if isinstance(rounds, (str, bytes)) or not isinstance(rounds, (tuple, list)) or len(rounds) != 2:
        raise ArgumentError(f"rounds is {rounds!r}; expected (least, most) rounds per job")
    check_size(rounds[0], "rounds[0]")
    check_size(rounds[1], "rounds[1]", minimum=rounds[0])
    if isinstance(scales, (str, bytes)) or not isinstance(scales, (tuple, list)) or not scales:
        raise ArgumentError(f"scales is {scales!r}; expected a non-empty sequence of tasks per round")
    for k, v in enumerate(scales):
        check_size(v, f"scales[{k}]")
    if isinstance(weights, (str, bytes)) or not isinstance(weights, (tuple, list)) or not weights:
        raise ArgumentError(f"weights is {weights!r}; expected a non-empty sequence of positive weights")
    for k, v in enumerate(weights):
        check_positive(v, f"weights[{k}]")
    rng = rng_from(seed)
    table = {e["job_type"]: e["iterations_per_second"] for e in gavel_throughputs()["entries"] if e["scale_factor"] == 1}
    if isinstance(gpus, str) or not isinstance(gpus, Sequence):
        raise ArgumentError(f"gpus is {gpus!r:.60}; expected a sequence of GPU type names (see cluster)")
    gpus = list(gpus)
    if not gpus:
        raise ArgumentError("gpus is empty; expected at least one GPU type name (see cluster)")
    for k, g in enumerate(gpus):
        if g not in GPU_TYPES:
            raise ArgumentError(f"gpus[{k}] is {g!r}; expected 'v100', 'p100' or 'k80' (the Gavel table's types)")
    if category_mix is not None and not isinstance(category_mix, Mapping):
        raise ArgumentError(f"category_mix is {category_mix!r}; expected a mapping category -> share")
    mix = dict(category_mix or {c: 0.25 for c in CATEGORIES})
    unknown = set(mix) - set(CATEGORIES)
    if unknown:
        raise ArgumentError(f"category_mix has unknown categories {sorted(unknown)}; expected {CATEGORIES}")
    share = np.array([check_positive(mix.get(c, 0.0), f"category_mix[{c!r}]", allow_zero=True) for c in CATEGORIES])
    if not np.all(np.isfinite(share)) or (share < 0).any() or share.sum() <= 0:
        raise ArgumentError("category_mix must be non-negative with a positive sum")
    cats = rng.choice(len(CATEGORIES), n_jobs, p=share / share.sum())
    types = []
    for c in cats:
        members = [t for t in JOB_TYPES if t.category == CATEGORIES[c]]
        types.append(members[rng.integers(len(members))])
    tc = np.array([[iterations_per_task / table[t.gavel_proxy][g] for g in gpus] for t in types])
    ts_row = np.array([2 * 4 * t.params_millions * 1e6 * 8 / (bandwidth_gbps * 1e9) for t in types])
    ts = np.repeat(ts_row[:, None], len(gpus), axis=1)
    scale_choices = [s for s in scales if s <= len(gpus)] or [1]
    return HareInstance(
        arrival=arrivals(n_jobs, process=process, rate=rate, seed=rng),
        weight=rng.choice(np.asarray(weights, dtype=float), n_jobs),
        rounds=rng.integers(rounds[0], rounds[1] + 1, n_jobs),
        tasks_per_round=rng.choice(scale_choices, n_jobs),
        compute_time=np.round(tc, 6), sync_time=np.round(ts, 6),
        gpu_names=tuple(f"{g}{k}" for k, g in enumerate(gpus)),
        job_names=tuple(f"{k}:{t.model}" for k, t in enumerate(types)),
    )
