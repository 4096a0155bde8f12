"""The one policy registry of the placement paper: :data:`POLICIES` feeds :func:`simulate` and the methods.

A policy of :func:`~hetopt.placement.simulate` is one of two things (the documented protocol):

* a **placement policy**, any callable ``policy(inst) -> PlacementSolution``: the simulator
  calls it at time 0 and, for a dynamic run, again on the remaining jobs (with their remaining
  epochs) at every completion (a *reset event*, Section VI-B2).  The paper's algorithms and
  baselines are such policies.
* a **round policy**, an object with ``run(inst) -> PlacementSimulation`` that runs the jobs
  itself: :class:`~hetopt.placement.gavel_baseline.GavelPolicy`, the round-based Gavel
  baseline of Figs. 17-18.

Every entry of :data:`POLICIES` is also a method of the kind (``simulate_<name>``,
``functools.partial(simulate, policy=name)``, see :mod:`hetopt.placement.kind`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from types import MappingProxyType
from typing import Any

from .baselines import las, optimus, optimus_lb
from .evaluate import PlacementSolution
from .exact import solve_exact
from .gavel_baseline import GavelPolicy
from .has import has
from .instance import PlacementInstance
from .sampling import jps

__all__ = ["POLICIES", "POLICY_DESCRIPTIONS", "PlacementPolicy", "is_round_policy"]

#: A placement policy: ``policy(inst) -> PlacementSolution``.
PlacementPolicy = Callable[[PlacementInstance], PlacementSolution]

#: Name -> policy: the placement policies of Section VI (HAS, JPS with seed 0, Optimus,
#: Optimus-LB, LAS, the certified optimum) and the Gavel round policy.
POLICIES: Mapping[str, Any] = MappingProxyType({
    "has": has,
    "jps": partial(jps, seed=0),
    "optimus": optimus,
    "optimus_lb": optimus_lb,
    "las": las,
    "exact": solve_exact,
    "gavel": GavelPolicy(),
})

#: One sentence per policy (the descriptions of the ``simulate_<name>`` methods).
POLICY_DESCRIPTIONS: Mapping[str, str] = MappingProxyType({
    "has": "HAS placed at time 0 and recomputed among the remaining jobs at every completion (reset events, "
           "Section VI-B2).",
    "jps": "JPS (seed 0) placed at time 0 and recomputed among the remaining jobs at every completion.",
    "optimus": "Optimus placed at time 0 and recomputed among the remaining jobs at every completion.",
    "optimus_lb": "Optimus-LB placed at time 0 and recomputed among the remaining jobs at every completion.",
    "las": "LAS placed at time 0 and recomputed among the remaining jobs at every completion.",
    "exact": "The certified optimum of P1 placed at time 0 and recomputed among the remaining jobs at every "
             "completion (optimal per reset, not over the run).",
    "gavel": "Gavel's round-based max-min fairness mechanism (one GPU type of scale_factor GPUs per job and round, "
             "6-minute rounds), the dynamic baseline of Figs. 17-18.",
})


def is_round_policy(policy: Any) -> bool:
    """True for a policy that runs its own rounds (it has a ``run(inst)`` method), like Gavel."""
    return callable(getattr(policy, "run", None))
