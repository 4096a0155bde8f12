import json

import numpy as np
import pytest

from hetopt import InstanceError
from hetopt.placement import PlacementInstance

GOOD = dict(throughput=[[1.0, 2.0, 3.0], [2.0, 2.0, 1.0]], dataset_size=[10, 20], epochs=[1, 2])


@pytest.mark.parametrize("change, field", [
    (dict(throughput=[[1.0, 2.0]] * 3, dataset_size=[10, 20, 30], epochs=[1, 1, 1]), "K >= S"),
    (dict(throughput=[[1.0, 2.0, 3.0]] * 3), "throughput has 3 rows; expected 2, one per job"),
    (dict(throughput=[[1.0, -2.0, 3.0], [2.0, 2.0, 1.0]]), r"throughput\[0, 1\]"),
    (dict(throughput=[[1.0, np.nan, 3.0], [2.0, 2.0, 1.0]]), r"throughput\[0, 1\]"),
    (dict(throughput=[1.0, 2.0]), "throughput has shape"),
    (dict(dataset_size=[10]), "dataset_size has 1 entries; expected 2, one per job"),
    (dict(dataset_size=[10, -1]), r"dataset_size\[1\]"),
    (dict(epochs=[0, 1]), r"epochs\[0\]"),
    (dict(model_size=[1e6, -1.0], intra_node_rate=1e9), r"model_size\[1\]"),
    (dict(model_size=[1e6, 1e6]), "intra_node_rate is required"),
    (dict(model_size=[1e6, 1e6], intra_node_rate=1e9, worker_node=[0, 1, 1]), "inter_node_rate is required"),
    (dict(worker_node=[0, 1]), "worker_node has 2 entries; expected 3, one per worker"),
    (dict(worker_node=[0, -1, 1]), r"worker_node\[1\]"),
    (dict(intra_node_rate=1e9, inter_node_rate=2e9), "inter_node_rate"),
    (dict(intra_node_rate=0), "intra_node_rate"),
    (dict(job_names=["a"]), "job_names"),
])
def test_bad_input_names_the_field(change, field):
    with pytest.raises(InstanceError, match=field):
        PlacementInstance(**{**GOOD, **change})


def test_json_round_trip_and_unknown_keys(tmp_path):
    inst = PlacementInstance(**GOOD, model_size=[1e6, 0.0], worker_node=[0, 0, 1], intra_node_rate=1e10, inter_node_rate=1e9)
    back = PlacementInstance.from_json(inst.to_json())
    assert np.array_equal(back.throughput, inst.throughput) and back.to_dict() == inst.to_dict()
    path = tmp_path / "i.json"
    inst.to_json(path)
    assert PlacementInstance.from_json(path).to_dict() == inst.to_dict()
    d = json.loads(inst.to_json())
    d["surprise"] = 1
    with pytest.raises(InstanceError, match="unknown keys"):
        PlacementInstance.from_dict(d)
    d.pop("surprise")
    d["kind"] = "hare"
    with pytest.raises(InstanceError, match="kind"):
        PlacementInstance.from_dict(d)


def test_zero_model_sizes_mean_no_communication():
    inst = PlacementInstance(**GOOD, model_size=[0, 0])
    assert not inst.has_communication
    assert np.array_equal(inst.comm_coefficient, [0.0, 0.0])


def test_arrays_are_read_only():
    inst = PlacementInstance(**GOOD)
    with pytest.raises(ValueError):
        inst.throughput[0, 0] = 5.0


# ---------------------------------------------------------------- loader matrix (issue 25)
FULL = PlacementInstance(**GOOD, model_size=[1e6, 2e6], worker_node=[0, 0, 1], intra_node_rate=1e10,
                         inter_node_rate=1e9).to_dict()
WRONG_TYPES = [5, 5.5, "x", "10", True, None, {}, {"a": 1}, [], [[]], ["1", "2"], [True, False], [None, 1],
               [float("nan"), 1], [float("inf"), 1], [-1, 1], [2**64, 1], [[1, 2], [3]], [[1, 2], [3, 4], [5, 6]]]


def _valid(field, value):
    """The (field, value) pairs of WRONG_TYPES the loader rightly accepts."""
    if field in ("description", "source"):
        return isinstance(value, str)
    if value is None:  # null is refused for every field: an optional one is omitted for its default
        return False
    if field == "inter_node_rate":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= 1e10
    return (field, value) in (("model_size", [0, 1]), ("job_names", ["1", "2"]))


@pytest.mark.parametrize("field", [f.name for f in PlacementInstance.FIELDS] + ["description", "source"])
@pytest.mark.parametrize("value", WRONG_TYPES, ids=repr)
def test_every_wrong_field_is_an_instance_error_naming_it(field, value):
    """``resource_names=5``-style values: never a TypeError or a coercion, always InstanceError naming the field."""
    data = json.loads(json.dumps(FULL))
    data[field] = value
    if _valid(field, value):
        PlacementInstance.from_dict(data)
        return
    with pytest.raises(InstanceError, match=field):
        PlacementInstance.from_dict(data)


def test_wrong_length_arrays_name_themselves():
    for field, n in (("dataset_size", 1), ("epochs", 3), ("model_size", 1), ("worker_node", 2), ("job_names", 3),
                     ("worker_names", 2)):
        data = json.loads(json.dumps(FULL))
        data[field] = data[field][:n] if n < len(data[field]) else data[field] + data[field][:1]
        with pytest.raises(InstanceError, match=field):
            PlacementInstance.from_dict(data)


def test_missing_and_unknown_keys_are_named():
    for field in ("throughput", "dataset_size", "epochs"):
        data = {k: v for k, v in FULL.items() if k != field}
        with pytest.raises(InstanceError, match=f"{field} is missing"):
            PlacementInstance.from_dict(data)
    with pytest.raises(InstanceError) as err:
        PlacementInstance.from_dict({**FULL, "troughput": 1})
    for allowed in ("kind", "schema_version", "description", "source", "expected", *[f.name for f in PlacementInstance.FIELDS]):
        assert allowed in str(err.value)


def test_to_dict_leaves_out_absent_fields():
    d = PlacementInstance(**GOOD).to_dict()
    assert "model_size" not in d and "worker_node" not in d and "intra_node_rate" not in d
    assert PlacementInstance.from_dict(d).to_dict() == d


@pytest.mark.parametrize("field, value", [("description", 5), ("source", None)])
def test_metadata_must_be_strings_at_construction(field, value):
    with pytest.raises(InstanceError, match=field):
        PlacementInstance(**GOOD, **{field: value})
