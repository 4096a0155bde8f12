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
from dataclasses import dataclass, replace
from typing import Any, Protocol

import numpy as np

from ..errors import ArgumentError
from . import heuristics, packing, packing_greedy, variants
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
    "PERF_POLICIES",
    "Policy",
    "PolicySpec",
    "INPUTS",
    "resolve_policy",
    "LP_PATHS",
    "lp_path",
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


#: Inputs the simulator can hand a policy besides the cluster (``PolicySpec.inputs``): the jobs' priority
#: weights, remaining steps, seconds since arrival and ids (instance indices, for policies that keep state),
#: the column of the reference GPU type of the heterogeneity-agnostic variants (Gavel: v100), the seconds
#: left to each job's SLO (``options["slo_deadline"]``, NaN: none) and the names of the columns.
INPUTS = ("priority_weight", "remaining_steps", "times_since_start", "job_ids", "reference_type", "time_to_slo",
          "gpu_types")


@dataclass(frozen=True)
class PolicySpec:
    """One entry of :data:`POLICIES`: a policy function and what Gavel's simulator gives it.

    Calling the entry calls ``func`` (for a policy that keeps state between calls, a fresh
    object's first call).  The simulator reads the rest: which inputs to pass (``inputs``, names of
    :data:`INPUTS`), whether the function takes ``solver=``, how to make a fresh stateful policy
    for a run (``factory(seed)``), whether it packs jobs, and the two mechanism flags Gavel derives
    from the policy's class name (``scheduler.py``: a name without ``Perf`` or ``Packing`` shuffles
    the GPU types every round, a name starting with ``FIFO`` leaves zero-priority entries out of the
    queues).

    Attributes
    ----------
    name : str
        hetopt's name (the key of :data:`POLICIES`).
    func : callable
        The policy function.
    gavel : str
        Gavel's driver name (``-p``) and class.
    description : str
        One sentence for the methods table.
    inputs : tuple of str
        Keyword inputs the simulator passes (of :data:`INPUTS`).
    takes_solver : bool
        The function has a ``solver=`` option (its LPs).
    lp_solver : str or None
        For a function without that option: the solver its LPs (or convex programs) always use, as
        Gavel's code does (``"ecos"``); None when it solves none (greedy or closed-form policies).
    shuffle_types : bool
        Gavel shuffles the type order every round (heterogeneity-agnostic policies).
    skip_zero_priority : bool
        Gavel's FIFO rule: entries of priority 0 stay out of the queues.
    packing : bool
        The policy allocates pairs of jobs too (``pairs``, ``pair_throughput``; ``J + P`` rows).
    factory : callable, optional
        ``factory(seed) -> policy``: a fresh object for one simulation (stateful policies).
    static : bool
        The allocation of all the jobs at once meets (G1)-(G3) on the jobs' own rows, so
        :func:`~hetopt.gavel.allocate` reports its makespan (False for the packing policies, whose
        rows include pairs, and for the proportional share, a normalization reference that ignores
        scale factors and capacities).
    """

    name: str
    func: Callable[..., np.ndarray]
    gavel: str
    description: str
    inputs: tuple[str, ...] = ("priority_weight",)
    takes_solver: bool = True
    lp_solver: str | None = None
    shuffle_types: bool = False
    skip_zero_priority: bool = False
    packing: bool = False
    factory: Callable[[int], Callable[..., np.ndarray]] | None = None
    static: bool = True

    def __call__(self, *args: Any, **kwargs: Any) -> np.ndarray:
        """``func(*args, **kwargs)``."""
        return self.func(*args, **kwargs)

    def make(self, *, seed: int) -> Callable[..., np.ndarray]:
        """The policy for one simulation: ``factory(seed)`` for a stateful policy, else ``func``."""
        return self.func if self.factory is None else self.factory(seed)


def _spec(name: str, func: Callable[..., np.ndarray], gavel: str, description: str, **kw: Any) -> PolicySpec:
    return PolicySpec(name, func, gavel, description, **kw)


_W, _STEPS, _SINCE, _IDS, _REF = "priority_weight", "remaining_steps", "times_since_start", "job_ids", "reference_type"
_AGNOSTIC = {"shuffle_types": True}
#: The policies whose LPs (or convex programs) are always solved by ECOS, as in Gavel's code.
_ECOS = {"takes_solver": False, "lp_solver": "ecos"}

