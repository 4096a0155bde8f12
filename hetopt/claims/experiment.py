"""A claim's experiment as data: a function and the keyword inputs it runs with (issue 30).

A claim's check and its flip are the same :class:`Experiment` with one input changed, so a
machine can see what a flip changes: :meth:`Experiment.with_input` builds the flip's experiment,
:meth:`Experiment.parameters` gives every input's value (the function's defaults filled in).
A :class:`Parameter` declares where the value of one input comes from: printed in the paper, or a
prior fixed before the comparison.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Experiment", "experiment", "built", "Parameter", "is_collection", "FORBIDDEN_INPUT"]

#: Substrings of an input name a flip may not change: the bound, the threshold, the aggregation,
#: the set of readings (rule 3 of issue 30).
FORBIDDEN_INPUT = ("tol", "threshold", "margin", "bound", "limit", "printed", "paper", "target", "aggregat", "readings")


def is_collection(value: Any) -> bool:
    """True for a tuple, list, set or mapping: a set of readings or workloads, not one input value."""
    return isinstance(value, tuple | list | set | frozenset | Mapping)


@dataclass(frozen=True)
class Experiment:
    """``func(**inputs)``: the experiment a claim's check (or its flip) runs.

    Attributes
    ----------
    func : callable
        Returns the :class:`~hetopt.claims.ledger.Outcome` (or, with ``builds``, a zero-argument
        callable that returns it).
    inputs : tuple of (str, value) pairs
        The keyword arguments given explicitly; the others take the function's defaults.
    builds : bool
        ``func(**inputs)`` builds the check (a closure) rather than running it.
    """

    func: Callable[..., Any]
    inputs: tuple[tuple[str, Any], ...] = field(default=())
    builds: bool = False

    def __post_init__(self) -> None:
        names = self.signature_names()
        if names is not None:
            unknown = [k for k, _ in self.inputs if k not in names]
            if unknown:
                raise ValueError(f"experiment {self.name}: no input named {', '.join(unknown)} "
                                 f"(its inputs: {', '.join(names) or 'none'})")

    def __call__(self) -> Any:
        """Run the experiment and return its Outcome."""
        out = self.func(**dict(self.inputs))
        return out() if self.builds else out

    @property
    def name(self) -> str:
        """The function's qualified name."""
        f = getattr(self.func, "func", self.func)  # a functools.partial
        return f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', repr(f))}"

    def signature_names(self) -> list[str] | None:
        """The keyword inputs the function accepts (None when it takes ``**kwargs``)."""
        params = inspect.signature(self.func).parameters.values()
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
            return None
        return [p.name for p in params if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                     inspect.Parameter.KEYWORD_ONLY)]

    def parameters(self) -> dict[str, Any]:
        """Every input's value in this experiment: the explicit ones and the function's defaults."""
        out = {p.name: p.default for p in inspect.signature(self.func).parameters.values()
               if p.default is not inspect.Parameter.empty}
        out.update(dict(self.inputs))
        return out

    def with_input(self, name: str, value: Any) -> Experiment:
        """The same experiment with input ``name`` set to ``value`` (a flip)."""
        return Experiment(self.func, tuple((k, v) for k, v in self.inputs if k != name) + ((name, value),),
                          self.builds)

    def describe(self) -> str:
        """``module.function(k=v, ...)``, for the JSON listing."""
        return f"{self.name}({', '.join(f'{k}={v!r}' for k, v in self.inputs)})"


def experiment(func: Callable[..., Any], /, **inputs: Any) -> Experiment:
    """``func(**inputs)`` returns the Outcome."""
    return Experiment(func, tuple(inputs.items()))


def built(factory: Callable[..., Any], /, **inputs: Any) -> Experiment:
    """``factory(**inputs)`` returns the check, a zero-argument callable returning the Outcome."""
    return Experiment(factory, tuple(inputs.items()), builds=True)


@dataclass(frozen=True)
class Parameter:
    """Where the value of one input of a claim's experiment comes from (rules 1-2 of issue 30).

    Exactly one of ``printed`` and ``prior`` is given.  A printed value (a delay, a size, a rate
    the paper prints) is used as printed; an unprinted one gets a prior fixed before the
    comparison, with its source.  Sweeping either is a diagnosis (the claim's sweep), never the
    verdict.

    Attributes
    ----------
    input : str
        The input of the check's experiment.
    value : any
        Its value in the check.
    printed : str
        Where the paper prints it (quoted).
    prior : str
        Where the prior comes from, when the paper does not print it.
    """

    input: str
    value: Any
    printed: str = ""
    prior: str = ""

    def __post_init__(self) -> None:
        if bool(self.printed) == bool(self.prior):
            raise ValueError(f"parameter {self.input}: give exactly one of printed (where the paper prints it) and "
                             "prior (where the unprinted value comes from)")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {"input": self.input, "value": _jsonable(self.value),
                **({"printed": self.printed} if self.printed else {"prior": self.prior})}


def _jsonable(v: Any) -> Any:
    if v is None or isinstance(v, bool | int | float | str):
        return v
    if isinstance(v, tuple | list):
        return [_jsonable(x) for x in v]
    return repr(v)
