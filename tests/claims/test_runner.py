"""How the ledger runs: units longest first, the heartbeat, the recorded costs and their calibration, the bench."""

import io
import json

import pytest

from hetopt import claims as ledger
from hetopt.claims import costs, runner
from hetopt.claims.progress import ClaimProgress, makespan
from hetopt.cli import main

V = ledger.Verdict


def _reproduced() -> ledger.Outcome:
    return ledger.Outcome(1, V.REPRODUCED)


def _claim(cid, paper="hare", cost="fast"):
    return ledger.Claim(id=cid, paper=paper, location="-", statement="s", paper_value="1", verdict=V.REPRODUCED,
                        diagnosis="d" * 40, check=ledger.experiment(_reproduced), cost=cost)


@pytest.fixture
def recorded(monkeypatch):
    """Replace the recorded costs by the dict it returns (filled by the test)."""
    table: dict[str, float] = {}
    monkeypatch.setattr(costs, "recorded", lambda: table)
    return table


def test_units_group_a_papers_fast_and_slow_claims_and_run_longest_first(recorded):
    cs = [_claim("a.b.fast1"), _claim("a.b.slow1", cost="slow"), _claim("a.b.fast2"),
          _claim("a.b.slow2", cost="slow"), _claim("a.b.other_slow", paper="oasis", cost="slow"),
          _claim("a.b.other_fast", paper="oasis")]
    assert runner.units(cs) == [[0, 2], [1, 3], [4], [5]]
    recorded.update({"a.b.fast1": 1.0, "a.b.slow1": 10.0, "a.b.fast2": 30.0, "a.b.slow2": 21.0,
                     "a.b.other_slow": 31.0, "a.b.other_fast": 0.5})
    # hare's fast claims (1 + 30 s), its slow ones (10 + 21 s) and oasis' slow one tie at 31 s: ledger order
    assert runner.longest_first(cs) == [[0, 2], [1, 3], [4], [5]]
    recorded["a.b.other_slow"] = 40.0
    assert runner.longest_first(cs) == [[4], [0, 2], [1, 3], [5]]


def test_a_slow_claim_above_solo_seconds_is_a_unit_of_its_own(recorded):
    cs = [_claim("a.b.slow1", cost="slow"), _claim("a.b.fast1"), _claim("a.b.huge", cost="slow"),
          _claim("a.b.slow2", cost="slow"), _claim("a.b.fast_but_long")]
    recorded.update({"a.b.slow1": 50.0, "a.b.fast1": 1.0, "a.b.huge": runner.SOLO_SECONDS + 1,
                     "a.b.slow2": 60.0, "a.b.fast_but_long": runner.SOLO_SECONDS + 1})
    # the long slow claim leaves its paper's slow chain (which would end last), a fast claim never does
    assert runner.units(cs) == [[0, 3], [1, 4], [2]]
    assert runner.longest_first(cs) == [[1, 4], [2], [0, 3]]
    recorded["a.b.huge"] = runner.SOLO_SECONDS
    assert runner.units(cs) == [[0, 2, 3], [1, 4]]


def test_list_schedule_makespan():
    assert makespan([5, 4, 3, 3, 3], 2) == 10.0  # 5 | 4, then each 3 on the worker free first: 5+3 | 4+3+3
    assert makespan([10, 1, 1], 2) == 10.0
    assert makespan([2, 2], 1) == 4.0


class _Recorder:
    """A progress that keeps the order of starts and the most claims running at once."""

    def __init__(self):
        self.started, self.running, self.most, self.finished = [], set(), 0, set()

    def begin(self, claims, workers=1):
        self.workers = workers

    def start(self, claim, queued_behind=0):
        if claim.id not in self.started and claim.id not in self.finished:  # a late event is ignored, as ClaimProgress does
            self.started.append(claim.id)
            self.running.add(claim.id)
            self.most = max(self.most, len(self.running))

    def ended(self, claim):
        self.running.discard(claim.id)
        self.finished.add(claim.id)

    def done(self, result):
        self.running.discard(result.claim.id)
        self.finished.add(result.claim.id)

    def close(self):
        pass


def test_the_scheduler_submits_longest_first_and_keeps_every_worker_busy(recorded):
    import concurrent.futures as cf

    cs = [_claim(f"a.b.c{i}", paper=p) for i, p in enumerate(("hare", "oasis", "gavel", "hadar", "placement"))]
    recorded.update({c.id: s for c, s in zip(cs, (3.0, 1.0, 9.0, 5.0, 2.0), strict=True)})
    submitted, in_flight, most = [], set(), [0]

    def submit(ids):
        f = cf.Future()
        f.set_result([(ledger.Outcome(i, V.REPRODUCED), 0.0) for i in ids])
        submitted.append(ids)
        in_flight.add(id(f))
        most[0] = max(most[0], len(in_flight))
        return f

    class Stream:  # finishes the oldest unit first
        def __init__(self):
            self.queue = []

        def add(self, f):
            self.queue.append(f)

        def __iter__(self):
            while self.queue:
                f = self.queue.pop(0)
                in_flight.discard(id(f))
                yield f

    results = runner._schedule(cs, False, 2, None, submit, Stream(), announce=False)
    assert submitted == [["a.b.c2"], ["a.b.c3"], ["a.b.c0"], ["a.b.c4"], ["a.b.c1"]]
    assert most[0] == 2
    assert [r.claim.id for r in results] == [c.id for c in cs] and [r.outcome.ours for r in results] == [c.id for c in cs]


