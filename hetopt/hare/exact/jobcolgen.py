"""A job-level Dantzig-Wolfe lower bound for Hare_Sched (4)-(8): column generation with DP pricing.

The time-indexed LP of :mod:`hetopt.hare.exact.timeindexed` lets the tasks of one round be split
fractionally over GPUs and slots and ends the round at their MEAN completion.  Here the
blocks are whole jobs: a column is a complete schedule of one job on the slot grid (every
task of every round on a GPU and a start slot), its cost ``w_n C_n`` with ``C_n`` the MAXIMUM
over the last round.  The master LP mixes the columns of each job (convexity rows) under the
GPU-slot capacity rows and the energy rows of the time-indexed LP; the pricing problem, one
job against slot prices, is solved EXACTLY by a dynamic program over the rounds
(:func:`price_job`), so the Lagrangian value of every round of column generation is a valid
lower bound, and the bound at convergence is the master LP's.

Grid and validity (the same rounding as :mod:`hetopt.hare.exact.timeindexed`)
------------------------------------------------------------------------
Units ``u(t) = floor(S t)``, grid step ``delta`` units, slots ``f(t) = floor(u(t) / delta)``.
Any feasible schedule, every start rounded DOWN to its slot ``s_i = f(x_i)``, satisfies, with
``p_{n,m} = f(T^c_{n,m})`` and ``P_{n,m} = f(T^c_{n,m} + T^s_{n,m})``:

* starts in the windows of :func:`hetopt.hare.bounds.time_bounds` (valid for every schedule at
  least as good as the best cheap one), rounded to slots;
* next round: ``s_j >= s_i + P_{n,m_i}`` for every task ``i`` of the round before;
* one GPU: the slot sets ``[s_i, s_i + p)`` of its tasks are disjoint (other jobs: capacity
  rows of the master; the same round of one job: inside the pricing DP);
* energy: a task started in slot ``s`` on ``m`` ends before ``delta (s + 1) + T^c``, so the
  tasks with ``s + 1 + ceil(T^c / delta) <= T`` fit in ``[min_n a_n, delta T]``;
* ``C_n >= delta s_i + T^c_{n,m_i} + T^s_{n,m_i}`` (true durations) for the last round: the
  pricing uses ``C_n >= delta c / Q`` with ``c = max_i floor(Q (s_i + (T^c + T^s) / delta))``
  (``Q = FINE`` sub-slots: the rounding costs less than ``delta / Q`` per job).

So every schedule maps to a column per job, together feasible for the master, with cost at
most its objective: the master LP optimum, and every Lagrangian value, bound the optimum.

Where the paper's constraints live: (4) ``x_i >= a_n`` and (5) one GPU per task are in every
column (the DP's windows and per-task GPU choice); (6) ``C_n`` is the column's cost; (7) the
rounds are ordered inside the DP; (8) no overlap on a GPU is the master's capacity rows between
jobs and the DP's disjoint starts within a round (rounds of one job are disjoint by (7)).

Master LP (``highspy``, columns added in place, basis kept)
-----------------------------------------------------------
``min sum w_n C_q lambda_q`` subject to ``sum_{q of n} lambda_q = 1`` per job; per GPU ``m`` and
slot ``t``: ``sum_q a_{q,m,t} lambda_q <= 1``; energy through cumulative variables ``Z_{m,T}``
in ``[0, delta T - min a]``: ``sum_q e_{q,m,T} lambda_q - Z_{m,T} + Z_{m,T-1} <= 0``, where
``e_{q,m,T}`` is the compute time of the tasks of column ``q`` on ``m`` with ``s + 1 + ceil(T^c / delta) = T``.

The LP is solved in normalized units (:func:`hetopt.hare.exact.scaling.normalization`: costs over
``tau omega``, energy rows and ``Z`` over ``tau``), its value and prices given back in the instance's
units, so that HiGHS's absolute tolerances do not depend on the data's magnitude (issue 25; the
Lagrangian bound below is valid for any prices, the units decide only how strong it is).

Lagrangian bound for prices ``pi, nu >= 0`` of the capacity and energy rows:
``L = sum_n v_n(pi, nu) - sum pi - sum_{m,T} max(0, nu_{m,T} - nu_{m,T+1}) (delta T - min a)``
(the ``Z`` box minimized in closed form), ``v_n`` the pricing optimum.  Wentges smoothing:
prices ``alpha`` times the best Lagrangian centre plus ``1 - alpha`` times the master duals;
on mispricing (no improving column) the master duals themselves.

Pricing DP (one job; rounds in order)
-------------------------------------
``F_r(e)``: least price of rounds ``< r`` with every task of them ready (``s + P <= e``) by
slot ``e``.  For a round with ``K`` identical tasks and a ready slot ``e``, ``g(e, e')`` is the
least price of ``K`` starts ``>= e`` in the window, all ready by ``e'``, no two on one GPU
overlapping: per GPU the best ``k`` disjoint starts (``M_k(e, s) = min_{s' <= s} c(s') +
M_{k-1}(e, s' - p)``, row-wise running minima of ``e x s`` matrices), then a knapsack over the
GPUs for ``sum_m k_m = K``; ``F_{r+1}(e') = min_e F_r(e) + g(e, e')``.  The last round uses the
fine completion axis and adds ``w delta c / Q``.  Cost of a start: the capacity prices of its
slots plus ``T^c`` times the energy price of its row.  Exact for the pricing problem (tested
against enumeration).

References
----------
.. [1] J. M. van den Akker, C. A. J. Hurkens, M. W. P. Savelsbergh, "Time-indexed formulations
   for machine scheduling problems: column generation", INFORMS J. Computing 12 (2000).
.. [2] P. Wentges, "Weighted Dantzig-Wolfe decomposition for linear mixed-integer programming",
   Int. Trans. Oper. Res. 4 (1997) (smoothing).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...certify import certify
from ...errors import ArgumentError, SolverError, a_type
from ...inputs import check_flag, check_positive, check_size, check_threads, check_time_limit, check_tol, takes_instance
from ...result import Solution
from ...solvers import new_highs
from ..bounds import time_bounds
from ..instance import HareInstance
from .scaling import data_units, grid_step, normalization, scaling, units
from .start import upper_schedule

__all__ = ["JobColgenBound", "job_colgen_bound", "completion_limits", "price_job", "FINE", "SAFETY", "RESOLUTION", "MAX_SLOTS"]

#: Sub-slots of the completion axis of the last round.
FINE = 4
#: Relative amount subtracted from the bound against floating-point and LP tolerances.
SAFETY = 1e-6
#: Default slots per median compute time.
RESOLUTION = 10
#: The step grows (1-2-5 sequence) until the horizon has at most this many slots.
MAX_SLOTS = 600
#: Smoothing weight of the stability centre.
ALPHA = 0.5
_INF = np.inf


@dataclass(frozen=True, kw_only=True)
class JobColgenBound(Solution):
    """Result of :func:`job_colgen_bound`.

    Attributes
    ----------
    bound : float or None
        Valid lower bound on Hare_Sched (best Lagrangian value, minus ``SAFETY`` relative).
    objective : float or None
        Last master LP value (an upper bound on the LP relaxation's optimum).
    step : float
        Grid step in time units.
    rounds : int
        Column-generation rounds.
    converged : bool
        The master LP value and the bound met (relative ``tol``).
    columns : int
    x_hat : numpy.ndarray, shape (|D|,)
        Mean start (time units) of every task in the master solution: an order for list scheduling.
    history : list of (seconds, master value, bound)
    """

    step: float = 0.0
    rounds: int = 0
    converged: bool = False
    columns: int = 0
    x_hat: np.ndarray = field(default_factory=lambda: np.zeros(0))
    history: list = field(default_factory=list)
    centre: tuple | None = field(default=None, repr=False, compare=False)  # (grid, pi, nu, Lagrangian value)

    def to_dict(self) -> dict[str, Any]:
        """The fields as JSON-ready values, without ``centre`` (the pricing state of the best bound).

        Returns
        -------
        dict
            ``JobColgenBound.from_dict`` of it rebuilds the result with ``centre`` None (so
            :func:`completion_limits` gives no limits for it).
        """
        out = super().to_dict()
        out.pop("centre")
        return out


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


# ----------------------------------------------------------------------------- pricing

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


# ----------------------------------------------------------------------------- master

class _Master:
    """Restricted master LP in one ``highspy`` model.

    Rows: ``N`` convexity rows (= 1), then ``M n_slots`` capacity rows (<= 1), then
    ``M n_energy`` energy rows (<= 0).  Columns: ``M n_energy`` energy variables ``Z`` first,
    then the job columns in the order added.
    """

    def __init__(self, inst: HareInstance, grid: _Grid, threads: int | None) -> None:
        self.inst, self.grid = inst, grid
        N, M = inst.n_jobs, inst.n_gpus
        h = new_highs(threads or 1)
        h.setOptionValue("presolve", "off")
        h.setOptionValue("simplex_strategy", 4)  # primal: a column added to an optimal basis keeps it feasible
        inf = np.inf  # highspy.kHighsInf
        self.r_cap, self.r_en = N, N + M * grid.n_slots
        n_rows = self.r_en + M * grid.n_energy
        lower = np.concatenate([np.ones(N), np.full(n_rows - N, -inf)])
        upper = np.concatenate([np.ones(N), np.ones(M * grid.n_slots), np.zeros(M * grid.n_energy)])
        h.addRows(n_rows, lower, upper, 0, np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
        # Z_{m,T}, T = 0..n_energy-1: -1 in row (m, T), +1 in row (m, T+1); box [0, max(0, delta T - min a)]
        T = np.arange(grid.n_energy)
        self.z_upper = np.maximum(grid.delta * T - float(inst.arrival.min()), 0.0)
        norm = normalization(inst)  # the LP in normalized units: Z = tau Z', energy rows over tau, costs over tau omega
        self.tau, self.unit = norm.time, norm.objective
        self.n_z = M * grid.n_energy
        if self.n_z:
            rows = self.r_en + np.arange(self.n_z)
            last = (np.arange(self.n_z) % grid.n_energy) == grid.n_energy - 1
            starts = np.concatenate([[0], np.cumsum(np.where(last, 1, 2))[:-1]]).astype(np.int32)
            idx = np.concatenate([[r] if z else [r, r + 1] for r, z in zip(rows, last, strict=True)]).astype(np.int32)
            val = np.concatenate([[-1.0] if z else [-1.0, 1.0] for z in last])
            h.addCols(self.n_z, np.zeros(self.n_z), np.zeros(self.n_z), np.tile(self.z_upper / self.tau, M), idx.size,
                      starts, idx, val)
        self.h = h  # a new model minimizes (HiGHS's default sense)
        self.columns: list[tuple[int, list, float]] = []
        self._keys: set = set()

    def add(self, n: int, tasks: list, C: float) -> bool:
        """Add the schedule ``tasks`` = [(round, gpu, slot)] of job ``n``; False if present."""
        key = (n, tuple(tasks))
        if key in self._keys:
            return False
        self._keys.add(key)
        g, inst = self.grid, self.inst
        entries: dict[int, float] = {n: 1.0}
        for _, m, s in tasks:
            for t in range(s, min(s + int(g.p[n, m]), g.H)):
                k = self.r_cap + m * g.n_slots + t
                entries[k] = entries.get(k, 0.0) + 1.0
            if g.n_energy and s + 1 + int(g.cu[n, m]) <= g.H:
                k = self.r_en + m * g.n_energy + s + 1 + int(g.cu[n, m])
                entries[k] = entries.get(k, 0.0) + float(inst.compute_time[n, m]) / self.tau
        idx = np.fromiter(entries, dtype=np.int32)
        val = np.fromiter(entries.values(), dtype=float)
        self.h.addCol(float(inst.weight[n]) * C / self.unit, 0.0, 1.0, idx.size, idx, val)
        self.columns.append((n, tasks, C))
        return True

    def solve(self) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
        """LP value, convexity duals, capacity prices ``pi (M, n_slots)``, energy prices ``nu (M, n_energy)``.

        In the instance's units: the normalized LP's value and convexity and capacity duals times
        ``tau omega``, its energy duals times ``omega`` (those rows were divided by ``tau``).
        """
        self.h.run()
        st = self.h.modelStatusToString(self.h.getModelStatus())
        if st != "Optimal":
            raise SolverError(f"job-level master LP: HiGHS status {st}")
        g, N, M = self.grid, self.inst.n_jobs, self.inst.n_gpus
        dual = np.asarray(self.h.getSolution().row_dual, dtype=float)
        prices = np.maximum(-dual, 0.0)  # <= rows of a minimization: duals <= 0
        pi = prices[self.r_cap:self.r_en].reshape(M, g.n_slots) * self.unit
        nu = prices[self.r_en:].reshape(M, g.n_energy) * (self.unit / self.tau)
        return float(self.h.getInfo().objective_function_value) * self.unit, dual[:N] * self.unit, pi, nu

    def weights(self) -> np.ndarray:
        return np.asarray(self.h.getSolution().col_value, dtype=float)[self.n_z:]


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


def _lagrangian(master: _Master, values: np.ndarray, pi: np.ndarray, nu: np.ndarray) -> float:
    """``sum_n v_n - sum pi - sum max(0, nu_T - nu_{T+1}) Zmax_T`` (module docstring)."""
    nxt = np.concatenate([nu[:, 1:], np.zeros((nu.shape[0], 1))], axis=1)
    return float(values.sum() - pi.sum() - (np.maximum(nu - nxt, 0.0) * master.z_upper[None, :]).sum())


def _schedule_columns(inst: HareInstance, grid: _Grid, start: np.ndarray, gpu: np.ndarray) -> list[tuple[int, list, float]]:
    """The columns of a feasible schedule (starts rounded down to slots)."""
    S = scaling(inst).time
    slot = np.minimum(units(start, S, snap=True) // grid.step, grid.H)
    out = []
    for n in range(inst.n_jobs):
        idx = np.nonzero(inst.task_job == n)[0]
        tasks = sorted((int(inst.task_round[i]), int(gpu[i]), int(slot[i])) for i in idx)
        last = [i for i in idx if inst.task_round[i] == inst.rounds[n] - 1]
        C = grid.delta * max(FINE * int(slot[i]) + int(grid.PQ[n, gpu[i]]) for i in last) / FINE
        out.append((n, tasks, C))
    return out


@takes_instance(HareInstance)
def job_colgen_bound(inst: HareInstance, *, resolution: float = RESOLUTION, max_slots: int = MAX_SLOTS,
                     step: int | None = None, time_limit: float | None = None, threads: int | None = 1,
                     tol: float = 1e-4, max_rounds: int = 10_000, upper: tuple | None = None,
                     energy: bool = True, verbose: bool = False) -> JobColgenBound:
    """The job-level Dantzig-Wolfe bound (module docstring) by column generation.

    Parameters
    ----------
    inst : HareInstance
    resolution : float
        Slots per median compute time.
    max_slots : int
        The step grows (1-2-5 sequence) until the horizon has at most this many slots (the
        pricing DP's time grows with the square of a round's window).
    step : int, optional
        Grid step in integer units (overrides ``resolution``).
    time_limit : float, optional
        Seconds; when reached, the best Lagrangian bound so far is returned (valid, not
        converged).
    threads : int, optional
        HiGHS threads of the master.
    tol : float
        Relative gap between master value and bound at which to stop.
    max_rounds : int
    upper : (start, gpu), optional
        A feasible schedule (windows, horizon, first columns); default the best cheap one.
    energy : bool
        Add the energy rows (default).
    verbose : bool
        Print one line per round.

    Returns
    -------
    JobColgenBound
        ``status`` (:func:`~hetopt.certify.certify`) OPTIMAL when its bound meets the master value
        within ``OPTIMAL_RTOL`` (the LP relaxation solved; the bound is still a bound on
        Hare_Sched, not its optimum); otherwise TIME_LIMIT when ``time_limit`` stopped it, FEASIBLE
        when it converged within ``tol`` only (``converged`` True) or stopped after ``max_rounds``.
    """
    t0 = time.perf_counter()
    time_limit = check_time_limit(time_limit)
    check_positive(resolution, "resolution")
    check_tol(tol, "tol")
    check_size(max_slots, "max_slots")
    check_size(max_rounds, "max_rounds")
    check_threads(threads)
    if step is not None:
        check_size(step, "step")
    check_flag(energy, "energy")
    check_flag(verbose, "verbose")
    start, gpu, ub = upper_schedule(inst, upper)
    makespan = float(np.max(start + inst.task_compute[np.arange(inst.n_tasks), gpu]))
    grid = _grid(inst, ub, makespan, resolution, max_slots, step)
    if not energy:
        grid.n_energy = 0
    master = _Master(inst, grid, threads)
    for n, tasks, C in _schedule_columns(inst, grid, start, gpu):
        master.add(n, tasks, C)
    best_lb, centre = -_INF, None
    history, value, converged, rounds = [], None, False, 0
    stopped = False  # by time_limit (a run that reaches max_rounds ends FEASIBLE)
    while rounds < max_rounds:
        rounds += 1
        value, sigma, pi, nu = master.solve()
        added, best_lb, centre = _generate(inst, grid, master, value, sigma, pi, nu, best_lb, centre)
        history.append((time.perf_counter() - t0, value, best_lb))
        if verbose:
            print(f"round {rounds}: master {value:.6f}, bound {best_lb:.6f}, +{added} columns, {history[-1][0]:.1f} s")
        if added == 0 or value - best_lb <= tol * max(abs(value), 1e-12):
            converged = True
            break
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            stopped = True
            break
    bound = best_lb - SAFETY * abs(best_lb) if np.isfinite(best_lb) else None
    # converged within tol but not within OPTIMAL_RTOL: FEASIBLE, no claim of an LP optimum
    status = certify(value, bound, stopped=stopped, sense="min")
    x_hat = _mean_starts(inst, grid, master)
    return JobColgenBound(status=status, objective=value, bound=bound, gap=None, wall_time=time.perf_counter() - t0,
                          solver="highs (job-level column generation)",
                          message=(f"step {grid.delta:g} time units, {grid.n_slots} slots, {rounds} rounds, "
                                   f"{len(master.columns)} columns; bound = best Lagrangian x (1 - {SAFETY:g})"),
                          step=grid.delta, rounds=rounds, converged=converged, columns=len(master.columns),
                          x_hat=x_hat, history=history,
                          centre=None if centre is None else (grid, centre[0], centre[1], best_lb))


def _generate(inst: HareInstance, grid: _Grid, master: _Master, value: float, sigma: np.ndarray, pi: np.ndarray,
              nu: np.ndarray, best_lb: float, centre: tuple | None) -> tuple[int, float, tuple | None]:
    """One round of pricing: the columns added, the best Lagrangian bound and its prices (the centre)."""
    N = inst.n_jobs
    added, passes = 0, ([False, True] if centre is not None else [True])
    for at_master in passes:
        # smoothed prices first; the master duals when smoothing found nothing (mispricing)
        if at_master and added:
            break
        if at_master or centre is None:
            pp, nn = pi, nu
        else:
            pp, nn = ALPHA * centre[0] + (1 - ALPHA) * pi, ALPHA * centre[1] + (1 - ALPHA) * nu
        vals, cols = np.empty(N), []
        for n in range(N):
            v, tasks, C = price_job(inst, grid, n, _start_costs(inst, grid, n, pp, nn))
            vals[n] = v
            cols.append((n, tasks, C))
        if not np.all(np.isfinite(vals)):  # the first schedule's columns are in every job's set
            raise SolverError("job-level pricing found no schedule for a job; the grid or windows are inconsistent")
        lb = _lagrangian(master, vals, pp, nn)
        if lb > best_lb:
            best_lb, centre = lb, (pp, nn)
        for n, tasks, C in cols:  # reduced cost at the master duals (sigma: convexity duals)
            rc = _column_reduced_cost(inst, grid, n, tasks, C, pi, nu) - sigma[n]
            if rc < -1e-9 * max(1.0, abs(value)) and master.add(n, tasks, C):
                added += 1
    return added, best_lb, centre


def _column_reduced_cost(inst, grid, n, tasks, C, pi, nu) -> float:
    cost = float(inst.weight[n]) * C
    for _, m, s in tasks:
        cost += float(pi[m, s:s + int(grid.p[n, m])].sum())
        k = s + 1 + int(grid.cu[n, m])
        if k < grid.n_energy:
            cost += float(inst.compute_time[n, m]) * float(nu[m, k])
    return cost


def _mean_starts(inst: HareInstance, grid: _Grid, master: _Master) -> np.ndarray:
    lam = master.weights()
    x = np.zeros(inst.n_tasks)
    for (n, tasks, _), v in zip(master.columns, lam, strict=True):
        if v <= 0:
            continue
        for r, _, s in tasks:
            sel = (inst.task_job == n) & (inst.task_round == r)
            x[sel] += v * grid.delta * s / int(inst.tasks_per_round[n])
    return x


@takes_instance(HareInstance)
def completion_limits(inst: HareInstance, result: JobColgenBound, upper_objective: float) -> np.ndarray:
    """Upper bounds on every job's completion in every schedule of objective ``<= upper_objective``.

    Lagrangian reduced-cost fixing at the prices ``(pi, nu)`` of the best bound ``L``: a
    schedule maps to one column ``q_n`` per job and its objective is at least
    ``L + sum_n (rc_n(q_n) - v_n)``, every term non-negative (``rc_n`` the reduced cost, ``v_n``
    the pricing optimum).  So a job whose columns with a late completion all have
    ``rc_n - v_n > upper_objective - L`` completes earlier in every such schedule.  With
    ``H_n(c)`` the least price of the columns whose fine last-round end is at least ``c`` (a
    lower estimate from the pricing DP's profile), ``c_n`` the least ``c`` with
    ``H_n(c) - v_n`` above the budget: every such schedule has ``C_n < delta (c_n + 1) / Q +
    delta + 2 / S`` (the rounding of starts to slots and of ends to the fine axis), provided
    ``c_n <= Q H`` (starts clamped at the horizon map to ends of at least ``Q H``; beyond it no
    limit is given).

    Returns
    -------
    numpy.ndarray, shape (N,)
        Time-unit upper bounds; ``inf`` where no limit is proven.
    """
    if not isinstance(result, JobColgenBound):
        raise ArgumentError(f"result is {a_type(result)}; expected the JobColgenBound of job_colgen_bound(inst)")
    if isinstance(upper_objective, (bool, np.bool_)) or not isinstance(upper_objective, (int, float, np.number)) \
            or not np.isfinite(float(upper_objective)):
        raise ArgumentError(f"upper_objective is {upper_objective!r}; expected a finite number")
    out = np.full(inst.n_jobs, _INF)
    if result.centre is None:
        return out
    grid, pi, nu, lag = result.centre
    budget = float(upper_objective) - lag + 1e-6 * abs(float(upper_objective)) + 1e-9
    if budget < 0:
        return out
    S = scaling(inst).time
    for n in range(inst.n_jobs):
        prof = price_job(inst, grid, n, _start_costs(inst, grid, n, pi, nu), profile=True)
        if prof[1].size == 0 or not np.isfinite(prof[1]).any():
            continue
        xs, F = prof
        v = float(np.min(F))
        H_late = np.minimum.accumulate(F[::-1])[::-1]  # least price with the end at least x (lower estimate)
        over = np.flatnonzero(H_late - v > budget)
        if over.size == 0:
            continue
        c = int(xs[over[0]])
        if c > FINE * grid.H:
            continue
        out[n] = grid.delta * (c + 1) / FINE + grid.delta + 2.0 / S
    return out
