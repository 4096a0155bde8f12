"""Workloads: the trace setup, the physical mixes, the motivating example, eq. (10), bundled instances."""

import numpy as np
import pytest

from hetopt.data import load_json
from hetopt.errors import InstanceError
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
    with pytest.raises(InstanceError, match="gpu"):
        estimate_throughput("H100", "IC")


def test_motivating_example_first_gavel_round_matches_the_text():
    inst = motivating_example()
    # gang speeds in epochs per round: J1 on 3 P100 -> 20, J2 on 2 V100 -> 5 (60, 25, 50 remain)
    per_round = inst.throughput * inst.gpus[:, None] * inst.slot_length / inst.iterations_per_epoch[:, None]
    assert per_round[0, 1] == pytest.approx(20.0) and per_round[1, 0] == pytest.approx(5.0)
    assert inst.capacity.sum() == 6


def test_bundled_instances_load():
    for name in ("hadar2024_motivating", "hadar2024_small", "hadar2024_m5_aws", "hadar2024_p2_relaxes_p1"):
        HadarInstance.from_json(load_json(name))


def test_p2_relaxes_p1_finding():
    """P2 with (2b) '<= 1' rejects the blocking job and beats P1 (every job completes)."""
    inst = HadarInstance.from_json(load_json("hadar2024_p2_relaxes_p1"))
    p1 = solve_exact(inst)
    S = [enumerate_schedules(inst, j) for j in range(inst.n_jobs)]
    p2, _ = solve_p2(inst, S)
    p2_all, _ = solve_p2(inst, S, require_all=True)
    assert p2_all.objective == pytest.approx(p1.objective, rel=1e-6)
    assert p2.objective > 10 * p1.objective