#: Policy name -> :class:`PolicySpec` (callable as the policy function): the one policy registry of
#: Gavel.  The kind's methods (:mod:`hetopt.gavel.kind`) and the simulator read it.
POLICIES: dict[str, PolicySpec] = {p.name: p for p in (
    _spec("max_min_fairness", max_min_fairness, "max_min_fairness_perf (MaxMinFairnessPolicyWithPerf)",
          "Gavel's heterogeneity-aware max-min fairness LP (the _perf policy)"),
    _spec("max_sum_throughput", max_sum_throughput, "max_sum_throughput_perf (ThroughputSumWithPerf)",
          "Gavel's maximum total effective throughput LP", inputs=()),
    _spec("min_total_duration", min_total_duration, "min_total_duration_perf (MinTotalDurationPolicyWithPerf)",
          "Gavel's minimum makespan policy (min-total-duration, bisection on the makespan as Gavel's code)",
          inputs=(_STEPS,)),
    _spec("fifo", fifo, "fifo_perf (FIFOPolicyWithPerf)", "Gavel's heterogeneity-aware FIFO", inputs=(),
          takes_solver=False, skip_zero_priority=True),
    _spec("max_min_fairness_agnostic", variants.max_min_fairness_agnostic, "max_min_fairness (MaxMinFairnessPolicy)",
          "Gavel's heterogeneity-agnostic max-min fairness (every throughput 1)", **_ECOS, **_AGNOSTIC),
    _spec("min_total_duration_agnostic", variants.min_total_duration_agnostic,
          "min_total_duration (MinTotalDurationPolicy)",
          "Gavel's heterogeneity-agnostic min-total-duration (every type at the V100's throughput)",
          inputs=(_STEPS, _REF), **_ECOS, **_AGNOSTIC),
    _spec("fifo_random", heuristics.fifo_random, "fifo (FIFOPolicy)",
          "Gavel's heterogeneity-agnostic FIFO (a random type drawn for the job at the head of the queue; as in Gavel's "
          "code the job goes on the last open type, options={'reading': 'drawn'} puts it on the drawn one)",
          inputs=(_IDS,), takes_solver=False, skip_zero_priority=True, factory=heuristics.RandomFIFO, **_AGNOSTIC),
    _spec("max_min_fairness_strategy_proof", variants.max_min_fairness_strategy_proof,
          "(MaxMinFairnessStrategyProofPolicyWithPerf; not in Gavel's driver)",
          "Gavel's strategy-proof max-min fairness (geometric mean, allocations discounted)", **_ECOS),
    _spec("max_min_fairness_water_filling", variants.max_min_fairness_water_filling,
          "max_min_fairness_water_filling_perf (MaxMinFairnessWaterFillingPolicyWithPerf)",
          "Gavel's max-min fairness with water filling", **_ECOS),
    _spec("max_min_fairness_water_filling_agnostic", variants.max_min_fairness_water_filling_agnostic,
          "max_min_fairness_water_filling (MaxMinFairnessWaterFillingPolicy)",
          "Gavel's heterogeneity-agnostic max-min fairness with water filling", **_ECOS, **_AGNOSTIC),
    _spec("finish_time_fairness", variants.finish_time_fairness,
          "finish_time_fairness_perf (FinishTimeFairnessPolicyWithPerf)",
          "Gavel's finish-time fairness (Themis-like: the largest ratio of finish time to the isolated one)",
          inputs=(_W, _STEPS, _SINCE, _IDS), **_ECOS,
          factory=lambda seed: variants.FinishTimeFairness()),
    _spec("finish_time_fairness_agnostic", variants.finish_time_fairness_agnostic,
          "finish_time_fairness (FinishTimeFairnessPolicy)",
          "Gavel's heterogeneity-agnostic finish-time fairness (every type at the V100's throughput)",
          inputs=(_W, _STEPS, _SINCE, _IDS, _REF), **_ECOS,
          factory=lambda seed: variants.FinishTimeFairness(agnostic=True), **_AGNOSTIC),
    _spec("max_sum_throughput_normalized_by_cost", variants.max_sum_throughput_normalized_by_cost,
          "max_sum_throughput_normalized_by_cost_perf (ThroughputNormalizedByCostSumWithPerf)",
          "Gavel's maximum total throughput per dollar (instance_costs per GPU type)", inputs=("gpu_types",),
          **_ECOS),
    _spec("max_sum_throughput_normalized_by_cost_slos", variants.max_sum_throughput_normalized_by_cost_slos,
          "max_sum_throughput_normalized_by_cost_perf_SLOs (ThroughputNormalizedByCostSumWithPerfSLOs)",
          "Gavel's maximum total throughput per dollar with each job's SLO as a rate floor",
          inputs=(_STEPS, "time_to_slo", "gpu_types"), **_ECOS),
    _spec("isolated", variants.isolated, "isolated (IsolatedPolicy)",
          "Gavel's isolated share: every job an equal share of every type", inputs=(), takes_solver=False,
          **_AGNOSTIC),
    _spec("proportional", variants.proportional, "(ProportionalPolicy; not in Gavel's driver)",
          "Gavel's proportional share (c / sum(c) on every row; a normalization reference)", inputs=(),
          takes_solver=False, static=False, **_AGNOSTIC),
    _spec("allox", heuristics.allox, "allox (AlloXPolicy)",
          "Gavel's AlloX (min-cost matching of waiting jobs to free GPUs; scale factor 1 only)",
          inputs=(_STEPS, _SINCE, _IDS), takes_solver=False, static=False, factory=lambda seed: heuristics.AlloX()),
    _spec("max_min_fairness_packed", packing.max_min_fairness_packed,
          "max_min_fairness_packed (MaxMinFairnessPolicyWithPacking)",
          "Gavel's max-min fairness with space sharing (pairs of jobs on the same GPUs)", takes_solver=False,
          packing=True, static=False),
    _spec("finish_time_fairness_packed", packing.finish_time_fairness_packed,
          "finish_time_fairness_packed (FinishTimeFairnessPolicyWithPacking)",
          "Gavel's finish-time fairness with space sharing", inputs=(_W, _STEPS, _SINCE, _IDS), takes_solver=False,
          packing=True, static=False, factory=lambda seed: packing.FinishTimeFairnessPacked()),
    _spec("min_total_duration_packed", packing.min_total_duration_packed,
          "min_total_duration_packed (MinTotalDurationPolicyWithPacking)",
          "Gavel's min-total-duration with space sharing (bisection)", inputs=(_STEPS,), takes_solver=False,
          packing=True, static=False),
    _spec("max_sum_throughput_normalized_by_cost_packed_slos",
          packing.max_sum_throughput_normalized_by_cost_packed_slos,
          "max_sum_throughput_normalized_by_cost_packed_SLOs (ThroughputNormalizedByCostSumWithPackingSLOs)",
          "Gavel's maximum total throughput per dollar with space sharing and SLOs",
          inputs=(_STEPS, "time_to_slo", "gpu_types"), takes_solver=False, packing=True, static=False),
    _spec("fifo_packed", packing_greedy.fifo_packed, "fifo_packed (FIFOPolicyWithPacking)",
          "Gavel's FIFO, then waiting jobs packed with placed ones", inputs=(), takes_solver=False,
          skip_zero_priority=True, packing=True, static=False),
    _spec("max_min_fairness_water_filling_packed", packing.max_min_fairness_water_filling_packed,
          "max_min_fairness_water_filling_packed (MaxMinFairnessWaterFillingPolicyWithPacking)",
          "Gavel's max-min fairness with water filling and space sharing", takes_solver=False, packing=True, static=False),
    _spec("gandiva", packing_greedy.gandiva, "gandiva (GandivaPolicy)",
          "Gavel's Gandiva baseline (equal shares; random pairs of jobs when the cluster is full)",
          inputs=(_IDS,), takes_solver=False, packing=True, static=False, factory=packing_greedy.Gandiva),
)}


