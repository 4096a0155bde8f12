"""Hare's Algorithm 1 in the arena on Gavel's trace (hetopt.hare.experiments.arena_study): the mechanism and the table."""

import numpy as np
import pytest

import hetopt.arena as A
from hetopt.errors import ArgumentError
from hetopt.hare.experiments import arena_study as S


def _one_job_on_each_type():
    w = A.gavel_trace(S.TRACE, "1:1:1").subset([0])
    return w.replace(arrival=np.zeros(1), steps=w.steps / 100)


def test_line_12_as_printed_takes_the_first_listed_type_when_every_gpu_is_free():
    """Every GPU is free at time 0, so 'earliest available' ties and takes the lowest index: the arena lists the
    types by name (k80, p100, v100), so the job runs on a K80; earliest finish takes the fastest type."""
    w = _one_job_on_each_type()
    assert w.gpu_types[0] == "k80" and np.argmax(w.throughput[0]) != 0
    placed = {}
    for rule in S.GPU_RULES:
        sim = A.simulate(w, "hare_lp", options={"gpu_rule": rule})
        (server, _), = sim.rounds[0]["gangs"][0]["servers"]
        placed[rule] = w.gpu_types[w.server_type[server]]
    assert placed["earliest_available"] == "k80"
    assert placed["earliest_finish"] == w.gpu_types[int(np.argmax(w.throughput[0]))]


def test_compare_gives_the_best_baseline_over_hare():
    r = S.compare(load=1.0, n_jobs=12, shrink=100.0)
    assert set(r) == {"hare", "fifo", "srtf", "ratio"}
    assert r["ratio"] == pytest.approx(min(r["fifo"]["avg_jct"], r["srtf"]["avg_jct"]) / r["hare"]["avg_jct"], rel=1e-12)
    ef = S.compare(load=1.0, n_jobs=12, shrink=100.0, gpu_rule="earliest_finish")
    assert ef["fifo"] == r["fifo"] and ef["hare"]["avg_jct"] <= r["hare"]["avg_jct"]
    with pytest.raises(ArgumentError, match="gpu_rule"):
        S.compare(gpu_rule="fastest")
    with pytest.raises(ArgumentError, match="replan"):
        S.compare(replan="never")
    with pytest.raises(ArgumentError, match="load"):
        S.compare(load=-1.0)


def test_reading_table_has_a_row_per_rule_and_replan(monkeypatch):
    monkeypatch.setitem(S.SIZES, "quick", {"n_jobs": 10, "load": 1.0, "shrink": 100.0})
    t = S.reading_table(size="quick")
    assert len(t.rows) == len(S.GPU_RULES) * len(S.REPLANS)
    assert {(r[0], r[1]) for r in t.rows} == {(g, p) for g in S.GPU_RULES for p in S.REPLANS}
