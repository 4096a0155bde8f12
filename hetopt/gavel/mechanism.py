"""Gavel's round-based mechanism, as its ``scheduler.py`` implements it.

A policy gives an allocation ``X`` (time fractions per job and GPU type).  Rounds of
``round_length`` seconds (Gavel: 360 s) turn it into placements:

* **Priorities.**  For each type ``r``, ``share[j, r]`` is the fraction of type-``r`` time
  job ``j`` received since the allocation last changed: every job is credited half a
  round on every type at each reset (and when it arrives), each round adds the seconds
  it ran.  ``priority[j, r] = X[j, r] / share[j, r]``; 0 where ``X[j, r] = 0`` or the job
  cannot run on ``r`` (throughput 0); ``X[j, r] * 1e9`` where the share is still 0.
* **Deficits.**  At each reset ``deficit[j, r] += X_old[j, r] * elapsed - seconds run``,
  accumulated over the job's life: the tie-breaker after the priority.
* **Queues.**  One queue per type, sorted by (priority, deficit, allocation), highest
  first, ties in job order; the queues are visited type after type in ``type_order``
  (fastest type first: Gavel's V100, P100, K80).  A job goes on the first queue entry
  whose type still has ``scale_factor[j]`` free GPUs and on which it can run.  Entries with
  zero allocation stay in the queues (priority 0), so GPUs left over go to jobs the
  allocation did not give that type: the mechanism is **work-conserving**.
* **Recomputation.**  An arrival or a completion marks the allocation stale; it is
  recomputed (and the shares reset) at the start of the first round at least
  ``recompute_interval`` seconds after the previous reset (Gavel's
  ``minimum_time_between_allocation_resets``, 1,920 s).  Jobs that arrived since then
  wait for it.

Functions :func:`priorities` and :func:`schedule_round` are the stateless core (one
round from given shares and deficits); :class:`GavelMechanism` keeps the state between
rounds for a simulator.

Differences from Gavel's code, all deliberate: steps are real numbers (Gavel truncates
``throughput * round`` to an integer); a job that arrived after the last reset is left
out of the queues, where Gavel's ``_schedule_jobs_on_workers_helper`` counts its GPUs as
taken and then does not assign them; job packing and the shuffled type order of the
heterogeneity-unaware policies are not modelled.

References
----------
D. Narayanan, K. Santhanam, F. Kazhamiaka, A. Phanishayee, M. Zaharia,
"Heterogeneity-Aware Cluster Scheduling Policies for Deep Learning Workloads", OSDI 2020,
Section 5; stanford-futuredata/gavel ``scheduler/scheduler.py`` (MIT licence):
``_update_priorities``, ``_reset_time_run_so_far``, ``_schedule_jobs_on_workers_helper``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping

import numpy as np

from ..errors import ArgumentError, InstanceError
from ..inputs import check_flag, check_positive, check_size, numeric_array

__all__ = ["ALLOCATION_EPS", "DEFAULT_ROUND_LENGTH", "DEFAULT_RECOMPUTE_INTERVAL", "UNSERVED_PRIORITY",
           "priorities", "schedule_round", "GavelMechanism", "fastest_first"]

#: Time fractions at or below this are treated as "not allocated".
ALLOCATION_EPS = 1e-9
#: Times closer than this fraction of the interval compared (or of the time itself) are equal (Gavel's
#: ``scheduler.py`` compares exactly; hetopt's sums of round lengths carry rounding).
TIME_RTOL = 1e-9
#: Gavel's ``time_per_iteration``: seconds per round.
DEFAULT_ROUND_LENGTH = 360.0
#: Gavel's ``minimum_time_between_allocation_resets``: seconds.
DEFAULT_RECOMPUTE_INTERVAL = 1920.0
#: Gavel multiplies the allocation by this when a job has no share yet ("don't use inf").
UNSERVED_PRIORITY = 1e9


def fastest_first(throughput) -> list[int]:
    """GPU types fastest first, for clusters whose columns are not ordered as Gavel's V100, P100, K80.

    Types are sorted by the sum over jobs of the type's throughput relative to the job's best
    type (descending; ties by index).

    Examples
    --------
    >>> fastest_first([[1.0, 4.0, 2.0], [1.0, 3.0, 3.0]])
    [1, 2, 0]
    """
    T = numeric_array("throughput", throughput)
    if T.ndim != 2 or T.size == 0 or not np.all(np.isfinite(T)) or np.any(T < 0):
        raise InstanceError(f"throughput has shape {T.shape} or an entry that is negative or not finite; expected "
                            "(J, R) steps/s >= 0")
    best = T.max(axis=1, keepdims=True)
    rel = (T / np.where(best > 0, best, 1.0)).sum(axis=0)
    return sorted(range(T.shape[1]), key=lambda r: -float(rel[r]))


#: Tolerance on an allocation row's total time fraction (solver round-off).
ALLOCATION_TOL = 1e-6


def _check_allocation(allocation) -> np.ndarray:
    """A (J, R) allocation of time fractions: finite, in [0, 1], rows summing to at most 1."""
    X = numeric_array("allocation", allocation)
    if X.ndim != 2:
        raise InstanceError(f"allocation has shape {X.shape}; expected (J, R)")
    bad = np.argwhere(~np.isfinite(X) | (X < -ALLOCATION_TOL) | (X > 1 + ALLOCATION_TOL))
    if bad.size:
        j, r = (int(v) for v in bad[0])
        raise InstanceError(f"allocation[{j}, {r}] is {X[j, r]}; time fractions must be finite and in [0, 1]")
    rows = X.sum(axis=1)
    over = np.flatnonzero(rows > 1 + ALLOCATION_TOL)
    if over.size:
        j = int(over[0])
        raise InstanceError(f"allocation row {j} sums to {rows[j]:.6g} > 1; a job's time fractions must sum to at most 1")
    return X


def priorities(allocation, share, throughput=None) -> np.ndarray:
    """Gavel's priority matrix from an allocation and the shares of time received.

    Parameters
    ----------
    allocation : array_like, shape (J, R)
        Time fractions of the current allocation.
    share : array_like, shape (J, R)
        Fraction of each type's time since the last reset that each job received.
    throughput : array_like, shape (J, R), optional
        Where it is 0 the priority is 0 (the job cannot run there).

    Returns
    -------
    numpy.ndarray, shape (J, R)
        ``X / share`` where both are positive, ``X * 1e9`` where the share is 0, 0 where
        ``X`` (or the throughput) is 0.

    Examples
    --------
    >>> priorities([[0.5, 0.0], [0.2, 0.8]], [[0.25, 0.5], [0.0, 0.4]]).tolist()
    [[2.0, 0.0], [200000000.0, 2.0]]
    """
    X = _check_allocation(allocation)
    f = numeric_array("share", share)
    if f.shape != X.shape:
        raise InstanceError(f"share has shape {f.shape}; expected the allocation's {X.shape}")
    if np.any(f < 0):
        raise InstanceError("share has a negative entry; shares of time are >= 0")
    pos = X > ALLOCATION_EPS
    if throughput is not None:
        T = numeric_array("throughput", throughput)
        if T.shape != X.shape:
            raise InstanceError(f"throughput has shape {T.shape}; expected the allocation's {X.shape}")
        pos &= T > 0
    P = np.zeros_like(X)
    served = pos & (f > 0)
    P[served] = X[served] / f[served]
    P[pos & ~served] = X[pos & ~served] * UNSERVED_PRIORITY
    return P


def schedule_round(allocation, scale_factor, capacity, priority, deficit=None, throughput=None, *,
                   type_order=None, work_conserving: bool = True) -> np.ndarray:
    """One round of Gavel's mechanism from given priorities and deficits.

    Parameters
    ----------
    allocation : array_like, shape (J, R)
        Time fractions (third sort key).
    scale_factor : array_like of int, shape (J,)
        GPUs a job occupies on the one type it runs on.
    capacity : array_like of int, shape (R,)
        GPUs of each type.
    priority : array_like, shape (J, R)
        From :func:`priorities` (first sort key).
    deficit : array_like, shape (J, R), optional
        Accumulated deficits (second sort key); zeros if omitted.
    throughput : array_like, shape (J, R), optional
        A job is never placed on a type where its throughput is 0.
    type_order : sequence of int, optional
        Order in which the per-type queues are visited; default ``0..R-1`` (columns
        fastest first, as Gavel's V100, P100, K80).
    work_conserving : bool
        Keep zero-priority entries in the queues (Gavel, every policy but FIFO).  False
        drops them, as Gavel does for FIFO.

    Returns
    -------
    numpy.ndarray of int, shape (J, R)
        ``scale_factor[j]`` in the column of the type job ``j`` runs on, 0 elsewhere.

    Examples
    --------
    The three-job example of hetopt issue 10: every job is placed.

    >>> X = [[1, 0], [0, 1], [0, 1]]
    >>> schedule_round(X, [1, 1, 1], [2, 1], priorities(X, [[1/3] * 2] * 3)).tolist()
    [[1, 0], [1, 0], [0, 1]]
    """
    X = _check_allocation(allocation)
    J, R = X.shape
    s = numeric_array("scale_factor", scale_factor, integer=True)
    cap = numeric_array("capacity", capacity, integer=True)
    P = numeric_array("priority", priority)
    D = np.zeros((J, R)) if deficit is None else numeric_array("deficit", deficit)
    T = np.ones((J, R)) if throughput is None else numeric_array("throughput", throughput)
    check_flag(work_conserving, "work_conserving")
    for name, arr, shape in (("scale_factor", s, (J,)), ("capacity", cap, (R,)), ("priority", P, (J, R)),
                             ("deficit", D, (J, R)), ("throughput", T, (J, R))):
        if arr.shape != shape:
            raise InstanceError(f"{name} has shape {arr.shape}; expected {shape} for an allocation of shape {X.shape}")
    if np.any(s < 1):
        raise InstanceError("scale_factor has an entry < 1; every job occupies at least one GPU")
    if np.any(cap < 0):
        raise InstanceError("capacity has a negative entry")
    for name, arr in (("priority", P), ("deficit", D), ("throughput", T)):
        if not np.all(np.isfinite(arr)):
            raise InstanceError(f"{name} has a non-finite entry")
    if type_order is not None and (isinstance(type_order, str | bytes) or not hasattr(type_order, "__iter__") or any(
            isinstance(r, bool) or not isinstance(r, int | np.integer) for r in type_order)):
        raise InstanceError(f"type_order is {type_order!r}; expected a permutation of 0..{R - 1}")
    order = list(range(R)) if type_order is None else [int(r) for r in type_order]
    if sorted(order) != list(range(R)):
        raise InstanceError(f"type_order is {order}; expected a permutation of 0..{R - 1}")
    left = cap.astype(np.int64).copy()
    placed = np.zeros(J, dtype=bool)
    out = np.zeros((J, R), dtype=np.int64)
    idx = np.arange(J)
    for r in order:
        # sort on (priority, deficit, allocation), highest first; ties keep job order
        queue = np.lexsort((idx, -X[:, r], -D[:, r], -P[:, r]))
        for j in queue:
            if left[r] == 0:
                break
            if placed[j] or T[j, r] <= 0 or s[j] > left[r]:
                continue
            if not work_conserving and P[j, r] <= 0:
                continue
            out[j, r] = s[j]
            left[r] -= s[j]
            placed[j] = True
    return out


class GavelMechanism:
    """The state Gavel's scheduler keeps between rounds: shares, deficits, allocation.

    Parameters
    ----------
    n_types : int
        GPU types (columns of every matrix).
    round_length : float
        Seconds per round; half of it is the time credited to every job at a reset.
    recompute_interval : float
        Minimum seconds between two resets (allocation recomputations).
    type_order : sequence of int, optional
        Queue order, fastest type first (default: column order).
    work_conserving : bool
        See :func:`schedule_round`.

    Notes
    -----
    A simulator calls, for each round at time ``now``: :meth:`add_job` / :meth:`remove_job`
    for arrivals and completions, then :meth:`recompute_due`; when it is True, the policy's
    allocation for :attr:`jobs` goes to :meth:`reset`; then :meth:`schedule`, and after the
    round :meth:`record` for each job that ran.
    """

    def __init__(self, n_types: int, *, round_length: float = DEFAULT_ROUND_LENGTH,
                 recompute_interval: float = DEFAULT_RECOMPUTE_INTERVAL, type_order=None,
                 work_conserving: bool = True):
        n_types = check_size(n_types, "n_types")
        round_length = check_positive(round_length, "round_length")
        recompute_interval = check_positive(recompute_interval, "recompute_interval", allow_zero=True)
        if type_order is not None and (isinstance(type_order, str | bytes) or
                                       sorted(int(r) for r in type_order) != list(range(n_types)) or
                                       any(isinstance(r, bool) for r in type_order)):
            raise ArgumentError(f"type_order is {type_order!r}; expected a permutation of 0..{n_types - 1}")
        work_conserving = check_flag(work_conserving, "work_conserving")
        self.n_types = int(n_types)
        self.round_length = float(round_length)
        self.recompute_interval = float(recompute_interval)
        self.type_order = None if type_order is None else list(type_order)
        self.work_conserving = work_conserving
        self.jobs: list[Hashable] = []
        self.allocation: dict[Hashable, np.ndarray] = {}
        self.time_so_far: dict[Hashable, np.ndarray] = {}
        self.deficit: dict[Hashable, np.ndarray] = {}
        self.worker_time = np.zeros(self.n_types)
        self.last_reset: float | None = None
        self.stale = True
        self.reset_times: list[float] = []

    # -- job set ---------------------------------------------------------------------------
    def add_job(self, job: Hashable) -> None:
        """A job arrives: half a round credited on every type; the allocation becomes stale."""
        if job in self.time_so_far:
            raise InstanceError(f"job {job!r} is already in the mechanism")
        self.jobs.append(job)
        self.time_so_far[job] = np.full(self.n_types, self.round_length / 2)
        self.deficit[job] = np.zeros(self.n_types)
        self.stale = True

    def remove_job(self, job: Hashable) -> None:
        """A job completes: its state goes; the allocation becomes stale."""
        if job not in self.time_so_far:
            raise InstanceError(f"job {job!r} is not in the mechanism")
        self.jobs.remove(job)
        for d in (self.time_so_far, self.deficit, self.allocation):
            d.pop(job, None)
        self.stale = True

    def sync(self, active: Iterable[Hashable]) -> None:
        """Add the jobs of ``active`` not yet known and remove the known ones not in it."""
        active = list(active)
        keep = set(active)
        for j in [j for j in self.jobs if j not in keep]:
            self.remove_job(j)
        for j in active:
            if j not in self.time_so_far:
                self.add_job(j)

    # -- allocation ------------------------------------------------------------------------
    def recompute_due(self, now: float) -> bool:
        """Stale allocation and at least ``recompute_interval`` seconds since the last reset."""
        slack = TIME_RTOL * max(self.recompute_interval, abs(now))  # relative: an absolute 1e-9 s was a round of 1e-9 s
        return self.stale and (self.last_reset is None or now - self.last_reset >= self.recompute_interval - slack)

    def reset(self, now: float, allocation: Mapping[Hashable, Iterable[float]]) -> None:
        """Gavel's ``_reset_time_run_so_far`` followed by installing a new allocation.

        Deficits grow by ``X_old * (now - last_reset) - seconds run``; every job's time is
        set back to half a round on every type, and each type's total to the sum.
        """
        elapsed = 0.0 if self.last_reset is None else now - self.last_reset
        self.worker_time = np.zeros(self.n_types)
        for j in self.jobs:
            received = self.time_so_far[j] - self.round_length / 2
            should = self.allocation.get(j, np.zeros(self.n_types)) * elapsed
            self.deficit[j] = self.deficit[j] + should - received
            self.time_so_far[j] = np.full(self.n_types, self.round_length / 2)
            self.worker_time += self.time_so_far[j]
        new = {}
        for j, row in allocation.items():
            if j not in self.time_so_far:
                raise InstanceError(f"allocation has a row for job {j!r}, which is not in the mechanism")
            row = np.asarray(row, dtype=float)
            if row.shape != (self.n_types,):
                raise InstanceError(f"allocation row of job {j!r} has shape {row.shape}; expected ({self.n_types},)")
            new[j] = row
        self.allocation = new
        self.last_reset = float(now)
        self.stale = False
        self.reset_times.append(float(now))

    @property
    def resets(self) -> int:
        """Number of resets (allocation recomputations) so far."""
        return len(self.reset_times)

    # -- rounds ----------------------------------------------------------------------------
    def shares(self, jobs: Iterable[Hashable]) -> np.ndarray:
        """Fraction of each type's time since the last reset received by each job."""
        S = np.array([self.time_so_far[j] for j in jobs], dtype=float).reshape(-1, self.n_types)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.worker_time > 0, S / np.where(self.worker_time > 0, self.worker_time, 1.0), 0.0)

    def schedule(self, throughput: Mapping[Hashable, Iterable[float]], scale_factor: Mapping[Hashable, int],
                 capacity) -> dict[Hashable, int]:
        """One round: the type each scheduled job runs on.

        Parameters
        ----------
        throughput, scale_factor : mapping job -> row / int
            For every job of :attr:`jobs` that is in the current allocation (the others wait
            for the next recomputation and are ignored).
        capacity : array_like of int, shape (R,)

        Returns
        -------
        dict
            job -> GPU type index, for the jobs placed this round.
        """
        jobs = [j for j in self.jobs if j in self.allocation]
        if not jobs:
            return {}
        X = np.array([self.allocation[j] for j in jobs])
        T = np.array([np.asarray(throughput[j], dtype=float) for j in jobs])
        s = numeric_array("scale_factor", [scale_factor[j] for j in jobs], integer=True)
        cluster = numeric_array("capacity", capacity, integer=True)
        over = np.flatnonzero(s > (cluster.max() if cluster.size else 0))
        if over.size:
            j = jobs[int(over[0])]
            raise InstanceError(f"scale_factor[{j!r}] is {int(s[over[0]])}, more GPUs than any type of the cluster has "
                                f"(capacity {cluster.tolist()}); the job could never be placed")
        D = np.array([self.deficit[j] for j in jobs])
        P = priorities(X, self.shares(jobs), T)
        place = schedule_round(X, s, capacity, P, D, T, type_order=self.type_order,
                               work_conserving=self.work_conserving)
        return {jobs[i]: int(np.flatnonzero(place[i])[0]) for i in np.flatnonzero(place.sum(axis=1))}

    def record(self, job: Hashable, gpu_type: int, seconds: float) -> None:
        """After a round: ``job`` ran ``seconds`` on ``gpu_type`` (counted for its share)."""
        if seconds < 0:
            raise InstanceError(f"seconds is {seconds!r}; expected >= 0")
        if job in self.time_so_far:
            self.time_so_far[job][gpu_type] += seconds
        self.worker_time[gpu_type] += seconds
