"""Every kind publishes the schema of its instance files (issue 24): FIELDS on the instance class,
a JSON Schema that every instance the loader accepts satisfies, and the same required keys."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings

import hetopt
from hetopt.data import instance_path, list_instances
from hetopt.registry import kinds
from hetopt.schema import Field, json_schema

jsonschema = pytest.importorskip("jsonschema")

KINDS = list(kinds())
META = {"kind", "schema_version", "description", "source", "expected"}


@pytest.mark.parametrize("name", KINDS)
def test_every_instance_class_declares_its_fields(name):
    cls = kinds()[name].instance
    fields = getattr(cls, "FIELDS", ())
    assert fields and all(isinstance(f, Field) for f in fields), f"{cls.__name__} has no FIELDS"
    assert len({f.name for f in fields}) == len(fields)
    for f in fields:
        assert len(f.description.split()) >= 4, f"{name}.{f.name}: say what the field means"


#: ASCII pseudo-math (``T^c_{n,m}``, ``w_n``, ``>=``) that must not stand outside ``$...$`` and code spans.
ASCII_MATH = re.compile(r"[_^]|>=|<=|\bsum\b|\|")


@pytest.mark.parametrize("name", KINDS)
def test_field_descriptions_are_myst_math_or_words(name):
    """Issue 32: symbols as ``$...$`` (rendered on the instance pages), field names as code, no table-breaking ``|``."""
    for f in kinds()[name].instance.FIELDS:
        for text in (f.description, f.default or ""):
            assert text.count("$") % 2 == 0 and "$$" not in text, f"{name}.{f.name}: an unclosed $"
            assert "|" not in text, f"{name}.{f.name}: '|' breaks the docs' Markdown table (\\lvert, \\rvert)"
            rest = re.sub(r"\$[^$]+\$|`[^`]+`", " ", text)
            assert not ASCII_MATH.search(rest), f"{name}.{f.name}: ASCII math outside $...$ or code: {rest!r}"
    schema = json_schema(name)
    for f in kinds()[name].instance.FIELDS:  # `hetopt schema KIND` keeps the $...$ and says the default
        assert schema["properties"][f.name]["description"].startswith(f.description)
        assert f.required or f"default: {f.default}" in schema["properties"][f.name]["description"]


@pytest.mark.parametrize("name", KINDS)
def test_schema_is_valid_and_matches_the_loader(name):
    schema = json_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    example = kinds()[name].example(seed=0, size=1).to_dict()
    names = {f.name for f in kinds()[name].instance.FIELDS}
    assert set(example) - META <= names, f"fields the loader writes but FIELDS omits: {set(example) - META - names}"
    # every required field of the schema is one the loader refuses to go without
    for f in kinds()[name].instance.FIELDS:
        if f.required and f.name in example:
            broken = {k: v for k, v in example.items() if k != f.name}
            with pytest.raises(hetopt.InstanceError, match=f.name):
                hetopt.load_instance(broken)


@pytest.mark.parametrize("stem", list_instances())
def test_every_bundled_instance_satisfies_its_schema(stem):
    data = json.loads(instance_path(stem).read_text(encoding="utf-8"))
    jsonschema.validate(data, json_schema(data["kind"]))


@pytest.mark.parametrize("name", KINDS)
def test_drawn_instances_satisfy_the_schema(name):
    from hetopt.testing.strategies import instance_data

    validator = jsonschema.Draft202012Validator(json_schema(name))

    @settings(max_examples=30, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(instance_data(name))
    def check(data):
        errors = sorted(validator.iter_errors(json.loads(json.dumps(data))), key=str)
        assert not errors, errors[0].message

    check()


def test_the_schema_refuses_what_the_loader_refuses():
    """A spot check that the schema is not looser than it says: wrong kind, unknown key, a string number."""
    data = json.loads(instance_path("hare2022_fig1").read_text(encoding="utf-8"))
    v = jsonschema.Draft202012Validator(json_schema("hare"))
    assert not v.is_valid({**data, "kind": "oasis"})
    assert not v.is_valid({**data, "wieght": 1})
    assert not v.is_valid({**data, "weight": ["1"] * len(data["weight"])})
