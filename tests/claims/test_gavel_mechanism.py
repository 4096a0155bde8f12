"""Gavel mechanism claims: the sweep's table and effect, ids and evidence."""

import numpy as np

from hetopt.claims import get_sweep
from hetopt.claims.gavel import mechanism as gm


def test_claims_belong_to_gavel():
    assert {c.id.split(".")[0] for c in gm.CLAIMS} == {"gavel2021"}
    assert {c.paper for c in gm.CLAIMS} == {"gavel"}
    assert all(c.cost == "fast" for c in gm.CLAIMS)


def test_recompute_interval_sweep_quick():
    t = get_sweep("gavel.recompute_interval").run(quick=True)
    assert [r[0] for r in t.rows] == list(gm.INTERVALS[::2])
    counts = [r[1] for r in t.rows]
    jct = [r[2] for r in t.rows]
    # fewer recomputations as the interval grows; keeping a stale allocation for 8.5 h costs JCT
    assert all(a >= b for a, b in zip(counts, counts[1:], strict=False)) and counts[0] > counts[-1]
    assert jct[-1] > jct[0]
    assert all(r[3] >= r[2] > 0 for r in t.rows)  # makespan >= average JCT


def test_printed_allocation_policy_is_exact_rows():
    inst = gm._inst("gavel2020_hadar_fig1a")
    pol = gm.fixed_allocation_policy(inst, gm.HADAR_Y, mechanism="clean")
    T = inst.effective_throughput()
    np.testing.assert_array_equal(pol(T[[2, 0]], None, None), gm.HADAR_Y[[2, 0]])
    # Gavel's loop hands the policy the types in name order: the rows come back in those columns
    from hetopt.gavel.rounds import MECHANISMS

    cols = MECHANISMS["gavel"].policy_columns(inst)
    pol = gm.fixed_allocation_policy(inst, gm.HADAR_Y)
    np.testing.assert_array_equal(pol(inst.throughput[[2, 0]][:, cols], None, None), gm.HADAR_Y[[2, 0]][:, cols])


def test_checks_fail_on_a_mechanism_that_only_realizes_the_allocation(monkeypatch):
    import functools

    from hetopt.claims.ledger import Verdict
    from hetopt.gavel import mechanism

    broken = functools.partial(mechanism.schedule_round, work_conserving=False)
    monkeypatch.setattr(gm, "schedule_round", broken)
    monkeypatch.setattr(mechanism, "schedule_round", lambda *a, **k: broken(*a, **{**k, "work_conserving": False}))
    assert gm._check_work_conservation().verdict is Verdict.UNEXPLAINED
    assert gm._check_three_jobs().verdict is Verdict.UNEXPLAINED
