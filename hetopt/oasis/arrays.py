"""Problem (1)-(13) built as arrays for HiGHS: the fast path of :func:`~hetopt.oasis.offline.solve_exact`.

:func:`~hetopt.oasis.model.build_offline` stays the declarative statement of the model; this
module builds the same rows with numpy (COO triplets, one block per constraint family) and
solves them with ``highspy`` through :func:`hetopt.solvers.solve_milp`, which also takes a
warm start (OASiS's own online schedule, Alg. 1).  The cross-check tests solve both on seeded
instances and compare optima.

Rows are stated so that the solver's tolerances mean the same at every magnitude (the rows of
:func:`~hetopt.oasis.model.build_offline` are the same): (2) over whole worker-slots
``ceil(W_i - 1e-6)`` (y is integer), each capacity row (4)-(5) divided by its capacity, (6) as
``rho_i sum_h y <= sum_k z`` with ``rho_i = max(b_i / B_i, 1 / N_i)``
(:func:`~hetopt.oasis.capacity.ps_ratio`, exact over integers); completion slots before a job's
earliest one on the empty cluster are fixed to 0 (:func:`~hetopt.oasis.capacity.standalone`).
Utilities are scaled by the caller (:mod:`hetopt.oasis.normalize`).

Optional valid inequalities (``tighten=True``; each holds for every integer solution of
(1)-(13), so the optimum is unchanged, only the LP relaxation is tighter):

* (V1) a per-slot worker bound ``M_i = min(N_i, sum_h ymax_ih, floor(B_i / b_i sum_k zmax_ik))``
  (from (3), (4), (6)) replaces ``N_i`` in (8b);
* (V2) per-server disaggregation of (8b): ``y_ih(t) <= ymax_ih sum_{s >= t} u_i(s)``;
* (V3) cumulative work: ``sum_{t <= s} sum_h y_ih(t) >= W_i sum_{s' <= s} u_i(s')`` with
  ``W_i = ceil(E_i N_i M_i (tau_i + 2 e_i / b_i) - 1e-6)`` (a job that completes by s has
  done all its work by s; the -1e-6 keeps the row implied by (2) within the solver's
  feasibility tolerance);
* (V4) ``u_i(s) = 0`` (upper bound 0) for completion slots ``s < a_i + ceil(W_i / M_i) - 1``
  that cannot hold all the work;
* (V5) symmetry breaking among identical worker (PS) servers: equal capacity rows ``h < h'``
  get ``sum_{i, t} y_ih(t) >= sum_{i, t} y_ih'(t)`` (permuting identical servers maps
  solutions to solutions of equal utility, so one with loads sorted exists).

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Section III-C.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import sparse

from ..errors import ArgumentError, SolverError
from ..solvers import solve_lp_duals
from .capacity import per_slot_workers, ps_ratio, standalone, var_bounds, work_slots
from .instance import OasisInstance, check_size
from .schedule import JobSchedule

__all__ = ["CUTS", "OfflineArrays", "per_slot_workers", "compact_lp_duals", "build_offline_arrays", "schedules_from_x", "x_from_schedules"]



@dataclass
class OfflineArrays:
    """``max c x  s.t.  lo <= A x <= hi,  lb <= x <= ub``, x integer where ``integrality`` is 1.

    Columns: ``y`` (I, H, T) at ``y_off``, ``z`` (I, K, T) at ``z_off``, ``x`` (I,) at
    ``x_off``, ``u`` ragged over (i, t >= a_i) at ``u_off[i] + (t - a_i)``.
    """

    c: np.ndarray
    A_ub: sparse.csr_matrix
    b_ub: np.ndarray
    A_eq: sparse.csr_matrix
    b_eq: np.ndarray
    lb: np.ndarray
    ub: np.ndarray
    integrality: np.ndarray
    shape: tuple[int, int, int, int]  # I, H, K, T
    y_off: int
    z_off: int
    x_off: int
    u_off: np.ndarray
    rows: dict[str, int]
    #: (family, first row, number of rows, tag) of the inequality rows; the capacity families
    #: (4)-(5) are tagged with ``(r, scale)``, the resource and the divisor of each server's rows
    #: (its capacity, 1 where it is 0), their rows ordered (server, slot).
    blocks: list[tuple[str, int, int, Any]] = field(default_factory=list)

    @property
    def n_cols(self) -> int:
        """Number of columns (variables)."""
        return int(self.c.size)


class _Rows:
    """COO accumulator: ``add(name, row_ids_local, cols, vals, rhs)`` with one rhs per local row."""

    def __init__(self) -> None:
        self.r: list[np.ndarray] = []
        self.c: list[np.ndarray] = []
        self.v: list[np.ndarray] = []
        self.rhs: list[np.ndarray] = []
        self.n = 0
        self.counts: dict[str, int] = {}
        self.blocks: list[tuple[str, int, int, object]] = []

    def add(self, name: str, rows: np.ndarray, cols: np.ndarray, vals, rhs: np.ndarray, tag: object = None) -> None:
        rhs = np.asarray(rhs, dtype=float).ravel()
        if rhs.size == 0:
            return
        self.blocks.append((name, self.n, rhs.size, tag))
        self.r.append(np.asarray(rows, dtype=np.int64).ravel() + self.n)
        self.c.append(np.asarray(cols, dtype=np.int64).ravel())
        self.v.append(np.broadcast_to(np.asarray(vals, dtype=float), np.shape(rows)).ravel())
        self.rhs.append(rhs)
        self.n += rhs.size
        self.counts[name] = self.counts.get(name, 0) + rhs.size

    def matrix(self, n_cols: int) -> tuple[sparse.csr_matrix, np.ndarray]:
        if not self.rhs:
            return sparse.csr_matrix((0, n_cols)), np.zeros(0)
        M = sparse.coo_matrix((np.concatenate(self.v), (np.concatenate(self.r), np.concatenate(self.c))),
                              shape=(self.n, n_cols)).tocsr()
        M.sum_duplicates()
        return M, np.concatenate(self.rhs)


#: Names of the optional valid inequalities.
CUTS = ("V1", "V2", "V3", "V4", "V5")


@dataclass(frozen=True)
class _Index:
    """Column positions of (1)-(13): y, z, x and the ragged u, and the (job, slot) pairs t >= a_i."""

    I: int
    H: int
    K: int
    T: int
    a: np.ndarray       # arrival slots (I,)
    lens: np.ndarray    # T - a_i + 1 completion slots per job
    x_off: int
    u_off: np.ndarray   # first u column of each job
    n: int              # number of columns
    yid: np.ndarray     # (I, H, T) column of y_ih(t)
    zid: np.ndarray     # (I, K, T) column of z_ik(t)
    uid: np.ndarray     # (I, T) column of u_i(t), -1 before arrival
    active: np.ndarray  # (I, T): t >= a_i
    ju: np.ndarray      # JOB_SLOTS in (i, t) order: jobs
    tu: np.ndarray      # ... and their 1-based slots


def _index(inst: OasisInstance) -> _Index:
    I, H, K, T = inst.n_jobs, inst.n_worker_servers, inst.n_ps_servers, inst.horizon
    a = inst.arrival.astype(np.int64)
    ny, nz = I * H * T, I * K * T
    x_off = ny + nz
    lens = T - a + 1
    u_off = x_off + I + np.concatenate(([0], np.cumsum(lens)[:-1]))
    uid = np.full((I, T), -1, dtype=np.int64)
    for i in range(I):
        uid[i, a[i] - 1:] = u_off[i] + np.arange(lens[i])
    active = np.arange(1, T + 1)[None, :] >= a[:, None]
    ju, tu = np.nonzero(active)
    return _Index(I=I, H=H, K=K, T=T, a=a, lens=lens, x_off=x_off, u_off=u_off, n=x_off + I + int(lens.sum()),
                  yid=np.arange(ny).reshape(I, H, T), zid=(ny + np.arange(nz)).reshape(I, K, T), uid=uid,
                  active=active, ju=ju, tu=tu + 1)


def _columns(inst: OasisInstance, ix: _Index, ymax: np.ndarray, zmax: np.ndarray, Mi: np.ndarray, Wc: np.ndarray,
             cuts: set[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Objective (1) on u, bounds ((9)-(10) and the per-server counts on y, z; (V4) on u) and integrality.

    A completion offset below the job's earliest one on the empty cluster
    (:func:`~hetopt.oasis.capacity.standalone`) is impossible in every solution: its u column
    gets the upper bound 0 and the cost 0 (so that a utility that is huge at offsets no schedule
    reaches, such as a sigmoid's f(0) next to its underflowing tail, does not enter the
    objective), and a job that cannot complete at all gets x_i <= 0.
    """
    c = np.zeros(ix.n)
    lb = np.zeros(ix.n)
    ub = np.ones(ix.n)
    alone = standalone(inst)
    for i in range(ix.I):
        first = int(alone.earliest[i])
        cols = ix.uid[i, ix.a[i] - 1:]
        if first < 0:
            ub[cols] = 0.0
            ub[ix.x_off + i] = 0.0
            continue
        c[cols[first:]] = inst.utility_table(i)[first:]
        ub[cols[:first]] = 0.0
    ub[ix.yid.ravel()] = np.where(ix.active[:, None, :], ymax[:, :, None], 0).astype(float).ravel()
    ub[ix.zid.ravel()] = np.where(ix.active[:, None, :], zmax[:, :, None], 0).astype(float).ravel()
    if "V4" in cuts:
        first_slot = ix.a + np.ceil(Wc / np.maximum(Mi, 1)).astype(np.int64) - 1
        for i in range(ix.I):
            k = min(max(int(first_slot[i]) - int(ix.a[i]), 0), int(ix.lens[i]))
            ub[ix.u_off[i]:ix.u_off[i] + k] = 0.0
    return c, lb, ub, np.ones(ix.n, dtype=np.int64)


