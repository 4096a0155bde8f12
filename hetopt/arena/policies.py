"""The arena's policy registry: Gavel's 24 policies, Tiresias, LAS, SRTF, YARN-CS, and yours.

Every entry is a :class:`PolicyEntry` (a factory of :class:`~hetopt.arena.protocol.Policy` objects,
a description, what the adapter keeps from its source model and what it drops; ``models/arena.md``
prints them).  :func:`register_policy` adds one; :func:`make_policy` builds a fresh policy for a run.

* Gavel's policies (:data:`hetopt.gavel.POLICIES`, ``mode="allocation"``) run through
  :class:`GavelAllocation`: the same allocator :func:`hetopt.gavel.simulate` calls (the LPs as Gavel
  poses them, ECOS), the same mechanism flags (type shuffling of the agnostic policies, FIFO's
  zero-priority rule) and pair throughputs of the packing policies.
* The per-round rules (``mode="placement"``, :mod:`hetopt.arena.rules`): ``tiresias`` (hetopt.hadar's
  discretized 2D-LAS), ``las`` (least attained service), ``srtf`` (shortest remaining time first),
  ``yarn_cs`` (hetopt.hadar's capacity scheduler: non-preemptive FIFO).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..errors import ArgumentError
from ..gavel.policies import POLICIES as GAVEL_POLICIES
from ..gavel.policies import PolicySpec
from .protocol import MODES, Options, Policy, RoundState
from .workload import Workload

__all__ = ["PolicyEntry", "POLICIES", "register_policy", "unregister_policy", "make_policy", "GavelAllocation"]



@dataclass(frozen=True)
class PolicyEntry:
    """One policy of the arena.

    Attributes
    ----------
    name : str
        The name ``hetopt.arena.run(policies=...)`` and ``hetopt arena --policies`` take.
    factory : callable
        ``factory(**options) -> Policy``: a fresh policy object for one run.
    description : str
        One sentence.
    source : str
        Where it comes from (``"gavel"``, ``"hadar"``, ``"arena"``, a paper, ``"user"``).
    keeps, drops : str
        What the adapter keeps from its source model, and what it drops (the card prints both).
    packs : bool
        The policy may run two jobs on one GPU (``state.pairs``); :func:`~hetopt.arena.run` then divides
        by the bounds that allow packing (``packing=True`` of :mod:`hetopt.arena.bounds`).
    """

    name: str
    factory: Callable[..., Policy]
    description: str
    source: str = "user"
    keeps: str = ""
    drops: str = ""
    packs: bool = False

    @property
    def copies(self) -> bool:
        """The policy may run a job as several gangs at once (its class sets ``copies = True``, HadarE's forks).

        A job may then hold more than ``scale_factor`` GPUs, so no bound of :mod:`hetopt.arena.bounds` holds.
        """
        return bool(getattr(self.factory, "copies", False))

    def make(self, **options: Any) -> Policy:
        """A fresh policy (``options`` go to the factory); checks the options' names and ``mode``."""
        import inspect

        try:
            params = dict(inspect.signature(self.factory).parameters)
        except (TypeError, ValueError):  # pragma: no cover - a builtin factory
            params = {}
        if params and not any(p.kind is p.VAR_KEYWORD for p in params.values()):
            for key in options:
                if key not in params:
                    raise ArgumentError(f"options has {key!r}, which policy {self.name!r} does not take; its options: "
                                        f"{sorted(params)}")
        policy = self.factory(**options)
        if getattr(policy, "mode", None) not in MODES or not callable(policy) or not hasattr(policy, "reset"):
            raise ArgumentError(f"policy {self.name!r}: its factory returned {policy!r}, which is not a Policy "
                                f"(mode in {MODES}, reset(workload, options, *, seed), __call__(state))")
        return policy


#: Name -> :class:`PolicyEntry`: the one registry of the arena (the kind's methods and ``run`` read it).
POLICIES: dict[str, PolicyEntry] = {}


def register_policy(name: str, factory: Callable[..., Policy], *, description: str, source: str = "user",
                    keeps: str = "", drops: str = "", packs: bool = False, replace: bool = False) -> PolicyEntry:
    """Add a policy to the arena: ``factory(**options)`` returns a :class:`~hetopt.arena.protocol.Policy`.

    Raises
    ------
    ArgumentError
        ``name`` is not an identifier, is taken (unless ``replace``), or the factory is not callable.
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise ArgumentError(f"name is {name!r}; expected an identifier such as 'my_policy'")
    if name in POLICIES and not replace:
        raise ArgumentError(f"policy {name!r} is already registered (pass replace=True to replace it)")
    if not callable(factory):
        raise ArgumentError(f"factory is {factory!r}; expected a callable returning a Policy")
    if not isinstance(description, str) or not description.strip():
        raise ArgumentError("description must be a non-empty sentence")
    if not isinstance(packs, bool):
        raise ArgumentError(f"packs is {packs!r}; expected True or False")
    entry = PolicyEntry(name, factory, description, source, keeps, drops, packs)
    POLICIES[name] = entry
    return entry


def unregister_policy(name: str) -> None:
    """Remove a policy (tests register toys and remove them)."""
    if name not in POLICIES:
        raise ArgumentError(f"policy {name!r} is not registered")
    del POLICIES[name]


def make_policy(policy: Any, **options: Any) -> Policy:
    """A fresh policy from a registered name (``options`` to its factory) or a policy object itself."""
    if isinstance(policy, str):
        if policy not in POLICIES:
            raise ArgumentError(f"policy is {policy!r}; expected one of {sorted(POLICIES)} or a Policy object")
        return POLICIES[policy].make(**options)
    if getattr(policy, "mode", None) in MODES and callable(policy) and hasattr(policy, "reset"):
        if options:
            raise ArgumentError("policy options apply to a registered name, not to a policy object")
        return policy
    raise ArgumentError(f"policy is {policy!r}; expected a registered name or a Policy (mode, reset, __call__)")


class GavelAllocation:
    """A Gavel policy in the arena: its allocator (as :func:`hetopt.gavel.simulate` builds it) at every reset.

    Parameters
    ----------
    name : str
        A key of :data:`hetopt.gavel.POLICIES`.
    solver : {"ecos", "highs"}
        The LP solver of the LP policies (``"ecos"``: Gavel's).
    lp : {"direct", "cvxpy"}
        ``"direct"`` (default): the policies of :data:`hetopt.gavel.fastlp.FAST` (and of
        :data:`hetopt.gavel.fastlp_packed.FAST_PACKED`, :data:`hetopt.gavel.fastlp_more.FAST_MORE`) hand
        ECOS the arrays CVXPY would build, without CVXPY (the same allocations, several times faster); ``"cvxpy"``: the
        policy functions of :mod:`hetopt.gavel` as they are.
    **policy_options
        The policy function's own options (as ``hetopt.gavel.simulate(options=...)``).
    """

    mode: ClassVar[str] = "allocation"

    def __init__(self, name: str, solver: str = "ecos", lp: str = "direct", **policy_options: Any):
        from ..gavel.lp import check_solver
        from ..gavel.policies import lp_path

        if name not in GAVEL_POLICIES:
            raise ArgumentError(f"name is {name!r}; expected one of {sorted(GAVEL_POLICIES)}")
        self.name = name
        self.spec: PolicySpec = GAVEL_POLICIES[name]
        self.spec = lp_path(name, self.spec, lp)
        self.solver = check_solver(solver)
        self.options = policy_options
        self.shuffle_types = self.spec.shuffle_types
        self.skip_zero_priority = self.spec.skip_zero_priority
        self.pair_throughput: Callable[[int, int], np.ndarray | None] | None = None

    def reset(self, workload: Workload, options: Options, *, seed: int) -> None:
        """The allocator of this run (a fresh stateful policy, Gavel's columns: types with GPUs by name)."""
        from ..gavel.rounds import GavelRounds
        from ..gavel.simulator import make_allocator, pair_table
        from .sources import to_gavel

        inst = to_gavel(workload)
        perm = [inst.gpu_types.index(g) for g in workload.gpu_types]
        self.perm = np.asarray(perm)
        pairs_of = pair_table(inst) if self.spec.packing else None
        if pairs_of is not None:
            table = pairs_of

            def pair(a: int, b: int) -> np.ndarray | None:
                p = table(a, b)
                return None if p is None else p[self.perm]

            self.pair_throughput = pair
        self.allocate = make_allocator(inst, self.name, self.spec, GavelRounds().policy_columns(inst),
                                       np.asarray(inst.throughput, dtype=float), self.solver, self.options,
                                       seed=seed, pairs_of=pairs_of)

    def __call__(self, state: RoundState) -> np.ndarray:
        """The allocation of ``state.jobs`` and ``state.pairs``, in the workload's columns."""
        jobs = state.jobs
        X = self.allocate(jobs, state.now, state.remaining[jobs], state.now - state.workload.arrival[jobs],
                          list(state.pairs))
        return X[:, self.perm]


def _gavel_entries() -> None:
    for name, spec in GAVEL_POLICIES.items():
        keeps = ("its allocation at each reset (" + (spec.gavel or name) + "), computed as hetopt.gavel.simulate "
                 "computes it; the round mechanism's flags" + (" (types shuffled every round)" if spec.shuffle_types
                                                                else "")
                 + (" (zero-priority entries skipped)" if spec.skip_zero_priority else "")
                 + ("; Gavel's measured pair throughputs" if spec.packing else ""))
        drops = ("nothing under the default options; servers, restart delays and contention are the engine's"
                 if not spec.packing else "a packed pair pays one restart delay and shares one gang's servers")
        register_policy(name, lambda _n=name, **o: GavelAllocation(_n, **o), description=spec.description,
                        source="gavel", keeps=keeps, drops=drops, packs=spec.packing, replace=True)


def _rule_entries() -> None:
    from . import rules

    classes: tuple[Any, ...] = (rules.Tiresias, rules.LAS, rules.SRTF, rules.YarnCS)
    for cls in classes:
        register_policy(cls.name, cls, description=cls.description, source=cls.source, keeps=cls.keeps,
                        drops=cls.drops, replace=True)


def _paper_entries() -> None:
    """The five papers' schedulers (their adapters say what they keep from the paper's model and what they drop)."""
    from . import paper_hadar, paper_hare, paper_liu, paper_oasis, paper_wang

    classes: tuple[Any, ...] = (paper_hadar.Hadar, paper_hadar.HadarE, paper_liu.LiuHAS, paper_liu.LiuJPS,
                                paper_hare.HareAlgorithm1, paper_hare.HareAlgorithm1LP, paper_oasis.OASiS,
                                paper_wang.AdaSRSF)
    for cls in classes:
        register_policy(cls.name, cls, description=cls.description, source=cls.source, keeps=cls.keeps,
                        drops=cls.drops, replace=True)


def describe() -> list[dict[str, str]]:
    """Every registered policy as ``{"name", "mode", "source", "description", "keeps", "drops"}``."""
    out = []
    for e in POLICIES.values():
        mode = "allocation" if e.source == "gavel" else getattr(e.factory, "mode", "placement")
        out.append({"name": e.name, "mode": mode, "source": e.source, "description": e.description,
                    "keeps": e.keeps, "drops": e.drops})
    return out


_gavel_entries()
_rule_entries()
_paper_entries()
