"""Certificates for Hadar: the offline optimum against Hadar's utility and Theorem 2's 2*alpha.

``validate_ratio`` runs Hadar (Algorithm 1, rounds equal to slots, no restart delay so
that its rounds are a P1 schedule), certifies its schedule with the independent checker,
solves P1 exactly, and reports ``OPT / Hadar`` against the claimed ``2 * alpha``.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ..errors import HetoptError
from ..report import Table
from ..result import Certificate
from ..validate import ratio_certificate, summarize, sweep
from .checker import check_schedule
from .instance import HadarInstance, generate_instance
from .offline import solve_exact
from .price import competitive_bound
from .simulator import simulate

__all__ = ["hadar_p1_schedule", "validate_ratio", "ratio_sweep", "small_instance"]


def hadar_p1_schedule(inst: HadarInstance, **policy_options):
    """Hadar's schedule as a P1 schedule: rounds = slots, no restart delay; returns ``(w, check)``."""
    sim = simulate(inst, "hadar", round_length=inst.slot_length, restart_delay=0.0, **policy_options)
    w = sim.schedule().astype(np.int64)
    chk = check_schedule(inst, w)
    if not chk.ok:
        raise HetoptError(f"Hadar's schedule violates P1: {chk.violations[:3]}")
    return w, chk


def validate_ratio(inst: HadarInstance, *, time_limit: float | None = 60.0, **policy_options) -> Certificate:
    """Theorem 2 on one instance: ``OPT(P1) / U(Hadar) <= 2 alpha``?

    ``proven`` is True only when P1 was solved to certified optimality; then ``holds``
    says whether the claimed bound held.  ``info`` has the schedules' utilities, alpha,
    and the P1 status.
    """
    _, chk = hadar_p1_schedule(inst, **policy_options)
    opt = solve_exact(inst, time_limit=time_limit)
    bound = competitive_bound(inst)
    ref = opt.bound if opt.bound is not None else opt.objective
    proven = opt.is_optimal
    return ratio_certificate(chk.objective, ref, bound, sense="max", proven=proven, name="hadar 2*alpha",
                             hadar_utility=chk.objective, opt_utility=opt.objective, p1_status=opt.status.value,
                             alpha=bound / 2, opt_at_least_hadar=bool(opt.objective >= chk.objective * (1 - 1e-9)))


def small_instance(*, seed: int, n_jobs: int = 4, n_machines: int = 2) -> HadarInstance:
    """The validation sweep's instances: :func:`generate_instance` with small horizons."""
    return generate_instance(n_jobs, n_machines, seed=seed, utility="sigmoid" if seed % 2 else "effective_throughput")


def _evaluate(inst: HadarInstance) -> Certificate:
    return validate_ratio(inst)


def ratio_sweep(n: int, *, seed: int = 0, executor="serial", n_jobs: int = 4, n_machines: int = 2) -> Table:
    """Certification sweep: one row per seeded instance, then a summary."""
    certs = sweep(partial(small_instance, n_jobs=n_jobs, n_machines=n_machines), _evaluate,
                  range(seed, seed + n), executor=executor)
    t = Table(f"hadar: OPT(P1) / Hadar against 2*alpha on {n} instances ({n_jobs} jobs, {n_machines} machines)",
              ["seed", "hadar", "opt", "ratio", "2*alpha", "proven", "holds"])
    for s, c in zip(range(seed, seed + n), certs):
        t.add(s, c.value, c.reference, c.ratio, c.limit, c.proven, c.holds)
    st = summarize([c.ratio for c in certs])
    bad = [s for s, c in zip(range(seed, seed + n), certs) if c.holds is False]
    t.violations = len(bad)
    t.notes.append(f"ratio mean {st['mean']:.4g}, max {st['max']:.4g}; "
                   f"violations of 2*alpha: {bad if bad else 'none'}")
    t.notes.append(certs.note())
    return t
