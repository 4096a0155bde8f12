"""Bundled data and the one JSON reader of instance files.

Instances live in the repository's top-level ``instances/`` folder, which the wheel ships
as the package ``hetopt.instances``.  Throughput tables live in ``hetopt/tables/``, each
beside its licence.  :func:`parse_json` is the strict reader every instance file goes
through (limits below); it refuses, with a one-line :class:`~hetopt.errors.InstanceError` each,
what :func:`json.loads` accepts silently or answers with a traceback.
"""

from __future__ import annotations

import json
import json.decoder
import os
import re
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from json.decoder import JSONDecodeError
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["instance_path", "list_instances", "load_json", "read_json", "parse_json", "read_instance_file",
           "max_instance_bytes", "table_text", "check_header", "check_expected", "catalogue", "gavel_throughputs",
           "gavel_license", "META_KEYS", "MAX_INSTANCE_BYTES", "MAX_DEPTH", "MAX_INT_DIGITS", "MAX_BYTES_ENV"]

_TABLES = resources.files("hetopt.tables")

#: Largest instance file (bytes) the loader reads unless told otherwise: ``load_instance(..., max_bytes=N)``
#: or the environment variable :data:`MAX_BYTES_ENV` (the command line reads it too).
MAX_INSTANCE_BYTES = 100_000_000
#: The environment variable that raises (or lowers) :data:`MAX_INSTANCE_BYTES`, in bytes.
MAX_BYTES_ENV = "HETOPT_MAX_INSTANCE_BYTES"
#: Deepest nesting of JSON arrays and objects the loader reads (an instance needs 4).
MAX_DEPTH = 32
#: Most digits of a JSON integer (int64 has 19; a longer one is refused before it is converted).
MAX_INT_DIGITS = 20


def _instances_dir() -> Path:
    here = Path(__file__).resolve().parent
    for p in (here / "instances", here.parent / "instances"):  # installed wheel, then source checkout
        if p.is_dir() and any(p.glob("*.json")):
            return p
    raise FileNotFoundError("the bundled instances/ folder was not found in the installation")


def list_instances() -> list[str]:
    """Names (file stems) of the bundled JSON instances."""
    return sorted(p.stem for p in _instances_dir().glob("*.json"))


def instance_path(name: str) -> Path:
    """Path of a bundled instance, by file stem (``"liu2024_table2"``) or file name."""
    stem = name[:-5] if name.endswith(".json") else name
    p = _instances_dir() / f"{stem}.json"
    if not p.exists():
        raise FileNotFoundError(f"no bundled instance {name!r}; available: {', '.join(list_instances())}")
    return p


def load_json(path_or_name: str | Path) -> dict[str, Any]:
    """Read a JSON instance file, or a bundled instance by name, as plain lists and dicts (strict reader)."""
    p = Path(path_or_name)
    if not p.exists():
        p = instance_path(str(path_or_name))
    data = read_instance_file(p, arrays=False)
    if not isinstance(data, dict):
        from .errors import InstanceError

        raise InstanceError(f"{p} holds a JSON {type(data).__name__}; an instance is a JSON object")
    return data


def read_json(text_or_path: str | Path | Mapping[str, Any]) -> Any:
    """Parse JSON text (a string starting with ``{`` or ``[``), read a file path, or copy a parsed dict.

    Text and files go through :func:`parse_json` with ``arrays=True``: the result may hold numpy
    arrays where the JSON has arrays of numbers (what the instance classes' ``from_json`` wants).
    """
    if isinstance(text_or_path, Mapping):
        return dict(text_or_path)
    if isinstance(text_or_path, str) and text_or_path.lstrip().startswith(("{", "[")):
        limit = max_instance_bytes()
        if len(text_or_path) > limit:
            from .errors import InstanceError

            raise InstanceError(f"the JSON text has {len(text_or_path):,} characters; the loader reads at most "
                                f"{limit:,} ({_RAISE_IT})")
        return parse_json(text_or_path, arrays=True)
    return read_instance_file(text_or_path, arrays=True)


