"""The loader of Hadar instances (issue 25, item 5): every wrong field is an InstanceError naming it,
nothing is coerced, a wrong-length array names itself, a missing field says "missing", the unknown-key
error lists every allowed key."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import hetopt
from hetopt.errors import InstanceError
from hetopt.hadar import HadarInstance, Utility

BASE = hetopt.load_instance("hadar2024_small").to_dict()          # 4 jobs, 2 machines, 2 types
SIGMOID = hetopt.load_instance("hadar2024_p2_relaxes_p1").to_dict()  # sigmoid utility, 2 jobs


def _load(data: dict, **over):
    d = copy.deepcopy(data)
    for k, v in over.items():
        if v is _DROP:
            d.pop(k)
        else:
            d[k] = v
    return HadarInstance.from_dict(d)


_DROP = object()


# ------------------------------------------------------------------ the cases
@pytest.mark.parametrize("value", [5, 5.0, True, "type0", {"a": 1}])
def test_gpu_types_not_a_list_is_named(value):
    # was: TypeError "'int' object is not iterable" for gpu_types=5
    with pytest.raises(InstanceError, match="gpu_types"):
        _load(BASE, gpu_types=value)


@pytest.mark.parametrize("field, n", [("gpu_types", 2), ("job_names", 4)])
@pytest.mark.parametrize("leaf", [None, 0, 1.5, True, ["a"]])
def test_names_are_not_coerced(field, n, leaf):
    # was: [None, None] accepted as ('None', 'None')
    with pytest.raises(InstanceError, match=field):
        _load(BASE, **{field: [leaf] * n})


@pytest.mark.parametrize("field", ["gpu_types", "job_names", "horizon"])
def test_optional_field_given_as_null_is_refused(field):
    with pytest.raises(InstanceError, match=f"{field} is null; omit the key"):
        _load(BASE, **{field: None})
    assert _load(BASE, **{field: _DROP}) is not None  # omitted: the default


@pytest.mark.parametrize("col, name", [(0, "theta1"), (1, "theta2"), (2, "theta3")])
@pytest.mark.parametrize("value", ["1", "abc", True, None, 1j, [1.0]])
def test_sigmoid_parameters_that_are_not_numbers_are_named(col, name, value):
    # was: ValueError from numpy for ["a", ...], and "1" silently read as 1.0
    params = copy.deepcopy(SIGMOID["utility"]["params"])
    params[1][col] = value
    with pytest.raises(InstanceError, match=rf"utility\.params\[1\]\[{col}\] \({name}"):
        _load(SIGMOID, utility={"kind": "sigmoid", "params": params})


@pytest.mark.parametrize("col, value", [(0, 0.0), (0, -1.0), (1, -0.5), (2, -1.0), (0, float("inf")),
                                        (1, float("nan"))])
def test_sigmoid_parameters_out_of_range_are_named(col, value):
    params = copy.deepcopy(SIGMOID["utility"]["params"])
    params[0][col] = value
    with pytest.raises(InstanceError, match=rf"utility\.params\[0\]\[{col}\]"):
        _load(SIGMOID, utility={"kind": "sigmoid", "params": params})


@pytest.mark.parametrize("utility, match", [
    ({"kind": "sigmoid"}, r"utility\.params is missing"),
    ({"kind": "sigmoid", "params": None}, r"utility\.params is None"),
    ({"kind": "sigmoid", "params": [[1.0, 1.0]] * 2}, r"utility\.params\[0\] is"),
    ({"kind": "sigmoid", "params": [[1.0, 1.0, 1.0]]}, r"utility\.params has 1 rows; expected one per job \(2\)"),
    ({"kind": "sigmoid", "params": "1,2,3"}, r"utility\.params"),
    ({"kind": ["sigmoid"], "params": None}, r"utility\.kind"),
    ({"kind": 5, "params": None}, r"utility\.kind"),
    ({"params": None}, r"utility\.kind is missing"),
    ({"kind": "effective_throughput", "params": [[1.0, 1.0, 1.0]] * 2}, r"utility\.params"),
    ({"kind": "sigmoid", "params": [[1, 1, 1]] * 2, "theta": 1}, "unknown keys"),
    (5, "utility is 5"),
    (None, "utility is null"),
])
def test_utility_object_errors_are_named(utility, match):
    with pytest.raises(InstanceError, match=match):
        _load(SIGMOID, utility=utility)


@pytest.mark.parametrize("field", ["arrival", "gpus", "epochs", "iterations_per_epoch", "throughput"])
def test_a_wrong_length_array_names_itself(field):
    # was: a short arrival reported as "gpus has shape (4,); expected (3,)"
    d = copy.deepcopy(BASE)
    d[field] = d[field][:-1]
    with pytest.raises(InstanceError, match=rf"^{field} has 3 (entries|rows); expected 4, one per job"):
        HadarInstance.from_dict(d)


def test_a_wrong_length_name_list_names_itself():
    with pytest.raises(InstanceError, match="job_names"):
        _load(BASE, job_names=["a", "b", "c"])
    with pytest.raises(InstanceError, match="gpu_types"):
        _load(BASE, gpu_types=["a", "b", "c"])


def test_throughput_with_the_wrong_number_of_types_names_itself():
    with pytest.raises(InstanceError, match=r"throughput has 3 columns; expected 2, one per type \(capacity"):
        _load(BASE, throughput=[row + [1.0] for row in BASE["throughput"]])


@pytest.mark.parametrize("field", ["capacity", "arrival", "gpus", "epochs", "iterations_per_epoch", "throughput",
                                   "utility", "slot_length"])
def test_a_missing_field_says_missing(field):
    with pytest.raises(InstanceError, match=f"{field} is missing"):
        _load(BASE, **{field: _DROP})


def test_unknown_key_lists_every_allowed_key():
    with pytest.raises(InstanceError) as exc:
        _load(BASE, notes="free text")  # was silently dropped
    for key in ["kind", "schema_version", "description", "source", "expected", "capacity", "arrival", "gpus",
                "epochs", "iterations_per_epoch", "throughput", "utility", "slot_length", "gpu_types", "job_names",
                "horizon"]:
        assert key in str(exc.value)


@pytest.mark.parametrize("field, value", [
    ("capacity", [["2", 0], [1, 0]]), ("capacity", [[True, 0], [1, 0]]), ("arrival", [0, 2, 2, "0"]),
    ("epochs", [85.5, 50, 26, 65]), ("gpus", [2, 1, 1, True]), ("throughput", [[1.83, "6.4"]] + BASE["throughput"][1:]),
    ("slot_length", "60"), ("slot_length", True), ("horizon", "19"), ("horizon", 19.0), ("horizon", True),
    ("iterations_per_epoch", [18, 18, 16, 2**63]),
])
def test_values_are_not_coerced(field, value):
    with pytest.raises(InstanceError, match=field):
        _load(BASE, **{field: value})


def test_iterations_beyond_int64_are_named():
    # E_j N_j = 2^62 * 4 wrapped to 0 in int64
    with pytest.raises(InstanceError, match=r"epochs\[0\] \* iterations_per_epoch\[0\]"):
        _load(BASE, epochs=[2**62, 50, 26, 65], iterations_per_epoch=[4, 18, 16, 19])


def test_large_integers_are_kept_exactly():
    inst = _load(BASE, epochs=[2**53 + 1, 50, 26, 65], iterations_per_epoch=[1, 18, 16, 19], horizon=10**6)
    assert int(inst.epochs[0]) == 2**53 + 1


def test_a_default_horizon_beyond_2_53_slots_is_named():
    with pytest.raises(InstanceError, match="default horizon"):
        _load(BASE, throughput=[[1e-300, 1e-300]] * 4, horizon=_DROP)


# ------------------------------------------------------------------ Utility's exact evaluation
def test_sigmoid_is_exact_where_the_old_clip_at_700_was_wrong():
    u = Utility("sigmoid", [[1e300, 1.0, 0.0]])
    # z = 750: U = 1e300 e^-750 (a normal float, ~1.9e-26); clipping z at 700 gave 1e300 e^-700 ~ 9.9e-5
    got = float(u(np.array([750.0]), np.array([1]))[0])
    assert got == pytest.approx(1e300 * np.exp(-750.0), rel=1e-12)
    assert float(u.log_of(np.array([750.0]), np.array([1]))[0]) == pytest.approx(np.log(1e300) - 750.0, rel=1e-15)


def test_log_utility_where_the_utility_underflows():
    u = Utility("sigmoid", [[2.0, 10.0, 0.0]])
    assert float(u(np.array([1000.0]), np.array([1]))[0]) == 0.0  # e^-10000 underflows
    assert float(u.log_of(np.array([1000.0]), np.array([1]))[0]) == pytest.approx(np.log(2.0) - 10000.0, rel=1e-15)
    e = Utility("effective_throughput")
    assert float(e.log_of(np.array([1e-300]), np.array([10**18]))[0]) == pytest.approx(np.log(1e18) + np.log(1e300))
