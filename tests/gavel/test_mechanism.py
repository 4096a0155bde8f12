"""Gavel's round mechanism (scheduler.py): rounds derived by hand from Gavel's rules.

Rules used in the derivations (stanford-futuredata/gavel, scheduler/scheduler.py):
at a reset every job is credited half a round (180 s) on every type and each type's total
is the sum, so with J jobs every share is 1/J; priority = X / share; per-type queues sorted
by (priority, deficit, allocation) descending, ties in job order, visited fastest type
first; a job takes the first entry whose type has its scale factor free.
"""

import numpy as np
import pytest

from hetopt.errors import ArgumentError, InstanceError
from hetopt.gavel import GavelMechanism, max_min_fairness, priorities, schedule_round

FRACTION_ATOL = 0.05
HALF = 180.0  # half of Gavel's 360 s round


def _mech(jobs, X, *, n_types, t=0.0, **kw):
    m = GavelMechanism(n_types, **kw)
    for j in jobs:
        m.add_job(j)
    m.reset(t, dict(zip(jobs, np.asarray(X, dtype=float), strict=True)))
    return m


def test_priorities_rule():
    P = priorities([[0.5, 0.0], [0.2, 0.8]], [[0.25, 0.5], [0.0, 0.4]], [[1, 1], [1, 0]])
    assert P[0, 0] == pytest.approx(2.0)
    assert P[0, 1] == 0.0                      # no allocation
    assert P[1, 0] == pytest.approx(0.2e9)     # no share yet: X * 1e9
    assert P[1, 1] == 0.0                      # throughput 0


def test_three_job_example_places_every_job():
    # X = [[1,0],[0,1],[0,1]], s = 1, capacity (2, 1).  Shares 1/3 -> type-0 priorities (3, 0, 0),
    # type-1 (0, 3, 3).  Type-0 queue: J0, then J1, J2 tied at 0 in job order -> J0 and J1 take
    # the two type-0 GPUs (J1 by work conservation); type-1 queue: J1 (placed), J2 -> type 1.
    X = [[1, 0], [0, 1], [0, 1]]
    m = _mech([0, 1, 2], X, n_types=2)
    T = {j: np.ones(2) for j in range(3)}
    s = {j: 1 for j in range(3)}
    assert m.schedule(T, s, [2, 1]) == {0: 0, 1: 0, 2: 1}
    for j, r in ((0, 0), (1, 0), (2, 1)):
        m.record(j, r, 360.0)
    # round 2: type-0 totals 3*180 + 720 = 1260, shares J0 = J1 = 540/1260 -> J0 priority 7/3,
    # J1, J2 zero; type 1: J1 share 180/900 -> 5, J2 540/900 -> 5/3.  Same placement.
    assert m.schedule(T, s, [2, 1]) == {0: 0, 1: 0, 2: 1}
    # without the work-conserving fill (Gavel's FIFO rule) J1 and J2 compete for the one type-1 GPU
    m2 = _mech([0, 1, 2], X, n_types=2, work_conserving=False)
    assert len(m2.schedule(T, s, [2, 1])) == 2


def test_hadar_fig1a_first_two_rounds():
    # Hadar (Sultana et al.) Section II-A: 2 V100, 3 P100, 1 K80; gangs W = (3, 2, 2); the paper's
    # Y^Gavel.  Round 1 (shares 1/3, priorities 3Y): V100 queue J1 (1.8, needs 3 > 2), J2 (0.6) ->
    # V100; P100 queue J2 (placed), J1 (1.2) -> P100; K80 has 1 GPU.  Busy 5/6 (paper: 83%).
    Y = [[0.6, 0.4, 0.0], [0.2, 0.6, 0.2], [0.2, 0.0, 0.8]]
    cap, s = [2, 3, 1], {0: 3, 1: 2, 2: 2}
    T = {j: np.ones(3) for j in range(3)}
    m = _mech([0, 1, 2], Y, n_types=3)
    assert m.schedule(T, s, cap) == {0: 1, 1: 0}
    m.record(0, 1, 360.0)
    m.record(1, 0, 360.0)
    # Round 2: V100 total 900, shares J1 .2, J2 .6, J3 .2 -> priorities 3, 1/3, 1: J1 needs 3 > 2,
    # J3 -> V100.  P100 total 900: J2 180/900 -> 3, J1 540/900 -> 2/3: J2 -> P100 (2 of 3), J1
    # cannot fit.  Busy 4/6 (paper: 67%).
    assert m.schedule(T, s, cap) == {1: 1, 2: 0}