def _model_rows(inst: OasisInstance, ix: _Index, ubr: _Rows, eqr: _Rows, Mi: np.ndarray) -> None:
    """Rows (2)-(8c), in that order (``Mi`` is N_i, or M_i of (V1), in (8b))."""
    I, H, K, T, R = ix.I, ix.H, ix.K, ix.T, inst.n_resources
    yid, zid, uid, ju, tu, x_off = ix.yid, ix.zid, ix.uid, ix.ju, ix.tu, ix.x_off
    ny, nz = I * H * T, I * K * T
    W = work_slots(inst).astype(float)  # (2) over integer worker-slots: sum y >= W_i <=> sum y >= ceil(W_i)
    N = inst.chunks.astype(float)
    # (2) W_i x_i - sum_{h,t} y <= 0
    rows = np.repeat(np.arange(I), H * T)
    ubr.add("work_done", np.concatenate([rows, np.arange(I)]), np.concatenate([yid.ravel(), x_off + np.arange(I)]),
            np.concatenate([-np.ones(ny), W]), np.zeros(I))
    # (3) sum_h y_iht - N_i x_i <= 0 over JOB_SLOTS
    J = ju.size
    r_y = np.repeat(np.arange(J), H)
    c_y = yid[ju[:, None], np.arange(H)[None, :], tu[:, None] - 1].ravel()
    ubr.add("max_workers", np.concatenate([r_y, np.arange(J)]), np.concatenate([c_y, x_off + ju]),
            np.concatenate([np.ones(J * H), -N[ju]]), np.zeros(J))
    # (4), (5) capacity rows over (server, r, t), each divided by its capacity c (coefficients w / c <= 1, rhs 1,
    # so that the solver's tolerances are relative to the capacity at every magnitude); a job that cannot put
    # one unit on the server (count bound 0) has no entry
    ymax, zmax = var_bounds(inst)
    for name, dem, cap, ids, S, vmax in (("worker_capacity", inst.worker_demand, inst.worker_capacity, yid, H, ymax),
                                         ("ps_capacity", inst.ps_demand, inst.ps_capacity, zid, K, zmax)):
        for r in range(R):
            users = np.nonzero(dem[:, r] > 0)[0]
            if users.size == 0:
                continue
            scale = np.where(cap[:, r] > 0, cap[:, r], 1.0)  # (S,)
            coef = dem[users, r][:, None] / scale[None, :]  # (users, S)
            keep = np.broadcast_to(((vmax[users] > 0) & np.isfinite(coef))[:, :, None], (users.size, S, T))
            rr = np.broadcast_to(np.arange(S * T).reshape(1, S, T), (users.size, S, T))
            vals = np.broadcast_to(coef[:, :, None], (users.size, S, T))
            ubr.add(name, rr[keep], ids[users][keep], vals[keep], np.repeat(cap[:, r] / scale, T), tag=(r, scale))
    # (6) rho_i sum_h y - sum_k z <= 0 with rho_i = max(b_i / B_i, 1 / N_i) (see ps_ratio), (7) sum_k z - sum_h y <= 0
    rho = ps_ratio(inst)
    it_rows = np.arange(I * T).reshape(I, T)
    ry = np.broadcast_to(it_rows[:, None, :], (I, H, T))
    rz = np.broadcast_to(it_rows[:, None, :], (I, K, T))
    ubr.add("ps_bandwidth", np.concatenate([ry.ravel(), rz.ravel()]), np.concatenate([yid.ravel(), zid.ravel()]),
            np.concatenate([np.broadcast_to(rho[:, None, None], (I, H, T)).ravel(),
                            -np.ones(I * K * T)]), np.zeros(I * T))
    ubr.add("ps_count", np.concatenate([ry.ravel(), rz.ravel()]), np.concatenate([yid.ravel(), zid.ravel()]),
            np.concatenate([-np.ones(ny), np.ones(nz)]), np.zeros(I * T))
    # (8a) sum_t u - x = 0
    eqr.add("completion_once", np.concatenate([ju, np.arange(I)]), np.concatenate([uid[ju, tu - 1], x_off + np.arange(I)]),
            np.concatenate([np.ones(J), -np.ones(I)]), np.zeros(I))
    # (8b) sum_h y_iht - M_i sum_{s >= t} u_is <= 0 over JOB_SLOTS
    us_rows = [np.full(T - tu[j] + 1, j) for j in range(J)]
    us_cols = [uid[ju[j], tu[j] - 1:] for j in range(J)]
    us_r, us_c = np.concatenate(us_rows), np.concatenate(us_cols)
    ubr.add("no_work_after_completion", np.concatenate([r_y, us_r]), np.concatenate([c_y, us_c]),
            np.concatenate([np.ones(J * H), -Mi[ju[us_r]]]), np.zeros(J))
    # (8c) u_it - sum_h y_iht <= 0
    ubr.add("work_at_completion", np.concatenate([r_y, np.arange(J)]), np.concatenate([c_y, uid[ju, tu - 1]]),
            np.concatenate([-np.ones(J * H), np.ones(J)]), np.zeros(J))


