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

import functools
import math
from collections.abc import Sequence
from typing import Any

from ..report import Table
from ..result import Certificate, Status
from ..validate import RATIO_TOL, SweepResults, sweep
from .colgen import lp_bound
from .generator import fig5_instance
from .instance import OasisInstance
from .offline import solve_exact
from .online import online
from .prices import competitive_bound
from .schedule import check_schedule

__all__ = ["validate_ratio", "ratio_sweep", "ratio_table", "fig5_setting", "FIG5_SERVERS", "FIG5_PRIORITIES"]

#: Server counts of the Fig. 5 sweep (split evenly between workers and PSs).
FIG5_SERVERS = (20, 40, 60)
#: Priority (gamma1) ranges of the Fig. 5 sweep, giving increasing U/L.
FIG5_PRIORITIES = ((1.0, 10.0), (1.0, 100.0), (1.0, 1000.0))


def fig5_setting(*, seed: int) -> OasisInstance:
    """The Fig. 5 instance of a seed: servers and priority range cycle with the seed."""
    n = FIG5_SERVERS[seed % len(FIG5_SERVERS)]
    pr = FIG5_PRIORITIES[(seed // len(FIG5_SERVERS)) % len(FIG5_PRIORITIES)]
    return fig5_instance(seed=seed, n_servers=n, priority_range=pr)


def validate_ratio(inst: OasisInstance, *, time_limit: float | None = 120.0, threads: int = 1) -> Certificate:
    """Theorem 4 on one instance: OPT / OASiS against 2 alpha (see the module docstring).

    Returns
    -------
    Certificate
        ``value`` OASiS's utility, ``reference`` the upper bound on OPT used, ``ratio``
        reference / value, ``limit`` 2 alpha, ``holds`` True / False / None, ``proven`` True
        when ``holds`` is decided; ``info`` has ``opt_lower``, ``opt_upper``,
        ``reference_kind`` ("optimum", "milp bound" or "lp bound") and the checker results.
    """
    on = online(inst)
    off = solve_exact(inst, time_limit=time_limit, threads=threads)
    for sol in (on, off):
        rep = check_schedule(inst, sol)
        if not rep.ok:
            raise AssertionError(f"{sol.solver} returned an infeasible schedule: {rep.violations[0]}")
    limit = competitive_bound(inst)
    lower = off.total_utility
    if off.status is Status.OPTIMAL:
        upper, kind = off.total_utility, "optimum"
    else:
        lb = lp_bound(inst, threads=threads)
        milp_ub = off.bound if off.bound is not None else math.inf
        upper, kind = (milp_ub, "milp bound") if milp_ub <= lb.bound else (lb.bound, "lp bound")
    value = on.total_utility

    def ratio(x: float) -> float:
        if value > 0:
            return x / value
        return 1.0 if x <= 1e-9 else math.inf

    if ratio(upper) <= limit * (1 + RATIO_TOL):
        holds: bool | None = True
    elif ratio(lower) > limit * (1 + RATIO_TOL):
        holds = False
    else:
        holds = None
    return Certificate(name="2alpha", value=value, reference=upper, ratio=ratio(upper), limit=limit,
                       proven=holds is not None, holds=holds,
                       info={"opt_lower": lower, "opt_upper": upper, "reference_kind": kind,
                                "offline_status": off.status.value, "admitted_online": len(on.admitted),
                                "admitted_offline": len(off.admitted), "offline_time": off.wall_time})


def _evaluate(inst: OasisInstance, time_limit: float) -> dict[str, Any]:
    c = validate_ratio(inst, time_limit=time_limit)
    return {"servers": inst.n_worker_servers + inst.n_ps_servers, "max_priority": max(u.gamma1 for u in inst.utility),
            "oasis": c.value, "opt": c.reference, "kind": c.info["reference_kind"], "ratio": c.ratio,
            "limit": c.limit, "holds": c.holds, "instance": inst.to_dict()}


def ratio_sweep(seeds: Sequence[int], *, time_limit: float = 120.0, executor: Any = "serial") -> list[dict[str, Any]]:
    """Theorem 4 over the Fig. 5 instances of ``seeds`` (see :func:`fig5_setting`).

    Each row has the seed's setting, OASiS's utility, the optimum (or bound, ``kind``), the
    ratio, 2 alpha, ``holds`` and the instance as a dict (to keep any violation).
    """
    rows = sweep(fig5_setting, functools.partial(_evaluate, time_limit=time_limit), list(seeds), executor)
    for s, r in zip(seeds, rows):
        r["seed"] = s
    return rows


def ratio_table(rows: list[dict[str, Any]]) -> Table:
    """The rows of :func:`ratio_sweep` as a CLI table."""
    t = Table("OASiS competitive ratio (Theorem 4) on Fig. 5 instances: OPT / OASiS vs 2 alpha",
              ["seed", "servers", "max gamma1", "OASiS", "OPT", "reference", "ratio", "2 alpha", "holds"])
    for r in rows:
        t.add(r["seed"], r["servers"], r["max_priority"], r["oasis"], r["opt"], r["kind"], r["ratio"], r["limit"], r["holds"])
    bad = [r["seed"] for r in rows if r["holds"] is False]
    t.violations = len(bad)
    t.notes.append(f"{sum(r['holds'] is True for r in rows)} hold, {len(bad)} violated"
                   + (f" (seeds {bad})" if bad else "") + f", {sum(r['holds'] is None for r in rows)} undecided")
    if isinstance(rows, SweepResults):
        t.notes.append(rows.note())
    return t