def test_priority_reset_forgets_the_shares():
    # One GPU, two jobs.  X_old = (1, 0): J0 runs rounds 1-3.  At t = 1080 the allocation becomes
    # (0.5, 0.5): deficits J0 = 1*1080 - 1080 = 0, J1 = 0; shares reset to 1/2 -> priorities tie,
    # J0 (job order) runs round 4.  Had the shares not been reset, J0's share (180+1080)/1440 would
    # give J1 priority 0.5/0.125 = 4 > 0.5/0.875.
    m = _mech([0, 1], [[1.0], [0.0]], n_types=1)
    T, s = {0: [1.0], 1: [1.0]}, {0: 1, 1: 1}
    for _ in range(3):
        assert m.schedule(T, s, [1]) == {0: 0}
        m.record(0, 0, 360.0)
    m.reset(1080.0, {0: [0.5], 1: [0.5]})
    np.testing.assert_allclose(m.shares([0, 1]), [[0.5], [0.5]])
    np.testing.assert_allclose([m.deficit[0][0], m.deficit[1][0]], [0.0, 0.0])
    assert m.schedule(T, s, [1]) == {0: 0}
    m.record(0, 0, 360.0)
    assert m.schedule(T, s, [1]) == {1: 0}      # shares 540/720 vs 180/720


def test_deficit_breaks_the_tie():
    # One GPU, X = (0.5, 0.5).  Round 1: tie, J0 runs 360 s.  Reset at 360 with the same X:
    # deficits J0 = 0.5*360 - 360 = -180, J1 = 180 - 0 = 180; priorities tie again (shares 1/2),
    # the deficit puts J1 first.  Without deficits the job order would pick J0.
    m = _mech([0, 1], [[0.5], [0.5]], n_types=1)
    T, s = {0: [1.0], 1: [1.0]}, {0: 1, 1: 1}
    assert m.schedule(T, s, [1]) == {0: 0}
    m.record(0, 0, 360.0)
    m.reset(360.0, {0: [0.5], 1: [0.5]})
    np.testing.assert_allclose([m.deficit[0][0], m.deficit[1][0]], [-180.0, 180.0])
    assert m.schedule(T, s, [1]) == {1: 0}
    P = priorities([[0.5], [0.5]], m.shares([0, 1]))
    assert schedule_round([[0.5], [0.5]], [1, 1], [1], P).tolist() == [[1], [0]]


def test_recompute_at_most_every_interval():
    m = GavelMechanism(1, recompute_interval=1920.0)
    m.add_job(0)
    assert m.recompute_due(0.0)
    m.reset(0.0, {0: [1.0]})
    assert not m.recompute_due(360.0)            # nothing changed
    m.add_job(1)                                 # arrival: stale, but too early
    assert not m.recompute_due(360.0) and m.recompute_due(1920.0)
    # the new job waits for the recomputation even with a free GPU
    assert m.schedule({0: [1.0], 1: [1.0]}, {0: 1, 1: 1}, [2]) == {0: 0}


def test_work_conservation_on_random_rounds():
    # no unplaced job of the allocation fits on a type it can run on with GPUs left
    rng = np.random.default_rng(1)
    for _ in range(200):
        J, R = rng.integers(1, 7), rng.integers(1, 4)
        X = rng.dirichlet(np.ones(R + 1), size=J)[:, :R] * (rng.random((J, R)) < 0.6)
        T = rng.uniform(0.0, 2.0, size=(J, R)) * (rng.random((J, R)) < 0.8)
        s = rng.integers(1, 4, size=J)
        cap = rng.integers(0, 6, size=R)
        P = priorities(X, rng.dirichlet(np.ones(J), size=R).T, T)
        out = schedule_round(X, s, cap, P, rng.normal(size=(J, R)), T)
        left = cap - out.sum(axis=0)
        assert np.all(left >= 0) and set(np.count_nonzero(out, axis=1)) <= {0, 1}
        for j in np.flatnonzero(out.sum(axis=1) == 0):
            assert not np.any((T[j] > 0) & (s[j] <= left))


def test_long_run_shares_track_the_allocation():
    rng = np.random.default_rng(0)
    T = rng.uniform(0.5, 4.0, size=(5, 3))
    c = np.array([2, 1, 1])
    X = max_min_fairness(T, np.ones(5), c)
    m = _mech(list(range(5)), X, n_types=3)
    got = np.zeros_like(X)
    rounds = 400
    for _ in range(rounds):
        place = m.schedule({j: T[j] for j in range(5)}, {j: 1 for j in range(5)}, c)
        for j, r in place.items():
            m.record(j, r, 360.0)
            got[j, r] += 1
    np.testing.assert_allclose(got / rounds, X, atol=FRACTION_ATOL)


def test_bad_inputs_name_the_field():
    with pytest.raises(InstanceError, match="capacity"):
        schedule_round(np.full((2, 2), 0.5), [1, 1], [1], np.zeros((2, 2)))
    with pytest.raises(InstanceError, match="type_order"):
        schedule_round(np.full((2, 2), 0.5), [1, 1], [1, 1], np.zeros((2, 2)), type_order=[0, 0])
    with pytest.raises(ArgumentError, match="recompute_interval"):  # an argument, not an instance field
        GavelMechanism(2, recompute_interval=-1)
    m = GavelMechanism(1)
    with pytest.raises(InstanceError, match="not in the mechanism"):
        m.reset(0.0, {7: [1.0]})