def _cut_rows(inst: OasisInstance, ix: _Index, ubr: _Rows, cuts: set[str], ymax: np.ndarray, Wc: np.ndarray) -> None:
    """Rows of the valid inequalities (V2), (V3), (V5) named in ``cuts``, in that order."""
    I, H, T = ix.I, ix.H, ix.T
    yid, zid, uid, ju, tu = ix.yid, ix.zid, ix.uid, ix.ju, ix.tu
    J = ju.size
    if "V2" in cuts:
        # (V2) y_iht - ymax_ih sum_{s >= t} u_is <= 0 for ymax_ih > 0
        jj, hsel = np.nonzero(ymax[ju] > 0)
        if jj.size:
            cnt = T - tu[jj] + 1
            rows2 = np.repeat(np.arange(jj.size), cnt)
            starts = np.repeat(uid[ju[jj], tu[jj] - 1], cnt)
            offs = np.arange(rows2.size) - np.repeat(np.cumsum(cnt) - cnt, cnt)
            ubr.add("disaggregated_completion", np.concatenate([np.arange(jj.size), rows2]),
                    np.concatenate([yid[ju[jj], hsel, tu[jj] - 1], starts + offs]),
                    np.concatenate([np.ones(jj.size), -np.repeat(ymax[ju[jj], hsel], cnt).astype(float)]),
                    np.zeros(jj.size))
    if "V3" in cuts:
        # (V3) W_i sum_{a_i <= s' <= s} u_is' - sum_{t <= s} sum_h y_iht <= 0
        rr, cc, vv = [], [], []
        for j in range(J):
            i, s = ju[j], tu[j]
            ts = np.arange(ix.a[i], s + 1)
            rr += [np.full(H * ts.size, j), np.full(ts.size, j)]
            cc += [yid[i][:, ts - 1].ravel(), uid[i, ts - 1]]
            vv += [-np.ones(H * ts.size), np.full(ts.size, Wc[i])]
        ubr.add("cumulative_work", np.concatenate(rr), np.concatenate(cc), np.concatenate(vv), np.zeros(J))
    if "V5" in cuts:
        # (V5) identical servers: load(h) >= load(h') for h < h' with equal capacity rows
        for name, cap, ids in (("worker_symmetry", inst.worker_capacity, yid), ("ps_symmetry", inst.ps_capacity, zid)):
            _, inv = np.unique(cap, axis=0, return_inverse=True)
            inv = np.asarray(inv).ravel()
            pairs = []
            for g in np.unique(inv):
                members = np.nonzero(inv == g)[0]
                pairs += list(zip(members[:-1], members[1:], strict=True))
            for h1, h2 in pairs:
                cols = np.concatenate([ids[:, h2, :].ravel(), ids[:, h1, :].ravel()])
                vals = np.concatenate([np.ones(I * T), -np.ones(I * T)])
                ubr.add(name, np.zeros(cols.size, dtype=np.int64), cols, vals, np.zeros(1))


