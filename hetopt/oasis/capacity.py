"""Per-server capacity counts shared by the oracle, the models and the pricing DP.

How many workers (parameter servers) of one job fit on each server, from the residual
capacities (30)-(31) of Alg. 2; the models take the same counts on an empty cluster as upper
bounds of y and z.  Kept apart from the modules that use it so that the oracle, which solves
problem (27) with the Pyomo model of :mod:`~hetopt.oasis.model`, and the model do not import
each other.

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Section IV-C, (30)-(31).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .instance import EPS_WORK, OasisInstance

__all__ = ["slot_capacity", "var_bounds", "per_slot_workers", "work_slots", "Standalone", "standalone", "ps_ratio", "WORK_SLACK"]

#: Worker-slots by which the work W_i of (2) is rounded down before rounding up to whole worker-slots.
WORK_SLACK = 1e-6


def slot_capacity(residual: np.ndarray, demand: np.ndarray) -> np.ndarray:
    """min_r floor((c^r - used^r) / demand^r) per server ((30), (31)).

    Parameters
    ----------
    residual : numpy.ndarray, shape (servers, R)
        Capacity left on each server.
    demand : numpy.ndarray, shape (R,)
        What one worker (parameter server) takes; resources with zero demand do not limit.

    Returns
    -------
    numpy.ndarray of int64, shape (servers,)
        Units that fit on each server (0 when none does).
    """
    pos = demand > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        n = np.floor(residual[:, pos] / demand[pos] * (1 + EPS_WORK) + EPS_WORK)
    return np.maximum(n.min(axis=1), 0).astype(np.int64)


def var_bounds(inst: OasisInstance) -> tuple[np.ndarray, np.ndarray]:
    """Per (job, server) upper bounds on y and z implied by (3), (4), (5), (7).

    Returns
    -------
    (ymax, zmax) : numpy.ndarray of int64, shapes (I, H) and (I, K)
        ``min(N_i, units of job i that fit on an empty server)``.
    """
    I, H, K = inst.n_jobs, inst.n_worker_servers, inst.n_ps_servers
    ymax = np.zeros((I, H), dtype=np.int64)
    zmax = np.zeros((I, K), dtype=np.int64)
    for i in range(I):
        ymax[i] = np.minimum(slot_capacity(inst.worker_capacity, inst.worker_demand[i]), inst.chunks[i])
        zmax[i] = np.minimum(slot_capacity(inst.ps_capacity, inst.ps_demand[i]), inst.chunks[i])
    return ymax, zmax


def per_slot_workers(inst: OasisInstance) -> np.ndarray:
    """M_i: the most workers job i can run in one slot of an empty cluster ((3), (4), (6), (5) via the PS it needs)."""
    ymax, zmax = var_bounds(inst)
    ratio = inst.ps_bandwidth / inst.worker_bandwidth
    ps_cap = np.floor(ratio * zmax.sum(axis=1) * (1 + 1e-12) + 1e-9)
    return np.minimum.reduce([inst.chunks.astype(float), ymax.sum(axis=1).astype(float), ps_cap]).astype(np.int64)


def work_slots(inst: OasisInstance) -> np.ndarray:
    """ceil(W_i - WORK_SLACK) >= 0: the whole worker-slots (2) asks for (worker-slots are integers)."""
    return np.maximum(np.ceil(inst.workload.astype(float) - WORK_SLACK), 0).astype(np.int64)


@dataclass(frozen=True)
class Standalone:
    """Each job alone on the empty cluster (no other job can make it finish earlier).

    Attributes
    ----------
    per_slot : numpy.ndarray of int64, shape (I,)
        M_i, the most workers per slot (:func:`per_slot_workers`).
    work : numpy.ndarray of int64, shape (I,)
        The whole worker-slots of (2) (:func:`work_slots`).
    earliest : numpy.ndarray of int64, shape (I,)
        The earliest completion offset ``max(ceil(work / M_i), 1) - 1``; -1 when the job cannot
        complete by T at all.
    best : numpy.ndarray of float, shape (I,)
        f_i(earliest), the most job i can earn in any solution (f_i is non-increasing); 0 when
        it cannot complete.
    """

    per_slot: np.ndarray
    work: np.ndarray
    earliest: np.ndarray
    best: np.ndarray

    @property
    def bound(self) -> float:
        """sum_i f_i(earliest_i): an upper bound on the offline optimum (the Lagrangian at zero prices)."""
        return float(np.sum(self.best))

    @property
    def admissible(self) -> np.ndarray:
        """The jobs that can complete by T on the empty cluster."""
        return np.nonzero(self.earliest >= 0)[0]


def standalone(inst: OasisInstance) -> Standalone:
    """:class:`Standalone` of every job: O(I (H + K) R) work, no solver."""
    M = per_slot_workers(inst)
    W = work_slots(inst)
    I, T = inst.n_jobs, inst.horizon
    earliest = np.full(I, -1, dtype=np.int64)
    best = np.zeros(I)
    for i in range(I):
        if M[i] < 1:
            continue
        d = max(math.ceil(int(W[i]) / int(M[i])), 1) - 1
        if d <= T - int(inst.arrival[i]):
            earliest[i] = d
            best[i] = float(inst.utility[i](d))
    return Standalone(per_slot=M, work=W, earliest=earliest, best=best)


def ps_ratio(inst: OasisInstance) -> np.ndarray:
    """rho_i = max(b_i / B_i, 1 / N_i): (6) as ``rho_i sum_h y <= sum_k z``, exact over integers.

    (6) reads ``b_i sum_h y <= B_i sum_k z``; divided by B_i its coefficients are 1 and b_i / B_i,
    which may be far below a solver's tolerances (b_i = 1e-9 B_i).  Over integers with
    ``0 <= sum_h y <= N_i`` ((3)) the two forms have the same solutions: when
    ``b_i / B_i < 1 / N_i``, ``n b_i / B_i`` and ``n / N_i`` both lie in (0, 1] for
    n = 1..N_i workers, so each asks for one parameter server exactly when n >= 1.  The
    coefficients are then in [1 / N_i, 1].
    """
    return np.maximum(inst.worker_bandwidth / inst.ps_bandwidth, 1.0 / inst.chunks.astype(float))
