"""FIELDS and SCHEMA_VERSION of HadarInstance (issue 24 item 4): the JSON Schema accepts every bundled
and every generated instance, its required keys are the loader's, and every key the loader accepts is
a declared field."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest
from hypothesis import given, settings

import hetopt
from hetopt.data import instance_path
from hetopt.hadar import HadarInstance
from hetopt.registry import get_kind
from hetopt.schema import field_table, json_schema
from hetopt.testing.strategies import instances

SCHEMA = json_schema("hadar")
FIELD_NAMES = [f.name for f in HadarInstance.FIELDS]
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _bundled() -> list[str]:
    from pathlib import Path

    folder = Path(hetopt.__file__).resolve().parent.parent / "instances"
    return sorted(p.stem for p in folder.glob("*.json") if json.loads(p.read_text())["kind"] == "hadar")


def test_the_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert HadarInstance.SCHEMA_VERSION == 1 and SCHEMA["properties"]["schema_version"] == {"const": 1}
    assert get_kind("hadar").instance.FIELDS is HadarInstance.FIELDS


@pytest.mark.parametrize("name", _bundled())
def test_every_bundled_instance_validates(name):
    data = json.loads(instance_path(name).read_text(encoding="utf-8"))
    VALIDATOR.validate(data)
    HadarInstance.from_dict(data)


@settings(max_examples=30, derandomize=True, deadline=None)
@given(instances("hadar"))
def test_generated_instances_validate(inst):
    VALIDATOR.validate(inst.to_dict())


@pytest.mark.parametrize("seed", range(4))
def test_sigmoid_instances_validate(seed):
    VALIDATOR.validate(hetopt.hadar.generate_instance(n_jobs=3, n_machines=2, seed=seed, utility="sigmoid").to_dict())


def test_required_keys_are_the_loaders():
    required = set(SCHEMA["required"])
    assert required == {"kind", "schema_version", *FIELD_NAMES[:8]}
    data = hetopt.load_instance("hadar2024_small").to_dict()
    for key in list(data):
        d = {k: v for k, v in data.items() if k != key}
        if key in required:
            with pytest.raises(hetopt.InstanceError, match="missing"):
                HadarInstance.from_dict(d)
        else:
            HadarInstance.from_dict(d)


def test_every_key_the_loader_accepts_is_a_field():
    written = set(hetopt.load_instance("hadar2024_small").to_dict()) - {"kind", "schema_version", "description", "source"}
    assert written == set(FIELD_NAMES)
    assert [f.name for f in HadarInstance.FIELDS if f.required] == FIELD_NAMES[:8]
    assert set(SCHEMA["properties"]) == {"kind", "schema_version", "description", "source", "expected", *FIELD_NAMES}


def test_fields_say_shape_unit_and_meaning():
    by_name = {f.name: f for f in HadarInstance.FIELDS}
    assert by_name["throughput"].shape == "(n_jobs, n_types)" and by_name["throughput"].unit == "iterations/s"
    assert by_name["slot_length"].exclusive_minimum and by_name["gpus"].minimum == 1
    assert all(f.description.endswith(".") for f in HadarInstance.FIELDS)
    table = field_table("hadar")
    assert "`utility`" in table and "theta2" in table


@pytest.mark.parametrize("utility", [
    {"kind": "sigmoid"}, {"kind": "sigmoid", "params": None}, {"kind": "linear", "params": None},
    {"kind": "effective_throughput", "params": [[1.0, 1.0, 1.0]]}, {"kind": "sigmoid", "params": [[1.0, 1.0]]},
    {"kind": "sigmoid", "params": [[0.0, 1.0, 1.0]]}, {"kind": "sigmoid", "params": [[1.0, -1.0, 1.0]]},
    {"kind": "sigmoid", "params": [["1", 1.0, 1.0]]}, {"kind": "effective_throughput", "theta": 1},
])
def test_the_schema_refuses_what_the_loader_refuses_in_utility(utility):
    data = copy.deepcopy(hetopt.load_instance("hadar2024_p2_relaxes_p1").to_dict())
    data["utility"] = utility
    assert not VALIDATOR.is_valid(data)
    with pytest.raises(hetopt.InstanceError, match="utility"):
        HadarInstance.from_dict(data)
