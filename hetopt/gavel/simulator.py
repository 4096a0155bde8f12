"""Gavel's round simulator: a policy's allocation turned into rounds by one of two event loops.

``simulate(inst, policy, *, mechanism="gavel", solver="ecos", ...)``.  The default is Gavel's
own simulator (``scheduler.py``'s ``Scheduler.simulate`` as its trace driver runs it, behaviours
(a)-(h) of :mod:`hetopt.gavel.rounds`) with the policy LPs posed as Gavel poses them and solved
by ECOS (:mod:`hetopt.gavel.lp`): it reproduces Gavel's runs (the parity table,
``hetopt bench gavel --parity``).  ``mechanism="clean"`` is hetopt's idealised loop (real-valued
steps, rounds of exactly the round length, no forced reset; :class:`~hetopt.gavel.clean_rounds.CleanRounds`);
``solver="highs"`` solves hetopt's scaled LPs instead (vertex solutions).  The event loops live
in :mod:`hetopt.gavel.rounds` behind one interface (:data:`~hetopt.gavel.rounds.MECHANISMS`); the
policies in :data:`~hetopt.gavel.POLICIES`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Self, cast

import numpy as np

from ..certify import Status
from ..errors import ArgumentError, HetoptError, ScheduleViolation, SizeLimitError
from ..inputs import MAX_SEED, check_choice, check_flag, check_positive, check_size, takes_instance
from ..result import SimulationResult, Solution
from .instance import GavelInstance
from .lp import check_solver
from .mechanism import ALLOCATION_TOL, DEFAULT_RECOMPUTE_INTERVAL, DEFAULT_ROUND_LENGTH, fastest_first
from .policies import PolicySpec, lp_path, policy_arguments, resolve_policy
from .round_loop import DONE_RTOL, Allocator, RunOptions
from .rounds import MECHANISMS

__all__ = ["GavelSimulation", "simulate", "make_allocator", "pair_table", "DONE_RTOL", "MECHANISMS"]


def same_fields(a: Solution, b: Solution) -> bool:
    """Equality of two results by their JSON fields (arrays compared by value, NaN equal to NaN; ``info`` left out)."""
    da, db = a.to_dict(), b.to_dict()
    da.pop("info", None)
    db.pop("info", None)
    return da == db


def json_number(x: Any) -> float | str:
    """A float for JSON: finite values as floats, ``inf`` / ``nan`` as strings (as ``Solution.to_dict`` writes them)."""
    v = float(x)
    return v if math.isfinite(v) else str(v)


@dataclass(frozen=True, kw_only=True, eq=False)
class GavelSimulation(SimulationResult):
    """Result of :func:`simulate`; ``objective`` is the average JCT in seconds.

    The fields of :class:`~hetopt.result.SimulationResult` in seconds: ``policy`` (a key of
    :data:`~hetopt.gavel.POLICIES`, or a callable's ``__name__``), ``completion`` (from time 0),
    ``jct`` (``completion - arrival``), ``average_jct`` and ``makespan`` (the last completion).

    Attributes
    ----------
    recomputations : int
        Times the policy was solved.
    recompute_times : list of float
        When (seconds).
    rounds : list of dict
        ``{"start", "end", "placement": {job: type}}`` per round (when recorded).
    """

    recomputations: int = 0
    recompute_times: list[float] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return same_fields(self, cast(Solution, other))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The simulation whose :meth:`to_dict` is ``data`` (placements keyed by job index again)."""
        d = dict(data)
        if isinstance(d.get("rounds"), list):
            d["rounds"] = [_round_from_json(rd) for rd in d["rounds"]]
        return super().from_dict(d)

    def summary(self) -> dict[str, Any]:
        """The common fields, the policy, average JCT, makespan, recomputations, rounds, completions and JCTs."""
        return super().summary() | {
            "policy": self.policy, "average_jct": json_number(self.average_jct), "makespan": json_number(self.makespan),
            "recomputations": self.recomputations, "rounds": len(self.rounds),
            "completion": [json_number(v) for v in self.completion], "jct": [json_number(v) for v in self.jct]}


def _round_from_json(rd: Any) -> Any:
    if not isinstance(rd, Mapping) or not isinstance(rd.get("placement"), Mapping):
        return rd
    out = {**rd, "placement": {int(j): int(r) for j, r in rd["placement"].items()}}
    if isinstance(rd.get("seconds"), Mapping):
        out["seconds"] = {int(j): float(v) for j, v in rd["seconds"].items()}
    return out


def _type_order(type_order: Any, T: np.ndarray) -> list[int] | None:
    """``type_order`` checked: None, ``"fastest"`` or a permutation of the GPU types."""
    R = T.shape[1]
    if type_order is None:
        return None
    if isinstance(type_order, str):
        if type_order != "fastest":
            raise ArgumentError(f"type_order is {type_order!r}; expected 'fastest' or a permutation of the types")
        return fastest_first(T)
    if not isinstance(type_order, Sequence | np.ndarray) or \
            any(isinstance(r, bool) or not isinstance(r, int | np.integer) for r in type_order) or \
            sorted(int(r) for r in type_order) != list(range(R)):
        raise ArgumentError(f"type_order is {type_order!r}; expected 'fastest' or a permutation of 0..{R - 1}")
    return [int(r) for r in type_order]


def _checked_allocation(name: str, X: Any, jobs: np.ndarray, R: int) -> np.ndarray:
    """The policy's allocation for ``jobs``; :class:`ScheduleViolation` if it breaks (G1)-(G2) or its shape."""
    A = np.asarray(X, dtype=float)
    if A.shape != (jobs.size, R):
        raise ScheduleViolation(f"policy {name!r} returned an allocation of shape {A.shape} for {jobs.size} jobs and "
                                f"{R} GPU types; expected ({jobs.size}, {R})")
    bad = np.argwhere(~np.isfinite(A) | (A < -ALLOCATION_TOL) | (A > 1 + ALLOCATION_TOL))
    if bad.size:
        i, r = (int(v) for v in bad[0])
        raise ScheduleViolation(f"(G1) policy {name!r}: allocation of job {int(jobs[i])} on type {r} is {A[i, r]!r}; "
                                "time fractions are finite and in [0, 1]")
    rows = A.sum(axis=1)
    over = np.flatnonzero(rows > 1 + ALLOCATION_TOL)
    if over.size:
        i = int(over[0])
        raise ScheduleViolation(f"(G2) policy {name!r}: the allocation of job {int(jobs[i])} sums to {rows[i]:.6g} > 1")
    return A


#: Default size guard of :func:`simulate` (queue entries visited: rounds x jobs x types).
DEFAULT_MAX_WORK = 1e8


def _size_guard(inst: GavelInstance, round_length: float, max_size: Any) -> None:
    """Refuse a simulation whose work estimate (a lower bound) exceeds ``max_size``."""
    if max_size is None:
        return
    limit = check_positive(max_size, "max_size")
    from .makespan import makespan_reference

    T = inst.effective_throughput()
    alone = inst.arrival + inst.total_steps / T.max(axis=1)
    span = max(makespan_reference(T, inst.scale_factor, inst.capacity, inst.total_steps), float(alone.max()))
    work = span / round_length * inst.n_jobs * inst.n_types
    if work > limit:
        raise SizeLimitError(f"simulate: {inst.n_jobs} jobs need at least {span / round_length:.3g} rounds of "
                             f"{round_length:g} s (a makespan lower bound), about {work:.3g} queue entries to visit "
                             f"(> max_size={limit:.3g}, a minute and a half per 1e8); pass max_size=None (or a larger "
                             "max_size) to run it anyway, or simulate fewer jobs")


def pair_table(inst: GavelInstance) -> Callable[[int, int], np.ndarray | None]:
    """``pair(a, b) -> (R, 2)``: jobs ``a`` and ``b`` sharing a GPU of each type (Gavel's pair throughputs).

    None for a pair Gavel's table has no measurement for (a job type or a GPU type it does not know):
    such jobs are never packed together (the packing policies then run them alone).
    """
    from .traces import GPU_TYPES, pair_throughputs

    known = all(g in GPU_TYPES for g in inst.gpu_types)
    cols = [GPU_TYPES.index(g) for g in inst.gpu_types] if known else []
    table = pair_throughputs()

    def pair(a: int, b: int) -> np.ndarray | None:
        key = ((inst.job_types[a], int(inst.scale_factor[a])), (inst.job_types[b], int(inst.scale_factor[b])))
        if not known or key not in table:
            return None
        return table[key][cols]

    return pair


def _known(p: np.ndarray | None) -> np.ndarray:
    if p is None:  # the loop forms only pairs that have a measurement
        raise HetoptError("internal: a pair without Gavel's measurement reached the policy")
    return p


def _reference_type(inst: GavelInstance, cols: np.ndarray) -> int:
    """The policy column of Gavel's reference type (``v100``; else the instance's first type with GPUs)."""
    names = [inst.gpu_types[int(r)] for r in cols]
    return names.index("v100") if "v100" in names else int(np.argmin(cols))


def _check_options(name: str, policy: Callable[..., Any], options: Mapping[str, Any]) -> None:
    """Every key of ``options`` must be a keyword the policy takes (ArgumentError naming it)."""
    import inspect

    try:
        params = inspect.signature(policy).parameters
    except (TypeError, ValueError):
        return
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return
    fixed = {"throughput", "scale_factor", "capacity"}
    for key in options:
        if key not in params or key in fixed:
            allowed = sorted(k for k, p in params.items() if p.kind is p.KEYWORD_ONLY)
            raise ArgumentError(f"options has {key!r}, which policy {name!r} does not take; its options: "
                                f"{allowed}")


def make_allocator(inst: GavelInstance, name: str, spec: PolicySpec, columns: list[int], throughput: np.ndarray,
                   solver: str, options: Mapping[str, Any], *, seed: int,
                   pairs_of: Callable[[int, int], np.ndarray | None] | None) -> Allocator:
    """The allocation of the jobs present: ``spec`` called on the policy's columns, checked, back in instance columns."""
    cols = np.asarray(columns, dtype=np.int64)
    cap = inst.capacity[cols]
    opts = dict(options)
    deadline = opts.pop("slo_deadline", None) if "time_to_slo" in spec.inputs else None
    if deadline is not None:
        deadline = np.asarray(deadline, dtype=float)
        if deadline.shape != (inst.n_jobs,) or np.any(np.isinf(deadline)):
            raise ArgumentError(f"options['slo_deadline'] has shape {deadline.shape} or an infinite entry; "
                                f"expected ({inst.n_jobs},) absolute seconds (NaN: no SLO)")
    policy = spec.make(seed=seed)
    _check_options(name, policy, opts)
    names = [inst.gpu_types[int(r)] for r in cols]
    ref = _reference_type(inst, cols)

    def allocate(jobs: np.ndarray, now: float, remaining: np.ndarray, since: np.ndarray,
                 pairs: list[tuple[int, int]]) -> np.ndarray:
        more: dict[str, Any] = {"job_ids": jobs.tolist(), "reference_type": ref, "gpu_types": names,
                                "time_to_slo": (np.full(jobs.size, np.nan) if deadline is None else deadline[jobs] - now)}
        kwargs = policy_arguments(spec, priority_weight=inst.priority_weight[jobs], remaining_steps=remaining,
                                  times_since_start=since, solver=solver if spec.takes_solver else None, **more)
        if spec.packing:
            row = {int(j): i for i, j in enumerate(jobs.tolist())}
            kwargs["pairs"] = [(row[a], row[b]) for a, b in pairs]
            kwargs["pair_throughput"] = (np.array([_known(pairs_of(a, b))[cols] for a, b in pairs]) if pairs and pairs_of
                                         else np.zeros((0, cols.size, 2)))
        X = policy(throughput[np.ix_(jobs, cols)], inst.scale_factor[jobs], cap, **kwargs, **opts)
        rows = jobs.size + (len(pairs) if spec.packing else 0)
        full = np.zeros((rows, inst.n_types))
        full[:, cols] = _checked_allocation(name, X, np.arange(rows), cols.size)
        return full

    return allocate


@takes_instance(GavelInstance)
def simulate(inst: GavelInstance, policy: Any, *, options: Mapping[str, Any] | None = None, mechanism: str = "gavel",
             solver: str = "ecos", recompute_interval: float = DEFAULT_RECOMPUTE_INTERVAL,
             round_length: float = DEFAULT_ROUND_LENGTH, type_order: Any = None, seed: int = 0,
             max_rounds: int = 1_000_000, record_rounds: bool = True, max_size: float | None = DEFAULT_MAX_WORK,
             pair_throughput: Callable[[int, int], np.ndarray | None] | None = None,
             lp: str = "direct") -> GavelSimulation:
    """Simulate Gavel on a workload until every job completes.

    Parameters
    ----------
    inst : GavelInstance
        The workload.
    policy : str or callable
        A name of :data:`hetopt.gavel.POLICIES` or a callable of the policies' protocol
        (:class:`hetopt.gavel.Policy`, ``models/gavel.md``, *Plug-in protocol*).
    options : mapping, optional
        Extra keyword options of the policy function (e.g. ``{"method": "exact"}`` for
        ``min_total_duration``, ``{"normalization": "isolated"}`` for ``max_min_fairness``).
    mechanism : {"gavel", "clean"}
        ``"gavel"`` (default): Gavel's own event loop (:class:`~hetopt.gavel.rounds.GavelRounds`,
        behaviours (a)-(h): whole steps per round, resets as Gavel's ``_update_priorities`` does them,
        a forced reset on an idle cluster, ...); the policy gets the raw throughputs and the types
        with GPUs in name order, as Gavel's ``flatten``.  ``"clean"``: hetopt's idealised loop
        (:class:`~hetopt.gavel.clean_rounds.CleanRounds`; effective throughputs, instance column order).
    solver : {"ecos", "highs"}
        The built-in policies' LP solver (``"ecos"``: Gavel's, its interior solutions).
    recompute_interval : float
        Minimum seconds between recomputations of the allocation (Gavel: 1,920); >= 0.
    round_length : float
        Seconds per round (Gavel: 360); > 0.
    type_order : sequence of int or "fastest", optional
        Order of the per-type queues: default the instance's columns (``gpu_types`` are listed
        fastest first, as Gavel's V100, P100, K80); ``"fastest"`` orders them by
        :func:`~hetopt.gavel.mechanism.fastest_first`.
    seed : int
        Gavel's driver seed (``--seed``): the type shuffler of the heterogeneity-agnostic policies
        uses ``seed + 5``, as Gavel's scheduler does.
    max_rounds : int
        Stop with ``HetoptError`` after this many rounds.
    record_rounds : bool
        Keep each round's placement in ``rounds`` (:func:`~hetopt.gavel.check_schedule` reads them)
        and each allocation in ``info["allocations"]``.
    max_size : float or None
        Size guard, in queue entries visited: the loop visits every job's queue entries every round,
        so its work is at least ``rounds x jobs x types`` with ``rounds`` the makespan lower bound over
        the round length; above ``max_size`` (default :data:`DEFAULT_MAX_WORK`, 1e8, about a minute and
        a half) the simulation is refused with the estimate.  None lifts the guard.
    pair_throughput : callable, optional
        For the packing policies only: ``pair_throughput(a, b) -> (R, 2)`` steps/s of jobs ``a`` and ``b``
        (instance indices) sharing a GPU of each type, in the instance's columns, or None for a pair that
        is never packed.  Default: Gavel's measured pair throughputs (:func:`pair_table`).  The claims use
        it to replace the measurements by time-slicing (each job at half its own throughput).
    lp : {"direct", "cvxpy"}
        How a built-in LP policy reaches ECOS (:data:`~hetopt.gavel.policies.LP_PATHS`): ``"direct"``
        (default) hands ECOS the arrays CVXPY would build (:mod:`hetopt.gavel.fastlp`, ``fastlp_packed``,
        ``fastlp_more``; the same
        allocations to the bit, without CVXPY's canonicalization, most of a run's time); ``"cvxpy"``
        calls the policy functions as they are.  Options other than a policy's defaults, and
        ``solver="highs"``, go through CVXPY either way.

    Returns
    -------
    GavelSimulation

    Raises
    ------
    ArgumentError
        An unknown policy, mechanism or solver name, or a bad option (naming it).
    ScheduleViolation
        The policy returned an allocation that breaks (G1)-(G2) or has the wrong shape.
    SizeLimitError
        The estimated work is above ``max_size``.
    HetoptError
        Jobs that can never run, or ``max_rounds`` rounds without finishing.

    Examples
    --------
    >>> import hetopt
    >>> sim = simulate(hetopt.load_instance("gavel2020_three_jobs"), "max_min_fairness")
    >>> round(sim.average_jct, 3)
    3600.0
    """
    name, spec = resolve_policy(policy)
    spec = lp_path(name, spec, lp)
    mech = MECHANISMS[check_choice(mechanism, "mechanism", tuple(MECHANISMS))]
    solver = check_solver(solver)
    recompute_interval = check_positive(recompute_interval, "recompute_interval", allow_zero=True)
    round_length = check_positive(round_length, "round_length")
    max_rounds = check_size(max_rounds, "max_rounds")
    record_rounds = check_flag(record_rounds, "record_rounds")
    seed = check_size(seed, "seed", minimum=0, maximum=MAX_SEED - 5)
    opts = _policy_options(options)
    _size_guard(inst, round_length, max_size)
    t0 = time.perf_counter()
    T = inst.throughput if mech.name == "gavel" else inst.effective_throughput()
    order = _type_order(type_order, inst.effective_throughput())
    run_opts = RunOptions(round_length=round_length, recompute_interval=recompute_interval,
                          type_order=list(range(inst.n_types)) if order is None else order,
                          shuffle_types=spec.shuffle_types and mech.name == "gavel",
                          skip_zero_priority=spec.skip_zero_priority, seed=int(seed), max_rounds=max_rounds,
                          record_rounds=record_rounds)
    if pair_throughput is not None and not callable(pair_throughput):
        raise ArgumentError(f"pair_throughput is {pair_throughput!r}; expected a callable (a, b) -> (R, 2) or None")
    pairs_of = (pair_throughput or pair_table(inst)) if spec.packing else None
    if pairs_of is not None:
        run_opts = replace(run_opts, pair_throughput=pairs_of)
    allocate = make_allocator(inst, name, spec, mech.policy_columns(inst), np.asarray(T, dtype=float), solver, opts,
                              seed=int(seed), pairs_of=pairs_of)
    run = mech.run(inst, allocate, run_opts)
    info: dict[str, Any] = {"mechanism": mech.name, "solver": solver, "lp": lp}
    return _simulation(inst, name, run, info, record_rounds, time.perf_counter() - t0)


def _policy_options(options: Any) -> dict[str, Any]:
    """The policy's keyword options, checked: a mapping with string keys."""
    if options is not None and not isinstance(options, Mapping):
        raise ArgumentError(f"options is {options!r}; expected a mapping of keyword options")
    opts = dict(options or {})
    if any(not isinstance(k, str) for k in opts):
        raise ArgumentError(f"options has a key that is not a string: {sorted(map(repr, opts))}")
    return opts


def _simulation(inst: GavelInstance, name: str, run: Any, info: dict[str, Any], record_rounds: bool,
                wall_time: float) -> GavelSimulation:
    """The result of a finished run of the round loop."""
    completion = run.completion
    jct = completion - inst.arrival
    avg = float(jct.mean())
    info.update(n_rounds=run.n_rounds, reset_reasons=list(run.reset_reasons))
    if record_rounds:
        info["allocations"] = [{"t": t, "allocation": {(f"({j[0]}, {j[1]})" if isinstance(j, tuple) else int(j)):
                                                       [float(v) for v in row] for j, row in a.items()}}
                               for t, a in run.allocations]
    return GavelSimulation(status=Status.FEASIBLE, objective=avg, wall_time=wall_time,
                           solver=f"gavel:{name}", policy=name, completion=completion, jct=jct, average_jct=avg,
                           makespan=float(completion.max()), recomputations=len(run.reset_times),
                           recompute_times=list(run.reset_times), rounds=run.rounds, info=info)
