"""The one registry of instance kinds: every other part of the package reads it.

The six kinds of the package are found by module name in :data:`BUILTIN` (each module exports a
``KIND``); your own kind joins with :func:`register`.  Kinds are imported on first use, so that
``import hetopt`` stays cheap and no paper is imported by the ground layer.

Examples
--------
>>> from hetopt import registry
>>> list(registry.kinds())
['placement', 'hare', 'oasis', 'contention', 'hadar', 'gavel']
>>> registry.get_kind("gavel").default_method.name
'exact'
"""

from __future__ import annotations

import importlib
from typing import Any

from .contract import Kind
from .errors import ArgumentError, InstanceError, a_type

__all__ = ["BUILTIN", "register", "unregister", "kinds", "get_kind", "kind_of"]

#: The package's own kinds, by module (each exports ``KIND``), in the order tables list them.
#: Adding a paper to the package is adding its module here.
BUILTIN: tuple[str, ...] = (
    "hetopt.placement",
    "hetopt.hare",
    "hetopt.oasis",
    "hetopt.contention",
    "hetopt.hadar",
    "hetopt.gavel",
)

_registered: dict[str, Kind] = {}
_builtin_loaded: list[bool] = []


def _load_builtin() -> None:
    if _builtin_loaded:
        return
    _builtin_loaded.append(True)
    user = dict(_registered)
    _registered.clear()
    for module in BUILTIN:
        kind = importlib.import_module(module).KIND
        _registered[kind.name] = kind
    _registered.update(user)


def register(kind: Kind, *, replace: bool = False) -> Kind:
    """Add ``kind`` to the registry (``replace=True`` to swap a kind of the same name); returns it.

    Raises
    ------
    ArgumentError
        ``kind`` is not a :class:`~hetopt.contract.Kind`, or its name is taken and ``replace`` is False.
    """
    if not isinstance(kind, Kind):
        raise ArgumentError(f"kind is {a_type(kind)}; expected a hetopt.contract.Kind")
    _load_builtin()
    if kind.name in _registered and not replace and _registered[kind.name] is not kind:
        raise ArgumentError(f"a kind named {kind.name!r} is registered already; pass replace=True to swap it")
    _registered[kind.name] = kind
    return kind


def unregister(name: str) -> None:
    """Remove the kind called ``name`` (a no-op when there is none)."""
    _load_builtin()
    _registered.pop(name, None)


def kinds() -> dict[str, Kind]:
    """Every registered kind, name -> :class:`~hetopt.contract.Kind` (a copy, in table order)."""
    _load_builtin()
    return dict(_registered)


def get_kind(name: Any) -> Kind:
    """The kind called ``name``; :class:`InstanceError` naming the kinds otherwise."""
    found = kinds()
    if not isinstance(name, str) or name not in found:
        raise InstanceError(f"kind is {name!r}; expected one of {', '.join(found)}")
    return found[name]


def kind_of(instance: Any) -> Kind:
    """The kind whose instance class ``instance`` is; :class:`ArgumentError` otherwise."""
    for kind in kinds().values():
        if isinstance(instance, kind.instance):
            return kind
    raise ArgumentError(f"instance is {a_type(instance)}; expected a hetopt instance of kind "
                        f"{', '.join(kinds())} (see hetopt.load_instance)")
