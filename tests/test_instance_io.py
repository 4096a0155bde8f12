"""Every instance class reads a path, JSON text or a dict, and writes back description and source."""

import json
from pathlib import Path

import pytest

import hetopt

INSTANCES = sorted((Path(__file__).resolve().parents[1] / "instances").glob("*.json"))


@pytest.mark.parametrize("path", INSTANCES, ids=lambda p: p.stem)
def test_from_json_from_dict_to_json_round_trip(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    inst = hetopt.load_instance(path)
    cls = type(inst)
    for source in (path, str(path), data, path.read_text(encoding="utf-8")):
        assert cls.from_json(source).to_dict() == inst.to_dict()
    assert cls.from_dict(data).to_dict() == inst.to_dict()
    back = json.loads(inst.to_json())
    assert back["kind"] == data["kind"]
    for key in ("description", "source"):
        assert back.get(key, "") == data.get(key, "")
        assert getattr(inst, key) == data.get(key, "")
    assert cls.from_json(inst.to_json()).to_dict() == inst.to_dict()


@pytest.mark.parametrize("path", INSTANCES[:1] + INSTANCES[-1:], ids=lambda p: p.stem)
def test_description_must_be_a_string(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    data["source"] = 3
    with pytest.raises(hetopt.errors.InstanceError, match="source"):
        type(hetopt.load_instance(path)).from_dict(data)