# -- the strict JSON reader --------------------------------------------------------------------
#: ``json``'s own whitespace pattern and string scanner (not in the type stubs: typed Any here).
_JSON: Any = json.decoder
_WS, _STRING = _JSON.WHITESPACE, _JSON.scanstring
_RAISE_IT = f"raise the limit with load_instance(..., max_bytes=N) or the environment variable {MAX_BYTES_ENV}=N"
#: JSON whitespace (``\s`` would also match Unicode spaces, which JSON does not allow), and a comma in it.
_W = "[ \t\n\r]*+"
_COMMA = _W + "," + _W
#: A JSON number whose integer part fits int64 without check (18 digits at most), for the array fast path.
_NUM = r"-?+(?:0|[1-9][0-9]{0,17}+)(?:\.[0-9]++)?+(?:[eE][-+]?+[0-9]++)?+"
_FLAT = re.compile(r"\[" + _W + "(" + _NUM + "(?:" + _COMMA + _NUM + ")*+)" + _W + r"\]")
#: An array of strings without escapes or control characters (names), for the array fast path.
_STR = r'"[^"\\\x00-\x1f]*+"'
_NAMES = re.compile(r"\[" + _W + _STR + "(?:" + _COMMA + _STR + ")*+" + _W + r"\]")
_NAME = re.compile(r'"([^"]*)"')
_LONG_INT = re.compile(r"(?<![.0-9eE+-])-?[0-9]{16,}+(?![.eE])")
_NUMBER = re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_CONSTANTS = ("NaN", "Infinity", "-Infinity")


@lru_cache(maxsize=64)
def _block(n_cols: int) -> re.Pattern[str]:
    """A list of rows of exactly ``n_cols`` numbers (a rectangular matrix)."""
    rest = "(?:" + _COMMA + _NUM + "){" + str(n_cols - 1) + "}+" if n_cols > 1 else ""
    row = r"\[" + _W + _NUM + rest + _W + r"\]"
    return re.compile(r"\[" + _W + row + "(?:" + _COMMA + row + ")*+" + _W + r"\]")


def _numbers(body: str) -> np.ndarray | None:
    """Comma-separated JSON numbers (already matched by ``_NUM``) as int64 or float64.

    None (read them one by one instead) when a number overflows a float, or when an integer
    that a float cannot hold exactly (16 digits or more) stands among floats.
    """
    if "." in body or "e" in body or "E" in body:
        a = np.fromstring(body, dtype=float, sep=",")
        if np.isinf(a).any() or (np.abs(a).max() >= 2.0**53 and _LONG_INT.search(body)):
            return None
        return a
    return np.fromstring(body, dtype=np.int64, sep=",")


