"""The experiments behind the Hadar claims of the ledger (:mod:`hetopt.claims.hadar`) and its sweeps.

Every function reruns the experiment through the public API of :mod:`hetopt.hadar`
(``simulate``, ``physical_mix``, ``trace_workload``, ``makespan_lower_bound``, ...), so the Gavel
baseline's numbers follow whatever :mod:`hetopt.gavel` computes.  The runs several claims share
(:func:`motivating_runs`, :func:`physical_summary`, :func:`trace_runs`, :func:`trace_bound`,
:func:`forking_copies`) are cached for the life of the process; :func:`clear_caches` drops them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from ...hadar import (
    HadarInstance,
    MakespanBound,
    makespan_lower_bound,
    min_rounds,
    motivating_example,
    physical_mix,
    simulate,
    trace_workload,
)
from ...hadar.workloads import CLUSTERS, MIXES, SPEEDS
from ...report import Table
from . import paper

__all__ = ["motivating_runs", "physical_summary", "trace_instance", "trace_bound", "trace_runs", "queue_order_table",
           "physical_speeds_table", "forking_copies", "forking_copies_table", "gang_busy_fractions", "clear_caches"]


def gang_busy_fractions(gpus: Sequence[int], n_gpus: int) -> list[float]:
    """Every fraction of ``n_gpus`` GPUs a round can keep busy with gangs of the given sizes (subset sums)."""
    sums = {sum(c) for k in range(len(gpus) + 1) for c in itertools.combinations(list(gpus), k) if sum(c) <= n_gpus}
    return sorted(s / n_gpus for s in sums)


@cache
def motivating_runs() -> dict[str, Any]:
    """Section II-A: Gavel, Hadar, HadarE (no restart delay), the exact fewest rounds, gang subset sums."""
    inst = motivating_example()
    runs = {p: simulate(inst, p, restart_delay=0.0) for p in ("gavel", "hadar", "hadare")}
    n = int(inst.capacity.sum())
    busy = {p: [float(r["allocation"].sum()) / n for r in s.rounds] for p, s in runs.items()}
    return {"inst": inst, "runs": runs, "rounds": {p: len(s.rounds) for p, s in runs.items()}, "busy": busy,
            "min_rounds": min_rounds(inst), "fractions": gang_busy_fractions(inst.gpus.tolist(), n)}


@cache
def physical_summary(cluster: str, speeds: str) -> dict[str, Any]:
    """Section VI over the seven mixes: mean TTD speedups and CRU gains against Gavel, per-mix numbers."""
    rows: dict[str, dict[str, Any]] = {}
    for name in MIXES:
        inst = physical_mix(name, cluster, speeds=speeds)
        r = {p: simulate(inst, p, record_rounds=False) for p in ("gavel", "hadar", "hadare")}
        rows[name] = {"rank": int(np.linalg.matrix_rank(inst.throughput)),
                      "ttd": {p: x.total_duration for p, x in r.items()},
                      "cru": {p: x.cluster_utilization for p, x in r.items()},
                      "jct": {p: x.average_jct for p, x in r.items()}}

    def mean(f: Any) -> float:
        return float(np.mean([f(v) for v in rows.values()]))

    return {
        "mixes": rows,
        "rank": max(v["rank"] for v in rows.values()),
        "speedup_hadar": mean(lambda v: v["ttd"]["gavel"] / v["ttd"]["hadar"]),
        "speedup_hadare": mean(lambda v: v["ttd"]["gavel"] / v["ttd"]["hadare"]),
        "speedup_hadare_vs_hadar": mean(lambda v: v["ttd"]["hadar"] / v["ttd"]["hadare"]),
        "cru_hadar": mean(lambda v: v["cru"]["hadar"] / v["cru"]["gavel"]),
        "cru_hadare": mean(lambda v: v["cru"]["hadare"] / v["cru"]["gavel"]),
        "jct_hadar": mean(lambda v: v["jct"]["gavel"] / v["jct"]["hadar"]),
        "jct_hadare_vs_hadar": mean(lambda v: v["jct"]["hadar"] / v["jct"]["hadare"]),
        "cru_hadare_vs_hadar": mean(lambda v: v["cru"]["hadare"] / v["cru"]["hadar"]),
        "m5_speedup_hadar": rows["M-5"]["ttd"]["gavel"] / rows["M-5"]["ttd"]["hadar"],
        "hadar_faster_every_mix": all(v["ttd"]["hadar"] < v["ttd"]["gavel"] for v in rows.values()),
        "forking_cru_order": all(v["cru"]["hadare"] >= v["cru"]["hadar"] - 1e-9 for v in rows.values()),
    }


def trace_instance(quick: bool = False) -> HadarInstance:
    """Section IV's sampled trace: 480 jobs on 15 machines (``quick``: 48 shorter jobs on 6 machines)."""
    if quick:
        return trace_workload(48, seed=0, n_machines=6, hours_scale=0.05)
    return trace_workload(paper.TRACE_JOBS, seed=0)


@cache
def trace_bound(quick: bool = False) -> MakespanBound:
    """The fluid LP lower bound on the makespan of :func:`trace_instance` (any scheduler)."""
    return makespan_lower_bound(trace_instance(quick))


