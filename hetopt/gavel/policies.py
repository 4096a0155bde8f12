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
from dataclasses import dataclass
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
    "PolicySpec",
    "INPUTS",
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


#: Inputs the simulator can hand a policy besides the cluster (``PolicySpec.inputs``).
INPUTS = ("priority_weight", "remaining_steps", "times_since_start")


@dataclass(frozen=True)
class PolicySpec:
    """One entry of :data:`POLICIES`: a policy function and what Gavel's simulator gives it.

    Calling the entry calls ``func``.  The simulator reads the rest: which inputs to pass
    (``inputs``, names of :data:`INPUTS`), whether the function takes ``solver=``, and the two
    mechanism flags Gavel derives from the policy's class name (``scheduler.py``: a name without
    ``Perf`` or ``Packing`` shuffles the GPU types every round, a name starting with ``FIFO``
    leaves zero-priority entries out of the queues).

    Attributes
    ----------
    name : str
        hetopt's name (the key of :data:`POLICIES`).
    func : callable
        The policy function.
    gavel : str
        Gavel's driver name (``-p``) and class, e.g. ``"max_min_fairness_perf (MaxMinFairnessPolicyWithPerf)"``.
    description : str
        One sentence for the methods table.
    inputs : tuple of str
        Keyword inputs the simulator passes (of :data:`INPUTS`).
    takes_solver : bool
        The function has a ``solver=`` option (its LPs).
    shuffle_types : bool
        Gavel shuffles the type order every round (heterogeneity-agnostic policies).
    skip_zero_priority : bool
        Gavel's FIFO rule: entries of priority 0 stay out of the queues.
    """

    name: str
    func: Callable[..., np.ndarray]
    gavel: str
    description: str
    inputs: tuple[str, ...] = ("priority_weight",)
    takes_solver: bool = True
    shuffle_types: bool = False
    skip_zero_priority: bool = False

    def __call__(self, *args: Any, **kwargs: Any) -> np.ndarray:
        """``func(*args, **kwargs)``."""
        return self.func(*args, **kwargs)


def _spec(name: str, func: Callable[..., np.ndarray], gavel: str, description: str, **kw: Any) -> PolicySpec:
    return PolicySpec(name, func, gavel, description, **kw)


#: Policy name -> :class:`PolicySpec` (callable as the policy function): the one policy registry of
#: Gavel.  The kind's methods (:mod:`hetopt.gavel.kind`) and the simulator read it.
POLICIES: dict[str, PolicySpec] = {p.name: p for p in (
    _spec("max_min_fairness", max_min_fairness, "max_min_fairness_perf (MaxMinFairnessPolicyWithPerf)",
          "Gavel's heterogeneity-aware max-min fairness LP (the _perf policy)"),
    _spec("max_sum_throughput", max_sum_throughput, "max_sum_throughput_perf (ThroughputSumWithPerf)",
          "Gavel's maximum total effective throughput LP", inputs=()),
    _spec("min_total_duration", min_total_duration, "min_total_duration_perf (MinTotalDurationPolicyWithPerf)",
          "Gavel's minimum makespan policy (min-total-duration, bisection on the makespan as Gavel's code)",
          inputs=("remaining_steps",)),
    _spec("fifo", fifo, "fifo_perf (FIFOPolicyWithPerf)", "Gavel's heterogeneity-aware FIFO", inputs=(),
          takes_solver=False, skip_zero_priority=True),
)}


def resolve_policy(policy: Any) -> tuple[str, PolicySpec]:
    """``(name, spec)`` of a policy given by name (a key of :data:`POLICIES`), as a spec, or as a callable.

    A callable keeps its ``__name__`` (``"custom"`` when it has none) and is given the priority
    weights only (the plug-in protocol), no ``solver=``.

    Raises
    ------
    ArgumentError
        ``policy`` is neither a name of :data:`POLICIES` nor a callable.
    """
    if isinstance(policy, PolicySpec):
        return policy.name, policy
    if callable(policy):
        name = getattr(policy, "__name__", "custom")
        if not isinstance(name, str):
            name = "custom"
        return name, PolicySpec(name, policy, "", "a user's policy", takes_solver=False)
    if not isinstance(policy, str) or policy not in POLICIES:
        raise ArgumentError(f"policy is {policy!r}; expected one of {sorted(POLICIES)} or a callable of the "
                            "policies' protocol (hetopt.gavel.Policy)")
    return policy, POLICIES[policy]


def policy_arguments(spec: PolicySpec, *, priority_weight: np.ndarray, remaining_steps: np.ndarray,
                     times_since_start: np.ndarray, solver: str | None = None) -> dict[str, Any]:
    """Keyword arguments the simulator (or :func:`~hetopt.gavel.allocate`) passes to ``spec`` besides the cluster."""
    given = {"priority_weight": priority_weight, "remaining_steps": remaining_steps,
             "times_since_start": times_since_start}
    out = {k: given[k] for k in spec.inputs}
    if spec.takes_solver and solver is not None:
        out["solver"] = solver
    return out
