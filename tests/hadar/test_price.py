"""The price function (5)-(7) and Theorem 2's bound against hand computations."""

import math

import numpy as np
import pytest

from hetopt.hadar import HadarInstance, competitive_bound, price, price_parameters

RTOL = 1e-9


def _inst():
    return HadarInstance(capacity=[[1]], arrival=[0, 0], gpus=[1, 1], epochs=[2, 1], iterations_per_epoch=[1, 1],
                         throughput=[[1.0], [1.0]], utility="effective_throughput", slot_length=1.0)


def test_bounds_by_hand():
    # t_min = t_max = (2, 1) slots; U(t_min) = (2/2, 1/1) -> U_max = 1; T = 3, C = 1,
    # eta = T C / min(t_max W) = 3; U_min = (1/3) min((2/3)/2, (1/3)/1) = 1/9.
    p = price_parameters(_inst())
    assert p.u_max == pytest.approx(1.0, rel=RTOL)
    assert p.eta == pytest.approx(3.0, rel=RTOL)
    assert p.u_min == pytest.approx(1 / 9, rel=RTOL)
    assert p.alpha == pytest.approx(math.log(9), rel=RTOL)
    assert competitive_bound(_inst()) == pytest.approx(2 * math.log(9), rel=RTOL)


def test_price_endpoints_and_monotonicity():
    inst = _inst()
    p = price_parameters(inst)
    cap = np.array([[4, 0]])
    k = [price(np.array([[g, 0]]), cap, p)[0, 0] for g in range(5)]
    assert k[0] == pytest.approx(p.u_min, rel=RTOL)
    assert k[-1] == pytest.approx(p.u_max, rel=RTOL)
    assert np.all(np.diff(k) > 0)
    assert np.isinf(price(np.zeros((1, 2)), cap, p)[0, 1])  # no GPUs of that type


def test_alpha_is_at_least_one():
    inst = _inst()
    p = price_parameters(inst, eta=1.0)
    assert p.alpha >= 1.0
