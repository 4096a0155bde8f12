"""Gavel's claims: the sweeps show the effects their claims rest on (quick grids)."""

import math

import pytest

from hetopt import claims as ledger
from hetopt.gavel.experiments.checks import HAND_EXAMPLE, contended_instance, gavel_mmf_optimum


def _rows(table):
    return {row[0]: row for row in table.rows}


def test_normalization_sweep_ties_when_contended_and_loses_when_not():
    t = ledger.sweeps("gavel")["gavel.normalization"].run(quick=True)
    rows = _rows(t)
    assert set(rows) == {"contended", "high", "low"}
    assert rows["contended"][3] == pytest.approx(1.0, abs=1e-6)  # min ratio: the readings coincide
    assert rows["contended"][4] == 0
    assert rows["low"][3] < 0.99 and rows["low"][4] >= 1  # the isolated reading loses on some uncontended cluster


def test_makespan_sweep_unscaled_drifts_scaled_exact():
    t = ledger.sweeps("gavel")["gavel.makespan_scaling"].run(quick=True)
    rows = _rows(t)
    assert set(rows) == {-6, 0}
    for row in t.rows:
        assert row[3] == pytest.approx(1.0, rel=1e-6)  # scaled LP exact at every magnitude
    assert rows[-6][4] == pytest.approx(1.0, rel=1e-5)  # the former LP is exact on small step counts
    assert rows[0][4] > 1.5 or math.isinf(rows[0][4])  # and 1.83x off at the trace's real step counts


def test_contended_instances_are_contended():
    for seed in range(5):
        T, s, c = contended_instance(4, 2, seed=seed)
        assert all(4 * sj >= c.sum() for sj in s) and (c >= 1).all()


def test_independent_reference_on_the_hand_example():
    assert gavel_mmf_optimum(*HAND_EXAMPLE) == pytest.approx(4 / 3, rel=1e-9)


def test_every_gavel_sweep_names_registered_claims():
    ids = {c.id for c in ledger.claims("gavel")} | {c.id for c in ledger.conformance("gavel")}
    for sw in ledger.sweeps("gavel").values():
        assert sw.name.startswith("gavel.") and set(sw.claims) <= ids
