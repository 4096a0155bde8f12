"""Gavel's traces and throughput tables: reading its two trace formats, and the bundled traces.

Gavel's simulator reads a text trace, one job per line, tab-separated:

* the current format (``utils.parse_trace`` at c4fa400), 10 fields: job type, command, working
  directory, num-steps argument, needs-data-dir, total steps, scale factor, priority weight,
  SLO (negative: none) and arrival time (s);
* the 2019-20 format of the ``msr`` traces (``utils.parse_trace`` at ace90a3), 7 fields: job
  type, command, num-steps argument, needs-data-dir, total steps, arrival time, scale factor
  (priority weight 1, no SLO).  Note the arrival before the scale factor.

:func:`parse_trace` reads both (by the number of fields of each line) and looks up each job's
throughputs in Gavel's unrounded ``simulation_throughputs.json`` (:func:`simulation_throughputs`,
``hetopt/tables/gavel_simulation_throughputs.json``, with the pair throughputs of space sharing);
a line that is not valid is an :class:`~hetopt.errors.InstanceError` naming the line and the
field, and so is a (job type, scale factor) the table has no measurement for (Gavel itself
crashes with a ``KeyError`` there).  :func:`load_trace` returns a bundled trace:
``small_test``, ``medium_test``, ``max_min_fairness``, ``minimize_makespan`` (Gavel's
``traces/physical_cluster/``) and ``ed69ec_first60`` (the first 60 jobs of
``traces/msr/seed=0/ed69ec.trace``), shipped under Gavel's MIT licence
(``hetopt/tables/gavel-LICENSE.txt``; provenance in ``hetopt/tables/gavel_traces.json``).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from collections.abc import Sequence
from importlib import resources
from typing import Any

import numpy as np

from ..errors import ArgumentError, InstanceError, a_type
from ..inputs import check_choice
from .instance import GavelInstance

__all__ = ["GPU_TYPES", "TRACES", "simulation_throughputs", "pair_throughputs", "parse_trace", "load_trace",
           "to_trace", "trace_manifest", "cluster_capacity", "PhillyJob", "read_philly_job_log"]

#: Gavel's GPU types, fastest first (the order of its per-type queues).
GPU_TYPES = ("v100", "p100", "k80")
#: The bundled traces (:func:`load_trace`).
TRACES = ("small_test", "medium_test", "max_min_fairness", "minimize_makespan", "ed69ec_first60")


def _table_text(name: str) -> str:
    return resources.files("hetopt.tables").joinpath(name).read_text(encoding="utf-8")


@functools.cache
def _raw_table() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_table_text("gavel_simulation_throughputs.json"))
    return data


@functools.cache
def simulation_throughputs() -> dict[tuple[str, int], np.ndarray]:
    """(job type, scale factor) -> steps/s on (v100, p100, k80), Gavel's unrounded ``simulation_throughputs.json``."""
    raw = _raw_table()
    keys = [(str(k[0]), int(k[1])) for k in raw["job_types"]]
    return {k: np.array([raw["single"][g][i] for g in GPU_TYPES]) for i, k in enumerate(keys)}


@functools.cache
def pair_throughputs() -> dict[tuple[tuple[str, int], tuple[str, int]], np.ndarray]:
    """((job type, sf), (other job type, sf)) -> array (3, 2): the two jobs' steps/s packed, per type (v100, p100, k80).

    Row ``r`` is ``[a, b]``: the first job runs ``a`` steps/s and the other ``b`` while they share
    the GPUs of type ``r`` (Gavel measures pairs of the same scale factor only).
    """
    raw = _raw_table()
    keys = [(str(k[0]), int(k[1])) for k in raw["job_types"]]
    out: dict[tuple[tuple[str, int], tuple[str, int]], np.ndarray] = {}
    for r, g in enumerate(GPU_TYPES):
        for i, k, a, b in raw["pairs"][g]:
            out.setdefault((keys[int(i)], keys[int(k)]), np.zeros((3, 2)))[r] = (a, b)
    return out


def trace_manifest() -> dict[str, Any]:
    """Provenance of the bundled traces (file, Gavel's path, format, jobs, sha256)."""
    data: dict[str, Any] = json.loads(_table_text("gavel_traces.json"))
    return data


