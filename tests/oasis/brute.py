"""Brute force of the offline problem (1)-(13) on tiny instances: every schedule combination.

Independent of the models, the oracle, the pricing DP and the checker: one worker server and one
PS server (H = K = 1); every job's schedule is its worker count ``w_t`` in each slot
``t = a_i..T`` (``0 <= w_t <= N_i``, (3), (9)), with the fewest parameter servers (6) allows,
``z_t = ceil(w_t b_i / B_i)`` (at least 1 when ``w_t >= 1``).  Fewer PS is infeasible and more PS
only takes more of the PS server's capacity, (5), and changes nothing else ((7) holds since
``b_i <= B_i``), so the optimum has one of these schedules.  A schedule completes in the last slot
with a worker, (8), and must hold the work, (2); every combination of one schedule (or none) per
job is checked against the capacities (4)-(5).

Tolerances are relative (1e-9 of the larger side), so the enumeration means the same at every
magnitude (capacities of 1e-9 next to 1, bandwidths of 1e-9 next to 1e6).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

#: Relative slack on every capacity and on (6) (1e-9 of the larger side by default).
REL = 1e-9


def _ps_needed(w: int, b: float, B: float, rel: float) -> int:
    if w == 0:
        return 0
    need = w * b / B
    z = max(1, math.ceil(need))
    if z - 1 >= 1 and (z - 1) * B >= w * b * (1 - rel):  # rounding (or the slack) puts ceil one too high
        z -= 1
    return z


def job_schedules(inst, i: int, rel: float = REL) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Every feasible schedule of job ``i`` alone: (worker use (T, R), PS use (T, R), utility)."""
    T, R = inst.horizon, inst.n_resources
    a, N = int(inst.arrival[i]), int(inst.chunks[i])
    b, B = float(inst.worker_bandwidth[i]), float(inst.ps_bandwidth[i])
    w_dem, s_dem = inst.worker_demand[i], inst.ps_demand[i]
    wcap, pcap = inst.worker_capacity[0], inst.ps_capacity[0]
    work = float(inst.workload[i])
    per_slot = []
    for w in range(N + 1):
        z = _ps_needed(w, b, B, rel)
        if z > w or np.any(w * w_dem > wcap * (1 + rel)) or np.any(z * s_dem > pcap * (1 + rel)):
            continue
        per_slot.append((w, z))
    out = []
    for combo in itertools.product(per_slot, repeat=T - a + 1):
        ws = [c[0] for c in combo]
        if sum(ws) == 0 or sum(ws) < work - 1e-6 - 1e-9 * work:
            continue
        last = max(k for k, w in enumerate(ws) if w > 0)
        gw = np.zeros((T, R))
        gp = np.zeros((T, R))
        for k, (w, z) in enumerate(combo):
            gw[a - 1 + k] = w * w_dem
            gp[a - 1 + k] = z * s_dem
        out.append((gw, gp, float(inst.utility_of(i, a + last))))
    return out


def brute_force(inst, rel: float = REL) -> float:
    """The optimum of (1)-(13) by enumerating every combination of one schedule (or none) per job.

    ``rel`` is the relative slack on the capacities and on (6).  An instance whose optimum moves
    between ``rel = 1e-9`` and the solvers' and checker's 1e-6 (a demand of ~1e-6 of a capacity on top
    of a full server) has no optimum to the solvers' precision (:func:`well_posed`).
    """
    if inst.n_worker_servers != 1 or inst.n_ps_servers != 1:
        raise ValueError("brute_force enumerates one worker server and one PS server")
    wcap, pcap = inst.worker_capacity[0], inst.ps_capacity[0]
    T, R = inst.horizon, inst.n_resources
    per_job = [job_schedules(inst, i, rel) for i in range(inst.n_jobs)]
    # the last job's schedules as arrays, checked against each combination of the others at once
    last = per_job[-1]
    LW = np.array([s[0] for s in last]).reshape(-1, T, R)
    LP = np.array([s[1] for s in last]).reshape(-1, T, R)
    LU = np.array([s[2] for s in last], dtype=float)
    best = 0.0
    for choice in itertools.product(*[[None, *opts] for opts in per_job[:-1]]):
        gw = np.zeros((T, R))
        gp = np.zeros((T, R))
        util = 0.0
        for plan in choice:
            if plan is not None:
                gw += plan[0]
                gp += plan[1]
                util += plan[2]
        if np.any(gw > wcap * (1 + rel)) or np.any(gp > pcap * (1 + rel)):
            continue
        best = max(best, util)
        if LU.size:
            ok = np.all(gw + LW <= wcap * (1 + rel), axis=(1, 2)) & np.all(gp + LP <= pcap * (1 + rel), axis=(1, 2))
            if ok.any():
                best = max(best, util + float(LU[ok].max()))
    return best


def well_posed(inst) -> bool:
    """True when the optimum is the same with the slack 1e-9 and 2e-6 (the solvers' feasibility tolerance is 1e-6)."""
    return brute_force(inst, 1e-9) == brute_force(inst, 2e-6)
