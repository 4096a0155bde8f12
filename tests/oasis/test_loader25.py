"""The loader's cases of issue 25: no coercion of utilities, resource names or per-job lengths."""

import copy
import json

import pytest

from hetopt.data import instance_path
from hetopt.errors import InstanceError
from hetopt.oasis import OasisInstance, SigmoidUtility, TabulatedUtility

BASE = json.loads(instance_path("oasis2018_theorem4_violation").read_text())


def _load(**over):
    d = copy.deepcopy(BASE)
    d.update(over)
    return OasisInstance.from_dict(d)


def _table(values, **extra):
    T = BASE["horizon"]
    return {"type": "table", "values": values + [0.0] * (T + 1 - len(values)), **extra}


@pytest.mark.parametrize("utility, words", [
    (_table(["10", "8", "5"]), r"values\[0\] is '10' \(a string\)"),  # issue 25: accepted as 10.0, 8.0, 5.0
    (_table([True, True]), r"values\[0\] is True \(a boolean\)"),
    (_table([10.0], target=True), "target is True"),
    (_table([10.0], target="3"), "target is '3'"),
    ({"type": "sigmoid", "gamma1": True, "gamma2": 0.5, "gamma3": 1.0}, "gamma1 is True"),  # issue 25: read as 1.0
    ({"type": "sigmoid", "gamma1": 1.0, "gamma2": False, "gamma3": 1.0}, "gamma2 is False"),
    ({"type": "sigmoid", "gamma1": 1.0, "gamma2": 0.5, "gamma3": 2**70}, "gamma3 is"),
])
def test_utility_fields_are_not_coerced(utility, words):
    utils = copy.deepcopy(BASE["utility"])
    utils[0] = utility
    with pytest.raises(InstanceError, match=r"utility\[0\]: .*" + words):
        _load(utility=utils)


@pytest.mark.parametrize("value", [5, None, "bandwidth", {"bandwidth": 1}])
def test_resource_names_not_a_list_is_named(value):
    with pytest.raises(InstanceError, match="resource_names is"):  # 5 and None raised TypeError
        _load(resource_names=value)


@pytest.mark.parametrize("field", ["arrival", "epochs", "chunks", "minibatches", "minibatch_time", "gradient_size",
                                   "worker_demand", "ps_demand", "utility"])
def test_a_wrong_length_array_names_itself(field):
    d = copy.deepcopy(BASE)
    if len(d["arrival"]) == 1:  # make two jobs first, so that a field can be one short
        for key in ("arrival", "epochs", "chunks", "minibatches", "minibatch_time", "gradient_size", "worker_demand",
                    "ps_demand", "utility"):
            d[key] = d[key] * 2
    d[field] = d[field][:-1]
    with pytest.raises(InstanceError, match=rf"^{field} has 1 (entries|rows); expected 2, one per job"):
        OasisInstance.from_dict(d)


def test_constructor_objects_follow_the_same_rules():
    with pytest.raises(InstanceError, match="gamma1 is True"):
        SigmoidUtility(True, 0.5, 1.0)
    with pytest.raises(InstanceError, match="a string"):
        TabulatedUtility(["1", "0.5"])
    assert TabulatedUtility([3, 2, 1])(1) == 2.0
