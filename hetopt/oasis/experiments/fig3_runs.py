"""The runs of the Fig. 3 checks: total utility of each (setting, scheme), computed once per process.

A setting is a bundled instance's stem or ``(jobs, T, H = K, seed)`` of the generator; a scheme is a
baseline of ``diagnostics.BASELINES`` or an OASiS variant of :data:`VARIANTS`.  The missing runs of a
check are computed together, Dorm's MILPs first, on the processes a serial run leaves free
(:func:`hetopt.claims.parallel.claim_map`): each run is deterministic, so the utilities are the loop's.
"""

from __future__ import annotations

import numpy as np

from ...claims.parallel import claim_map
from ...data import instance_path
from ..generator import generate_instance
from ..instance import OasisInstance
from ..simulator import simulate
from . import diagnostics as dg

__all__ = ["VARIANTS", "fig3_instance", "total", "ensure"]

#: The OASiS variants of the Fig. 3 checks.
VARIANTS = ("literal", "longdouble", "capped")
#: Total utilities by (setting, scheme, cap).
_RUNS: dict[tuple, float] = {}


def fig3_instance(st) -> OasisInstance:
    """The instance of setting ``st``."""
    if isinstance(st, str):
        return OasisInstance.from_json(instance_path(st))
    return generate_instance(n_jobs=st[0], horizon=st[1], n_worker_servers=st[2], n_ps_servers=st[2], seed=st[3])


def _run(st, scheme: str, cap: float) -> float:
    inst = fig3_instance(st)
    if scheme == "literal":
        return dg._oasis(inst)
    if scheme == "longdouble":
        return dg._oasis(inst, price_dtype=np.longdouble)
    if scheme == "capped":
        return dg._oasis(inst, log_ratio_cap=cap)
    return simulate(inst, scheme).total_utility


def ensure(settings, schemes, cap: float) -> None:
    """Run the missing (setting, scheme) pairs (``cap``: ln(U/L) cap of the capped variant)."""
    slow_first = sorted(schemes, key=lambda s: (s != "dorm", s not in VARIANTS))
    todo = [(st, s, cap) for s in slow_first for st in settings if (st, s, cap) not in _RUNS]
    for key, value in zip(todo, claim_map(_run, todo), strict=True):
        _RUNS[key] = value


def total(st, scheme: str, cap: float) -> float:
    """Total utility of ``scheme`` on setting ``st`` (run now if missing)."""
    ensure([st], (scheme,), cap)
    return _RUNS[(st, scheme, cap)]
