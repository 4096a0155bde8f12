"""A trace-driven simulator in the spirit of Section 7.1 of Hare.

Two separate parts, as Gavel's scheduler is not: a **workload generator**
(:func:`generate_workload`) that turns job arrivals and the job types of Table 2 into a
:class:`HareInstance`, and an **executor** (:func:`simulate`) that replays any method's
per-GPU task sequences as Hare's executors do (each GPU runs its tasks in the received
order; a task starts when its GPU is free and its round's barrier (7) is met), adding an
optional task-switching overhead whenever a GPU switches between jobs.  With zero
overhead the replay reproduces a semi-active plan exactly.

Data sources (documented substitutes, since the paper's testbed traces are not public):

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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..data import gavel_throughputs
from ..errors import InstanceError
from .generators import rng_from
from .instance import HareInstance
from .solution import HareSolution, make_solution

__all__ = ["JOB_TYPES", "CATEGORIES", "arrivals", "generate_workload", "simulate", "SimulationResult", "cluster"]


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
    """GPU type names of a cluster, e.g. ``cluster(v100=64, p100=48, k80=48)``."""
    return ["v100"] * v100 + ["p100"] * p100 + ["k80"] * k80


def arrivals(n_jobs: int, *, process: str = "poisson", rate: float = 1.0 / 60.0,
             seed: int | np.random.Generator | None = None, burst_factor: float = 5.0,
             switch_prob: float = 0.1) -> np.ndarray:
    """Arrival times of ``n_jobs`` jobs, starting at 0.

    ``"poisson"``: exponential gaps of mean ``1 / rate``.  ``"google"``: a two-state
    Markov-modulated Poisson process (calm at ``rate / 2``, bursts at ``rate * burst_factor /
    2``, switching state after each arrival with probability ``switch_prob``), the usual
    stand-in for the bursty submissions of the Google cluster trace.
    """
    rng = rng_from(seed)
    if process == "poisson":
        gaps = rng.exponential(1.0 / rate, n_jobs)
    elif process == "google":
        gaps, burst = np.empty(n_jobs), False
        for k in range(n_jobs):
            r = rate * (burst_factor if burst else 1.0) / 2.0
            gaps[k] = rng.exponential(1.0 / r)
            if rng.random() < switch_prob:
                burst = not burst
    else:
        raise ValueError(f"process is {process!r}; expected 'poisson' or 'google'")
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
    gpus : sequence of {"v100", "p100", "k80"}
        One entry per GPU (see :func:`cluster`).
    seed : int or Generator, optional
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
    """
    rng = rng_from(seed)
    table = {e["job_type"]: e["iterations_per_second"] for e in gavel_throughputs()["entries"] if e["scale_factor"] == 1}
    gpus = list(gpus)
    for k, g in enumerate(gpus):
        if g not in ("v100", "p100", "k80"):
            raise InstanceError(f"gpus[{k}] is {g!r}; expected 'v100', 'p100' or 'k80' (the Gavel table's types)")
    mix = dict(category_mix or {c: 0.25 for c in CATEGORIES})
    unknown = set(mix) - set(CATEGORIES)
    if unknown:
        raise InstanceError(f"category_mix has unknown categories {sorted(unknown)}; expected {CATEGORIES}")
    share = np.array([float(mix.get(c, 0.0)) for c in CATEGORIES])
    if (share < 0).any() or share.sum() <= 0:
        raise InstanceError("category_mix must be non-negative with a positive sum")
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
        gpu_names=[f"{g}{k}" for k, g in enumerate(gpus)],
        job_names=[f"{k}:{t.model}" for k, t in enumerate(types)],
    )


@dataclass(frozen=True)
class SimulationResult:
    """Outcome of :func:`simulate`: the executed schedule and the metrics of Section 7."""

    executed: HareSolution
    weighted_jct: float
    jct: np.ndarray
    utilization: np.ndarray
    switches: int
    switch_overhead: float

    def jct_cdf(self) -> tuple[np.ndarray, np.ndarray]:
        """Sorted JCTs ``C_n - a_n`` and their empirical CDF values (Fig. 13)."""
        x = np.sort(self.jct)
        return x, np.arange(1, x.size + 1) / x.size


def simulate(plan: HareSolution, *, switch_overhead: float = 0.0, keep_plan_times: bool = False) -> SimulationResult:
    """Execute a plan's per-GPU task sequences, with an optional task-switching overhead.

    Parameters
    ----------
    plan : HareSolution
        Any method's schedule; only its GPU assignment and the order of starts on each
        GPU are used, as by Hare's executors.
    switch_overhead : float
        Seconds added before a task whose GPU last ran a task of another job (Table 3:
        a few ms for Hare, seconds without fast switching).  0 by default, as in the model.
    keep_plan_times : bool
        Never start a task before its planned start.  With it, the replay of any feasible
        plan without overhead is the plan itself (a gang scheduler's waits and held GPUs are
        kept) and an overhead only delays; without it, each GPU runs its sequence as early as
        it can (Hare's executors), which can also move a plan's tasks earlier.

    Returns
    -------
    SimulationResult
        Weighted JCT, per-job JCT ``C_n - a_n``, GPU utilization (compute time over the
        makespan) and the number of switches.
    """
    if switch_overhead < 0 or not np.isfinite(switch_overhead):
        raise ValueError(f"switch_overhead is {switch_overhead!r}; expected a finite number >= 0")
    inst = plan.instance
    order = np.lexsort((inst.task_round, plan.start))
    free = np.zeros(inst.n_gpus)
    last_job = np.full(inst.n_gpus, -1)
    round_end: dict[tuple[int, int], float] = {}
    start = np.zeros(inst.n_tasks)
    switches = 0
    for i in order:
        n, r, m = int(inst.task_job[i]), int(inst.task_round[i]), int(plan.gpu[i])
        ready = inst.arrival[n] if r == 0 else round_end[(n, r - 1)]
        gpu_ready = free[m]
        if last_job[m] not in (-1, n):
            switches += 1
            gpu_ready += switch_overhead
        start[i] = max(ready, gpu_ready, plan.start[i] if keep_plan_times else -np.inf)
        free[m] = start[i] + inst.compute_time[n, m]
        last_job[m] = n
        round_end[(n, r)] = max(round_end.get((n, r), -np.inf), free[m] + inst.sync_time[n, m])
    executed = make_solution(inst, start, plan.gpu, method=f"simulated {plan.method}",
                             info={"switch_overhead": switch_overhead, "keep_plan_times": keep_plan_times})
    return SimulationResult(executed=executed, weighted_jct=float(executed.objective),
                            jct=executed.completion - inst.arrival, utilization=executed.gpu_utilization(),
                            switches=switches, switch_overhead=switch_overhead)


def run_methods(inst: HareInstance, methods: Mapping[str, Callable[[HareInstance], HareSolution]], *,
                switch_overhead: float = 0.0) -> dict[str, SimulationResult]:
    """Plan with every method and execute each plan with :func:`simulate`."""
    return {name: simulate(f(inst), switch_overhead=switch_overhead) for name, f in methods.items()}


__all__.append("run_methods")
