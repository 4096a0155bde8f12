"""The fluid LP relaxations of the arena's execution model, built as arrays (``models/arena.md``, *Certified bounds*).

:func:`job_data` derives what every bound needs (the jobs' fastest gang rates, GPU-time per
type), scaled so that the LPs do not depend on the magnitude of the data: time is measured from
the earliest arrival in units of ``theta`` (the longest of the jobs' shortest run times), work as
the fraction of a job done.  :func:`makespan_lp` (M) and :func:`jct_lp` (W) build the interval
LPs over the breakpoints of :func:`makespan_breakpoints` and :func:`jct_breakpoints`; every
column has finite bounds, as :func:`~hetopt.arena.lagrangian.dual_bound` needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from .workload import Workload

__all__ = ["JobData", "LPArrays", "job_data", "makespan_breakpoints", "jct_breakpoints", "makespan_lp", "jct_lp"]


@dataclass(frozen=True)
class JobData:
    """The workload's quantities the bounds use, scaled (time from ``origin`` in units of ``theta``).

    Attributes
    ----------
    origin, theta : float
        Seconds: the earliest arrival, and the time unit.
    arrival : numpy.ndarray, shape (J,)
        ``(arrival - origin) / theta``.
    rate : numpy.ndarray, shape (J,)
        ``rho_j``: the fastest a job can progress, in fractions of the job per unit of time
        (its gang's fastest rate under the rule, over its steps, times ``theta``).
    gpu_time : numpy.ndarray, shape (J, R)
        ``q_jr``: GPU-time (units of ``theta``) the whole job takes on type ``r``
        (``scale_factor * steps / throughput / theta``); ``inf`` where it may not run.
    allowed : numpy.ndarray of bool, shape (J, R)
        Types the job may use under the rule.
    capacity, gang : numpy.ndarray
        GPUs per type (R,), gang sizes (J,), as floats.
    slots : numpy.ndarray, shape (R,)
        Jobs a type can hold at once, in GPUs: ``capacity``, twice it when two jobs may share a GPU.
    rate_implied : numpy.ndarray of bool, shape (J,)
        Whether the gang rows already imply ``progress <= rho_j * time`` (then no rate row is built).
    """

    origin: float
    theta: float
    arrival: np.ndarray
    rate: np.ndarray
    gpu_time: np.ndarray
    allowed: np.ndarray
    capacity: np.ndarray
    slots: np.ndarray
    gang: np.ndarray
    rate_implied: np.ndarray

    @property
    def shortest(self) -> np.ndarray:
        """``1 / rho_j``: each job's shortest possible run time (units of ``theta``)."""
        return 1.0 / self.rate


def gang_rate(throughput: np.ndarray, capacity: np.ndarray, gang: int, rule: str) -> float:
    """The fastest rate (iterations/s) of one job's gang of ``gang`` GPUs under ``rule``.

    ``"single"``: its best type with at least ``gang`` GPUs.  ``"bottleneck"``: a gang spread over
    types runs at its slowest type's rate, so the best is the largest ``T_r`` such that the types at
    least as fast as ``r`` hold ``gang`` GPUs.  0 when the gang fits nowhere.
    """
    best = 0.0
    for r in range(throughput.size):
        t = float(throughput[r])
        if t <= 0:
            continue
        if rule == "single":
            room = capacity[r]
        else:
            room = capacity[(throughput >= t)].sum()
        if room >= gang:
            best = max(best, t)
    return best


def job_data(w: Workload, rule: str, packing: bool = False) -> JobData:
    """The scaled quantities of ``w`` under the gang rule ``"single"`` or ``"bottleneck"``.

    ``packing``: two jobs may share a GPU (Gavel's packing policies), each at most at its own rate.
    """
    T = np.asarray(w.throughput, dtype=float)
    cap = np.asarray(w.capacity, dtype=np.int64)
    g = np.asarray(w.scale_factor, dtype=np.int64)
    steps = np.asarray(w.steps, dtype=float)
    J, R = T.shape
    best = np.array([gang_rate(T[j], cap, int(g[j]), rule) for j in range(J)])
    if np.any(best <= 0):
        j = int(np.flatnonzero(best <= 0)[0])
        from ..errors import InstanceError

        raise InstanceError(f"job {j}: its gang of {g[j]} GPUs fits on no type it can run on under the rule "
                            f"{rule!r} (throughput / scale_factor / server_gpus)")
    shortest = steps / best  # seconds
    theta = float(np.max(shortest))
    origin = float(np.min(w.arrival))
    allowed = T > 0
    if rule == "single":
        allowed &= cap[None, :] >= g[:, None]
    with np.errstate(divide="ignore"):
        q = np.where(allowed, g[:, None] * (steps[:, None] / np.where(allowed, T, 1.0)) / theta, np.inf)
    fastest_allowed = np.where(allowed, T, 0.0).max(axis=1)
    return JobData(origin=origin, theta=theta, arrival=(np.asarray(w.arrival, dtype=float) - origin) / theta,
                   rate=theta / shortest, gpu_time=q, allowed=allowed, capacity=cap.astype(float),
                   slots=cap.astype(float) * (2.0 if packing else 1.0),
                   gang=g.astype(float), rate_implied=best >= fastest_allowed)


@dataclass
class LPArrays:
    """``min c x + offset`` s.t. ``row_lo <= A x <= row_hi``, ``col_lo <= x <= col_hi`` (scaled units).

    ``blocks`` names the column ranges (``"z"``: the fraction of job j done on type r in interval
    l, in the order of ``z_index``; ``"F"``: flow times; ``"T"``: the makespan).
    """

    c: np.ndarray
    A: sparse.csc_matrix
    row_lo: np.ndarray
    row_hi: np.ndarray
    col_lo: np.ndarray
    col_hi: np.ndarray
    offset: float = 0.0
    blocks: dict[str, tuple[int, int]] = field(default_factory=dict)
    z_index: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), dtype=np.int64))

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns)."""
        return (int(self.A.shape[0]), int(self.A.shape[1]))


class _Rows:
    """Rows collected in blocks of COO triplets (row numbers local to the block) with their bounds."""

    def __init__(self) -> None:
        self.r: list[np.ndarray] = []
        self.c: list[np.ndarray] = []
        self.v: list[np.ndarray] = []
        self.lo: list[np.ndarray] = []
        self.hi: list[np.ndarray] = []
        self.m = 0

    def block(self, rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> None:
        """Rows ``0..len(lo)-1`` of a block: entry ``(rows[i], cols[i]) = vals[i]``."""
        self.r.append(np.asarray(rows, dtype=np.int64) + self.m)
        self.c.append(np.asarray(cols, dtype=np.int64))
        self.v.append(np.asarray(vals, dtype=float))
        self.lo.append(np.asarray(lo, dtype=float))
        self.hi.append(np.asarray(hi, dtype=float))
        self.m += len(lo)

    def grouped(self, keys: np.ndarray, cols: np.ndarray, vals: np.ndarray, lo_of, hi_of, keep_of=None) -> None:
        """One row per distinct key (rows of ``keys``) over its columns ``cols``, bounded by ``lo_of``, ``hi_of``.

        ``lo_of(first)`` and ``hi_of(first)`` give the bounds from ``first``, each row's first entry
        (an index into the entries); ``keep_of(first, sums)`` (optional) selects the rows to build
        (``sums`` maps a per-entry weight to per-row sums).
        """
        if cols.size == 0:
            return
        _, first, inv = np.unique(keys, axis=0, return_index=True, return_inverse=True)
        inv = inv.reshape(-1)
        n_rows = first.size
        keep = np.ones(n_rows, dtype=bool) if keep_of is None else keep_of(
            first, lambda weight: np.bincount(inv, weights=weight, minlength=n_rows))
        new = np.cumsum(keep) - 1
        use = keep[inv]
        self.block(new[inv[use]], cols[use], vals[use], lo_of(first[keep]), hi_of(first[keep]))

    def matrix(self, n: int) -> tuple[sparse.csc_matrix, np.ndarray, np.ndarray]:
        A = sparse.csc_matrix((np.concatenate(self.v), (np.concatenate(self.r), np.concatenate(self.c))),
                              shape=(self.m, n))
        A.sum_duplicates()
        return A, np.concatenate(self.lo), np.concatenate(self.hi)


def _thin(points: np.ndarray, keep: int) -> np.ndarray:
    """``keep`` of the sorted ``points`` evenly by rank (the first and the last kept)."""
    if points.size <= keep:
        return points
    idx = np.unique(np.round(np.linspace(0, points.size - 1, keep)).astype(np.int64))
    return points[idx]


def makespan_breakpoints(d: JobData, intervals: int) -> np.ndarray:
    """Breakpoints of (M): 0 and the distinct arrivals (at most ``intervals`` of them, evenly by rank)."""
    arr = np.unique(np.concatenate([[0.0], d.arrival]))
    return _thin(arr, max(intervals, 1))


def jct_breakpoints(d: JobData, intervals: int, horizon: float) -> np.ndarray:
    """Breakpoints of (W) in ``[0, horizon]``: an even grid, the jobs' events, a geometric head; about ``intervals + 1``.

    A job's work in an interval is priced at the interval's start (or its arrival), so the bound
    loses up to an interval's length per job.  Half the budget is an even grid (it bounds every
    interval's length, where congestion delays completions), a third goes to the jobs' events
    (arrivals and earliest completions ``a_j + 1 / rho_j``, thinned evenly by rank: where jobs are
    active), a sixth splits the first even interval geometrically (ratio 1.1 from a quarter of the
    shortest job: completions of jobs that arrive together come at geometrically growing times).
    On Gavel's ``msr`` trace at 6 and 40 jobs/h and on a congested synthetic workload (1,000 jobs)
    this mix was within 1.3 % of the best of the three families alone, each of which fell up to 8 %
    behind on one of them.
    """
    budget = max(intervals, 6)
    even = np.linspace(0.0, horizon, budget // 2 + 1)
    events = np.concatenate([d.arrival, d.arrival + d.shortest])
    events = _thin(np.unique(events[events < horizon]), budget // 3)
    step = even[1]
    start = max(float(np.min(d.shortest)) / 4.0, step * 1e-6)
    head = np.zeros(0)
    if start < step:
        count = min(budget // 6, int(np.ceil(np.log(step / start) / np.log(1.1))))
        head = start * 1.1 ** np.arange(count)
        head = head[head < step]
    return np.unique(np.concatenate([even, events, head]))


def _z_columns(d: JobData, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """(job, type, interval) of every z column: the job may use the type and has arrived before the interval ends."""
    avail = d.arrival[:, None] < ends[None, :]  # (J, L)
    mask = d.allowed[:, :, None] & avail[:, None, :]
    return np.argwhere(mask).astype(np.int64)  # rows sorted by (j, r, l)


def _time_rows(rows: _Rows, d: JobData, z: np.ndarray, ub: np.ndarray, starts: np.ndarray, ends: np.ndarray,
               tcol: int | None = None) -> None:
    """Capacity, gang and rate rows of every interval (an interval with an infinite end has none).

    ``tcol``: the column of the makespan T, which ends the last interval: its rows read
    ``... - coef * T <= -coef * start``.  A row of a closed interval that the columns' upper bounds
    ``ub`` already satisfy is left out.
    """
    last = starts.size - 1
    closed = np.isfinite(ends[z[:, 2]]) & ((z[:, 2] != last) | (tcol is None))
    idx = np.flatnonzero(closed)
    j, r, l = z[idx, 0], z[idx, 1], z[idx, 2]
    q = d.gpu_time[j, r]
    length = ends[l] - starts[l]
    span = ends[l] - np.maximum(starts[l], d.arrival[j])
    cap_room = d.slots[r] * length
    rows.grouped(np.stack([l, r], axis=1), idx, q, lambda f: np.full(f.size, -np.inf), lambda f: cap_room[f],
                 lambda f, sums: sums(q * ub[idx]) > cap_room[f])
    gang_room = d.gang[j] * span
    rows.grouped(np.stack([j, l], axis=1), idx, q, lambda f: np.full(f.size, -np.inf), lambda f: gang_room[f],
                 lambda f, sums: sums(q * ub[idx]) > gang_room[f])
    slow = ~d.rate_implied[j]
    rate_room = d.rate[j] * span
    rows.grouped(np.stack([j[slow], l[slow]], axis=1), idx[slow], np.ones(int(slow.sum())),
                 lambda f: np.full(f.size, -np.inf), lambda f: rate_room[slow][f],
                 lambda f, sums: sums(ub[idx[slow]]) > rate_room[slow][f])
    if tcol is None:
        return
    # the last interval [b_K, T): capacity, gang and rate rows with T
    idx = np.flatnonzero(z[:, 2] == last)
    if idx.size == 0:
        return
    j, r = z[idx, 0], z[idx, 1]
    q = d.gpu_time[j, r]
    begin = np.maximum(starts[last], d.arrival[j])
    for keys, vals, coef, start in ((r[:, None], q, d.slots[r], np.full(idx.size, starts[last])),
                                    (j[:, None], q, d.gang[j], begin)):
        _with_t(rows, keys, idx, vals, coef, start, tcol)
    slow = ~d.rate_implied[j]
    if slow.any():
        _with_t(rows, j[slow][:, None], idx[slow], np.ones(int(slow.sum())), d.rate[j][slow], begin[slow], tcol)


def _with_t(rows: _Rows, keys: np.ndarray, cols: np.ndarray, vals: np.ndarray, coef: np.ndarray, start: np.ndarray,
            tcol: int) -> None:
    """Rows ``sum vals * z - coef * T <= -coef * start``, one per distinct key (coef and start read per row)."""
    _, first, inv = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    inv = inv.reshape(-1)
    n = first.size
    rr = np.concatenate([inv, np.arange(n)])
    cc = np.concatenate([cols, np.full(n, tcol)])
    vv = np.concatenate([vals, -coef[first]])
    rows.block(rr, cc, vv, np.full(n, -np.inf), -coef[first] * start[first])


def _z_upper(d: JobData, z: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Column bounds of z: 1, and what ``min(g_j, c_r)`` GPUs or the rate ``rho_j`` do in the job's time there."""
    j, r, l = z[:, 0], z[:, 1], z[:, 2]
    span = np.maximum(ends[l] - np.maximum(starts[l], d.arrival[j]), 0.0)
    gpus = np.minimum(d.gang[j], d.capacity[r])
    with np.errstate(invalid="ignore"):
        ub = np.minimum(np.minimum(gpus * span / d.gpu_time[j, r], d.rate[j] * span), 1.0)
    return np.where(np.isfinite(ub), ub, 1.0)


