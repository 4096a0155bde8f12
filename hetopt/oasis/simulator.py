"""Slotted cluster simulator of Section V-A, shared by the baselines.

Slots run ``1..T``.  At the start of a slot with an arrival, or after a slot in which a job
completed, the policy is called to (re)set the allocations (workers per worker server,
parameter servers per PS server) of the jobs; allocations then hold until the next event.
A job with ``w`` workers in a slot gets ``w`` worker-slots of work; it completes in the slot
where its work reaches E_i N_i M_i (tau_i + 2 e_i / b_i) (constraint (2)) and frees its
servers.  The event loop knows nothing about the policies (one signature for all).

Jobs that have not completed by T earn nothing; their partial allocations are dropped from
the returned schedules (which keeps (4)-(5) and makes the schedules a feasible solution of
(1)-(13) with the same utility) and listed in ``info["unfinished"]``.
"""

from __future__ import annotations

import time
from typing import Protocol, runtime_checkable

import numpy as np

from ..result import Status
from .instance import EPS_WORK, OasisInstance, check_size
from .schedule import JobSchedule, OasisSolution, make_solution

__all__ = ["Cluster", "Policy", "simulate", "ps_needed", "place_round_robin"]


def ps_needed(inst: OasisInstance, job: int, workers: int) -> int:
    """ceil(w b_i / B_i): the fewest parameter servers serving ``workers`` workers ((6), (7))."""
    return int(np.ceil(workers * inst.worker_bandwidth[job] / inst.ps_bandwidth[job] * (1 - EPS_WORK)))


def place_round_robin(free: np.ndarray, demand: np.ndarray, count: int, start: int = 0) -> tuple[np.ndarray, int]:
    """Place ``count`` units of ``demand`` one by one on servers in round-robin order.

    Returns the units per server and the next start pointer; fewer than ``count`` units are
    placed when the servers are full (the caller decides what to do then).
    """
    n = free.shape[0]
    out = np.zeros(n, dtype=np.int64)
    if count <= 0 or n == 0:
        return out, start
    left = free.copy()
    fits = np.all(left >= demand - 1e-9, axis=1)
    placed, h, misses = 0, start % n, 0
    while placed < count and misses < n:
        if fits[h]:
            out[h] += 1
            left[h] -= demand
            fits[h] = np.all(left[h] >= demand - 1e-9)
            placed += 1
            misses = 0
        else:
            misses += 1
        h = (h + 1) % n
    return out, h


class Cluster:
    """Current allocations of a simulation and the capacity they leave."""

    def __init__(self, inst: OasisInstance) -> None:
        self.inst = inst
        self.workers: dict[int, np.ndarray] = {}
        self.ps: dict[int, np.ndarray] = {}
        self.remaining = inst.workload.astype(float).copy()
        self.done: dict[int, int] = {}
        self.arrived: list[int] = []
        self.pointer_w = 0
        self.pointer_p = 0

    def active(self) -> list[int]:
        """Arrived, unfinished jobs in arrival order."""
        return [i for i in self.arrived if i not in self.done]

    def free(self, exclude: set[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Free capacity of worker and PS servers, ignoring the allocations of ``exclude``."""
        inst = self.inst
        fw = inst.worker_capacity.astype(float).copy()
        fp = inst.ps_capacity.astype(float).copy()
        for i, y in self.workers.items():
            if exclude and i in exclude:
                continue
            fw -= np.outer(y, inst.worker_demand[i])
            fp -= np.outer(self.ps[i], inst.ps_demand[i])
        return fw, fp

    def release(self, job: int) -> None:
        self.workers.pop(job, None)
        self.ps.pop(job, None)

    def try_place(self, job: int, n_workers: int, *, partial: bool = False) -> int:
        """Place ``n_workers`` workers and their PSs round-robin; all or nothing unless ``partial``.

        Returns the number of workers placed (0 when nothing fits).
        """
        inst = self.inst
        fw, fp = self.free(exclude={job})
        yw, pw = place_round_robin(fw, inst.worker_demand[job], n_workers, self.pointer_w)
        w = int(yw.sum())
        while w > 0:
            zz, pp = place_round_robin(fp, inst.ps_demand[job], ps_needed(inst, job, w), self.pointer_p)
            if zz.sum() == ps_needed(inst, job, w):
                break
            if not partial:
                return 0
            w -= 1
            yw, pw = place_round_robin(fw, inst.worker_demand[job], w, self.pointer_w)
        if w == 0 or (w < n_workers and not partial):
            return 0
        self.workers[job], self.ps[job] = yw, zz
        self.pointer_w, self.pointer_p = pw, pp
        return w


@runtime_checkable
class Policy(Protocol):
    """A scheduling policy: called on arrivals and completions to set ``cluster`` allocations.

    The plug-in protocol of the simulator (see the card): an object with a ``name`` and
    ``__call__(cluster, t, arrived, completed)``, which sets the allocations of the active jobs
    through :class:`Cluster` (``try_place``, ``release``, ``active``, ``free``, ``remaining``).
    ``isinstance(obj, Policy)`` checks that both attributes exist.
    """

    name: str

    def __call__(self, cluster: Cluster, t: int, arrived: list[int], completed: list[int]) -> None: ...


def simulate(inst: OasisInstance, policy: Policy) -> OasisSolution:
    """Run ``policy`` over slots 1..T and return the completed jobs' schedules.

    Returns
    -------
    OasisSolution
        status FEASIBLE; ``info["unfinished"]`` lists jobs that arrived but did not
        complete by T, ``info["events"]`` the number of policy calls.
    """
    start = time.perf_counter()
    T, H, K = inst.horizon, inst.n_worker_servers, inst.n_ps_servers
    check_size(inst, inst.n_jobs * (H + K) * T, "the simulator")
    cl = Cluster(inst)
    y = np.zeros((inst.n_jobs, H, T), dtype=np.int64)
    z = np.zeros((inst.n_jobs, K, T), dtype=np.int64)
    completed: list[int] = []
    events = 0
    for t in range(1, T + 1):
        arrived = [i for i in range(inst.n_jobs) if int(inst.arrival[i]) == t]
        cl.arrived.extend(arrived)
        if arrived or completed:
            policy(cl, t, arrived, completed)
            events += 1
        completed = []
        for i, yi in list(cl.workers.items()):
            n = int(yi.sum())
            if n == 0:
                continue
            y[i, :, t - 1] = yi
            z[i, :, t - 1] = cl.ps[i]
            cl.remaining[i] -= n
            if cl.remaining[i] <= 1e-9 * max(1.0, inst.workload[i]):
                cl.done[i] = t
                completed.append(i)
                cl.release(i)
    scheds = {i: JobSchedule(i, y[i], z[i]) for i in cl.done}
    unfinished = [i for i in cl.arrived if i not in cl.done]
    return make_solution(inst, scheds, status=Status.FEASIBLE, wall_time=time.perf_counter() - start,
                         solver=policy.name, message=f"{len(scheds)} of {inst.n_jobs} jobs completed",
                         info={"unfinished": unfinished, "events": events})