def build_offline_arrays(inst: OasisInstance, *, tighten: bool | tuple[str, ...] = False) -> OfflineArrays:
    """Problem (1)-(13) (and, with ``tighten``, the valid inequalities (V1)-(V5)) as arrays.

    Row for row the model of :func:`~hetopt.oasis.model.build_offline`; (9)-(10) are upper
    bounds 0 on y and z before the arrival slot instead of equality rows.

    Parameters
    ----------
    inst : OasisInstance
    tighten : bool or tuple of str
        All of (V1)-(V5) (True), none (False) or the names from ``CUTS`` given.

    Returns
    -------
    OfflineArrays
    """
    cuts = set(CUTS) if tighten is True else set() if tighten is False else set(tighten)
    if cuts - set(CUTS):
        raise ArgumentError(f"tighten names {sorted(cuts - set(CUTS))}; expected a bool or names from {CUTS}")
    I, H, K, T = inst.n_jobs, inst.n_worker_servers, inst.n_ps_servers, inst.horizon
    check_size(inst, I * (H + K) * T, "the offline MILP")
    ymax, zmax = var_bounds(inst)
    ix = _index(inst)
    N = inst.chunks.astype(float)
    Mi = per_slot_workers(inst).astype(float) if "V1" in cuts else N
    Wc = work_slots(inst).astype(float)
    c, lb, ub, integ = _columns(inst, ix, ymax, zmax, Mi, Wc, cuts)
    ubr, eqr = _Rows(), _Rows()
    _model_rows(inst, ix, ubr, eqr, Mi)
    _cut_rows(inst, ix, ubr, cuts, ymax, Wc)
    n = ix.n
    A_ub, b_ub = ubr.matrix(n)
    A_eq, b_eq = eqr.matrix(n)
    counts = dict(ubr.counts)
    counts.update(eqr.counts)
    return OfflineArrays(c=c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, lb=lb, ub=ub, integrality=integ,
                         shape=(I, H, K, T), y_off=0, z_off=I * H * T, x_off=ix.x_off, u_off=ix.u_off, rows=counts,
                         blocks=list(ubr.blocks))