def cluster_capacity(capacity: Any) -> tuple[int, int, int]:
    """GPUs of (v100, p100, k80) from a sequence of 3 counts or Gavel's ``"v100:p100:k80"`` string."""
    if isinstance(capacity, str):
        parts = capacity.split(":")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            raise ArgumentError(f"capacity is {capacity!r}; expected 'v100:p100:k80' GPU counts such as '8:16:24'")
        values: Sequence[Any] = [int(p) for p in parts]
    elif isinstance(capacity, Sequence | np.ndarray) and not isinstance(capacity, bytes):
        values = list(capacity)
    else:
        raise ArgumentError(f"capacity is {capacity!r}; expected 3 GPU counts (v100, p100, k80) or 'v100:p100:k80'")
    if len(values) != 3 or any(isinstance(v, bool | np.bool_) or not isinstance(v, int | np.integer) or v < 0
                               for v in values) or max(values) < 1:
        raise ArgumentError(f"capacity is {capacity!r}; expected 3 GPU counts (v100, p100, k80), integers >= 0, "
                            "one of them >= 1")
    return int(values[0]), int(values[1]), int(values[2])


def _number(text: str, k: int, field: str, kind: type) -> Any:
    try:
        v = kind(text) if kind is float else int(text)
    except ValueError:
        raise InstanceError(f"text (the trace), line {k}: field {field} is {text!r}; expected "
                            f"{'a number' if kind is float else 'an integer'}") from None
    if kind is float and not math.isfinite(v):
        raise InstanceError(f"text (the trace), line {k}: field {field} is {text!r}; expected a finite number")
    return v


def _parse_line(line: str, k: int) -> tuple[str, int, float, float, float]:
    """(job type, scale factor, total steps, priority weight, arrival) of one trace line."""
    f = line.rstrip("\r\n").split("\t")
    if len(f) == 10:
        job_type = f[0]
        steps = _number(f[5], k, "total_steps (6)", int)
        sf = _number(f[6], k, "scale_factor (7)", int)
        weight = _number(f[7], k, "priority_weight (8)", float)
        _number(f[8], k, "SLO (9)", float)
        arrival = _number(f[9], k, "arrival_time (10)", float)
        if not weight > 0:
            raise InstanceError(f"text (the trace), line {k}: field priority_weight (8) is {f[7]!r}; expected > 0")
    elif len(f) == 7:
        job_type = f[0]
        steps = _number(f[4], k, "total_steps (5)", int)
        arrival = _number(f[5], k, "arrival_time (6)", float)
        sf = _number(f[6], k, "scale_factor (7)", int)
        weight = 1.0
    else:
        raise InstanceError(f"text (the trace), line {k} has {len(f)} tab-separated fields; expected 10 (Gavel's format: job type, "
                            "command, working directory, num-steps argument, needs-data-dir, total steps, scale "
                            "factor, priority weight, SLO, arrival) or 7 (the msr traces: job type, command, num-steps "
                            "argument, needs-data-dir, total steps, arrival, scale factor)")
    if not job_type.strip():
        raise InstanceError(f"text (the trace), line {k}: field job_type (1) is empty")
    if sf < 1:
        raise InstanceError(f"text (the trace), line {k}: field scale_factor is {sf}; expected an integer >= 1")
    if steps < 1:
        raise InstanceError(f"text (the trace), line {k}: field total_steps is {steps}; expected an integer >= 1")
    if arrival < 0:
        raise InstanceError(f"text (the trace), line {k}: field arrival_time is {arrival}; expected seconds >= 0")
    return job_type, sf, float(steps), weight, arrival


