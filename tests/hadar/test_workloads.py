"""Workloads: the trace setup, the physical mixes, the motivating example, eq. (10), bundled instances."""

import json

import numpy as np
import pytest

from hetopt.data import list_instances, load_json
from hetopt.errors import ArgumentError
from hetopt.hadar import (
    HadarInstance,
    enumerate_schedules,
    estimate_throughput,
    motivating_example,
    physical_mix,
    solve_exact,
    solve_p2,
    trace_workload,
)
from hetopt.hadar.workloads import MIXES, scaled_cluster


def test_trace_cluster_and_jobs():
    inst = trace_workload(60, seed=3)
    np.testing.assert_array_equal(inst.capacity.sum(axis=0), [20, 20, 20])
    assert inst.n_machines == 15 and inst.n_jobs == 60
    assert set(inst.gpus.tolist()) <= {1, 2, 4, 8}
    assert np.all(inst.arrival == 0)
    assert trace_workload(60, seed=3).to_json() == inst.to_json()


def test_scaled_cluster_is_proportional():
    np.testing.assert_array_equal(scaled_cluster(64).sum(axis=0) // 4, [22, 21, 21])


@pytest.mark.parametrize("name", sorted(MIXES))
def test_physical_mixes(name):
    inst = physical_mix(name, "testbed")
    assert inst.n_machines == 5 and inst.capacity.sum() == 5
    assert inst.n_jobs == int(name.split("-")[1])


def test_eq10_orders_gpus_sensibly():
    assert estimate_throughput("V100", "IC") > estimate_throughput("K80", "IC")
    assert estimate_throughput("RTX3090", "MM") == pytest.approx(2 * 71.0 / 24 ** 0.5 * 32 / (3 * 2))
    with pytest.raises(ArgumentError, match="gpu"):
        estimate_throughput("H100", "IC")


def test_motivating_example_first_gavel_round_matches_the_text():
    inst = motivating_example()
    # gang speeds in epochs per round: J1 on 3 P100 -> 20, J2 on 2 V100 -> 5 (60, 25, 50 remain)
    per_round = inst.throughput * inst.gpus[:, None] * inst.slot_length / inst.iterations_per_epoch[:, None]
    assert per_round[0, 1] == pytest.approx(20.0) and per_round[1, 0] == pytest.approx(5.0)
    assert inst.capacity.sum() == 6


#: Every bundled Hadar instance: (jobs, machines, GPU types, horizon, total GPUs), read off the files.
BUNDLED = {
    "hadar2024_motivating": (3, 3, 3, 10, 6),
    "hadar2024_small": (4, 2, 2, 19, 3),
    "hadar2024_m5_aws": (5, 5, 3, 20, 5),
    "hadar2024_p2_relaxes_p1": (2, 1, 2, 2, 2),
    "hadar2024_theorem1_dp_states": (12, 5, 1, 124, 20),
    "hadar2024_theorem2_greedy_violation": (2, 1, 1, 3, 1),
}


def test_the_catalogue_lists_every_bundled_instance():
    assert sorted(n for n in list_instances() if n.startswith("hadar2024_")) == sorted(BUNDLED)


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_bundled_instances_load(name):
    data = load_json(name)
    inst = HadarInstance.from_json(data)
    J, H, R, T, gpus = BUNDLED[name]
    assert (inst.n_jobs, inst.n_machines, inst.n_types, inst.horizon, int(inst.capacity.sum())) == (J, H, R, T, gpus)
    # every field is read as written (nothing coerced or dropped) and survives a JSON round trip
    out = inst.to_dict()
    for key in ("capacity", "arrival", "gpus", "epochs", "iterations_per_epoch", "throughput", "utility",
                "slot_length", "horizon"):
        assert out[key] == data[key], key
    assert HadarInstance.from_dict(json.loads(json.dumps(out))).to_dict() == out
    # the certified optimum of P1 is recorded (HiGHS and SCIP agreed on it, see the commit)
    assert set(data["expected"]) == {"exact"} and data["expected"]["exact"] > 0


def _data_fields(inst):
    return {k: v for k, v in inst.to_dict().items() if k not in ("description", "source")}


def test_motivating_example_is_the_bundled_instance():
    bundled = HadarInstance.from_dict(load_json("hadar2024_motivating"))
    assert _data_fields(motivating_example()) == _data_fields(bundled)


def test_m5_instance_is_physical_mix_m5():
    bundled = HadarInstance.from_dict(load_json("hadar2024_m5_aws"))
    assert _data_fields(physical_mix("M-5", "aws")) == _data_fields(bundled)


def test_p2_relaxes_p1_finding():
    """P2 with (2b) '<= 1' rejects the blocking job and beats P1 (every job completes)."""
    inst = HadarInstance.from_json(load_json("hadar2024_p2_relaxes_p1"))
    p1 = solve_exact(inst)
    S = [enumerate_schedules(inst, j) for j in range(inst.n_jobs)]
    p2, _ = solve_p2(inst, S)
    p2_all, _ = solve_p2(inst, S, require_all=True)
    assert p2_all.objective == pytest.approx(p1.objective, rel=1e-6)
    assert p2.objective > 10 * p1.objective
