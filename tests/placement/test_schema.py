"""The JSON Schema of a placement instance (issue 24 item 4): FIELDS on the class, every bundled and
drawn instance valid, the same required keys as the loader, every field the loader accepts declared."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings

from hetopt import InstanceError
from hetopt.data import instance_path, list_instances, load_json
from hetopt.placement import PlacementInstance
from hetopt.schema import Field, json_schema

jsonschema = pytest.importorskip("jsonschema")

BUNDLED = [s for s in list_instances() if load_json(instance_path(s)).get("kind") == "placement"]


def test_fields_declared():
    fields = PlacementInstance.FIELDS
    assert all(isinstance(f, Field) for f in fields) and len({f.name for f in fields}) == len(fields)
    assert PlacementInstance.SCHEMA_VERSION == 1
    for f in fields:
        assert len(f.description.split()) >= 4 and f.shape


def test_schema_is_valid_and_its_required_keys_are_the_loaders():
    schema = json_schema("placement")
    jsonschema.Draft202012Validator.check_schema(schema)
    required = set(schema["required"]) - {"kind", "schema_version"}
    assert required == {"throughput", "dataset_size", "epochs"}
    full = PlacementInstance(throughput=[[1.0, 2.0], [2.0, 1.0]], dataset_size=[1, 2], epochs=[1, 1], model_size=[1, 1],
                             worker_node=[0, 1], intra_node_rate=2.0, inter_node_rate=1.0).to_dict()
    for name in required:  # the loader refuses to go without each required key
        with pytest.raises(InstanceError, match=f"{name} is missing"):
            PlacementInstance.from_dict({k: v for k, v in full.items() if k != name})
    optional = [("job_names",), ("worker_names",), ("worker_node", "inter_node_rate"),
                ("model_size", "worker_node", "intra_node_rate", "inter_node_rate")]
    for names in optional:  # and goes without every other one (the communication fields together)
        PlacementInstance.from_dict({k: v for k, v in full.items() if k not in names})
    assert {n for names in optional for n in names} == set(full) - required - {"kind", "schema_version"}
    assert set(full) - {"kind", "schema_version"} <= set(schema["properties"])  # every field it accepts is declared


@pytest.mark.parametrize("stem", BUNDLED)
def test_bundled_instances_validate(stem):
    jsonschema.validate(json.loads(instance_path(stem).read_text(encoding="utf-8")), json_schema("placement"))


def test_drawn_instances_validate():
    from hetopt.testing.strategies import instance_data

    validator = jsonschema.Draft202012Validator(json_schema("placement"))

    @settings(max_examples=30, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(instance_data("placement"))
    def check(data):
        errors = sorted(validator.iter_errors(json.loads(json.dumps(data))), key=str)
        assert not errors, errors[0].message

    check()


def test_schema_refuses_what_the_loader_refuses():
    data = json.loads(instance_path("liu2024_table2").read_text(encoding="utf-8"))
    v = jsonschema.Draft202012Validator(json_schema("placement"))
    assert v.is_valid(data)
    assert not v.is_valid({**data, "kind": "hare"})
    assert not v.is_valid({**data, "troughput": 1})
    assert not v.is_valid({**data, "epochs": ["200", "200"]})
    assert not v.is_valid({**data, "dataset_size": [0, 1]})
    assert not v.is_valid({**data, "model_size": None})