def schedules_from_x(inst: OasisInstance, arr: OfflineArrays, x: np.ndarray) -> dict[int, JobSchedule]:
    """The schedules of the admitted jobs in a solution vector ``x``."""
    I, H, K, T = arr.shape
    y = np.rint(x[arr.y_off:arr.y_off + I * H * T]).astype(np.int64).reshape(I, H, T)
    z = np.rint(x[arr.z_off:arr.z_off + I * K * T]).astype(np.int64).reshape(I, K, T)
    adm = np.rint(x[arr.x_off:arr.x_off + I]).astype(np.int64)
    return {i: JobSchedule(i, y[i], z[i]) for i in range(I) if adm[i] == 1}


def x_from_schedules(inst: OasisInstance, arr: OfflineArrays, schedules) -> np.ndarray:
    """The column vector of a set of schedules (a warm start): y, z, x and the completion u."""
    I, H, K, T = arr.shape
    x = np.zeros(arr.n_cols)
    y = np.zeros((I, H, T))
    z = np.zeros((I, K, T))
    for i, s in schedules.items():
        if s.completion == 0:
            continue
        y[i], z[i] = s.workers, s.ps
        x[arr.x_off + i] = 1.0
        x[arr.u_off[i] + s.completion - int(inst.arrival[i])] = 1.0
    x[arr.y_off:arr.y_off + I * H * T] = y.ravel()
    x[arr.z_off:arr.z_off + I * K * T] = z.ravel()
    return x


