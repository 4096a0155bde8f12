"""A time-indexed LP lower bound for Hare_Sched (4)-(8) on a grid with rounded-down times.

The bound of :func:`time_indexed_bound` is valid for the true problem whatever the grid.

Grid and rounding
-----------------
Times are first expressed in integer units ``u(t) = floor(S t)`` (``S`` the scale of
:func:`hetopt.hare.cpsat.scaling`; with decimal data ``S t`` is an integer and nothing is lost)
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
* objective: ``sum_n w_n / K_n sum_{m,t} (Y_{k,m,t} - Y_{k,m,t-1}) (delta t / S + T^c + T^s)``
  over each job's last round (the mean completion of its last round, ``<= C_n``).

Safety margin: the reported bound is the LP optimum minus ``LP_SAFETY`` relative (HiGHS's
tolerances; the LP is not re-solved in exact arithmetic).

References
----------
.. [1] M. E. Dyer, L. A. Wolsey, "Formulating the single machine sequencing problem with
   release dates as a mixed integer program", Discrete Applied Math. 26 (1990).
.. [2] J. P. Sousa, L. A. Wolsey, "A time indexed formulation of non-preemptive single
   machine scheduling problems", Math. Programming 54 (1992).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from ..result import Solution, Status
from ..solvers import solve_milp
from .bounds import time_bounds
from .instance import HareInstance

__all__ = ["TimeIndexedBound", "time_indexed_bound", "grid_step", "RESOLUTION", "MAX_SLOTS", "LP_SAFETY"]

#: Default slots per median compute time.
RESOLUTION = 10
#: The step grows (1-2-5 sequence) until the horizon has at most this many slots.
MAX_SLOTS = 1500
#: HiGHS options of the LP solve.
LP_OPTIONS: dict = {"solver": "ipm"}
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


def _units(values: np.ndarray, scale: int) -> np.ndarray:
    """``floor(scale t)`` as int64, with products within 1e-9 of an integer taken as that integer."""
    v = np.asarray(values, dtype=float) * scale
    r = np.round(v)
    return np.where(np.abs(v - r) <= 1e-9 * np.maximum(1.0, np.abs(v)), r, np.floor(v)).astype(np.int64)


def grid_step(median_units: float, resolution: float, horizon_units: float, max_slots: int) -> int:
    """Grid step in units: the largest of 1, 2, 5 x 10^k not above ``median / resolution``,
    raised (same sequence) until the horizon has at most ``max_slots`` slots; at least 1."""
    target = max(median_units / resolution, 1.0)
    k = int(math.floor(math.log10(target)))
    cands = [c * 10 ** j for j in range(max(k - 1, 0), k + 40) for c in (1, 2, 5)]
    step = max([c for c in cands if c <= target] or [1])
    for c in cands:
        if c >= step and horizon_units / c <= max_slots:
            return int(c)
    return int(cands[-1])  # pragma: no cover


def time_indexed_bound(inst: HareInstance, *, resolution: float = RESOLUTION, max_slots: int = MAX_SLOTS,
                       step: int | None = None, upper: tuple[np.ndarray, np.ndarray] | None = None,
                       time_limit: float | None = None, threads: int | None = 1,
                       options: dict | None = None, windows: bool = True,
                       horizon: float | None = None) -> TimeIndexedBound:
    """Solve the time-indexed LP relaxation (module docstring) with HiGHS.

    Parameters
    ----------
    inst : HareInstance
    resolution : float
        Slots per median compute time (finer: tighter and larger).
    max_slots : int
        Most slots in the horizon (the step grows beyond ``resolution`` to respect it).
    step : int, optional
        Grid step in integer units of ``S`` (overrides ``resolution``); for tests.
    upper : (start, gpu), optional
        A feasible schedule giving the horizon and the start windows; default the best cheap
        schedule (:func:`hetopt.hare.exact.best_known_schedule`).
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

    Returns
    -------
    TimeIndexedBound
    """
    from .checker import check_schedule
    from .cpsat import scaling
    from .exact import best_known_schedule

    t0 = time.perf_counter()
    if not (resolution > 0) or int(max_slots) < 1:
        raise ValueError(f"resolution and max_slots must be positive; got {resolution!r}, {max_slots!r}")
    if upper is None:
        start, gpu, ub = best_known_schedule(inst)
    else:
        start, gpu = np.asarray(upper[0], dtype=float), np.asarray(upper[1], dtype=int)
        ub = check_schedule(inst, (start, gpu)).raise_if_invalid().objective
    S = scaling(inst).time
    tc_u, d_u = _units(inst.compute_time, S), _units(inst.compute_time + inst.sync_time, S)
    a_u = _units(inst.arrival, S)
    idx = np.arange(inst.n_tasks)
    makespan = float(np.max(start + inst.task_compute[idx, gpu])) if horizon is None else float(horizon)
    if step is None:
        step = grid_step(float(np.median(tc_u)), resolution, makespan * S, int(max_slots))
    step = int(step)
    if step < 1:
        raise ValueError(f"step is {step}; expected a positive number of units")
    p, P, a = tc_u // step, d_u // step, a_u // step  # floor of floor: floor(t S / step)
    H = int(_units(np.array([makespan]), S)[0] // step)
    tb = time_bounds(inst, ub)
    delta = step / S  # one slot in time units (the objective uses delta t, exact up to float)
    n_jobs, M = inst.n_jobs, inst.n_gpus
    # ---- round blocks and their variables
    blocks = []  # (job, round, lo, hi, first column)
    ncol = 0
    for n in range(n_jobs):
        for r in range(int(inst.rounds[n])):
            i = inst.round_tasks(n, r)[0]
            lo = int(a[n]) + r * int(P[n].min())
            hi = H
            if windows:
                lo = max(lo, int(_units(np.array([tb.x_lower[i]]), S)[0] // step))
                hi = int(min(_units(np.array([tb.x_upper[i]]), S)[0] // step, H))
            hi = max(hi, lo)
            blocks.append((n, r, lo, hi, ncol))
            ncol += M * (hi - lo + 1)
    c = np.zeros(ncol)

    def col(b, m, t):
        """Column of Y_{b,m}(t), or None when t < lo (value 0); clamped at hi."""
        n, r, lo, hi, first = b
        if t < lo:
            return None
        return first + m * (hi - lo + 1) + min(t, hi) - lo

    ub_rows, ub_cols, ub_vals, n_ub = [], [], [], 0
    eq_rows, eq_cols, eq_vals = [], [], []
    eq_b = []

    def add_ub(entries):
        nonlocal n_ub
        merged: dict[int, float] = {}
        for j, v in entries:
            if j is not None:
                merged[j] = merged.get(j, 0.0) + v
        merged = {j: v for j, v in merged.items() if v != 0.0}
        if not merged:
            return
        ub_rows.extend([n_ub] * len(merged))
        ub_cols.extend(merged)
        ub_vals.extend(merged.values())
        n_ub += 1

    cap_rhs_rows = []
    for bi, b in enumerate(blocks):
        n, r, lo, hi, first = b
        K = int(inst.tasks_per_round[n])
        for m in range(M):
            base = first + m * (hi - lo + 1)
            # monotone: Y_t - Y_{t+1} <= 0
            L = hi - lo
            if L > 0:
                rows = n_ub + np.arange(L)
                ub_rows.extend(np.repeat(rows, 2).tolist())
                cols = np.empty(2 * L, dtype=np.int64)
                cols[0::2] = base + np.arange(L)
                cols[1::2] = base + np.arange(L) + 1
                ub_cols.extend(cols.tolist())
                ub_vals.extend([1.0, -1.0] * L)
                n_ub += L
            if r == int(inst.rounds[n]) - 1:  # objective on the last round (Abel summation)
                wk = float(inst.weight[n]) / K
                c[base:base + L] -= wk * delta
                c[base + L] += wk * (hi * delta + float(inst.compute_time[n, m] + inst.sync_time[n, m]))
        eq_rows.extend([len(eq_b)] * M)
        eq_cols.extend(col(b, m, hi) for m in range(M))
        eq_vals.extend([1.0] * M)
        eq_b.append(float(K))
    # capacity rows (t < H)
    for m in range(M):
        for t in range(0, H):
            entries = []
            for b in blocks:
                n, r, lo, hi, first = b
                pm = int(p[n, m])
                if pm <= 0 or t < lo or t - pm >= hi:
                    continue
                entries.append((col(b, m, t), 1.0))
                entries.append((col(b, m, t - pm), -1.0))
            before = n_ub
            add_ub(entries)
            if n_ub > before:
                cap_rhs_rows.append(n_ub - 1)
    # round barriers (t < H)
    for bi, b in enumerate(blocks[:-1]):
        nxt = blocks[bi + 1]
        if nxt[0] != b[0]:
            continue
        n = b[0]
        for t in range(nxt[2], min(nxt[3], H - 1) + 1):
            entries = [(col(nxt, m, t), 1.0) for m in range(M)]
            entries += [(col(b, m, t - int(P[n, m])), -1.0) for m in range(M)]
            add_ub(entries)
    A_ub = sp.csr_matrix((ub_vals, (ub_rows, ub_cols)), shape=(n_ub, ncol))
    b_ub = np.zeros(n_ub)
    b_ub[cap_rhs_rows] = 1.0
    A_eq = sp.csr_matrix((eq_vals, (eq_rows, eq_cols)), shape=(len(eq_b), ncol))
    res, y = solve_milp(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=np.array(eq_b), lb=0.0,
                        time_limit=time_limit, threads=threads, raise_on_failure=False,
                        options={**LP_OPTIONS, **(options or {})})
    x_hat = np.zeros(inst.n_tasks)
    bound = None
    if res.status is Status.OPTIMAL and y is not None:
        bound = res.objective - LP_SAFETY * abs(res.objective)
        for b in blocks:
            n, r, lo, hi, first = b
            K = int(inst.tasks_per_round[n])
            mean = 0.0
            for m in range(M):
                Y = y[col(b, m, lo):col(b, m, hi) + 1]
                X = np.diff(np.concatenate([[0.0], Y]))
                mean += float(X @ (np.arange(lo, hi + 1) * delta))
            x_hat[list(inst.round_tasks(n, r))] = mean / K
    return TimeIndexedBound(status=res.status, objective=res.objective, bound=bound, gap=None,
                            wall_time=time.perf_counter() - t0, solver="highs (time-indexed LP)",
                            message=(f"step {delta:g} time units ({step} units of 1/{S}), horizon {H} slots, "
                                     f"{ncol} columns, {n_ub + len(eq_b)} rows; bound = LP x (1 - {LP_SAFETY:g})"),
                            step=delta, slots=H, x_hat=x_hat, n_vars=ncol, n_rows=n_ub + len(eq_b))
