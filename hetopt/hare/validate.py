"""Certification sweeps for Hare: Theorem 4's alpha(2+alpha) over seeded small instances."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import numpy as np

from ..report import Table
from ..validate import SweepResults, sweep
from .generators import random_instance
from .instance import HareInstance
from .ratio import RatioReport, ratio_report

__all__ = ["sweep_instance", "ratio_sweep", "ratio_table"]


def sweep_instance(*, seed: int, n_jobs: int = 3, n_gpus: int = 2, max_total_tasks: int = 6) -> HareInstance:
    """The instance of seed ``seed`` in a sweep: even seeds heterogeneous, odd seeds homogeneous.

    Homogeneous instances have ``alpha = 1`` and the tightest claimed bound, 3; they are
    part of the generator on purpose, never filtered out.
    """
    return random_instance(seed=seed, n_jobs=n_jobs, n_gpus=n_gpus, max_rounds=2, max_tasks=2,
                           max_total_tasks=max_total_tasks, homogeneous=bool(seed % 2), max_weight=5)


def _evaluate(inst, *, time_limit: float, save_dir: str | None, subsets: bool) -> RatioReport:
    name = "hare2022_violation_" + hashlib.sha1(inst.to_json().encode()).hexdigest()[:10]
    return ratio_report(inst, time_limit=time_limit, save_dir=save_dir, name=name, subsets=subsets)


def ratio_sweep(n: int, *, seed: int = 0, time_limit: float = 30.0, save_dir: str | Path | None = None,
                subsets: bool = False, executor=None, **instance_kwargs) -> list[RatioReport]:
    """:func:`ratio_report` on ``n`` seeded instances (seeds ``seed .. seed + n - 1``).

    Parameters
    ----------
    n, seed : int
    time_limit : float
        Per solve.
    save_dir : path, optional
        Where violating instances are written as JSON.
    subsets : bool
        (9) on every subset instead of the full set.
    executor
        See :func:`hetopt.validate.sweep` (default: a local process pool).
    **instance_kwargs
        Passed to :func:`sweep_instance`.
    """
    make = functools.partial(sweep_instance, **instance_kwargs)
    ev = functools.partial(_evaluate, time_limit=time_limit, save_dir=None if save_dir is None else str(save_dir),
                           subsets=subsets)
    return sweep(make, ev, range(seed, seed + n), executor=executor)


def ratio_table(reports: list[RatioReport], *, seed: int = 0) -> Table:
    """One row per instance and a summary note: ratios against optimum and relaxation."""
    t = Table("Hare: Algorithm 1 against alpha(2+alpha) (Theorem 4)",
              ["seed", "alpha", "alpha(2+alpha)", "ALG", "OPT", "RL bound", "ALG/OPT", "ALG/RL",
               "holds vs RL", "holds vs OPT"])
    for k, r in enumerate(reports):
        t.add(seed + k, r.alpha, r.limit, r.algorithm1, r.optimum, r.relaxation_bound,
              r.vs_optimum.ratio if r.vs_optimum else None, r.vs_relaxation.ratio if r.vs_relaxation else None,
              r.vs_relaxation.holds if r.vs_relaxation else None, r.vs_optimum.holds if r.vs_optimum else None)
    ro = [r.vs_optimum.ratio for r in reports if r.vs_optimum is not None and r.optimum_proven]
    rr = [r.vs_relaxation.ratio for r in reports if r.vs_relaxation is not None]
    viol = [seed + k for k, r in enumerate(reports) if r.theorem_violated]
    chain = [seed + k for k, r in enumerate(reports) if r.chain_broken]
    t.violations = len(set(viol) | set(chain))
    if ro:
        t.notes.append(f"ALG/OPT over {len(ro)} certified instances: mean {np.mean(ro):.4g}, max {np.max(ro):.4g}")
    if rr:
        t.notes.append(f"ALG/RL bound: mean {np.mean(rr):.4g}, max {np.max(rr):.4g}")
    t.notes.append(f"violations of alpha(2+alpha) (ALG/OPT, the theorem): {len(viol)}" + (f" (seeds {viol})" if viol else ""))
    t.notes.append(f"broken proof chains (ALG/RL bound above alpha(2+alpha)): {len(chain)}"
                   + (f" (seeds {chain})" if chain else ""))
    t.notes += [f"saved: {r.saved}" for r in reports if r.saved]
    if isinstance(reports, SweepResults):
        t.notes.append(reports.note())
    return t
