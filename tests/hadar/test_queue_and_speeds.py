"""What the ledger's Hadar experiments rest on: queue order, speed sources, per-job GRU, JSON forms.

The experiments and sweeps themselves are tested in ``tests/claims/test_hadar.py``."""

import json

import numpy as np
import pytest

from hetopt.data import instance_path, load_json
from hetopt.errors import ArgumentError, InstanceError
from hetopt.hadar import HadarInstance, physical_mix, simulate, trace_workload
from hetopt.hadar.policies import queue_rank


def test_queue_rank_orders():
    inst = trace_workload(12, seed=0, n_machines=3, hours_scale=0.05)
    assert queue_rank(inst, "index").tolist() == list(range(12))
    t = inst.total_iterations / inst.best_gang_rate()
    r = queue_rank(inst, "longest_first")
    assert t[np.argsort(r)].tolist() == sorted(t, reverse=True)
    assert sorted(queue_rank(inst, "random", seed=3).tolist()) == list(range(12))
    with pytest.raises(ArgumentError, match="queue_order"):
        simulate(inst, "hadar", options={"queue_order": "shortest"})
    with pytest.raises(ArgumentError, match="queue_order"):
        queue_rank(inst, "shortest")


def test_queue_order_changes_the_schedule():
    inst = trace_workload(30, seed=0, n_machines=3, hours_scale=0.05)
    a = simulate(inst, "hadar", round_length=360.0, record_rounds=False)
    b = simulate(inst, "hadar", round_length=360.0, record_rounds=False,
                 options={"queue_order": "longest_first"})
    assert not np.allclose(a.completion, b.completion)


@pytest.mark.parametrize("cluster", ["aws", "testbed"])
def test_physical_speed_sources(cluster):
    eq10 = physical_mix("M-5", cluster)
    gav = physical_mix("M-5", cluster, speeds="gavel")
    assert np.linalg.matrix_rank(eq10.throughput) == 1  # eq. (10) is GPU factor x model factor
    assert np.linalg.matrix_rank(gav.throughput) > 1
    with pytest.raises(ArgumentError, match="speeds"):
        physical_mix("M-5", cluster, speeds="spec")


def test_gavel_speeds_are_the_table_numbers():
    from hetopt.data import gavel_throughputs

    tab = {(e["job_type"], e["scale_factor"]): e["iterations_per_second"] for e in gavel_throughputs()["entries"]}
    inst = physical_mix("M-1", "aws", speeds="gavel")  # one MM job on V100, K80, T4 (T4 stands in as P100)
    t = tab[("Transformer (batch size 32)", 1)]
    assert inst.throughput[0].tolist() == [t["v100"], t["k80"], t["p100"]]


def test_per_job_gru_of_a_non_preemptive_run_is_one():
    inst = trace_workload(20, seed=0, n_machines=6, hours_scale=0.05)
    y = simulate(inst, "yarn_cs", round_length=360.0, restart_delay=0.0, record_rounds=False)
    assert y.job_utilization == pytest.approx(1.0, abs=1e-9)
    g = simulate(inst, "gavel", round_length=360.0, restart_delay=0.0, record_rounds=False)
    assert 0 < g.job_utilization <= 1 and np.all(g.job_utilizations <= 1 + 1e-9)


def test_instance_json_forms(tmp_path):
    path = instance_path("hadar2024_motivating")
    a = HadarInstance.from_json(str(path))
    b = HadarInstance.from_json(path)
    c = HadarInstance.from_json(load_json("hadar2024_motivating"))
    d = HadarInstance.from_dict(json.loads(a.to_json()))
    for x in (b, c, d):
        assert x.to_dict() == a.to_dict()
    data = dict(a.to_dict(), description="d", source="s")
    assert HadarInstance.from_dict(data).n_jobs == 3
    with pytest.raises(InstanceError, match="unknown keys"):
        HadarInstance.from_dict(dict(a.to_dict(), capacty=[[1]]))
    with pytest.raises(InstanceError, match="JSON object"):
        HadarInstance.from_dict([1, 2])


def test_random_queue_order_depends_on_seed():
    inst = trace_workload(30, seed=0, n_machines=3, hours_scale=0.05)
    assert not np.array_equal(queue_rank(inst, "random", seed=0), queue_rank(inst, "random", seed=1))
    assert np.array_equal(queue_rank(inst, "random", seed=5), queue_rank(inst, "random", seed=5))
