"""The placement checker with the shared report type: (8b)-(8d) and the objective (8).

A placement has no time dimension: its "schedule" is the job of every worker.  The check
re-derives everything from the assignment with :mod:`hetopt.placement.evaluate` (which
shares no code with the models or the heuristics) and compares the reported metrics.

A run of :func:`~hetopt.placement.simulate` is checked by replaying its events: every
placement decision must give each running job at least one worker and no worker two jobs, a
job progresses at 1 / Lambda_i (eq. (7), its whole training on those workers) while placed,
and the reported completion times, average JCT and makespan must be where that progress ends.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ArgumentError, a_type
from ..inputs import check_choice, takes_instance
from ..result import CheckReport
from .evaluate import SPLITS, check_assignment, job_metrics
from .instance import PlacementInstance

__all__ = ["check_schedule"]

#: Relative tolerance of the objective recomputation.
OBJ_RTOL = 1e-9
#: Relative tolerance of completion times replayed from a simulation's events.
SIM_RTOL = 1e-7


@takes_instance(PlacementInstance)
def check_schedule(inst: PlacementInstance, sol: Any, *, split: str | None = None) -> CheckReport:
    """Check a placement against (8b)-(8d) and recompute the average JCT, eq. (8).

    Parameters
    ----------
    inst : PlacementInstance
    sol : PlacementSolution, PlacementSimulation or array_like of int, shape (K,)
        A solution (its ``objective``, ``average_jct`` and ``jct`` are checked against
        the recomputed ones), the raw assignment (the job of every worker), or a run of
        :func:`~hetopt.placement.simulate` (its events are replayed).
    split : {"proportional", "equal"}, optional
        Data split of eq. (12); default the solution's own ``split``, else "proportional" (not for a
        simulation, whose progress rates use the proportional split).

    Returns
    -------
    CheckReport
        ``violations`` names (8b) (a job without a worker), a malformed assignment or a
        misreported metric; ``objective`` is the average JCT recomputed from the
        assignment (None when the assignment is malformed); ``info["jct"]`` the
        per-job JCTs (the completion times for a simulation).
    """
    if not (hasattr(sol, "assignment") or hasattr(sol, "completion") or isinstance(sol, np.ndarray | list | tuple)):
        raise ArgumentError(f"sol is {a_type(sol)}; expected a PlacementSolution, a PlacementSimulation or an array of "
                            "the job of each worker, shape (K,)")
    if hasattr(sol, "events") and hasattr(sol, "completion"):
        if split is not None:
            raise ArgumentError(f"split is {split!r}; a simulation is checked with the proportional split of its "
                                "policies (leave split unset)")
        return _check_simulation(inst, sol)
    assignment = getattr(sol, "assignment", sol)
    split = check_choice(split or getattr(sol, "split", "proportional"), "split", SPLITS)
    try:
        check_assignment(inst, assignment)
    except ArgumentError as e:
        return CheckReport.from_violations([str(e)])
    jct = job_metrics(inst, assignment, split)["jct"]
    avg = float(jct.mean())
    out: list[str] = []
    for name in ("objective", "average_jct"):
        claimed = getattr(sol, name, None)
        if claimed is not None and not np.isclose(claimed, avg, rtol=OBJ_RTOL, atol=0.0):
            out.append(f"(8) reported {name} {claimed!r} != recomputed average JCT {avg!r}")
    claimed_jct = getattr(sol, "jct", None)
    if claimed_jct is not None and not np.allclose(claimed_jct, jct, rtol=OBJ_RTOL, atol=0.0):
        i = int(np.argmax(np.abs(np.asarray(claimed_jct) - jct)))
        out.append(f"(7) reported JCT of job {i} {claimed_jct[i]!r} != recomputed {jct[i]!r}")
    return CheckReport.from_violations(out, avg, jct=jct)


def _rate(inst: PlacementInstance, i: int, workers: np.ndarray) -> float:
    """Fraction of job i's training done per second on ``workers`` (1 / Lambda_i, eqs. (6), (7), (11))."""
    n = len(workers)
    V = float(inst.throughput[i, workers].sum())
    spans = len(np.unique(inst.nodes[workers])) > 1
    comm = inst.comm_coefficient[i] * (n - 1) / n * float(inst.inverse_rate(spans))
    return 1.0 / float(inst.epochs[i] * (inst.dataset_size[i] / V + comm))


