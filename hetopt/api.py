"""The front door: load any instance, list the methods of a kind, solve with one call.

>>> import hetopt
>>> inst = hetopt.load_instance("liu2024_table2")          # a bundled instance, a path or a dict
>>> sorted(hetopt.methods("placement"))[:3]
['exact', 'exact_scip', 'exhaustive']
>>> sol = hetopt.solve(inst, "exact")
>>> sol.status.value, round(sol.objective)
('optimal', 10592)

Every kind of instance (``placement``, ``hare``, ``oasis``, ``contention``, ``hadar``,
``gavel``) is dispatched on the ``kind`` key of its JSON; the command line (``hetopt solve``)
uses exactly these three functions.
"""

from __future__ import annotations

import importlib
import inspect
import json
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Mapping

from .errors import HetoptError, InstanceError

if TYPE_CHECKING:
    from .report import Table

__all__ = ["KINDS", "Method", "load_instance", "methods", "methods_table", "solve", "kind_of", "commands_module"]

#: instance kind -> module with the kind's commands (KIND, METHODS, INSTANCE, solution_summary, ...)
KINDS = {
    "placement": "hetopt.placement.commands",
    "hare": "hetopt.hare.commands",
    "oasis": "hetopt.oasis.commands",
    "contention": "hetopt.contention.commands",
    "hadar": "hetopt.hadar.commands",
    "gavel": "hetopt.gavel.commands",
}

#: What each method is: "exact" (certified optimum or proven bound), "heuristic" (the paper's
#: algorithm, no bound), "baseline" (a method the paper compares against).  A method missing
#: here is reported as "heuristic"; tests/test_api.py checks the table covers every method.
CATEGORIES: dict[str, dict[str, str]] = {
    "placement": {"exact": "exact", "exact_scip": "exact", "exhaustive": "exact", "has": "heuristic",
                  "has_hungarian": "heuristic", "jps": "heuristic", "optimus": "baseline",
                  "optimus_lb": "baseline", "optimus_lb_balanced_gains": "baseline", "las": "baseline"},
    "hare": {"exact": "exact", "exact_cpsat": "exact", "exact_milp": "exact", "exact_scip": "exact",
             "brute_force": "exact", "algorithm1": "heuristic",
             "algorithm1_lp": "heuristic", "algorithm1_esf": "heuristic", "algorithm1_lp_esf": "heuristic",
             "algorithm1_ef": "heuristic", "algorithm1_lp_ef": "heuristic",
             "gavel_fifo": "baseline", "srtf": "baseline", "sched_homo": "baseline", "sched_allox": "baseline",
             "srtf_round": "baseline", "sched_homo_offline": "baseline", "sched_allox_offline": "baseline"},
    "oasis": {"exact": "exact", "oasis": "heuristic", "oasis_capped": "heuristic", "fifo": "baseline",
              "drf": "baseline", "rrh": "baseline", "dorm": "baseline"},
    "contention": {"exact": "exact", "ada_srsf": "heuristic", "ada_srsf_lwf2": "heuristic",
                   "ada_srsf_lwf4": "heuristic", "ada_srsf_ff": "heuristic", "ada_srsf_ls": "heuristic",
                   "ada_srsf_rand": "heuristic", "srsf1": "baseline", "srsf2": "baseline", "srsf3": "baseline"},
    "hadar": {"exact": "exact", "hadar": "heuristic", "hadare": "heuristic", "gavel": "baseline",
              "tiresias": "baseline", "yarn_cs": "baseline"},
    # a gavel policy's objective is the makespan its allocation would give: only min_total_duration
    # certifies that optimum; the other policies are optimal for their own LP objective only
    "gavel": {"max_min_fairness": "baseline", "max_sum_throughput": "baseline", "min_total_duration": "exact",
              "fifo": "baseline", "simulate_max_min_fairness": "baseline", "simulate_max_sum_throughput": "baseline",
              "simulate_min_total_duration": "baseline", "simulate_fifo": "baseline"},
}


@dataclass(frozen=True)
class Method:
    """One solving method of a kind.

    Attributes
    ----------
    name : str
        The name used by :func:`solve` and ``hetopt solve --method``.
    func : callable
        ``func(instance, **options) -> Solution``.
    category : str
        ``"exact"``, ``"heuristic"`` or ``"baseline"`` (``"user"`` for your own policies in
        :func:`hetopt.compare`).
    description : str
        One line: the first line of the function's docstring and the options the name fixes.
    """

    name: str
    func: Callable[..., Any]
    category: str
    description: str

    def __call__(self, instance: Any, **options: Any) -> Any:
        return self.func(instance, **options)


