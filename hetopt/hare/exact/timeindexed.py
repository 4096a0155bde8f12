"""A time-indexed LP lower bound for Hare_Sched (4)-(8) on a grid with rounded-down times.

The bound of :func:`time_indexed_bound` is valid for the true problem whatever the grid.

Grid and rounding
-----------------
Times are first expressed in integer units ``u(t) = floor(S t)`` (``S`` the scale of
:func:`hetopt.hare.exact.scaling.scaling`; with decimal data ``S t`` is an integer and nothing is lost)
and the grid step is ``delta`` units, a power of ten times 1, 2 or 5 near
``median T^c / resolution``.  Write ``f(t) = floor(u(t) / delta)`` (slots).  Take any feasible
schedule (for instance an optimal one) and round every start DOWN to the grid,
``t_i = f(x_i)``.  Because ``floor(a + b) >= floor(a) + floor(b)``:

* (4) ``t_i >= f(a_n)``;
* (7) ``t_j >= t_i + P_{n,m}`` for consecutive rounds, ``P_{n,m} = f(T^c_{n,m} + T^s_{n,m})``;
* (8) two tasks on one GPU occupy the disjoint slot sets ``[t_i, t_i + p_{n,m})``,
  ``p_{n,m} = f(T^c_{n,m})``;
* ``C_n >= x_i + T^c + T^s >= delta t_i / S + T^c_{n,m} + T^s_{n,m}`` (TRUE durations: the
  rounding loses less than one step per job, not one per round).

So every feasible schedule maps to an integer point of the time-indexed model below with an
objective no larger, and the LP optimum is a lower bound on the optimum of Hare_Sched.  Starts
at or after the horizon slot ``H`` (the makespan of the best cheap schedule) are clamped to
``H``: capacity and precedence rows are kept only before ``H``, which only relaxes further.
Every start also lies below ``time_bounds(...).x_upper`` (valid for every schedule at least
as good as that cheap one), which cuts the windows.

Model (one block per job round ``k = (n, r)`` with ``K_n`` identical tasks; aggregating
identical tasks loses nothing: a symmetric per-task LP solution has the same value)
----------------------------------------------------------------------------------------
``Y_{k,m,t}``: number of the round's tasks started on GPU ``m`` at slots ``<= t`` (cumulative),
nondecreasing in ``t``, ``sum_m Y_{k,m,hi_k} = K_n``.

* capacity, GPU ``m``, slot ``t < H``: ``sum_k Y_{k,m}(t) - Y_{k,m}(t - p_{k,m}) <= 1``;
* barrier (7), ``t < H``: ``sum_m Y_{k+1,m}(t) <= sum_m Y_{k,m}(t - P_{k,m})`` (a task of round
  ``r+1`` started by ``t`` means every task of round ``r`` started by ``t - P`` on its GPU);
* energy, GPU ``m``, ``T <= H`` (TRUE compute times; offsets the compression of rounding every
  duration down): ``sum_k T^c_{k,m} Y_{k,m}(T - 1 - ceil(T^c_{k,m} / delta)) <= delta T - min_n a_n``
  (a task started in slot ``t`` ends before ``delta (t + 1) + T^c``; the tasks of one GPU
  surely ended by ``delta T`` compute in disjoint intervals after the first arrival);
* barriers over several rounds: ``x_j >= x_i + D_{n,m_i} + (j - 1) d_n`` for ``i`` in round
  ``r``, ``j`` in round ``r + j`` (``d_n = min_m D_{n,m}``), rounded as one sum (one floor
  instead of ``j``);
* objective ``sum_n w_n C_n`` with, for every round ``r``,
  ``C_n >= 1/K_n sum_{m,t} (Y_{k,m,t} - Y_{k,m,t-1}) (delta t + T^c_{n,m} + T^s_{n,m})
  + (|R_n| - 1 - r) d_n`` (the mean completion of the round plus the rounds left; each is at
  most ``C_n``).

Safety margin: the reported bound is the LP optimum minus ``LP_SAFETY`` relative (HiGHS's
tolerances; the LP is not re-solved in exact arithmetic).  The LP is solved in normalized units
(:func:`hetopt.hare.exact.normalize.normalization`: completions over ``tau``, the completion and
energy rows over ``tau``, weights over ``omega``), so that HiGHS's absolute tolerances do not depend
on the data's magnitude; its value times ``tau omega`` is the bound.

References
----------
.. [1] M. E. Dyer, L. A. Wolsey, "Formulating the single machine sequencing problem with
   release dates as a mixed integer program", Discrete Applied Math. 26 (1990).
.. [2] J. P. Sousa, L. A. Wolsey, "A time indexed formulation of non-preemptive single
   machine scheduling problems", Math. Programming 54 (1992).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from ...certify import Status
from ...errors import ArgumentError
from ...inputs import check_flag, check_positive, check_size, check_threads, check_time_limit, takes_instance
from ...result import Solution
from ...solvers import solve_milp
from ..bounds import TimeBounds, time_bounds
from ..instance import HareInstance
from .normalize import normalization
from .scaling import Scaling, data_units, grid_step, scaling, units
from .start import upper_schedule

__all__ = ["TimeIndexedBound", "time_indexed_bound", "RESOLUTION", "MAX_SLOTS", "MAX_COLUMNS", "LP_SAFETY",
           "LP_OPTIONS"]

#: Default slots per median compute time.
RESOLUTION = 10
#: The step grows (1-2-5 sequence) until the horizon has at most this many slots.
MAX_SLOTS = 1500
#: HiGHS options of the LP solve.
LP_OPTIONS: dict = {"solver": "ipm"}
#: The step grows until (job rounds) x GPUs x slots is at most this.
MAX_COLUMNS = 30_000
#: Relative amount subtracted from the LP optimum against solver tolerances.
LP_SAFETY = 1e-6


@dataclass(frozen=True, kw_only=True)
class TimeIndexedBound(Solution):
    """Result of :func:`time_indexed_bound`.

    Attributes
    ----------
    bound : float or None
        The valid lower bound on Hare_Sched (None if the LP was not solved to optimality).
    objective : float or None
        The LP optimum (before the safety margin).
    step : float
        Grid step in time units (``delta / S``).
    slots : int
        Horizon ``H`` in slots.
    x_hat : numpy.ndarray, shape (|D|,)
        Mean LP start of every task's round (time units): an ordering for list scheduling.
    n_vars, n_rows : int
    """

    step: float = 0.0
    slots: int = 0
    x_hat: np.ndarray = field(default_factory=lambda: np.zeros(0))
    n_vars: int = 0
    n_rows: int = 0


@takes_instance(HareInstance)
def time_indexed_bound(inst: HareInstance, *, resolution: float = RESOLUTION, max_slots: int = MAX_SLOTS,
                       max_columns: int = MAX_COLUMNS,
                       step: int | None = None, upper: tuple[np.ndarray, np.ndarray] | None = None,
                       time_limit: float | None = None, threads: int | None = 1,
                       options: dict | None = None, windows: bool = True, energy: bool = True,
                       chains: bool = True,
                       horizon: float | None = None) -> TimeIndexedBound:
    """Solve the time-indexed LP relaxation (module docstring) with HiGHS.

    Parameters
    ----------
    inst : HareInstance
    resolution : float
        Slots per median compute time (finer: tighter and larger).
    max_slots : int
        Most slots in the horizon (the step grows beyond ``resolution`` to respect it).
    max_columns : int
        The step also grows until (job rounds) x GPUs x slots is at most this (the LP's size
        and time; at 100 tasks the default gives a step of about a third of the median
        compute time).
    step : int, optional
        Grid step in integer units of ``S`` (overrides ``resolution``); for tests.
    upper : (start, gpu), optional
        A feasible schedule giving the horizon and the start windows; default the best cheap
        schedule (:func:`hetopt.hare.exact.start.best_known_schedule`).
    time_limit : float, optional
        Seconds for HiGHS; an LP stopped early gives no bound (``bound`` None).
    threads : int, optional
    options : dict, optional
        HiGHS options (default :data:`LP_OPTIONS`: interior point with crossover, several
        times faster than dual simplex on these degenerate LPs).
    windows : bool
        Cut the start windows with :func:`hetopt.hare.bounds.time_bounds` (default); False
        keeps every slot from the release ``f(a_n) + r min_m P_{n,m}`` to the horizon.
    horizon : float, optional
        Horizon in time units (default: the makespan of ``upper``).
    energy : bool
        Add the energy rows (module docstring; default).
    chains : bool
        Add the barrier rows from every round to every later round and a completion row per
        round (module docstring; default), not only between consecutive rounds.

    Returns
    -------
    TimeIndexedBound
    """
    t0 = time.perf_counter()
    check_positive(resolution, "resolution")
    check_size(max_slots, "max_slots")
    check_size(max_columns, "max_columns")
    time_limit = check_time_limit(time_limit)
    check_threads(threads)
    if step is not None:
        check_size(step, "step", maximum=2**62)  # an int64 grid
    if horizon is not None:
        check_positive(horizon, "horizon")
    for name, flag in (("windows", windows), ("energy", energy), ("chains", chains)):
        check_flag(flag, name)
    if options is not None and not isinstance(options, dict):
        raise ArgumentError(f"options is {options!r}; expected a dict of HiGHS options")
    start, gpu, ub = upper_schedule(inst, upper)
    sc = scaling(inst)
    S = sc.time
    tc_u = data_units(inst, sc.time_exponent).compute
    idx = np.arange(inst.n_tasks)
    makespan = float(np.max(start + inst.task_compute[idx, gpu])) if horizon is None else float(horizon)
    if step is None:
        slots_cap = min(int(max_slots), max(int(max_columns) // max(int(inst.rounds.sum()) * inst.n_gpus, 1), 1))
        step = grid_step(float(np.median(tc_u)), resolution, makespan * S, slots_cap)
    step = int(step)
    if step < 1:
        raise ArgumentError(f"step is {step}; expected a positive number of units")
    g = _Grid(inst, sc, step, makespan, time_bounds(inst, ub), windows)
    rows = _Rows()
    comp = _block_rows(inst, g, rows, chains)
    _capacity_rows(inst, g, rows)
    if energy:
        _energy_rows(inst, g, rows)
    _barrier_rows(inst, g, rows, chains)
    c, A_ub, b_ub, A_eq, b_eq = rows.assemble(inst, g, comp)
    # normalized units (issue 25): C_n = tau C'_n, the completion and energy rows (time values) over tau,
    # weights over omega; the LP value times tau omega is the true one, Y unchanged
    norm = normalization(inst)
    r = np.ones(A_ub.shape[0])
    r[A_ub.shape[0] - len(comp.blocks):] = 1.0 / norm.time
    r[list(rows.energy_rhs)] = 1.0 / norm.time
    col = np.ones(A_ub.shape[1])
    col[g.n_y:] = norm.time  # the C_n columns: C_n = tau C'_n
    A_ub = sp.diags(r) @ A_ub @ sp.diags(col)
    b_ub = r * b_ub
    c = c * col / norm.objective
    res = solve_milp(c, A_ub=A_ub.tocsr(), b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, lb=0.0,
                     time_limit=time_limit, threads=threads, raise_on_failure=False,
                     options={**LP_OPTIONS, **(options or {})})
    y = res.info["x"]
    x_hat = np.zeros(inst.n_tasks)
    bound = None
    lp = None if res.objective is None else res.objective * norm.objective
    if res.status is Status.OPTIMAL and y is not None and lp is not None:
        bound = lp - LP_SAFETY * abs(lp)
        x_hat = _mean_block_starts(inst, g, y)
    n_rows = A_ub.shape[0] + A_eq.shape[0]
    return TimeIndexedBound(status=res.status, objective=lp, bound=bound, gap=None,
                            wall_time=time.perf_counter() - t0, solver="highs (time-indexed LP)",
                            message=(f"step {g.delta:g} time units ({step} units of 1/{S}), horizon {g.H} slots, "
                                     f"{len(c)} columns, {n_rows} rows; bound = LP x (1 - {LP_SAFETY:g})"),
                            step=g.delta, slots=g.H, x_hat=x_hat, n_vars=len(c), n_rows=n_rows)


class _Grid:
    """The slots of the model and its round blocks ``(job, round, lo, hi, first column)``."""

    def __init__(self, inst: HareInstance, sc: Scaling, step: int, makespan: float, tb: TimeBounds,
                 windows: bool) -> None:
        S = sc.time
        du = data_units(inst, sc.time_exponent)
        tc_u, d_u = du.compute, du.round
        self.step, self.d_u = step, d_u
        self.p, self.P, a = tc_u // step, d_u // step, du.arrival // step  # floor of floor
        self.cu = -(-du.compute_up // step)  # ceil(T^c S / step), never below the true quotient
        self.H = int(units(np.array([makespan]), S, upper=True)[0] // step)
        self.delta = step / S  # one slot in time units (the objective uses delta t, exact up to float)
        self.M = inst.n_gpus
        self.blocks: list[tuple[int, int, int, int, int]] = []
        ncol = 0
        for n in range(inst.n_jobs):
            for r in range(int(inst.rounds[n])):
                i = inst.round_tasks(n, r)[0]
                lo = int(a[n]) + r * int(self.P[n].min())
                hi = self.H
                if windows:
                    lo = max(lo, int(units(np.array([tb.x_lower[i]]), S)[0] // step))
                    hi = int(min(units(np.array([tb.x_upper[i]]), S, upper=True)[0] // step, self.H))
                hi = max(hi, lo)
                self.blocks.append((n, r, lo, hi, ncol))
                ncol += self.M * (hi - lo + 1)
        self.n_y = ncol

    def col(self, b: tuple[int, int, int, int, int], m: int, t: int) -> int | None:
        """Column of Y_{b,m}(t), or None when t < lo (value 0); clamped at hi."""
        n, r, lo, hi, first = b
        if t < lo:
            return None
        return first + m * (hi - lo + 1) + min(t, hi) - lo


class _Rows:
    """The sparse rows of the LP in the order they are added (<= rows, then = rows)."""

    def __init__(self) -> None:
        self.ub_rows: list[int] = []
        self.ub_cols: list[int] = []
        self.ub_vals: list[float] = []
        self.n_ub = 0
        self.eq_rows: list[int] = []
        self.eq_cols: list[int | None] = []
        self.eq_vals: list[float] = []
        self.eq_b: list[float] = []
        self.cap_rhs_rows: list[int] = []
        self.energy_rhs: dict[int, float] = {}

    def add_ub(self, entries: Iterable[tuple[int | None, float]]) -> bool:
        """Add one ``<=`` row (entries on the same column summed, zeros dropped); False when empty."""
        merged: dict[int, float] = {}
        for j, v in entries:
            if j is not None:
                merged[j] = merged.get(j, 0.0) + v
        merged = {j: v for j, v in merged.items() if v != 0.0}
        if not merged:
            return False
        self.ub_rows.extend([self.n_ub] * len(merged))
        self.ub_cols.extend(merged)
        self.ub_vals.extend(merged.values())
        self.n_ub += 1
        return True

    def assemble(self, inst: HareInstance, g: _Grid, comp: _Completion
                 ) -> tuple[np.ndarray, sp.csr_matrix, np.ndarray, sp.csr_matrix, np.ndarray]:
        """``c, A_ub, b_ub, A_eq, b_eq`` with the completion rows last and the ``C_n`` columns after ``Y``."""
        ncol = g.n_y + inst.n_jobs  # the C_n columns
        comp_first = self.n_ub
        self.ub_rows.extend((comp_first + np.asarray(comp.rows, dtype=np.int64)).tolist())
        self.ub_cols.extend(comp.cols)
        self.ub_vals.extend(comp.vals)
        for bi in comp.blocks:  # ... - C_n <= -(rounds after r) d_n
            self.ub_rows.append(comp_first + comp.row[bi])
            self.ub_cols.append(g.n_y + g.blocks[bi][0])
            self.ub_vals.append(-1.0)
        self.n_ub += len(comp.blocks)
        A_ub = sp.csr_matrix((self.ub_vals, (self.ub_rows, self.ub_cols)), shape=(self.n_ub, ncol))
        b_ub = np.zeros(self.n_ub)
        b_ub[self.cap_rhs_rows] = 1.0
        for row, v in self.energy_rhs.items():
            b_ub[row] = v
        b_ub[comp_first:] = comp.rhs
        c = np.concatenate([np.zeros(g.n_y), inst.weight.astype(float)])
        A_eq = sp.csr_matrix((self.eq_vals, (self.eq_rows, self.eq_cols)), shape=(len(self.eq_b), ncol))
        return c, A_ub, b_ub, A_eq, np.array(self.eq_b)


class _Completion:
    """The completion rows: ``C_n >= mean completion of round r + (|R_n| - 1 - r) min_m (T^c + T^s)``."""

    def __init__(self, inst: HareInstance, g: _Grid, chains: bool) -> None:
        dmin = inst.min_round_time
        self.blocks = [bi for bi, b in enumerate(g.blocks) if chains or b[1] == int(inst.rounds[b[0]]) - 1]
        self.row = {bi: k for k, bi in enumerate(self.blocks)}
        self.rows: list[int] = []
        self.cols: list[int] = []
        self.vals: list[float] = []
        self.rhs = np.array([-(int(inst.rounds[g.blocks[bi][0]]) - 1 - g.blocks[bi][1]) * float(dmin[g.blocks[bi][0]])
                             for bi in self.blocks])


def _block_rows(inst: HareInstance, g: _Grid, rows: _Rows, chains: bool) -> _Completion:
    """Per block: monotone ``Y`` rows, its completion row's coefficients, and ``sum_m Y_{k,m,hi} = K_n``."""
    comp = _Completion(inst, g, chains)
    delta, M = g.delta, g.M
    for bi, b in enumerate(g.blocks):
        n, r, lo, hi, first = b
        K = int(inst.tasks_per_round[n])
        for m in range(M):
            base = first + m * (hi - lo + 1)
            # monotone: Y_t - Y_{t+1} <= 0
            L = hi - lo
            if L > 0:
                ub_rows = rows.n_ub + np.arange(L)
                rows.ub_rows.extend(np.repeat(ub_rows, 2).tolist())
                cols = np.empty(2 * L, dtype=np.int64)
                cols[0::2] = base + np.arange(L)
                cols[1::2] = base + np.arange(L) + 1
                rows.ub_cols.extend(cols.tolist())
                rows.ub_vals.extend([1.0, -1.0] * L)
                rows.n_ub += L
            if bi not in comp.row:
                continue
            # completion row of round r (Abel summation of the mean start), coefficients 1/K
            comp.rows.extend([comp.row[bi]] * (L + 1))
            comp.cols.extend(range(base, base + L + 1))
            comp.vals.extend([-delta / K] * L
                             + [(hi * delta + float(inst.compute_time[n, m] + inst.sync_time[n, m])) / K])
        rows.eq_rows.extend([len(rows.eq_b)] * M)
        rows.eq_cols.extend(g.col(b, m, hi) for m in range(M))
        rows.eq_vals.extend([1.0] * M)
        rows.eq_b.append(float(K))
    return comp


