"""A Gavel policy's allocation for all the jobs of an instance at once, and the certified minimum makespan.

:func:`allocate` solves one policy of :data:`~hetopt.gavel.POLICIES` for every job of an
instance (arrivals ignored, the total steps as the remaining ones) and reports the makespan the
allocation would give if it were kept until every job finished.  :func:`solve_exact` is the
exact method of the kind: the minimum of that makespan over all allocations, proven by a
feasible allocation and a dual bound that meet (:func:`~hetopt.gavel.makespan.certify_min_total_duration`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from ..certify import Status, relative_gap
from ..errors import ArgumentError, SizeLimitError
from ..inputs import check_size, check_threads, check_time_limit, takes_instance
from ..result import Solution
from .instance import GavelInstance
from .lp import check_solver
from .makespan import certify_min_total_duration
from .policies import policy_arguments, resolve_policy
from .simulator import json_number, same_fields

__all__ = ["GavelAllocation", "allocate", "solve_exact"]

#: Default size guard of :func:`solve_exact`: columns of its LP (jobs x GPU types).
MAX_LP_COLUMNS = 20_000
_OBJECTIVE = "objective: makespan if the allocation were kept until every job finished"


@dataclass(frozen=True, kw_only=True, eq=False)
class GavelAllocation(Solution):
    """A policy's allocation for every job of an instance (all present at once).

    ``objective`` is the makespan in seconds if the allocation were kept until every job
    finished (``max_j total_steps[j] / sum_r X[j, r] T[j, r]``, ``T`` the effective throughput),
    a yardstick common to all policies, recomputed from the allocation.  It is what
    min-total-duration minimizes: that policy's result (and :func:`solve_exact`'s) carries a
    proven lower bound and is OPTIMAL when the two meet; the other policies optimize their own
    objective (``models/gavel.md``), so for them the makespan is only evaluated (FEASIBLE, no bound).
    An allocation that gives a job no GPU time (FIFO's, when the jobs outnumber the GPUs: it
    queues the rest) never finishes that job: it is no schedule of all the jobs, so its status is
    INFEASIBLE and it has no objective (None; the message names the jobs left out).

    Attributes
    ----------
    policy : str
        The policy's name.
    allocation : numpy.ndarray, shape (J, R)
        Time fractions ``X``.
    job_throughput : numpy.ndarray, shape (J,)
        ``sum_r X[j, r] T[j, r]``: steps/s of each job under the allocation.
    """

    policy: str = ""
    allocation: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    job_throughput: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return same_fields(self, cast(Solution, other))

    def summary(self) -> dict[str, Any]:
        """The common fields, the policy, the allocation and the jobs' throughputs."""
        return super().summary() | {"policy": self.policy, "allocation": self.allocation.tolist(),
                                    "job_throughput": [json_number(v) for v in self.job_throughput]}


def _rates(inst: GavelInstance, X: np.ndarray) -> tuple[np.ndarray, float]:
    """Each job's steps/s under ``X`` and the makespan (``inf`` when a job gets no rate)."""
    T = inst.effective_throughput()
    rate = (X * T).sum(axis=1)
    with np.errstate(divide="ignore"):
        span = float(np.max(np.where(rate > 0, inst.total_steps / np.where(rate > 0, rate, 1.0), np.inf)))
    return rate, span


def _certified(inst: GavelInstance, time_limit: float | None, threads: int | None) -> GavelAllocation:
    t0 = time.perf_counter()
    cert = certify_min_total_duration(inst.effective_throughput(), inst.scale_factor, inst.capacity,
                                      inst.total_steps, time_limit=time_limit, threads=threads)
    rate, span = _rates(inst, cert.allocation)
    how = {Status.OPTIMAL: "proven optimal: the allocation's makespan meets the dual bound",
           Status.TIME_LIMIT: "stopped by the time limit: best allocation and best proven bound",
           Status.FEASIBLE: "the allocation's makespan and the dual bound did not meet within OPTIMAL_RTOL"}
    return GavelAllocation(status=cert.status, objective=span, bound=cert.lower_bound,
                           gap=relative_gap(span, cert.lower_bound), wall_time=time.perf_counter() - t0,
                           solver="highs", policy="min_total_duration", allocation=cert.allocation,
                           job_throughput=rate, message=f"{_OBJECTIVE}; {how[cert.status]}",
                           info={"lp_makespan": cert.lp_makespan, "lp_solves": cert.solves})


