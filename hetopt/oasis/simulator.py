"""Slotted cluster simulator of Section V-A: every scheme of Figs. 3-4 runs in it.

Slots run ``1..T``.  At the start of a slot with an arrival, or after a slot in which a job
completed, the policy is called to (re)set the cluster (:class:`~hetopt.oasis.cluster.Cluster`):
held allocations (workers per worker server, parameter servers per PS server) hold until the
next event, and a job with ``w`` workers in a slot gets ``w`` worker-slots of work; it completes
in the slot where its work reaches E_i N_i M_i (tau_i + 2 e_i / b_i) (constraint (2)) and frees
its servers.  A reserved schedule runs slot by slot as reserved and completes in its last slot
with a worker (8).  The event loop knows nothing about the policies (one signature for all):
``simulate(inst, "fifo")`` takes a name of :data:`~hetopt.oasis.policies.POLICIES`,
``simulate(inst, policy)`` any object of the :class:`~hetopt.oasis.cluster.Policy` protocol.

Jobs that have not completed by T earn nothing; their partial allocations are dropped from
the returned schedules (which keeps (4)-(5) and makes the schedules a feasible solution of
(1)-(13) with the same utility) and listed in ``info["unfinished"]``.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..certify import Status
from ..errors import ArgumentError
from ..inputs import takes_instance
from .cluster import Cluster, Policy
from .instance import OasisInstance, check_size
from .online import OasisPolicy
from .policies import POLICIES
from .schedule import JobSchedule, OasisSimulation, OasisSolution, make_solution

__all__ = ["simulate", "online_incumbent"]


def _policy_options(name: str) -> list[str]:
    """The keyword options of ``POLICIES[name]`` (every parameter but the instance)."""
    params = list(inspect.signature(POLICIES[name]).parameters.values())[1:]
    return [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def _build(inst: OasisInstance, policy: Any, options: Mapping[str, Any] | None) -> Any:
    """The policy object of one run: ``POLICIES[policy](inst, **options)`` for a name, ``policy`` itself otherwise."""
    if options is not None and not isinstance(options, Mapping):
        raise ArgumentError(f"options is {options!r}; expected a mapping option -> value or None")
    if isinstance(policy, str):
        if policy not in POLICIES:
            raise ArgumentError(f"policy is {policy!r}; expected one of {', '.join(POLICIES)} or a Policy object")
        allowed = _policy_options(policy)
        unknown = sorted(set(options or {}) - set(allowed))
        if unknown:
            raise ArgumentError(f"policy {policy!r} takes no option {', '.join(map(repr, unknown))}; "
                                f"its options are: {', '.join(allowed) or 'none'}")
        return POLICIES[policy](inst, **dict(options or {}))
    if options:
        raise ArgumentError(f"options {sorted(options)} apply to a policy name; build the policy object with them")
    if not isinstance(policy, Policy):
        raise ArgumentError(f"policy is {policy!r:.60}; expected one of {', '.join(POLICIES)} or an object with a "
                            "name and __call__(cluster, t, arrived, completed) (hetopt.oasis.Policy)")
    built_for = getattr(policy, "inst", inst)
    if built_for is not inst:
        raise ArgumentError(f"policy {policy.name!r} was built for another instance; build one for this instance")
    return policy


class _Recorder:
    """Per-slot allocations of held (not reserved) jobs: I x H x T and I x K x T arrays, allocated on first use."""

    def __init__(self, inst: OasisInstance) -> None:
        self.inst = inst
        self.y: np.ndarray | None = None
        self.z: np.ndarray | None = None

    def record(self, i: int, t: int, yi: np.ndarray, zi: np.ndarray) -> None:
        if self.y is None or self.z is None:
            inst = self.inst
            H, K, T = inst.n_worker_servers, inst.n_ps_servers, inst.horizon
            check_size(inst, inst.n_jobs * (H + K) * T, "the simulator")
            self.y = np.zeros((inst.n_jobs, H, T), dtype=np.int64)
            self.z = np.zeros((inst.n_jobs, K, T), dtype=np.int64)
        self.y[i, :, t - 1] = yi
        self.z[i, :, t - 1] = zi


def _run_slot(cl: Cluster, rec: _Recorder, booked: dict[int, tuple[np.ndarray, np.ndarray]], t: int) -> list[int]:
    """Execute slot ``t``: the work of held and reserved allocations; the jobs that complete in it."""
    inst = cl.inst
    completed: list[int] = []
    for i, yi in list(cl.workers.items()):
        n = int(yi.sum())
        if n == 0:
            continue
        rec.record(i, t, yi, cl.ps[i])
        cl.remaining[i] -= n
        # absolute below 1 on purpose: worker-slots (dimensionless), and a slot removes a whole number of them
        if cl.remaining[i] <= 1e-9 * max(1.0, inst.workload[i]):
            cl.done[i] = t
            completed.append(i)
            cl.release(i)
    for i, (yr, _) in list(cl.reserved.items()):
        cl.remaining[i] -= float(yr[:, t - 1].sum())
        if not yr[:, t:].any():  # the last slot with a worker: t_hat_i (8)
            cl.done[i] = t
            completed.append(i)
            booked[i] = cl.reserved.pop(i)
    return completed


@takes_instance(OasisInstance)
def simulate(inst: OasisInstance, policy: Any, *, options: Mapping[str, Any] | None = None) -> OasisSimulation:
    """Run ``policy`` over slots 1..T and return the completed jobs' schedules.

    Parameters
    ----------
    inst : OasisInstance
    policy : str or Policy
        A name of :data:`~hetopt.oasis.policies.POLICIES` (``"oasis"``, ``"fifo"``, ``"drf"``,
        ``"rrh"``, ``"dorm"``) or a policy object (:class:`~hetopt.oasis.cluster.Policy`; a
        built-in one must be built for ``inst``, e.g. ``FIFOPolicy(inst, seed=3)``).
    options : mapping, optional
        Options of the named policy, passed to its class (e.g. ``{"log_ratio_cap": 15.0}`` for
        ``"oasis"``, ``{"seed": 3}`` for ``"fifo"``); only with a name.

    Returns
    -------
    OasisSimulation
        An :class:`OasisSolution` and a :class:`~hetopt.result.SimulationResult` (completion
        slots and JCTs in slots): status FEASIBLE, no bound; ``info["unfinished"]`` lists jobs that arrived but did not
        complete by T (for OASiS: the rejected ones), ``info["events"]`` the number of policy
        calls, plus what the policy reports (OASiS: ``payoffs`` and its price data).

    Raises
    ------
    ArgumentError
        An unknown policy name or option, options with a policy object, an object that is not
        a policy, or a policy built for another instance.
    SizeLimitError
        When the instance is beyond the simulator's arrays (:func:`~hetopt.oasis.instance.check_size`).
    """
    start = time.perf_counter()
    check_size(inst, what="the simulator")
    run = _build(inst, policy, options)
    cl = Cluster(inst)
    rec = _Recorder(inst)
    booked: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    completed: list[int] = []
    events = 0
    for t in range(1, inst.horizon + 1):
        cl.slot = t
        arrived = [i for i in range(inst.n_jobs) if int(inst.arrival[i]) == t]
        cl.arrived.extend(arrived)
        if arrived or completed:
            run(cl, t, arrived, completed)
            events += 1
        completed = _run_slot(cl, rec, booked, t)
    scheds = {}
    for i in cl.done:
        if i in booked:
            scheds[i] = JobSchedule(i, *booked[i])
        elif rec.y is not None and rec.z is not None:
            scheds[i] = JobSchedule(i, rec.y[i], rec.z[i])
    unfinished = [i for i in cl.arrived if i not in cl.done]
    report = run.report() if callable(getattr(run, "report", None)) else {}
    info = {**report.get("info", {}), "unfinished": unfinished, "events": events}
    message = report.get("message", f"{len(scheds)} of {inst.n_jobs} jobs completed")
    sol = make_solution(inst, scheds, status=Status.FEASIBLE, wall_time=time.perf_counter() - start,
                        solver=run.name, message=message, payoffs=report.get("payoffs"), info=info)
    return OasisSimulation.of(sol, inst, policy if isinstance(policy, str) else str(run.name))


def online_incumbent(inst: OasisInstance, deadline: float | None = None) -> OasisSolution:
    """OASiS's online schedule (Alg. 1), the incumbent of the exact routes.

    With a ``deadline`` (a ``time.perf_counter()`` value) the jobs arriving after it are rejected
    undecided (``info["undecided"]``): the schedules reserved so far are still a feasible solution
    of (1)-(13), so a time-limited route always has OASiS's schedule of the jobs it had time for.
    """
    policy = OasisPolicy(inst)
    policy.deadline = deadline
    return simulate(inst, policy)
