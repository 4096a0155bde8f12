"""The fields of an instance file, declared once: checks, JSON, JSON Schema and the docs' field tables.

Each instance class declares ``FIELDS``, a tuple of :class:`Field` (name, shape, type, unit,
range, required or default, meaning), and inherits :class:`FieldsMixin`, which reads it to
check every field at construction (type, shape, finiteness, integrality, range, shared
dimensions), to write ``to_dict`` / ``to_json`` and to read ``from_dict`` / ``from_json``.
The class adds only what a declaration cannot say: defaults filled from other fields and
checks across fields.  :func:`json_schema` turns ``FIELDS`` into a JSON Schema (draft
2020-12; ``hetopt schema KIND``) and :func:`field_table` into the docs' Markdown table.

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

import json
import math
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

import numpy as np

from .data import META_KEYS, check_header, meta_kwargs, read_json
from .errors import InstanceError
from .inputs import INT64_LIMIT, numeric_array, real_scalar

__all__ = ["Field", "FieldsMixin", "json_schema", "field_table", "SHAPE_PATTERN"]

#: A shape is "scalar" or a parenthesized tuple of dimension names, e.g. "(n_jobs, n_gpus)".
SHAPE_PATTERN = re.compile(r"^(scalar|\(([a-z_0-9]+)(, [a-z_0-9]+)*,?\))$")


@dataclass(frozen=True)
class Field:
    """One field of an instance's JSON, and the checks every value of it passes.

    Attributes
    ----------
    name : str
        The JSON key (and the constructor's argument).
    shape : str
        ``"scalar"`` or the dimensions, ``"(n_jobs, n_gpus)"`` (a list of lists).  Fields that
        name the same dimension must agree on its length; every dimension is at least 1.
    type : str
        ``"number"``, ``"integer"``, ``"string"``, ``"boolean"`` or ``"object"`` (of the leaves;
        an object field is checked by its class, :meth:`check` of a subclass or the instance's).
        An integer scalar must be an int; the entries of an integer array may be integral numbers
        (``2.0``), read exactly as int64.
    description : str
        What the field means, in the paper's words (one sentence or two); symbols as MyST math
        (``$T^c_{n,m}$``), other field names as code spans.
    unit : str
        The unit of the numbers ("s", "iterations/s", ...), or ``""``.
    minimum : float or None
        Smallest allowed value of the numbers.
    exclusive_minimum : bool
        ``minimum`` itself is not allowed (``> minimum``).
    maximum : float or None
        Largest allowed value.
    default : str or None
        None: the field is required.  Otherwise it is optional and this says, in words, what
        an omitted field means ("GPU0, GPU1, ...").
    nonempty : bool
        Strings must hold a non-blank character.
    unique : bool
        The entries of the array are distinct.
    """

    name: str
    shape: str
    type: str
    description: str
    unit: str = ""
    minimum: float | None = None
    exclusive_minimum: bool = False
    maximum: float | None = None
    default: str | None = None
    nonempty: bool = False
    unique: bool = False

    def __post_init__(self) -> None:
        if not SHAPE_PATTERN.match(self.shape):
            raise ValueError(f"Field {self.name}: shape is {self.shape!r}; expected 'scalar' or '(dim, ...)'")
        if self.type not in ("number", "integer", "string", "boolean", "object"):
            raise ValueError(f"Field {self.name}: type is {self.type!r}")

    @property
    def required(self) -> bool:
        """The loader refuses a file without it (no ``default``)."""
        return self.default is None

    @property
    def dims(self) -> tuple[str, ...]:
        """The dimension names, outermost first (``()`` for a scalar)."""
        return () if self.shape == "scalar" else tuple(d.strip() for d in self.shape[1:-1].split(",") if d.strip())

    @property
    def ndim(self) -> int:
        """Number of list levels (0 for a scalar)."""
        return len(self.dims)

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

    @property
    def expected(self) -> str:
        """What one value must be, in words ("an integer >= 1", "a non-empty string")."""
        what = {"number": "a number", "integer": "an integer", "string": "a non-empty string" if self.nonempty
                else "a string", "boolean": "true or false", "object": "an object"}[self.type]
        rng = self.range
        return what if rng == "any" else f"{what} in {rng}" if rng[0] in "[(" else f"{what} {rng}"

    # ------------------------------------------------------------------ checks
    def check(self, value: Any) -> Any:
        """``value`` checked and normalized; :class:`~hetopt.errors.InstanceError` naming the field otherwise.

        Returns a read-only numpy array (int64 or float64), a Python int or float, or a tuple of
        strings; the error names the field, the index and the expected form.  Object fields are
        returned as they are (a subclass checks them).
        """
        if self.type in ("number", "integer"):
            return self._scalar(value) if self.ndim == 0 else self._array(value)
        if self.type == "string":
            return self._strings(value)
        if self.type == "boolean":
            if not isinstance(value, (bool, np.bool_)):
                raise InstanceError(f"{self.name} is {value!r:.60}; expected true or false")
            return bool(value)
        return value

    def _scalar(self, value: Any) -> int | float:
        if isinstance(value, (list, tuple, dict)) or (isinstance(value, np.ndarray) and value.ndim):
            raise InstanceError(f"{self.name} is {value!r:.60}; expected a single number ({self.expected})")
        x = real_scalar(self.name, value)
        if not math.isfinite(x):
            raise InstanceError(f"{self.name} is {x}; expected a finite number")
        out: int | float = x
        if self.type == "integer":  # an int, not an integral float (a scalar is never coerced; issue 25)
            if not isinstance(value, (int, np.integer)) or abs(int(value)) >= INT64_LIMIT:
                raise InstanceError(f"{self.name} is {value!r}; expected an integer")
            out = int(value)
        if self._out_of_range(np.asarray(out)).any():
            raise InstanceError(f"{self.name} is {out}; expected {self.expected}")
        return out

    def _array(self, value: Any) -> np.ndarray:
        a = numeric_array(self.name, value)
        if a.ndim != self.ndim:
            got = f"is a scalar ({value!r:.40})" if a.ndim == 0 else f"has shape {a.shape}"
            raise InstanceError(f"{self.name} {got}; expected an array of shape {self.shape}")
        self._first_bad(a, ~np.isfinite(a), "a finite number")
        if self.type == "integer":
            raw = value if isinstance(value, np.ndarray) else np.asarray(value)
            if raw.dtype.kind in "iu" and raw.shape == a.shape:
                a = raw.astype(np.int64)  # integers as given (no rounding through float)
            else:
                self._first_bad(a, (a != np.round(a)) | (np.abs(a) >= INT64_LIMIT), "an integer")
                a = a.astype(np.int64)
        elif isinstance(value, np.ndarray) and np.may_share_memory(a, value):
            a = a.copy()  # the instance owns its arrays (they become read-only)
        self._first_bad(a, self._out_of_range(a), self.expected)
        a.setflags(write=False)
        return a

    def _out_of_range(self, a: np.ndarray) -> np.ndarray:
        bad = np.zeros(a.shape, dtype=bool)
        if self.minimum is not None:
            bad |= (a <= self.minimum) if self.exclusive_minimum else (a < self.minimum)
        if self.maximum is not None:
            bad |= a > self.maximum
        return bad

    def _first_bad(self, a: np.ndarray, bad: np.ndarray, expected: str) -> None:
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            raise InstanceError(f"{self.name}[{', '.join(map(str, idx))}] is {a[idx]}; expected {expected}")

    def _strings(self, value: Any) -> Any:
        if self.ndim == 0:
            if not isinstance(value, str) or (self.nonempty and not value.strip()):
                raise InstanceError(f"{self.name} is {value!r:.60}; expected {self.expected}")
            return value
        if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, np.ndarray)):
            raise InstanceError(f"{self.name} is {value!r:.60}; expected a list of strings")
        items = tuple(value.tolist() if isinstance(value, np.ndarray) else value)
        for k, s in enumerate(items):
            if not isinstance(s, str) or (self.nonempty and not s.strip()):
                raise InstanceError(f"{self.name}[{k}] is {s!r:.60}; expected {self.expected}")
        if self.unique and len(set(items)) != len(items):
            dup = next(s for k, s in enumerate(items) if s in items[:k])
            raise InstanceError(f"{self.name} has duplicates ({dup!r} twice); expected distinct names")
        return items

    # ------------------------------------------------------------------ JSON Schema
    def leaf_schema(self) -> dict[str, Any]:
        """The JSON Schema of one value (a leaf of the nested lists)."""
        out: dict[str, Any] = {"type": self.type}
        if self.minimum is not None:
            out["exclusiveMinimum" if self.exclusive_minimum else "minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.nonempty:
            out["pattern"] = r"\S"
        return out

    def to_schema(self) -> dict[str, Any]:
        """The JSON Schema of the field: ``ndim`` nested arrays (non-empty) of the leaf schema."""
        node = self.leaf_schema()
        for level in range(self.ndim):
            node = {"type": "array", "items": node, "minItems": 1}
            if self.unique and level == 0:
                node["uniqueItems"] = True
        desc = self.description + (f" Unit: {self.unit}." if self.unit else "") + f" Shape: {self.shape}."
        if self.default is not None:
            desc += f" Optional; default: {self.default}."
        return {**node, "description": desc}


def _encode(value: Any) -> Any:
    """A field's value as JSON: arrays as (nested) lists, objects through their ``to_dict``."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    to_dict = getattr(value, "to_dict", None)
    return to_dict() if callable(to_dict) else value


def _extent(value: Any, ndim: int) -> tuple[int, ...]:
    """The lengths along a checked field's dimensions."""
    if isinstance(value, np.ndarray):
        return tuple(value.shape[:ndim])
    return (len(value),) if ndim else ()


def _noun(dim: str) -> str:
    """``n_jobs`` -> "job", ``n_gpus`` -> "GPU", ``n_ps_servers`` -> "PS server"."""
    words = dim.removeprefix("n_").removesuffix("s").split("_")
    return " ".join(w.upper() if w in ("gpu", "ps") else w for w in words)


def check_dims(fields: tuple[Field, ...], values: Mapping[str, Any]) -> dict[str, int]:
    """The length of every dimension: the one most fields naming it agree on (ties: the first field's).

    A field of another length is named as the wrong one ("weight has 1 entries; expected 2, one
    per job (arrival, rounds have 2)"), never another field; a dimension of length 0 is refused.
    """
    seen: dict[str, list[tuple[str, int, int]]] = {}
    for f in fields:
        if f.name in values and f.ndim:
            for axis, (d, n) in enumerate(zip(f.dims, _extent(values[f.name], f.ndim), strict=True)):
                seen.setdefault(d, []).append((f.name, axis, n))
    out = {}
    for d, entries in seen.items():
        counts = Counter(n for _, _, n in entries)
        n = next(m for _, _, m in entries if counts[m] == max(counts.values()))
        for name, axis, m in entries:
            what = "entries" if next(f for f in fields if f.name == name).ndim == 1 else ("rows", "columns")[axis]
            if m != n:
                agree = [k for k, _, v in entries if v == n]
                raise InstanceError(f"{name} has {m} {what}; expected {n}, one per {_noun(d)} ({', '.join(agree)} "
                                    f"{'has' if len(agree) == 1 else 'have'} {n})")
        if n == 0:
            name, axis, _ = entries[0]
            ndim = next(f for f in fields if f.name == name).ndim
            raise InstanceError(f"{name} {'is empty' if ndim == 1 else 'has no ' + ('rows', 'columns')[axis]}; "
                                f"expected at least one {_noun(d)}")
        out[d] = n
    return out


class FieldsMixin:
    """Checks at construction and the JSON of an instance class, read from its ``FIELDS``.

    The class calls :meth:`_check_fields` first thing in ``__post_init__``: every field given
    (not None) is checked by :meth:`Field.check` and set back normalized (read-only arrays,
    tuples of strings), the dimensions are resolved (:func:`check_dims`), and ``description``
    and ``source`` must be strings.  ``to_dict`` writes ``kind``, ``schema_version``, the fields
    in ``FIELDS`` order (a field that is None is left out) and the non-empty metadata;
    ``from_dict`` reads it back (a null field is refused: omit the key for its default).
    """

    KIND: ClassVar[str]
    SCHEMA_VERSION: ClassVar[int]
    FIELDS: ClassVar[tuple[Field, ...]]

    def _check_fields(self) -> dict[str, int]:
        """Check and normalize every field given; return the length of every dimension."""
        values: dict[str, Any] = {}
        for f in self.FIELDS:
            value = getattr(self, f.name)
            if value is None:
                if f.required:
                    raise InstanceError(f"{f.name} is None; expected {f.expected} (shape {f.shape})")
                continue
            values[f.name] = f.check(value)
        dims = check_dims(self.FIELDS, values)
        for name, value in values.items():
            object.__setattr__(self, name, value)
        for key in META_KEYS:
            if not isinstance(getattr(self, key, ""), str):
                raise InstanceError(f"{key} is {getattr(self, key)!r:.60}; expected a string")
        return dims

    def to_dict(self) -> dict[str, Any]:
        """The JSON object: ``kind``, ``schema_version``, the fields, then ``description`` / ``source`` when set."""
        out: dict[str, Any] = {"kind": self.KIND, "schema_version": self.SCHEMA_VERSION}
        for f in self.FIELDS:
            value = getattr(self, f.name)
            if value is not None:
                out[f.name] = _encode(value)
        for key in META_KEYS:
            if getattr(self, key, ""):
                out[key] = getattr(self, key)
        return out

    def to_json(self, path: str | Path | None = None, **kwargs: Any) -> str:
        """The JSON text (``indent=1`` unless ``kwargs`` say otherwise); also written to ``path`` when given."""
        text = json.dumps(self.to_dict(), **({"indent": 1} | kwargs))
        if path is not None:
            Path(path).write_text(text + "\n", encoding="utf-8")
        return text

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The instance of a :meth:`to_dict` (or a JSON file's) object; InstanceError naming a bad key or field.

        ``kind`` and ``schema_version`` must be this class's, every key a field, ``description``,
        ``source`` or ``expected``; every required field present; a null field is refused (omit
        the key for the default).
        """
        names = tuple(f.name for f in cls.FIELDS)
        check_header(data, cls.KIND, cls.SCHEMA_VERSION, names, tuple(f.name for f in cls.FIELDS if f.required))
        for f in cls.FIELDS:
            if f.name in data and data[f.name] is None:
                raise InstanceError(f"{f.name} is null; " + (f"expected {f.expected} (shape {f.shape})" if f.required
                                                            else f"omit the key for its default ({f.default})"))
        kwargs: dict[str, Any] = {k: data[k] for k in names if k in data}
        return cls(**kwargs, **meta_kwargs(data))

    @classmethod
    def from_json(cls, source: str | Path | Mapping[str, Any]) -> Self:
        """From JSON text, a file path or a parsed dict (the strict reader, :func:`hetopt.data.read_json`)."""
        return cls.from_dict(read_json(source))


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
    """The fields of ``kind`` as a Markdown table (MyST: the descriptions' ``$...$`` render as math)."""
    rows = ["| field | shape | type | unit | range | required | meaning |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for f in _fields(kind):
        req = "yes" if f.required else f"no; default: {f.default}"
        rows.append(f"| `{f.name}` | `{f.shape}` | {f.type} | {f.unit or '-'} | {f.range} | {req} | {f.description} |")
    return "\n".join(rows)
