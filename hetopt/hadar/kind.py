"""Hadar / HadarE in the registry (:class:`hetopt.contract.Kind`)."""

from __future__ import annotations

import functools

import pyomo.environ as pyo

from ..contract import Kind, Method
from ..inputs import check_example
from ..report import Table
from ..validate import SweepResults, summarize
from .checker import check_schedule
from .instance import HadarInstance, generate_instance
from .model import build_p1
from .offline import solve_exact
from .policies import POLICIES
from .simulator import simulate
from .validate import ratio_sweep, validate_ratio

__all__ = ["KIND", "example", "export_model", "validate", "sweep_table"]

_P1 = "total utility of P1, sum_j U_j(finish_j) (maximized)"
_SIM = "total utility of the simulated schedule, sum_j U_j(JCT_j) (maximized)"

_POLICY_TEXT = {
    "hadar": ("heuristic", "Hadar (Algorithm 1): in every round, the DP allocation of Algorithm 2 over the queue "
                           "at fresh prices, simulated with one-slot rounds and the 10 s restart delay."),
    "hadare": ("heuristic", "HadarE (Section V-A): Hadar on forked copies of the jobs, simulated with one-slot "
                            "rounds and the 10 s restart delay."),
    "gavel": ("baseline", "Gavel's heterogeneity-aware max-min fairness with the round mechanism of its "
                          "scheduler, simulated with one-slot rounds and the 10 s restart delay."),
    "tiresias": ("baseline", "Tiresias (discretized 2D-LAS): two priority queues by attained GPU-seconds, "
                             "PromoteKnob off."),
    "yarn_cs": ("baseline", "The YARN capacity scheduler: non-preemptive FIFO over any free GPUs "
                            "(heterogeneity-unaware)."),
}


def example(*, seed: int, size: int) -> HadarInstance:
    """A small instance: 2-4 jobs on 2 machines."""
    seed, size = check_example(seed, size)
    return generate_instance(n_jobs=2 + size % 3, n_machines=2, seed=seed)


def sweep_table(certs: SweepResults, *, n_jobs: int = 4, n_machines: int = 2) -> Table:
    """The table of a :func:`~hetopt.hadar.validate.ratio_sweep`: one row per seed, then a summary."""
    t = Table(f"hadar: OPT(P1) / Hadar against 2*alpha on {len(certs)} instances ({n_jobs} jobs, {n_machines} "
              "machines)", ["seed", "hadar", "opt", "ratio", "2*alpha", "proven", "holds"])
    for s, c in zip(certs.seeds, certs, strict=True):
        t.add(s, c.value, c.reference, c.ratio, c.limit, c.proven, c.holds)
    st = summarize([c.ratio for c in certs])
    bad = [s for s, c in zip(certs.seeds, certs, strict=True) if c.holds is False]
    t.violations = len(bad)
    t.notes.append(f"ratio mean {st['mean']:.4g}, max {st['max']:.4g}; "
                   f"violations of 2*alpha: {bad if bad else 'none'}")
    t.notes.append(certs.note())
    return t


def validate(n: int, *, seed: int) -> Table:
    """Certified OPT(P1) against Hadar's utility and 2*alpha on ``n`` seeded small instances."""
    return sweep_table(ratio_sweep(n, seed=seed, executor="serial"))


def export_model(inst: HadarInstance) -> pyo.ConcreteModel:
    """P1 as the exact time-indexed MILP."""
    return build_p1(inst)


KIND = Kind(
    name="hadar",
    title='Sultana et al., "Resource Heterogeneity-Aware and Utilization-Enhanced Scheduling for Deep Learning '
          'Clusters" (Hadar / HadarE)',
    instance=HadarInstance,
    generate_instance=generate_instance,
    example=example,
    check_schedule=check_schedule,
    solve_exact=solve_exact,
    simulate=simulate,
    policies=POLICIES,
    validate=validate,
    validate_ratio=validate_ratio,
    ratio_sweep=ratio_sweep,
    export_model=export_model,
    card="models/hadar2024.md",
    example_instance="hadar2024_small",
    plot="hetopt.hadar.experiments.plot:gantt",
    claims="hetopt.hadar.experiments.claims",
    bench="hetopt.hadar.experiments.bench",
    depends_on=("gavel",),
    methods=(
        Method("exact", solve_exact, "exact", "The certified optimum of P1 (or the incumbent and the dual bound "
               "when time-limited).", _P1, default=True),
        *(Method(name, functools.partial(simulate, policy=name), *_POLICY_TEXT[name], _SIM) for name in POLICIES),
    ),
)
