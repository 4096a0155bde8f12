"""``hetopt bench reproduce``: what the claims ledger costs, serially and on a pool, measured in one run.

The claims run twice, first on ``workers`` processes (longest first, as ``hetopt reproduce
--workers N``), then serially (each claim's seconds): in that order, because the pool's workers are
forked from this process and would otherwise start with the serial run's cached experiments.  The tables give each claim's seconds
beside its recorded cost scaled by this machine's speed factor, the critical path (the longest
claim against total / workers: no schedule beats the larger of the two) and the speed-up of the
pool over the serial run.  ``quick`` runs the fast claims only.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ..errors import ArgumentError
from ..report import Table

__all__ = ["bench_reproduce"]


def _time(run: Any) -> tuple[list[Any], float]:
    t0 = time.perf_counter()
    out = run()
    return out, time.perf_counter() - t0


def bench_reproduce(claims: Sequence[Any] | None = None, *, quick: bool = False, workers: int = 2) -> list[Table]:
    """Per-claim seconds, the critical path and the pool's speed-up over serial, measured in one run.

    Parameters
    ----------
    claims : sequence of Claim, optional
        The claims to run (default every claim; the fast ones with ``quick``).
    quick : bool
        Only the fast claims (when ``claims`` is None).
    workers : int
        Processes of the parallel run (at least 2).
    """
    from .. import claims as ledger
    from ..claims.costs import expected_seconds, speed_factor
    from ..claims.progress import makespan

    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 2:
        raise ArgumentError(f"workers is {workers!r}; expected an integer >= 2 (the pool run)")
    chosen = list(claims) if claims is not None else ledger.select(include_slow=not quick)
    if not chosen:
        raise ArgumentError("no claims to run")
    factor = speed_factor()
    # the pool first: its workers are forked from this process, and after a serial run they would
    # inherit every experiment it cached (a pool "run" of 0 s per claim, a speed-up above ideal)
    pool, t_pool = _time(lambda: ledger.run_claims(chosen, workers=workers))
    serial, t_serial = _time(lambda: ledger.run_claims(chosen))
    per = Table(f"claims, serially (speed factor of this machine {factor:.2f})",
                ["id", "cost", "seconds", "expected here", "ratio", "pool seconds", "same verdict"])
    for s, p in sorted(zip(serial, pool, strict=True), key=lambda sp: -sp[0].wall_time):
        exp = expected_seconds(s.claim.id, s.claim.cost) * factor
        per.add(s.claim.id, s.claim.cost, s.wall_time, exp, s.wall_time / exp if exp > 0 else float("nan"),
                p.wall_time, s.outcome.verdict is p.outcome.verdict)
    seconds = [r.wall_time for r in serial]
    total, longest = sum(seconds), max(seconds)
    summary = Table(f"{len(chosen)} claims: serial vs {workers} workers",
                    ["quantity", "seconds", "note"])
    summary.add("serial run (wall)", t_serial, "every claim in this process, ledger order")
    summary.add("sum of claim seconds", total, "")
    summary.add("longest claim", longest, max(serial, key=lambda r: r.wall_time).claim.id)
    summary.add(f"total / {workers}", total / workers, "")
    summary.add("critical path", max(longest, total / workers), "max(longest, total / workers): no schedule is shorter")
    summary.add("longest first, planned", makespan(seconds, workers), "list schedule of the serial seconds")
    summary.add(f"--workers {workers} run (wall)", t_pool, "longest first")
    summary.add("speed-up", t_serial / t_pool, f"serial / --workers {workers} (ideal {workers})")
    summary.notes.append("timings on a shared machine are inflated; both runs come from the same invocation")
    return [summary, per]
