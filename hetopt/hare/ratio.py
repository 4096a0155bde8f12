"""The approximation factor of Theorem 4, alpha(2 + alpha), and its certification.

Lemma 3 defines ``alpha = max_{i in D} { T^{c,max}_i / T^{c,min}_i, T^{s,max}_i / T^{s,min}_i }``,
the largest ratio between a task's slowest and fastest GPU, for compute and for
synchronization.  Theorem 4 claims that Algorithm 1 (with ``x-hat`` from an optimal
solution of Hare_Sched_RL) is an ``alpha(2 + alpha)``-approximation.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..certify import Status
from ..errors import ArgumentError
from ..inputs import MAX_GENERATED, check_flag, check_positive, check_size, check_time_limit, takes_instance
from ..result import Certificate
from ..validate import ratio_certificate
from .algorithm1 import schedule
from .checker import check_schedule, checked_objective
from .exact import solve_exact
from .instance import HareInstance, alpha, theorem4_bound
from .relaxation import solve_relaxation

__all__ = ["RatioReport", "ratio_report", "validate_ratio", "report_certificate", "theorem4_counterexample",
           "theorem4_release_dates"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RatioReport:
    """Outcome of :func:`ratio_report` on one instance.

    ``vs_optimum`` compares Algorithm 1 with the certified optimum (the theorem's claim);
    ``vs_relaxation`` with the relaxation's certified lower bound (what the proof
    actually bounds, through Lemmas 2-3).  ``saved`` is the JSON path of an instance that
    violated a bound, if ``save_dir`` was given.
    """

    alpha: float
    limit: float
    algorithm1: float
    optimum: float
    optimum_proven: bool
    relaxation_bound: float | None
    vs_optimum: Certificate | None
    vs_relaxation: Certificate | None
    saved: str | None = None
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def theorem_violated(self) -> bool:
        """Algorithm 1 / certified optimum exceeds ``alpha(2+alpha)``: Theorem 4 itself is false here."""
        return self.vs_optimum is not None and self.vs_optimum.holds is False

    @property
    def chain_broken(self) -> bool:
        """Algorithm 1 / relaxation bound exceeds ``alpha(2+alpha)``: the proof's chain of bounds breaks.

        This does not by itself violate the theorem (the relaxation bound can be far below the
        optimum); it shows that Lemmas 2-3 as proved cannot hold on this instance.
        """
        return self.vs_relaxation is not None and self.vs_relaxation.holds is False

    @property
    def violated(self) -> bool:
        """Either :attr:`theorem_violated` or :attr:`chain_broken` (what triggers saving the instance)."""
        return self.theorem_violated or self.chain_broken


@takes_instance(HareInstance)
def validate_ratio(inst: HareInstance, *, time_limit: float | None = 60.0, subsets: bool = False) -> Certificate:
    """Theorem 4 on one instance: is Algorithm 1 / certified optimum at most ``alpha(2+alpha)``.

    The signature and result type every subpackage's ``validate_ratio`` shares.

    Parameters
    ----------
    inst : HareInstance
        The instance.
    time_limit : float, optional
        Per solve, seconds.
    subsets : bool
        Use (9) on every subset.

    Returns
    -------
    Certificate
        ``value`` Algorithm 1's objective, ``reference`` the optimum, ``limit``
        ``alpha(2+alpha)``; ``holds`` is None unless the optimum is proven.  ``info``
        adds ``alpha``, ``relaxation_bound``, ``vs_relaxation`` (the certificate against the
        relaxation's bound, as a dict) and ``chain_broken``.  :func:`ratio_report` has the
        full report (and saves violating instances).
    """
    return report_certificate(ratio_report(inst, time_limit=time_limit, subsets=subsets))


def report_certificate(rep: RatioReport) -> Certificate:
    """The certificate of a :class:`RatioReport`: its ``vs_optimum`` with the rest of the report in ``info``.

    Parameters
    ----------
    rep : RatioReport
        A report of :func:`ratio_report`.

    Returns
    -------
    Certificate
        ``info`` holds ``alpha``, ``relaxation_bound``, ``vs_relaxation`` (a dict or None),
        ``chain_broken``, ``optimum_bound``, ``relaxation_status``, ``relaxation_subsets`` and
        ``saved`` (the path of a saved violating instance, or None).
    """
    c = rep.vs_optimum
    if c is None:  # pragma: no cover - ratio_report always compares with the optimum
        raise ArgumentError("rep has no certificate against the optimum")
    info = {**c.info, "alpha": rep.alpha, "relaxation_bound": rep.relaxation_bound,
            "vs_relaxation": None if rep.vs_relaxation is None else rep.vs_relaxation.to_dict(),
            "chain_broken": rep.chain_broken, **rep.info, "saved": rep.saved}
    return Certificate(name=c.name, value=c.value, reference=c.reference, ratio=c.ratio, limit=c.limit,
                       proven=c.proven, holds=c.holds, info=info)


@takes_instance(HareInstance)
def ratio_report(inst: HareInstance, *, time_limit: float | None = 60.0, subsets: bool = False,
                 save_dir: str | Path | None = None, name: str = "instance") -> RatioReport:
    """Certify Theorem 4's ``alpha(2+alpha)`` bound on one instance, against the optimum and the relaxation.

    Solves Hare_Sched exactly (certified optimum), Hare_Sched_RL (certified lower bound)
    and runs Algorithm 1 on the relaxation's ``x-hat``; every schedule passes
    :func:`check_schedule`.  A ratio is only judged (``holds`` True/False) when its
    reference is certified: the optimum proven OPTIMAL, the relaxation solved to
    optimality (Theorem 4 assumes an optimal ``x-hat``).

    Parameters
    ----------
    inst : HareInstance
    time_limit : float, optional
        Per solve, seconds.
    subsets : bool
        Use (9) on every subset (see :func:`hetopt.hare.model.build_relaxation`).
    save_dir : path, optional
        Where to write ``<name>.json`` when a bound is violated.
    name : str
        File stem of a saved violating instance.
    """
    check_time_limit(time_limit)
    check_flag(subsets, "subsets")
    if save_dir is not None and not isinstance(save_dir, str | Path):
        raise ArgumentError(f"save_dir is {save_dir!r}; expected a path (str or pathlib.Path) or None")
    if not isinstance(name, str) or not name:
        raise ArgumentError(f"name is {name!r}; expected a non-empty file stem")
    limit = theorem4_bound(inst)
    a = alpha(inst)
    opt = solve_exact(inst, time_limit=time_limit)
    check_schedule(inst, opt).raise_if_invalid()
    rl = solve_relaxation(inst, subsets=subsets, time_limit=time_limit)
    alg = schedule(inst, rl)
    value = checked_objective(inst, alg)
    opt_proven = opt.status is Status.OPTIMAL
    rl_proven = rl.status is Status.OPTIMAL
    vs_opt = ratio_certificate(value, opt.objective, limit, proven=opt_proven, name="alpha(2+alpha) vs optimum")
    vs_rl = None
    if rl.bound is not None:
        vs_rl = ratio_certificate(value, rl.bound, limit, proven=rl_proven, name="alpha(2+alpha) vs relaxation")
    saved = None
    report = RatioReport(alpha=a, limit=limit, algorithm1=value, optimum=opt.objective, optimum_proven=opt_proven,
                         relaxation_bound=rl.bound, vs_optimum=vs_opt, vs_relaxation=vs_rl,
                         info={"optimum_bound": opt.bound, "relaxation_status": rl.status.value,
                                  "relaxation_subsets": subsets})
    if report.violated and save_dir is not None:
        path = Path(save_dir) / f"{name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        data = inst.to_dict()
        data["description"] = (f"violates alpha(2+alpha) = {limit:.6g}: Algorithm 1 = {value:.6g}, "
                               f"optimum = {opt.objective:.6g}, relaxation bound = {rl.bound}")
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        saved = str(path)
        log.warning("alpha(2+alpha) violated on %s, saved to %s", name, saved)
        report = RatioReport(**{**report.__dict__, "saved": saved})
    return report


def theorem4_counterexample(k: int = 7, long: float = 2.0, heavy_weight: float = 100.0) -> HareInstance:
    """A family of instances on which Algorithm 1 with (9) as printed breaks Theorem 4.

    One GPU (so ``alpha = 1`` and Theorem 4 claims a factor 3), all jobs single-task and
    arriving at 0: a heavy job (``T^c = long``, ``w = heavy_weight``), ``k - 1`` unit jobs of
    weight 0.01 and one unit "sink" job of weight 0.001.

    Derivation by hand.  With the heavy job at ``x = 0``, the full-set inequality (9) reads
    ``sum_unit x_j >= long * k + k^2 / 2 - k / 2``.  The relaxation's unique optimum puts all
    of it on the cheapest job, the sink: ``x-hat = 0`` for the heavy and the other unit jobs.
    So ``H = 0.5`` for the ``k - 1`` unit jobs and ``H = long / 2`` for the heavy job, and for
    ``long > 1`` Algorithm 1 runs the unit jobs first: the heavy job completes at
    ``k - 1 + long`` instead of ``long`` (Smith's rule, the optimum).  The ratio tends to
    ``(k - 1 + long) / long``, unbounded in ``k``; for the defaults Algorithm 1 = 800.219,
    optimum = 200.339 (ratio 3.994 > 3) and the relaxation bound is 200.096.  With (9) on
    every subset (``subsets=True``) Algorithm 1 is optimal on it.
    """
    check_size(k, "k", minimum=2, maximum=MAX_GENERATED)
    if isinstance(long, bool) or not isinstance(long, (int, float)) or not 1 < long < float("inf"):
        raise ArgumentError(f"long is {long!r}; expected a finite number > 1")
    long, heavy_weight = float(long), float(check_positive(heavy_weight, "heavy_weight"))
    n = k + 1
    return HareInstance(arrival=np.zeros(n), weight=np.array([heavy_weight] + [0.01] * (k - 1) + [0.001]),
                        rounds=np.ones(n, dtype=int), tasks_per_round=np.ones(n, dtype=int),
                        compute_time=np.array([long] + [1.0] * k)[:, None], sync_time=np.zeros((n, 1)),
                        job_names=("heavy", *(f"unit{j}" for j in range(1, k)), "sink"))


def theorem4_release_dates() -> HareInstance:
    """A second counterexample to Theorem 4: one GPU, single-task jobs with release dates.

    Six jobs, ``a = (1, 0, 0, 1, 0, 3)``, ``T^c = (5, 3, 2, 2, 4, 2)``, ``w = (1, 0.1, 3, 0.001,
    1, 100)``, no synchronization; ``alpha = 1``, so Theorem 4 claims a factor 3.

    Derivation by hand.  On one GPU the full-set (9) reads ``sum_i p_i x_i >= ((sum p)^2 -
    sum p^2) / 2 = (324 - 62) / 2 = 131``; at ``x = a`` the left side is 13, so the relaxation
    adds the missing 118 on the job of least ``w / p`` (job 3, 0.0005, unique):
    ``x-hat_3 = 1 + 118 / 2 = 60``, every other ``x-hat_i = a_i``.  Then ``H = a + p / 2 =
    (3.5, 1.5, 1, 61, 2, 4)`` and Algorithm 1 runs jobs 2, 1, 4, 0, 5, 3 back to back: the
    heavy job 5 (released at 3) completes at 16 and ``sum w C = 1629.518``.  The optimum runs
    job 2 on [0, 2], waits, job 5 on [3, 5], then 4, 0, 1, 3: ``sum w C = 530.719`` (found by
    enumeration).  Ratio 3.0704 > 3.  With (9) on every subset Algorithm 1 is optimal here.
    Found by a random search over one-GPU instances with release dates; the structure is the
    same as :func:`theorem4_counterexample` (the relaxation parks all of (9)'s slack on one cheap
    job), showing that release dates do not prevent it.
    """
    p = np.array([5.0, 3.0, 2.0, 2.0, 4.0, 2.0])
    return HareInstance(arrival=np.array([1.0, 0.0, 0.0, 1.0, 0.0, 3.0]),
                        weight=np.array([1.0, 0.1, 3.0, 0.001, 1.0, 100.0]),
                        rounds=np.ones(6, dtype=int), tasks_per_round=np.ones(6, dtype=int),
                        compute_time=p[:, None], sync_time=np.zeros((6, 1)),
                        job_names=("j0", "j1", "j2", "sink", "j4", "heavy"))
