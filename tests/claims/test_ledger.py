"""The claims ledger: schema of every entry, and every check still computes its recorded verdict.

Issue 30's rules are held here over the whole ledger: a flip changes one input of the claim's
experiment to a value the check did not run; outside-premise is measured; no verdict rests on
wall-clock time unless the claim says so (and then it holds under load); solver parity is conformance.

Every check (and every fast claim's flip) must also compute the outcome recorded in
``outcome_digests.json`` bit for bit (``tests/claims/digests.py``): a change made for speed moves no
number of the ledger.
"""

import json
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest

from hetopt import claims as ledger
from hetopt.cli import main
from hetopt.data import list_instances

from .digests import assert_unchanged, digest

ALL = ledger.claims()
FAST = [c for c in ALL if c.cost == "fast"]
SLOW = [c for c in ALL if c.cost == "slow"]


def test_ids_unique_and_well_formed():
    ids = [c.id for c in ALL]
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
    for c in ALL:
        assert ledger.ID_PATTERN.match(c.id), c.id
        assert c.paper in ledger.papers(), c.id


@pytest.mark.parametrize("claim", ALL, ids=lambda c: c.id)
def test_entry_is_complete(claim):
    assert claim.location and claim.statement and claim.paper_value, claim.id
    assert len(claim.diagnosis) >= 40, f"{claim.id}: the diagnosis must say why (one paragraph)"
    stems = set(list_instances())
    for e in claim.evidence:
        assert e in stems, f"{claim.id}: evidence {e!r} is not a bundled instance"
    if claim.sweep is not None:
        assert claim.sweep in ledger.sweeps(), f"{claim.id}: sweep {claim.sweep!r} is not registered"
    if claim.verdict is ledger.Verdict.UNEXPLAINED:
        # a contradiction without a found mechanism is recorded as such, with the candidates measured
        assert claim.sweep is not None, f"{claim.id}: a fails-unexplained entry names the sweep of the candidates it measured"


_CLOCKS = ("perf_counter", "process_time", "time", "monotonic", "perf_counter_ns", "process_time_ns")


@contextmanager
def _clock_reads(counter: list):
    """Count the clock reads made from an experiments module (hetopt.<paper>.experiments.*)."""
    saved = {n: getattr(time, n) for n in _CLOCKS}

    def wrap(name):
        real = saved[name]

        def clock():
            caller = sys._getframe(1).f_globals.get("__name__", "")
            if ".experiments." in caller and caller.startswith("hetopt."):
                counter.append((name, caller))
            return real()
        return clock

    try:
        for n in _CLOCKS:
            setattr(time, n, wrap(n))
        yield
    finally:
        for n, f in saved.items():
            setattr(time, n, f)


def _check_run(claim):
    """Run the check; the recorded verdict, no overlap with the flip, clocks read only by timed claims."""
    reads: list = []
    with _clock_reads(reads):
        r = claim.run()
    assert_unchanged(r)
    assert r.outcome.verdict is claim.verdict, (f"{claim.id}: computed {r.outcome.verdict.value} ({r.outcome.detail}); "
                                                f"recorded {claim.verdict.value}")
    overlap = claim.flip_overlap(r.outcome)
    assert overlap is None, f"{claim.id}: {overlap}: the flip cannot disagree with the check (issue 30, rule 3)"
    assert claim.timed or not reads, (f"{claim.id} reads the clock ({sorted(set(reads))}) but is not marked timed: "
                                      "count work instead, or mark it timed with a margin (issue 30, rule 5)")
    return r.outcome


@pytest.mark.parametrize("claim", FAST, ids=lambda c: c.id)
def test_fast_claim_and_its_flip_compute_their_recorded_verdicts(claim):
    """The check's verdict, then the flip's (rule 3: a flip that reran a part of the check is refused)."""
    check = _check_run(claim)
    r = claim.run(flip=True)
    assert_unchanged(r)
    assert r.outcome.verdict is claim.flip.verdict, (
        f"{claim.id}: flip '{claim.flip.change}' computed {r.outcome.verdict.value} ({r.outcome.detail}); "
        f"recorded {claim.flip.verdict.value}")
    assert r.outcome.verdict is not claim.verdict
    subset = claim.flip_subset(check, r.outcome)
    assert subset is None, f"{claim.id}: {subset} (issue 30, rule 3)"