def _capacity_rows(inst: HareInstance, g: _Grid, rows: _Rows) -> None:
    """GPU ``m``, slot ``t < H``: at most one task computes (``Y(t) - Y(t - p)`` summed over blocks)."""
    for m in range(g.M):
        for t in range(0, g.H):
            entries: list[tuple[int | None, float]] = []
            for b in g.blocks:
                n, r, lo, hi, first = b
                pm = int(g.p[n, m])
                if pm <= 0 or t < lo or t - pm >= hi:
                    continue
                entries.append((g.col(b, m, t), 1.0))
                entries.append((g.col(b, m, t - pm), -1.0))
            if rows.add_ub(entries):
                rows.cap_rhs_rows.append(rows.n_ub - 1)


def _energy_rows(inst: HareInstance, g: _Grid, rows: _Rows) -> None:
    """True compute times: the tasks on GPU ``m`` surely ended by ``T delta`` fit in ``[min a, T delta]``."""
    a_min = float(inst.arrival.min())
    for m in range(g.M):
        for T in range(1, g.H + 1):
            entries: list[tuple[int | None, float]] = []
            for b in g.blocks:
                n = b[0]
                last = T - 1 - int(g.cu[n, m])  # x < (t + 1) delta, so t <= last means end <= T delta
                if last >= b[2]:
                    entries.append((g.col(b, m, last), float(inst.compute_time[n, m])))
            if rows.add_ub(entries):
                rows.energy_rhs[rows.n_ub - 1] = T * g.delta - a_min


