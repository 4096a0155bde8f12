"""Static and dynamic placement policies with reset events (Section VI-B2).

All jobs start at time 0 and run on their placement until done.  A static policy keeps the
placement computed at time 0.  A dynamic policy recomputes it among the remaining jobs every
time a job completes (a *reset* event), over all K workers, using each job's remaining epochs.
Within a placement a job advances at a constant rate 1 / Lambda_i (fraction of its training
per second), so progress is exact between events.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InstanceError
from .evaluate import PlacementSolution, job_jct
from .instance import PlacementInstance

__all__ = ["simulate", "SimulationResult", "POLICIES"]

log = logging.getLogger(__name__)

Policy = Callable[[PlacementInstance], PlacementSolution]


def _policies() -> dict[str, Policy]:
    from .baselines import las, optimus, optimus_lb
    from .exact import solve_exact
    from .has import has
    from .sampling import jps

    return {"has": has, "jps": lambda inst: jps(inst, seed=0), "optimus": optimus, "optimus_lb": optimus_lb,
            "las": las, "exact": solve_exact}


#: Names accepted by :func:`simulate` besides "gavel" (callables are accepted too).
POLICIES = ("has", "jps", "optimus", "optimus_lb", "las", "exact")


@dataclass(frozen=True)
class SimulationResult:
    """Completion times of a static or dynamic run.

    ``completion`` per job (seconds from time 0), ``average_jct``, ``makespan`` (the largest
    completion time), ``events`` (one record per placement decision: time, remaining jobs,
    assignment).
    """

    completion: np.ndarray
    average_jct: float
    makespan: float
    reset_on_completion: bool
    events: list[dict[str, Any]] = field(default_factory=list)


def simulate(inst: PlacementInstance, method: str | Policy, reset_on_completion: bool = True, **options: Any) -> SimulationResult:
    """Run a placement policy over the lifetime of the jobs.

    Parameters
    ----------
    inst : PlacementInstance
    method : str or callable
        One of :data:`POLICIES`, ``"gavel"``, or any ``f(instance) -> PlacementSolution``.
        ``"gavel"`` is the round-based Gavel baseline of Figs. 17-18
        (:func:`~hetopt.placement.gavel_baseline.gavel_simulation`; ``options``:
        ``scale_factor``, ``round_length``); it is dynamic by construction.
    reset_on_completion : bool
        Recompute the placement among the remaining jobs at each completion (dynamic policy);
        False keeps the initial placement (static policy).
    """
    if method == "gavel":
        from .gavel_baseline import gavel_simulation

        return gavel_simulation(inst, **options)
    if options:
        raise InstanceError(f"options {sorted(options)} apply to method='gavel' only")
    policy = _policies()[method] if isinstance(method, str) and method in POLICIES else method
    if isinstance(policy, str) or not callable(policy):
        raise InstanceError(f"method is {method!r}; expected one of {POLICIES} or a callable")
    S = inst.n_jobs
    remaining = np.ones(S)  # fraction of each job's training left
    done = np.full(S, np.nan)
    t = 0.0
    events: list[dict[str, Any]] = []
    active = list(range(S))
    while active:
        sub = inst.subset(active, epochs=inst.epochs[active] * remaining[active])
        sol = policy(sub)
        jct = job_jct(sub, sol.assignment)  # time to finish the remaining work at this placement
        events.append({"time": t, "jobs": list(active), "assignment": [active[j] for j in sol.assignment]})
        if not reset_on_completion:
            for j, i in enumerate(active):
                done[i] = t + jct[j]
            break
        dt = float(jct.min())
        for j, i in enumerate(active):
            if jct[j] <= dt * (1 + 1e-12):  # completes now (ties complete together)
                remaining[i], done[i] = 0.0, t + dt
            else:
                remaining[i] *= 1.0 - dt / jct[j]
        t += dt
        active = [i for i in active if np.isnan(done[i])]
        log.debug("t=%.3f: reset, %d jobs remain", t, len(active))
    return SimulationResult(completion=done, average_jct=float(done.mean()), makespan=float(done.max()),
                            reset_on_completion=reset_on_completion, events=events)
