"""Schedules, the OASiS solution type, and an independent checker of constraints (2)-(13).

A schedule of job ``i`` is the pair of integer arrays ``workers`` (H x T, y_ih(t)) and ``ps``
(K x T, z_ik(t)); column ``t - 1`` holds slot ``t``.  Its completion slot t_hat_i is the last
slot with a worker (8).  :func:`check_schedule` re-derives everything from these arrays and
the instance alone: it shares no code with the models or the algorithms.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..result import CheckReport, Solution, Status
from ..validate import FEAS_TOL
from .instance import OasisInstance, check_size

__all__ = ["JobSchedule", "OasisSolution", "check_schedule", "make_solution", "schedule_cost"]


@dataclass(frozen=True, eq=False)
class JobSchedule:
    """One job's schedule: y_ih(t), z_ik(t) and its completion slot.

    Attributes
    ----------
    job : int
        Job index i (0-based).
    workers : numpy.ndarray of int, shape (H, T)
        y_ih(t); column ``t - 1`` is slot ``t``.
    ps : numpy.ndarray of int, shape (K, T)
        z_ik(t).
    completion : int
        t_hat_i, the last slot (1-based) with a worker; 0 for an empty schedule.
    """

    job: int
    workers: np.ndarray
    ps: np.ndarray
    completion: int = field(init=False)

    def __post_init__(self) -> None:
        y = np.asarray(self.workers)
        z = np.asarray(self.ps)
        if y.ndim != 2 or z.ndim != 2 or y.shape[1] != z.shape[1]:
            raise ValueError(f"workers {y.shape} and ps {z.shape} must be (H, T) and (K, T) arrays")
        if not (np.issubdtype(y.dtype, np.integer) and np.issubdtype(z.dtype, np.integer)):
            if not (np.all(y == np.round(y)) and np.all(z == np.round(z))):
                raise ValueError("workers and ps must hold integers (12)-(13)")
            y, z = np.round(y).astype(np.int64), np.round(z).astype(np.int64)
        y, z = y.astype(np.int64), z.astype(np.int64)
        y.setflags(write=False)
        z.setflags(write=False)
        object.__setattr__(self, "workers", y)
        object.__setattr__(self, "ps", z)
        busy = np.nonzero(y.sum(axis=0) > 0)[0]
        object.__setattr__(self, "completion", int(busy[-1]) + 1 if busy.size else 0)

    @property
    def n_workers(self) -> np.ndarray:
        """sum_h y_ih(t) per slot."""
        return self.workers.sum(axis=0)

    @property
    def n_ps(self) -> np.ndarray:
        """sum_k z_ik(t) per slot."""
        return self.ps.sum(axis=0)

    def to_dict(self) -> dict[str, Any]:
        return {"job": self.job, "completion": self.completion, "workers": self.workers.tolist(), "ps": self.ps.tolist()}


@dataclass(frozen=True, kw_only=True)
class OasisSolution(Solution):
    """A solution of problem (1): admitted jobs, their schedules and utilities.

    Attributes
    ----------
    total_utility : float
        sum over admitted jobs of f_i(t_hat_i - a_i), recomputed from the schedules.
    admitted : tuple of int
        Jobs with x_i = 1.
    schedules : dict int -> JobSchedule
        One schedule per admitted job.
    timeliness : dict int -> float
        (t_hat_i - a_i) - gamma3_i for admitted jobs whose utility has a target.
    payoffs : dict int -> float
        mu_i of every job as decided online (OASiS only).
    info : dict
        Method-specific extras (price bounds, unfinished jobs of a baseline, ...).
    """

    total_utility: float = 0.0
    admitted: tuple[int, ...] = ()
    schedules: Mapping[int, JobSchedule] = field(default_factory=dict)
    timeliness: Mapping[int, float] = field(default_factory=dict)
    payoffs: Mapping[int, float] = field(default_factory=dict)
    info: Mapping[str, Any] = field(default_factory=dict)


def schedule_utility(inst: OasisInstance, sched: JobSchedule) -> float:
    """f_i(t_hat_i - a_i) of one non-empty schedule."""
    return inst.utility_of(sched.job, sched.completion)


def schedule_cost(inst: OasisInstance, sched: JobSchedule, p: np.ndarray, q: np.ndarray) -> float:
    """sum_t sum_h sum_r p_h^r(t) w_i^r y_ih(t) + the same for PS with q: the cost in (20)."""
    i = sched.job
    # p has shape (T, H, R); workers (H, T)
    cw = np.einsum("thr,r,ht->", p, inst.worker_demand[i], sched.workers)
    cz = np.einsum("tkr,r,kt->", q, inst.ps_demand[i], sched.ps)
    c = cw + cz
    return c if isinstance(c, np.longdouble) and np.finfo(np.longdouble).eps < np.finfo(float).eps else float(c)


def make_solution(
    inst: OasisInstance,
    schedules: Mapping[int, JobSchedule],
    *,
    status: Status = Status.FEASIBLE,
    bound: float | None = None,
    wall_time: float = 0.0,
    solver: str = "",
    message: str = "",
    payoffs: Mapping[int, float] | None = None,
    info: Mapping[str, Any] | None = None,
) -> OasisSolution:
    """Assemble an :class:`OasisSolution`, recomputing utility and timeliness from the schedules."""
    from ..result import relative_gap

    scheds = {int(i): s for i, s in sorted(schedules.items()) if s.completion > 0}
    util = {i: schedule_utility(inst, s) for i, s in scheds.items()}
    total = float(sum(util.values()))
    timeliness = {}
    for i, s in scheds.items():
        tgt = inst.utility[i].target
        if tgt is not None:
            timeliness[i] = float(s.completion - int(inst.arrival[i]) - tgt)
    return OasisSolution(
        status=status, objective=total, bound=bound, gap=relative_gap(total, bound), wall_time=wall_time,
        solver=solver, sense="max", message=message, total_utility=total, admitted=tuple(scheds),
        schedules=scheds, timeliness=timeliness, payoffs=dict(payoffs or {}), info=dict(info or {}),
    )


def check_schedule(inst: OasisInstance, sol: OasisSolution | Mapping[int, JobSchedule], *,
                   tol: float = FEAS_TOL) -> CheckReport:
    """Check constraints (2)-(13) of every admitted job's schedule, from the arrays alone.

    Parameters
    ----------
    inst : OasisInstance
    sol : OasisSolution or mapping job -> JobSchedule
        The admitted jobs (x_i = 1) are the keys with a non-empty schedule.
    tol : float
        Absolute tolerance on (2), (4), (5), (6); a finite number >= 0 (NaN would switch
        every comparison off).

    Returns
    -------
    CheckReport
        ``violations`` names the constraint, job, server, resource and slot of each
        violation; ``objective`` is the total utility sum_i f_i(t_hat_i - a_i) recomputed.  When given a
        solution, its reported completions, admitted set and total utility are checked too.
    """
    if isinstance(tol, (bool, np.bool_)) or not isinstance(tol, (int, float, np.integer, np.floating)) \
            or not math.isfinite(float(tol)) or tol < 0:
        raise ValueError(f"tol is {tol!r}; expected a finite number >= 0")
    check_size(inst, what="check_schedule")
    schedules = sol.schedules if isinstance(sol, OasisSolution) else sol
    T, H, K = inst.horizon, inst.n_worker_servers, inst.n_ps_servers
    out: list[str] = []
    used_w = np.zeros((H, T, inst.n_resources))
    used_p = np.zeros((K, T, inst.n_resources))
    total = 0.0
    for i, s in schedules.items():
        if not (0 <= i < inst.n_jobs):
            out.append(f"job {i} does not exist")
            continue
        y, z = np.asarray(s.workers), np.asarray(s.ps)
        if y.shape != (H, T) or z.shape != (K, T):
            out.append(f"job {i}: workers {y.shape} / ps {z.shape}; expected ({H}, {T}) / ({K}, {T})")
            continue
        if np.any(y < 0) or np.any(y != np.round(y)):
            out.append(f"(12) job {i}: y_ih(t) must be non-negative integers")
        if np.any(z < 0) or np.any(z != np.round(z)):
            out.append(f"(13) job {i}: z_ik(t) must be non-negative integers")
        a = int(inst.arrival[i])
        if np.any(y[:, : a - 1] != 0):
            out.append(f"(9) job {i}: workers before its arrival slot {a}")
        if np.any(z[:, : a - 1] != 0):
            out.append(f"(10) job {i}: parameter servers before its arrival slot {a}")
        nw, nz = y.sum(axis=0), z.sum(axis=0)
        if nw.sum() == 0:
            continue  # not admitted (x_i = 0); (3) and (7) force z = 0
        work = float(inst.workload[i])
        if nw.sum() < work - tol - 1e-9 * work:
            out.append(f"(2) job {i}: {nw.sum()} worker-slots < E N M (tau + 2e/b) = {work:.6g}")
        over = np.nonzero(nw > inst.chunks[i])[0]
        if over.size:
            out.append(f"(3) job {i}: {nw[over[0]]} workers in slot {over[0] + 1} > N_i = {inst.chunks[i]}")
        b, B = inst.worker_bandwidth[i], inst.ps_bandwidth[i]
        short = np.nonzero(nw * b > nz * B + tol)[0]
        if short.size:
            t = short[0]
            out.append(f"(6) job {i}: slot {t + 1}: worker bandwidth {nw[t] * b:.6g} > PS bandwidth {nz[t] * B:.6g}")
        many = np.nonzero(nz > nw)[0]
        if many.size:
            t = many[0]
            out.append(f"(7) job {i}: slot {t + 1}: {nz[t]} parameter servers > {nw[t]} workers")
        busy = np.nonzero(nw > 0)[0]
        t_hat = int(busy[-1]) + 1
        if hasattr(s, "completion") and s.completion != t_hat:
            out.append(f"(8) job {i}: reported completion {s.completion} != last slot with workers {t_hat}")
        used_w += np.einsum("ht,r->htr", y, inst.worker_demand[i])
        used_p += np.einsum("kt,r->ktr", z, inst.ps_demand[i])
        total += inst.utility_of(i, t_hat)
    for name, used, cap, eq in (("worker server", used_w, inst.worker_capacity, "(4)"),
                                ("PS server", used_p, inst.ps_capacity, "(5)")):
        excess = used - cap[:, None, :]
        bad = np.argwhere(excess > tol)
        if bad.size:
            h, t, r = bad[0]
            out.append(f"{eq} {name} {h}, slot {t + 1}, {inst.resource_names[r]}: used {used[h, t, r]:.6g} "
                       f"> capacity {cap[h, r]:.6g} ({len(bad)} violations)")
    if isinstance(sol, OasisSolution):
        admitted = tuple(sorted(i for i, s in schedules.items() if np.asarray(s.workers).sum() > 0))
        if tuple(sorted(sol.admitted)) != admitted:
            out.append(f"admitted {sol.admitted} != jobs with a non-empty schedule {admitted}")
        if not math.isclose(sol.total_utility, total, rel_tol=1e-9, abs_tol=1e-9):
            out.append(f"(1) reported total utility {sol.total_utility:.9g} != recomputed {total:.9g}")
    return CheckReport.from_violations(out, total)
