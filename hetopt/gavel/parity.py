"""hetopt's simulator against Gavel's own runs: the parity table of issue 23.

Gavel's simulator (commit c4fa400, unpatched, ECOS) was run once on the five bundled traces
(:data:`~hetopt.gavel.traces.TRACES`) x the clusters 8:16:24 and 4:4:4 x the policies
``max_min_fairness_perf``, ``fifo_perf``, ``min_total_duration_perf`` and
``max_sum_throughput_perf``; its average JCT, makespan, per-job JCTs and rounds are stored with
their provenance in ``hetopt/tables/gavel_parity_reference.json`` (:func:`parity_reference`).
:func:`parity_rows` reruns the same 40 runs with :func:`~hetopt.gavel.simulate` (defaults:
``mechanism="gavel"``, ``solver="ecos"``) and compares.  ``hetopt bench gavel --parity`` prints
the table.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from ..errors import ArgumentError
from .simulator import simulate
from .traces import TRACES, load_trace

__all__ = ["ParityRow", "parity_reference", "parity_rows", "extra_parity_rows", "small_test_sf1", "AVG_RTOL",
           "JOB_RTOL", "FAST_TRACES"]

#: The goal of issue 23: average JCT and makespan within 0.5 % of Gavel's on every row ...
AVG_RTOL = 0.005
#: ... and every job's JCT within 1 % (but tie-broken jobs, of which there are none at c4fa400).
JOB_RTOL = 0.01
#: The physical-cluster traces (seconds per row); the msr rows take a few seconds each.
FAST_TRACES = ("small_test", "medium_test", "max_min_fairness", "minimize_makespan")


@functools.cache
def parity_reference() -> dict[str, Any]:
    """Gavel's numbers of the 40 runs with their provenance (commit, command line, environment)."""
    text = resources.files("hetopt.tables").joinpath("gavel_parity_reference.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@dataclass(frozen=True)
class ParityRow:
    """One run of the parity table: hetopt's numbers beside Gavel's.

    Attributes
    ----------
    trace, cluster, policy : str
        The bundled trace, ``"v100:p100:k80"`` and hetopt's policy name.
    avg_jct, gavel_avg_jct, makespan, gavel_makespan : float
        Seconds.
    rounds, gavel_rounds : int
        Scheduling rounds (Gavel's last, empty round included).
    jobs_off : int
        Jobs whose JCT differs from Gavel's by more than :data:`JOB_RTOL`.
    max_job_rel : float
        The largest relative difference of a job's JCT.
    """

    trace: str
    cluster: str
    policy: str
    avg_jct: float
    gavel_avg_jct: float
    makespan: float
    gavel_makespan: float
    rounds: int
    gavel_rounds: int
    jobs_off: int
    max_job_rel: float

    @property
    def avg_diff(self) -> float:
        """Relative difference of the average JCT (hetopt / Gavel - 1)."""
        return self.avg_jct / self.gavel_avg_jct - 1.0

    @property
    def makespan_diff(self) -> float:
        """Relative difference of the makespan."""
        return self.makespan / self.gavel_makespan - 1.0

    @property
    def ok(self) -> bool:
        """Within the issue's goal: 0.5 % on the average JCT and the makespan, 1 % on every job."""
        return abs(self.avg_diff) <= AVG_RTOL and abs(self.makespan_diff) <= AVG_RTOL and self.jobs_off == 0


def small_test_sf1(capacity: Any = "4:4:4"):
    """Gavel's small_test trace with every scale factor set to 1 (the trace of the packing policies' runs).

    Gavel's packing policies fail on traces that mix scale factors (``PolicyWithPacking`` reshapes
    each job's rows into one matrix), so their reference runs use this variant.
    """
    from .traces import _table_text, parse_trace, trace_manifest

    text = _table_text(trace_manifest()["traces"]["small_test"]["file"])
    lines = []
    for line in text.splitlines():
        f = line.split("\t")
        f[6] = "1"
        lines.append("\t".join(f))
    return parse_trace("\n".join(lines) + "\n", capacity, description="Gavel's small_test with every scale factor 1",
                       source="stanford-futuredata/gavel c4fa400, scheduler/traces/physical_cluster/small_test.trace, "
                              "scale factors set to 1 (MIT licence)")


def _row(run: dict[str, Any], inst: Any, simulate_options: dict[str, Any]) -> ParityRow:
    """Gavel's recorded ``run`` beside :func:`~hetopt.gavel.simulate` of ``inst`` with its policy."""
    sim = simulate(inst, run["policy"], record_rounds=False, **simulate_options)
    ref = np.asarray(run["jct"], dtype=float)
    rel = np.abs(sim.jct - ref) / ref
    return ParityRow(run["trace"], run["cluster"], run["policy"], sim.average_jct, run["avg_jct"], sim.makespan,
                     run["makespan"], int(sim.info["n_rounds"]), int(run["rounds"]), int(np.sum(rel > JOB_RTOL)),
                     float(rel.max()))


def extra_parity_rows(**simulate_options: Any) -> list[ParityRow]:
    """Gavel's other policies (agnostic, finish-time fairness, water filling, cost, AlloX, packing, Gandiva) against its runs.

    The 26 runs of ``extra_runs`` in ``gavel_parity_reference.json``: medium_test and
    :func:`small_test_sf1` on 4:4:4.
    """
    rows = []
    for run in parity_reference()["extra_runs"]["runs"]:
        inst = load_trace(run["trace"], run["cluster"]) if run["trace"] != "small_test_sf1" else \
            small_test_sf1(run["cluster"])
        rows.append(_row(run, inst, simulate_options))
    return rows


def parity_rows(traces: Iterable[str] = TRACES, **simulate_options: Any) -> list[ParityRow]:
    """Rerun Gavel's runs of ``traces`` with :func:`~hetopt.gavel.simulate` and compare.

    Parameters
    ----------
    traces : iterable of str
        Names of :data:`~hetopt.gavel.traces.TRACES` (default: all five, 40 rows).
    **simulate_options
        Passed to :func:`~hetopt.gavel.simulate` (e.g. ``mechanism="clean"``, ``solver="highs"`` to
        measure hetopt's idealised loop against Gavel).

    Returns
    -------
    list of ParityRow
    """
    if isinstance(traces, str) or not isinstance(traces, Iterable):
        raise ArgumentError(f"traces is {traces!r}; expected an iterable of names of {TRACES}")
    wanted = list(traces)
    if not wanted:
        raise ArgumentError(f"traces is empty; expected names of {TRACES}")
    for name in wanted:
        if not isinstance(name, str) or name not in TRACES:
            raise ArgumentError(f"traces has {name!r}; expected names of {TRACES}")
    rows = []
    for run in parity_reference()["runs"]:
        if run["trace"] not in wanted:
            continue
        inst = load_trace(run["trace"], run["cluster"])
        rows.append(_row(run, inst, simulate_options))
    return rows
