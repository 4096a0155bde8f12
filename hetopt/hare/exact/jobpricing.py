"""The slot grid of the job-level bound and its pricing problem: one job against slot prices, solved by a DP.

:func:`price_job` is exact for the pricing problem of :mod:`hetopt.hare.exact.jobcolgen` (tested
against enumeration); the DP over the rounds is derived in the card (models/hare2022.md, job-level
column-generation bound).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import ArgumentError
from ..bounds import time_bounds
from ..instance import HareInstance
from .scaling import data_units, grid_step, scaling, units

__all__ = ["price_job", "FINE"]
#: Sub-slots of the completion axis of the last round.
FINE = 4
_INF = np.inf


@dataclass
class _Grid:
    step: int           # units per slot
    delta: float        # time units per slot
    p: np.ndarray       # (N, M) compute slots, rounded down
    P: np.ndarray       # (N, M) compute + sync slots, rounded down
    PQ: np.ndarray      # (N, M) floor(Q (T^c + T^s) / delta)
    cu: np.ndarray      # (N, M) ceil(T^c / delta)
    lo: list            # per job: start-window lower slot per round
    hi: list            # per job: upper slot per round
    H: int              # horizon slot: later starts are clamped to it
    n_slots: int        # capacity rows per GPU (slots 0..H-1)
    n_energy: int       # energy rows per GPU (T = 0..H)


def _grid(inst: HareInstance, ub: float, makespan: float, resolution: float, max_slots: int,
          step: int | None) -> _Grid:
    sc = scaling(inst)
    S = sc.time
    du = data_units(inst, sc.time_exponent)
    tc_u, d_u = du.compute, du.round
    tb = time_bounds(inst, ub)
    if step is None:
        step = grid_step(float(np.median(tc_u)), resolution, makespan * S, int(max_slots))
    step = int(step)
    if step < 1:
        raise ArgumentError(f"step is {step}; expected a positive number of units")
    lo, hi = [], []
    job, rnd = inst.task_job, inst.task_round
    for n in range(inst.n_jobs):
        ln, hn = [], []
        for r in range(int(inst.rounds[n])):
            sel = (job == n) & (rnd == r)
            a = int(units(np.array([tb.x_lower[sel].min()]), S)[0] // step)
            b = int(units(np.array([tb.x_upper[sel].max()]), S, upper=True)[0] // step)
            ln.append(a)
            hn.append(max(a, b))
        lo.append(ln)
        hi.append(hn)
    H = int(units(np.array([makespan]), S, upper=True)[0] // step)
    lo = [[min(v, H) for v in ln] for ln in lo]
    hi = [[min(v, H) for v in hn] for hn in hi]
    p, P = tc_u // step, d_u // step
    delta = step / S
    # floor(Q (T^c + T^s) / delta) computed in units: floor(Q d_u / step) <= Q D / delta
    PQ = (FINE * d_u) // step
    cu = -(-du.compute_up // step)  # ceil(S T^c / step), never below the true quotient
    return _Grid(step=step, delta=delta, p=p, P=P, PQ=PQ, cu=cu, lo=lo, hi=hi, H=H, n_slots=H, n_energy=H + 1)


def _best_k(c: np.ndarray, p: int, K: int, rows: np.ndarray) -> list[np.ndarray]:
    """``M_k[b, j]`` (k = 1..K): least sum of ``k`` starts in ``[rows[b], j]``, consecutive ones ``>= p`` apart.

    ``c``: costs of the window's starts (length W; inf = not allowed).  Returns a list of
    ``(len(rows), W)`` arrays (inf where ``j < rows[b]``).
    """
    W = c.size
    tri = np.arange(W)[None, :] >= rows[:, None]
    out = [np.minimum.accumulate(np.where(tri, c[None, :], _INF), axis=1)]
    q = max(p, 0)  # p = 0: two tasks shorter than a slot may start in one slot
    for _ in range(1, K):
        sh = np.full((rows.size, W), _INF)
        if q < W:
            sh[:, q:] = out[-1][:, :W - q]
        out.append(np.minimum.accumulate(np.where(tri, c[None, :] + sh, _INF), axis=1))
    return out


def _round_table(costs: np.ndarray, lo: int, hi: int, rows: np.ndarray, jmax: np.ndarray, p: np.ndarray,
                 K: int) -> np.ndarray:
    """``g[b, x]``: least price of ``K`` tasks, disjoint per GPU, starting in ``[lo + rows[b], hi]``.

    A task on ``m`` ends by ``x`` (``start <= lo + jmax[m, x]``).

    ``costs``: (M, n_slots) start costs; ``rows``: ready slots (relative to lo) to tabulate;
    ``jmax``: (M, X) last start index (relative to lo) per GPU and end value (negative: none).
    """
    M = costs.shape[0]
    W = hi - lo + 1
    X = jmax.shape[1]
    G = [np.zeros((rows.size, X))] + [np.full((rows.size, X), _INF) for _ in range(K)]
    for m in range(M):
        mk = _best_k(costs[m, lo:hi + 1], int(p[m]), K, rows)
        j = np.clip(jmax[m], 0, W - 1)
        ok = jmax[m][None, :] >= rows[:, None]
        q = [np.where(ok, mk[k][:, j], _INF) for k in range(K)]  # k + 1 tasks on m
        for k in range(K, 0, -1):  # in place, largest k first (0/1 knapsack over the GPUs)
            for used in range(1, k + 1):
                np.minimum(G[k], G[k - used] + q[used - 1], out=G[k])
    return G[K]


def price_job(inst: HareInstance, grid: _Grid, n: int, costs: np.ndarray, *, profile: bool = False):
    """Least ``w_n C + sum of start costs`` over the schedules of job ``n`` on the grid.

    Parameters
    ----------
    costs : numpy.ndarray, shape (M, H + 1)
        Price of starting a task of job ``n`` on GPU ``m`` at slot ``s``.

    profile : bool
        Return ``(xs, F)`` instead: the fine completion axis of the last round and, per value
        ``x``, the least price of the schedules with every last-round end ``<= x`` plus
        ``w_n delta x / Q``.

    Returns
    -------
    (value, tasks, C)
        The optimum, the placement ``[(round, gpu, slot), ...]`` attaining it and its completion
        bound ``delta c / Q``.
    """
    R, K = int(inst.rounds[n]), int(inst.tasks_per_round[n])
    lo, hi = grid.lo[n], grid.hi[n]
    P, PQ, p = grid.P[n], grid.PQ[n], grid.p[n]
    w, delta = float(inst.weight[n]), grid.delta
    F = np.full(hi[0] - lo[0] + 1, _INF)
    F[0] = 0.0  # ready at the release slot
    F = np.minimum.accumulate(F)
    choice = []
    for r in range(R):
        last = r == R - 1
        if not last:
            xs = np.arange(lo[r + 1], hi[r + 1] + 1)          # ready slot of the next round
            jmax = xs[None, :] - P[:, None] - lo[r]
            if hi[r + 1] == grid.H:  # the next round clamped at H: any start of this round
                jmax[:, -1] = hi[r] - lo[r]
        else:
            c0 = FINE * lo[r] + int(PQ.min())
            xs = np.arange(c0, FINE * hi[r] + int(PQ.max()) + 1)  # fine completion
            jmax = (xs[None, :] - PQ[:, None]) // FINE - lo[r]
        jmax = np.minimum(jmax, hi[r] - lo[r])
        # F is non-increasing and g non-decreasing in the ready slot: only the slots where F
        # drops can attain min_e F(e) + g(e, x)
        fin = np.isfinite(F)
        drop = np.flatnonzero(fin & np.concatenate([[True], F[1:] < F[:-1]]))
        if drop.size == 0:
            return (np.zeros(0), np.zeros(0)) if profile else (_INF, [], _INF)
        g = _round_table(costs, lo[r], hi[r], drop, jmax, p, K)
        tot = F[drop][:, None] + g
        b_best = np.argmin(tot, axis=0)
        Fn = tot[b_best, np.arange(xs.size)]
        e_best = drop[b_best]
        if last:
            Fn = Fn + w * delta * xs / FINE
        choice.append((xs, e_best, jmax))
        F = Fn
    if profile:
        return choice[-1][0], F
    x_idx = int(np.argmin(F))
    value = float(F[x_idx])
    if not np.isfinite(value):
        return _INF, [], _INF
    C = delta * float(choice[-1][0][x_idx]) / FINE
    tasks = []
    for r in range(R - 1, -1, -1):
        xs, e_best, jmax = choice[r]
        e = int(e_best[x_idx])
        tasks += [(r, m, s) for m, s in _place(costs, lo[r], hi[r], e, jmax[:, x_idx], p, K)]
        x_idx = e  # ready slot lo[r] + e: index e of the previous round's axis, which starts at lo[r]
    return value, sorted(tasks), C


def _place(costs, lo, hi, e, jmax, p, K) -> list[tuple[int, int]]:
    """The starts attaining ``g[e, x]`` for one round (reconstruction, 1-D)."""
    M = costs.shape[0]
    # per GPU: best k disjoint starts in [lo + e, lo + jmax[m]] with their positions
    best: list[list[tuple[float, list[int]]]] = []
    for m in range(M):
        opts: list[tuple[float, list[int]]] = [(0.0, [])]
        a, b = lo + e, lo + int(jmax[m])
        for k in range(1, K + 1):
            opts.append(_best_disjoint(costs[m], a, min(b, hi), int(p[m]), k) if b >= a else (_INF, []))
        best.append(opts)
    # knapsack over GPUs
    table: dict[int, tuple[float, list[tuple[int, int]]]] = {0: (0.0, [])}
    for m in range(M):
        new: dict[int, tuple[float, list[tuple[int, int]]]] = {}
        for k0, (v0, pl0) in table.items():
            for k in range(0, K - k0 + 1):
                v = v0 + best[m][k][0]
                if v < new.get(k0 + k, (_INF,))[0]:
                    new[k0 + k] = (v, pl0 + [(m, s) for s in best[m][k][1]])
        table = new
    return table[K][1]


def _running_argmin(x: np.ndarray) -> np.ndarray:
    """Position of a least element of ``x[:j + 1]`` for every ``j``."""
    run = np.minimum.accumulate(x)
    return np.maximum.accumulate(np.where(x == run, np.arange(x.size), -1))


def _best_disjoint(c: np.ndarray, a: int, b: int, p: int, k: int) -> tuple[float, list[int]]:
    """Least sum of ``k`` starts in ``[a, b]`` pairwise at least ``p`` apart, and the starts."""
    q = max(p, 0)
    seg = c[a:b + 1]
    W = seg.size
    if W == 0:
        return _INF, []
    vals, arg = [np.minimum.accumulate(seg)], [_running_argmin(seg)]
    for _ in range(1, k):
        cand = np.full(W, _INF)
        if q < W:
            cand[q:] = seg[q:] + vals[-1][:W - q]
        vals.append(np.minimum.accumulate(cand))
        arg.append(_running_argmin(cand))
    if not np.isfinite(vals[-1][-1]):
        return _INF, []
    starts, j = [], W - 1
    for level in range(k - 1, -1, -1):
        s = int(arg[level][j])
        starts.append(a + s)
        j = s - q
    return float(vals[-1][-1]), starts


def _start_costs(inst: HareInstance, grid: _Grid, n: int, pi: np.ndarray, nu: np.ndarray) -> np.ndarray:
    """(M, H + 1) price of starting a task of job ``n`` on ``m`` at ``s``."""
    M, L = inst.n_gpus, grid.H + 1
    csum = np.concatenate([np.zeros((M, 1)), np.cumsum(pi, axis=1)], axis=1)
    s = np.arange(L)
    out = np.empty((M, L))
    for m in range(M):
        end = np.minimum(s + int(grid.p[n, m]), grid.H)
        out[m] = csum[m, end] - csum[m, s]
        if grid.n_energy:
            k = s + 1 + int(grid.cu[n, m])
            en = np.where(k < grid.n_energy, nu[m, np.minimum(k, grid.n_energy - 1)], 0.0)
            out[m] += float(inst.compute_time[n, m]) * en
    return out
