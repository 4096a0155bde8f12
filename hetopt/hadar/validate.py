"""Certificates for Hadar: the offline optimum against Hadar's utility and Theorem 2's 2*alpha.

``validate_ratio`` runs Hadar (Algorithm 1, rounds equal to slots, no restart delay so
that its rounds are a P1 schedule), certifies its schedule with the independent checker,
solves P1 exactly, and reports ``OPT / Hadar`` against the claimed ``2 * alpha``.
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Mapping
from functools import partial
from typing import Any

import numpy as np

from ..errors import ArgumentError, ScheduleViolation, a_type
from ..inputs import MAX_SEED, check_size, check_time_limit, takes_instance
from ..result import Certificate, CheckReport
from ..validate import SweepResults, ratio_certificate, sweep
from .checker import check_schedule
from .instance import HadarInstance, generate_instance
from .offline import solve_exact
from .policies import make_policy
from .price import competitive_bound
from .simulator import simulate

__all__ = ["hadar_p1_schedule", "validate_ratio", "ratio_sweep", "small_instance"]


@takes_instance(HadarInstance)
def hadar_p1_schedule(inst: HadarInstance, *,
                      options: Mapping[str, Any] | None = None) -> tuple[np.ndarray, CheckReport]:
    """Hadar's schedule as a P1 schedule: rounds = slots, no restart delay; returns ``(w, check)``.

    ``options`` go to :class:`~hetopt.hadar.policies.HadarPolicy` (as in :func:`simulate`).

    Raises
    ------
    ScheduleViolation
        When Hadar's rounds break a constraint of P1 (the checker's violations in the message).
    """
    sim = simulate(inst, "hadar", options=options, round_length=inst.slot_length, restart_delay=0.0)
    w = sim.schedule().astype(np.int64)
    chk = check_schedule(inst, w)
    if not chk.ok:
        raise ScheduleViolation(f"Hadar's schedule violates P1: {chk.violations[:3]}")
    return w, chk


@takes_instance(HadarInstance)
def validate_ratio(inst: HadarInstance, *, time_limit: float | None = 60.0,
                   options: Mapping[str, Any] | None = None) -> Certificate:
    """Theorem 2 on one instance: is ``OPT(P1) / U(Hadar) <= 2 alpha``.

    ``proven`` is True only when P1 was solved to certified optimality; then ``holds``
    says whether the claimed bound held.  ``info`` has the schedules' utilities, alpha,
    and the P1 status.  ``options`` go to :class:`~hetopt.hadar.policies.HadarPolicy`
    (``{"beam_width": 1}``: the greedy pass), as in :func:`simulate`.

    Raises
    ------
    ArgumentError
        A bad ``time_limit`` or policy option (before anything runs).
    """
    time_limit = check_time_limit(time_limit)
    if options is not None and not isinstance(options, Mapping):
        raise ArgumentError(f"options is {a_type(options)}; expected a mapping of the policy's options or None")
    make_policy("hadar", **dict(options or {}))  # the options are checked before anything runs
    _, chk = hadar_p1_schedule(inst, options=options)
    opt = solve_exact(inst, time_limit=time_limit)
    bound = competitive_bound(inst)
    assert chk.objective is not None and opt.objective is not None
    ref = opt.bound if opt.bound is not None else opt.objective
    proven = opt.is_optimal
    return ratio_certificate(chk.objective, ref, bound, sense="max", proven=proven, name="hadar 2*alpha",
                             hadar_utility=chk.objective, opt_utility=opt.objective, p1_status=opt.status.value,
                             alpha=bound / 2, opt_at_least_hadar=bool(opt.objective >= chk.objective * (1 - 1e-9)))


def small_instance(*, seed: int, n_jobs: int = 4, n_machines: int = 2) -> HadarInstance:
    """The validation sweep's instances: :func:`generate_instance` with small horizons.

    Odd seeds draw sigmoid utilities, even seeds the effective throughput.
    """
    check_size(seed, "seed", minimum=0, maximum=MAX_SEED)
    return generate_instance(n_jobs=n_jobs, n_machines=n_machines, seed=seed,
                             utility="sigmoid" if seed % 2 else "effective_throughput")


def _evaluate(inst: HadarInstance) -> Certificate:
    return validate_ratio(inst)


def _check_executor(executor: Any) -> None:
    """None, "serial", a positive int, an Executor or a dask Client; ArgumentError otherwise."""
    if executor is None or executor == "serial" and isinstance(executor, str):
        return
    if isinstance(executor, int) and not isinstance(executor, bool):
        check_size(executor, "executor")
        return
    if isinstance(executor, cf.Executor) or (hasattr(executor, "map") and hasattr(executor, "gather")):
        return
    raise ArgumentError(f"executor is {executor!r}; expected None, 'serial', a positive int, an Executor or a dask "
                        "Client")


def ratio_sweep(n: int, *, seed: int = 0, executor: Any = "serial", n_jobs: int = 4,
                n_machines: int = 2) -> SweepResults:
    """Theorem 2 on ``n`` seeded instances: one :class:`~hetopt.result.Certificate` per seed.

    Seeds ``seed, ..., seed + n - 1`` draw :func:`small_instance` (``n_jobs`` jobs on
    ``n_machines`` machines); each certificate compares the certified optimum of P1 with
    Hadar's utility against the claimed ``2 alpha`` (:func:`validate_ratio`).

    Parameters
    ----------
    n : int
        Number of seeds.
    seed : int
        First seed.
    executor : see :func:`hetopt.validate.sweep`
        Default "serial" (in this process).
    n_jobs, n_machines : int
        Size of the instances.

    Returns
    -------
    SweepResults
        The certificates in seed order, with ``seeds`` and ``distinct_instances``.
    """
    check_size(n, "n")
    check_size(seed, "seed", minimum=0, maximum=MAX_SEED - n)
    check_size(n_jobs, "n_jobs")
    check_size(n_machines, "n_machines")
    _check_executor(executor)
    return sweep(partial(small_instance, n_jobs=n_jobs, n_machines=n_machines), _evaluate,
                 range(seed, seed + n), executor=executor)
