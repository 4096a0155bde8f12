"""The placement checker with the shared report type: (8b)-(8d) and the objective (8).

A placement has no time dimension: its "schedule" is the job of every worker.  The check
re-derives everything from the assignment with :mod:`hetopt.placement.evaluate` (which
shares no code with the models or the heuristics) and compares the reported metrics.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InstanceError
from ..result import CheckReport
from .evaluate import check_assignment, job_metrics
from .instance import PlacementInstance

__all__ = ["check_schedule"]

#: Relative tolerance of the objective recomputation.
OBJ_RTOL = 1e-9


def check_schedule(inst: PlacementInstance, sol: Any, *, split: str | None = None) -> CheckReport:
    """Check a placement against (8b)-(8d) and recompute the average JCT, eq. (8).

    Parameters
    ----------
    inst : PlacementInstance
    sol : PlacementSolution or array_like of int, shape (K,)
        A solution (its ``objective``, ``average_jct`` and ``jct`` are checked against
        the recomputed ones) or the raw assignment: the job of every worker.
    split : {"proportional", "equal"}, optional
        Data split of eq. (12); default the solution's own ``split``, else "proportional".

    Returns
    -------
    CheckReport
        ``violations`` names (8b) (a job without a worker), a malformed assignment or a
        misreported metric; ``objective`` is the average JCT recomputed from the
        assignment (None when the assignment is malformed); ``info["jct"]`` the
        per-job JCTs.
    """
    assignment = getattr(sol, "assignment", sol)
    split = split or getattr(sol, "split", "proportional")
    try:
        check_assignment(inst, assignment)
    except InstanceError as e:
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
