"""The claims ledger: schema of every entry, and every check still computes its recorded verdict."""

import json

import pytest

from hetopt import claims as ledger
from hetopt.cli import main
from hetopt.data import list_instances

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
    assert claim.verdict is not ledger.Verdict.UNEXPLAINED, f"{claim.id}: no entry may rest on 'unexplained'"


@pytest.mark.parametrize("claim", FAST, ids=lambda c: c.id)
def test_fast_claim_computes_its_recorded_verdict(claim):
    r = claim.run()
    assert r.outcome.verdict is claim.verdict, f"{claim.id}: computed {r.outcome.verdict.value} ({r.outcome.detail}); recorded {claim.verdict.value}"


@pytest.mark.slow
@pytest.mark.parametrize("claim", SLOW, ids=lambda c: c.id)
def test_slow_claim_computes_its_recorded_verdict(claim):
    r = claim.run()
    assert r.outcome.verdict is claim.verdict, f"{claim.id}: computed {r.outcome.verdict.value} ({r.outcome.detail}); recorded {claim.verdict.value}"


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