def makespan_lp(d: JobData, breakpoints: np.ndarray) -> LPArrays:
    """(M): the least T such that every job's work fits, with arrivals, capacities, gangs and rates.

    Intervals ``[b_k, b_{k+1})`` and a last one ``[b_K, T)``; columns z (fractions of job j on
    type r in interval k) then T; rows: work ``sum z_j.. >= 1``; capacity ``sum_j q_jr z_jrk <= c_r |I_k|``;
    gang ``sum_r q_jr z_jrk <= g_j |I_k from a_j|``; rate ``sum_r z_jrk <= rho_j |I_k from a_j|``.
    ``T`` lies in ``[max_j (a_j + 1/rho_j), b_K + sum_j 1/rho_j]`` (the latter: the jobs one after
    the other after the last breakpoint, a schedule, so the LP's optimum is below it).
    """
    starts = np.asarray(breakpoints, dtype=float)
    upper_T = float(starts[-1] + np.sum(d.shortest))
    ends = np.append(starts[1:], upper_T)
    z = _z_columns(d, starts, ends)
    n = z.shape[0] + 1
    tcol = n - 1
    rows = _Rows()
    J = d.rate.size
    rows.block(z[:, 0], np.arange(z.shape[0]), np.ones(z.shape[0]), np.ones(J), np.full(J, np.inf))
    ub = _z_upper(d, z, starts, ends)
    _time_rows(rows, d, z, ub, starts, ends, tcol=tcol)
    A, lo, hi = rows.matrix(n)
    c = np.zeros(n)
    c[tcol] = 1.0
    col_lo = np.zeros(n)
    col_lo[tcol] = max(float(np.max(d.arrival + d.shortest)), float(starts[-1]))
    col_hi = np.append(ub, upper_T)
    col_hi[tcol] = max(upper_T, col_lo[tcol])
    return LPArrays(c, A, lo, hi, col_lo, col_hi, blocks={"z": (0, n - 1), "T": (tcol, n)}, z_index=z)


