"""The oracle of Section IV-C: Alg. 2 (vectorized and literal) against problem (27)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hetopt.data import instance_path
from hetopt.oasis import (
    OasisInstance,
    Prices,
    Usage,
    algorithm2_literal,
    best_schedule,
    best_schedule_ilp,
    check_schedule,
)
from hetopt.oasis.schedule import schedule_cost

from .conftest import tiny_instance

PAYOFF_TOL = 1e-7


def _random_state(inst, seed):
    rng = np.random.default_rng(seed)
    T, H, K, R = inst.horizon, inst.n_worker_servers, inst.n_ps_servers, inst.n_resources
    prices = Prices(rng.uniform(0, 3, (T, H, R)), rng.uniform(0, 3, (T, K, R)))
    used = Usage.empty(inst)
    used.g[:] = rng.integers(0, 2, used.g.shape)
    used.v[:] = rng.integers(0, 2, used.v.shape)
    return prices, used


@settings(max_examples=25, derandomize=True, deadline=None)
@given(st.integers(0, 10_000))
def test_vectorized_dp_equals_literal_algorithm2(seed):
    inst = tiny_instance(seed)
    prices, used = _random_state(inst, seed + 1)
    for i in range(inst.n_jobs):
        fast, lit = best_schedule(inst, i, prices, used), algorithm2_literal(inst, i, prices, used)
        assert max(0.0, fast.payoff) == pytest.approx(lit.payoff, abs=PAYOFF_TOL)
        if fast.schedule is not None:
            # the returned schedule really has the reported cost and fits the residual capacity
            assert fast.cost == pytest.approx(schedule_cost(inst, fast.schedule, prices.p, prices.q))
            g = used.g + np.einsum("ht,r->thr", fast.schedule.workers, inst.worker_demand[i])
            assert np.all(g <= inst.worker_capacity[None] + 1e-9)
            assert check_schedule(inst, {i: fast.schedule}).ok


@pytest.mark.parametrize("seed", range(12))
def test_dp_never_beats_the_ilp_and_matches_when_chunks_divide_slots(seed):
    """(27) relaxes the DP's integer chunks per slot: ILP >= DP, equal when 1/m_i is an integer."""
    for chunk_times, equal in (((0.25, 0.5, 1 / 3, 1.0), True), ((0.4, 0.7, 1.5), False)):
        inst = tiny_instance(seed, chunk_times=chunk_times)
        prices, used = _random_state(inst, 100 + seed)
        for i in range(inst.n_jobs):
            dp, ilp = best_schedule(inst, i, prices, used), best_schedule_ilp(inst, i, prices, used)
            if ilp.schedule is None:
                assert dp.schedule is None
                continue
            assert dp.payoff <= ilp.payoff + PAYOFF_TOL
            if equal:
                assert dp.payoff == pytest.approx(ilp.payoff, abs=1e-6)


def test_theorem1_counterexample_known_answer():
    """m = 0.4, N = 1, E = 5: the DP trains 2 chunks per worker-slot (floor(1/0.4)) and needs 3
    slots; (27) needs 2.0 worker-slots in total, i.e. 2 slots.  f = [10, 8, 5] -> 5 vs 8."""
    inst = OasisInstance.from_json(instance_path("oasis2018_theorem1_counterexample"))
    z = Prices.zeros(inst)
    dp, ilp, lit = best_schedule(inst, 0, z), best_schedule_ilp(inst, 0, z), algorithm2_literal(inst, 0, z)
    assert dp.schedule.completion == 3 and dp.payoff == pytest.approx(5.0)
    assert lit.payoff == pytest.approx(5.0)
    assert ilp.schedule.completion == 2 and ilp.payoff == pytest.approx(8.0)


def test_no_feasible_schedule():
    inst = tiny_instance(0)
    used = Usage.empty(inst)
    used.g[:] = inst.worker_capacity[None]  # every worker server full in every slot
    res = best_schedule(inst, 0, Prices.zeros(inst), used)
    assert res.schedule is None and res.payoff == -math.inf
    assert best_schedule_ilp(inst, 0, Prices.zeros(inst), used).schedule is None
    assert algorithm2_literal(inst, 0, Prices.zeros(inst), used).schedule is None


def test_greedy_prefers_cheap_servers():
    inst = tiny_instance(5)
    prices = Prices.zeros(inst)
    prices.p[:, 0, :] = 1.0  # server 0 expensive, server 1 free
    res = best_schedule(inst, 0, prices)
    cap1 = min(np.floor(inst.worker_capacity[1] / inst.worker_demand[0]))
    busy = res.schedule.workers[:, res.schedule.workers.sum(axis=0) > 0]
    assert np.all((busy[0] == 0) | (busy[1] >= min(cap1, inst.chunks[0])))
