"""The claims ledger: schema of every entry, and every check still computes its recorded verdict and outcome.

Every check (and every fast claim's flip) must also compute the outcome recorded in
``outcome_digests.json`` bit for bit (``tests/claims/digests.py``): a change made for speed moves no
number of the ledger.
"""

import json

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


@pytest.mark.parametrize("claim", FAST, ids=lambda c: c.id)
def test_fast_claim_computes_its_recorded_verdict(claim):
    r = claim.run()
    assert r.outcome.verdict is claim.verdict, f"{claim.id}: computed {r.outcome.verdict.value} ({r.outcome.detail}); recorded {claim.verdict.value}"
    assert_unchanged(r)


@pytest.mark.slow
@pytest.mark.parametrize("claim", SLOW, ids=lambda c: c.id)
def test_slow_claim_computes_its_recorded_verdict(claim):
    r = claim.run()
    assert r.outcome.verdict is claim.verdict, f"{claim.id}: computed {r.outcome.verdict.value} ({r.outcome.detail}); recorded {claim.verdict.value}"
    assert_unchanged(r)


def test_a_broken_check_is_reported_unexplained_not_raised():
    def boom():
        raise RuntimeError("no data")

    c = ledger.Claim(id="x.y.z", paper="hare", location="-", statement="s", paper_value="1",
                     verdict=ledger.Verdict.REPRODUCED, diagnosis="d" * 40, check=boom)
    r = c.run()
    assert r.outcome.verdict is ledger.Verdict.UNEXPLAINED and "no data" in r.outcome.detail
    assert r.verdict_changed


def test_claim_rejects_bad_ids_and_costs():
    ok = dict(paper="hare", location="-", statement="s", paper_value="1", verdict=ledger.Verdict.REPRODUCED,
              diagnosis="d", check=lambda: None)
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


def test_summary_counts_add_up():
    t = ledger.summary_table(ALL)
    last = t.rows[-1]
    assert last[0] == "all" and last[1] == len(ALL) == sum(last[2:])


def test_the_ledger_covers_every_paper_and_gavel():
    per_paper = {p: sum(c.paper == p for c in ALL) for p in ledger.papers()}
    assert all(n >= 5 for n in per_paper.values()), per_paper
    assert len(ALL) >= 60


def test_every_sweep_names_claims_that_exist():
    ids = {c.id for c in ALL}
    for name, sw in ledger.sweeps().items():
        assert name == sw.name and sw.description, name
        assert set(sw.claims) <= ids, (name, set(sw.claims) - ids)


# --------------------------------------------------------------------- issue 21: flips, rules, conformance
def test_every_claim_names_its_flip():
    missing = [c.id for c in ALL if c.flip is None]
    assert missing == [], f"claims without a flip (the experiment that moves the verdict): {missing}"
    for c in ALL:
        assert c.flip.change.strip() and c.flip.verdict is not c.verdict, c.id


@pytest.mark.parametrize("claim", [c for c in FAST if c.flip is not None], ids=lambda c: c.id)
def test_fast_flip_moves_the_verdict(claim):
    r = claim.run(flip=True)
    assert r.outcome.verdict is claim.flip.verdict, (
        f"{claim.id}: flip '{claim.flip.change}' computed {r.outcome.verdict.value} ({r.outcome.detail}); "
        f"recorded {claim.flip.verdict.value}")
    assert r.outcome.verdict is not claim.verdict
    assert_unchanged(r)


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
    chosen = FAST[:: max(1, len(FAST) // 6)][:6]
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


def test_reproduce_names_what_fast_skips_and_prints_progress(capsys):
    code = main(["reproduce", "gavel", "--fast"])
    captured = capsys.readouterr()
    assert code == 0
    assert "[1/" in captured.err and "about" in captured.err  # each claim named before it starts
    skipped = [c for c in ledger.claims("gavel") if c.cost == "slow"]
    if skipped:
        assert "skipping" in captured.err and skipped[0].id in captured.err
