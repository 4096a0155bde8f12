"""The docs page's papers' table: runs merged by (policy, load), refusals as rows, a second run replacing a first."""

import json

import pytest

import hetopt.arena as A
from hetopt.arena.page import _table_from_json, aggregate, merge_main, merge_papers, render, render_papers
from hetopt.errors import ArgumentError

from .test_presence import msr


def _meta(command):
    return {"command": command, "runs": 1, "cpu": 1.0, "wall": 2.0, "loadavg": 1.5, "note": ""}


def test_a_table_merges_into_the_papers_store_and_renders(tmp_path):
    w = msr(30, shrink=40)
    # at 20 jobs/hour HAS is refused up front (its pre-check proves 4 jobs present), with no run partway
    table = A.run(w, ["fifo", "has", "jps"], loads=[20.0], bounds=True)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(table.to_dict(), default=str))
    agg = aggregate(_table_from_json(path))
    store = tmp_path / "papers.json"
    data = merge_papers(store, agg, _meta("first"))
    rows = {r["policy"]: r for r in data["rows"]}
    assert rows["fifo"]["avg_jct"] == pytest.approx(table.column("avg_jct")[0], rel=1e-12)
    assert rows["fifo"]["cpu_seconds"] > 0 and rows["fifo"]["jct_ratio"] >= 1.0
    assert rows["jps"]["jct_ratio"] is None  # copies: no bound
    text = "\n".join(render_papers(data, "fig.png"))
    assert "| `fifo` | 20 |" in text and "![" in text and "first" in text
    assert rows["has"]["refused"].startswith("arena policy 'has'")  # C(107, S-1) > 50,000 from 4 jobs on
    assert "| `has` | 20 | refused" in text and rows["has"]["refused"] in text
    # a second run of fifo replaces its row, keeps the others, and is listed after the first
    again = {"rows": [dict(rows["fifo"], avg_jct=1.0)], "loads": [20.0], "cdf": {}, "cdf_load": 20.0}
    data = merge_papers(store, again, _meta("second"))
    assert sorted(r["policy"] for r in data["rows"]) == ["fifo", "has", "jps"]
    assert [r["avg_jct"] for r in data["rows"] if r["policy"] == "fifo"] == [1.0]
    assert [m["command"] for m in json.loads(store.read_text())["invocations"]] == ["first", "second"]


def test_add_refuses_a_file_that_is_not_an_arena_table(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"columns": ["policy"], "rows": []}))
    with pytest.raises(ArgumentError, match="runs"):
        _table_from_json(bad)
    bad.write_text(json.dumps({"columns": ["policy"], "rows": [], "runs": []}))
    with pytest.raises(ArgumentError, match="cpu_seconds"):
        _table_from_json(bad)


def _stored(tmp_path, policies, loads):
    w = msr(20, shrink=40)
    path = tmp_path / f"{'_'.join(policies)}_{len(loads)}.json"
    path.write_text(json.dumps(A.run(w, policies, loads=loads, bounds=False).to_dict(), default=str))
    return aggregate(_table_from_json(path, "--merge"))


def test_a_policy_merges_into_the_first_table_at_its_loads_and_seeds(tmp_path):
    meta = {"jobs": 20, "cluster": "36:36:36", "seeds": [0], "runs": 2, "wall": 1.0, "cpu": 1.0, "workers": 1,
            "loadavg": 1.0, "command": "first"}
    data = {"meta": meta, "aggregate": _stored(tmp_path, ["fifo"], [1.0, 2.0])}
    srtf = _stored(tmp_path, ["srtf"], [1.0, 2.0])
    data = merge_main(data, srtf, [0], dict(_meta("hetopt arena ... -o srtf.json"), note="a costly policy"))
    rows = {(r["policy"], r["load"]): r for r in data["aggregate"]["rows"]}
    assert set(rows) == {("fifo", 1.0), ("fifo", 2.0), ("srtf", 1.0), ("srtf", 2.0)}
    assert rows[("srtf", 2.0)]["avg_jct"] == next(r for r in srtf["rows"] if r["load"] == 2.0)["avg_jct"]
    assert set(data["aggregate"]["cdf"]) == {"fifo", "srtf"}
    text = render(data["aggregate"], data["meta"])
    assert "| `srtf` |" in text and "srtf.json`: 1 runs" in text and "a costly policy" in text
    with pytest.raises(ArgumentError, match="--merge: the run has loads"):
        merge_main(data, _stored(tmp_path, ["las"], [1.0]), [0], _meta("x"))
    with pytest.raises(ArgumentError, match="seeds"):
        merge_main(data, srtf, [0, 1], _meta("x"))


def test_the_papers_table_names_the_gavel_policies_it_also_holds():
    row = {"policy": "fifo", "load": 1.0, "runs": 1, "avg_jct": 3600.0, "p99_jct": 7200.0, "makespan": 9000.0,
           "jct_ratio": 1.1, "makespan_ratio": 1.0, "cpu_seconds": 1.0, "refused": None}
    data = {"rows": [row], "invocations": [_meta("first")]}
    assert "Also here" not in "\n".join(render_papers(data, None))
    data["rows"].append(dict(row, policy="min_total_duration_packed"))
    text = "\n".join(render_papers(data, None))
    assert "Also here, at these loads only: `min_total_duration_packed`" in text
    assert "| `min_total_duration_packed` | 1 | 1 |" in text