@pytest.mark.slow
@pytest.mark.parametrize("claim", SLOW, ids=lambda c: c.id)
def test_slow_claim_computes_its_recorded_verdict(claim):
    _check_run(claim)


def test_a_broken_check_is_reported_unexplained_not_raised():
    def boom():
        raise RuntimeError("no data")

    c = ledger.Claim(id="x.y.z", paper="hare", location="-", statement="s", paper_value="1",
                     verdict=ledger.Verdict.REPRODUCED, diagnosis="d" * 40, check=ledger.experiment(boom))
    r = c.run()
    assert r.outcome.verdict is ledger.Verdict.UNEXPLAINED and "no data" in r.outcome.detail
    assert r.verdict_changed


def test_claim_rejects_bad_ids_and_costs():
    ok = dict(paper="hare", location="-", statement="s", paper_value="1", verdict=ledger.Verdict.REPRODUCED,
              diagnosis="d", check=ledger.experiment(lambda: None))
    with pytest.raises(ValueError, match="paperkey"):
        ledger.Claim(id="Hare.Thm4", **ok)
    with pytest.raises(ValueError, match="cost"):
        ledger.Claim(id="hare.thm4.ratio", cost="medium", **ok)


def test_cli_claims_json_lists_every_claim(capsys):
    assert main(["claims", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == [c.id for c in ALL]
    for r in rows:
        assert r["verdict"] in {v.value for v in ledger.Verdict}
        assert r["command"].startswith("hetopt claims --run --id ")


def test_cli_unknown_claim_and_sweep_are_one_line_errors(capsys):
    assert main(["claims", "--id", "nope.nope.nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hetopt: no claim with id") and err.count("\n") == 1
    assert main(["sweep", "no.such_sweep"]) == 2
    assert capsys.readouterr().err.startswith("hetopt: no sweep named")


def test_summary_counts_add_up_and_beyond_claims_apart():
    t = ledger.summary_table(ALL)
    rows = {r[0]: r for r in t.rows}
    beyond = [c for c in ALL if c.beyond]
    assert beyond, "the ledger marks the claims hetopt adds beyond the papers"
    assert rows["all"][1] == len(ALL) - len(beyond) == sum(rows["all"][2:])
    assert rows["beyond the papers (hetopt's own)"][1] == len(beyond)


def test_the_ledger_covers_every_paper_and_gavel():
    per_paper = {p: sum(c.paper == p for c in ALL) for p in ledger.papers()}
    assert all(n >= 5 for n in per_paper.values()), per_paper
    assert len(ALL) >= 60


def test_every_sweep_names_claims_that_exist():
    ids = {c.id for c in ALL} | {c.id for c in ledger.conformance()}
    for name, sw in ledger.sweeps().items():
        assert name == sw.name and sw.description, name
        assert set(sw.claims) <= ids, (name, set(sw.claims) - ids)


# --------------------------------------------------------------------- issue 21: flips, rules, conformance
def test_every_claim_names_its_flip():
    missing = [c.id for c in ALL if c.flip is None]
    assert missing == [], f"claims without a flip (the experiment that moves the verdict): {missing}"
    for c in ALL:
        assert c.flip.change.strip() and c.flip.verdict is not c.verdict, c.id


@pytest.mark.parametrize("claim", [c for c in ALL if c.verdict is ledger.Verdict.DATA_MISSING], ids=lambda c: c.id)
def test_data_missing_claims_record_the_papers_direction(claim):
    """A data-missing verdict needs the paper's direction, and its proxy must agree with it (the
    computed verdict would be fails-unexplained otherwise; the fast/slow verdict tests run it)."""
    assert len(claim.direction.split()) >= 3, f"{claim.id}: direction {claim.direction!r}"


def test_enforce_refuses_a_proxy_that_points_the_other_way():
    V = ledger.Verdict
    bad = ledger.enforce(ledger.Outcome(0.8, V.DATA_MISSING, "proxy 0.8x", proxy_agrees=False))
    assert bad.verdict is V.UNEXPLAINED and "against the paper's direction" in bad.detail
    none = ledger.enforce(ledger.Outcome(None, V.DATA_MISSING, "no proxy"))
    assert none.verdict is V.UNEXPLAINED
    ok = ledger.enforce(ledger.Outcome(1.2, V.DATA_MISSING, "proxy 1.2x", proxy_agrees=True))
    assert ok.verdict is V.DATA_MISSING
    same = ledger.enforce(ledger.Outcome(1, V.DEPENDS_ON_READING, "", readings={"a": V.REPRODUCED,
                                                                               "b": V.REPRODUCED}))
    assert same.verdict is V.UNEXPLAINED
    differ = ledger.enforce(ledger.Outcome(1, V.DEPENDS_ON_READING, "", readings={"a": V.REPRODUCED,
                                                                                 "b": V.PAPER_ERROR}))
    assert differ.verdict is V.DEPENDS_ON_READING
    # a numpy boolean from a comparison of arrays counts as the boolean it is
    import numpy as np

    assert ledger.enforce(ledger.Outcome(1, V.DATA_MISSING, "", proxy_agrees=np.bool_(True))).verdict is V.DATA_MISSING
    assert ledger.enforce(ledger.Outcome(1, V.DATA_MISSING, "", proxy_agrees=np.bool_(False))).verdict is V.UNEXPLAINED


def test_conformance_checks_are_counted_apart(capsys):
    checks = ledger.conformance()
    assert checks, "the ledger has conformance checks (echoes, identities, peer-code conformance)"
    ids = {c.id for c in checks}
    assert not ids & {c.id for c in ALL}, "a check is either a claim or a conformance check"
    for c in checks:
        assert c.paper in ledger.papers()
    assert main(["claims", "--conformance", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {d["id"] for d in listed} == ids


@pytest.mark.parametrize("check", [c for c in ledger.conformance() if c.cost == "fast"], ids=lambda c: c.id)
def test_fast_conformance_check_holds(check):
    r = check.run()
    assert r.ok, f"{check.id}: {r.outcome.detail}"


def test_parallel_run_gives_the_serial_verdicts():
    from hetopt.claims.costs import recorded

    # the cheapest recorded claim of each paper with a measurable cost: the pool, not the claims, is tested
    cost = recorded()
    chosen = [min((c for c in FAST if c.paper == p and cost.get(c.id, 0.0) > 0.0), key=lambda c: cost[c.id])
              for p in ledger.papers() if any(c.paper == p and cost.get(c.id, 0.0) > 0.0 for c in FAST)]
    assert len(chosen) >= 4
    serial = ledger.run_claims(chosen)
    parallel = ledger.run_claims(chosen, workers=2)
    assert [r.claim.id for r in parallel] == [c.id for c in chosen]
    assert [digest(r.claim.id, r.outcome) for r in parallel] == [digest(r.claim.id, r.outcome) for r in serial]


def test_dask_run_gives_the_serial_verdicts():
    distributed = pytest.importorskip("dask.distributed")
    chosen = FAST[:3]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        results = ledger.run_claims(chosen, dask=lc.scheduler_address)
    assert [r.outcome.verdict for r in results] == [c.run().outcome.verdict for c in chosen]


def test_reproduce_names_what_fast_skips_and_prints_progress(capsys, monkeypatch):
    """The command's progress and skip lines; the checks are stand-ins giving the recorded verdicts (every
    fast check runs for real in test_fast_claim_and_its_flip_compute_their_recorded_verdicts)."""
    ran = []

    def claim_run(self, *, flip=False):
        ran.append(self.id)
        return ledger.ClaimResult(self, ledger.Outcome(None, self.verdict, "stand-in"), 0.0, flipped=flip)

    monkeypatch.setattr(ledger.Claim, "run", claim_run)
    monkeypatch.setattr(ledger.Conformance, "run",
                        lambda self: ledger.ConformanceResult(self, ledger.Outcome(None, ledger.Verdict.REPRODUCED), 0.0))
    code = main(["reproduce", "gavel", "--fast"])
    captured = capsys.readouterr()
    assert code == 0
    assert "[1/" in captured.err and "about" in captured.err  # each claim named before it starts
    skipped = [c for c in ledger.claims("gavel") if c.cost == "slow"]
    if skipped:
        assert "skipping" in captured.err and skipped[0].id in captured.err
    assert sorted(ran) == sorted(c.id for c in ledger.claims("gavel") if c.cost != "slow")


# --------------------------------------------------------------------- issue 30: the rules over the whole ledger
def test_every_flip_changes_one_input_of_the_checks_experiment():
    """Rule 3, statically: the flip is the check's experiment with one scalar input changed (Claim checks it too)."""
    from hetopt.claims.experiment import FORBIDDEN_INPUT, Experiment, is_collection

    for c in ALL:
        assert isinstance(c.check, Experiment), c.id
        values = c.check.parameters()
        names = c.check.signature_names()
        assert names is None or c.flip.input in names, (c.id, c.flip.input)
        assert c.flip.input in values and not is_collection(values[c.flip.input]), (c.id, c.flip.input)
        assert not is_collection(c.flip.value) and c.flip.value != values[c.flip.input], (c.id, c.flip.value)
        assert not any(w in c.flip.input.lower() for w in FORBIDDEN_INPUT), (c.id, c.flip.input)
        flipped = c.flip_check.parameters()
        assert {k for k in values if values[k] != flipped.get(k)} == {c.flip.input}, c.id


def test_a_flip_that_reran_a_part_of_the_check_is_named():
    V = ledger.Verdict
    check = ledger.Outcome(1, V.DEPENDS_ON_READING, readings={"a": V.REPRODUCED, "b": V.UNEXPLAINED})
    part = ledger.Outcome(1, V.UNEXPLAINED, readings={"b": V.UNEXPLAINED})
    assert "subset" in ledger.Claim.flip_subset(check, part)
    moved = ledger.Outcome(1, V.UNEXPLAINED, readings={"a": V.UNEXPLAINED, "b": V.UNEXPLAINED})
    assert ledger.Claim.flip_subset(check, moved) is None
    assert ledger.Claim.flip_subset(check, ledger.Outcome(1, V.UNEXPLAINED)) is None


def test_claim_refuses_a_flip_of_a_set_of_readings_or_a_threshold():
    from hetopt.claims import Experiment, experiment

    def exp(readings=("a", "b"), rtol=0.1, delay=10.0):
        return None

    ok = dict(paper="hare", location="-", statement="s", paper_value="1", verdict=ledger.Verdict.REPRODUCED,
              diagnosis="d" * 40, check=experiment(exp))
    V = ledger.Verdict
    with pytest.raises(ValueError, match="set of readings"):
        ledger.Claim(id="x.y.readings", flip=ledger.Flip("one reading only", V.UNEXPLAINED, "readings", ("a",)), **ok)
    with pytest.raises(ValueError, match="threshold"):
        ledger.Claim(id="x.y.tolerance", flip=ledger.Flip("a looser tolerance", V.UNEXPLAINED, "rtol", 0.5), **ok)
    with pytest.raises(ValueError, match="own value"):
        ledger.Claim(id="x.y.same", flip=ledger.Flip("the same delay", V.UNEXPLAINED, "delay", 10.0), **ok)
    with pytest.raises(ValueError, match="not an input"):
        ledger.Claim(id="x.y.other", flip=ledger.Flip("a seed", V.UNEXPLAINED, "seed", 1), **ok)
    with pytest.raises(ValueError, match="Experiment"):
        ledger.Claim(id="x.y.closure", **{**ok, "check": lambda: None})
    c = ledger.Claim(id="x.y.delay", flip=ledger.Flip("a longer delay", V.UNEXPLAINED, "delay", 120.0), **ok)
    assert isinstance(c.flip_check, Experiment) and c.flip_check.parameters()["delay"] == 120.0
    ran = ledger.Outcome(1, V.REPRODUCED, ran={"delay": (10.0, 120.0)})
    assert "also ran" in c.flip_overlap(ran)
    assert c.flip_overlap(ledger.Outcome(1, V.REPRODUCED, ran={"delay": (0.0,)})) is None


def test_declared_parameters_are_the_values_the_checks_run():
    """Rules 1-2: a printed value is used as printed, an unprinted one has a documented prior (Claim checks it)."""
    declared = [(c, p) for c in ALL for p in c.parameters]
    assert declared, "the ledger declares where its parameters come from"
    for c, p in declared:
        assert c.check.parameters()[p.input] == p.value, (c.id, p.input)
        assert len((p.printed or p.prior).split()) >= 5, (c.id, p.input)
    hadar_delay = {c.id: p for c in ALL for p in c.parameters if c.paper == "hadar" and p.input == "restart_delay"}
    assert hadar_delay["hadar2024.sec4.ttd_speedup_gavel"].value == 10.0  # Section IV: "a 10-second delay"
    assert "10-second delay" in hadar_delay["hadar2024.sec4.ttd_speedup_gavel"].printed


def test_enforce_outside_premise_needs_the_premise_measured_and_the_claim_run_inside_it():
    V = ledger.Verdict
    assert ledger.enforce(ledger.Outcome(1, V.OUTSIDE_PREMISE, "x")).verdict is V.UNEXPLAINED
    assert ledger.enforce(ledger.Outcome(1, V.OUTSIDE_PREMISE, "x", premise=False)).verdict is V.UNEXPLAINED
    assert ledger.enforce(ledger.Outcome(1, V.OUTSIDE_PREMISE, "x", premise=True,
                                         inside=V.REPRODUCED)).verdict is V.UNEXPLAINED
    ok = ledger.outside_premise(1, "x", V.REPRODUCED)
    assert ledger.enforce(ok).verdict is V.OUTSIDE_PREMISE
    failing = ledger.enforce(ledger.outside_premise(1, "x", V.PAPER_ERROR))
    assert failing.verdict is V.PAPER_ERROR and "inside the premise it fails too" in failing.detail


@pytest.mark.parametrize("claim", [c for c in ALL if c.verdict is ledger.Verdict.OUTSIDE_PREMISE], ids=lambda c: c.id)
def test_outside_premise_claims_hold_inside_their_premise(claim):
    """Rule 4: the recorded fails-outside-premise verdicts measured their premise and ran the claim inside it."""
    if claim.cost == "slow":
        pytest.skip("slow claim: tests/claims/test_ledger.py::test_slow_claim_computes_its_recorded_verdict")
    out = claim.run().outcome
    assert out.premise is False and out.inside is ledger.Verdict.REPRODUCED, (claim.id, out.detail)


def test_solver_parity_is_conformance_not_a_claim():
    """Rule 6: hetopt's LPs against scipy's are conformance; Theorem 2's greedy violation is a claim's."""
    conf = {c.id for c in ledger.conformance()}
    ids = {c.id for c in ALL}
    for moved in ("gavel2021.policy_mmf.reaches_gavel_objective", "gavel2021.policy_mmf.hand_example",
                  "gavel2021.policy_msum.reaches_gavel_objective", "gavel2021.policy_mtd.trace_makespan"):
        assert moved in conf and moved not in ids
    assert "hadar2024.thm2.greedy_violation" not in conf
    assert ledger.get_claim("hadar2024.thm2.polynomial_competitive").verdict is ledger.Verdict.PAPER_ERROR


def test_measured_contradictions_are_claims():
    """Rule 6: the contradictions the cards once left out are claims, fails-unexplained with their candidates swept."""
    for cid in ("hadar2024.sec6.hadare_peak_360_large_mixes", "hadar2024.sec6.hadar_peak_360_large_mixes_testbed",
                "hare2022.fig14.allox_about_twice_hare", "hare2022.fig15.gaps_grow_with_jobs",
                "hare2022.fig19.batch_size_only_homo"):
        c = ledger.get_claim(cid)
        assert c.verdict is ledger.Verdict.UNEXPLAINED and c.sweep, cid


@pytest.mark.slow
def test_timed_claims_hold_under_load():
    """Rule 5: a claim that compares running times keeps its verdicts beside a CPU-burning process."""
    timed = [c for c in ALL if c.timed]
    assert timed
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        for c in timed:
            assert c.run().outcome.verdict is c.verdict, c.id
            assert c.run(flip=True).outcome.verdict is c.flip.verdict, c.id
    finally:
        burner.kill()
        burner.wait()


def test_cli_json_names_each_flips_input():
    rows = [c.to_dict() for c in ALL]
    for r in rows:
        assert r["flip"]["input"] and "value" in r["flip"], r["id"]
        assert r["experiment"], r["id"]
    json.dumps(rows)