@cache
def trace_runs(quick: bool = False,
               policies: tuple[str, ...] = ("gavel", "hadar", "tiresias", "yarn_cs")) -> dict[str, Any]:
    """Section IV: the (sampled) trace under each policy, 6-minute rounds, with the makespan LP bound."""
    inst = trace_instance(quick)
    runs = {p: simulate(inst, p, round_length=360.0, record_rounds=False) for p in policies}
    return {"inst": inst, "runs": runs, "bound": trace_bound(quick)}


def queue_order_table(quick: bool = False) -> Table:
    """Hadar's TTD on the trace against the order of its queue, with Gavel and the makespan bound.

    The prices never bind on the trace (``U_min`` is about 1e-12), so the DP admits jobs in
    queue order; the order among jobs that arrive together is not specified by the paper.
    """
    inst = trace_instance(quick)
    lb = trace_bound(quick)
    orders = [("index", 0), ("longest_first", 0), ("random", 0)] + ([] if quick else [("random", 1)])
    t = Table(f"hadar: TTD against queue order ({inst.n_jobs} jobs, 6-minute rounds; makespan LP bound "
              f"{lb.hours:.1f} h)", ["policy", "queue order", "seed", "TTD (h)", "TTD / bound", "GRU", "per-job GRU"])
    for order, seed in orders:
        r = simulate(inst, "hadar", round_length=360.0, record_rounds=False,
                     policy_options={"queue_order": order, "seed": seed})
        t.add("hadar", order, seed, r.total_duration / 3600, r.total_duration / lb.seconds, r.utilization,
              r.job_utilization)
    g = trace_runs(quick, ("gavel",))["runs"]["gavel"]
    t.add("gavel", "-", "-", g.total_duration / 3600, g.total_duration / lb.seconds, g.utilization, g.job_utilization)
    t.notes.append(f"makespan LP bound {lb.hours:.2f} h (closed-form cross-check {lb.closed_form / 3600:.2f} h); "
                   f"no scheduler can be more than {g.total_duration / lb.seconds:.3f}x faster than Gavel here.")
    return t


def physical_speeds_table(quick: bool = False) -> Table:
    """Section VI's mean gains over Gavel with eq. (10) speeds (rank 1) and with Gavel's measured speeds."""
    t = Table("hadar: physical mixes, mean gains over Gavel by speed source",
              ["cluster", "speeds", "rank", "TTD Hadar", "TTD HadarE", "CRU Hadar", "CRU HadarE", "HadarE CRU >= Hadar"])
    for cluster in (("aws",) if quick else tuple(CLUSTERS)):
        for speeds in SPEEDS:
            s = physical_summary(cluster, speeds)
            t.add(cluster, speeds, s["rank"], s["speedup_hadar"], s["speedup_hadare"], s["cru_hadar"],
                  s["cru_hadare"], s["forking_cru_order"])
    ttd, ttd_e = paper.TTD_SPEEDUP_HADAR, paper.TTD_SPEEDUP_HADARE
    cru, cru_e = paper.CRU_GAIN_HADAR, paper.CRU_GAIN_HADARE
    t.notes.append(f"Paper (AWS / testbed): TTD {ttd[0]:.2f}x / {ttd[1]:.2f}x (Hadar), {ttd_e[0]:.2f}x (HadarE); "
                   f"CRU {cru[0]:.2f}x / {cru[1]:.2f}x (Hadar), {cru_e[0]:.2f}x / {cru_e[1]:.2f}x (HadarE).  "
                   "'gavel' speeds: Gavel's measured throughputs on stand-in GPUs.")
    return t


@cache
def forking_copies(cluster: str, speeds: str, restart_delay: float,
                   mixes: tuple[str, ...] = tuple(MIXES)) -> dict[str, list[float]]:
    """HadarE's CRU on each mix against the number of copies per job (1 ... nodes)."""
    out = {}
    for name in mixes:
        inst = physical_mix(name, cluster, speeds=speeds)
        out[name] = [simulate(inst, "hadare", restart_delay=restart_delay, record_rounds=False,
                              policy_options={"n_copies": k}).cluster_utilization
                     for k in range(1, inst.n_machines + 1)]
    return out


def forking_copies_table(quick: bool = False) -> Table:
    """Theorem 3: HadarE's CRU against copies per job, with the 10 s restart delay and without."""
    configs = [("aws", "gavel")] if quick else [(c, s) for c in CLUSTERS for s in SPEEDS]
    mixes = ("M-3", "M-5") if quick else tuple(MIXES)
    t = Table("hadar: HadarE CRU against copies per job (Theorem 3: n copies is maximal)",
              ["cluster", "speeds", "mix", "restart delay (s)", "CRU by copies 1..n", "n copies maximal"])
    for cluster, speeds in configs:
        for delay in (10.0, 0.0):
            res = forking_copies(cluster, speeds, delay, mixes)
            for name, cru in res.items():
                t.add(cluster, speeds, name, delay, " ".join(f"{c:.3f}" for c in cru), cru[-1] >= max(cru) - 1e-9)
    return t


def clear_caches() -> None:
    """Drop the cached runs (the next call of each experiment reruns it)."""
    for f in (motivating_runs, physical_summary, trace_bound, trace_runs, forking_copies):
        f.cache_clear()
