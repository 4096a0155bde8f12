"""Metrics derived by hand, the checker's refusals, run()'s table, and the command."""

import copy
import json

import numpy as np
import pytest

import hetopt.arena as A
from hetopt.cli import main


def one_job(T=(1.0, 2.0, 4.0), steps=3600.0):
    return A.Workload(("k80", "p100", "v100"), [0, 1, 2], [1, 1, 1], [float("inf")] * 3, ("A",), [0.0], [1], [steps],
                      [1.0], [list(T)], [0.0])


def test_one_job_alone_metrics():
    """A job alone on the fastest type: JCT = steps / T_v100; rho = JCT over steps on its isolated share."""
    w = one_job()
    sim = A.simulate(w, "srtf")
    assert sim.jct.tolist() == [900.0]
    iso_rate = (1.0 + 2.0 + 4.0) / 3.0  # c_r / (N s_j) of each type with N = 1, scaled to a total of 1
    m = sim.metrics
    assert m["ftf_max"] == pytest.approx(900.0 / (3600.0 / iso_rate), rel=1e-12)
    assert m["makespan"] == 900.0 and m["avg_jct"] == m["p50_jct"] == m["p99_jct"] == 900.0
    assert m["utilization"] == pytest.approx(1.0 / 3.0, rel=1e-12)  # one GPU of three busy all along


def test_percentiles_are_numpys_linear_ones():
    w = A.generate_instance(n_jobs=12, jobs_per_hour=4.0, seed=4, counts="2:2:2")
    sim = A.simulate(w, "las")
    assert sim.metrics["p95_jct"] == pytest.approx(float(np.percentile(sim.jct, 95)), rel=1e-12)


def test_checker_refuses_tampered_runs():
    w = A.generate_instance(n_jobs=6, jobs_per_hour=20.0, seed=1, counts="1:1:1", multi_gpu=False)
    sim = A.simulate(w, "fifo")
    A.check_schedule(w, sim).raise_if_invalid()
    bad = copy.deepcopy(sim.rounds)
    g = bad[0]["gangs"][0]
    g["steps"] = [g["steps"][0] * 2]
    rep = A.check_schedule(w, A.ArenaSimulation(status=sim.status, rounds=bad, completion=sim.completion))
    assert not rep.ok and any("faster than its throughput" in v or "steps; it has" in v for v in rep.violations)
    bad = copy.deepcopy(sim.rounds)
    first = bad[0]["gangs"][0]
    bad[0]["gangs"].append(dict(first))
    rep = A.check_schedule(w, A.ArenaSimulation(status=sim.status, rounds=bad, completion=sim.completion))
    assert any("two gangs" in v for v in rep.violations) and any("server" in v for v in rep.violations)


def test_run_table_serial_equals_processes_and_exports():
    w = A.gavel_trace("physical_cluster/small_test", "4:4:4")
    kw = dict(loads=[2.0, 5.0], seeds=[0, 1])
    a = A.run(w, ["fifo", "las", "fifo_random"], **kw)
    b = A.run(w, ["fifo", "las", "fifo_random"], workers=2, **kw)
    drop = a.columns.index("seconds")
    assert [r[:drop] for r in a.rows] == [r[:drop] for r in b.rows]
    assert len(a.rows) == 12 and a.to_csv().splitlines()[0].startswith("policy,load,seed,jobs,avg_jct")
    d = json.loads(json.dumps(a.to_dict(), default=str))
    assert len(d["runs"]) == 12 and len(d["runs"][0]["jct"]) == 20
    assert np.mean(d["runs"][0]["jct"]) == pytest.approx(a.rows[0][a.columns.index("avg_jct")], rel=1e-12)


def test_bound_columns_are_the_certified_bounds_of_each_run():
    from hetopt.arena.bounds import jct_lower_bound, makespan_lower_bound

    w = A.load_workload("physical_cluster/small_test", "4:4:4")
    w = w.replace(weight=np.linspace(0.5, 2.0, w.n_jobs))  # the table's average JCT is the plain one
    t = A.run(w, ["las", "fifo_packed"])
    rows = [dict(zip(t.columns, r, strict=True)) for r in t.rows]
    for row in rows:
        packing = row["policy"] == "fifo_packed"
        jb = jct_lower_bound(w, weights=np.ones(w.n_jobs), packing=packing)
        mb = makespan_lower_bound(w, packing=packing)
        assert row["jct_bound"] == jb.value and row["makespan_bound"] == mb.value
        assert row["jct_ratio"] == pytest.approx(row["avg_jct"] / jb.value, rel=1e-12) and row["jct_ratio"] >= 1
        assert row["makespan_ratio"] >= 1 and row["certified"] is (jb.certified and mb.certified)
    assert rows[1]["jct_bound"] <= rows[0]["jct_bound"]


def test_command_line(capsys, tmp_path):
    out = tmp_path / "t.json"
    assert main(["arena", "physical_cluster/small_test", "--policies", "fifo,srtf", "--loads", "3", "--seeds", "0,1",
                 "--counts", "4:4:4", "--csv", "-o", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 5 and lines[1].startswith("fifo,3.0,0,20,")
    assert len(json.loads(out.read_text())["runs"]) == 4
    assert main(["arena", "physical_cluster/small_test", "--policies", "nope"]) == 2
    assert "nope" in capsys.readouterr().err


def test_simulation_round_trips_through_json_and_stays_checkable():
    w = A.KIND.example(seed=2, size=0)
    sim = A.simulate(w, "fifo")
    again = A.ArenaSimulation.from_dict(json.loads(json.dumps(sim.to_dict())))
    assert json.dumps(again.to_dict(), sort_keys=True, default=str) == json.dumps(sim.to_dict(), sort_keys=True,
                                                                                 default=str)
    A.check_schedule(w, again).raise_if_invalid()


@pytest.mark.parametrize("kw, name", [
    ({"policies": object()}, "policies"), ({"policies": "fifo"}, "policies"), ({"loads": object()}, "loads"),
    ({"seeds": None}, "seeds"), ({"options": object()}, "options"), ({"dask": object()}, "dask"),
    ({"policy_options": object()}, "policy_options"), ({"policy_options": {"fifo": 3}}, "policy_options"),
    ({"workers": 2**70}, "workers"), ({"progress": None}, "progress"), ({"bounds": "no"}, "bounds"),
    ({"counts": None}, "counts"), ({"counts": "4:4:4"}, "counts"),
])
def test_run_refuses_bad_arguments_by_name(kw, name):
    """The argument sweep's findings (tests/reliability/argument_sweep.py): each was a crash or silently accepted."""
    from hetopt.errors import ArgumentError

    w = A.load_workload("physical_cluster/small_test", "4:4:4")
    with pytest.raises(ArgumentError, match=name):
        A.run(w, **{"policies": ["fifo"], **kw})


def test_validate_ratio_refuses_options_that_are_not_a_mapping():
    from hetopt.errors import ArgumentError

    with pytest.raises(ArgumentError, match="options"):
        A.validate_ratio(A.load_workload("physical_cluster/small_test", "4:4:4"), policy="fifo", options=object())
