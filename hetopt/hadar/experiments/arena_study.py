"""Hadar against Gavel in the arena, on Gavel's measured workloads: which input moves the verdict (issue 30).

Hadar (the arena's ``hadar`` adapter, reading ``"paper"`` or Section IV-B's ``"keep"``) and Gavel's
heterogeneity-aware max-min fairness (``max_min_fairness``, Gavel's LAS policy) run the same jobs of
Gavel's ``msr/seed=S/ed69ec`` traces (951 single-GPU jobs, Gavel's measured throughputs, rank 3; by
default the jobs of at most 100 GPU-hours, the top of Section IV-A's XLarge class) on a cluster of Gavel's
types, all jobs at time 0 as in Hadar's Sections IV-A and VI (or at a Poisson load).
:func:`compare` returns Gavel/Hadar ratios of the average JCT, the makespan (the paper's TTD) and the
median JCT, and Hadar/Gavel of the GPU utilization (the paper's CRU); every toggle is one keyword
(``speeds``, ``restart_delay``, ``gang_rule``, ``reading``, ``arrivals``), :func:`toggle_table`
flips them one at a time.  ``HADAR_MECHANISM.md`` and ``models/hadar2024.md`` read the results.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ...arena import Options, at_load, execute, gavel_trace, make_policy, metrics_of
from ...arena.paper_hadar import READINGS
from ...arena.protocol import GANG_RULES
from ...errors import ArgumentError
from ...inputs import check_choice, check_positive, check_size
from ...report import Table

__all__ = ["GAVEL_POLICY", "SPEEDS", "DELAYS", "PRINTED_DELAY", "QUICK", "PAPER", "FULL", "SIZES", "MAX_GPU_HOURS", "rank1", "study_workload",
           "compare", "toggle_table", "TOGGLES"]

#: Gavel's policy Hadar is compared against: its heterogeneity-aware LAS (max-min fairness over effective
#: throughputs), the one Gavel's evaluation leads with; Hadar's paper names "Gavel" and no policy.
GAVEL_POLICY = "max_min_fairness"
#: ``"measured"``: Gavel's table; ``"rank1"``: eq. (10)'s structure (:func:`rank1`).
SPEEDS = ("measured", "rank1")
#: The restart delays run (s); 10 s is the only one the paper prints (Section IV).
DELAYS = (0.0, 10.0, 60.0, 120.0)
PRINTED_DELAY = 10.0
#: Six-minute rounds (Section IV: "obtained under the duration of 6 minutes"; Gavel's default too).
ROUND_LENGTH = 360.0
#: The default inputs: the paper's settings (printed delay, Hadar's (1b) gangs, Algorithm 1, a batch).
DEFAULTS: dict[str, Any] = {"speeds": "measured", "restart_delay": PRINTED_DELAY, "gang_rule": "bottleneck",
                            "reading": "paper", "arrivals": "batch", "max_gpu_hours": 100.0}
#: Each toggle and the values it takes besides its default (:func:`toggle_table`).
TOGGLES: dict[str, tuple[Any, ...]] = {"speeds": ("rank1",), "restart_delay": (0.0, 60.0, 120.0),
                                       "gang_rule": ("single",), "reading": ("keep",), "arrivals": (2.0,),
                                       "max_gpu_hours": (None,)}
#: Section IV-A's largest class ends at 100 GPU-hours; 26 of the 951 jobs of trace seed 0 exceed it (up to 1,088).
MAX_GPU_HOURS = 100.0
#: The default tier's size: the first 40 jobs of trace seed 0 on 5:5:5 (15 GPUs: 2**15 free-GPU states, so Hadar's DP
#: takes its greedy pass as on the larger sizes; on 4:4:4 it would be exact).
QUICK: dict[str, Any] = {"seeds": (0,), "n_jobs": 40, "counts": "5:5:5"}
#: Section IV's size: 480 jobs on 20 GPUs of each type (8 jobs per GPU), trace seeds 0-2.
PAPER: dict[str, Any] = {"seeds": (0, 1, 2), "n_jobs": 480, "counts": "20:20:20"}
#: Gavel's cluster: every job (of at most 100 GPU-hours) of the trace on 36:36:36.
FULL: dict[str, Any] = {"seeds": (0,), "n_jobs": None, "counts": "36:36:36"}
SIZES = {"quick": QUICK, "paper": PAPER, "full": FULL}


def rank1(throughput: Any) -> np.ndarray:
    """Eq. (10)'s structure: each job's best speed times a per-type factor common to every job (rank 1).

    ``T'_jr = max_r T_jr * f_r / max_r f_r`` with ``f_r`` the geometric mean over jobs of ``T_jr / max_r T_jr``
    (over the jobs that run on every type).  Each job keeps its fastest speed where the common factor is
    largest (its fastest time, and so the per-job bounds, are unchanged); a rank-1 input is returned
    unchanged.  A job that cannot run on a type (0) keeps its 0 there.

    Raises
    ------
    ArgumentError
        ``throughput`` not a (J, R) array of finite numbers >= 0 with a positive entry in every row, or
        no job runs on every type.
    """
    t = np.asarray(throughput, dtype=float)
    if t.ndim != 2 or t.size == 0 or not np.all(np.isfinite(t)) or np.any(t < 0) or np.any(t.max(axis=1) <= 0):
        raise ArgumentError("throughput must be a (J, R) array of finite numbers >= 0, each row with a positive "
                            f"entry; got shape {t.shape}")
    full = np.all(t > 0, axis=1)
    if not full.any():
        raise ArgumentError("throughput: no job runs on every GPU type, so no common per-type factor exists")
    best = t.max(axis=1)
    f = np.exp(np.log(t[full] / best[full, None]).mean(axis=0))
    out = best[:, None] * (f / f.max())[None, :]
    return np.where(t > 0, out, 0.0)


def study_workload(*, seed: int = 0, n_jobs: int | None = None, counts: str = "36:36:36", arrivals: Any = "batch",
                   speeds: str = "measured", max_gpu_hours: float | None = MAX_GPU_HOURS) -> Any:
    """Trace ``msr/seed={seed}/ed69ec`` (its first ``n_jobs`` jobs of at most ``max_gpu_hours``) on ``counts``.

    A job's GPU-hours are its gang's GPUs times its time on its fastest type (None: every job).

    ``arrivals``: ``"batch"`` (every job at time 0, Hadar's Sections IV-A and VI), ``"trace"`` (as recorded)
    or a load in jobs/hour (Poisson arrivals drawn with ``seed``, :func:`hetopt.arena.at_load`).
    """
    check_size(seed, "seed", minimum=0, maximum=4)
    check_choice(speeds, "speeds", SPEEDS)
    w = gavel_trace(f"msr/seed={seed}/ed69ec", counts)
    keep = np.arange(w.n_jobs)
    if max_gpu_hours is not None:
        hours = w.scale_factor * w.steps / w.throughput.max(axis=1) / 3600.0
        keep = keep[hours <= check_positive(max_gpu_hours, "max_gpu_hours")]
    if n_jobs is not None:
        keep = keep[:check_size(n_jobs, "n_jobs", maximum=keep.size)]
    if keep.size < w.n_jobs:
        w = w.replace(job_type=tuple(w.job_type[j] for j in keep), arrival=w.arrival[keep],
                      scale_factor=w.scale_factor[keep], steps=w.steps[keep], weight=w.weight[keep],
                      throughput=w.throughput[keep], model_size=w.model_size[keep],
                      description=f"{w.description}, its first {keep.size} jobs of at most {max_gpu_hours} GPU-hours")
    if arrivals == "batch":
        w = w.replace(arrival=np.zeros(w.n_jobs), description=f"{w.description}, every job at time 0")
    elif arrivals != "trace":
        if isinstance(arrivals, str):
            raise ArgumentError(f"arrivals is {arrivals!r}; expected 'batch', 'trace' or a load in jobs/hour")
        w = at_load(w, check_positive(arrivals, "arrivals"), seed=seed)
    if speeds == "rank1":
        w = w.replace(throughput=rank1(w.throughput), description=f"{w.description}, rank-1 speeds")
    return w


@functools.lru_cache(maxsize=256)
def _run(policy: str, seed: int, n_jobs: int | None, counts: str, arrivals: Any, speeds: str,
         max_gpu_hours: float | None, restart_delay: float, gang_rule: str, reading: str) -> dict[str, float]:
    w = study_workload(seed=seed, n_jobs=n_jobs, counts=counts, arrivals=arrivals, speeds=speeds,
                       max_gpu_hours=max_gpu_hours)
    opts = Options(round_length=ROUND_LENGTH, restart_delay=restart_delay, gang_rule=gang_rule)
    pol = make_policy(policy, reading=reading) if policy == "hadar" else make_policy(policy)
    run = execute(w, pol, opts, seed=seed)
    m = metrics_of(w, run)
    return {"avg_jct": m.avg_jct, "p50_jct": m.p50_jct, "makespan": m.makespan, "utilization": m.utilization,
            "rounds": float(run.n_rounds)}


def compare(*, seeds: Any = (0,), n_jobs: int | None = None, counts: str = "36:36:36", arrivals: Any = "batch",
            speeds: str = "measured", restart_delay: float = PRINTED_DELAY, gang_rule: str = "bottleneck",
            reading: str = "paper", max_gpu_hours: float | None = MAX_GPU_HOURS) -> dict[str, Any]:
    """Hadar against Gavel's max-min fairness on each seed's workload; the ratios' geometric means over seeds.

    Returns
    -------
    dict
        ``inputs`` (the keywords), ``runs`` (per seed: each scheduler's metrics), and the geometric means
        ``jct`` and ``p50`` (Gavel's over Hadar's: above 1, Hadar faster), ``ttd`` (Gavel's makespan over
        Hadar's) and ``cru`` (Hadar's utilization over Gavel's).  Gavel runs with the same options; the gang
        rule and the reading are Hadar's alone (Gavel's mechanism places one type per gang).
    """
    check_choice(speeds, "speeds", SPEEDS)
    check_choice(gang_rule, "gang_rule", GANG_RULES)
    check_choice(reading, "reading", READINGS)
    delay = check_positive(restart_delay, "restart_delay", allow_zero=True)
    seed_list = tuple(check_size(s, "seeds", minimum=0, maximum=4) for s in seeds)
    if not seed_list:
        raise ArgumentError("seeds must hold at least one trace seed (0-4)")
    common = (n_jobs, counts, arrivals, speeds, max_gpu_hours, float(delay))
    runs: list[dict[str, Any]] = []
    for s in seed_list:
        h = _run("hadar", s, *common, gang_rule, reading)
        g = _run(GAVEL_POLICY, s, *common, "single", "paper")
        runs.append({"seed": s, "hadar": h, "gavel": g})

    def gmean(values: list[float]) -> float:
        return float(np.exp(np.mean(np.log(values))))

    return {"inputs": {"seeds": seed_list, "n_jobs": n_jobs, "counts": counts, "arrivals": arrivals,
                       "speeds": speeds, "max_gpu_hours": max_gpu_hours, "restart_delay": float(delay),
                       "gang_rule": gang_rule, "reading": reading},
            "runs": runs,
            "jct": gmean([r["gavel"]["avg_jct"] / r["hadar"]["avg_jct"] for r in runs]),
            "p50": gmean([r["gavel"]["p50_jct"] / r["hadar"]["p50_jct"] for r in runs]),
            "ttd": gmean([r["gavel"]["makespan"] / r["hadar"]["makespan"] for r in runs]),
            "cru": gmean([r["hadar"]["utilization"] / r["gavel"]["utilization"] for r in runs])}


def toggle_table(*, size: str = "quick", toggles: dict[str, tuple[Any, ...]] | None = None) -> Table:
    """The default inputs, then each toggle's other values one at a time (:data:`TOGGLES`): the ratios.

    ``size``: ``"quick"`` (:data:`QUICK`, the default tier), ``"paper"`` (:data:`PAPER`, Section IV's 480 jobs
    on 60 GPUs) or ``"full"`` (:data:`FULL`, Gavel's 36:36:36; both minutes to hours of CPU).
    """
    size_ = SIZES[check_choice(size, "size", tuple(SIZES))]
    flips = TOGGLES if toggles is None else toggles
    for key in flips:
        if key not in DEFAULTS:
            raise ArgumentError(f"toggles has {key!r}; expected keys of {sorted(DEFAULTS)}")
    table = Table("Hadar against Gavel's max-min fairness, Gavel's msr traces (ratios above 1: Hadar better)",
                  ("toggle", "value", "jct", "p50", "ttd", "cru"))
    rows = [("default", "-", dict(DEFAULTS))] + [(k, v, {**DEFAULTS, k: v}) for k, vs in flips.items() for v in vs]
    for name, value, inputs in rows:
        r = compare(**size_, **inputs)
        table.add(name, value if isinstance(value, str) or value is None else f"{value:g}", r["jct"], r["p50"], r["ttd"], r["cru"])
    table.notes.append(f"size {size} {size_}; defaults {DEFAULTS}; jct, p50, ttd: Gavel/Hadar average JCT, median JCT, "
                       "makespan; cru: Hadar/Gavel GPU utilization; geometric means over the trace seeds")
    return table
