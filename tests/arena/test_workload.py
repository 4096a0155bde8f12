"""The arena's workload: fields, JSON, errors that name the field, and its sources."""

import gzip
import hashlib
import json

import numpy as np
import pytest

from hetopt.arena import (
    Workload,
    at_load,
    bundled_traces,
    cluster,
    from_gavel,
    from_philly,
    gavel_trace,
    generate_instance,
    to_gavel,
)
from hetopt.errors import ArgumentError, InstanceError
from hetopt.gavel import load_trace


def small(**changes):
    base = dict(gpu_types=("k80", "v100"), server_type=[0, 1, 1], server_gpus=[2, 1, 1],
                link_bandwidth=[10.0, 10.0, 10.0], job_type=("A", "B"), arrival=[0.0, 5.0], scale_factor=[1, 2],
                steps=[100.0, 50.0], weight=[1.0, 2.0], throughput=[[1.0, 3.0], [0.5, 2.0]], model_size=[0.0, 100.0])
    return Workload(**(base | changes))


def test_capacity_sums_servers_by_type():
    assert small().capacity.tolist() == [2, 2]
    assert small().n_servers == 3 and small().contention


def test_json_round_trip_and_defaults():
    w = small()
    again = Workload.from_json(w.to_json())
    assert again == w and again.to_dict() == w.to_dict()
    d = w.to_dict()
    for k in ("weight", "model_size", "link_bandwidth"):
        del d[k]
    w2 = Workload.from_dict(d)
    assert w2.weight.tolist() == [1.0, 1.0] and w2.model_size.tolist() == [0.0, 0.0]
    assert np.isinf(w2.link_bandwidth).all() and not w2.contention
    assert "link_bandwidth" not in w2.to_dict()


@pytest.mark.parametrize("field, value, match", [
    ("server_type", [0, 2, 1], r"server_type\[1\]"),
    ("server_gpus", [2, 0, 1], r"server_gpus\[1\]"),
    ("arrival", [0.0, -1.0], r"arrival\[1\]"),
    ("scale_factor", [1, 0], r"scale_factor\[1\]"),
    ("steps", [100.0, 0.0], r"steps\[1\]"),
    ("weight", [1.0, 0.0], r"weight\[1\]"),
    ("throughput", [[1.0, 3.0], [0.5, -2.0]], r"throughput\[1, 1\]"),
    ("scale_factor", [1, 5], "job 1"),
    ("throughput", [[1.0, 3.0]], "throughput has 1 rows; expected 2"),
    ("gpu_types", ("k80", "k80"), "duplicate"),
    ("link_bandwidth", [10.0, float("nan"), 1.0], r"link_bandwidth\[1\]"),
])
def test_bad_fields_are_named(field, value, match):
    with pytest.raises(InstanceError, match=match):
        small(**{field: value})


def test_mixed_infinite_links_cannot_be_written():
    w = small(link_bandwidth=[10.0, float("inf"), 10.0])
    with pytest.raises(InstanceError, match="link_bandwidth"):
        w.to_dict()


def test_unknown_keys_and_kind_are_refused():
    d = small().to_dict()
    with pytest.raises(InstanceError, match="unknown keys"):
        Workload.from_dict(d | {"typo": 1})
    with pytest.raises(InstanceError, match="kind"):
        Workload.from_dict(d | {"kind": "gavel"})


def test_cluster_splits_types_into_servers_by_name():
    cl = cluster("5:0:2", gpus_per_server=4)
    assert cl["gpu_types"] == ("k80", "v100")
    assert cl["server_type"].tolist() == [0, 1, 1] and cl["server_gpus"].tolist() == [2, 4, 1]


def test_gavel_instance_round_trip_keeps_columns():
    inst = load_trace("small_test", "4:4:4")
    w = from_gavel(inst)
    assert w.gpu_types == ("k80", "p100", "v100")
    assert np.array_equal(w.throughput[:, 2], inst.throughput[:, 0])
    back = to_gavel(w)
    assert back.gpu_types == ("v100", "p100", "k80") and np.array_equal(back.throughput, inst.throughput)