class _Reader:
    """A JSON parser (``json``'s string scanner, the rest here) that refuses what an instance must not hold.

    It keeps the path to the value it reads (``utility.params[1][2]``) for its messages, and reads
    arrays of numbers and of plain strings with one regular expression each (the fast paths).
    """

    def __init__(self, where: str, arrays: bool) -> None:
        self.where, self.arrays, self.depth = where, arrays, 0
        self.path: list[str | int] = []
        self.memo: dict[str, str] = {}

    def at(self) -> str:
        """The path to the value being read, as ``key[index].key``."""
        out = ""
        for part in self.path[:8]:
            out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
        return out + ("..." if len(self.path) > 8 else "")

    def refuse(self, s: str, idx: int, what: str) -> Exception:
        from .errors import InstanceError

        line = s.count("\n", 0, idx) + 1
        path = f" ({self.at()})" if self.path else ""
        return InstanceError(f"{self.where}, line {line} column {idx - s.rfind(chr(10), 0, idx)}{path}: {what}")

    def value(self, s: str, idx: int) -> tuple[Any, int]:
        """The value that starts at ``idx`` and the index after it; StopIteration(idx) if none does."""
        try:
            ch = s[idx]
        except IndexError:
            raise StopIteration(idx) from None
        if ch == '"':
            return _STRING(s, idx + 1, True)
        if ch == "{" or ch == "[":
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.refuse(s, idx, f"arrays and objects nested more than MAX_DEPTH = {MAX_DEPTH} levels deep")
            out = self.obj(s, idx) if ch == "{" else self.arr(s, idx)
            self.depth -= 1
            return out
        for word, val in (("null", None), ("true", True), ("false", False)):
            if s.startswith(word, idx):
                return val, idx + len(word)
        m = _NUMBER.match(s, idx)
        if m is not None:
            return self.number(s, idx, m), m.end()
        if s.startswith(_CONSTANTS, idx):
            word = next(c for c in _CONSTANTS if s.startswith(c, idx))
            raise self.refuse(s, idx, f"{word} is not JSON (a value must be a finite number)")
        raise StopIteration(idx)

    def number(self, s: str, idx: int, m: re.Match[str]) -> int | float:
        integer, frac, exp = m.groups()
        if frac is None and exp is None:
            if len(integer.lstrip("-")) > MAX_INT_DIGITS:
                raise self.refuse(s, idx, f"an integer of {len(integer.lstrip('-'))} digits (the loader reads at "
                                          f"most MAX_INT_DIGITS = {MAX_INT_DIGITS})")
            return int(integer)
        x = float(m.group())
        if x in (float("inf"), float("-inf")):
            raise self.refuse(s, idx, f"the number {m.group()[:30]} overflows a float (beyond 1.8e308)")
        return x

    def item(self, s: str, end: int) -> tuple[Any, int]:
        try:
            return self.value(s, end)
        except StopIteration as exc:
            raise JSONDecodeError("Expecting value", s, exc.value) from None

    def after(self, s: str, end: int, close: str) -> tuple[bool, int]:
        """After an item: (True, past ``close``) or (False, past the comma and the space after it)."""
        end = _WS.match(s, end).end()
        ch = s[end:end + 1]
        if ch == close:
            return True, end + 1
        if ch != ",":
            raise JSONDecodeError("Expecting ',' delimiter", s, end)
        return False, _WS.match(s, end + 1).end()

    def obj(self, s: str, idx: int) -> tuple[dict[str, Any], int]:
        out: dict[str, Any] = {}
        end = _WS.match(s, idx + 1).end()
        if s[end:end + 1] == "}":
            return out, end + 1
        while True:
            if s[end:end + 1] != '"':
                raise JSONDecodeError("Expecting property name enclosed in double quotes", s, end)
            key, after_key = _STRING(s, end + 1, True)
            if key in out:
                raise self.refuse(s, end, f"the key {key!r} appears twice in this object (the second value would "
                                          "silently replace the first)")
            key = self.memo.setdefault(key, key)
            end = _WS.match(s, after_key).end()
            if s[end:end + 1] != ":":
                raise JSONDecodeError("Expecting ':' delimiter", s, end)
            self.path.append(key)
            out[key], end = self.item(s, _WS.match(s, end + 1).end())
            self.path.pop()
            done, end = self.after(s, end, "}")
            if done:
                return out, end

    def arr(self, s: str, idx: int) -> tuple[Any, int]:
        names = _NAMES.match(s, idx)
        if names is not None:
            return _NAME.findall(names.group()), names.end()
        if self.arrays:
            m = _FLAT.match(s, idx)
            if m is not None:
                a = _numbers(m.group(1))
                if a is not None:
                    return a, m.end()
            first = _FLAT.match(s, _WS.match(s, idx + 1).end()) if m is None else None
            if first is not None and self.depth < MAX_DEPTH:  # its rows are one level deeper
                n_cols = first.group(1).count(",") + 1
                block = _block(n_cols).match(s, idx)
                if block is not None:
                    text = block.group()[1:-1].replace("[", " ").replace("]", " ")
                    a = _numbers(text)
                    if a is not None:
                        return a.reshape(-1, n_cols), block.end()
        out: list[Any] = []
        end = _WS.match(s, idx + 1).end()
        if s[end:end + 1] == "]":
            return out, end + 1
        self.path.append(0)
        while True:
            value, end = self.item(s, end)
            out.append(value)
            done, end = self.after(s, end, "]")
            if done:
                self.path.pop()
                return out, end
            self.path[-1] = len(out)


