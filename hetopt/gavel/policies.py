"""Gavel's heterogeneity-aware allocation policies: one table of names, one signature.

Every policy has the signature::

    policy(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None)

and returns the J x R allocation matrix ``X`` of time fractions: ``X[j, r]`` is the
fraction of wall-clock time job ``j`` should spend on GPUs of type ``r``.  Every
allocation satisfies Gavel's base constraints

* ``X >= 0``;
* ``sum_r X[j, r] <= 1`` (a job runs on at most one type at a time);
* ``sum_j scale_factor[j] * X[j, r] <= capacity[r]`` (a job with scale factor ``s``
  occupies ``s`` GPUs of the type it runs on).

The policies live by role: :mod:`~hetopt.gavel.fairness` (max-min fairness with Gavel's or
the isolated normalization, max-sum-throughput), :mod:`~hetopt.gavel.makespan`
(min-total-duration, scaled and certified) and :mod:`~hetopt.gavel.fifo` (Gavel's greedy
FIFO and a lexicographic LP reading).  This module re-exports them and holds
:data:`POLICIES`.

References
----------
D. Narayanan, K. Santhanam, F. Kazhamiaka, A. Phanishayee, M. Zaharia,
"Heterogeneity-Aware Cluster Scheduling Policies for Deep Learning Workloads", OSDI 2020;
code: github.com/stanford-futuredata/gavel, ``scheduler/policies/`` (MIT).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from ..errors import ArgumentError
from .fairness import (
    NORMALIZATIONS,
    build_max_min_fairness,
    build_max_sum_throughput,
    fairness_coefficients,
    isolated_allocation,
    max_min_fairness,
    max_min_fairness_objective,
    max_sum_throughput,
    proportional_allocation,
)
from .fifo import FIFO_FIX_RTOL, FIFO_SEMANTICS, build_fifo_step, fifo, gavel_fifo_allocation
from .inputs import check_policy_inputs
from .makespan import (
    CERT_RTOL,
    CertifiedMakespan,
    MakespanResult,
    build_min_total_duration,
    certify_min_total_duration,
    makespan_of,
    makespan_reference,
    min_total_duration,
    solve_min_total_duration,
)

__all__ = [
    "check_policy_inputs",
    "NORMALIZATIONS",
    "proportional_allocation",
    "isolated_allocation",
    "fairness_coefficients",
    "max_min_fairness_objective",
    "build_max_min_fairness",
    "build_max_sum_throughput",
    "build_min_total_duration",
    "build_fifo_step",
    "max_min_fairness",
    "max_sum_throughput",
    "min_total_duration",
    "solve_min_total_duration",
    "certify_min_total_duration",
    "CertifiedMakespan",
    "makespan_of",
    "makespan_reference",
    "MakespanResult",
    "CERT_RTOL",
    "fifo",
    "gavel_fifo_allocation",
    "FIFO_FIX_RTOL",
    "FIFO_SEMANTICS",
    "POLICIES",
    "Policy",
    "resolve_policy",
    "policy_arguments",
]

class Policy(Protocol):
    """The policies' protocol: a function of the jobs present that returns their allocation.

    ``policy(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None) -> X``
    with ``throughput`` (J, R), ``scale_factor`` (J,), ``capacity`` (R,), ``priority_weight`` (J,)
    and ``remaining_steps`` (J,); ``X`` (J, R) holds time fractions (``models/gavel.md``,
    *Plug-in protocol*).  :func:`~hetopt.gavel.simulate` and :func:`~hetopt.gavel.allocate` take
    a name of :data:`POLICIES` or any callable of this form.
    """

    def __call__(self, throughput: Any, scale_factor: Any, capacity: Any, priority_weight: Any = None, *,
                 remaining_steps: Any = None) -> np.ndarray:
        """The allocation ``X`` (J, R) of the jobs given."""
        ...


#: Policy name -> function, all with the common signature: the one policy registry of Gavel.  The
#: kind's methods (:mod:`hetopt.gavel.kind`) and the simulator read it.
POLICIES: dict[str, Callable[..., np.ndarray]] = {
    "max_min_fairness": max_min_fairness,
    "max_sum_throughput": max_sum_throughput,
    "min_total_duration": min_total_duration,
    "fifo": fifo,
}


def resolve_policy(policy: Any) -> tuple[str, Callable[..., Any]]:
    """``(name, function)`` of a policy given by name (a key of :data:`POLICIES`) or as a callable.

    A callable keeps its ``__name__`` (``"custom"`` when it has none).

    Raises
    ------
    ArgumentError
        ``policy`` is neither a name of :data:`POLICIES` nor a callable.
    """
    if callable(policy):
        return getattr(policy, "__name__", "custom"), policy
    if not isinstance(policy, str) or policy not in POLICIES:
        raise ArgumentError(f"policy is {policy!r}; expected one of {sorted(POLICIES)} or a callable of the "
                            "policies' protocol (hetopt.gavel.Policy)")
    return policy, POLICIES[policy]


def policy_arguments(name: str, weight: np.ndarray, remaining: np.ndarray) -> dict[str, Any]:
    """Keyword arguments a policy called ``name`` is given besides the cluster.

    The remaining steps for the makespan policy (``min_total_duration``), none for ``fifo`` (its
    priority is the arrival order), the priority weights for every other policy (a user's callable
    included).
    """
    if name == "min_total_duration":
        return {"remaining_steps": remaining}
    if name == "fifo":
        return {}
    return {"priority_weight": weight}