@takes_instance(GavelInstance)
def allocate(inst: GavelInstance, policy: Any, *, solver: str = "ecos") -> GavelAllocation:
    """Solve a Gavel policy for all the jobs of ``inst`` (arrivals ignored, total steps as remaining).

    Parameters
    ----------
    inst : GavelInstance
        The jobs and the cluster.
    policy : str or callable
        A name of :data:`~hetopt.gavel.POLICIES` or a callable of the policies' protocol
        (:class:`~hetopt.gavel.Policy`).  ``"min_total_duration"`` is Gavel's bisection (within
        5 % of the optimum); the certified optimum is :func:`solve_exact`.
    solver : {"ecos", "highs"}
        The policy LPs' solver (Gavel's: ECOS).

    Returns
    -------
    GavelAllocation
        Objective: the makespan if the allocation were kept until every job finished (FEASIBLE,
        no bound: the policies other than the exact LP are not proven optimal on it).  When the
        allocation leaves a job without GPU time it never finishes it: INFEASIBLE, objective None
        (a queueing policy such as FIFO has a makespan only when simulated: :func:`~hetopt.gavel.simulate`).
        ``solver`` names the solver the policy's LPs used (``"none"`` for a policy without one).

    Raises
    ------
    ArgumentError
        An unknown policy name or solver.
    """
    name, spec = resolve_policy(policy)
    solver = check_solver(solver)
    if not spec.static:
        why = ("packs pairs of jobs on the same GPUs (its allocation has rows for the pairs)" if spec.packing else
               "is a normalization reference that may exceed the GPUs there are")
        raise ArgumentError(f"policy {name!r} {why}; it has no static makespan: simulate it (hetopt.gavel.simulate)")
    t0 = time.perf_counter()
    T = inst.effective_throughput()
    ref = inst.gpu_types.index("v100") if "v100" in inst.gpu_types else 0
    kwargs = policy_arguments(spec, priority_weight=inst.priority_weight, remaining_steps=inst.total_steps,
                              times_since_start=np.zeros(inst.n_jobs), solver=solver,
                              job_ids=list(range(inst.n_jobs)), reference_type=ref,
                              time_to_slo=np.full(inst.n_jobs, np.nan), gpu_types=list(inst.gpu_types))
    X = np.asarray(spec.make(seed=0)(T, inst.scale_factor, inst.capacity, **kwargs), dtype=float)
    rate, span = _rates(inst, X)
    used = solver if spec.takes_solver else (spec.lp_solver or "none")
    idle = np.flatnonzero(~(rate > 0))
    if idle.size:  # kept until every job finished, the allocation never finishes these: no makespan
        left_out = ", ".join(map(str, idle[:10].tolist())) + (" ..." if idle.size > 10 else "")
        return GavelAllocation(
            status=Status.INFEASIBLE, objective=None, wall_time=time.perf_counter() - t0, solver=used, policy=name,
            allocation=X, job_throughput=rate,
            message=f"{_OBJECTIVE}: none, the allocation gives {idle.size} of {inst.n_jobs} jobs no GPU time (jobs "
                    f"{left_out}), so kept until every job finished it never finishes them; the policy queues them "
                    f"until GPUs free up: its schedule is a simulation, hetopt.gavel.simulate(inst, {name!r})")
    return GavelAllocation(status=Status.FEASIBLE, objective=span, wall_time=time.perf_counter() - t0,
                           solver=used, policy=name, allocation=X, job_throughput=rate, message=_OBJECTIVE)


@takes_instance(GavelInstance)
def solve_exact(inst: GavelInstance, *, time_limit: float | None = None, mip_gap: float | None = None,
                threads: int | None = 1, max_size: int | None = MAX_LP_COLUMNS) -> GavelAllocation:
    """The certified minimum makespan of ``inst`` (all jobs present at once): min-total-duration's exact LP.

    The LP (``models/gavel.md``, (G1)-(G3) and (G5)) is solved with HiGHS; its allocation is made
    exactly feasible and its makespan recomputed from the data (the objective, an upper bound),
    and its duals give a lower bound that does not trust the solver (the ``bound``).

    Parameters
    ----------
    inst : GavelInstance
        The jobs (arrivals ignored) and the cluster.
    time_limit : float, optional
        Seconds for the LP solves (None: no limit).
    mip_gap : None
        The exact route is an LP solved to optimality: there is no MIP gap to set, and any value
        but None is an :class:`~hetopt.errors.ArgumentError` (the name is every kind's).
    threads : int, optional
        HiGHS threads of the LP solves; 1 by default, as in every kind; None: HiGHS's default.
    max_size : int, optional
        Size guard, in columns of the LP (one per job and GPU type, J R), counted before anything
        is built: default :data:`MAX_LP_COLUMNS` (the LP and its certification took 4 s at 5,000 jobs
        and 3 types, more than 30 s at 10,000); None: no guard.

    Returns
    -------
    GavelAllocation
        OPTIMAL only when the objective and the bound meet within ``OPTIMAL_RTOL``; TIME_LIMIT
        with the best allocation and the best proven bound when the limit stopped the LP;
        FEASIBLE with both otherwise.  ``info``: the LP's own makespan and the LPs solved.

    Raises
    ------
    ArgumentError
        A bad ``time_limit``, ``threads`` or ``max_size``, or a ``mip_gap``.
    SizeLimitError
        More than ``max_size`` columns.

    Examples
    --------
    >>> import hetopt
    >>> sol = solve_exact(hetopt.load_instance("gavel2020_three_jobs"))
    >>> sol.status.value, round(sol.objective, 6), sol.gap < 1e-6
    ('optimal', 3600.0, True)
    """
    if mip_gap is not None:
        raise ArgumentError(f"mip_gap is {mip_gap!r}; gavel's exact route is an LP solved to optimality, with no MIP "
                            "gap: pass None")
    time_limit, threads = check_time_limit(time_limit), check_threads(threads)
    if max_size is not None:
        max_size = check_size(max_size, "max_size")
        cols = int(inst.n_jobs) * int(inst.n_types)
        if cols > max_size:
            raise SizeLimitError(f"solve_exact: the LP has {cols:,} columns ({inst.n_jobs:,} jobs x {inst.n_types} GPU "
                                 f"types), above max_size={max_size:,}: pass max_size={cols} (with time_limit=... to "
                                 "bound the run) or max_size=None")
    return _certified(inst, time_limit, threads)