def jct_lp(d: JobData, breakpoints: np.ndarray, weight: np.ndarray) -> LPArrays:
    """(W): the least ``sum_j w_j F_j`` (flow times, units of theta) over the interval relaxation.

    Intervals ``[tau_l, tau_{l+1})`` and a last one ``[tau_L, inf)`` with no capacity; columns z then
    F; rows: work ``sum z_j.. = 1``, capacity, gang and rate rows as in (M), and the completion row
    ``F_j - sum_l (t_jl - a_j) sum_r z_jrl >= 1 / (2 rho_j)`` with ``t_jl = max(tau_l, a_j)`` (the
    mean busy time bound).  ``F_j`` lies in ``[1/rho_j, max(tau_L, a_j) - a_j + 1/rho_j]`` (the
    upper end is above both lower expressions, so it never binds).  The objective's ``offset`` is 0:
    the caller adds ``sum_j w_j a_j`` for completion times.
    """
    starts = np.asarray(breakpoints, dtype=float)
    ends = np.append(starts[1:], np.inf)
    z = _z_columns(d, starts, ends)
    J = d.rate.size
    nz = z.shape[0]
    n = nz + J
    rows = _Rows()
    jobs = z[:, 0]
    rows.block(jobs, np.arange(nz), np.ones(nz), np.ones(J), np.ones(J))
    ub = _z_upper(d, z, starts, ends)
    _time_rows(rows, d, z, ub, starts, ends)
    delay = np.maximum(starts[z[:, 2]] - d.arrival[jobs], 0.0)  # t_jl - a_j
    rows.block(np.concatenate([jobs, np.arange(J)]), np.concatenate([np.arange(nz), nz + np.arange(J)]),
               np.concatenate([-delay, np.ones(J)]), 0.5 * d.shortest, np.full(J, np.inf))
    A, lo, hi = rows.matrix(n)
    c = np.concatenate([np.zeros(nz), np.asarray(weight, dtype=float)])
    col_lo = np.concatenate([np.zeros(nz), d.shortest])
    top = np.maximum(starts[-1] - d.arrival, 0.0) + d.shortest
    col_hi = np.concatenate([ub, top])
    return LPArrays(c, A, lo, hi, col_lo, col_hi, blocks={"z": (0, nz), "F": (nz, n)}, z_index=z)
