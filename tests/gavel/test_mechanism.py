"""Gavel's round-based mechanism: priorities, capacities, long-run time fractions."""

import numpy as np
import pytest

from hetopt.errors import InstanceError
from hetopt.gavel import gavel_round, max_min_fairness, priorities, schedule_round

FRACTION_ATOL = 0.05


def test_priorities_inf_for_unserved_zero_for_unallocated():
    P = priorities([[0.5, 0.0], [0.2, 0.8]], [[2, 0], [0, 4]])
    assert P[0, 0] == pytest.approx(0.25)
    assert P[0, 1] == 0.0
    assert np.isinf(P[1, 0])
    assert P[1, 1] == pytest.approx(0.2)


def test_schedule_round_hand_case():
    # one V100 and one K80; job 0 allocated (0.6, 0.4), job 1 (0.4, 0.6); nobody ran yet:
    # all priorities inf -> larger allocation first: job 0 on V100, then job 1 on K80.
    X = np.array([[0.6, 0.4], [0.4, 0.6]])
    out = schedule_round(X, [1, 1], [1, 1], np.zeros((2, 2)))
    np.testing.assert_array_equal(out, [[1, 0], [0, 1]])
    # after that round, job 1's V100 priority (inf) beats job 0's (0.6/1): they swap.
    out = schedule_round(X, [1, 1], [1, 1], np.array([[1, 0], [0, 1]]))
    np.testing.assert_array_equal(out, [[0, 1], [1, 0]])


def test_gang_on_one_type_and_capacity():
    X = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    out = schedule_round(X, [2, 2, 4], [3, 4], np.zeros((3, 2)))
    assert out[:, 0].sum() <= 3 and out[:, 1].sum() <= 4
    assert set(np.count_nonzero(out, axis=1)) <= {0, 1}
    np.testing.assert_array_equal(out.sum(axis=1)[out.sum(axis=1) > 0], [2, 4])


def test_long_run_fractions_track_the_allocation():
    rng = np.random.default_rng(0)
    T = rng.uniform(0.5, 4.0, size=(5, 3))
    s = np.ones(5, dtype=int)
    c = np.array([2, 1, 1])
    X = max_min_fairness(T, s, c)
    got = np.zeros_like(X)
    rounds = 400
    for _ in range(rounds):
        out = gavel_round(T, s, c, got, allocation=X)
        assert np.all(out.sum(axis=0) <= c)
        got += out > 0
    np.testing.assert_allclose(got / rounds, X, atol=FRACTION_ATOL)


def test_shape_mismatch_is_an_instance_error():
    with pytest.raises(InstanceError, match="shapes"):
        schedule_round(np.ones((2, 2)), [1, 1], [1], np.zeros((2, 2)))


def test_gavel_round_solves_the_policy_by_name():
    T = np.array([[4.0, 1.0], [1.0, 4.0]])
    out = gavel_round(T, [1, 1], [1, 1], np.zeros((2, 2)), policy="max_sum_throughput")
    np.testing.assert_array_equal(out, np.eye(2, dtype=int))
    with pytest.raises(InstanceError, match="policy"):
        gavel_round(T, [1, 1], [1, 1], np.zeros((2, 2)), policy="srtf")
