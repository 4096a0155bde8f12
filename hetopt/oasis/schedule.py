"""Schedules and the OASiS solution type.

A schedule of job ``i`` is the pair of integer arrays ``workers`` (H x T, y_ih(t)) and ``ps``
(K x T, z_ik(t)); column ``t - 1`` holds slot ``t``.  Its completion slot t_hat_i is the last
slot with a worker (8).  The independent checker of (2)-(13) is
:func:`~hetopt.oasis.checker.check_schedule`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from ..certify import Status, relative_gap
from ..errors import ArgumentError
from ..inputs import check_result_fields
from ..result import SimulationResult, Solution, job_times
from .instance import OasisInstance

__all__ = ["JobSchedule", "OasisSolution", "OasisSimulation", "make_solution", "schedule_cost", "schedule_utility"]


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
            raise ArgumentError(f"workers {y.shape} and ps {z.shape} must be (H, T) and (K, T) arrays")
        if not (np.issubdtype(y.dtype, np.integer) and np.issubdtype(z.dtype, np.integer)):
            if not (np.all(y == np.round(y)) and np.all(z == np.round(z))):
                raise ArgumentError("workers and ps must hold integers (12)-(13)")
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
        """``job``, ``completion`` and the arrays as nested lists."""
        return {"job": self.job, "completion": self.completion, "workers": self.workers.tolist(), "ps": self.ps.tolist()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> JobSchedule:
        """The schedule whose :meth:`to_dict` is ``data`` (``completion`` is recomputed and must agree).

        Raises
        ------
        ArgumentError
            When a key is missing or unknown, or ``completion`` is not the last slot with a worker.
        """
        if not isinstance(data, Mapping) or set(data) - {"job", "completion", "workers", "ps"} \
                or not {"job", "workers", "ps"} <= set(data):
            raise ArgumentError(f"a JobSchedule dict has keys job, workers, ps (and completion); got {data!r:.80}")
        s = cls(int(data["job"]), np.asarray(data["workers"], dtype=np.int64), np.asarray(data["ps"], dtype=np.int64))
        if "completion" in data and int(data["completion"]) != s.completion:
            raise ArgumentError(f"completion is {data['completion']!r}; the last slot with a worker is {s.completion}")
        return s


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

    ``info`` (inherited) holds the method's extras (price bounds, unfinished jobs of a baseline, ...).
    """

    total_utility: float = 0.0
    admitted: tuple[int, ...] = ()
    schedules: Mapping[int, JobSchedule] = field(default_factory=dict)
    timeliness: Mapping[int, float] = field(default_factory=dict)
    payoffs: Mapping[int, float] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """The common fields, the total utility, the admitted jobs, their completion slots and timeliness."""
        out = super().summary()
        out.update(total_utility=self.total_utility, admitted=[int(i) for i in self.admitted],
                   completion={int(i): s.completion for i, s in self.schedules.items()},
                   timeliness={int(i): float(v) for i, v in self.timeliness.items()})
        return out


@dataclass(frozen=True, kw_only=True)
class OasisSimulation(OasisSolution, SimulationResult):
    """A run of :func:`~hetopt.oasis.simulate`: a solution that is a simulation result too.

    An :class:`OasisSolution` and a :class:`~hetopt.result.SimulationResult`.  In slots:
    ``completion`` is t_hat_i of every completed job (NaN for a job rejected or not completed by T),
    ``jct`` is t_hat_i - a_i (the argument of the utility), ``average_jct`` their mean over the
    completed jobs and ``makespan`` the last completion slot (NaN when no job completed).
    """

    @classmethod
    def of(cls, sol: OasisSolution, inst: OasisInstance, policy: str) -> OasisSimulation:
        """The simulation of ``policy`` whose schedules are ``sol``'s (every field kept, the job times added)."""
        done = np.full(inst.n_jobs, np.nan)
        for i, s in sol.schedules.items():
            done[int(i)] = s.completion
        return cls(**{f.name: getattr(sol, f.name) for f in fields(OasisSolution)}, policy=policy,
                   **job_times(done, inst.arrival))


def schedule_utility(inst: OasisInstance, sched: JobSchedule) -> float:
    """f_i(t_hat_i - a_i) of one non-empty schedule (its completion slot ``sched.completion``)."""
    return inst.utility_of(sched.job, sched.completion)


#: A cost or payoff: a float, or an ``np.longdouble`` computed from long-double prices.
Real = float | np.floating[Any]


def schedule_cost(inst: OasisInstance, sched: JobSchedule, p: np.ndarray, q: np.ndarray) -> Real:
    """sum_t sum_h sum_r p_h^r(t) w_i^r y_ih(t) + the same for PS with q: the cost in (20).

    A float, or an ``np.longdouble`` when the prices are long double (and that type is wider).
    """
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
    """Assemble an :class:`OasisSolution`, recomputing utility and timeliness from the schedules.

    Empty schedules are dropped (the job is not admitted); the objective is the total utility.
    """
    if not isinstance(inst, OasisInstance):
        raise ArgumentError(f"inst is {inst!r:.60}; expected an OasisInstance")
    check_result_fields(status, bound, wall_time, solver, message, {} if info is None else dict(info)
                        if isinstance(info, Mapping) else info)
    if payoffs is not None and not isinstance(payoffs, Mapping):
        raise ArgumentError(f"payoffs is {payoffs!r:.60}; expected a mapping job -> payoff")
    if not isinstance(schedules, Mapping) or not all(isinstance(s, JobSchedule) for s in schedules.values()):
        raise ArgumentError(f"schedules is {schedules!r:.60}; expected a mapping job -> JobSchedule")
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