#: The four policies of Gavel's own runs in the parity table (the driver's ``_perf`` policies).
PERF_POLICIES = ("max_min_fairness", "max_sum_throughput", "min_total_duration", "fifo")


#: How the LP policies are solved: ``"direct"``, ECOS on the arrays CVXPY would build, without CVXPY
#: (:data:`hetopt.gavel.fastlp.FAST`, :data:`hetopt.gavel.fastlp_packed.FAST_PACKED`,
#: :data:`hetopt.gavel.fastlp_more.FAST_MORE`: the same allocations to the
#: bit, several times faster); ``"cvxpy"``, the policy functions as they are.
LP_PATHS = ("direct", "cvxpy")


def lp_path(name: str, spec: PolicySpec, lp: str) -> PolicySpec:
    """``spec`` with its direct-ECOS function when ``lp`` is ``"direct"`` and it is the built-in policy ``name``."""
    from ..inputs import check_choice
    from .fastlp import FAST
    from .fastlp_more import FAST_MORE
    from .fastlp_packed import FAST_PACKED

    fast = {**FAST, **FAST_PACKED, **FAST_MORE}
    if check_choice(lp, "lp", LP_PATHS) == "cvxpy" or name not in fast or POLICIES.get(name) is not spec:
        return spec
    func, factory = fast[name]
    return replace(spec, func=func, factory=factory or spec.factory)


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
                     times_since_start: np.ndarray, solver: str | None = None,
                     **more: Any) -> dict[str, Any]:
    """Keyword arguments the simulator (or :func:`~hetopt.gavel.allocate`) passes to ``spec`` besides the cluster.

    ``more`` holds the other :data:`INPUTS` the caller has (``job_ids``, ``reference_type``,
    ``time_to_slo``, ``gpu_types``); an input the spec needs and the caller lacks is an
    ``ArgumentError``.
    """
    given = {"priority_weight": priority_weight, "remaining_steps": remaining_steps,
             "times_since_start": times_since_start, **more}
    missing = [k for k in spec.inputs if k not in given]
    if missing:
        raise ArgumentError(f"policy {spec.name!r} needs {missing[0]!r}, which this caller cannot give")
    out = {k: given[k] for k in spec.inputs}
    if spec.takes_solver and solver is not None:
        out["solver"] = solver
    return out
