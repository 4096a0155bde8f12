"""A job-level Dantzig-Wolfe lower bound for Hare_Sched (4)-(8): column generation with DP pricing.

A column is a complete schedule of one job on the slot grid of :mod:`hetopt.hare.exact.jobpricing`
(every task of every round on a GPU and a start slot), its cost ``w_n C_n`` with ``C_n`` the
MAXIMUM over the last round; the master LP (``highspy``, columns added in place) mixes each
job's columns under the GPU-slot capacity and energy rows. The pricing problem is solved
exactly (:func:`~hetopt.hare.exact.jobpricing.price_job`), so every round's Lagrangian value is a
valid lower bound. Derivation, validity of the grid and the master's rows: the card
(models/hare2022.md, "Job-level column-generation bound").
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...certify import Status, certify
from ...errors import ArgumentError, SolverError, a_type
from ...inputs import check_flag, check_positive, check_size, check_threads, check_time_limit, check_tol, takes_instance
from ...result import Solution
from ...solvers import new_highs
from ..instance import HareInstance
from .jobpricing import _INF, FINE, _Grid, _grid, _start_costs, price_job
from .normalize import normalization
from .scaling import scaling, units
from .start import upper_schedule

__all__ = ["JobColgenBound", "job_colgen_bound", "completion_limits", "SAFETY", "RESOLUTION", "MAX_SLOTS"]

#: Relative amount subtracted from the bound against floating-point and LP tolerances.
SAFETY = 1e-6
#: Default slots per median compute time.
RESOLUTION = 10
#: The step grows (1-2-5 sequence) until the horizon has at most this many slots.
MAX_SLOTS = 600
#: Smoothing weight of the stability centre.
ALPHA = 0.5


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
        check_size(step, "step", maximum=2**62)  # an int64 grid
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
    if time_limit is not None and time.perf_counter() - t0 >= time_limit:  # the set-up spent the budget: no round
        return JobColgenBound(status=Status.TIME_LIMIT, objective=None, bound=None, gap=None,
                              wall_time=time.perf_counter() - t0, solver="highs (job-level column generation)",
                              message=f"time limit: no round after the set-up ({len(master.columns)} columns)",
                              step=grid.delta, columns=len(master.columns), x_hat=np.zeros(inst.n_tasks))
    best_lb, centre = -_INF, None
    history, value, converged, rounds = [], None, False, 0
    stopped = False  # by time_limit (a run that reaches max_rounds ends FEASIBLE)
    while rounds < max_rounds:
        rounds += 1
        began = time.perf_counter()
        value, sigma, pi, nu = master.solve()
        added, best_lb, centre = _generate(inst, grid, master, value, sigma, pi, nu, best_lb, centre)
        history.append((time.perf_counter() - t0, value, best_lb))
        if verbose:
            print(f"round {rounds}: master {value:.6f}, bound {best_lb:.6f}, +{added} columns, {history[-1][0]:.1f} s")
        if added == 0 or value - best_lb <= tol * max(abs(value), 1e-12):
            converged = True
            break
        now = time.perf_counter()
        if time_limit is not None and now + (now - began) - t0 > time_limit:  # the next round would pass the limit
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
            if rc < -1e-9 * abs(value) and master.add(n, tasks, C):
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
