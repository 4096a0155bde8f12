"""Certification sweeps for Hare: Theorem 4's alpha(2+alpha) over seeded small instances.

:func:`ratio_sweep` returns a :class:`~hetopt.validate.SweepResults` of
:class:`~hetopt.result.Certificate` objects (one per seed, the certificate of
:func:`hetopt.hare.ratio.validate_ratio` with the whole report in ``info``); :func:`ratio_table`
turns it into the table of ``hetopt validate hare``.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ArgumentError
from ..inputs import MAX_SEED, check_flag, check_seed, check_size, check_time_limit
from ..report import Table
from ..result import Certificate
from ..validate import SweepResults, sweep
from .generators import generate_instance
from .instance import HareInstance
from .ratio import ratio_report, report_certificate

__all__ = ["sweep_instance", "ratio_sweep", "ratio_table"]


def sweep_instance(*, seed: int, n_jobs: int = 3, n_gpus: int = 2, max_total_tasks: int = 6) -> HareInstance:
    """The instance of seed ``seed`` in a sweep: even seeds heterogeneous, odd seeds homogeneous.

    Homogeneous instances have ``alpha = 1`` and the tightest claimed bound, 3; they are
    part of the generator on purpose, never filtered out.

    Parameters
    ----------
    seed : int
        The seed (its parity chooses homogeneous GPUs).
    n_jobs, n_gpus, max_total_tasks : int
        Passed to :func:`hetopt.hare.generate_instance`.

    Returns
    -------
    HareInstance
    """
    return generate_instance(seed=seed, n_jobs=n_jobs, n_gpus=n_gpus, max_rounds=2, max_tasks=2,
                             max_total_tasks=max_total_tasks, homogeneous=bool(seed % 2), max_weight=5)


def _evaluate(inst: HareInstance, *, time_limit: float, save_dir: str | None, subsets: bool) -> Certificate:
    name = "hare2022_violation_" + hashlib.sha1(inst.to_json().encode()).hexdigest()[:10]
    return report_certificate(ratio_report(inst, time_limit=time_limit, save_dir=save_dir, name=name,
                                           subsets=subsets))


def ratio_sweep(n: int, *, seed: int = 0, time_limit: float = 30.0, save_dir: str | Path | None = None,
                subsets: bool = False, executor: Any = None, **instance_kwargs: Any) -> SweepResults:
    """:func:`hetopt.hare.ratio.validate_ratio` on ``n`` seeded instances (seeds ``seed .. seed + n - 1``).

    Parameters
    ----------
    n : int
        Number of instances.
    seed : int
        The first seed.
    time_limit : float
        Per solve.
    save_dir : path, optional
        Where violating instances are written as JSON (their paths in ``info["saved"]``).
    subsets : bool
        (9) on every subset instead of the full set.
    executor
        See :func:`hetopt.validate.sweep` (default: a local process pool).
    **instance_kwargs
        Passed to :func:`sweep_instance`.

    Returns
    -------
    SweepResults
        One :class:`~hetopt.result.Certificate` per seed (Algorithm 1 against the certified
        optimum, limit ``alpha(2+alpha)``), with the instances' digests.
    """
    check_size(n, "n")
    if check_seed(seed) is None or isinstance(seed, np.random.Generator) or seed + n - 1 > MAX_SEED:
        raise ArgumentError(f"seed is {seed!r}; expected the first seed, an integer in [0, 2**63 - n]")
    check_time_limit(time_limit)
    check_flag(subsets, "subsets")
    if save_dir is not None and not isinstance(save_dir, str | Path):
        raise ArgumentError(f"save_dir is {save_dir!r}; expected a path (str or pathlib.Path) or None")
    make = functools.partial(sweep_instance, **instance_kwargs)
    ev = functools.partial(_evaluate, time_limit=time_limit, save_dir=None if save_dir is None else str(save_dir),
                           subsets=subsets)
    return sweep(make, ev, range(seed, seed + n), executor=executor)


def _rl_ratio(c: Certificate) -> tuple[float | None, bool | None]:
    rl = c.info.get("vs_relaxation")
    return (None, None) if rl is None else (float(rl["ratio"]), rl["holds"])  # float("inf") of a JSON "inf"


def ratio_table(certificates: list[Certificate], *, seed: int = 0) -> Table:
    """One row per instance and a summary note: ratios against optimum and relaxation.

    Parameters
    ----------
    certificates : list of Certificate
        The result of :func:`ratio_sweep` (or of :func:`hetopt.hare.ratio.validate_ratio` per seed).
    seed : int
        The seed of the first row.

    Returns
    -------
    Table
        Its ``violations`` counts the instances that break Theorem 4 or the proof's chain.
    """
    if not isinstance(certificates, list | tuple) or not all(isinstance(c, Certificate) for c in certificates):
        raise ArgumentError(f"certificates is {certificates!r:.60}; expected a list of Certificate (ratio_sweep's)")
    seed = check_size(seed, "seed", minimum=0, maximum=MAX_SEED)
    t = Table("Hare: Algorithm 1 against alpha(2+alpha) (Theorem 4)",
              ["seed", "alpha", "alpha(2+alpha)", "ALG", "OPT", "RL bound", "ALG/OPT", "ALG/RL",
               "holds vs RL", "holds vs OPT"])
    for k, c in enumerate(certificates):
        rl_ratio, rl_holds = _rl_ratio(c)
        t.add(seed + k, c.info["alpha"], c.limit, c.value, c.reference, c.info["relaxation_bound"], c.ratio,
              rl_ratio, rl_holds, c.holds)
    ro = [c.ratio for c in certificates if c.proven]
    rr = [r for r, _ in map(_rl_ratio, certificates) if r is not None]
    viol = [seed + k for k, c in enumerate(certificates) if c.holds is False]
    chain = [seed + k for k, c in enumerate(certificates) if c.info["chain_broken"]]
    t.violations = len(set(viol) | set(chain))
    if ro:
        t.notes.append(f"ALG/OPT over {len(ro)} certified instances: mean {np.mean(ro):.4g}, max {np.max(ro):.4g}")
    if rr:
        t.notes.append(f"ALG/RL bound: mean {np.mean(rr):.4g}, max {np.max(rr):.4g}")
    t.notes.append(f"violations of alpha(2+alpha) (ALG/OPT, the theorem): {len(viol)}" + (f" (seeds {viol})" if viol else ""))
    t.notes.append(f"broken proof chains (ALG/RL bound above alpha(2+alpha)): {len(chain)}"
                   + (f" (seeds {chain})" if chain else ""))
    t.notes += [f"saved: {c.info['saved']}" for c in certificates if c.info.get("saved")]
    if isinstance(certificates, SweepResults):
        t.notes.append(certificates.note())
    return t
