"""Bundled data: the papers' worked-example instances and the real throughput tables.

Instances live in the repository's top-level ``instances/`` folder, which the wheel ships
as the package ``hetopt.instances``.  Throughput tables live in ``hetopt/tables/``, each
beside its licence.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["instance_path", "list_instances", "load_json", "read_json", "table_text", "check_header", "check_expected", "catalogue",
           "gavel_throughputs", "gavel_license", "META_KEYS"]

_TABLES = resources.files("hetopt.tables")


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
    """Read a JSON instance file, or a bundled instance by name."""
    p = Path(path_or_name)
    if not p.exists():
        p = instance_path(str(path_or_name))
    with open(p, encoding="utf-8") as fh:
        return json.load(fh)


def read_json(text_or_path: str | Path | Mapping[str, Any]) -> Any:
    """Parse JSON text (a string starting with ``{``), read and parse a file path, or copy a parsed dict."""
    if isinstance(text_or_path, Mapping):
        return dict(text_or_path)
    s = str(text_or_path)
    if not s.lstrip().startswith("{"):
        s = Path(s).read_text(encoding="utf-8")
    return json.loads(s)


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
