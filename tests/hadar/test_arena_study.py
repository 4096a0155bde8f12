"""Hadar against Gavel in the arena (hetopt.hadar.experiments.arena_study): toggles, rank-1 speeds, the table."""

from __future__ import annotations

import numpy as np
import pytest

import hetopt.arena as arena
from hetopt.errors import ArgumentError
from hetopt.hadar.experiments import arena_study as S

TINY = {"seeds": (0,), "n_jobs": 4, "counts": "1:1:1"}


def _rank(t: np.ndarray) -> int:
    s = np.linalg.svd(t, compute_uv=False)
    return int(np.sum(s > 1e-10 * s[0]))


def test_rank1_projection_is_rank_one_and_keeps_each_best_speed():
    t = S.study_workload(max_gpu_hours=None).throughput
    assert _rank(t) == 3  # Gavel's measured table
    p = S.rank1(t)
    assert _rank(p) == 1
    np.testing.assert_allclose(p.max(axis=1), t.max(axis=1), rtol=1e-12)


def test_rank1_leaves_a_rank_one_matrix_unchanged():
    rng = np.random.default_rng(3)
    t = np.outer(rng.uniform(0.1, 5.0, 20), rng.uniform(0.2, 3.0, 4))
    np.testing.assert_allclose(S.rank1(t), t, rtol=1e-12)
    assert not np.allclose(S.rank1(t + np.diag(np.ones(4)).repeat(5, axis=0)), t + np.diag(np.ones(4)).repeat(5, 0))


def test_rank1_refuses_bad_input():
    for bad in (np.zeros((2, 3)), np.array([1.0, 2.0]), np.array([[1.0, -1.0]]), np.array([[1.0, 0.0], [0.0, 1.0]])):
        with pytest.raises(ArgumentError, match="throughput"):
            S.rank1(bad)


def test_workload_toggles_change_the_input_they_name():
    base = S.study_workload(n_jobs=50)
    assert base.n_jobs == 50 and np.all(base.arrival == 0.0)  # batch: every job at time 0
    rank1 = S.study_workload(n_jobs=50, speeds="rank1")
    assert _rank(rank1.throughput) == 1 and not np.allclose(rank1.throughput, base.throughput)
    np.testing.assert_array_equal(rank1.steps, base.steps)
    trace = S.study_workload(n_jobs=50, arrivals="trace")
    assert trace.arrival.max() > 0 and np.all(trace.throughput == base.throughput)
    load = S.study_workload(n_jobs=50, arrivals=2.0)
    assert not np.allclose(load.arrival, trace.arrival) and load.arrival.max() > 0
    every = S.study_workload(max_gpu_hours=None)
    capped = S.study_workload()
    hours = every.steps / every.throughput.max(axis=1) / 3600.0
    assert every.n_jobs == 951 and capped.n_jobs == int(np.sum(hours <= S.MAX_GPU_HOURS)) < every.n_jobs
    for bad in ({"arrivals": "poisson"}, {"speeds": "eq10"}, {"seed": 7}):
        with pytest.raises(ArgumentError):
            S.study_workload(**bad)


def test_run_toggles_reach_the_execution(monkeypatch):
    seen = []
    real = S.execute

    def spy(w, policy, options, *, seed):
        seen.append((policy.name, getattr(policy, "reading", None), options.restart_delay, options.gang_rule))
        return real(w, policy, options, seed=seed)

    monkeypatch.setattr(S, "execute", spy)
    S._run.cache_clear()
    out = S.compare(**TINY, restart_delay=60.0, gang_rule="single", reading="keep")
    assert ("hadar", "keep", 60.0, "single") in seen
    assert (S.GAVEL_POLICY, None, 60.0, "single") in seen
    assert out["inputs"]["restart_delay"] == 60.0 and out["inputs"]["reading"] == "keep"
    S._run.cache_clear()


def test_keep_reading_never_moves_a_running_job():
    w = S.study_workload(n_jobs=6, counts="2:2:2", arrivals=1.0)
    pol = arena.make_policy("hadar", reading="keep")
    run = arena.execute(w, pol, arena.Options(restart_delay=10.0, gang_rule="bottleneck", record_rounds=True))
    where: dict[int, list] = {}
    moved = 0
    for rnd in run.rounds:
        now = {g["jobs"][0]: sorted(map(tuple, g["servers"])) for g in rnd.gangs}
        for j, servers in now.items():
            if j in where and where[j] != servers:
                moved += 1
        where = {j: s for j, s in now.items() if run.completion[j] > rnd.end}
    assert moved == 0
    with pytest.raises(ArgumentError, match="reading"):
        arena.make_policy("hadar", reading="sticky")


def test_compare_ratios_come_from_the_runs():
    S._run.cache_clear()
    out = S.compare(**TINY)
    (r,) = out["runs"]
    assert out["jct"] == pytest.approx(r["gavel"]["avg_jct"] / r["hadar"]["avg_jct"], rel=1e-12)
    assert out["ttd"] == pytest.approx(r["gavel"]["makespan"] / r["hadar"]["makespan"], rel=1e-12)
    assert out["cru"] == pytest.approx(r["hadar"]["utilization"] / r["gavel"]["utilization"], rel=1e-12)
    with pytest.raises(ArgumentError, match="speeds"):
        S.compare(**TINY, speeds="eq10")
    with pytest.raises(ArgumentError, match="toggles"):
        S.toggle_table(toggles={"delay": (0.0,)})


def test_quick_table_is_produced():
    table = S.toggle_table(size="quick", toggles={"restart_delay": (0.0,)})
    assert [r[0] for r in table.rows] == ["default", "restart_delay"]
    for row in table.rows:
        assert all(np.isfinite(v) and v > 0 for v in row[2:])
    assert table.rows[0][2:] != table.rows[1][2:]  # the delay moves the runs
