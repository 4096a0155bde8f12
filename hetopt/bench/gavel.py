"""Benchmarks of :mod:`hetopt.gavel` (``hetopt bench gavel``): times and ratios measured in one run."""

from __future__ import annotations

from ..errors import HetoptError
from ..gavel.allocation import allocate
from ..gavel.generators import generate_instance
from ..gavel.policies import POLICIES
from ..gavel.simulator import simulate
from ..report import Table


def bench(quick: bool = False) -> list[Table]:
    """Seconds per policy LP and per simulation, by number of jobs.

    Parameters
    ----------
    quick : bool
        16 and 64 jobs (else also 256).

    Returns
    -------
    list of Table
        One table: per size and policy, the allocation's and the simulation's seconds, the
        simulated average JCT and makespan (hours).
    """
    sizes = (16, 64) if quick else (16, 64, 256)
    t = Table("gavel: seconds per allocation (all jobs at once) and per simulation (8 GPUs per type, 12 jobs/hour)",
              ["jobs", "policy", "allocation s", "simulation s", "avg JCT (h)", "makespan (h)"])
    for n in sizes:
        inst = generate_instance(n, capacity=(8, 8, 8), jobs_per_hour=12.0, seed=n)
        for name in POLICIES:
            try:
                a = allocate(inst, name)
                s = simulate(inst, name, record_rounds=False)
            except HetoptError as exc:  # a policy LP that fails is reported in the table, not hidden
                t.add(n, name, None, None, None, None)
                t.notes.append(f"{name}, {n} jobs: {exc}")
                continue
            t.add(n, name, a.wall_time, s.wall_time, s.average_jct / 3600, s.makespan / 3600)
    return [t]


