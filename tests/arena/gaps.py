"""The bounds' gap to the exact optimum on small workloads: ``python -m tests.arena.gaps [N [ROUND [MAX_JOBS]]]``.

For the seeds ``0..N-1`` of :func:`tests.arena.small.small_workload` (default 300 workloads of 2-6
jobs), the exact round optimum (rounds of ``ROUND`` seconds, 360 by default, the single rule) of the
weighted average JCT and of the makespan against the certified bounds for both rules; prints, per
metric and rule, the median, 95th percentile and maximum of ``exact / bound - 1`` (the numbers of
``models/arena.md``, *Certified bounds*).  The workloads are the same whatever ``ROUND``: shorter
rounds show how much of the gap is the rounds'.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from hetopt.arena.bounds import jct_lower_bound, makespan_lower_bound
from hetopt.arena.exact import solve_exact

from .small import small_workload


def gaps(n: int, round_length: float = 360.0, max_jobs: int = 6) -> dict[tuple[str, str], np.ndarray]:
    """``(metric, rule) -> exact / bound - 1`` over the first ``n`` seeds."""
    out: dict[tuple[str, str], list[float]] = {}
    for seed in range(n):
        w = small_workload(seed, jobs=(2, max_jobs))
        opts = {"round_length": round_length, "max_size": 10**6}
        exact = {"average_jct": solve_exact(w, **opts).objective,
                 "makespan": solve_exact(w, objective="makespan", **opts).objective}
        for rule in ("bottleneck", "single"):
            for metric, f in (("average_jct", jct_lower_bound), ("makespan", makespan_lower_bound)):
                b = f(w, gang_rule=rule)
                assert b.certified and b.value <= exact[metric] * (1 + 1e-9), (seed, metric, rule)
                out.setdefault((metric, rule), []).append(exact[metric] / b.value - 1.0)
    return {k: np.array(v) for k, v in out.items()}


def main(argv: list[str]) -> None:
    n = int(argv[0]) if argv else 300
    round_length = float(argv[1]) if len(argv) > 1 else 360.0
    max_jobs = int(argv[2]) if len(argv) > 2 else 6
    start = time.perf_counter()
    table = gaps(n, round_length, max_jobs)
    print(f"{n} workloads of 2-{max_jobs} jobs, rounds of {round_length:g} s, {time.perf_counter() - start:.0f} s")
    print("| metric | bound's rule | median | p95 | max |")
    print("| --- | --- | --- | --- | --- |")
    for (metric, rule), g in sorted(table.items()):
        print(f"| {metric} | {rule} | {np.median(g):.1%} | {np.quantile(g, 0.95):.1%} | {g.max():.1%} |")


if __name__ == "__main__":
    main(sys.argv[1:])
