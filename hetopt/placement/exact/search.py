"""Exhaustive search over every worker-level assignment (the paper's exact baseline)."""

from __future__ import annotations

import math
import time

import numpy as np

from ...certify import Status
from ...errors import SizeLimitError
from ...inputs import check_size, takes_instance
from ..evaluate import PlacementSolution, average_jct, make_solution
from ..instance import PlacementInstance

__all__ = ["exhaustive", "EXHAUSTIVE_LIMIT"]

#: Largest number of worker-level assignments (S**K) ``exhaustive`` enumerates by default.
EXHAUSTIVE_LIMIT = 5_000_000


@takes_instance(PlacementInstance)
def exhaustive(inst: PlacementInstance, *, max_size: int = EXHAUSTIVE_LIMIT, chunk: int = 200_000) -> PlacementSolution:
    """Exhaustive search over every worker-level assignment (the paper's baseline, Table IV).

    Enumerates all S**K maps of workers to jobs, keeps those giving every job a worker (8b), and
    evaluates eq. (14) with proportional workloads, vectorized over chunks.  Independent of the
    models and of worker grouping.

    Parameters
    ----------
    inst : PlacementInstance
    max_size : int
        Size guard, in worker-level assignments (S**K); default :data:`EXHAUSTIVE_LIMIT`.
    chunk : int
        Assignments evaluated at once.

    Raises
    ------
    SizeLimitError
        When S**K exceeds ``max_size``.
    """
    max_size = check_size(max_size, "max_size")
    chunk = check_size(chunk, "chunk")
    S, K = inst.n_jobs, inst.n_workers
    total = S**K
    if total > max_size:
        raise SizeLimitError(f"exhaustive search needs S**K = {S}**{K} = {total:.3g} assignments, above max_size="
                             f"{max_size:.3g}; pass max_size={total} to enumerate them anyway, or use solve_exact for "
                             "a certified optimum")
    t0 = time.perf_counter()
    rho, Pi, T = inst.throughput, inst.dataset_size, inst.epochs
    coef = inst.comm_coefficient
    nodes = inst.nodes
    best_val, best_a = math.inf, None
    powers = S ** np.arange(K - 1, -1, -1)
    for start in range(0, total, chunk):
        codes = np.arange(start, min(total, start + chunk))
        A = (codes[:, None] // powers[None, :]) % S  # n x K job of each worker
        onehot = A[:, :, None] == np.arange(S)[None, None, :]  # n x K x S
        Ki = onehot.sum(axis=1)  # n x S
        ok = (Ki > 0).all(axis=1)
        if not ok.any():
            continue
        A, onehot, Ki = A[ok], onehot[ok], Ki[ok]
        V = np.einsum("nks,sk->ns", onehot, rho)
        comp = Pi[None, :] / V
        if inst.has_communication:
            big = np.iinfo(np.int64).max
            lo = np.where(onehot, nodes[None, :, None], big).min(axis=1)
            hi = np.where(onehot, nodes[None, :, None], -1).max(axis=1)
            inv = inst.inverse_rate(hi > lo)
            comm = coef[None, :] * (Ki - 1) / Ki * inv
        else:
            comm = 0.0
        avg = (T[None, :] * (comp + comm)).mean(axis=1)
        j = int(np.argmin(avg))
        if avg[j] < best_val:
            best_val, best_a = float(avg[j]), A[j].copy()
    a = np.asarray(best_a)
    value = average_jct(inst, a)  # the independent evaluator's value of the best assignment: objective = bound
    return make_solution(inst, a, status=Status.OPTIMAL, solver="exhaustive", wall_time=time.perf_counter() - t0,
                         bound=value, message=f"{total} assignments enumerated")