def commands_module(kind: str) -> ModuleType:
    """The commands module of ``kind``; ``InstanceError`` naming the kinds when unknown."""
    if not isinstance(kind, str) or kind not in KINDS:
        raise InstanceError(f"kind is {kind!r}; expected one of {', '.join(KINDS)}")
    return importlib.import_module(KINDS[kind])


def _describe(func: Callable[..., Any]) -> str:
    fixed = ""
    while isinstance(func, partial):
        if func.keywords:
            fixed = " (" + ", ".join(f"{k}={v!r}" for k, v in func.keywords.items()) + ")" + fixed
        func = func.func
    doc = inspect.getdoc(func) or ""
    first = doc.strip().split("\n")[0].rstrip(".") if doc else getattr(func, "__name__", "")
    return f"{getattr(func, '__module__', '')}.{getattr(func, '__name__', '')}{fixed}: {first}"


def methods(kind: str) -> dict[str, Method]:
    """Every method of ``kind``, name -> :class:`Method` (with its category and a one-line description)."""
    mod = commands_module(kind)
    cats = CATEGORIES.get(kind, {})
    return {name: Method(name, f, cats.get(name, "heuristic"), _describe(f)) for name, f in mod.METHODS.items()}


def methods_table(kinds: Any = None) -> Table:
    """Every method of every kind (or of ``kinds``): kind, method, category, what it runs.

    The README's methods table is this table (a test keeps the two equal).
    """
    from .report import Table

    t = Table("methods by kind (hetopt.solve(instance, method), hetopt solve --method)",
              ["kind", "method", "category", "runs", "what it is"])
    for kind in (KINDS if kinds is None else kinds):
        for name, m in methods(kind).items():
            func, _, what = m.description.partition(": ")
            t.add(kind, f"`{name}`", m.category, f"`{func.replace('hetopt.', '', 1)}`", what)
    return t


def _read(source: str | Path) -> dict[str, Any]:
    from .data import instance_path

    p = Path(source)
    if not p.exists() and not str(source).endswith(".json") and "/" not in str(source):
        try:
            p = instance_path(str(source))
        except FileNotFoundError:
            raise InstanceError(f"no such file or bundled instance: {source}") from None
    if not p.exists():
        raise InstanceError(f"no such file: {source}")
    if p.is_dir():
        raise InstanceError(f"{source} is a directory; expected a JSON instance file")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InstanceError(f"cannot read {source}: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InstanceError(f"{source} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(data, dict):
        raise InstanceError(f"{source} holds a JSON {type(data).__name__}; an instance is a JSON object with a 'kind' key")
    return data


def load_instance(source: str | Path | Mapping[str, Any]) -> Any:
    """An instance of any kind from a JSON file path, a bundled instance name, or a parsed dict.

    Raises
    ------
    InstanceError
        The file is missing, unreadable, not JSON, not an object, of an unknown ``kind``, or
        its fields are invalid (the message names the field).
    """
    if isinstance(source, Mapping):
        data = dict(source)
    elif isinstance(source, (str, Path)):
        data = _read(source)
    else:
        raise InstanceError(f"source is a {type(source).__name__}; expected a path, a bundled instance name or a dict")
    if "kind" not in data:
        raise InstanceError(f"the instance has no 'kind' key; expected one of {', '.join(KINDS)}")
    return commands_module(data["kind"]).INSTANCE.from_dict(data)


def kind_of(instance: Any) -> str:
    """The kind of an instance object (its class's module decides)."""
    mod = type(instance).__module__
    for kind in KINDS:
        if mod.startswith(f"hetopt.{kind}."):
            return kind
    raise InstanceError(f"instance is a {type(instance).__name__}; expected a hetopt instance of kind "
                        f"{', '.join(KINDS)} (see hetopt.load_instance)")


def solve(instance: Any, method: str, **options: Any) -> Any:
    """Solve ``instance`` with the named method of its kind; ``options`` go to the method.

    Raises
    ------
    HetoptError
        The method is unknown (the message lists the kind's methods).
    """
    kind = kind_of(instance)
    table = methods(kind)
    if method not in table:
        raise HetoptError(f"method is {method!r}; {kind} methods are: {', '.join(table)}")
    return table[method](instance, **options)
