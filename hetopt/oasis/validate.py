"""Validators: OASiS's competitive ratio (Theorem 4) against the certified offline optimum.

For each seeded Fig. 5-like instance: OASiS's utility, the offline optimum of (1)-(13)
(or, when the MILP stops at its time limit, its incumbent as a lower bound and the better of
its dual bound and :func:`~hetopt.oasis.colgen.lp_bound` as an upper bound, labelled so), and
the instance's 2 alpha.  The claim ``OPT / OASiS <= 2 alpha`` is

* ``holds = True`` when (upper bound on OPT) / OASiS <= 2 alpha,
* ``holds = False`` (a proven violation) when (lower bound on OPT) / OASiS > 2 alpha,
* ``holds = None`` otherwise (the bounds do not decide).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from typing import Any, cast

from ..certify import Status
from ..errors import ArgumentError
from ..inputs import MAX_GENERATED, check_seed, check_size, check_threads, check_time_limit, takes_instance
from ..report import Table
from ..result import Certificate
from ..validate import RATIO_TOL, SweepResults, sweep
from .checker import check_schedule
from .colgen import lp_bound
from .generator import fig5_instance
from .instance import OasisInstance
from .offline import solve_exact
from .prices import competitive_bound
from .schedule import OasisSolution
from .simulator import simulate

__all__ = ["validate_ratio", "ratio_sweep", "ratio_table", "fig5_setting", "FIG5_SERVERS", "FIG5_PRIORITIES",
           "CLAIM_NODE_LIMIT"]

#: Server counts of the Fig. 5 sweep (split evenly between workers and PSs).
FIG5_SERVERS = (20, 40, 60)
#: Priority (gamma1) ranges of the Fig. 5 sweep, giving increasing U/L.
FIG5_PRIORITIES = ((1.0, 10.0), (1.0, 100.0), (1.0, 1000.0))
#: Branch-and-bound nodes per offline MILP of the ledger's Fig. 5 certificates (run with no time limit):
#: a deterministic work limit, so that their outcome is the same on every machine whatever its load.  The
#: most any of them needs is 1,126 (30 jobs, seed 2 of the size check, the MILP on the plan's admissions).
CLAIM_NODE_LIMIT = 2000


def fig5_setting(*, seed: int) -> OasisInstance:
    """The Fig. 5 instance of a seed: servers and priority range cycle with the seed.

    Parameters
    ----------
    seed : int
        A non-negative integer: ``FIG5_SERVERS[seed % 3]`` servers, ``FIG5_PRIORITIES[(seed // 3) % 3]``.

    Returns
    -------
    OasisInstance
    """
    seed = check_size(seed, "seed", minimum=0)
    n = FIG5_SERVERS[seed % len(FIG5_SERVERS)]
    pr = FIG5_PRIORITIES[(seed // len(FIG5_SERVERS)) % len(FIG5_PRIORITIES)]
    return fig5_instance(seed=seed, n_servers=n, priority_range=pr)


@takes_instance(OasisInstance)
def validate_ratio(inst: OasisInstance, *, time_limit: float | None = 120.0, threads: int | None = 1,
                   node_limit: int | None = None, offline: OasisSolution | None = None) -> Certificate:
    """Theorem 4 on one instance: OPT / OASiS against 2 alpha (see the module docstring).

    Parameters
    ----------
    inst : OasisInstance
    time_limit : float, optional
        Seconds for the offline MILP (None: no limit).
    threads : int, optional
        HiGHS threads.
    node_limit : int, optional
        Branch-and-bound nodes of each offline MILP (:func:`~hetopt.oasis.offline.solve_exact`):
        a deterministic work limit; with ``time_limit=None`` the certificate does not depend on
        the machine's speed or load.
    offline : OasisSolution, optional
        A schedule of ``inst`` you already have, e.g. :func:`~hetopt.oasis.offline.solve_exact`'s,
        used instead of solving the offline MILP again (``time_limit`` and ``node_limit`` then
        apply to nothing; a ``node_limit`` with it is an ArgumentError), checked like a fresh one:
        OPT is at least its utility, and at most its proven optimum, else the better of its bound
        and the LP bound.

    Returns
    -------
    Certificate
        ``value`` OASiS's utility, ``reference`` the upper bound on OPT used, ``ratio``
        reference / value, ``limit`` 2 alpha, ``holds`` True / False / None, ``proven`` True
        when ``holds`` is decided; ``info`` has ``opt_lower``, ``opt_upper``,
        ``reference_kind`` ("optimum", "milp bound" or "lp bound") and the checker results.

    Raises
    ------
    ScheduleViolation
        When OASiS's or the MILP's schedule fails the checker.
    """
    time_limit = check_time_limit(time_limit)
    threads = check_threads(threads)
    if offline is not None and not isinstance(offline, OasisSolution):
        raise ArgumentError(f"offline is {offline!r:.60}; expected an OasisSolution of the instance (solve_exact's)")
    if offline is not None and node_limit is not None:
        raise ArgumentError("node_limit limits the offline solve, and offline is given: pass one of them")
    on = simulate(inst, "oasis")
    off = offline if offline is not None else solve_exact(inst, time_limit=time_limit, threads=threads,
                                                           node_limit=node_limit)
    for sol in (on, off):
        check_schedule(inst, sol).raise_if_invalid()
    limit = competitive_bound(inst)
    lower = off.total_utility
    upper, kind = _upper_bound(inst, off, threads)
    value = on.total_utility

    def ratio(x: float) -> float:
        if value > 0:
            return x / value
        return 1.0 if x <= 1e-9 else math.inf

    holds: bool | None
    if ratio(upper) <= limit * (1 + RATIO_TOL):
        holds = True
    elif ratio(lower) > limit * (1 + RATIO_TOL):
        holds = False
    else:
        holds = None
    return Certificate(name="2alpha", value=value, reference=upper, ratio=ratio(upper), limit=limit,
                       proven=holds is not None, holds=holds,
                       info={"opt_lower": lower, "opt_upper": upper, "reference_kind": kind,
                             "offline_status": off.status.value, "admitted_online": len(on.admitted),
                             "admitted_offline": len(off.admitted), "offline_time": off.wall_time})


def _upper_bound(inst: OasisInstance, off: Any, threads: int | None) -> tuple[float, str]:
    """The upper bound on OPT: the optimum when certified, else the better of the MILP's and the LP bound."""
    if off.status is Status.OPTIMAL:
        return off.total_utility, "optimum"
    lb = lp_bound(inst, threads=threads)
    lp_ub = math.inf if lb.bound is None else lb.bound
    milp_ub = off.bound if off.bound is not None else math.inf
    return (milp_ub, "milp bound") if milp_ub <= lp_ub else (lp_ub, "lp bound")


def _evaluate(inst: OasisInstance, time_limit: float | None) -> Certificate:
    """:func:`validate_ratio` with the instance's setting (servers, largest gamma1) and data in ``info``."""
    c = validate_ratio(inst, time_limit=time_limit)
    setting = {"servers": inst.n_worker_servers + inst.n_ps_servers,
               "max_priority": max(u.gamma1 for u in inst.utility), "instance": inst.to_dict()}
    return dataclasses.replace(c, info={**c.info, **setting})


def ratio_sweep(n: int, *, seed: int = 0, executor: Any = None, time_limit: float | None = 120.0) -> SweepResults:
    """Theorem 4 over the Fig. 5 instances of seeds ``seed..seed+n-1`` (see :func:`fig5_setting`).

    Parameters
    ----------
    n : int
        Number of seeds (>= 1).
    seed : int
        The first seed.
    executor : None, "serial", int, Executor or dask Client
        As :func:`hetopt.validate.sweep` (None: a local process pool).
    time_limit : float, optional
        Seconds per offline MILP.

    Returns
    -------
    SweepResults
        One :class:`~hetopt.result.Certificate` of :func:`validate_ratio` per seed; its ``info``
        also has the setting (``servers``, ``max_priority``) and the instance as a dict
        (``instance``, to keep any violation).
    """
    n = check_size(n, "n", maximum=MAX_GENERATED)
    first = check_seed(seed)
    if not isinstance(first, int):
        raise ArgumentError(f"seed is {seed!r}; expected an integer (the first seed of the sweep)")
    # sweep calls make_instance(seed=seed); its annotation says Callable[[int], Any]
    make = cast(Callable[[int], Any], fig5_setting)
    return sweep(make, functools.partial(_evaluate, time_limit=check_time_limit(time_limit)),
                 range(first, first + n), executor)


def ratio_table(results: SweepResults) -> Table:
    """The certificates of :func:`ratio_sweep` as a CLI table: seed, setting, OASiS, OPT, ratio, 2 alpha, holds.

    Parameters
    ----------
    results : SweepResults
        From :func:`ratio_sweep`.

    Returns
    -------
    Table
        ``violations`` counts the seeds where the bound is proven violated.
    """
    t = Table("OASiS competitive ratio (Theorem 4) on Fig. 5 instances: OPT / OASiS vs 2 alpha",
              ["seed", "servers", "max gamma1", "OASiS", "OPT", "reference", "ratio", "2 alpha", "holds"])
    for s, c in zip(results.seeds, results, strict=True):
        t.add(s, c.info["servers"], c.info["max_priority"], c.value, c.reference, c.info["reference_kind"], c.ratio,
              c.limit, c.holds)
    bad = [s for s, c in zip(results.seeds, results, strict=True) if c.holds is False]
    t.violations = len(bad)
    t.notes.append(f"{sum(c.holds is True for c in results)} hold, {len(bad)} violated"
                   + (f" (seeds {bad})" if bad else "") + f", {sum(c.holds is None for c in results)} undecided")
    t.notes.append(results.note())
    return t
