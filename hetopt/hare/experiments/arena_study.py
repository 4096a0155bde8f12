"""Hare's Algorithm 1 against FIFO and SRTF in the arena, on Gavel's msr trace: which input moves the verdict.

The arena's ``hare_lp`` (Algorithm 1 at job level with ``H`` from Hare's round-level LP,
:mod:`hetopt.arena.paper_hare`) and the arena's ``fifo`` and ``srtf`` run the same jobs of Gavel's
``msr/seed=0/ed69ec`` trace (951 single-GPU jobs, Gavel's measured throughputs) on Gavel's simulated
cluster (36:36:36), arriving as a Poisson process at a load in jobs/hour.  :func:`compare` returns each
one's average JCT and makespan and the best baseline's average JCT over Hare's; every input is one
keyword: the GPU rule of line 12 (``gpu_rule``), when the plan is remade (``replan``), the load and the
number of jobs.  :func:`reading_table` runs the GPU rules and replans.  ``models/hare2022.md`` reads the
results.
"""

from __future__ import annotations

import functools
from typing import Any

from ...arena import at_load, execute, gavel_trace, make_policy, metrics_of
from ...arena.paper_hare import GPU_RULES, REPLANS
from ...inputs import check_choice, check_positive, check_size
from ...report import Table

__all__ = ["TRACE", "COUNTS", "BASELINES", "SIZES", "GPU_RULES", "REPLANS", "compare", "reading_table"]

TRACE = "msr/seed=0/ed69ec"
COUNTS = "36:36:36"
#: The baselines of Hare's Section 7 that the arena runs as they are (Gavel_FIFO's rule, SRTF).
BASELINES = ("fifo", "srtf")
#: The default tier's size (the trace's first 150 jobs at 1 job/hour) and the arena page's (every job).
SIZES: dict[str, dict[str, Any]] = {"quick": {"n_jobs": 150, "load": 1.0}, "page": {"n_jobs": None, "load": 2.0}}


@functools.lru_cache(maxsize=64)
def _run(policy: str, gpu_rule: str, replan: str, load: float, n_jobs: int | None, seed: int,
         shrink: float) -> dict[str, float]:
    w = gavel_trace(TRACE, COUNTS)
    if n_jobs is not None:
        w = w.subset(range(min(n_jobs, w.n_jobs)))
    if shrink != 1.0:
        w = w.replace(steps=w.steps / shrink)
    wl = at_load(w, load, seed=seed)
    pol = make_policy(policy, gpu_rule=gpu_rule, replan=replan) if policy == "hare_lp" else make_policy(policy)
    m = metrics_of(wl, execute(wl, pol, seed=seed))
    return {"avg_jct": float(m.avg_jct), "makespan": float(m.makespan), "utilization": float(m.utilization)}


def compare(*, gpu_rule: str = "earliest_available", replan: str = "arrival", load: float = 2.0,
            n_jobs: int | None = None, seed: int = 0, shrink: float = 1.0) -> dict[str, Any]:
    """Hare (``hare_lp``) and the baselines on the trace at ``load`` jobs/hour.

    ``n_jobs``: the trace's first jobs only (None: all); ``shrink``: every job's steps divided by it (shorter
    runs for tests).

    Returns ``{"hare": metrics, "fifo": metrics, "srtf": metrics, "ratio": best baseline's average JCT /
    Hare's}`` (above 1: Hare is best), each metrics a dict of ``avg_jct``, ``makespan`` (s) and ``utilization``.
    """
    gpu_rule = check_choice(gpu_rule, "gpu_rule", GPU_RULES)
    replan = check_choice(replan, "replan", REPLANS)
    load = check_positive(load, "load")
    n_jobs = None if n_jobs is None else check_size(n_jobs, "n_jobs")
    seed = check_size(seed, "seed", minimum=0)
    shrink = check_positive(shrink, "shrink")
    out: dict[str, Any] = {"hare": _run("hare_lp", gpu_rule, replan, load, n_jobs, seed, shrink)}
    for b in BASELINES:
        out[b] = _run(b, "", "", load, n_jobs, seed, shrink)
    out["ratio"] = min(out[b]["avg_jct"] for b in BASELINES) / out["hare"]["avg_jct"]
    return out


def reading_table(*, size: str = "quick", gpu_rules: tuple[str, ...] = GPU_RULES,
                  replans: tuple[str, ...] = REPLANS) -> Table:
    """Average JCT (h) of Hare under each GPU rule and replan, the baselines', and the ratio, at one size."""
    kw = SIZES[check_choice(size, "size", tuple(SIZES))]
    table = Table(title=f"Hare (hare_lp) against {', '.join(BASELINES)} in the arena ({TRACE}, {COUNTS}, "
                        f"{kw['n_jobs'] or 'every'} jobs at {kw['load']:g} jobs/hour, seed 0)",
                  columns=("gpu_rule", "replan", "hare_avg_jct_h", "fifo_avg_jct_h", "srtf_avg_jct_h",
                           "hare_makespan_h", "best_baseline_over_hare"))
    for rule in gpu_rules:
        for replan in replans:
            r = compare(gpu_rule=rule, replan=replan, **kw)
            table.add(rule, replan, r["hare"]["avg_jct"] / 3600, r["fifo"]["avg_jct"] / 3600,
                      r["srtf"]["avg_jct"] / 3600, r["hare"]["makespan"] / 3600, r["ratio"])
    return table