def parse_json(text: str, *, arrays: bool = False, where: str = "the JSON text") -> Any:
    """Parse JSON text strictly; InstanceError (one line, with the line and column) for what it refuses.

    Refused: invalid JSON, a key twice in one object (at any depth), nesting deeper than
    :data:`MAX_DEPTH`, an integer of more than :data:`MAX_INT_DIGITS` digits, a number that
    overflows a float, and the literals ``NaN``, ``Infinity`` and ``-Infinity``.  With
    ``arrays=True`` an array of numbers (or a rectangular array of arrays of numbers) is read
    straight into a numpy array (int64 when every entry is an integer, float64 otherwise)
    without building a Python list first; ``arrays=False`` gives lists, like :func:`json.loads`.
    """
    from .errors import InstanceError

    reader = _Reader(where, arrays)
    if text.startswith("\ufeff"):
        raise InstanceError(f"{where} starts with a byte-order mark; save the file as UTF-8 without one")
    try:
        value, end = reader.value(text, _WS.match(text, 0).end())
        end = _WS.match(text, end).end()
        if end != len(text):
            raise JSONDecodeError("Extra data", text, end)
    except StopIteration as exc:
        raise reader.refuse(text, exc.value, "not valid JSON: expecting a value") from None
    except JSONDecodeError as exc:  # the reader's path is where it stopped
        raise reader.refuse(text, exc.pos, f"not valid JSON: {exc.msg.removesuffix(' at')}") from None
    return value


def max_instance_bytes(max_bytes: int | None = None) -> int:
    """The size limit of instance files: ``max_bytes``, else ``$HETOPT_MAX_INSTANCE_BYTES``, else the default."""
    from .errors import ArgumentError

    if max_bytes is None:
        env = os.environ.get(MAX_BYTES_ENV)
        if env is None:
            return MAX_INSTANCE_BYTES
        try:
            max_bytes = int(env)
        except ValueError:
            raise ArgumentError(f"{MAX_BYTES_ENV} is {env!r}; expected a positive integer number of bytes") from None
        if max_bytes < 1:
            raise ArgumentError(f"{MAX_BYTES_ENV} is {env!r}; expected a positive integer number of bytes")
        return max_bytes
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
        raise ArgumentError(f"max_bytes is {max_bytes!r}; expected a positive integer number of bytes")
    return max_bytes


