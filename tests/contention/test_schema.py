"""The JSON Schema of contention instances (FIELDS, SCHEMA_VERSION) against the loader (issue 24 item 4, issue 25)."""

from __future__ import annotations

import json

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings

from hetopt.contention import ContentionInstance
from hetopt.contention.instance import SCHEMA_VERSION
from hetopt.data import instance_path, list_instances, load_json
from hetopt.errors import InstanceError
from hetopt.schema import SHAPE_PATTERN, field_table, json_schema
from hetopt.testing.strategies import instances

SCHEMA = json_schema("contention")
BUNDLED = [n for n in list_instances() if load_json(instance_path(n)).get("kind") == "contention"]


def test_class_declares_fields_and_version():
    assert ContentionInstance.SCHEMA_VERSION == SCHEMA_VERSION == SCHEMA["properties"]["schema_version"]["const"]
    assert all(SHAPE_PATTERN.match(f.shape) and f.description.endswith(".") for f in ContentionInstance.FIELDS)
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert "| `t_f` | `(n_jobs,)` | number | s |" in field_table("contention")


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_instances_validate(name):
    jsonschema.validate(load_json(instance_path(name)), SCHEMA)


@settings(max_examples=30, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances("contention"))
def test_drawn_instances_validate(inst):
    jsonschema.validate(json.loads(json.dumps(inst.to_dict())), SCHEMA)


def test_required_keys_are_the_loaders():
    d = load_json(instance_path("wang2019_tiny"))
    required = set(SCHEMA["required"])
    for key in d:
        if key in required:
            with pytest.raises(InstanceError, match=f"{key} is missing"):
                ContentionInstance.from_dict({k: v for k, v in d.items() if k != key})
        elif key not in ("description", "source", "expected"):
            ContentionInstance.from_dict({k: v for k, v in d.items() if k != key})  # optional: accepted without
    assert required == {"kind", "schema_version", *(f.name for f in ContentionInstance.FIELDS if f.required)}


def test_every_field_the_loader_accepts_is_declared():
    d = ContentionInstance.from_dict(load_json(instance_path("wang2019_tiny"))).to_dict()
    declared = {f.name for f in ContentionInstance.FIELDS}
    assert set(d) - {"kind", "schema_version", "description", "source", "expected"} == declared
    with pytest.raises(InstanceError) as exc:
        ContentionInstance.from_dict({**d, "typo": 1})
    for key in ("kind", "schema_version", "description", "source", "expected", *declared):
        assert key in str(exc.value)
