"""Scale benchmark of Hadar's P1 for ``hetopt bench hadar``: the largest instance (jobs on 4 machines
of 2 GPU types) whose offline optimum HiGHS / SCIP certify within 60 s, and the gap one size further."""

from __future__ import annotations

from ..benchscale import largest_certified
from ..report import Table
from .instance import generate_instance
from .offline import solve_exact

__all__ = ["p1_scale", "p1_instance"]


def p1_instance(n_jobs: int, n_machines: int = 4, *, seed: int = 0):
    """:func:`~hetopt.hadar.instance.generate_instance` with arrivals in 0..4 and 1-3 slots of work."""
    return generate_instance(n_jobs, n_machines, seed=seed, max_arrival=4, max_slots=3)


def p1_scale(quick: bool = False, time_limit: float | None = None) -> Table:
    """Seconds to a certified P1 optimum per job count and solver (time-indexed MILP, 1 thread)."""
    sizes = [2, 4] if quick else [4, 8, 12, 16, 24]
    limit = time_limit or (10.0 if quick else 60.0)
    engines = {
        "P1 MILP, HiGHS": lambda inst, time_limit: solve_exact(inst, time_limit=time_limit, solver="highs"),
        "P1 MILP, SCIP": lambda inst, time_limit: solve_exact(inst, time_limit=time_limit, solver="scip"),
    }
    t = largest_certified(p1_instance, sizes, engines, time_limit=limit,
                          title="Hadar P1 offline optimum: seconds to proof (4 machines, 2 GPU types, seed 0)",
                          size_name="jobs")
    t.notes.append("before this table P1 was certified only on the validation sweep's 4-job instances")
    return t
