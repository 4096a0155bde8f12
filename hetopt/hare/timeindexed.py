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

__all__ = ["TimeIndexedBound", "time_indexed_bound", "grid_step", "RESOLUTION", "MAX_SLOTS", "MAX_COLUMNS",
           "LP_SAFETY"]

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


def _upper_schedule(inst: HareInstance, upper: tuple | None) -> tuple[np.ndarray, np.ndarray, float]:
    """``(start, gpu, objective)`` of ``upper`` (checked feasible), or of the best cheap schedule when None."""
    from .checker import check_schedule
    from .exact import best_known_schedule

    if upper is None:
        return best_known_schedule(inst)
    start, gpu = np.asarray(upper[0], dtype=float), np.asarray(upper[1], dtype=int)
    return start, gpu, check_schedule(inst, (start, gpu)).raise_if_invalid().objective


def _units(values: np.ndarray, scale: int) -> np.ndarray:
    """``floor(scale t)`` as int64, with products within 1e-9 of an integer taken as that integer."""
    v = np.asarray(values, dtype=float) * scale
    r = np.round(v)
    return np.where(np.abs(v - r) <= 1e-9 * np.maximum(1.0, np.abs(v)), r, np.floor(v)).astype(np.int64)


def grid_step(median_units: float, resolution: float, horizon_units: float, max_slots: int) -> int:
    """Grid step in units: the largest of 1, 2, 5 x 10^k not above ``median / resolution``,
    raised (same sequence) until the horizon has at most ``max_slots`` slots; at least 1.
    """
    target = max(median_units / resolution, 1.0)
    k = int(math.floor(math.log10(target)))
    cands = [c * 10 ** j for j in range(max(k - 1, 0), k + 40) for c in (1, 2, 5)]
    step = max([c for c in cands if c <= target] or [1])
    for c in cands:
        if c >= step and horizon_units / c <= max_slots:
            return int(c)
    return int(cands[-1])  # pragma: no cover


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
    energy : bool
        Add the energy rows (module docstring; default).
    chains : bool
        Add the barrier rows from every round to every later round and a completion row per
        round (module docstring; default), not only between consecutive rounds.

    Returns
    -------
    TimeIndexedBound
    """
    from .cpsat import scaling

    t0 = time.perf_counter()
    if not (resolution > 0) or int(max_slots) < 1:
        raise ValueError(f"resolution and max_slots must be positive; got {resolution!r}, {max_slots!r}")
    start, gpu, ub = _upper_schedule(inst, upper)
    S = scaling(inst).time
    tc_u, d_u = _units(inst.compute_time, S), _units(inst.compute_time + inst.sync_time, S)
    a_u = _units(inst.arrival, S)
    idx = np.arange(inst.n_tasks)
    makespan = float(np.max(start + inst.task_compute[idx, gpu])) if horizon is None else float(horizon)
    if step is None:
        slots_cap = min(int(max_slots), max(int(max_columns) // max(int(inst.rounds.sum()) * inst.n_gpus, 1), 1))
        step = grid_step(float(np.median(tc_u)), resolution, makespan * S, slots_cap)
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
    # C_n >= mean completion of round r + (|R_n| - 1 - r) min_m (T^c + T^s): one row per round
    dmin = inst.min_round_time
    with_comp = [bi for bi, b in enumerate(blocks) if chains or b[1] == int(inst.rounds[b[0]]) - 1]
    comp_row = {bi: k for k, bi in enumerate(with_comp)}
    comp_rows, comp_cols, comp_vals = [], [], []
    comp_rhs = np.array([-(int(inst.rounds[blocks[bi][0]]) - 1 - blocks[bi][1]) * float(dmin[blocks[bi][0]])
                         for bi in with_comp])
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
            if bi not in comp_row:
                continue
            # completion row of round r (Abel summation of the mean start), coefficients 1/K
            comp_rows.extend([comp_row[bi]] * (L + 1))
            comp_cols.extend(range(base, base + L + 1))
            comp_vals.extend([-delta / K] * L + [(hi * delta + float(inst.compute_time[n, m] + inst.sync_time[n, m])) / K])
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
    # energy (true compute times): tasks on GPU m surely ended by T delta fit in [min a, T delta]
    energy_rhs: dict[int, float] = {}
    if energy:
        cu = -(-tc_u // step)  # ceil(T^c S / step)
        a_min = float(inst.arrival.min())
        for m in range(M):
            for T in range(1, H + 1):
                entries = []
                for b in blocks:
                    n = b[0]
                    last = T - 1 - int(cu[n, m])  # x < (t + 1) delta, so t <= last means end <= T delta
                    if last >= b[2]:
                        entries.append((col(b, m, last), float(inst.compute_time[n, m])))
                before = n_ub
                add_ub(entries)
                if n_ub > before:
                    energy_rhs[n_ub - 1] = T * delta - a_min
    # round barriers (t < H), round r to every later round r + j: the j - 1 rounds between
    # take at least min_m (T^c + T^s) each, so the delay is floor((D_{n,m} + (j-1) d_n) / delta)
    dmin_u = d_u.min(axis=1)
    index = {(b[0], b[1]): b for b in blocks}
    for b in blocks:
        n, r = b[0], b[1]
        for j in range(1, int(inst.rounds[n]) - r if chains else min(2, int(inst.rounds[n]) - r)):
            nxt = index[n, r + j]
            delay = (d_u[n] + (j - 1) * dmin_u[n]) // step
            for t in range(nxt[2], min(nxt[3], H - 1) + 1):
                entries = [(col(nxt, m, t), 1.0) for m in range(M)]
                entries += [(col(b, m, t - int(delay[m])), -1.0) for m in range(M)]
                add_ub(entries)
    n_y = ncol
    ncol += n_jobs  # the C_n columns
    comp_first = n_ub
    ub_rows.extend(comp_first + np.asarray(comp_rows, dtype=np.int64))
    ub_cols.extend(comp_cols)
    ub_vals.extend(comp_vals)
    for bi in with_comp:  # ... - C_n <= -(rounds after r) d_n
        ub_rows.append(comp_first + comp_row[bi])
        ub_cols.append(n_y + blocks[bi][0])
        ub_vals.append(-1.0)
    n_ub += len(with_comp)
    A_ub = sp.csr_matrix((ub_vals, (ub_rows, ub_cols)), shape=(n_ub, ncol))
    b_ub = np.zeros(n_ub)
    b_ub[cap_rhs_rows] = 1.0
    for row, v in energy_rhs.items():
        b_ub[row] = v
    b_ub[comp_first:] = comp_rhs
    c = np.concatenate([c, inst.weight.astype(float)])
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
