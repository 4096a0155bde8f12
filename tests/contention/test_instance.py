"""Instance checks, JSON round trip, workload generator."""

import json

import numpy as np
import pytest

from hetopt.contention import PAPER_GPU_MIX, ContentionInstance, generate_instance, tiny_instance
from hetopt.errors import ArgumentError, InstanceError


def _base(**kw):
    d = dict(n_servers=2, gpus_per_server=2, gpu_memory=100.0, a=0.0, b=1.0, eta=0.5, arrival=[0.0, 1.0],
             n_gpus=[1, 4], iterations=[2, 3], t_f=[1.0, 1.0], t_b=[1.0, 2.0], model_size=[1.0, 2.0],
             memory=[10.0, 10.0])
    d.update(kw)
    return ContentionInstance(**d)


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("t_f", [1.0, -3.0], r"t_f\[1\] is -3.0"),
        ("model_size", [-1.0, 1.0], r"model_size\[0\] is -1.0"),
        ("arrival", [0.0, -2.0], r"arrival\[1\]"),
        ("n_gpus", [1, 5], r"n_gpus\[1\] is 5; the cluster has only 4 GPUs"),
        ("iterations", [0, 3], r"iterations\[0\]"),
        ("memory", [10.0, 101.0], r"memory\[1\]"),
        ("t_b", [1.0], "t_b has 1 entries; expected 2"),
        ("b", 0.0, "b is 0.0"),
        ("eta", -1.0, "eta is -1.0"),
        ("n_servers", 0, "n_servers is 0"),
        ("n_gpus", [1.5, 2], r"n_gpus\[0\] is 1.5; expected an integer"),
    ],
)
def test_bad_input_names_field(field, value, message):
    with pytest.raises(InstanceError, match=message):
        _base(**{field: value})


def test_json_round_trip_and_unknown_keys():
    inst = _base()
    again = ContentionInstance.from_json(inst.to_json())
    assert again.to_dict() == inst.to_dict()
    d = inst.to_dict()
    d["surprise"] = 1
    with pytest.raises(InstanceError, match="unknown keys"):
        ContentionInstance.from_dict(d)
    d = inst.to_dict()
    d["kind"] = "hare"
    with pytest.raises(InstanceError, match="kind"):
        ContentionInstance.from_dict(d)


def test_workload_follows_section_5a():
    w = generate_instance(seed=3)
    assert w.n_jobs == 160 and w.n_total_gpus == 64
    for g, c in PAPER_GPU_MIX.items():
        assert np.sum(w.n_gpus == g) == c
    assert w.iterations.min() >= 1000 and w.iterations.max() <= 6000
    assert w.arrival.min() >= 0 and w.arrival.max() < 1200
    assert np.all(np.diff(w.arrival) >= 0)
    assert json.loads(w.to_json())["kind"] == "contention"


def test_workload_seeded():
    assert generate_instance(seed=5).to_dict() == generate_instance(seed=5).to_dict()
    assert generate_instance(seed=5).to_dict() != generate_instance(seed=6).to_dict()
    assert tiny_instance(seed=2).to_dict() == tiny_instance(seed=2).to_dict()


def test_workload_scaled_mix_and_bad_mix():
    w = generate_instance(seed=0, n_jobs=16, n_servers=8)
    assert w.n_jobs == 16 and np.sum(w.n_gpus == 1) == 8
    with pytest.raises(InstanceError, match="n_gpus"):
        generate_instance(seed=0, n_servers=2)  # 32-GPU jobs on 8 GPUs
    with pytest.raises(ArgumentError, match="gpu_mix"):
        generate_instance(seed=0, n_jobs=3, gpu_mix={1: 2})


@pytest.mark.parametrize("kwargs, name", [
    (dict(n_jobs=0), "n_jobs"), (dict(n_jobs=2.5), "n_jobs"), (dict(n_jobs=True), "n_jobs"),
    (dict(iterations=(5, 2)), "iterations"), (dict(iterations=(0, 3)), "iterations"), (dict(iterations=7), "iterations"),
    (dict(arrival_window=0.0), "arrival_window"), (dict(arrival_window="60"), "arrival_window"),
    (dict(seed=-1), "seed"), (dict(seed=1.5), "seed"),
])
def test_generator_arguments_are_argument_errors(kwargs, name):
    with pytest.raises(ArgumentError, match=name):
        generate_instance(**kwargs)


@pytest.mark.parametrize("kwargs, name", [(dict(n_jobs=0), "n_jobs"), (dict(n_servers=0), "n_servers"),
                                          (dict(max_iterations=0), "max_iterations"), (dict(max_arrival=-1), "max_arrival")])
def test_tiny_instance_arguments_are_argument_errors(kwargs, name):
    with pytest.raises(ArgumentError, match=name):
        tiny_instance(**kwargs)


def test_generate_instance_takes_a_generator_and_round_trips():
    a = generate_instance(seed=np.random.default_rng(3), n_jobs=12)
    b = generate_instance(seed=np.random.default_rng(3), n_jobs=12)
    assert a.to_dict() == b.to_dict()
    again = ContentionInstance.from_dict(json.loads(json.dumps(a.to_dict())))
    assert again.to_dict() == a.to_dict()
