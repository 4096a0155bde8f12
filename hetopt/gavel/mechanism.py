"""Gavel's round-based mechanism: from an allocation of time fractions to one round's placement.

In every round Gavel gives each GPU type to the jobs with the highest priority
``X[j, r] / rounds_received[j, r]`` (a job that has not yet run on type ``r`` but should
has infinite priority), so that over many rounds the time each job spends on each type
tracks the allocation ``X``.  A job runs on ``scale_factor[j]`` GPUs of a single type,
or not at all, in a round.

References
----------
D. Narayanan et al., "Heterogeneity-Aware Cluster Scheduling Policies for Deep Learning
Workloads", OSDI 2020, Section 5 (round-based scheduling mechanism).
A. Sultana et al. (Hadar), Section II-A: "the priority of a job on a type of GPUs is the
corresponding element of Y^Gavel divided by the number of rounds received".
"""

from __future__ import annotations

import numpy as np

from ..errors import InstanceError
from .policies import POLICIES, check_policy_inputs

__all__ = ["priorities", "schedule_round", "gavel_round", "ALLOCATION_EPS"]

#: Time fractions at or below this are treated as "not allocated" by the mechanism.
ALLOCATION_EPS = 1e-9


def priorities(allocation, rounds_received) -> np.ndarray:
    """Gavel's priority matrix ``X / rounds_received``: inf where X > 0 and no round yet, 0 where X = 0."""
    X = np.asarray(allocation, dtype=float)
    n = np.asarray(rounds_received, dtype=float)
    P = np.zeros_like(X)
    pos = X > ALLOCATION_EPS
    fresh = pos & (n <= 0)
    P[fresh] = np.inf
    seen = pos & (n > 0)
    P[seen] = X[seen] / n[seen]
    return P


def schedule_round(allocation, scale_factor, capacity, rounds_received) -> np.ndarray:
    """One round of Gavel's mechanism.

    Parameters
    ----------
    allocation : array_like, shape (J, R)
        Time fractions from a policy (rows sum to at most 1).
    scale_factor : array_like of int, shape (J,)
    capacity : array_like of int, shape (R,)
        GPUs of each type available this round.
    rounds_received : array_like, shape (J, R)
        Rounds each job has run on each type so far.

    Returns
    -------
    numpy.ndarray of int, shape (J, R)
        ``placement[j, r] = scale_factor[j]`` for the one type job ``j`` runs on this round,
        0 elsewhere; every column's sum is within ``capacity``.

    Notes
    -----
    (job, type) pairs are visited in decreasing priority (ties: larger allocation first,
    then lower job index, then lower type index); a job is placed on the first visited type
    with ``scale_factor[j]`` free GPUs.  Pairs with a zero allocation are never placed: the
    mechanism only realizes the policy's allocation, which is what leaves GPUs idle in the
    motivating example of Sultana et al.
    """
    X = np.asarray(allocation, dtype=float)
    J, R = X.shape
    s = np.asarray(scale_factor)
    cap = np.asarray(capacity)
    n = np.asarray(rounds_received, dtype=float)
    if s.shape != (J,) or cap.shape != (R,) or n.shape != (J, R):
        raise InstanceError(f"shapes allocation {X.shape}, scale_factor {s.shape}, capacity {cap.shape}, "
                            f"rounds_received {n.shape} do not agree; expected (J, R), (J,), (R,), (J, R)")
    if np.any(n < 0):
        raise InstanceError("rounds_received has a negative entry; counts must be >= 0")
    P = priorities(X, n)
    jj, rr = np.nonzero(X > ALLOCATION_EPS)
    order = np.lexsort((rr, jj, -X[jj, rr], -P[jj, rr]))
    free = cap.astype(np.int64).copy()
    placed = np.zeros(J, dtype=bool)
    out = np.zeros((J, R), dtype=np.int64)
    for k in order:
        j, r = jj[k], rr[k]
        if not placed[j] and free[r] >= s[j]:
            out[j, r] = s[j]
            free[r] -= s[j]
            placed[j] = True
    return out


def gavel_round(throughput, scale_factor, capacity, rounds_received, *, policy="max_min_fairness",
                allocation=None, priority_weight=None, remaining_steps=None) -> np.ndarray:
    """Gavel as a dynamic baseline: compute (or reuse) the policy's allocation, place one round.

    Parameters
    ----------
    throughput : array_like, shape (J, R)
        Iterations/s of each active job on ``scale_factor[j]`` GPUs of each type (0: cannot run).
    scale_factor : array_like of int, shape (J,)
    capacity : array_like of int, shape (R,)
        GPUs per type in the cluster.
    rounds_received : array_like, shape (J, R)
        Rounds each job has already run on each type.
    policy : str or callable
        A name of :data:`~hetopt.gavel.policies.POLICIES` or a function with the common
        policy signature.  Default: heterogeneity-aware max-min fairness (Gavel's LAS).
    allocation : array_like, shape (J, R), optional
        A previously computed allocation for the same jobs, to skip the LP (Gavel
        recomputes only when the job set changes).
    priority_weight, remaining_steps : optional
        Passed to the policy.

    Returns
    -------
    numpy.ndarray of int, shape (J, R)
        GPUs of each type given to each job this round (``scale_factor[j]`` in at most one
        column of row ``j``).
    """
    T, s, c, _, _ = check_policy_inputs(throughput, scale_factor, capacity, priority_weight, remaining_steps)
    if allocation is None:
        if isinstance(policy, str):
            if policy not in POLICIES:
                raise InstanceError(f"policy is {policy!r}; expected one of {sorted(POLICIES)}")
            policy = POLICIES[policy]
        allocation = policy(T, s, c, priority_weight, remaining_steps=remaining_steps)
    return schedule_round(allocation, s.astype(np.int64), np.asarray(capacity).astype(np.int64), rounds_received)
