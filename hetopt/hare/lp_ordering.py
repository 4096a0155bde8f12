"""A scalable ordering for Algorithm 1: a round-level LP with parallel-machine Queyranne cuts.

For instances too large for the exact relaxation, Algorithm 1 needs ``x-hat`` from
something cheaper.  This LP works on job rounds instead of tasks.  For round ``(n, r)``
let ``sigma_{n,r}`` be the *mean* start time of its ``K_n = |D_r|`` tasks and
``p_n = min_m T^c_{n,m}``, ``d_n = min_m (T^c_{n,m} + T^s_{n,m})``.  Every feasible
schedule satisfies

* ``sigma_{n,0} >= a_n`` (4); ``sigma_{n,r+1} >= sigma_{n,r} + d_n`` (7, every task of
  round r+1 starts after every task of round r ends, so after their mean start plus
  ``d_n``); ``C_n >= sigma_{n,|R_n|-1} + d_n`` (6);
* for every set ``S`` of rounds, with ``q_{n} = K_n p_n``,
  ``sum_{(n,r) in S} q_n (sigma_{n,r} + p_n) >= (sum_S q_n)^2 / (2|M|) + sum_S K_n p_n^2 / 2``:
  shrinking every task to its fastest time ``p_n`` keeps a feasible single-GPU
  sequence on each GPU, where Queyranne's inequality holds; summing over GPUs and
  Cauchy-Schwarz give the ``1/(2|M|)`` term (the parallel-machine form of Schulz, 1996).

So the LP's optimum is a **true lower bound** on Hare_Sched.  Cuts are added by prefix
separation (sort rounds by ``sigma + p``), a few per iteration, until none is violated or
``max_rounds`` is reached; every intermediate LP is also a valid lower bound.

References
----------
.. [1] A. S. Schulz, "Scheduling to minimize total weighted completion time: performance
   guarantees of LP-based heuristics and lower bounds", IPCO 1996.
.. [2] M. Queyranne, "Structure of a simple scheduling polyhedron", Math. Programming 58 (1993).
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..certify import Status, certify, relative_gap
from ..errors import SolverError
from ..inputs import check_size, takes_instance
from ..result import Solution
from ..solvers import new_highs
from .instance import HareInstance
from .relaxation import middle_completion

__all__ = ["LPOrdering", "lp_ordering"]

#: Relative violation above which a prefix cut is added.
CUT_TOL = 1e-6


@dataclass(frozen=True, kw_only=True)
class LPOrdering(Solution):
    """Result of :func:`lp_ordering`: per-task ``x-hat`` and ``H``, and a proven lower bound."""

    x_hat: np.ndarray
    H: np.ndarray
    cuts: int = 0
    iterations: int = 0


@takes_instance(HareInstance)
def lp_ordering(inst: HareInstance, *, max_rounds: int = 6, cuts_per_round: int = 10) -> LPOrdering:
    """Solve the round-level LP and return task start estimates for Algorithm 1.

    Parameters
    ----------
    inst : HareInstance
    max_rounds : int
        Maximum number of separation iterations.
    cuts_per_round : int
        Most-violated prefixes added per iteration.

    Returns
    -------
    LPOrdering
        ``x_hat[i] = sigma_{n,r}`` for every task of round ``(n, r)``; ``bound`` is the
        last LP optimum, a valid lower bound on Hare_Sched (``None`` if HiGHS did not
        prove optimality).
    """
    check_size(max_rounds, "max_rounds")
    check_size(cuts_per_round, "cuts_per_round")
    t0 = time.perf_counter()
    n_rounds = inst.rounds.astype(int)
    first = np.concatenate([[0], np.cumsum(n_rounds)])
    nr = int(first[-1])
    rjob = np.repeat(np.arange(inst.n_jobs), n_rounds)
    # the LP is solved in a time unit u, a power of two (exact both ways), that brings data below one second up
    # to [1, 2): HiGHS's feasibility tolerance is absolute (1e-7), and the cuts' sides are times squared
    u = _time_unit(inst)
    p = inst.compute_time.min(axis=1) / u
    d = inst.min_round_time / u
    arrival = inst.arrival / u
    q = inst.tasks_per_round * p
    qr, pr = q[rjob], p[rjob]
    sq = (inst.tasks_per_round * p * p)[rjob]
    nv = nr + inst.n_jobs  # variables: sigma (rounds), C (jobs)
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    rhs: list[float] = []

    def _row(idx: list[int], coef: list[float], b: float) -> None:
        k = len(rhs)
        rows.extend([k] * len(idx))
        cols.extend(idx)
        vals.extend(coef)
        rhs.append(b)

    for n in range(inst.n_jobs):
        s0 = int(first[n])
        _row([s0], [1.0], float(arrival[n]))
        for r in range(n_rounds[n] - 1):
            _row([s0 + r + 1, s0 + r], [1.0, -1.0], float(d[n]))
        _row([nr + n, s0 + n_rounds[n] - 1], [1.0, -1.0], float(d[n]))
    base = sp.csr_matrix((vals, (rows, cols)), shape=(len(rhs), nv))
    base_b = np.array(rhs)
    cut_rows: list[np.ndarray] = []
    cut_b: list[float] = []
    cost = np.concatenate([np.zeros(nr), inst.weight])
    it = 0
    while True:  # at most max_rounds LP solves
        it += 1
        G = sp.vstack([base, sp.csr_matrix(np.vstack(cut_rows))]) if cut_rows else base
        res, v = _solve_lp(cost, G, np.concatenate([base_b, cut_b]))
        sigma = v[:nr]
        order = np.argsort(sigma + pr, kind="stable")
        lhs = np.cumsum(qr[order] * (sigma[order] + pr[order]))
        rhs_p = np.cumsum(qr[order]) ** 2 / (2.0 * inst.n_gpus) + 0.5 * np.cumsum(sq[order])
        viol = np.divide(rhs_p - lhs, rhs_p, out=np.zeros_like(rhs_p), where=rhs_p > 0)  # relative to the cut's own size
        cand = np.flatnonzero(viol > CUT_TOL)
        if cand.size == 0:
            break
        for k in cand[np.argsort(-viol[cand])][:cuts_per_round]:
            row = np.zeros(nv)
            members = order[: k + 1]
            row[members] = qr[members]
            cut_rows.append(row)
            cut_b.append(float(rhs_p[k] - np.sum(qr[members] * pr[members])))
        if it == max_rounds:
            break
    x_hat = sigma[first[inst.task_job] + inst.task_round] * u
    bound = res.bound * u if res.status is Status.OPTIMAL and res.bound is not None else None
    objective = None if res.objective is None else res.objective * u
    return LPOrdering(status=res.status, objective=objective, bound=bound, gap=res.gap,
                      wall_time=time.perf_counter() - t0, solver="highs",
                      message=f"{len(cut_rows)} cuts in {it} LP solves", x_hat=x_hat,
                      H=middle_completion(inst, x_hat), cuts=len(cut_rows), iterations=it)


def _time_unit(inst: HareInstance) -> float:
    """The time unit of :func:`lp_ordering`'s LP: 1, or ``2**floor(log2 s)`` when ``s`` is below 1 second.

    ``s`` is the instance's largest time: an arrival, a job's rounds at their least duration, a task.
    """
    s = max(float(inst.arrival.max(initial=0.0)), float((inst.min_round_time * inst.rounds).max(initial=0.0)),
            float(inst.compute_time.max(initial=0.0)))
    return 1.0 if not 0.0 < s < 1.0 else float(2.0 ** np.floor(np.log2(s)))


#: LPs whose optimal point :func:`_solve_lp` keeps (by the SHA-256 of their arrays), least recently used out.
LP_MEMO_SIZE = 512
_LP_MEMO: OrderedDict[bytes, tuple[Solution, np.ndarray]] = OrderedDict()


def _solve_lp(cost: np.ndarray, G: sp.spmatrix, h: np.ndarray) -> tuple[Solution, np.ndarray]:
    """Min cost @ v subject to G v >= h, v free, and the optimal v.

    HiGHS gets the LP CVXPY's conic interface would give it (A = -G by columns, -inf <= A v <= -h, no
    column bounds, its default options), so every solve is the former CVXPY route's to the bit
    (``tests/hare/test_lp_ordering_direct.py``) without the two thirds of the time CVXPY spent building it.
    An LP solved before (the same arrays, by their SHA-256) returns HiGHS's answer again: HiGHS is
    deterministic, and Algorithm 1 and the baselines ask for the same instance's ordering.
    """
    import highspy as hp

    A = sp.csc_matrix(-G)
    A.sort_indices()
    rhs = -np.asarray(h, dtype=float)
    digest = hashlib.sha256()
    for part in (np.asarray(A.shape), A.indptr, A.indices, A.data, rhs, np.asarray(cost, dtype=float)):
        digest.update(np.int64(part.nbytes).tobytes() + part.tobytes())
    key = digest.digest()
    if key in _LP_MEMO:  # the same LP (Algorithm 1 and the baselines order the same instance): HiGHS's own answer
        _LP_MEMO.move_to_end(key)
        kept, v_kept = _LP_MEMO[key]
        return kept, v_kept.copy()
    n_row, n_col = A.shape
    model = hp.HighsModel()
    lp = model.lp_
    lp.num_col_, lp.num_row_, lp.offset_ = n_col, n_row, 0
    lp.col_cost_ = cost
    lp.row_lower_ = np.full(n_row, -np.inf)
    lp.row_upper_ = rhs
    lp.a_matrix_.format_ = hp.MatrixFormat.kColwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = A.indptr, A.indices, A.data
    lp.col_lower_, lp.col_upper_ = np.full(n_col, -np.inf), np.full(n_col, np.inf)
    highs = new_highs()
    highs.passModel(model)
    start = time.perf_counter()
    highs.run()
    wall = time.perf_counter() - start
    status = highs.getModelStatus()
    if status != hp.HighsModelStatus.kOptimal:
        raise SolverError(f"highs: the round-level LP ended {highs.modelStatusToString(status)!r}")
    v = np.asarray(highs.getSolution().col_value, dtype=float)
    objective = float(cost @ v)  # the objective at the point, as CVXPY reports it (HiGHS's own may differ in the last bit)
    res = Solution(status=certify(objective, objective, stopped=False, sense="min"), objective=objective,
                   bound=objective, gap=relative_gap(objective, objective), wall_time=wall, solver="highs", sense="min",
                   message="optimal")
    _LP_MEMO[key] = (res, v.copy())
    if len(_LP_MEMO) > LP_MEMO_SIZE:
        _LP_MEMO.popitem(last=False)
    return res, v