def _periods(inst: PlacementInstance, sol: Any, out: list[str]) -> list[tuple[float, float, dict[int, np.ndarray]]]:
    """(start, length or inf, job -> workers) of every placement decision; violations appended to ``out``."""
    events = list(sol.events)
    length = sol.info.get("round_length") if isinstance(sol.info, dict) else None
    periods = []
    for n, ev in enumerate(events):
        t0 = float(ev["time"])
        if n and t0 < float(events[n - 1]["time"]):
            out.append(f"event {n}: time {t0} before the previous event")
        if "assignment" in ev:
            a = np.asarray(ev["assignment"])
            jobs = sorted(int(j) for j in ev.get("jobs", np.unique(a)))
            if a.shape != (inst.n_workers,) or set(a.tolist()) != set(jobs):
                out.append(f"(8b)-(8d) event {n}: assignment {a.tolist()} must give every running job {jobs} "
                           f"a worker and every one of the {inst.n_workers} workers a running job")
                continue
            place = {j: np.flatnonzero(a == j) for j in jobs}
        else:
            place = {}
            for (j, _), ws in zip(ev["placed"], ev["workers"], strict=True):
                place[int(j)] = np.asarray(ws, dtype=int)
            used = np.concatenate(list(place.values())) if place else np.zeros(0, dtype=int)
            if len(set(used.tolist())) != used.size or (used.size and not 0 <= used.min() <= used.max() < inst.n_workers):
                out.append(f"(8d) round {n}: a worker trains two jobs or does not exist ({used.tolist()})")
        nxt = float(events[n + 1]["time"]) if n + 1 < len(events) else np.inf
        span = nxt - t0 if length is None else min(float(length), nxt - t0)
        periods.append((t0, span, place))
    return periods


def _check_simulation(inst: PlacementInstance, sol: Any) -> CheckReport:
    """Replay a simulation's events and compare the completion times, average JCT and makespan."""
    out: list[str] = []
    S = inst.n_jobs
    left = np.ones(S)
    finish = np.full(S, np.nan)
    for t0, span, place in _periods(inst, sol, out):
        for j, ws in place.items():
            if not np.isnan(finish[j]):
                out.append(f"job {j} is placed at t={t0} after its completion at {finish[j]}")
                continue
            rate = _rate(inst, j, ws)
            need = left[j] / rate
            if need <= span * (1 + SIM_RTOL):
                left[j], finish[j] = 0.0, t0 + need
            else:
                left[j] -= span * rate
    if out:
        return CheckReport.from_violations(out)
    if np.isnan(finish).any():
        j = int(np.flatnonzero(np.isnan(finish))[0])
        return CheckReport.from_violations([f"job {j} never completes in the events ({left[j]:.3g} of it left)"])
    done = np.asarray(sol.completion, dtype=float)
    if done.shape != (S,) or not np.allclose(done, finish, rtol=SIM_RTOL, atol=0.0):  # relative only (1e-9 s was a job)
        out.append(f"(7) reported completion times {np.round(done, 6).tolist()} != replayed {np.round(finish, 6).tolist()}")
    avg = float(finish.mean())
    for name, value in (("objective", avg), ("average_jct", avg), ("makespan", float(finish.max()))):
        claimed = getattr(sol, name, None)
        if claimed is not None and not np.isclose(claimed, value, rtol=SIM_RTOL, atol=0.0):
            out.append(f"(8) reported {name} {claimed!r} != replayed {value!r}")
    return CheckReport.from_violations(out, avg, jct=finish)