def _barrier_rows(inst: HareInstance, g: _Grid, rows: _Rows, chains: bool) -> None:
    """Round barriers (``t < H``), round ``r`` to every later round ``r + j`` (or only ``j = 1``).

    The ``j - 1`` rounds between take at least ``min_m (T^c + T^s)`` each, so the delay is
    ``floor((D_{n,m} + (j-1) d_n) / delta)``.
    """
    dmin_u = g.d_u.min(axis=1)
    index = {(b[0], b[1]): b for b in g.blocks}
    for b in g.blocks:
        n, r = b[0], b[1]
        for j in range(1, int(inst.rounds[n]) - r if chains else min(2, int(inst.rounds[n]) - r)):
            nxt = index[n, r + j]
            delay = (g.d_u[n] + (j - 1) * dmin_u[n]) // g.step
            for t in range(nxt[2], min(nxt[3], g.H - 1) + 1):
                entries: list[tuple[int | None, float]] = [(g.col(nxt, m, t), 1.0) for m in range(g.M)]
                entries += [(g.col(b, m, t - int(delay[m])), -1.0) for m in range(g.M)]
                rows.add_ub(entries)


def _mean_block_starts(inst: HareInstance, g: _Grid, y: np.ndarray) -> np.ndarray:
    """Mean LP start of every task's round (time units)."""
    x_hat = np.zeros(inst.n_tasks)
    for b in g.blocks:
        n, r, lo, hi, first = b
        K = int(inst.tasks_per_round[n])
        mean = 0.0
        for m in range(g.M):
            base = first + m * (hi - lo + 1)  # the columns of Y_{b,m}(lo..hi)
            Y = y[base:base + hi - lo + 1]
            X = np.diff(np.concatenate([[0.0], Y]))
            mean += float(X @ (np.arange(lo, hi + 1) * g.delta))
        x_hat[list(inst.round_tasks(n, r))] = mean / K
    return x_hat
