"""Where workloads come from: clusters, Gavel's traces, the Philly job log, Gavel's generator, a load.

* :func:`cluster` -- servers of each GPU type (``"v100:p100:k80"`` counts as Gavel's driver takes
  them, ``gpus_per_server``, link bandwidths).
* :func:`from_gavel` / :func:`to_gavel` -- a :class:`~hetopt.gavel.GavelInstance` and back.
* :func:`gavel_trace` -- any of Gavel's traces, both line formats
  (:func:`hetopt.gavel.parse_trace`): the 8 ``physical_cluster`` traces and ``msr/seed=0..4/ed69ec``
  (951 jobs) are bundled under Gavel's MIT licence (``hetopt/tables/arena_traces.json``); the other
  ``msr`` traces are read from a checkout of Gavel's ``scheduler/traces`` folder given as
  ``traces_dir`` or by the environment variable ``HETOPT_GAVEL_TRACES``.  Most of those hold
  (job type, scale factor) pairs that Gavel's throughput table never measured (Gavel's simulator
  stops there with a ``KeyError``): ``unmeasured="drop"`` leaves such jobs out and says how many.
* :func:`from_philly` -- the Philly ``cluster_job_log`` (:func:`hetopt.gavel.read_philly_job_log`):
  arrivals, gang sizes and run times from the log, job types drawn as Gavel's generator draws them.
* :func:`generate_instance` -- Gavel's ``generate_job`` distribution at a load in jobs/hour
  (:func:`hetopt.gavel.generate_instance`).
* :func:`at_load` -- a workload's jobs with Poisson arrivals at another load.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ArgumentError, InstanceError
from ..gavel.generators import generate_instance as gavel_generate
from ..gavel.instance import GavelInstance
from ..gavel.traces import GPU_TYPES, cluster_capacity, parse_trace, read_philly_job_log, simulation_throughputs
from ..inputs import check_choice, check_positive, check_size, rng_from, takes_instance
from .workload import Workload

__all__ = ["cluster", "from_gavel", "to_gavel", "gavel_trace", "bundled_traces", "from_philly", "generate_instance",
           "at_load", "TRACES_ENV", "GAVEL_ORDER", "SIMULATION_CLUSTER"]

#: Environment variable naming a checkout of Gavel's ``scheduler/traces`` folder (the msr traces not bundled).
TRACES_ENV = "HETOPT_GAVEL_TRACES"
#: Gavel's own order of its GPU types (fastest first: the order of its per-type queues).
GAVEL_ORDER = GPU_TYPES
#: The cluster of Gavel's simulation experiments (EXPERIMENTS.md: ``-c 36:36:36``, 36 V100, 36 P100, 36 K80).
SIMULATION_CLUSTER = "36:36:36"


def cluster(counts: Any, *, gpus_per_server: int | Mapping[str, int] = 1,
            link_bandwidth: float = float("inf")) -> dict[str, Any]:
    """The cluster fields of a :class:`Workload`: servers of each type, named in Gavel's order (by name).

    Parameters
    ----------
    counts : mapping or str or sequence of 3 int
        GPUs per type: ``{"v100": 12, ...}``, or Gavel's ``"v100:p100:k80"`` / 3 counts.
    gpus_per_server : int or mapping
        GPUs of one server (per type); a type's last server holds the rest.  Gavel's driver
        default is 1 (``--num_gpus_per_server 1:1:1``).
    link_bandwidth : float
        Gbit/s of every server's link (``inf``: no contention).

    Returns
    -------
    dict
        ``gpu_types``, ``server_type``, ``server_gpus``, ``link_bandwidth``.
    """
    if isinstance(counts, Mapping):
        gpus = {str(k): v for k, v in counts.items()}
    else:
        gpus = dict(zip(GAVEL_ORDER, cluster_capacity(counts), strict=True))
    names = sorted(g for g, n in gpus.items() if n)
    if not names:
        raise ArgumentError(f"counts is {counts!r}; expected at least one GPU type with GPUs")
    per = gpus_per_server if isinstance(gpus_per_server, Mapping) else dict.fromkeys(names, gpus_per_server)
    bw = check_positive(link_bandwidth, "link_bandwidth", allow_inf=True)
    stype, sgpus = [], []
    for r, g in enumerate(names):
        n = check_size(gpus[g], f"counts[{g!r}]")
        size = check_size(per.get(g, 1), f"gpus_per_server[{g!r}]")
        while n > 0:
            stype.append(r)
            sgpus.append(min(size, n))
            n -= size
    return {"gpu_types": tuple(names), "server_type": np.array(stype), "server_gpus": np.array(sgpus),
            "link_bandwidth": np.full(len(stype), bw)}


def from_gavel(inst: GavelInstance, *, gpus_per_server: int | Mapping[str, int] = 1,
               link_bandwidth: float = float("inf"), model_size: Any = None) -> Workload:
    """A Gavel instance as a workload: its types by name, its jobs in order (weights = priority weights)."""
    if not isinstance(inst, GavelInstance):
        raise ArgumentError(f"inst is {type(inst).__name__}; expected a GavelInstance")
    cl = cluster(dict(zip(inst.gpu_types, inst.capacity.tolist(), strict=True)), gpus_per_server=gpus_per_server,
                 link_bandwidth=link_bandwidth)
    cols = [inst.gpu_types.index(g) for g in cl["gpu_types"]]
    size = np.zeros(inst.n_jobs) if model_size is None else model_size
    return Workload(**cl, job_type=tuple(inst.job_types), arrival=inst.arrival, scale_factor=inst.scale_factor,
                    steps=inst.total_steps, weight=inst.priority_weight, throughput=inst.throughput[:, cols],
                    model_size=size, description=inst.description, source=inst.source)


@takes_instance(Workload)
def to_gavel(w: Workload) -> GavelInstance:
    """The workload as a Gavel instance (servers summed per type; links and model sizes dropped).

    Types are listed in Gavel's queue order (``v100, p100, k80`` first, the others after them, by name).
    """
    order = sorted(range(w.n_types), key=lambda r: (GAVEL_ORDER.index(w.gpu_types[r]) if w.gpu_types[r] in
                                                    GAVEL_ORDER else len(GAVEL_ORDER), w.gpu_types[r]))
    return GavelInstance([w.gpu_types[r] for r in order], w.capacity[order], list(w.job_type), w.scale_factor,
                         w.steps, w.arrival, w.throughput[:, order], w.weight, w.description, w.source)


def _manifest() -> dict[str, Any]:
    text = resources.files("hetopt.tables").joinpath("arena_traces.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def bundled_traces() -> list[str]:
    """Names of the bundled Gavel traces (``"physical_cluster/small_test"``, ``"msr/seed=0/ed69ec"``, ...)."""
    return list(_manifest()["traces"])


def _trace_text(name: str, traces_dir: str | os.PathLike[str] | None) -> tuple[str, str]:
    """(text, where it was read) of the trace ``name``: bundled, else under ``traces_dir`` / $HETOPT_GAVEL_TRACES."""
    entries = _manifest()["traces"]
    if name in entries and traces_dir is None:
        e = entries[name]
        raw = resources.files("hetopt.tables").joinpath(e["file"]).read_bytes()
        data = gzip.decompress(raw) if e["compressed"] else raw
        if hashlib.sha256(data).hexdigest() != e["sha256"]:
            raise InstanceError(f"bundled trace {name}: its sha256 differs from the manifest's (a damaged install)")
        return data.decode("utf-8"), f"bundled copy of Gavel's {e['gavel_path']}"
    base = traces_dir if traces_dir is not None else os.environ.get(TRACES_ENV)
    if base is None:
        raise ArgumentError(f"name is {name!r}: not a bundled trace (bundled: {', '.join(entries)}); give traces_dir= or set "
                            f"{TRACES_ENV} to a checkout of Gavel's scheduler/traces folder "
                            "(github.com/stanford-futuredata/gavel)")
    path = Path(base) / f"{name}.trace"
    try:
        return path.read_text(encoding="utf-8"), str(path)
    except OSError as exc:
        raise ArgumentError(f"cannot read trace {name!r} at {path}: {exc.strerror}") from None


def gavel_trace(name: str, counts: Any = SIMULATION_CLUSTER, *, traces_dir: str | os.PathLike[str] | None = None,
                unmeasured: str = "error", gpus_per_server: int | Mapping[str, int] = 1,
                link_bandwidth: float = float("inf")) -> Workload:
    """One of Gavel's traces on a cluster of ``counts`` GPUs.

    Parameters
    ----------
    name : str
        The trace's path under Gavel's ``scheduler/traces`` without ``.trace``
        (``"physical_cluster/small_test"``, ``"msr/seed=2/ed69ec"``); :func:`bundled_traces` lists the bundled ones.
    counts : str, sequence or mapping
        GPUs per type (:func:`cluster`; default :data:`SIMULATION_CLUSTER`, v100:p100:k80).
    traces_dir : path, optional
        Gavel's ``scheduler/traces`` folder (default: the bundled copy, else ``$HETOPT_GAVEL_TRACES``).
    unmeasured : {"error", "drop"}
        A job whose (job type, scale factor) Gavel's throughput table lacks: an :class:`InstanceError`
        naming its line (Gavel's simulator fails there), or left out (counted in ``description``).
    gpus_per_server, link_bandwidth
        As :func:`cluster`.
    """
    check_choice(unmeasured, "unmeasured", ("error", "drop"))
    if not isinstance(name, str) or not name:
        raise ArgumentError(f"name is {name!r}; expected a trace name such as 'msr/seed=0/ed69ec' (bundled_traces())")
    if traces_dir is not None and not isinstance(traces_dir, str | os.PathLike):
        raise ArgumentError(f"traces_dir is {traces_dir!r:.60}; expected a folder path or None")
    text, where = _trace_text(name, traces_dir)
    dropped = 0
    if unmeasured == "drop":
        table = simulation_throughputs()
        kept = []
        for line in text.splitlines():
            f = line.split("\t")
            if not line.strip():
                continue
            key = (f[0], f[6]) if len(f) in (7, 10) else None
            if key is not None and key[1].strip().isdigit() and (key[0], int(key[1])) not in table:
                dropped += 1
                continue
            kept.append(line)
        text = "\n".join(kept) + "\n"
    cl = cluster(counts, gpus_per_server=gpus_per_server, link_bandwidth=link_bandwidth)
    cap = tuple(int(cl["server_gpus"][cl["server_type"] == cl["gpu_types"].index(g)].sum())
                if g in cl["gpu_types"] else 0 for g in GAVEL_ORDER)
    inst = parse_trace(text, cap)
    note = f"; {dropped} jobs left out (job type and scale factor not in Gavel's throughput table)" if dropped else ""
    w = from_gavel(inst, gpus_per_server=gpus_per_server, link_bandwidth=link_bandwidth)
    return w.replace(description=f"Gavel trace {name} ({w.n_jobs} jobs) on {_counts_text(w)}{note}",
                     source=f"stanford-futuredata/gavel c4fa400, {where} (MIT licence)")


def _counts_text(w: Workload) -> str:
    return ", ".join(f"{n} {g}" for g, n in zip(w.gpu_types, w.capacity.tolist(), strict=True))


def generate_instance(*, n_jobs: int = 20, jobs_per_hour: float = 2.0, seed: Any = None,
                      counts: Any = SIMULATION_CLUSTER, multi_gpu: bool = True,
                      gpus_per_server: int | Mapping[str, int] = 1, link_bandwidth: float = float("inf")) -> Workload:
    """``n_jobs`` jobs drawn as Gavel's ``generate_job`` draws them, Poisson arrivals at ``jobs_per_hour``.

    Every parameter is keyword-only (the verbs' shape); the default is 20 jobs at 2 jobs/hour on
    Gavel's simulation cluster (36 GPUs of each type).

    The draws are :func:`hetopt.gavel.generate_instance`'s (Philly scale factors and durations,
    job types of Gavel's measured throughput table, steps = duration x V100 throughput).
    """
    cl = cluster(counts, gpus_per_server=gpus_per_server, link_bandwidth=link_bandwidth)
    cap = tuple(int(cl["server_gpus"][cl["server_type"] == cl["gpu_types"].index(g)].sum())
                if g in cl["gpu_types"] else 0 for g in GAVEL_ORDER)
    rate = check_positive(jobs_per_hour, "jobs_per_hour")
    inst = gavel_generate(n_jobs=n_jobs, seed=seed, capacity=cap, jobs_per_hour=rate, multi_gpu=multi_gpu)
    w = from_gavel(inst, gpus_per_server=gpus_per_server, link_bandwidth=link_bandwidth)
    return w.replace(description=f"{n_jobs} jobs of Gavel's generator at {rate:g} jobs/hour (seed {seed}) on "
                                 f"{_counts_text(w)}", source=inst.source)


@takes_instance(Workload)
def at_load(w: Workload, jobs_per_hour: float, *, seed: Any = None) -> Workload:
    """The same jobs, in the same order, arriving as a Poisson process of ``jobs_per_hour`` from time 0.

    Gavel's generator draws arrivals the same way (the first job at 0, exponential gaps of mean
    ``3600 / jobs_per_hour`` seconds).
    """
    rate = check_positive(jobs_per_hour, "jobs_per_hour")
    rng = rng_from(seed)
    gaps = rng.exponential(3600.0 / rate, size=max(w.n_jobs - 1, 0))
    arrival = np.concatenate([[0.0], np.cumsum(gaps)])
    return w.replace(arrival=arrival, description=f"{w.description} (arrivals redrawn: {rate:g} jobs/hour, seed {seed})")


#: Gavel's measured scale factors: a Philly job's GPU count goes up to the next of them.
_SCALE_FACTORS = (1, 2, 4, 8)


def from_philly(log: Any, counts: Any = SIMULATION_CLUSTER, *, seed: Any = None, max_jobs: int | None = None,
                gpus_per_server: int | Mapping[str, int] = 1, link_bandwidth: float = float("inf")) -> Workload:
    """A workload from the Philly ``cluster_job_log`` (msr-fiddle/philly-traces; nothing is downloaded).

    Arrivals are the jobs' submission times; the gang size is the GPUs of a job's largest attempt,
    raised to the next scale factor Gavel measured (1, 2, 4, 8); the run time is the log's wall
    time summed over attempts, taken as the job's time on a V100 (as Gavel's generator reads the
    Philly durations).  The log names no model: each job draws a job type of Gavel's table at its
    scale factor (``seed``), and runs ``ceil(run time x V100 throughput)`` iterations.  Jobs with
    no GPU, no finished attempt or more than 8 GPUs are left out (counted in ``description``).
    """
    try:
        jobs = read_philly_job_log(log)
    except OSError as exc:
        raise ArgumentError(f"log is {log!r:.80}: cannot read it ({exc.strerror}); expected a Philly cluster_job_log "
                            "file, its JSON text or its list of jobs") from None
    limit = None if max_jobs is None else check_size(max_jobs, "max_jobs")
    table = simulation_throughputs()
    rng = rng_from(seed)
    types_at = {s: sorted(t for t, k in table if k == s and table[t, k][0] > 0) for s in _SCALE_FACTORS}
    rows: list[tuple[str, float, int, float, np.ndarray]] = []
    skipped = 0
    for job in jobs:
        if limit is not None and len(rows) == limit:
            break
        if job.gpus < 1 or job.run_seconds <= 0 or job.gpus > _SCALE_FACTORS[-1]:
            skipped += 1
            continue
        s = next(v for v in _SCALE_FACTORS if v >= job.gpus)
        name = types_at[s][int(rng.integers(len(types_at[s])))]
        thr = table[name, s]
        rows.append((name, job.submitted, s, float(np.ceil(job.run_seconds * thr[0])), thr))
    if not rows:
        raise InstanceError(f"philly job log: no job with 1 to 8 GPUs and a finished attempt ({skipped} left out)")
    t0 = rows[0][1]
    cl = cluster(counts, gpus_per_server=gpus_per_server, link_bandwidth=link_bandwidth)
    cols = [GAVEL_ORDER.index(g) for g in cl["gpu_types"]]
    w = Workload(**cl, job_type=tuple(r[0] for r in rows), arrival=np.array([r[1] - t0 for r in rows]),
                 scale_factor=np.array([r[2] for r in rows]), steps=np.array([r[3] for r in rows]),
                 weight=np.ones(len(rows)), throughput=np.array([r[4][cols] for r in rows]),
                 model_size=np.zeros(len(rows)), source="Microsoft Philly cluster_job_log (msr-fiddle/philly-traces, "
                                                         "CC-BY 4.0); job types drawn from Gavel's throughput table")
    return w.replace(description=f"{w.n_jobs} Philly jobs on {_counts_text(w)}"
                                 + (f"; {skipped} left out (no GPU, no finished attempt or > 8 GPUs)" if skipped else ""))
