"""The Section 7 comparison of Hare: weighted JCT of Algorithm 1 against the baselines.

Fig. 12 reports the *total weighted job completion time* and Fig. 13 the CDF of
``JCT = C_n - a_n``; the reductions "47.6% to 75.3%" are of ``sum_n w_n (C_n - a_n)``.  This
module computes them on the same simulated workload for every combination of four choices
that move the result (:data:`CAUSES`):

* ``metric``: ``"jct"`` (``C - a``, the paper's) or ``"completion"`` (``C``, which adds the
  same ``sum w a`` to every scheme and shrinks every relative reduction);
* ``srtf``: the job-level SRTF (``"srtf"``) or the round-level, backfilling one (``"srtf_round"``);
* ``online``: AlloX and Sched_Homo deciding online (the paper's simulator replays arrivals)
  or planning up front (``"sched_allox_offline"``, ``"sched_homo_offline"``);
* ``switch_overhead``: seconds added whenever a GPU switches jobs (Section 5.1 bounds Hare's
  at 5% of a task's training time; the model ignores it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import ArgumentError
from .. import HareInstance, HareSolution, cluster, generate_workload, replay, schedule, simulate

__all__ = ["METRICS", "CAUSES", "with_heterogeneity", "weighted_jct", "Setting", "OLD_SETTING", "PAPER_SETTING",
           "compare", "reductions", "section7_workload", "ALGORITHM1_VARIANTS"]

#: Weighted metrics: ``sum w (C - a)`` (the paper's) or ``sum w C``.
METRICS = ("jct", "completion")
#: Algorithm 1 as printed and the two readings/variants of line 12, with the scalable ordering.
ALGORITHM1_VARIANTS: dict[str, Callable[[HareInstance], HareSolution]] = {
    "algorithm1": functools.partial(schedule, ordering="lp"),
    "algorithm1_esf": functools.partial(schedule, ordering="lp", gpu_rule="earliest_start_fastest"),
    "algorithm1_ef": functools.partial(schedule, ordering="lp", gpu_rule="earliest_finish"),
}


def weighted_jct(sol: HareSolution, metric: str = "jct") -> float:
    """``sum_n w_n (C_n - a_n)`` (``metric="jct"``) or ``sum_n w_n C_n`` (``"completion"``)."""
    if metric not in METRICS:
        raise ArgumentError(f"metric is {metric!r}; expected one of {METRICS}")
    inst = sol.instance
    c = sol.completion - (inst.arrival if metric == "jct" else 0.0)
    return float(inst.weight @ c)


@dataclass(frozen=True)
class Setting:
    """One combination of the four choices of the comparison (see the module docstring).

    Attributes
    ----------
    metric : {"jct", "completion"}
    job_level_srtf : bool
        ``srtf`` (job-level) when True, ``srtf_round`` otherwise.
    online : bool
        Online ``sched_allox`` / ``sched_homo`` when True, the up-front planners otherwise.
    switch_overhead : float
        Seconds per job switch on a GPU, or, when ``relative`` is True, a fraction of the
        workload's mean task compute time.
    relative : bool
    """

    metric: str = "jct"
    job_level_srtf: bool = True
    online: bool = True
    switch_overhead: float = 0.05
    relative: bool = True

    def __post_init__(self) -> None:
        if self.metric not in METRICS:
            raise ArgumentError(f"metric is {self.metric!r}; expected one of {METRICS}")
        if not (np.isfinite(self.switch_overhead) and self.switch_overhead >= 0):
            raise ArgumentError(f"switch_overhead is {self.switch_overhead!r}; expected a finite number >= 0")

    def baselines(self) -> dict[str, str]:
        """Paper's baseline name -> the scheduler used for it in this setting."""
        return {"gavel_fifo": "gavel_fifo", "srtf": "srtf" if self.job_level_srtf else "srtf_round",
                "sched_homo": "sched_homo" if self.online else "sched_homo_offline",
                "sched_allox": "sched_allox" if self.online else "sched_allox_offline"}

    def overhead_seconds(self, inst: HareInstance) -> float:
        """Seconds per switch on ``inst`` (a fraction of its mean task compute time when ``relative``)."""
        return float(self.switch_overhead * inst.task_compute.mean()) if self.relative else float(self.switch_overhead)


