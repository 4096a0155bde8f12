"""The front door: load any instance, list the methods of a kind, solve with one call.

>>> import hetopt
>>> inst = hetopt.load_instance("liu2024_table2")          # a bundled instance, a path or a dict
>>> sorted(hetopt.methods("placement"))[:3]
['exact', 'exact_scip', 'exhaustive']
>>> sol = hetopt.solve(inst)                                # the kind's default method: exact
>>> sol.status, round(sol.objective)
(<Status.OPTIMAL: 'optimal'>, 10592)

Every kind of instance is dispatched on the ``kind`` key of its JSON through the one registry
(:mod:`hetopt.registry`); the command line (``hetopt solve``) uses exactly these functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .contract import Kind, Method
from .errors import ArgumentError, InstanceError, a_type
from .registry import get_kind, kind_of, kinds, names
from .report import Table

__all__ = ["Method", "load_instance", "methods", "methods_table", "solve", "kind_of", "as_instance"]


def _read(source: str | Path, max_bytes: int | None) -> dict[str, Any]:
    from .data import instance_path, read_instance_file

    text = str(source)
    if isinstance(source, str) and text.lstrip().startswith("{"):
        raise InstanceError("source looks like JSON text; pass json.loads(text) (a dict), a path or a bundled name")
    p = Path(source)
    if not p.exists() and not text.endswith(".json") and "/" not in text:
        try:
            p = instance_path(text)
        except FileNotFoundError:
            raise InstanceError(f"no such file or bundled instance: {source} (hetopt instances lists them)") from None
    data = read_instance_file(p, max_bytes=max_bytes, arrays=True)
    if not isinstance(data, dict):
        what = "list" if hasattr(data, "ndim") else type(data).__name__  # an array of numbers is read as numpy's
        raise InstanceError(f"{source} holds a JSON {what}; an instance is a JSON object with a 'kind' key")
    return data


def load_instance(source: str | Path | Mapping[str, Any], *, max_bytes: int | None = None) -> Any:
    """An instance of any kind from a JSON file path, a bundled instance name, or a parsed dict.

    A file is read by the strict reader (:func:`hetopt.data.parse_json`): a key twice in one
    object, nesting deeper than :data:`~hetopt.data.MAX_DEPTH`, an integer of more than
    :data:`~hetopt.data.MAX_INT_DIGITS` digits, a number that overflows a float, ``NaN`` or
    ``Infinity``, and a file larger than the size limit are refused.  Arrays of numbers are read
    straight into numpy arrays.

    Parameters
    ----------
    source : str, Path or mapping
        A path to a JSON file, the name of a bundled instance (``hetopt instances`` lists them)
        or the parsed JSON object.
    max_bytes : int, optional
        The largest file read, in bytes.  Default: the environment variable
        ``HETOPT_MAX_INSTANCE_BYTES`` if set (the command line reads it too), else
        :data:`~hetopt.data.MAX_INSTANCE_BYTES` (100 MB).

    Returns
    -------
    instance
        The instance class of the ``kind`` the data names.

    Raises
    ------
    InstanceError
        The file is missing, unreadable, too large, not JSON or refused by the strict reader,
        not an object, of an unknown ``kind``, or its fields are invalid (the message names the
        field).
    ArgumentError
        ``max_bytes`` (or the environment variable) is not a positive integer.
    """
    if isinstance(source, Mapping):
        data = dict(source)
    elif isinstance(source, (str, Path)):
        data = _read(source, max_bytes)
    else:
        raise InstanceError(f"source is {a_type(source)}; expected a path, a bundled instance name or a dict")
    if "kind" not in data:
        raise InstanceError(f"kind is missing; expected one of {', '.join(names())}")
    return get_kind(data["kind"]).instance.from_dict(data)


def as_instance(obj: Any) -> Any:
    """``obj`` if it is an instance of a registered kind, else :func:`load_instance` of it."""
    try:
        kind_of(obj)
    except ArgumentError:
        return load_instance(obj)
    return obj


def methods(kind: str) -> dict[str, Method]:
    """Every method of ``kind``, name -> :class:`~hetopt.contract.Method` (category, description, objective)."""
    return {m.name: m for m in get_kind(kind).methods}


def methods_table(names: Iterable[str] | None = None) -> Table:
    """Every method of every kind (or of the kinds ``names``): kind, method, category, what it runs and is.

    The README's methods table is this table (a test keeps the two equal).
    """
    t = Table("methods by kind (hetopt.solve(instance, method), hetopt solve --method)",
              ["kind", "method", "category", "runs", "what it is"])
    for kind in (kinds().values() if names is None else [get_kind(n) for n in names]):
        for m in kind.methods:
            name = f"`{m.name}` (default)" if m.default else f"`{m.name}`"
            t.add(kind.name, name, m.category, f"`{m.runs}`", m.description)
    return t


def solve(instance: Any, method: str | None = None, **options: Any) -> Any:
    """Solve ``instance`` with the named method of its kind (default: the kind's default method).

    Parameters
    ----------
    instance : instance, path, bundled instance name or dict
        Anything :func:`load_instance` takes, or an instance already built.
    method : str, optional
        A name from :func:`methods`; None runs the kind's default method (``exact``).
    **options
        Passed to the method (``time_limit``, ``threads``, ...); an option the method does not
        take is an :class:`~hetopt.errors.ArgumentError` that lists the ones it does.

    Returns
    -------
    Solution
        The kind's solution type.

    Raises
    ------
    ArgumentError
        The method is unknown (the message lists the kind's methods) or an option is invalid.
    InstanceError
        The instance cannot be loaded.
    """
    inst = as_instance(instance)
    kind: Kind = kind_of(inst)
    m = kind.default_method if method is None else kind.method(method)
    return m(inst, **options)
