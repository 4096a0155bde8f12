"""The experiments behind the Hadar claims of the ledger (:mod:`hetopt.hadar.experiments.claims`) and its sweeps.

Every function reruns the experiment through :mod:`hetopt.hadar`'s public API, so the Gavel baseline's numbers
follow :mod:`hetopt.gavel`.  The runs several claims share are cached for the life of the process
(:func:`clear_caches` drops them); trace runs computed on free cores wait in :data:`PREFETCHED`.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from ...gavel import max_min_fairness
from ...report import Table
from .. import (
    HadarInstance,
    MakespanBound,
    makespan_lower_bound,
    min_rounds,
    motivating_example,
    physical_mix,
    simulate,
    trace_workload,
)
from ..policies import GavelPolicy, HadarPolicy
from ..price import PriceParameters
from ..workloads import CLUSTERS, MIXES, MODEL_TRAITS, SPEEDS
from . import paper

__all__ = ["motivating_runs", "physical_summary", "trace_instance", "trace_bound", "trace_runs", "queue_order_table",
           "physical_speeds_table", "forking_copies", "forking_copies_table", "gang_busy_fractions", "clear_caches"]


def gang_busy_fractions(gpus: Sequence[int], n_gpus: int, *, gang: bool = True) -> list[float]:
    """Every fraction of ``n_gpus`` GPUs a round can keep busy with gangs of the given sizes (subset sums).

    ``gang=False`` drops P1's constraint (1e): a job may then take any number of GPUs from 0 to
    ``n_gpus`` (Fig. 1(b)'s "all GPUs" for a job), so the sizes a job contributes are 0 ... n_gpus.
    """
    sizes = [[0, w] if gang else list(range(n_gpus + 1)) for w in gpus]
    sums = {sum(c) for c in itertools.product(*sizes) if sum(c) <= n_gpus}
    return sorted(s / n_gpus for s in sums)


def _speed_scaled(inst: HadarInstance, factor: float) -> HadarInstance:
    """The instance with every throughput multiplied by ``factor`` (a perturbation of the OCR'd speeds)."""
    return dataclasses.replace(inst, throughput=inst.throughput * factor)


#: Variants of the Section II-A example (the flips of its claims change the workload).
MOTIVATING_VARIANTS = ("printed", "double_capacity", "gangs_of_two", "homogeneous", "one_job")


def motivating_variant(variant: str = "printed") -> HadarInstance:
    """The Section II-A example (``"printed"``) or a variant of it.

    ``"double_capacity"``: twice the GPUs of every type (every job fits in every round);
    ``"gangs_of_two"``: every job a gang of 2 GPUs at the same per-round speed (gangs 2, 2, 2 can
    fill the 6 GPUs); ``"homogeneous"``: every job as fast on every type as on its fastest;
    ``"one_job"``: J2 alone (2 GPUs, fastest on the 3 P100).
    """
    inst = motivating_example()
    if variant == "printed":
        return inst
    if variant == "double_capacity":
        return dataclasses.replace(inst, capacity=inst.capacity * 2)
    if variant == "gangs_of_two":
        W = np.full(inst.n_jobs, 2, dtype=np.int64)
        return dataclasses.replace(inst, gpus=W, throughput=inst.throughput * inst.gpus[:, None] / W[:, None])
    if variant == "homogeneous":
        best = inst.throughput.max(axis=1, keepdims=True)
        return dataclasses.replace(inst, throughput=np.repeat(best, inst.n_types, axis=1))
    if variant == "one_job":
        k = slice(1, 2)
        return dataclasses.replace(inst, arrival=inst.arrival[k], gpus=inst.gpus[k], epochs=inst.epochs[k],
                                   iterations_per_epoch=inst.iterations_per_epoch[k], throughput=inst.throughput[k],
                                   job_names=inst.job_names[k])
    raise ValueError(f"variant {variant!r}; expected one of {MOTIVATING_VARIANTS}")


@cache
def motivating_runs(restart_delay: float = 0.0, speed_factor: float = 1.0, gavel_solver: str = "ecos",
                    variant: str = "printed") -> dict[str, Any]:
    """Section II-A: Gavel, Hadar, HadarE, the exact fewest rounds, gang subset sums.

    The paper's example has no restart delay (``restart_delay=0``); ``speed_factor`` scales the
    speeds reconstructed from the OCR; ``gavel_solver`` is the LP solver of Gavel's max-min
    fairness (``"ecos"``, Gavel's, or ``"highs"``, a vertex of the same LP); ``variant`` is
    :func:`motivating_variant`'s.
    """
    inst = motivating_variant(variant)
    inst = inst if speed_factor == 1.0 else _speed_scaled(inst, speed_factor)
    gopt = None if gavel_solver == "ecos" else {"policy": functools.partial(max_min_fairness, solver=gavel_solver)}
    runs = {p: simulate(inst, p, restart_delay=restart_delay, options=gopt if p == "gavel" else None)
            for p in ("gavel", "hadar", "hadare")}
    n = int(inst.capacity.sum())
    busy = {p: [float(r["allocation"].sum()) / n for r in s.rounds] for p, s in runs.items()}
    return {"inst": inst, "runs": runs, "rounds": {p: len(s.rounds) for p, s in runs.items()}, "busy": busy,
            "min_rounds": min_rounds(inst), "fractions": gang_busy_fractions(inst.gpus.tolist(), n)}


#: Readings of the order among Gavel's round-1 entries (no job has received any share yet).
ROUND1_TIEBREAKS = ("gavel", "index")


def gavel_round1_busy(tiebreak: str = "gavel", variant: str = "printed") -> float:
    """Fraction of the example's 6 GPUs Gavel keeps busy in its first round under a round-1 tie-break.

    ``"gavel"``: Gavel's sort (priority ``X * 1e9`` while the share received is 0, then deficit,
    then the allocation ``X``), as :class:`~hetopt.hadar.policies.GavelPolicy` runs it.
    ``"index"``: in round 1 no job has received a share, so the jobs tie; taken in job order
    (J1, J2, J3), each on the type of its largest LP time fraction that still has ``W_j`` free GPUs.
    """
    if tiebreak == "gavel":
        return motivating_runs(variant=variant)["busy"]["gavel"][0]
    if tiebreak != "index":
        raise ValueError(f"tiebreak {tiebreak!r}; expected one of {ROUND1_TIEBREAKS}")
    inst = motivating_variant(variant)
    pol = GavelPolicy()
    pol.reset(inst)
    X = max_min_fairness(pol.T, inst.gpus, pol.per_type)
    free = pol.per_type.astype(int).copy()
    busy = 0
    for j in range(inst.n_jobs):
        for r in np.argsort(-X[j], kind="stable"):
            if X[j, r] > 1e-9 and free[r] >= inst.gpus[j]:
                free[r] -= int(inst.gpus[j])
                busy += int(inst.gpus[j])
                break
    return busy / float(inst.capacity.sum())


def physical_instance(name: str, cluster: str, speeds: str = "eq10", *, minutes: float = 20.0,
                      sized: bool = False) -> HadarInstance:
    """A Section VI mix; ``sized``: each job's length scales with its dataset size (Table III, S=1 ... XL=4; M = 20 min)."""
    inst = physical_mix(name, cluster, speeds=speeds, minutes_on_fastest=minutes)
    if sized:
        f = np.array([MODEL_TRAITS[n.rstrip("0123456789")][2] for n in inst.job_names], dtype=float) / 2.0
        inst = dataclasses.replace(inst, epochs=np.maximum(1, np.round(inst.epochs * f)).astype(np.int64))
    return inst


@cache
def physical_summary(cluster: str, speeds: str, restart_delay: float = 10.0, copies: int | None = None,
                     minutes: float = 20.0, round_length: float = 360.0, sized: bool = False,
                     hadar_options: tuple[tuple[str, Any], ...] = ()) -> dict[str, Any]:
    """Section VI over the seven mixes: mean TTD speedups and CRU gains against Gavel, per-mix numbers.

    ``restart_delay``: seconds a job loses when its allocation changes (Section IV: 10 s);
    ``copies``: HadarE's copies per job (None: one per node; 1 switches forking off);
    ``minutes``: each job's length on its fastest GPU; ``round_length``: the slot (360 s);
    ``sized``: job lengths scaled by dataset size; ``hadar_options``: Hadar's policy options.
    """
    rows: dict[str, dict[str, Any]] = {}
    hopt = dict(hadar_options)
    prices_off = bool(hopt.pop("prices_off", False))
    opts = {"hadare": None if copies is None else {"n_copies": copies}, "gavel": None, "hadar": hopt or None}
    for name in MIXES:
        inst = physical_instance(name, cluster, speeds, minutes=minutes, sized=sized)
        r = {p: simulate(inst, PricesOff(**hopt) if (p == "hadar" and prices_off) else p, record_rounds=False,
                         restart_delay=restart_delay, round_length=round_length,
                         options=None if (p == "hadar" and prices_off) else opts[p])
             for p in ("gavel", "hadar", "hadare")}
        rows[name] = {"rank": int(np.linalg.matrix_rank(inst.throughput)), "jobs": inst.n_jobs,
                      "ttd": {p: x.total_duration for p, x in r.items()},
                      "cru": {p: x.cluster_utilization for p, x in r.items()},
                      "jct": {p: x.average_jct for p, x in r.items()},
                      "jct_range": {p: float(np.ptp(np.asarray(x.jct, dtype=float))) for p, x in r.items()}}

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
        "jct_hadare": mean(lambda v: v["jct"]["gavel"] / v["jct"]["hadare"]),
        "m5_jct_hadar": rows["M-5"]["jct"]["gavel"] / rows["M-5"]["jct"]["hadar"],
        "hadare_range_narrowest": all(v["jct_range"]["hadare"] < min(v["jct_range"]["gavel"], v["jct_range"]["hadar"])
                                      for v in rows.values() if v["jobs"] > 1),
        "gap_per_mix": {m: v["ttd"]["gavel"] / v["ttd"]["hadar"] for m, v in rows.items() if v["jobs"] > 1},
        "cru_hadare_vs_hadar": mean(lambda v: v["cru"]["hadare"] / v["cru"]["hadar"]),
        "m5_speedup_hadar": rows["M-5"]["ttd"]["gavel"] / rows["M-5"]["ttd"]["hadar"],
        "hadar_faster_every_mix": all(v["ttd"]["hadar"] < v["ttd"]["gavel"] * (1 - 1e-9) if v["jobs"] > 1
                                      else v["ttd"]["hadar"] <= v["ttd"]["gavel"] * (1 + 1e-9) for v in rows.values()),
        "forking_cru_order": all(v["cru"]["hadare"] >= v["cru"]["hadar"] - 1e-9 for v in rows.values()),
    }


class PricesOff(HadarPolicy):
    """Hadar with the prices of eq. (5) switched off: every GPU costs ``1e-12 U_min`` whatever is allocated.

    The communication cost (``comm_weight * U_min`` per GPU off the main machine) is kept as it
    is, so only the prices change.
    """

    def reset(self, inst: HadarInstance) -> None:
        super().reset(inst)
        k = 1e-12
        p = self.params
        self.params = PriceParameters(u_max=p.u_min * k, u_min=p.u_min * k, eta=p.eta)
        self.comm_weight = self.comm_weight / k


def price_effect(inst: HadarInstance, **kw: Any) -> tuple[int, int]:
    """(rounds whose allocation changes when the prices are switched off, rounds) of Hadar on ``inst``."""
    a = simulate(inst, "hadar", **kw)
    b = simulate(inst, PricesOff(), **kw)
    n = min(len(a.rounds), len(b.rounds))
    changed = sum(not np.array_equal(a.rounds[i]["allocation"], b.rounds[i]["allocation"]) for i in range(n))
    return changed + abs(len(a.rounds) - len(b.rounds)), len(a.rounds)


def one_machine(inst: HadarInstance) -> HadarInstance:
    """The instance with all its machines merged into one (each type's GPUs on a single machine)."""
    return dataclasses.replace(inst, capacity=inst.capacity.sum(axis=0, keepdims=True))


@cache
def prices_bind(workload: str, machines: str = "nodes") -> dict[str, tuple[int, int]]:
    """:func:`price_effect` on each instance of a workload.

    ``"physical"``: the 7 mixes, both clusters, eq. (10) speeds, one GPU per node (``machines=
    "one_machine"``: the five nodes merged into one machine); ``"validation"``: the 4 certified
    instances of Theorem 2, several GPUs per machine.
    """
    from .. import small_instance

    if workload == "physical":
        merge = {"nodes": lambda i: i, "one_machine": one_machine}[machines]
        return {f"{c}/{m}": price_effect(merge(physical_mix(m, c))) for c in CLUSTERS for m in MIXES}
    if workload == "validation":
        return {f"small seed {s}": price_effect(small_instance(seed=s)) for s in range(4)}
    raise ValueError(f"workload {workload!r}; expected 'physical' or 'validation'")


@cache
def physical_moves(cluster: str, restart_delay: float = 10.0) -> dict[str, tuple[int, int]]:
    """(rounds that change a running job's allocation, rounds) of Gavel and Hadar over the seven mixes."""
    from ..policies import make_policy

    out = {}
    for pol in ("gavel", "hadar"):
        changed = rounds = 0
        for name in MIXES:
            c = ChangeCounter(make_policy(pol))
            simulate(physical_mix(name, cluster), c, restart_delay=restart_delay, record_rounds=False)
            changed, rounds = changed + c.changed, rounds + c.rounds
        out[pol] = (changed, rounds)
    return out


#: Restart delays (s) of the Section VI sweep: Section IV's 10 s first.
PHYS_DELAYS = (10.0, 60.0, 90.0, 120.0, 150.0, 180.0)


def restart_delay_table(quick: bool = False) -> Table:
    """Section VI's Hadar-vs-Gavel ratios against the restart delay (eq. (10) speeds, both clusters)."""
    delays = (10.0, 120.0) if quick else PHYS_DELAYS
    t = Table("hadar: Hadar against Gavel on the physical mixes by restart delay (eq. (10) speeds)",
              ["cluster", "restart delay (s)", "TTD Gavel/Hadar", "CRU Hadar/Gavel", "JCT Gavel/Hadar", "M-5 TTD",
               "Hadar faster every mix"])
    for cluster in (("aws",) if quick else tuple(CLUSTERS)):
        for d in delays:
            s = physical_summary(cluster, "eq10", d)
            t.add(cluster, d, s["speedup_hadar"], s["cru_hadar"], s["jct_hadar"], s["m5_speedup_hadar"],
                  s["hadar_faster_every_mix"])
    moves = physical_moves("aws")
    t.notes.append("Rounds that move or preempt a running job (AWS, 10 s, seven mixes): " + ", ".join(
        f"{p} {c} of {n} ({c / n:.0%})" for p, (c, n) in moves.items()) + ".")
    t.notes.append(f"Paper (AWS / testbed): TTD {paper.TTD_SPEEDUP_HADAR}, CRU {paper.CRU_GAIN_HADAR}, JCT "
                   f"{paper.JCT_GAIN_HADAR}, M-5 {paper.M5_SPEEDUP_HADAR}.  Gavel's max-min fairness moves jobs "
                   "between GPUs every round (each move pays the delay); Hadar, whose prices never bind on one-GPU "
                   "nodes, keeps its jobs in place.")
    return t


#: The candidate mechanisms of Hadar slower than Gavel on the physical mixes: name -> physical_summary kwargs.
MECHANISMS: dict[str, dict[str, Any]] = {
    "as run (10 s delay, 360 s rounds, index queue, exact DP)": {},
    "round length 90 s": {"round_length": 90.0},
    "restart delay 0 s": {"restart_delay": 0.0},
    "restart delay 120 s": {"restart_delay": 120.0},
    "restart delay 180 s": {"restart_delay": 180.0},
    "queue longest first": {"hadar_options": (("queue_order", "longest_first"),)},
    "greedy DP (beam width 1)": {"hadar_options": (("beam_width", 1),)},
    "prices switched off": {"hadar_options": (("prices_off", True),)},
    "job lengths by dataset size": {"sized": True},
}


def physical_mechanism_table(quick: bool = False) -> Table:
    """Every candidate mechanism of Hadar slower than Gavel, measured (eq. (10) speeds)."""
    t = Table("hadar: candidate mechanisms of Hadar against Gavel on the physical mixes (eq. (10) speeds)",
              ["candidate", "cluster", "TTD Gavel/Hadar", "CRU Hadar/Gavel", "JCT Gavel/Hadar"])
    names = list(MECHANISMS)[:4] if quick else list(MECHANISMS)
    for name in names:
        for cluster in (("aws",) if quick else tuple(CLUSTERS)):
            kw = MECHANISMS[name]
            s = physical_summary(cluster, "eq10", **{"restart_delay": 10.0, **kw})
            t.add(name, cluster, s["speedup_hadar"], s["cru_hadar"], s["jct_hadar"])
    t.notes.append("Only the restart delay (Gavel's per-round migrations) turns Hadar's TTD and CRU deficit into the "
                   "paper's advantage; the prices change no decision on one-GPU nodes.")
    return t


#: GPU-hours scale of the light trace on which the paper's 40 h is feasible (LP bound about 34 h): a value
#: fitted to the paper's 40 h, so it is a diagnosis (the sweep ``hadar.queue_order``), never a verdict's input.
LIGHT_HOURS = 0.1
#: Readings of a trace job's class: sampled uniformly (the generator's) or from the Philly-derived trace.
CLASS_READINGS = ("uniform", "philly")


def philly_job_hours() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(GPU-hours, GPU count, arrival s) of each job of the bundled Philly-derived trace.

    The trace is Gavel's ``traces/msr/seed=0/ed69ec.trace`` (its first 60 jobs, bundled by
    :mod:`hetopt.gavel.traces`, MIT licence): Microsoft Philly arrivals and durations, Gavel's job
    types.  A job's GPU-hours are its steps at its V100 throughput times its GPU count.
    """
    from ...gavel import load_trace

    g = load_trace("ed69ec_first60")
    hours = g.total_steps / g.throughput[:, 0] * g.scale_factor / 3600.0
    return hours, g.scale_factor.astype(np.int64), g.arrival.astype(float)


def philly_workload(n_jobs: int = 480, *, seed: int = 0, hours_scale: float = 1.0, n_machines: int = 15) -> HadarInstance:
    """Section IV's workload with each job's class taken from its own GPU-hours on the Philly-derived trace.

    Job ``i`` is a job of the bundled trace drawn with ``seed``: its GPU-hours (clipped to the
    paper's largest class, 100), its class from them (S 0-1, M 1-10, L 10-50, XL 50-100: the gap
    50-60 is closed upwards), a Table II model of that class, its GPU count (capped at 8 and to the
    sizes Gavel measured), all arriving at 0 (the bundled 60 jobs span 270 h with day-long gaps;
    the paper's 480 come from a 7-hour window).  Throughputs as :func:`~hetopt.hadar.trace_workload`.
    """
    from ..utility import Utility
    from ..workloads import GPU_HOUR_CLASSES, TABLE2_MODELS, _gavel_table, scaled_cluster

    hours, gpus, _ = philly_job_hours()
    rng = np.random.default_rng(seed)
    pick = rng.integers(len(hours), size=n_jobs)
    tab = _gavel_table()
    types = ("v100", "p100", "k80")
    X = np.zeros((n_jobs, 3))
    W = np.zeros(n_jobs, dtype=np.int64)
    total = np.zeros(n_jobs)
    names = []
    for j, k in enumerate(pick):
        h = float(min(hours[k], GPU_HOUR_CLASSES["XL"][1]))
        cls = "S" if h <= 1 else "M" if h <= 10 else "L" if h <= 50 else "XL"
        models = TABLE2_MODELS[cls]
        model = models[rng.integers(len(models))]
        w = int(min(gpus[k], 8))
        while w > 1 and (model, w) not in tab:
            w //= 2
        t = tab[(model, w)]
        X[j] = [t[r] / w for r in types]
        W[j] = w
        total[j] = max(1.0, h * hours_scale * 3600.0 / w * t["v100"])
        names.append(f"{model}/{cls}/{w}gpu")
    N = np.full(n_jobs, 1000, dtype=np.int64)
    E = np.maximum(1, np.round(total / N)).astype(np.int64)
    return HadarInstance(capacity=scaled_cluster(n_machines, 4, types), arrival=np.zeros(n_jobs, dtype=np.int64),
                         gpus=W, epochs=E, iterations_per_epoch=N, throughput=X,
                         utility=Utility("effective_throughput"), slot_length=360.0, gpu_types=types,
                         job_names=tuple(names))


@cache
def trace_case(reading: str = "uniform", hours_scale: float = 1.0, n_jobs: int = paper.TRACE_JOBS) -> HadarInstance:
    """The trace (480 jobs) under a class reading, its GPU-hours x ``hours_scale`` (1: as printed; ``LIGHT_HOURS``)."""
    scale = float(hours_scale)
    if reading == "uniform":
        return trace_workload(n_jobs, seed=0, hours_scale=scale)
    if reading == "philly":
        return philly_workload(n_jobs, seed=0, hours_scale=scale)
    raise ValueError(f"class reading {reading!r}; expected one of {CLASS_READINGS}")


@cache
def trace_case_bound(reading: str = "uniform", hours_scale: float = 1.0) -> MakespanBound:
    """The makespan LP bound of :func:`trace_case`."""
    return makespan_lower_bound(trace_case(reading, hours_scale))


class ShortestFirst(HadarPolicy):
    """Hadar with its queue (among jobs that arrive together) in shortest-single-job-time-first order."""

    def reset(self, inst: HadarInstance) -> None:
        super().reset(inst)
        t = inst.total_iterations / inst.best_gang_rate()
        rank = np.empty(inst.n_jobs, dtype=np.int64)
        rank[np.argsort(t, kind="stable")] = np.arange(inst.n_jobs)
        self.rank = rank


def types_reversed(inst: HadarInstance) -> HadarInstance:
    """The instance with its GPU types in reverse order (K80, P100, V100).

    A heterogeneity-unaware policy that takes types in index order then tries the slowest first.
    """
    p = list(range(inst.n_types))[::-1]
    return dataclasses.replace(inst, capacity=inst.capacity[:, p], throughput=inst.throughput[:, p],
                               gpu_types=tuple(inst.gpu_types[i] for i in p))


def trace_case_key(reading: str, policy: str, queue_order: str = "index", restart_delay: float = 10.0,
                   type_order: str = "fastest", hours_scale: float = 1.0, n_jobs: int = paper.TRACE_JOBS) -> tuple:
    """A case of :func:`trace_case_run` by its arguments, normalized (positional, numbers as float / int)."""
    return reading, policy, queue_order, float(restart_delay), type_order, float(hours_scale), int(n_jobs)


@cache
def trace_case_run(reading: str, policy: str, queue_order: str = "index", restart_delay: float = 10.0,
                   type_order: str = "fastest", hours_scale: float = 1.0, n_jobs: int = paper.TRACE_JOBS):
    """One policy on the trace by a class reading, 6-minute rounds (Hadar's ``queue_order``; types reversed if slowest)."""
    key = trace_case_key(reading, policy, queue_order, restart_delay, type_order, hours_scale, n_jobs)
    if key in PREFETCHED:  # run on a free core (``trace.prefetch``): the run this call would compute
        return PREFETCHED.pop(key)
    inst = trace_case(reading, hours_scale, n_jobs)
    inst = types_reversed(inst) if type_order == "slowest" else inst
    pol: Any = ShortestFirst() if policy == "hadar" and queue_order == "shortest_first" else policy
    opts = {"queue_order": queue_order} if policy == "hadar" and queue_order != "shortest_first" else None
    return simulate(inst, pol, round_length=360.0, restart_delay=restart_delay, record_rounds=False, options=opts)


#: Trace runs computed in child processes, by :func:`trace_case_run`'s arguments, until it reads them.
PREFETCHED: dict[tuple, Any] = {}


class ChangeCounter:
    """A policy wrapper that counts the rounds that change a running job's allocation.

    A round counts when a job that held GPUs in the previous round and is still active gets a different allocation (preempted or moved): the rounds that "require changes to job
    resource allocations" (Section IV-B).
    """

    def __init__(self, policy: Any):
        self.policy = policy
        self.name = policy.name
        self.changed = 0
        self.rounds = 0

    def reset(self, inst: HadarInstance) -> None:
        self.policy.reset(inst)
        self.changed = self.rounds = 0

    def allocate(self, state: Any) -> Any:
        gangs = self.policy.allocate(state)
        alloc = np.zeros_like(state.previous)
        for j, w in gangs:
            alloc[j] += w
        running = state.active & (state.previous.sum(axis=(1, 2)) > 0)
        self.rounds += 1
        if any(not np.array_equal(alloc[j], state.previous[j]) for j in np.flatnonzero(running)):
            self.changed += 1
        return gangs


@cache
def rounds_changed(policy: str = "hadar", reading: str = "uniform", queue_order: str = "index",
                   restart_delay: float = 10.0, hours_scale: float = 1.0) -> tuple[int, int]:
    """(rounds that change a running job's allocation, rounds) of a policy on the trace (GPU-hours x ``hours_scale``)."""
    from ..policies import make_policy

    pol = ChangeCounter(make_policy(policy, **({"queue_order": queue_order} if policy == "hadar" else {})))
    simulate(trace_case(reading, hours_scale), pol, round_length=360.0, restart_delay=restart_delay,
             record_rounds=False)
    return pol.changed, pol.rounds


#: Slot times (s) of Figs. 11-12.
SLOT_TIMES = (90.0, 180.0, 360.0, 540.0)
#: Readings of the per-round overhead of Section VI: the restart delay charged when a job's allocation changes
#: (the simulator's, Section IV's words) or to every job every round (every node reports to the scheduler each
#: round and HadarE aggregates every model: Section VI's description of a round).
OVERHEAD_READINGS = ("on_change", "every_round")


class EveryRoundRestart:
    """A policy wrapper under which every job pays the restart delay in every round (the ``every_round`` reading).

    It forgets the previous round's allocation before the simulator compares it with the new one,
    so each gang counts as a new allocation.
    """

    def __init__(self, policy: Any):
        self.policy = policy
        self.name = policy.name

    def reset(self, inst: HadarInstance) -> None:
        self.policy.reset(inst)

    def allocate(self, state: Any) -> Any:
        gangs = self.policy.allocate(state)
        state.previous[...] = 0
        return gangs


@cache
def slot_peaks(cluster: str, policy: str, restart_delay: float = 10.0, overhead: str = "on_change",
               speeds: str = "eq10") -> dict[str, tuple[float, list[float]]]:
    """Figs. 11-12: per mix, the slot time with the highest CRU under ``policy`` and the CRU at each slot time."""
    from ..policies import make_policy

    if overhead not in OVERHEAD_READINGS:
        raise ValueError(f"overhead {overhead!r}; expected one of {OVERHEAD_READINGS}")
    out = {}
    for name in MIXES:
        inst = physical_mix(name, cluster, speeds=speeds)
        cru = [simulate(inst, policy if overhead == "on_change" else EveryRoundRestart(make_policy(policy)),
                        round_length=L, restart_delay=restart_delay, record_rounds=False).cluster_utilization
               for L in SLOT_TIMES]
        out[name] = (SLOT_TIMES[int(np.argmax(cru))], cru)
    return out


def slot_peaks_table(quick: bool = False) -> Table:
    """Figs. 11-12: the slot time of the highest CRU per mix, by policy, overhead reading, speeds and restart delay."""
    delays = (10.0, 30.0) if quick else (10.0, 30.0, 60.0, 120.0)
    t = Table("hadar: slot time (s) of the highest CRU per mix (slots 90 / 180 / 360 / 540 s)",
              ["policy", "overhead", "speeds", "restart delay (s)", "cluster", *MIXES])
    for policy in ("hadare", "hadar"):
        for overhead in OVERHEAD_READINGS:
            for speeds in (("eq10",) if quick else SPEEDS):
                for d in delays:
                    for cluster in CLUSTERS:
                        p = slot_peaks(cluster, policy, d, overhead, speeds)
                        t.add(policy, overhead, speeds, d, cluster, *[p[m][0] for m in MIXES])
    t.notes.append("Paper: Fig. 11 (HadarE) peaks at 360 s for M-8 to M-12 on AWS and M-5 to M-12 on the testbed, at "
                   "90 s for the small mixes; Fig. 12 (Hadar) at 90 or 180 s on AWS (M-3: 360 s), at 360 s for M-5 to "
                   "M-12 on the testbed.  'every_round': every job pays the restart delay every round.")
    return t


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
                     options={"queue_order": order, "seed": seed})
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
                              options={"n_copies": k}).cluster_utilization
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
    for f in (motivating_runs, physical_summary, trace_bound, trace_runs, forking_copies, prices_bind, trace_case,
              trace_case_bound, trace_case_run, rounds_changed, slot_peaks, physical_moves, jct_ranges):
        f.cache_clear()


