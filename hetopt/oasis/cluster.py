"""The state a policy of the slotted simulator sees and changes: :class:`Cluster`, and the :class:`Policy` protocol.

A policy is called by :func:`~hetopt.oasis.simulator.simulate` on arrivals and after
completions.  It acts on the cluster in one of two ways:

* it *holds* allocations (workers per worker server, parameter servers per PS server) through
  :meth:`Cluster.try_place` and :meth:`Cluster.release`; they hold until the policy changes
  them, and a job completes in the slot where its work E_i N_i M_i (tau_i + 2 e_i / b_i)
  (constraint (2)) is done (the baselines of Section V-A);
* it *reserves* a job's whole schedule, slot by slot, through :meth:`Cluster.reserve`; the job
  then runs that schedule and completes in its last slot with a worker (8) (OASiS, Alg. 1,
  which decides the schedule of a job on its arrival).

Placement helpers: :func:`ps_needed` (the fewest parameter servers allowed by (6)-(7)) and
:func:`place_round_robin` (Section V-A, "(i)-(iii)").
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..errors import ArgumentError
from ..inputs import check_array, check_size, takes_instance
from .instance import EPS_WORK, OasisInstance

__all__ = ["Cluster", "Policy", "ps_needed", "place_round_robin", "FIT_RTOL"]

#: Relative slack with which a unit fits a server's free capacity (float rounding of the amounts).
FIT_RTOL = 1e-9


@takes_instance(OasisInstance)
def ps_needed(inst: OasisInstance, job: int, workers: int) -> int:
    """ceil(w b_i / B_i): the fewest parameter servers serving ``workers`` workers ((6), (7)).

    Parameters
    ----------
    inst : OasisInstance
    job : int
        Job index i.
    workers : int
        Number of workers w.

    Returns
    -------
    int
    """
    job = check_size(job, "job", minimum=0, maximum=inst.n_jobs - 1)
    workers = check_size(workers, "workers", minimum=0)
    return int(np.ceil(workers * inst.worker_bandwidth[job] / inst.ps_bandwidth[job] * (1 - EPS_WORK)))


def place_round_robin(free: np.ndarray, demand: np.ndarray, count: int, start: int = 0) -> tuple[np.ndarray, int]:
    """Place ``count`` units of ``demand`` one by one on servers in round-robin order.

    Parameters
    ----------
    free : numpy.ndarray, shape (servers, R)
        Free capacity of each server.
    demand : numpy.ndarray, shape (R,)
        What one unit takes.
    count : int
        Units to place.
    start : int
        Server where the round starts.

    Returns
    -------
    (numpy.ndarray of int64, int)
        The units per server and the next start pointer; fewer than ``count`` units are placed
        when the servers are full (the caller decides what to do then).
    """
    free = check_array(free, "free", (None, None))
    demand = check_array(demand, "demand", (free.shape[1],), minimum=0.0)
    count, start = check_size(count, "count", minimum=0), check_size(start, "start", minimum=0)
    n = free.shape[0]
    out = np.zeros(n, dtype=np.int64)
    if count <= 0 or n == 0:
        return out, start
    left = free.copy()
    slack = FIT_RTOL * np.maximum(np.abs(free).max(axis=0), demand)  # relative to the amounts: any magnitude
    fits = np.all(left >= demand - slack, axis=1)
    placed, h, misses = 0, start % n, 0
    while placed < count and misses < n:
        if fits[h]:
            out[h] += 1
            left[h] -= demand
            fits[h] = np.all(left[h] >= demand - slack)
            placed += 1
            misses = 0
        else:
            misses += 1
        h = (h + 1) % n
    return out, h


class Cluster:
    """Current allocations of a simulation and the capacity they leave.

    Attributes
    ----------
    inst : OasisInstance
    workers, ps : dict int -> numpy.ndarray
        Held allocations: workers per worker server (H,) and parameter servers per PS server (K,)
        of each running job.
    reserved : dict int -> (numpy.ndarray, numpy.ndarray)
        Reserved schedules (H x T workers, K x T parameter servers) of jobs that have not completed.
    remaining : numpy.ndarray
        Worker-slots of work left per job.
    done : dict int -> int
        Completion slot of every completed job.
    arrived : list of int
        Jobs that have arrived, in arrival order.
    slot : int
        The current slot (0 before the first).
    """

    def __init__(self, inst: OasisInstance) -> None:
        self.inst = inst
        self.workers: dict[int, np.ndarray] = {}
        self.ps: dict[int, np.ndarray] = {}
        self.reserved: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.remaining = inst.workload.astype(float).copy()
        self.done: dict[int, int] = {}
        self.arrived: list[int] = []
        self.pointer_w = 0
        self.pointer_p = 0
        self.slot = 0

    def active(self) -> list[int]:
        """Arrived, unfinished jobs in arrival order."""
        return [i for i in self.arrived if i not in self.done]

    def free(self, exclude: set[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Free capacity of worker and PS servers in the current slot, ignoring the jobs in ``exclude``.

        Held allocations and the current slot of reserved schedules count as used.
        """
        inst = self.inst
        fw = inst.worker_capacity.astype(float).copy()
        fp = inst.ps_capacity.astype(float).copy()
        for i, y in self.workers.items():
            if exclude and i in exclude:
                continue
            fw -= np.outer(y, inst.worker_demand[i])
            fp -= np.outer(self.ps[i], inst.ps_demand[i])
        if self.slot >= 1:
            for i, (yr, zr) in self.reserved.items():
                if exclude and i in exclude:
                    continue
                fw -= np.outer(yr[:, self.slot - 1], inst.worker_demand[i])
                fp -= np.outer(zr[:, self.slot - 1], inst.ps_demand[i])
        return fw, fp

    def release(self, job: int) -> None:
        """Drop the held allocation of ``job`` (a no-op when it has none)."""
        self.workers.pop(job, None)
        self.ps.pop(job, None)

    def try_place(self, job: int, n_workers: int, *, partial: bool = False) -> int:
        """Place ``n_workers`` workers and their PSs round-robin; all or nothing unless ``partial``.

        Returns
        -------
        int
            The number of workers placed (0 when nothing fits).
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

    def reserve(self, job: int, workers: Any, ps: Any) -> None:
        """Commit ``job`` to a whole schedule: ``workers`` (H x T) and ``ps`` (K x T), column ``t - 1`` for slot ``t``.

        The job runs the schedule from the current slot on and completes in its last slot with a
        worker (8); constraints (2)-(13) are checked on the result by
        :func:`~hetopt.oasis.checker.check_schedule`, not here.

        Raises
        ------
        ArgumentError
            When the arrays have the wrong shape, hold negative or non-integer counts, allocate
            a slot before the current one, have no worker at all, or the job already holds an
            allocation, has a reservation or has completed.
        """
        inst = self.inst
        H, K, T = inst.n_worker_servers, inst.n_ps_servers, inst.horizon
        y, z = np.asarray(workers), np.asarray(ps)
        if y.shape != (H, T) or z.shape != (K, T):
            raise ArgumentError(f"reserve: job {job} has workers {y.shape} and ps {z.shape}; expected ({H}, {T}) and ({K}, {T})")
        if np.any(y < 0) or np.any(z < 0) or np.any(y != np.round(y)) or np.any(z != np.round(z)):
            raise ArgumentError(f"reserve: job {job}: workers and ps must be non-negative integers (12)-(13)")
        if job in self.workers or job in self.reserved or job in self.done:
            raise ArgumentError(f"reserve: job {job} already holds an allocation, a reservation or has completed")
        past = max(self.slot - 1, 0)
        if np.any(y[:, :past] != 0) or np.any(z[:, :past] != 0):
            raise ArgumentError(f"reserve: job {job} allocates a slot before the current slot {self.slot}")
        if not np.any(y):
            raise ArgumentError(f"reserve: job {job}'s schedule has no worker; a policy leaves a rejected job alone")
        self.reserved[job] = (y.astype(np.int64), z.astype(np.int64))


@runtime_checkable
class Policy(Protocol):
    """A scheduling policy: called on arrivals and completions to set the ``cluster``'s allocations.

    The plug-in protocol of the simulator (see the card): an object with a ``name`` and
    ``__call__(cluster, t, arrived, completed)``, which acts on the active jobs through
    :class:`Cluster` (``try_place``, ``release``, ``reserve``, ``active``, ``free``,
    ``remaining``).  ``isinstance(obj, Policy)`` checks that both attributes exist.

    A policy may also define ``report() -> dict`` (called once, after the last slot) with any of
    the keys ``payoffs`` (job -> float), ``info`` (merged into the solution's ``info``) and
    ``message``, and an attribute ``inst``, the instance it was built for (the simulator refuses
    another one).
    """

    name: str

    def __call__(self, cluster: Cluster, t: int, arrived: list[int], completed: list[int]) -> None:
        """Set the allocations at the start of slot ``t`` (``completed``: jobs that completed in slot t - 1)."""
        ...
