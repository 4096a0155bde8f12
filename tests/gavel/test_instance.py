"""GavelInstance JSON round trip, errors naming the field, bundled instances, Gavel's trace format."""

import numpy as np
import pytest

import hetopt
from hetopt.data import list_instances, load_json
from hetopt.errors import InstanceError
from hetopt.gavel import GavelInstance, generate_instance, parse_trace, to_trace
from hetopt.gavel.generators import job_table

GAVEL_STEMS = [s for s in list_instances() if s.startswith("gavel2020_")]


def _small():
    return GavelInstance(["v100", "k80"], [2, 1], ["A", "B"], [1, 2], [10.0, 20.0], [0.0, 5.0], [[2.0, 1.0], [1.0, 1.0]])


def test_round_trip():
    inst = _small()
    back = GavelInstance.from_json(inst.to_json())
    assert back.to_dict() == inst.to_dict()
    assert hetopt.load_instance(inst.to_dict()).n_jobs == 2


@pytest.mark.parametrize("field, value", [("capacity", [1]), ("scale_factor", [0, 1]), ("total_steps", [1, -1]),
                                          ("arrival", [-1, 0]), ("throughput", [[1, -1], [1, 1]]),
                                          ("priority_weight", [1, 0]), ("gpu_types", "v100")])
def test_bad_field_is_named(field, value):
    d = _small().to_dict()
    d[field] = value
    with pytest.raises(InstanceError, match=field):
        GavelInstance.from_dict(d)


def test_missing_and_unknown_keys_and_unrunnable_job():
    d = _small().to_dict()
    del d["throughput"]
    with pytest.raises(InstanceError, match="throughput"):
        GavelInstance.from_dict(d)
    d = _small().to_dict() | {"speed": 1}
    with pytest.raises(InstanceError, match="speed"):
        GavelInstance.from_dict(d)
    d = _small().to_dict() | {"scale_factor": [1, 3]}  # 3 GPUs on no type
    with pytest.raises(InstanceError, match="job 1"):
        GavelInstance.from_dict(d)


@pytest.mark.parametrize("stem", GAVEL_STEMS)
def test_bundled_instances_load_with_description_and_source(stem):
    d = load_json(stem)
    assert d["kind"] == "gavel" and d["description"] and d["source"]
    assert GavelInstance.from_dict(d).n_jobs >= 3


def test_bundled_instances_exist():
    assert {"gavel2020_three_jobs", "gavel2020_hadar_fig1a", "gavel2020_workload12"} <= set(GAVEL_STEMS)


def test_generator_follows_gavel_and_is_seeded():
    a = generate_instance(n_jobs=40, capacity=(4, 4, 4), jobs_per_hour=6.0, seed=3)
    b = generate_instance(n_jobs=40, capacity=(4, 4, 4), jobs_per_hour=6.0, seed=3)
    assert a.to_dict() == b.to_dict()
    table = job_table()
    for j in range(a.n_jobs):  # throughputs are Gavel's measurement at the job's scale factor
        np.testing.assert_array_equal(a.throughput[j], table[a.job_types[j], int(a.scale_factor[j])])
    assert set(a.scale_factor.tolist()) <= {1, 2, 4}
    assert np.all(np.diff(a.arrival) >= 0) and a.arrival[0] == 0
    # durations: 60 * 10**[1.5, 4] s on the V100
    dur = a.total_steps / a.throughput[:, 0]
    assert np.all(dur >= 60 * 10 ** 1.5 - 1) and np.all(dur <= 60 * 10 ** 4 + 1)
    assert np.all(generate_instance(n_jobs=5, jobs_per_hour=0.0, seed=0).arrival == 0)


def test_trace_round_trip_and_errors():
    a = generate_instance(n_jobs=10, capacity=(2, 2, 2), jobs_per_hour=3.0, seed=1)
    text = to_trace(a)
    assert len(text.splitlines()) == 10 and all(len(line.split("\t")) == 10 for line in text.splitlines())
    b = parse_trace(text, capacity=(2, 2, 2))
    np.testing.assert_allclose(b.throughput, a.throughput, rtol=1e-6)  # Gavel's unrounded table vs 6 digits
    np.testing.assert_allclose(b.arrival, a.arrival, atol=1e-6)
    assert b.job_types == a.job_types
    with pytest.raises(InstanceError, match="line 1"):
        parse_trace("A3C\t-\t-\t-\t0\t10\t8\t1\t-1\t0\n")
    with pytest.raises(InstanceError, match="fields"):
        parse_trace("A3C\t10\n")