def test_bundled_traces_match_gavel_and_the_manifest():
    names = bundled_traces()
    assert {"physical_cluster/debug", "physical_cluster/highmem_test", "msr/seed=4/ed69ec"} <= set(names)
    assert len([n for n in names if n.startswith("physical_cluster/")]) == 8
    w = gavel_trace("msr/seed=0/ed69ec", "36:36:36")
    assert w.n_jobs == 951 and w.capacity.tolist() == [36, 36, 36]
    # the 60 bundled first jobs of the parity table are the same jobs
    first = load_trace("ed69ec_first60", "36:36:36")
    assert np.array_equal(w.steps[:60], first.total_steps) and np.array_equal(w.arrival[:60], first.arrival)


def test_traces_outside_the_bundle_need_a_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("HETOPT_GAVEL_TRACES", raising=False)
    with pytest.raises(ArgumentError, match="HETOPT_GAVEL_TRACES"):
        gavel_trace("msr/seed=0/0e4a51")
    (tmp_path / "msr" / "seed=0").mkdir(parents=True)
    lines = ["ResNet-18 (batch size 64)\tcmd\t-n\t1\t100\t0.0\t1", "CycleGAN\tcmd\t-n\t1\t100\t10.0\t8",
             "A3C\tcmd\t-n\t1\t100\t20.0\t1"]
    (tmp_path / "msr" / "seed=0" / "x.trace").write_text("\n".join(lines) + "\n")
    monkeypatch.setenv("HETOPT_GAVEL_TRACES", str(tmp_path))
    with pytest.raises(InstanceError, match="line 2"):
        gavel_trace("msr/seed=0/x", "4:4:4")
    w = gavel_trace("msr/seed=0/x", "4:4:4", unmeasured="drop")
    assert w.job_type == ("ResNet-18 (batch size 64)", "A3C") and "1 jobs left out" in w.description


def test_at_load_redraws_arrivals_only():
    w = gavel_trace("physical_cluster/medium_test", "4:4:4")
    a, b = at_load(w, 3.0, seed=5), at_load(w, 3.0, seed=5)
    assert a == b and a.arrival[0] == 0.0 and np.all(np.diff(a.arrival) >= 0)
    assert np.array_equal(a.steps, w.steps) and a.job_type == w.job_type
    gaps = np.diff(at_load(generate_instance(n_jobs=2000, jobs_per_hour=1.0, seed=0, counts="1:1:1"), 6.0, seed=1).arrival)
    assert abs(gaps.mean() / 600.0 - 1) < 0.1  # mean gap 3600 / 6 s


def test_generator_draws_gavel_distribution():
    w = generate_instance(n_jobs=500, jobs_per_hour=2.0, seed=3)
    assert set(w.scale_factor.tolist()) <= {1, 2, 4, 8}
    assert abs(np.mean(w.scale_factor == 1) - 0.7) < 0.06


def test_philly_log():
    log = [{"jobid": f"j{i}", "vc": "v", "user": "u", "status": "Pass", "submitted_time": f"2017-10-03 1{i}:00:00",
            "attempts": [{"start_time": f"2017-10-03 1{i}:00:30", "end_time": f"2017-10-03 1{i}:30:30",
                          "detail": [{"ip": "m1", "gpus": ["g"] * n}]}]} for i, n in enumerate([1, 3, 16, 0])]
    w = from_philly(log, "4:4:4", seed=0)
    assert w.n_jobs == 2 and w.scale_factor.tolist() == [1, 4]
    assert w.arrival.tolist() == [0.0, 3600.0]
    v100 = w.gpu_types.index("v100")
    assert np.allclose(w.steps, np.ceil(1800.0 * w.throughput[:, v100]))
    assert "2 left out" in w.description


def test_bundled_files_are_gavels_bytes():
    from importlib import resources

    manifest = json.loads(resources.files("hetopt.tables").joinpath("arena_traces.json").read_text())
    for e in manifest["traces"].values():
        raw = resources.files("hetopt.tables").joinpath(e["file"]).read_bytes()
        data = gzip.decompress(raw) if e["compressed"] else raw
        assert hashlib.sha256(data).hexdigest() == e["sha256"]
