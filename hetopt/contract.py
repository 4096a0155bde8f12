"""The contract every paper subpackage satisfies: one :class:`Kind` object that names it all.

A paper subpackage (``hetopt.hare``, ...) declares ``KIND = Kind(...)`` in its ``kind.py``: the
instance class, the generator, the independent checker, the methods (each a :class:`Method`
with its category, a one-sentence description, the objective it reports, one of them the
default), the exact solver, the simulator and its policy registry where the paper has one, the
certification sweep, and, by dotted name (they live in layers above the paper), the plot
adapter, the claims and the benchmarks.  :mod:`hetopt.registry` collects the kinds; the front
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
from typing import Any, ClassVar, Protocol, Self

from .errors import ArgumentError, a_type

__all__ = ["CATEGORIES", "Method", "Kind", "resolve", "describe_call"]

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
    generate_instance : callable
        ``generate_instance(..., *, seed)``: a seeded instance of the paper's evaluation setup.
    example : callable
        ``example(seed, size)``: a small valid instance (solved exactly in well under a second),
        used by the hypothesis strategies and the contract tests.
    check_schedule : callable
        ``check_schedule(inst, sol) -> CheckReport``, independent of the models.
    solve_exact : callable
        ``solve_exact(inst, *, time_limit=...) -> Solution``.
    methods : tuple of Method
        Exactly one has ``default=True``.
    simulate : callable, optional
        ``simulate(inst, policy, ...) -> Solution`` where the paper has a simulator.
    policies : mapping, optional
        The simulator's policy registry (name -> policy), the one that feeds ``methods``.
    validate : callable, optional
        ``validate(n, *, seed) -> Table``: the certification sweep of ``hetopt validate``.
    export_model : callable, optional
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
    generate_instance: Callable[..., Any]
    example: Callable[[int, int], Any]
    check_schedule: Callable[..., Any]
    solve_exact: Callable[..., Any]
    methods: tuple[Method, ...]
    simulate: Callable[..., Any] | None = None
    policies: Mapping[str, Any] = field(default_factory=dict)
    validate: Callable[..., Any] | None = None
    export_model: Callable[[Any], Any] | None = None
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