def test_the_pool_runs_every_claim_once_in_ledger_order_two_at_a_time(recorded):
    chosen = [c for c in ledger.claims("gavel") if c.cost == "fast"][:2] + [
        c for c in ledger.claims("hadar") if c.cost == "fast"][:2] + [c for c in ledger.claims("hare") if c.cost == "fast"][:1]
    recorded.update({c.id: 1.0 for c in chosen})
    rec = _Recorder()
    results = ledger.run_claims(chosen, workers=2, progress=rec)
    assert [r.claim.id for r in results] == [c.id for c in chosen]
    assert rec.finished == {c.id for c in chosen}
    assert rec.most <= 2  # a claim that ended in its worker no longer counts as running


def test_heartbeat_names_the_running_claims_and_counts_the_waiting(recorded):
    cs = [_claim(f"a.b.c{i}") for i in range(5)]
    recorded.update({c.id: 10.0 * (i + 1) for i, c in enumerate(cs)})
    p = ClaimProgress(len(cs), enabled=False, stream=io.StringIO())
    p.begin(cs, workers=2)
    assert p.heartbeat_line() is None  # nothing runs yet
    p.start(cs[4])
    p.start(cs[3])
    line = p.heartbeat_line()
    assert "a.b.c4 (" in line and "of about 50 s" in line and "a.b.c3 (" in line and "of about 40 s" in line
    assert "3 waiting" in line and "0 done" in line
    assert not any(f"a.b.c{i}" in line for i in range(3))  # queued claims are not named as running
    p.done(ledger.ClaimResult(cs[4], ledger.Outcome(1, V.REPRODUCED), 1.0))
    p.start(cs[4])  # a late start event of a finished claim is ignored
    line = p.heartbeat_line()
    assert "a.b.c4" not in line and "1 done" in line and "3 waiting" in line


def test_expected_seconds_scale_with_the_speed_factor(recorded, monkeypatch):
    recorded["a.b.c"] = 10.0
    monkeypatch.setattr(costs, "speed_factor", lambda: 1.5)
    assert costs.expected_seconds("a.b.c") == 10.0
    assert costs.expected_seconds("a.b.c", scaled=True) == 15.0
    assert costs.expected_seconds("a.b.unknown", "slow") == costs.DEFAULT_SLOW


def test_record_keeps_one_machines_units(tmp_path):
    path = tmp_path / "costs.json"
    costs.record([{"id": "a.b.c", "wall_time": 4.0}], path, calibration=0.2)
    data = json.loads(path.read_text())
    assert data == {"calibration": 0.2, "claims": {"a.b.c": 4.0}}
    # a machine twice as slow records a claim: its seconds are halved to the file's machine; flips are skipped
    costs.record([{"id": "a.b.d", "wall_time": 9.0}, {"id": "a.b.c", "wall_time": 99.0, "flipped": True}], path,
                 calibration=0.4)
    data = json.loads(path.read_text())
    assert data == {"calibration": 0.2, "claims": {"a.b.c": 4.0, "a.b.d": 4.5}}


def test_calibration_is_recorded_and_positive():
    assert costs.recorded_calibration() is None or costs.recorded_calibration() > 0
    assert costs.calibrate(runs=1) > 0


def test_bench_reproduce_measures_serial_and_pool_in_one_run():
    from hetopt.bench.reproduce import bench_reproduce

    chosen = [c for c in ledger.claims("gavel") if c.cost == "fast"][:3]
    summary, per = bench_reproduce(chosen, workers=2)
    rows = {r[0]: r for r in summary.rows}
    assert {"critical path", "speed-up", "--workers 2 run (wall)", "serial run (wall)"} <= set(rows)
    assert rows["critical path"][1] == pytest.approx(max(rows["longest claim"][1], rows["total / 2"][1]))
    assert rows["speed-up"][1] == pytest.approx(rows["serial run (wall)"][1] / rows["--workers 2 run (wall)"][1])
    assert sorted(r[0] for r in per.rows) == sorted(c.id for c in chosen)
    assert all(r[-1] is True for r in per.rows)  # the pool computed the serial verdicts


def test_bench_reproduce_runs_the_pool_before_the_serial_run(monkeypatch):
    """Forked pool workers would inherit the caches of a serial run made before them in the same process."""
    from hetopt.bench.reproduce import bench_reproduce

    calls = []

    def fake(chosen, *, workers=1, **kw):
        calls.append(workers)
        return [ledger.ClaimResult(claim=c, outcome=_reproduced(), wall_time=1.0) for c in chosen]

    monkeypatch.setattr(ledger, "run_claims", fake)
    bench_reproduce([_claim("a.b.c")], workers=3)
    assert calls == [3, 1]


def test_bench_cli_takes_reproduce_beside_the_kinds(capsys):
    assert main(["bench", "reproduce", "--workers", "1"]) == 2
    assert "workers" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["bench", "no_such_target"])
    assert "reproduce" in capsys.readouterr().err
    assert main(["bench", "gavel", "--workers", "2"]) == 2
    assert "takes no option workers" in capsys.readouterr().err


def _square_plus(x, y):
    return x * x + y


def test_claim_map_on_free_processes_gives_the_loops_results():
    from hetopt.claims.parallel import claim_map, free_processes

    items = [(float(i) / 7, i) for i in range(6)]
    loop = [_square_plus(*a) for a in items]
    assert claim_map(_square_plus, items) == loop  # one process: the loop itself
    with free_processes(2):
        assert claim_map(_square_plus, items) == loop