#: Columns above which :func:`compact_lp_duals` uses HiGHS's interior point method (no crossover).
IPM_COLUMNS = 100_000


def compact_lp_duals(inst: OasisInstance, *, threads: int | None = 1,
                     time_limit: float | None = None) -> tuple[float, np.ndarray, np.ndarray]:
    """The LP relaxation of (1)-(13) (no extra inequalities): its value and the capacity duals.

    The duals of the capacity rows (4)-(5) are returned as prices ``p`` (T, H, R), ``q`` (T, K, R) >= 0.

    When ``time_limit`` stops HiGHS first, the value is ``inf`` (no bound) and the prices are
    HiGHS's current row duals clipped at 0 (any prices >= 0 still give a valid Lagrangian bound
    in column generation), or zeros when it has none.  Above ``IPM_COLUMNS`` columns the LP is
    solved by interior point without crossover (HiGHS reports Optimal within its tolerances;
    simplex took minutes longer at 300 jobs).
    """
    arr = build_offline_arrays(inst, tighten=False)
    I, H, K, T = arr.shape
    R = inst.n_resources
    A = sparse.vstack([arr.A_ub, arr.A_eq], format="csc")
    lo = np.concatenate([np.full(arr.b_ub.size, -np.inf), arr.b_eq])
    hi = np.concatenate([arr.b_ub, arr.b_eq])
    ipm = {"solver": "ipm", "run_crossover": "off"} if arr.n_cols > IPM_COLUMNS else {}
    out = solve_lp_duals(-arr.c, A, lo, hi, arr.lb, arr.ub, threads=threads, time_limit=time_limit,
                         options=ipm)  # minimize -utility
    p = np.zeros((T, H, R))
    q = np.zeros((T, K, R))
    if out.status != "Optimal":
        if time_limit is None or "limit" not in out.status.lower():
            raise SolverError(f"compact LP: HiGHS status {out.status}")
        if not out.dual_valid:
            return float("inf"), p, q
        value = float("inf")
    else:
        value = -out.objective
    dual = np.maximum(-out.row_dual, 0.0)
    for name, start, n, tag in arr.blocks:  # rows divided by the capacity: the original row's dual is dual / c
        if name == "worker_capacity":
            r, scale = tag
            p[:, :, r] = (dual[start:start + n].reshape(H, T) / scale[:, None]).T
        elif name == "ps_capacity":
            r, scale = tag
            q[:, :, r] = (dual[start:start + n].reshape(K, T) / scale[:, None]).T
    return value, p, q