def read_instance_file(path: str | Path, *, max_bytes: int | None = None, arrays: bool = True) -> Any:
    """Read and strictly parse a JSON file of at most ``max_bytes`` bytes (:func:`max_instance_bytes`).

    Raises
    ------
    InstanceError
        The file is missing, a directory, unreadable, larger than the limit, not UTF-8, or
        refused by :func:`parse_json`.
    """
    from .errors import InstanceError

    limit = max_instance_bytes(max_bytes)
    p = Path(path)
    if not p.exists():
        raise InstanceError(f"no such file: {path}")
    if p.is_dir():
        raise InstanceError(f"{path} is a directory; expected a JSON instance file")
    try:
        size = p.stat().st_size
        with open(p, "rb") as fh:
            raw = fh.read(limit + 1) if size <= limit else b""  # read at most limit + 1 bytes (a pipe has no size)
    except OSError as exc:
        raise InstanceError(f"cannot read {path}: {exc.strerror}") from None
    if size > limit or len(raw) > limit:
        raise InstanceError(f"{path} is {f'{size:,} bytes' if size > limit else 'larger than the limit'}; the "
                            f"loader reads at most {limit:,} bytes ({_RAISE_IT})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InstanceError(f"{path} is not UTF-8 text (byte {exc.start})") from None
    del raw
    return parse_json(text, arrays=arrays, where=str(path))


#: Keys any JSON instance may carry besides its fields: what it is and where it comes from,
#: kept on the instance (``inst.description``, ``inst.source``) and written back by ``to_json``.
META_KEYS = ("description", "source")


def meta_kwargs(data: Mapping[str, Any]) -> dict[str, str]:
    """The ``description`` / ``source`` of a JSON instance as constructor keywords; InstanceError if not strings."""
    from .errors import InstanceError

    out = {}
    for k in META_KEYS:
        v = data.get(k, "")
        if not isinstance(v, str):
            raise InstanceError(f"{k} is {v!r}; expected a string")
        out[k] = v
    return out


def meta_dict(inst: Any) -> dict[str, str]:
    """The non-empty ``description`` / ``source`` of an instance, for its ``to_dict``."""
    return {k: getattr(inst, k) for k in META_KEYS if getattr(inst, k, "")}


def check_header(data: Any, kind: str, schema_version: int, fields: tuple[str, ...], required: tuple[str, ...]) -> None:
    """Check a JSON instance's ``kind``, ``schema_version`` and keys; raise ``InstanceError``.

    Unknown keys are an error (a typo must not be silently ignored); ``description`` and
    ``source`` are allowed as documentation.
    """
    from .errors import InstanceError

    if not isinstance(data, dict):
        raise InstanceError(f"a {kind} instance must be a JSON object; got {type(data).__name__}")
    if "kind" not in data:
        raise InstanceError(f"kind is missing; expected {kind!r}")
    if data.get("kind") != kind:
        raise InstanceError(f"kind is {data.get('kind')!r}; expected {kind!r}")
    if "schema_version" not in data:
        raise InstanceError(f"schema_version is missing; expected the integer {schema_version}")
    version = data.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version != schema_version:
        raise InstanceError(f"schema_version is {version!r}; expected the integer {schema_version}")
    allowed = ["kind", "schema_version", *fields, *META_KEYS, "expected"]
    unknown = set(data) - set(allowed)
    if unknown:
        raise InstanceError(f"unknown keys in {kind} instance: {sorted(unknown)}; allowed keys: {', '.join(allowed)}")
    missing = [k for k in required if k not in data]
    if missing:
        raise InstanceError(f"{missing[0]} is missing; a {kind} instance requires {', '.join(required)}")
    check_expected(data.get("expected"))


def check_expected(expected: Any) -> None:
    """``expected`` of a bundled instance: method name -> its certified objective (InstanceError otherwise)."""
    from .errors import InstanceError

    if expected is None:
        return
    if not isinstance(expected, dict):
        raise InstanceError(f"expected is {expected!r}; expected an object method -> certified objective")
    for k, v in expected.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v:
            raise InstanceError(f"expected[{k!r}] is {v!r}; expected a number (the method's certified objective)")


def catalogue(kind: str | None = None) -> Any:
    """The bundled instances as a table: name, kind, jobs, certified values, description.

    ``hetopt instances`` prints it (120 columns: the certified values wrap, the description shows
    its first three lines; the JSON and CSV carry it whole); ``expected`` lists the objectives
    certified for the instance (method -> value), which the test suite re-derives with those methods.
    """
    from .report import Table

    t = Table("bundled instances (hetopt.load_instance(NAME), hetopt solve NAME)",
              ["name", "kind", "jobs", "expected", "description"], wrap={"expected": None, "description": 3})
    for name in list_instances():
        data = load_json(instance_path(name))
        if kind is not None and data.get("kind") != kind:
            continue
        jobs = _job_count(data)
        exp = ", ".join(f"{k}={v:.6g}" for k, v in (data.get("expected") or {}).items())
        desc = " ".join(str(data.get("description", "")).split())
        t.add(name, data.get("kind"), jobs, exp or "-", desc)
    return t


def _job_count(data: Mapping[str, Any]) -> int | None:
    for key in ("arrival", "weight", "throughput", "total_steps", "epochs", "n_gpus", "dataset_size"):
        v = data.get(key)
        if isinstance(v, list):
            return len(v)
    return None


@lru_cache(maxsize=1)
def gavel_throughputs() -> dict[str, Any]:
    """Gavel's measured isolated throughputs (iterations/s) of 26 job types on V100, P100, K80.

    Returns the parsed JSON: ``source``, ``units``, ``gpu_types`` and ``entries`` (one per
    job type and scale factor).  From the Gavel scheduler (Narayanan et al., OSDI 2020),
    MIT licence, Copyright (c) 2020 Stanford Future Data Systems; the licence text ships as
    ``hetopt/tables/gavel-LICENSE.txt``.
    """
    return json.loads(_TABLES.joinpath("gavel_throughputs.json").read_text(encoding="utf-8"))


def table_text(name: str) -> str:
    """The text of the bundled table ``hetopt/tables/<name>``."""
    return _TABLES.joinpath(name).read_text(encoding="utf-8")


def gavel_license() -> str:
    """Text of the MIT licence under which the Gavel throughput numbers are redistributed."""
    return _TABLES.joinpath("gavel-LICENSE.txt").read_text(encoding="utf-8")
