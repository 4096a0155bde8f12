"""The contract every paper subpackage satisfies: one :class:`Kind` object that names it all.

A paper subpackage (``hetopt.hare``, ...) declares ``KIND = Kind(...)`` in its ``kind.py``: the
instance class, the generator, the independent checker, the methods (each a :class:`Method`
with its category, a one-sentence description, the objective it reports, one of them the
default), the exact solver, the simulator and its policy registry where the paper has one, the
certification sweeps, and, by dotted name (they live in layers above the paper), the plot
adapter, the claims and the benchmarks.  Every verb is typed by a :class:`~typing.Protocol`
(:class:`GenerateInstance`, :class:`Example`, :class:`SolveExact`, :class:`Simulate`,
:class:`CheckSchedule`, :class:`ValidateRatio`, :class:`RatioSweep`, :class:`ExportModel`,
:class:`Validate`) stating the parameters every kind shares, so that ``mypy`` checks each
``kind.py`` against them.  :mod:`hetopt.registry` collects the kinds; the front
door (:mod:`hetopt.api`), :func:`hetopt.compare`, the command line, the claims ledger, the
hypothesis strategies, the plots, the README tables and the docs read the registry and nothing
else.  ``CONTRIBUTING.md`` states the contract in prose; ``tests/test_contract.py`` plugs in a
seventh, toy kind to prove that one registration is enough.

Examples
--------
>>> import hetopt
>>> kind = hetopt.registry.get_kind("hare")
>>> kind.default_method.name
'exact'
>>> kind.method("algorithm1").category
'heuristic'
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self

from .errors import ArgumentError, a_type

if TYPE_CHECKING:
    import numpy as np

    from .report import Table
    from .result import Certificate, CheckReport, SimulationResult, Solution
    from .validate import SweepResults

__all__ = ["CATEGORIES", "Method", "Kind", "resolve", "describe_call", "InstanceClass", "GenerateInstance",
           "Example", "SolveExact", "Simulate", "CheckSchedule", "ValidateRatio", "RatioSweep", "ExportModel",
           "Validate", "VERBS"]

#: What a method is: ``exact`` returns a certified optimum (OPTIMAL only when proven) or a
#: proven bound; ``heuristic`` is a paper's algorithm (never OPTIMAL; a bound only when it proves
#: one on the way, as Hare's Algorithm 1 from its relaxation); ``baseline`` is what a paper
#: compares against; ``user`` is your own policy in :func:`hetopt.compare`.
CATEGORIES = ("exact", "heuristic", "baseline", "user")


def resolve(target: str) -> Any:
    """The object named ``"package.module:attribute"`` (or the module for ``"package.module"``).

    Kinds name their plot adapter, claims and benchmarks this way because those live in layers
    above the paper's subpackage, which must not import them.
    """
    module, _, attr = target.partition(":")
    mod = importlib.import_module(module)
    return getattr(mod, attr) if attr else mod


def describe_call(func: Callable[..., Any]) -> str:
    """``module.function (option=value, ...)``: what a method runs, with the options its name fixes."""
    fixed: list[str] = []
    while isinstance(func, partial):
        fixed = [f"{k}={v!r}" for k, v in (func.keywords or {}).items()] + fixed
        func = func.func
    name = f"{getattr(func, '__module__', '')}.{getattr(func, '__qualname__', getattr(func, '__name__', ''))}"
    name = name.removeprefix("hetopt.")
    return name + (f" ({', '.join(fixed)})" if fixed else "")


@dataclass(frozen=True)
class Method:
    """One solving method of a kind: ``method(instance, **options) -> Solution``.

    Attributes
    ----------
    name : str
        The name :func:`hetopt.solve` and ``hetopt solve --method`` take.
    func : callable
        ``func(instance, **options)`` returning the kind's solution type (a
        :class:`~hetopt.result.Solution`).
    category : str
        One of :data:`CATEGORIES`.
    description : str
        One or two full sentences: what the method is (shown by ``--list-methods`` and the
        README's methods table).
    objective : str
        What ``Solution.objective`` measures for this method ("total weighted JCT (s)"): rows
        of :func:`hetopt.compare` are ranked against an optimum of the same objective only.
    default : bool
        The kind's default method (exactly one per kind), run by ``hetopt.solve(inst)``.
    """

    name: str
    func: Callable[..., Any]
    category: str
    description: str
    objective: str
    default: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ArgumentError(f"Method name is {self.name!r}; expected an identifier such as 'exact'")
        if self.category not in CATEGORIES:
            raise ArgumentError(f"method {self.name}: category is {self.category!r}; expected one of {CATEGORIES}")
        if not callable(self.func):
            raise ArgumentError(f"method {self.name}: func is {a_type(self.func)}; expected a callable")
        if not self.description.strip() or not self.objective.strip():
            raise ArgumentError(f"method {self.name}: description and objective must be non-empty sentences")

    @property
    def runs(self) -> str:
        """The function it calls, with the options its name fixes."""
        return describe_call(self.func)

    def accepts(self, option: str) -> bool:
        """True when ``option`` may be passed: a named parameter of the function that the name does not fix.

        A ``**kwargs`` catch-all does not count: it would swallow any typo.
        """
        func = self.func
        while isinstance(func, partial):
            if option in (func.keywords or {}):
                return False
            func = func.func
        try:
            params = inspect.signature(func).parameters
        except (TypeError, ValueError):
            return False
        return option in params and params[option].kind in (inspect.Parameter.KEYWORD_ONLY,
                                                               inspect.Parameter.POSITIONAL_OR_KEYWORD)

    def options(self) -> list[str]:
        """The keyword options a caller may pass (every keyword parameter the name does not fix)."""
        func, fixed = self.func, set()
        while isinstance(func, partial):
            fixed |= set(func.keywords or {})
            func = func.func
        params = list(inspect.signature(func).parameters.values())[1:]
        return [p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name not in fixed]

    def __call__(self, instance: Any, **options: Any) -> Any:
        """Run the method on ``instance``; an option it does not take is an :class:`ArgumentError`.

        The result records the method's name in ``info["method"]`` (plots and tables name it).
        """
        allowed = self.options()
        unknown = [k for k in options if not self.accepts(k)]
        if unknown:
            raise ArgumentError(f"method {self.name!r} takes no option {', '.join(map(repr, unknown))}; "
                                f"its options are: {', '.join(allowed) or 'none'}")
        sol = self.func(instance, **options)
        info = getattr(sol, "info", None)
        if isinstance(info, dict):
            info.setdefault("method", self.name)
        return sol


class InstanceClass(Protocol):
    """What the package asks of a kind's instance class: a ``KIND`` name, ``from_dict`` and ``to_dict``."""

    KIND: ClassVar[str]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """The instance whose :meth:`to_dict` is ``data``."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The instance's fields as JSON-ready values."""
        ...


class GenerateInstance(Protocol):
    """``generate_instance(*, ..., seed=None)``: a seeded instance of the paper's evaluation setting.

    Every parameter is keyword-only and has a default (``generate_instance(seed=0)`` is an
    instance in every kind); ``seed`` is an integer in ``[0, 2**63 - 1]``, a
    ``numpy.random.Generator`` or None (:func:`hetopt.inputs.rng_from`).
    """

    def __call__(self, *, seed: int | np.random.Generator | None = None) -> InstanceClass:
        """The instance drawn from ``seed``."""
        ...


class Example(Protocol):
    """``example(*, seed, size)``: a small valid instance, solved exactly in well under a second.

    ``seed`` is an integer in ``[0, 2**63 - 1]`` and ``size`` an integer in
    ``[0, hetopt.inputs.MAX_EXAMPLE_SIZE]`` (both required, checked by :func:`hetopt.inputs.check_example`:
    anything else is an :class:`~hetopt.errors.ArgumentError` naming it).  The hypothesis
    strategies and the contract tests draw instances from it.
    """

    def __call__(self, *, seed: int, size: int) -> InstanceClass:
        """The example of this seed and size."""
        ...


class SolveExact(Protocol):
    """``solve_exact(inst, *, time_limit=None, mip_gap=None, threads=1, max_size=..., ...)``.

    ``time_limit`` in seconds (None: no limit); ``mip_gap`` the relative gap at which the
    solver may stop (None: the route's exact default); ``threads`` the solver threads (1 by
    default in every kind, for reproducible runs; None: the solver's default); ``max_size`` the
    route's size guard where it has one (its unit in the kind's docstring).  Returns a
    :class:`~hetopt.result.Solution`, OPTIMAL only when proven.
    """

    def __call__(self, inst: Any, *, time_limit: float | None = None, mip_gap: float | None = None,
                 threads: int | None = 1) -> Solution:
        """The certified optimum of ``inst`` (or the incumbent and a proven bound)."""
        ...


class Simulate(Protocol):
    """``simulate(inst, policy, *, options=None, ...)``: a policy of the kind's ``POLICIES`` run to its end.

    ``options`` is a mapping of the named policy's options (a kind whose policies take none
    refuses a non-empty mapping); returns a :class:`~hetopt.result.SimulationResult`.
    """

    def __call__(self, inst: Any, policy: Any, *, options: Mapping[str, Any] | None = None) -> SimulationResult:
        """The run of ``policy`` on ``inst``."""
        ...


class CheckSchedule(Protocol):
    """``check_schedule(inst, sol, *, ...)``: the independent checker, in the kind's ``checker.py``."""

    def __call__(self, inst: Any, sol: Any) -> CheckReport:
        """Every violated constraint of ``sol`` on ``inst`` and the recomputed objective."""
        ...


class ValidateRatio(Protocol):
    """``validate_ratio(inst, *, time_limit=..., ...)``: the paper's ratio or gap claim certified on one instance."""

    def __call__(self, inst: Any, *, time_limit: float | None = None) -> Certificate:
        """The certificate of ``inst``."""
        ...


class RatioSweep(Protocol):
    """``ratio_sweep(n, *, seed=0, executor=..., ...)``: :class:`ValidateRatio` on ``n`` seeded instances."""

    def __call__(self, n: int, *, seed: int = 0, executor: Any = None) -> SweepResults:
        """The certificates of seeds ``seed .. seed + n - 1``."""
        ...


class ExportModel(Protocol):
    """``export_model(inst)``: the exact Pyomo model, for ``hetopt export``."""

    def __call__(self, inst: Any) -> Any:
        """The model of ``inst``."""
        ...


class Validate(Protocol):
    """``validate(n, *, seed)``: the certification sweep of ``hetopt validate`` as a table."""

    def __call__(self, n: int, *, seed: int) -> Table:
        """The table of ``n`` certificates from ``seed`` on."""
        ...


#: Every verb of a :class:`Kind` and the Protocol that types it (the README's and CONTRIBUTING.md's verb tables).
VERBS: dict[str, type] = {"generate_instance": GenerateInstance, "example": Example, "solve_exact": SolveExact,
                          "simulate": Simulate, "check_schedule": CheckSchedule, "validate_ratio": ValidateRatio,
                          "ratio_sweep": RatioSweep, "export_model": ExportModel, "validate": Validate}


@dataclass(frozen=True)
class Kind:
    """Everything the package knows about one paper's problem (one instance kind).

    Attributes
    ----------
    name : str
        The ``kind`` key of the instances' JSON ("hare"), also the CLI's paper name.
    title : str
        The paper, as cited in the README ("Chen et al., ..., HPDC 2022").
    instance : type
        The instance class: ``from_dict(data)``, ``to_dict()``, a class attribute ``KIND``.
    generate_instance : GenerateInstance
        ``generate_instance(*, ..., seed=None)``: a seeded instance of the paper's evaluation setup.
    example : Example
        ``example(*, seed, size)``: a small valid instance (solved exactly in well under a second),
        used by the hypothesis strategies and the contract tests.
    check_schedule : CheckSchedule
        ``check_schedule(inst, sol) -> CheckReport``, independent of the models.
    solve_exact : SolveExact
        ``solve_exact(inst, *, time_limit=None, mip_gap=None, threads=1, max_size=...) -> Solution``.
    methods : tuple of Method
        Exactly one has ``default=True``.
    simulate : Simulate, optional
        ``simulate(inst, policy, *, options=None, ...) -> SimulationResult`` where the paper has a
        simulator.
    policies : mapping, optional
        The simulator's policy registry (name -> policy), the one that feeds ``methods``.
    validate : Validate, optional
        ``validate(n, *, seed) -> Table``: the certification sweep of ``hetopt validate``.
    validate_ratio : ValidateRatio, optional
        ``validate_ratio(inst, *, time_limit, ...) -> Certificate``: the paper's ratio (or gap)
        claim on one instance.
    ratio_sweep : RatioSweep, optional
        ``ratio_sweep(n, *, seed=0, executor=None, ...) -> SweepResults``: ``validate_ratio`` on
        ``n`` seeded instances.
    export_model : ExportModel, optional
        ``export_model(inst)``: the exact Pyomo model, for ``hetopt export``.
    card : str
        The formulation card, relative to the repository root (``models/hare2022.md``).
    example_instance : str, optional
        A bundled instance that stands for the kind in the docs (its format page shows it).
    plot, claims, bench : str, optional
        Dotted names (:func:`resolve`): the Gantt adapter ``(inst, sol, ax, **options) -> Axes``,
        the claims package (``CLAIMS``, ``SWEEPS``, ``CONFORMANCE``) and the benchmark module
        (``bench(quick) -> list[Table]``).
    depends_on : tuple of str
        Other kinds this subpackage imports (Gavel, the common baseline); the import-graph test
        allows exactly these edges between papers.
    """

    name: str
    title: str
    instance: type[InstanceClass]
    generate_instance: GenerateInstance
    example: Example
    check_schedule: CheckSchedule
    solve_exact: SolveExact
    methods: tuple[Method, ...]
    simulate: Simulate | None = None
    policies: Mapping[str, Any] = field(default_factory=dict)
    validate: Validate | None = None
    validate_ratio: ValidateRatio | None = None
    ratio_sweep: RatioSweep | None = None
    export_model: ExportModel | None = None
    card: str = ""
    example_instance: str | None = None
    plot: str | None = None
    claims: str | None = None
    bench: str | None = None
    depends_on: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ArgumentError(f"Kind name is {self.name!r}; expected an identifier such as 'hare'")
        names = [m.name for m in self.methods]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ArgumentError(f"kind {self.name}: methods named twice: {dup}")
        defaults = [m.name for m in self.methods if m.default]
        if len(defaults) != 1:
            raise ArgumentError(f"kind {self.name}: exactly one method must be the default; got {defaults or 'none'}")
        if getattr(self.instance, "KIND", None) != self.name:
            raise ArgumentError(f"kind {self.name}: {self.instance.__name__}.KIND is "
                                f"{getattr(self.instance, 'KIND', None)!r}; expected {self.name!r}")

    @property
    def default_method(self) -> Method:
        """The method :func:`hetopt.solve` runs when none is named."""
        return next(m for m in self.methods if m.default)

    def method(self, name: str) -> Method:
        """The method called ``name``; :class:`ArgumentError` listing the kind's methods otherwise."""
        for m in self.methods:
            if m.name == name:
                return m
        raise ArgumentError(f"method is {name!r}; {self.name} methods are: {', '.join(m.name for m in self.methods)}")

    def load(self, what: str) -> Any:
        """The plot adapter, claims package or bench module (``what`` in plot, claims, bench); None if absent."""
        target = getattr(self, what)
        return None if target is None else resolve(target)
