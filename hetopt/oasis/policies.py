"""The one policy registry of OASiS's slotted simulator: the schemes of Section V-A (Figs. 3-4).

``POLICIES[name]`` is the policy class; ``POLICIES[name](inst, **options)`` builds a policy for
one run of :func:`~hetopt.oasis.simulator.simulate`, which also takes the name itself
(``simulate(inst, "drf")``, options through ``options=``).  The methods of the kind
(:mod:`~hetopt.oasis.kind`) and the figure data of the claims are built from this registry.

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Section V-A.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from .baselines import DormPolicy, DRFPolicy, FIFOPolicy, RRHPolicy
from .online import OasisPolicy

__all__ = ["POLICIES"]

#: The schemes of Figs. 3-4 in the paper's order: name -> policy class (``cls(inst, **options)``).
POLICIES: Mapping[str, Callable[..., Any]] = MappingProxyType({
    "oasis": OasisPolicy,
    "fifo": FIFOPolicy,
    "drf": DRFPolicy,
    "rrh": RRHPolicy,
    "dorm": DormPolicy,
})