def parse_trace(text: str, capacity: Any = (4, 4, 4), *, description: str = "", source: str = "") -> GavelInstance:
    r"""A :class:`GavelInstance` from Gavel's trace text (10- or 7-field lines) and a cluster.

    Parameters
    ----------
    text : str
        The trace (blank lines ignored).
    capacity : sequence of 3 int or str
        GPUs of (v100, p100, k80), or Gavel's ``"v100:p100:k80"``.
    description, source : str
        Stored in the instance.

    Returns
    -------
    GavelInstance
        Jobs in trace order, throughputs from :func:`simulation_throughputs`.

    Raises
    ------
    InstanceError
        A line with the wrong number of fields or a bad field (naming the line and the field),
        arrivals not in order (Gavel asserts it), or a (job type, scale factor) with no measured
        throughput.

    Examples
    --------
    >>> line = "ResNet-50 (batch size 64)\t-\t-\t-\t0\t1000\t1\t1\t-1\t0"
    >>> parse_trace(line, (1, 1, 1)).throughput.round(3).tolist()
    [[3.036, 1.155, 0.426]]
    """
    if not isinstance(text, str):
        raise ArgumentError(f"text is {a_type(text)}; expected the trace's text (str)")
    cap = cluster_capacity(capacity)
    for name, value in (("description", description), ("source", source)):
        if not isinstance(value, str):
            raise ArgumentError(f"{name} is {value!r}; expected a string")
    table = simulation_throughputs()
    jt: list[str] = []
    sf: list[int] = []
    steps: list[float] = []
    pw: list[float] = []
    arrival: list[float] = []
    thr: list[np.ndarray] = []
    for k, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        job_type, s, n, w, a = _parse_line(line, k)
        if (job_type, s) not in table:
            raise InstanceError(f"text (the trace), line {k}: Gavel's throughput table has no job type {job_type!r} at scale "
                                f"factor {s} (field job_type / scale_factor; Gavel's simulator fails with a KeyError "
                                "on such a job)")
        if arrival and a < arrival[-1]:
            raise InstanceError(f"text (the trace), line {k}: field arrival_time {a} is before the previous line's {arrival[-1]}; "
                                "Gavel's simulator requires arrivals in order")
        jt.append(job_type)
        sf.append(s)
        steps.append(n)
        pw.append(w)
        arrival.append(a)
        thr.append(table[job_type, s])
    if not jt:
        raise InstanceError("text (the trace) has no job lines")
    return GavelInstance(list(GPU_TYPES), list(cap), jt, sf, steps, arrival, np.array(thr), pw, description, source)


def load_trace(name: str, capacity: Any = (4, 4, 4)) -> GavelInstance:
    """A bundled Gavel trace (:data:`TRACES`) on a cluster of (v100, p100, k80) GPUs.

    Examples
    --------
    >>> inst = load_trace("small_test", "8:16:24")
    >>> inst.n_jobs, inst.capacity.tolist()
    (20, [8, 16, 24])
    """
    check_choice(name, "name", TRACES)
    entry = trace_manifest()["traces"][name]
    cap = cluster_capacity(capacity)
    return parse_trace(_table_text(entry["file"]), cap,
                       description=f"Gavel trace {name} on {cap[0]}:{cap[1]}:{cap[2]} (v100:p100:k80)",
                       source=f"stanford-futuredata/gavel c4fa400, scheduler/{entry['gavel_path']} (MIT licence)")


@dataclasses.dataclass(frozen=True)
class PhillyJob:
    """One job of the Microsoft Philly ``cluster_job_log`` (msr-fiddle/philly-traces, CC-BY 4.0).

    Attributes
    ----------
    jobid, vc, user, status : str
    submitted : float
        Seconds after the earliest submission in the log.
    gpus : int
        GPUs of its largest attempt (the sum over the attempt's machines of its listed GPUs).
    run_seconds : float
        Wall time summed over the attempts that have a start and an end.
    gpu_seconds : float
        GPUs times wall time, summed over those attempts.
    attempts : int
    """

    jobid: str
    vc: str
    user: str
    status: str
    submitted: float
    gpus: int
    run_seconds: float
    gpu_seconds: float
    attempts: int

    @property
    def gpu_hours(self) -> float:
        """``gpu_seconds / 3600``."""
        return self.gpu_seconds / 3600.0


def _philly_time(value: Any, where: str) -> float | None:
    """Seconds since the epoch of a Philly timestamp ``"YYYY-MM-DD HH:MM:SS"`` (None for ``None``/"None")."""
    import datetime

    if value is None or value == "None":
        return None
    if not isinstance(value, str):
        raise InstanceError(f"philly job log: {where} is {value!r}; expected a 'YYYY-MM-DD HH:MM:SS' string or None")
    try:
        t = datetime.datetime.strptime(value.strip(), "%Y-%m-%d %H:%M:%S")
    except ValueError:
        raise InstanceError(f"philly job log: {where} is {value!r}; expected 'YYYY-MM-DD HH:MM:SS'") from None
    return t.replace(tzinfo=datetime.UTC).timestamp()


