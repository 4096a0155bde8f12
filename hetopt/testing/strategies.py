"""Hypothesis strategies for every instance kind, valid and deliberately invalid.

So that users can property-test their own code against the package's instances::

    from hypothesis import given
    from hetopt.testing.strategies import instances, invalid_instance_data

    @given(instances("hare"))
    def test_my_rule_is_feasible(inst):
        check_schedule(inst, my_rule(inst)).raise_if_invalid()

    @given(invalid_instance_data("oasis"))
    def test_bad_input_is_named(case):
        with pytest.raises(hetopt.InstanceError, match=case.field):
            hetopt.load_instance(case.data)

Valid instances come from each kind's ``example(*, seed, size)`` (its :class:`~hetopt.contract.Kind`
in the registry; they solve exactly in well under a second), so a kind you register is covered too.  Invalid ones start from a valid instance's ``to_dict()`` and break one
thing, from :data:`CORRUPTIONS`; every case is one the loader must reject with an
:class:`~hetopt.errors.InstanceError` (a bad field names ``case.field``).

Requires ``hypothesis`` (in the ``test`` extra).
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Any

try:
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - exercised only without hypothesis
    raise ImportError('hetopt.testing.strategies needs hypothesis: pip install "hetopt[test]"') from exc

__all__ = ["CORRUPTIONS", "InvalidCase", "corrupt", "numeric_fields", "instances", "instance_data",
           "invalid_instance_data"]


def _kind(kind: str) -> Any:
    from ..errors import ArgumentError
    from ..registry import kinds

    found = kinds()
    if kind not in found:
        raise ArgumentError(f"kind is {kind!r}; expected one of {', '.join(found)}")
    return found[kind]


def instances(kind: str, *, max_size: int = 3) -> st.SearchStrategy:
    """Small valid instances of ``kind`` (seeded generator; ``size`` in ``0..max_size``)."""
    example = _kind(kind).example
    return st.builds(lambda seed, size: example(seed=seed, size=size), st.integers(0, 2**31 - 1),
                     st.integers(0, max_size))


def instance_data(kind: str, *, max_size: int = 3) -> st.SearchStrategy:
    """The JSON-ready ``to_dict()`` of :func:`instances`."""
    return instances(kind, max_size=max_size).map(lambda inst: inst.to_dict())


@dataclass(frozen=True)
class InvalidCase:
    """A corrupted instance dict: ``data``, the broken ``field`` (None for whole-object faults), ``corruption``."""

    data: dict
    field: str | None
    corruption: str


def _leaf_paths(value: Any, path: tuple = ()) -> list[tuple]:
    if isinstance(value, list):
        out = []
        for j, v in enumerate(value):
            out += _leaf_paths(v, path + (j,))
        return out
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [path]
    return []


def _replace(value: Any, path: tuple, leaf: Any) -> Any:
    if not path:
        return leaf
    out = copy.deepcopy(value)
    cur = out
    for j in path[:-1]:
        cur = cur[j]
    cur[path[-1]] = leaf
    return out


def _ragged(value: list) -> list | None:
    if len(value) >= 2 and isinstance(value[0], list) and value[1]:
        out = copy.deepcopy(value)
        out[1] = out[1][:-1] if len(out[1]) > 1 else out[1] + out[1]
        return out
    if len(value) >= 2 and not isinstance(value[0], list):
        out = copy.deepcopy(value)
        out[1] = [out[1], out[1]]
        return out
    return None


#: corruption name -> what it does (leaf ones replace one numeric entry of one field)
CORRUPTIONS = {
    "nan": "one entry is NaN",
    "inf": "one entry is +inf",
    "negative": "one entry is made negative (-|x| - 1)",
    "numeric_string": "one entry is a numeric string",
    "bool": "one entry is a boolean",
    "none": "one entry of an array field, or a scalar field, is null",
    "too_large_int": "one entry is 2**64",
    "empty": "an array field is empty",
    "shape": "a field gains a dimension (an array is wrapped in a list, a scalar becomes a pair)",
    "ragged": "an array field has unequal rows",
    "unknown_key": "an unknown top-level key",
    "wrong_kind": "the kind of another paper",
    "no_kind": "the 'kind' key is missing",
}

_LEAF = {"nan": lambda x: math.nan, "inf": lambda x: math.inf, "negative": lambda x: -abs(x) - 1,
         "numeric_string": lambda x: str(x), "bool": lambda x: True, "none": lambda x: None,
         "too_large_int": lambda x: 2**64}


def numeric_fields(data: dict) -> list[str]:
    """The fields of an instance dict that hold numbers (scalars or nested lists)."""
    return [k for k, v in data.items() if k not in ("kind", "schema_version") and _leaf_paths(v)]


def corrupt(data: dict, corruption: str, field: str | None, index: int = 0) -> InvalidCase | None:
    """Apply one corruption to ``field`` of ``data`` (None when it does not apply to that field)."""
    if corruption not in CORRUPTIONS:
        raise ValueError(f"corruption is {corruption!r}; expected one of {', '.join(CORRUPTIONS)}")
    data = copy.deepcopy(data)
    if corruption == "unknown_key":
        return InvalidCase({**data, "no_such_field": 1}, "no_such_field", corruption)
    if corruption == "wrong_kind":
        from ..registry import kinds

        other = next(k for k in kinds() if k != data["kind"])
        return InvalidCase({**data, "kind": other}, None, corruption)
    if corruption == "no_kind":
        data.pop("kind")
        return InvalidCase(data, None, corruption)
    value = data[field]
    if corruption in _LEAF:
        paths = _leaf_paths(value)
        path = paths[index % len(paths)]
        leaf = value
        for j in path:
            leaf = leaf[j]
        new = _replace(value, path, _LEAF[corruption](leaf))
    elif corruption == "empty":
        if not isinstance(value, list):
            return None
        new = []
    elif corruption == "shape":
        new = [value] if isinstance(value, list) else [value, value]
    else:  # ragged
        if not isinstance(value, list):
            return None
        new = _ragged(value)
        if new is None:
            return None
    return InvalidCase({**data, field: new}, field, corruption)


def invalid_instance_data(kind: str, corruptions: Any = None) -> st.SearchStrategy:
    """Corrupted instance dicts of ``kind`` that the loader must reject (:class:`InvalidCase`).

    ``corruptions`` restricts the draw to some names of :data:`CORRUPTIONS`.
    """
    names = list(CORRUPTIONS if corruptions is None else corruptions)

    @st.composite
    def draw(draw_):
        data = draw_(instance_data(kind, max_size=1))
        while True:
            c = draw_(st.sampled_from(names))
            fields = numeric_fields(data) if c not in ("unknown_key", "wrong_kind", "no_kind") else [None]
            field = draw_(st.sampled_from(fields))
            case = corrupt(data, c, field, draw_(st.integers(0, 50)))
            if case is not None:
                return case

    return draw()
