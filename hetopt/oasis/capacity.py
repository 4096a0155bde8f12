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

import numpy as np

from .instance import EPS_WORK, OasisInstance

__all__ = ["slot_capacity", "var_bounds"]


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