def read_philly_job_log(path_or_obj: Any) -> list[PhillyJob]:
    """The jobs of a Philly ``cluster_job_log`` (a JSON list), sorted by submission time.

    Each entry has ``jobid``, ``submitted_time``, ``attempts`` (each with ``start_time``,
    ``end_time`` and ``detail``: a list of ``{"ip": machine, "gpus": [gpu names]}``), ``status``,
    ``vc`` and ``user`` (the schema of msr-fiddle/philly-traces).  ``path_or_obj`` is a path to
    the JSON file, the JSON text, or the already-loaded list.  Nothing is downloaded.

    Raises
    ------
    InstanceError
        A log that is not a list of job objects, a job without ``jobid`` or ``submitted_time``,
        an unreadable timestamp, or an attempt that ends before it starts (naming the job).

    Examples
    --------
    >>> log = [{"jobid": "a", "vc": "v", "user": "u", "status": "Pass", "submitted_time": "2017-10-03 10:00:00",
    ...         "attempts": [{"start_time": "2017-10-03 10:00:30", "end_time": "2017-10-03 11:00:30",
    ...                       "detail": [{"ip": "m1", "gpus": ["gpu0", "gpu1"]}]}]}]
    >>> job = read_philly_job_log(log)[0]
    >>> job.gpus, job.run_seconds, job.gpu_hours
    (2, 3600.0, 2.0)
    """
    import os

    data = path_or_obj
    if isinstance(data, os.PathLike) or (isinstance(data, str) and not data.lstrip().startswith("[")):
        with open(data, encoding="utf-8") as fh:
            data = json.load(fh)
    elif isinstance(data, str | bytes):
        data = json.loads(data)
    if not isinstance(data, list):
        raise InstanceError(f"philly job log is {a_type(data)}; expected a JSON list of jobs")
    raw = []
    for k, job in enumerate(data):
        if not isinstance(job, dict):
            raise InstanceError(f"philly job log: entry {k} is {a_type(job)}; expected an object")
        jid = job.get("jobid")
        if not isinstance(jid, str) or not jid:
            raise InstanceError(f"philly job log: entry {k} has no jobid")
        sub = _philly_time(job.get("submitted_time"), f"job {jid} submitted_time")
        if sub is None:
            raise InstanceError(f"philly job log: job {jid} has no submitted_time")
        attempts = job.get("attempts") or []
        if not isinstance(attempts, list):
            raise InstanceError(f"philly job log: job {jid} attempts is {attempts!r}; expected a list")
        gpus, run, gsec = 0, 0.0, 0.0
        for a, att in enumerate(attempts):
            if not isinstance(att, dict):
                raise InstanceError(f"philly job log: job {jid} attempt {a} is not an object")
            n = 0
            for d in att.get("detail") or []:
                g = d.get("gpus") if isinstance(d, dict) else None
                if not isinstance(g, list):
                    raise InstanceError(f"philly job log: job {jid} attempt {a} has a detail without a gpus list")
                n += len(g)
            gpus = max(gpus, n)
            t0 = _philly_time(att.get("start_time"), f"job {jid} attempt {a} start_time")
            t1 = _philly_time(att.get("end_time"), f"job {jid} attempt {a} end_time")
            if t0 is None or t1 is None:
                continue
            if t1 < t0:
                raise InstanceError(f"philly job log: job {jid} attempt {a} ends before it starts")
            run += t1 - t0
            gsec += n * (t1 - t0)
        raw.append((sub, jid, str(job.get("vc", "")), str(job.get("user", "")), str(job.get("status", "")), gpus,
                    run, gsec, len(attempts)))
    if not raw:
        return []
    first = min(r[0] for r in raw)
    raw.sort(key=lambda r: (r[0], r[1]))
    return [PhillyJob(jobid=jid, vc=vc, user=user, status=st, submitted=sub - first, gpus=g, run_seconds=run,
                      gpu_seconds=gs, attempts=na) for sub, jid, vc, user, st, g, run, gs, na in raw]


def to_trace(inst: GavelInstance) -> str:
    """Gavel's 10-field trace text: one tab-separated line per job (``Job.__str__`` fields + arrival).

    hetopt has no commands to run: the command, working directory and num-steps argument are
    written as ``-``.
    """
    if not isinstance(inst, GavelInstance):
        raise ArgumentError(f"inst is {a_type(inst)}; expected a GavelInstance")
    lines = []
    for j in range(inst.n_jobs):
        lines.append("\t".join([inst.job_types[j], "-", "-", "-", "0", f"{int(round(inst.total_steps[j]))}",
                                f"{int(inst.scale_factor[j])}", f"{float(inst.priority_weight[j])!r}",
                                "-1.000000", f"{float(inst.arrival[j])!r}"]))
    return "\n".join(lines) + "\n"
