"""The scheduling policies of the simulator: one registry, :data:`POLICIES`.

A policy of Section IV is a pair: an *admission rule* that decides whether a ready all-reduce
starts now (AdaDUAL, Algorithm 2, or SRSF(n)'s "fewer than n on each of its servers";
:mod:`hetopt.contention.admission`) and a *placement* that picks the GPUs of a queued job
(LWF-kappa, Algorithm 1, or the FF / LS / RAND baselines; :mod:`hetopt.contention.placement`).
Compute tasks and queued jobs are ordered by SRSF in every policy (Algorithm 3).

:data:`POLICIES` names every policy the package runs: Ada-SRSF (Algorithm 3) with LWF-1 and its
placement variants of Table IV and Fig. 5, and the SRSF(n) baselines of Table V.  Each entry is
a method of the kind (``hetopt.solve(inst, "srsf2")``), and
:func:`hetopt.contention.simulate` takes its name.

The protocol
------------
:func:`~hetopt.contention.simulate` also takes a policy object: any object with

``admission``
    an :data:`~hetopt.contention.admission.AdmissionRule`,
    ``rule(server_tasks, remaining, m_new, b, eta) -> bool``, or the name of a built-in rule
    (``"adadual"``, ``"srsfN"``);
``placement``
    a :data:`~hetopt.contention.placement.PlacementPolicy`,
    ``policy(free_memory, workload, gpus_per_server, n_gpus, memory) -> GPU indices or None``,
    or the name of a built-in placement (``"lwf"``, ``"ff"``, ``"ls"``, ``"rand"``).

:class:`Policy` is that object with a label, the options of the built-in placements (``kappa``,
RAND's ``seed``) and the text of its method; ``dataclasses.replace(POLICIES["srsf1"],
placement="ff")`` is SRSF(1) with first-fit placement.

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Section IV, Algorithms 1-3, Section V-A.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..errors import ArgumentError, a_type
from ..inputs import check_choice, check_seed
from .admission import AdmissionRule, adadual, check_admission_name, make_admission
from .placement import PLACEMENTS, PlacementPolicy, check_kappa, make_placement

__all__ = ["Policy", "POLICIES", "POLICY_OPTIONS", "get_policy", "with_options"]

#: The options ``simulate(..., options=...)`` passes to a policy: those of its built-in placements.
POLICY_OPTIONS = ("kappa", "seed")


@dataclass(frozen=True)
class Policy:
    """A scheduling policy: an admission rule for all-reduces and a placement for jobs.

    Parameters
    ----------
    admission : AdmissionRule or str
        A rule (:mod:`hetopt.contention.admission`), or ``"adadual"`` / ``"srsfN"`` (N >= 1).
    placement : PlacementPolicy or str
        A placement function (:mod:`hetopt.contention.placement`), or ``"lwf"`` (LWF-kappa),
        ``"ff"``, ``"ls"``, ``"rand"``.
    kappa : int
        kappa of LWF-kappa (placement ``"lwf"``), >= 1.
    seed : int
        Seed of RAND's draws (placement ``"rand"``): every run draws from a fresh generator.
    label : str
        The admission part of ``Solution.solver`` (``"<label>+<placement>"``); default
        ``"ada-srsf"`` for AdaDUAL, the rule's name otherwise.
    category : {"heuristic", "baseline"}
        The category of the method this policy is (:class:`hetopt.contract.Method`).
    description : str
        The method's description (one or two sentences).

    Raises
    ------
    ArgumentError
        An unknown rule or placement name, a kappa below 1, a bad seed.
    """

    admission: AdmissionRule | str
    placement: PlacementPolicy | str = "lwf"
    kappa: int = 1
    seed: int = 0
    label: str = ""
    category: str = "heuristic"
    description: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.admission, str):
            check_admission_name(self.admission, "admission")
        elif not callable(self.admission):
            raise ArgumentError(f"admission is {self.admission!r}; expected an admission rule or a rule name")
        if isinstance(self.placement, str):
            check_choice(self.placement, "placement", PLACEMENTS)
        elif not callable(self.placement):
            raise ArgumentError(f"placement is {self.placement!r}; expected a placement function or one of "
                                f"{', '.join(map(repr, PLACEMENTS))}")
        object.__setattr__(self, "kappa", check_kappa(self.kappa))
        seed = check_seed(self.seed)
        if not isinstance(seed, int):
            raise ArgumentError(f"seed is {self.seed!r}; expected an integer in [0, 2**63 - 1]")
        check_choice(self.category, "category", ("heuristic", "baseline"))

    def admission_rule(self) -> AdmissionRule:
        """The admission rule (a named rule resolved by :func:`~hetopt.contention.admission.make_admission`)."""
        return make_admission(self.admission) if isinstance(self.admission, str) else self.admission

    def placement_policy(self) -> PlacementPolicy:
        """A placement function for one run (RAND's generator is new at every call, seeded by ``seed``)."""
        if isinstance(self.placement, str):
            return make_placement(self.placement, kappa=self.kappa, seed=self.seed)
        return self.placement

    @property
    def admission_label(self) -> str:
        """The admission part of ``Solution.solver``."""
        if self.label:
            return self.label
        if self.admission in ("adadual", adadual):
            return "ada-srsf"
        if isinstance(self.admission, str):
            return self.admission
        return getattr(self.admission, "__name__", type(self.admission).__name__)

    @property
    def placement_label(self) -> str:
        """The placement part of ``Solution.solver``: ``lwf<kappa>``, ``ff``, ``ls``, ``rand``, a function's name."""
        if self.placement == "lwf":
            return f"lwf{self.kappa}"
        if isinstance(self.placement, str):
            return self.placement
        return getattr(self.placement, "__name__", type(self.placement).__name__)


def _srsf(n: int, text: str) -> Policy:
    return Policy(f"srsf{n}", category="baseline", description=f"SRSF({n}): {text}")


#: The policies of the paper, name -> :class:`Policy`; each is a method of the kind.
POLICIES: Mapping[str, Policy] = MappingProxyType({
    "ada_srsf": Policy("adadual", description="Ada-SRSF (Algorithm 3): SRSF ordering, LWF-1 placement, AdaDUAL "
                       "admission of all-reduces."),
    "ada_srsf_lwf2": Policy("adadual", kappa=2, description="Ada-SRSF with LWF-2 placement."),
    "ada_srsf_lwf4": Policy("adadual", kappa=4, description="Ada-SRSF with LWF-4 placement."),
    "ada_srsf_ff": Policy("adadual", "ff", description="Ada-SRSF with first-fit placement (the FF baseline of "
                          "Table IV)."),
    "ada_srsf_ls": Policy("adadual", "ls", description="Ada-SRSF with list-scheduling placement (the LS baseline "
                          "of Table IV)."),
    "ada_srsf_rand": Policy("adadual", "rand", seed=0, description="Ada-SRSF with random placement (the RAND "
                            "baseline of Table IV, seed 0)."),
    "srsf1": _srsf(1, "an all-reduce starts only when none runs on its servers (no contention)."),
    "srsf2": _srsf(2, "an all-reduce starts when fewer than two run on each of its servers."),
    "srsf3": _srsf(3, "an all-reduce starts when fewer than three run on each of its servers."),
})


def get_policy(policy: Any) -> Policy:
    """The :class:`Policy` named ``policy`` in :data:`POLICIES`, or ``policy`` as a :class:`Policy`.

    ``policy`` may be a name, a :class:`Policy`, or any object with ``admission`` and
    ``placement`` attributes (the protocol of the module docstring; ``label``, ``kappa`` and
    ``seed`` are read when present).

    Raises
    ------
    ArgumentError
        An unknown name, or an object that does not follow the protocol.
    """
    if isinstance(policy, Policy):
        return policy
    if isinstance(policy, str):
        if policy not in POLICIES:
            raise ArgumentError(f"policy is {policy!r}; expected one of {', '.join(POLICIES)} or a policy object "
                                "with admission and placement")
        return POLICIES[policy]
    if hasattr(policy, "admission") and hasattr(policy, "placement"):
        return Policy(policy.admission, policy.placement, kappa=getattr(policy, "kappa", 1),
                      seed=getattr(policy, "seed", 0), label=getattr(policy, "label", "") or type(policy).__name__)
    raise ArgumentError(f"policy is {policy!r:.80}; expected one of {', '.join(POLICIES)} or an object with "
                        "admission (an admission rule) and placement (a placement function or name)")


def with_options(policy: Policy, options: Any) -> Policy:
    """``policy`` with the given options (:data:`POLICY_OPTIONS`) replaced; None or ``{}`` keeps it.

    Raises
    ------
    ArgumentError
        ``options`` is not a mapping, or has a key that is not an option (naming ``options``); a
        bad value (naming it).
    """
    if options is None:
        return policy
    if not isinstance(options, Mapping):
        raise ArgumentError(f"options is {a_type(options)}; expected a mapping of the policy's options or None")
    unknown = sorted(str(k) for k in options if k not in POLICY_OPTIONS)
    if unknown:
        raise ArgumentError(f"options has {unknown}; a policy takes {', '.join(POLICY_OPTIONS)} (the options of its "
                            "built-in placement)")
    return dataclasses.replace(policy, **options) if options else policy