#: Gavel's policy in Section VI, which the paper does not name: Gavel's headline max-min fairness
#: (hetopt's default, ``"gavel"``) or Gavel's FIFO, both in Gavel's round mechanism.
GAVEL_POLICY_READINGS = ("max_min_fairness", "fifo")


@cache
def jct_ranges(cluster: str, gavel_policy: str = "max_min_fairness", restart_delay: float = 10.0,
               copies: int | None = None) -> dict[str, dict[str, float]]:
    """Per multi-job mix: the JCT range (max - min, s) under Gavel (``gavel_policy``), Hadar and HadarE.

    ``copies``: HadarE's copies per job (None: one per node).
    """
    from ...gavel.fifo import fifo
    from ...inputs import check_choice
    from ..policies import GavelPolicy

    check_choice(gavel_policy, "gavel_policy", GAVEL_POLICY_READINGS)
    gavel: Any = "gavel" if gavel_policy == "max_min_fairness" else GavelPolicy(policy=fifo)
    out: dict[str, dict[str, float]] = {}
    for name in MIXES:
        inst = physical_instance(name, cluster, "eq10")
        if inst.n_jobs < 2:
            continue
        out[name] = {}
        for label, pol in (("gavel", gavel), ("hadar", "hadar"), ("hadare", "hadare")):
            opts = {"n_copies": copies} if label == "hadare" and copies is not None else None
            r = simulate(inst, pol, record_rounds=False, restart_delay=restart_delay, round_length=360.0,
                         options=opts)
            out[name][label] = float(np.ptp(np.asarray(r.jct, dtype=float)))
    return out


def jct_range_table(quick: bool = False) -> Table:
    """Section VI-C: JCT range (max - min) per multi-job mix under Gavel's two policy readings, Hadar and HadarE."""
    t = Table("hadar: JCT range (s) per mix, 10 s restart delay, eq. (10) speeds",
              ["cluster", "mix", "Gavel max-min fairness", "Gavel FIFO", "Hadar", "HadarE"])
    for cluster in (("aws",) if quick else tuple(CLUSTERS)):
        mmf, ff = jct_ranges(cluster, "max_min_fairness"), jct_ranges(cluster, "fifo")
        for name, r in mmf.items():
            t.add(cluster, name, r["gavel"], ff[name]["gavel"], r["hadar"], r["hadare"])
    t.notes.append("Max-min fairness equalizes the jobs' normalized progress, so Gavel's jobs finish close together; "
                   "under FIFO (same mechanism) Gavel's range is the widest.")
    return t
