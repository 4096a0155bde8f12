import json

import numpy as np
import pytest

from hetopt import InstanceError
from hetopt.placement import PlacementInstance

GOOD = dict(throughput=[[1.0, 2.0, 3.0], [2.0, 2.0, 1.0]], dataset_size=[10, 20], epochs=[1, 2])


@pytest.mark.parametrize("change, field", [
    (dict(throughput=[[1.0, 2.0]] * 3), "K >= S"),
    (dict(throughput=[[1.0, -2.0, 3.0], [2.0, 2.0, 1.0]]), r"throughput\[0, 1\]"),
    (dict(throughput=[[1.0, np.nan, 3.0], [2.0, 2.0, 1.0]]), r"throughput\[0, 1\]"),
    (dict(throughput=[1.0, 2.0]), "throughput has shape"),
    (dict(dataset_size=[10]), "dataset_size has shape"),
    (dict(dataset_size=[10, -1]), r"dataset_size\[1\]"),
    (dict(epochs=[0, 1]), r"epochs\[0\]"),
    (dict(model_size=[1e6, -1.0], intra_node_rate=1e9), r"model_size\[1\]"),
    (dict(model_size=[1e6, 1e6]), "intra_node_rate is required"),
    (dict(model_size=[1e6, 1e6], intra_node_rate=1e9, worker_node=[0, 1, 1]), "inter_node_rate is required"),
    (dict(worker_node=[0, 1]), "worker_node has shape"),
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