#: The comparison as the old ``reproduce`` ran it: C instead of C - a, round-level SRTF,
#: up-front AlloX / Sched_Homo, no switching overhead.
OLD_SETTING = Setting(metric="completion", job_level_srtf=False, online=False, switch_overhead=0.0)
#: The paper's setting: JCT, job-level SRTF, online baselines, 5% switching overhead.
PAPER_SETTING = Setting()
#: The four causes: name -> the field of :class:`Setting` it toggles and its paper value.
CAUSES: dict[str, tuple[str, Any]] = {"(a) JCT = C - a": ("metric", "jct"), "(b) job-level SRTF": ("job_level_srtf", True),
          "(c) online AlloX / Sched_Homo": ("online", True), "(d) switching overhead": ("switch_overhead", 0.05)}


def section7_workload(*, seed: int = 0, n_jobs: int = 60, gpus: list[str] | None = None, iterations_per_task: int = 100,
                      heterogeneity: float = 1.0, **kwargs) -> HareInstance:
    """The simulated testbed of Section 7.1: 15 GPUs, Table 2 jobs (see :func:`generate_workload`).

    ``iterations_per_task`` mini-batches per task (the paper's tasks train one batch each,
    Section 1; 100 by default, so that synchronization is amortized as in a real job); the
    arrival rate defaults to ``50 / iterations_per_task`` jobs per second, which keeps the
    offered load the same at every granularity.  ``heterogeneity`` rescales the speeds by
    :func:`with_heterogeneity` (1: the workload itself).
    """
    gpus = cluster(v100=8, p100=4, k80=3) if gpus is None else gpus
    opts = {"rate": 50.0 / iterations_per_task} | kwargs
    inst = generate_workload(n_jobs, gpus, seed=seed, iterations_per_task=iterations_per_task, **opts)
    return inst if heterogeneity == 1.0 else with_heterogeneity(inst, heterogeneity)


def with_heterogeneity(inst: HareInstance, h: float) -> HareInstance:
    """The instance with every job's per-GPU times ``T`` replaced by ``g (T / g)^h``, ``g`` their geometric mean.

    ``h = 0`` is homogeneous (every GPU at the job's geometric-mean speed), ``h = 1`` the
    instance itself, ``h > 1`` more heterogeneous; the slowest/fastest ratio of a job becomes
    its original ratio to the power ``h``.
    """
    if not (np.isfinite(h) and h >= 0):
        raise ArgumentError(f"h is {h!r}; expected a finite number >= 0")

    def scale(t):
        t = np.asarray(t, dtype=float)
        pos = (t > 0).all(axis=1)
        out = t.copy()
        g = np.exp(np.log(t[pos]).mean(axis=1, keepdims=True))
        out[pos] = g * (t[pos] / g) ** h
        return np.round(out, 9)

    d = inst.to_dict()
    d["compute_time"] = scale(inst.compute_time).tolist()
    d["sync_time"] = scale(inst.sync_time).tolist()
    return HareInstance.from_dict(d)



def compare(inst: HareInstance, setting: Setting = PAPER_SETTING, *, algorithms: Mapping[str, Callable] | None = None,
            plans: dict[str, HareSolution] | None = None) -> dict[str, float]:
    """Weighted metric of every Algorithm 1 variant and every baseline, executed with the overhead.

    Parameters
    ----------
    inst : HareInstance
    setting : Setting
    algorithms : mapping, optional
        Name -> scheduler for Hare's side (default :data:`ALGORITHM1_VARIANTS`).
    plans : dict, optional
        A cache name -> plan, filled and reused across settings on the same instance.

    Returns
    -------
    dict
        Scheduler name -> ``weighted_jct`` of the executed plan (:func:`hetopt.hare.replay` with
        ``keep_plan_times``: every scheduler's decisions stand, the overhead only delays them;
        without overhead the value is the plan's); the keys are the algorithm names and the
        paper's baseline names.
    """
    plans = {} if plans is None else plans
    over = setting.overhead_seconds(inst)
    out: dict[str, float] = {}
    names = dict(algorithms or ALGORITHM1_VARIANTS)
    runs: dict[str, tuple[str, Callable[[HareInstance], HareSolution]]] = {
            **{k: (k, f) for k, f in names.items()},
            **{paper: (impl, functools.partial(simulate, policy=impl)) for paper, impl in setting.baselines().items()}}
    for label, (impl, f) in runs.items():
        if impl not in plans:
            plans[impl] = f(inst)
        out[label] = weighted_jct(replay(plans[impl], switch_overhead=over, keep_plan_times=True).executed,
                                  setting.metric)
    return out


def reductions(values: Mapping[str, float], algorithm: str = "algorithm1") -> dict[str, float]:
    """``1 - value(algorithm) / value(baseline)`` for every paper baseline in ``values``."""
    alg = values[algorithm]
    return {b: 1.0 - alg / values[b] for b in ("gavel_fifo", "srtf", "sched_homo", "sched_allox") if b in values}
