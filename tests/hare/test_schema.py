"""The JSON Schema of a Hare instance (issue 24 item 4, issue 25 item 6) agrees with the loader."""

import jsonschema
import pytest
from hypothesis import given, settings

from hetopt.data import list_instances, load_json
from hetopt.hare import HareInstance
from hetopt.hare.instance import SCHEMA_VERSION
from hetopt.schema import SHAPE_PATTERN, json_schema
from hetopt.testing.strategies import instances

SCHEMA = json_schema("hare")
FIELD_NAMES = [f.name for f in HareInstance.FIELDS]
REQUIRED = FIELD_NAMES[:6]
BUNDLED = [stem for stem in list_instances() if load_json(stem).get("kind") == "hare"]


def test_bundled_instances_exist():
    assert len(BUNDLED) >= 3


@pytest.mark.parametrize("stem", BUNDLED)
def test_bundled_instances_validate(stem):
    jsonschema.validate(load_json(stem), SCHEMA)


@settings(max_examples=30, derandomize=True, deadline=None)
@given(instances("hare"))
def test_drawn_instances_validate(inst):
    jsonschema.validate(inst.to_dict(), SCHEMA)


def test_required_keys_are_the_loaders():
    assert set(SCHEMA["required"]) == {"kind", "schema_version", *REQUIRED}
    assert [f.name for f in HareInstance.FIELDS if f.required] == REQUIRED
    data = load_json(BUNDLED[0])
    for key in REQUIRED:
        broken = {k: v for k, v in data.items() if k != key}
        with pytest.raises(Exception, match=f"{key} is missing"):
            HareInstance.from_dict(broken)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, SCHEMA)


def test_every_loader_field_is_declared():
    declared = {f.name for f in HareInstance.FIELDS}
    assert set(HareInstance.from_dict(load_json(BUNDLED[0])).to_dict()) - {"description", "source"} == declared | {
        "kind", "schema_version"}
    assert set(SCHEMA["properties"]) == declared | {"kind", "schema_version", "description", "source", "expected"}
    assert HareInstance.SCHEMA_VERSION == SCHEMA_VERSION == SCHEMA["properties"]["schema_version"]["const"]
    for f in HareInstance.FIELDS:
        assert SHAPE_PATTERN.match(f.shape) and f.description.endswith(".")
        assert "|" not in f.description  # the docs' Markdown table


def test_schema_rejects_what_the_loader_rejects():
    data = load_json(BUNDLED[0])
    for key, bad in (("weight", [0] * len(data["weight"])), ("compute_time", [[0] * len(data["compute_time"][0])]
                                                                              * len(data["compute_time"])),
                     ("rounds", [0.5] * len(data["rounds"])), ("arrival", [-1] * len(data["arrival"]))):
        broken = data | {key: bad}
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, SCHEMA)
        with pytest.raises(Exception, match=key):
            HareInstance.from_dict(broken)


def test_card_field_table_is_the_schema():
    """The card's field table is ``hetopt.schema.field_table("hare")`` (regenerate it when FIELDS change)."""
    from pathlib import Path

    from hetopt.schema import field_table

    card = (Path(__file__).resolve().parents[2] / "models" / "hare2022.md").read_text(encoding="utf-8")
    assert field_table("hare") in card
