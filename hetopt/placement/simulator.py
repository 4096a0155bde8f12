"""Static and dynamic placement policies with reset events (Section VI-B2).

All jobs start at time 0 and run on their placement until done.  A static policy keeps the
placement computed at time 0.  A dynamic policy recomputes it among the remaining jobs every
time a job completes (a *reset* event), over all K workers, using each job's remaining epochs.
Within a placement a job advances at a constant rate 1 / Lambda_i (fraction of its training
per second), so progress is exact between events.  A round policy (Gavel) runs its own rounds.
The policies are those of :data:`~hetopt.placement.policies.POLICIES`.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import ArgumentError, ScheduleViolation, a_type
from ..inputs import check_flag, takes_instance
from .evaluate import PlacementSimulation, job_jct, simulation_result
from .gavel_baseline import GavelPolicy
from .instance import PlacementInstance
from .policies import POLICIES, is_round_policy

__all__ = ["simulate"]

log = logging.getLogger(__name__)

#: The options of the Gavel round policy (``simulate(..., options={...})``); the other policies take none.
GAVEL_OPTIONS = ("scale_factor", "round_length", "recompute_interval", "max_rounds")


def _resolve(policy: Any) -> tuple[str, Any]:
    """(name, policy object) of a registry name, a round policy or a placement callable."""
    if isinstance(policy, str):
        if policy not in POLICIES:
            raise ArgumentError(f"policy is {policy!r}; expected one of {', '.join(POLICIES)}, a callable "
                                "inst -> PlacementSolution or an object with run(inst)")
        return policy, POLICIES[policy]
    if is_round_policy(policy):
        return str(getattr(policy, "name", type(policy).__name__)), policy
    if callable(policy):
        return str(getattr(policy, "__name__", getattr(getattr(policy, "func", None), "__name__", "custom"))), policy
    raise ArgumentError(f"policy is {policy!r}; expected one of {', '.join(POLICIES)}, a callable "
                        "inst -> PlacementSolution or an object with run(inst)")


def _reset_run(inst: PlacementInstance, name: str, policy: Any, reset_on_completion: bool) -> PlacementSimulation:
    """Place at time 0 and, when ``reset_on_completion``, again among the remaining jobs at every completion."""
    t_start = time.perf_counter()
    S = inst.n_jobs
    remaining = np.ones(S)  # fraction of each job's training left
    done = np.full(S, np.nan)
    t = 0.0
    events: list[dict[str, Any]] = []
    active = list(range(S))
    while active:
        sub = inst.subset(active, epochs=inst.epochs[active] * remaining[active])
        sol = policy(sub)
        if not hasattr(sol, "assignment"):
            raise ArgumentError(f"policy {name!r} returned {a_type(sol)}; a placement policy returns a "
                                "PlacementSolution (make_solution(inst, assignment, solver=...))")
        try:
            jct = job_jct(sub, sol.assignment)  # time to finish the remaining work at this placement
        except ArgumentError as exc:
            raise ScheduleViolation(f"policy {name!r} at t={t:g} s (jobs {active}): {exc}") from None
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
    return simulation_result(done, policy=name, reset_on_completion=reset_on_completion, events=events,
                             wall_time=time.perf_counter() - t_start)


@takes_instance(PlacementInstance)
def simulate(inst: PlacementInstance, policy: Any, *, options: Mapping[str, Any] | None = None,
             reset_on_completion: bool = True) -> PlacementSimulation:
    """Run a placement policy over the lifetime of the jobs (Section VI-B2, Figs. 17-18).

    Parameters
    ----------
    inst : PlacementInstance
    policy : str, callable or round policy
        A name of :data:`~hetopt.placement.policies.POLICIES` (``"has"``, ``"jps"``,
        ``"optimus"``, ``"optimus_lb"``, ``"las"``, ``"exact"``, ``"gavel"``), any
        ``f(instance) -> PlacementSolution`` (a placement policy), or an object with
        ``run(instance) -> PlacementSimulation`` (a round policy such as
        :class:`~hetopt.placement.gavel_baseline.GavelPolicy`).
    options : mapping, optional
        Options of the policy.  The Gavel round policy takes ``scale_factor``, ``round_length``,
        ``recompute_interval`` and ``max_rounds`` (GPUs per job, seconds per round, seconds
        between two recomputations of its allocation, safety limit on rounds; absent or None
        keeps the policy's own, see :func:`~hetopt.placement.gavel_baseline.gavel_simulation`);
        the placement policies take none.  Anything else is an :class:`ArgumentError` naming
        ``options``.
    reset_on_completion : bool
        Placement policies: recompute the placement among the remaining jobs at each completion
        (dynamic policy, default); False keeps the initial placement (static policy).  A round
        policy is dynamic by construction: False is refused.

    Returns
    -------
    PlacementSimulation
        ``objective`` and ``average_jct`` are the mean completion time; ``events`` the
        placement decisions (checked by :func:`~hetopt.placement.check_schedule`).

    Raises
    ------
    ArgumentError
        An unknown policy name, an option the policy does not take, or a bad option value.
    ScheduleViolation
        A placement policy returned an assignment that breaks (8b)-(8d) (a job without a worker, a bad index).
    """
    reset_on_completion = check_flag(reset_on_completion, "reset_on_completion")
    given = _options(options)
    name, pol = _resolve(policy)
    if is_round_policy(pol):
        if not reset_on_completion:
            raise ArgumentError(f"reset_on_completion is False; the {name} policy runs its own rounds (dynamic by "
                                "construction)")
        if given:
            if not isinstance(pol, GavelPolicy):
                raise ArgumentError(f"options {sorted(given)} apply to the gavel policy only; policy is {name!r}")
            pol = dataclasses.replace(pol, **given)
        return pol.run(inst)
    if given:
        raise ArgumentError(f"options {sorted(given)} apply to policy='gavel' only; policy {name!r} takes no options")
    return _reset_run(inst, name, pol, reset_on_completion)


def _options(options: Any) -> dict[str, Any]:
    """The Gavel options given (None values dropped); :class:`ArgumentError` naming ``options`` otherwise."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ArgumentError(f"options is {a_type(options)}; expected a mapping of the policy's options or None")
    unknown = sorted(str(k) for k in options if k not in GAVEL_OPTIONS)
    if unknown:
        raise ArgumentError(f"options has {unknown}; the placement policies take none and 'gavel' takes "
                            f"{', '.join(GAVEL_OPTIONS)}")
    return {k: v for k, v in options.items() if v is not None}
