"""HadarInstance: checks at construction, JSON round trip, the generator."""

import json

import numpy as np
import pytest

from hetopt.errors import InstanceError
from hetopt.hadar import HadarInstance, Utility, generate_instance


def _kw(**over):
    kw = dict(capacity=[[2, 1], [1, 0]], arrival=[0, 1], gpus=[1, 2], epochs=[3, 2], iterations_per_epoch=[10, 5],
              throughput=[[2.0, 1.0], [1.0, 3.0]], utility="effective_throughput", slot_length=60.0)
    kw.update(over)
    return kw


def test_fields_and_defaults():
    inst = HadarInstance(**_kw())
    assert inst.n_jobs == 2 and inst.n_machines == 2 and inst.n_types == 2
    np.testing.assert_array_equal(inst.total_iterations, [30, 10])
    assert inst.gpu_types == ("type0", "type1") and inst.job_names == ("job0", "job1")
    assert inst.horizon >= inst.arrival.max() + 1


@pytest.mark.parametrize("seed", range(4))
def test_json_round_trip(seed):
    inst = generate_instance(n_jobs=4, n_machines=3, seed=seed, utility="sigmoid" if seed % 2 else "effective_throughput")
    back = HadarInstance.from_json(inst.to_json())
    assert back.to_json() == inst.to_json()


@pytest.mark.parametrize(
    "over, match",
    [
        (dict(throughput=[[2.0, -1.0], [1.0, 3.0]]), r"throughput\[0, 1\] is -1.0"),
        (dict(throughput=[[0.0, 1.0], [1.0, 3.0]], capacity=[[2, 0], [1, 0]]), r"throughput\[0, :\] is zero"),
        (dict(gpus=[1, 9]), r"gpus\[1\] is 9"),
        (dict(capacity=[[2, -1], [1, 0]]), r"capacity\[0, 1\] is -1"),
        (dict(arrival=[0, -2]), r"arrival\[1\] is -2"),
        (dict(epochs=[3, 0]), r"epochs\[1\] is 0"),
        (dict(slot_length=0.0), "slot_length"),
        (dict(utility="linear"), r"utility\.kind"),
        (dict(utility={"kind": "sigmoid", "params": [[1.0, 0.1, 5.0]]}), "one per job"),
        (dict(utility={"kind": "sigmoid", "params": [[1.0, -0.1, 5.0], [1.0, 0.1, 5.0]]}), r"utility\.params\[0\]\[1\] \(theta2"),
        (dict(horizon=1), "horizon"),
    ],
)
def test_bad_input_is_an_instance_error_naming_the_field(over, match):
    with pytest.raises(InstanceError, match=match):
        HadarInstance(**_kw(**over))


def test_zero_throughput_on_the_only_type_with_capacity():
    # type 1 has no GPUs anywhere, so a job that only runs on type 1 can never run.
    with pytest.raises(InstanceError, match=r"throughput\[1, :\]"):
        HadarInstance(**_kw(capacity=[[2, 0], [1, 0]], throughput=[[2.0, 1.0], [0.0, 3.0]]))


def test_json_unknown_and_missing_keys():
    d = json.loads(HadarInstance(**_kw()).to_json())
    with pytest.raises(InstanceError, match="unknown keys"):
        HadarInstance.from_json({**d, "deadline": 3})
    with pytest.raises(InstanceError, match="kind"):
        HadarInstance.from_json({**d, "kind": "oasis"})
    del d["gpus"]
    with pytest.raises(InstanceError, match="missing"):
        HadarInstance.from_json(d)


def test_utilities_are_non_increasing():
    inst = generate_instance(n_jobs=5, n_machines=2, seed=7, utility="sigmoid")
    d = np.linspace(1, 5000, 50)
    vals = inst.utility_of(np.tile(d, (inst.n_jobs, 1)))
    assert np.all(np.diff(vals, axis=1) <= 1e-12)
    etp = Utility("effective_throughput")
    assert np.all(np.diff(etp(np.tile(d, (2, 1)), [10, 20]), axis=1) <= 0)


def test_generator_is_seeded():
    assert generate_instance(n_jobs=4, n_machines=2, seed=3).to_json() == generate_instance(n_jobs=4, n_machines=2, seed=3).to_json()
    assert generate_instance(n_jobs=4, n_machines=2, seed=3).to_json() != generate_instance(n_jobs=4, n_machines=2, seed=4).to_json()
