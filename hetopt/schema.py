"""What an instance file holds, field by field: the docs' "write your own instance" pages and a JSON Schema.

Both are generated per kind from the instance classes.  Each instance class declares ``FIELDS``,
a tuple of :class:`Field` (name, shape, type, unit, range, required, meaning).
:func:`json_schema` turns it into a JSON Schema (draft 2020-12) that editors can validate files
with (``hetopt schema KIND``); :func:`field_table` is the Markdown table of the docs page.  The
loader stays the authority (it also checks what a schema cannot say, such as shapes that must
agree); the test suite checks that every instance the loader accepts validates against the
schema and that the schema's required keys are the loader's.

Examples
--------
>>> from hetopt.schema import json_schema
>>> schema = json_schema("hare")
>>> schema["properties"]["kind"]
{'const': 'hare'}
>>> "weight" in schema["required"]
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["Field", "json_schema", "field_table", "SHAPE_PATTERN"]

#: A shape is "scalar" or a parenthesized tuple of dimension names, e.g. "(n_jobs, n_gpus)".
SHAPE_PATTERN = re.compile(r"^(scalar|\(([a-z_0-9]+)(, [a-z_0-9]+)*,?\))$")


@dataclass(frozen=True)
class Field:
    """One field of an instance's JSON.

    Attributes
    ----------
    name : str
        The JSON key.
    shape : str
        ``"scalar"`` or the dimensions, ``"(n_jobs, n_gpus)"`` (a list of lists).
    type : str
        ``"number"``, ``"integer"``, ``"string"``, ``"boolean"`` or ``"object"`` (of the leaves).
    unit : str
        The unit of the numbers ("s", "iterations/s", ...), or ``""``.
    minimum : float or None
        Smallest allowed value of the numbers.
    exclusive_minimum : bool
        ``minimum`` itself is not allowed (``> minimum``).
    maximum : float or None
        Largest allowed value.
    required : bool
        The loader refuses a file without it.
    description : str
        What the field means, in the paper's words (one sentence).
    """

    name: str
    shape: str
    type: str
    description: str
    unit: str = ""
    minimum: float | None = None
    exclusive_minimum: bool = False
    maximum: float | None = None
    required: bool = True

    def __post_init__(self) -> None:
        if not SHAPE_PATTERN.match(self.shape):
            raise ValueError(f"Field {self.name}: shape is {self.shape!r}; expected 'scalar' or '(dim, ...)'")
        if self.type not in ("number", "integer", "string", "boolean", "object"):
            raise ValueError(f"Field {self.name}: type is {self.type!r}")

    @property
    def ndim(self) -> int:
        """Number of list levels (0 for a scalar)."""
        return 0 if self.shape == "scalar" else self.shape.count(",") + 1 - self.shape.endswith(",)")

    @property
    def range(self) -> str:
        """The allowed values as text ("> 0", "[0, 1]", "any")."""
        lo, hi = self.minimum, self.maximum
        if lo is None and hi is None:
            return "any"
        if hi is None:
            return f"{'>' if self.exclusive_minimum else '>='} {lo:g}"
        if lo is None:
            return f"<= {hi:g}"
        return f"{'(' if self.exclusive_minimum else '['}{lo:g}, {hi:g}]"

    def leaf_schema(self) -> dict[str, Any]:
        """The JSON Schema of one value (a leaf of the nested lists)."""
        out: dict[str, Any] = {"type": self.type}
        if self.minimum is not None:
            out["exclusiveMinimum" if self.exclusive_minimum else "minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out

    def to_schema(self) -> dict[str, Any]:
        """The JSON Schema of the field: ``ndim`` nested arrays (non-empty) of the leaf schema."""
        node = self.leaf_schema()
        for _ in range(self.ndim):
            node = {"type": "array", "items": node, "minItems": 1}
        desc = self.description + (f" Unit: {self.unit}." if self.unit else "") + f" Shape: {self.shape}."
        return {**node, "description": desc}


def _fields(kind: str) -> tuple[Field, ...]:
    from .registry import get_kind

    cls = get_kind(kind).instance
    fields = getattr(cls, "FIELDS", None)
    if not fields:
        from .errors import ArgumentError

        raise ArgumentError(f"{cls.__name__} declares no FIELDS; the contract asks every instance class for them")
    return tuple(fields)


def json_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of an instance file of ``kind``."""
    from .registry import get_kind

    k = get_kind(kind)
    fields = _fields(kind)
    version = getattr(k.instance, "SCHEMA_VERSION", 1)
    props: dict[str, Any] = {
        "kind": {"const": k.name},
        "schema_version": {"const": version},
        "description": {"type": "string", "description": "What the instance is (free text)."},
        "source": {"type": "string", "description": "Where its data comes from (free text)."},
        "expected": {"type": "object", "additionalProperties": {"type": "number"},
                     "description": "Method name -> its certified objective on this instance."},
    }
    for f in fields:
        props[f.name] = f.to_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://hetopt.invalid/schema/{k.name}.json",
        "title": f"hetopt instance of kind {k.name!r}",
        "description": k.title,
        "type": "object",
        "properties": props,
        "required": ["kind", "schema_version", *[f.name for f in fields if f.required]],
        "additionalProperties": False,
    }


def field_table(kind: str) -> str:
    """The fields of ``kind`` as a Markdown table: field, shape, type, unit, range, required, meaning."""
    rows = ["| field | shape | type | unit | range | required | meaning |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for f in _fields(kind):
        rows.append(f"| `{f.name}` | `{f.shape}` | {f.type} | {f.unit or '-'} | {f.range} | "
                    f"{'yes' if f.required else 'no'} | {f.description} |")
    return "\n".join(rows)
