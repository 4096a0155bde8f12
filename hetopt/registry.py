"""The one registry of instance kinds: every other part of the package reads it.

Kinds are discovered, not listed: every installed distribution may declare kinds in the entry-point
group ``hetopt.kinds`` (name = the kind's name, value = ``"package.module:KIND"``), hetopt's own six
among them (``pyproject.toml``).  A kind is imported the first time it is asked for, so that
``import hetopt`` and ``hetopt --help`` import no paper; :func:`register` adds a kind built in the
running process.

Examples
--------
>>> from hetopt import registry
>>> registry.names()[:3]
['contention', 'gavel', 'hadar']
>>> registry.get_kind("gavel").default_method.name
'exact'
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from .contract import Kind
from .errors import ArgumentError, InstanceError, a_type

__all__ = ["GROUP", "names", "register", "unregister", "reload", "kinds", "get_kind", "kind_of"]

#: The entry-point group a distribution declares its kinds in.
GROUP = "hetopt.kinds"

_loaded: dict[str, Kind] = {}
_registered: dict[str, Kind] = {}
_removed: set[str] = set()


@cache
def _entry_points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        found.setdefault(ep.name, ep)
    return found


def reload() -> None:
    """Read the installed entry points again (after a package was installed into the running process).

    Kinds removed with :func:`unregister` come back if they are installed; kinds added with
    :func:`register` stay.
    """
    _entry_points.cache_clear()
    _loaded.clear()
    _removed.clear()


def names() -> list[str]:
    """The names of every kind (installed ones by name, then those registered in this process); imports none."""
    out = [n for n in _entry_points() if n not in _removed and n not in _registered]
    return out + [n for n in _registered if n not in out]


def _load(name: str) -> Kind:
    if name in _registered:
        return _registered[name]
    if name not in _loaded:
        kind = _entry_points()[name].load()
        if not isinstance(kind, Kind):
            raise ArgumentError(f"entry point {name} = {_entry_points()[name].value} in group {GROUP} is "
                                f"{a_type(kind)}; expected a hetopt.contract.Kind")
        if kind.name != name:
            raise ArgumentError(f"entry point {name} in group {GROUP} loads the kind {kind.name!r}; the entry "
                                "point's name must be the kind's name")
        _loaded[name] = kind
    return _loaded[name]


def register(kind: Kind, *, replace: bool = False) -> Kind:
    """Add ``kind`` to the registry of this process (``replace=True`` to swap a kind of the same name); returns it.

    A kind of an installed package joins by its entry point instead (group :data:`GROUP`).

    Raises
    ------
    ArgumentError
        ``kind`` is not a :class:`~hetopt.contract.Kind`, or its name is taken and ``replace`` is False.
    """
    if not isinstance(kind, Kind):
        raise ArgumentError(f"kind is {a_type(kind)}; expected a hetopt.contract.Kind")
    if kind.name in names() and not replace and _registered.get(kind.name) is not kind:
        raise ArgumentError(f"a kind named {kind.name!r} is registered already; pass replace=True to swap it")
    _registered[kind.name] = kind
    _removed.discard(kind.name)
    return kind


def unregister(name: str) -> None:
    """Remove the kind called ``name`` from this process's registry (a no-op when there is none)."""
    _registered.pop(name, None)
    if name in _entry_points():
        _removed.add(name)


def kinds() -> dict[str, Kind]:
    """Every kind, name -> :class:`~hetopt.contract.Kind` (imports them all; a copy, in :func:`names` order)."""
    return {n: _load(n) for n in names()}


def get_kind(name: Any) -> Kind:
    """The kind called ``name`` (imported on first use); :class:`InstanceError` naming the kinds otherwise."""
    known = names()
    if not isinstance(name, str) or name not in known:
        if not known:
            raise InstanceError(f"kind is {name!r}, but no kind is installed: hetopt's entry points are missing "
                                "(install the package: pip install -e .)")
        raise InstanceError(f"kind is {name!r}; expected one of {', '.join(known)}")
    return _load(name)


def kind_of(instance: Any) -> Kind:
    """The kind of ``instance``, found from its class's ``KIND``; :class:`ArgumentError` otherwise."""
    name = getattr(type(instance), "KIND", None)
    if isinstance(name, str) and name in names():
        kind = _load(name)
        if isinstance(instance, kind.instance):
            return kind
    raise ArgumentError(f"instance is {a_type(instance)}; expected a hetopt instance of kind "
                        f"{', '.join(names())} (see hetopt.load_instance)")
