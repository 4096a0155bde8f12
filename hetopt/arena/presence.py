"""Bounds on the jobs an arena run will hold at once, from the workload alone (before the first round).

A job cannot complete before its arrival plus its steps at the largest rate a policy can give it
(:func:`shortest_durations`), and the engine sees an arrival at ``s`` at a call within ``round_length`` of it
(rounds of whole steps last at most ``round_length`` while jobs run; with nothing running it jumps to the next
arrival).  So at that call every job ``j`` with ``a_j <= s`` and ``a_j + steps_j / max_rate_j > s + round_length``
is present (:func:`presence_bounds`' ``lower``, weighted: the tasks of those jobs for Hare), and no job arrived
after ``s + round_length`` is (``upper``).  ``has`` and ``hare`` read these bounds in ``reset`` and refuse a run
before its first round when they prove a size guard will be passed (``models/arena.md``, *Size guards*).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .workload import Workload

__all__ = ["presence_bounds", "shortest_durations"]

#: Relative slack on the durations and the round length: a round's end is computed in floating point.
SLACK = 1e-9


def shortest_durations(w: Workload, *, copies: bool) -> np.ndarray:
    """Each job's least time from start to completion: its steps at the largest rate it can run at.

    One gang runs at most at the job's best throughput (a mixed gang runs at its slowest type's);
    a policy with copies runs at most ``floor(GPUs / scale_factor)`` gangs of the job at once.
    """
    best = w.throughput.max(axis=1)
    if copies:
        best = best * np.floor(float(w.capacity.sum()) / w.scale_factor)
    return w.steps / best


def presence_bounds(w: Workload, round_length: float, *, copies: bool,
                    weights: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(s, lower, upper)``: at each distinct arrival time ``s``, bounds on the call that first sees it.

    ``lower[k]``: the sum of ``weights`` (default 1 per job) over the jobs surely present at that call;
    ``upper[k]``: the number of jobs arrived by ``s[k] + round_length`` (the module docstring).
    """
    a = np.asarray(w.arrival, dtype=float)
    wt = np.ones(w.n_jobs) if weights is None else np.asarray(weights, dtype=float)
    leave = a + shortest_durations(w, copies=copies) * (1 - SLACK) - round_length * (1 + SLACK)
    end = np.maximum(a, leave)  # present at every call in [a_j, leave_j), an empty window when leave_j <= a_j
    s = np.unique(a)
    oa, oe = np.argsort(a, kind="stable"), np.argsort(end, kind="stable")
    arrived = np.concatenate(([0.0], np.cumsum(wt[oa])))[np.searchsorted(a[oa], s, side="right")]
    gone = np.concatenate(([0.0], np.cumsum(wt[oe])))[np.searchsorted(end[oe], s, side="right")]
    upper = np.searchsorted(a[oa], s + round_length * (1 + SLACK), side="right")
    return s, arrived - gone, upper
