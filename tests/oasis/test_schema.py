"""OasisInstance.FIELDS and the JSON Schema made from it (issue 24 item 4, issue 25 item 6)."""

import copy
import json

import jsonschema
import pytest
from hypothesis import given, settings

from hetopt.data import instance_path, list_instances
from hetopt.errors import InstanceError
from hetopt.oasis import OasisInstance
from hetopt.oasis.instance import SCHEMA_VERSION
from hetopt.schema import field_table, json_schema
from hetopt.testing.strategies import instances

SCHEMA = json_schema("oasis")
FIELD_NAMES = [f.name for f in OasisInstance.FIELDS]
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
BUNDLED = [n for n in list_instances() if n.startswith("oasis")]


def test_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert OasisInstance.SCHEMA_VERSION == SCHEMA_VERSION == SCHEMA["properties"]["schema_version"]["const"]


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_instances_validate(name):
    data = json.loads(instance_path(name).read_text())
    VALIDATOR.validate(data)


@settings(max_examples=30, derandomize=True, deadline=None)
@given(instances("oasis"))
def test_generated_instances_validate(inst):
    VALIDATOR.validate(json.loads(json.dumps(inst.to_dict())))


def test_required_keys_are_the_loaders():
    base = json.loads(instance_path(BUNDLED[0]).read_text())
    loader_required = []
    for key in FIELD_NAMES:
        d = copy.deepcopy(base)
        d.pop(key)
        try:
            OasisInstance.from_dict(d)
        except InstanceError as exc:
            assert "missing" in str(exc), (key, str(exc))
            loader_required.append(key)
    assert set(SCHEMA["required"]) == {"kind", "schema_version", *loader_required}


def test_every_accepted_field_is_in_fields():
    written = set(OasisInstance.from_dict(json.loads(instance_path(BUNDLED[0]).read_text())).to_dict())
    assert written - {"kind", "schema_version", "description", "source"} == set(FIELD_NAMES)
    assert set(SCHEMA["properties"]) == {"kind", "schema_version", "description", "source", "expected", *FIELD_NAMES}


def test_utility_leaf_is_an_object_schema():
    leaf = SCHEMA["properties"]["utility"]["items"]
    kinds = {alt["properties"]["type"]["const"] for alt in leaf["oneOf"]}
    assert kinds == {"sigmoid", "table"}
    ok = {"type": "sigmoid", "gamma1": 1.0, "gamma2": 0.5, "gamma3": 2.0}
    jsonschema.validate(ok, leaf)
    for bad in ({**ok, "gamma1": "1"}, {**ok, "gamma1": -1}, {**ok, "extra": 1}, {"type": "table", "values": []},
                {"type": "table", "values": ["10", "8"]}, {"type": "sigmoid", "gamma1": 1.0}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, leaf)
    desc = SCHEMA["properties"]["utility"]["description"]
    for word in ("sigmoid", "gamma1", "gamma2", "gamma3", "table", "values", "target"):
        assert word in desc


def test_schema_rejects_what_the_loader_rejects():
    base = json.loads(instance_path(BUNDLED[0]).read_text())
    for key, value in (("horizon", 0), ("arrival", [0]), ("minibatch_time", [0.0]), ("epochs", ["3"]),
                       ("resource_names", 5), ("worker_capacity", [[-1.0]])):
        d = copy.deepcopy(base)
        d[key] = value
        with pytest.raises(jsonschema.ValidationError):
            VALIDATOR.validate(d)
        with pytest.raises(InstanceError):
            OasisInstance.from_dict(d)


def test_field_table_lists_every_field():
    table = field_table("oasis")
    for f in OasisInstance.FIELDS:
        assert f"`{f.name}`" in table
