"""FIND_ALLOC and the DP allocation of Algorithm 2: hand cases and brute force over admission choices."""

import itertools

import numpy as np
import pytest

from hetopt.errors import ArgumentError
from hetopt.hadar import HadarInstance, dp_allocation, find_alloc, generate_instance, price, price_parameters

RTOL = 1e-9


def _inst(**over):
    kw = dict(capacity=[[2, 2], [1, 0]], arrival=[0], gpus=[2], epochs=[100], iterations_per_epoch=[10],
              throughput=[[3.0, 1.0]], utility="effective_throughput", slot_length=60.0)
    kw.update(over)
    return HadarInstance(**kw)


def test_find_alloc_takes_the_fastest_gpus_on_one_machine():
    inst = _inst()
    p = price_parameters(inst)
    free = inst.capacity.copy()
    a = find_alloc(inst, 0, free, price(inst.capacity - free, inst.capacity, p), remaining=1000.0, now=0.0,
                   comm_cost=p.u_min)
    assert a.consolidated
    np.testing.assert_array_equal(a.w, [[2, 0], [0, 0]])
    assert a.rate == pytest.approx(2 * 3.0)
    assert a.cost == pytest.approx(2 * p.u_min, rel=RTOL)  # empty cluster: every unit at k(0) = U_min
    assert a.payoff == pytest.approx(1000.0 / (1000.0 / 6.0) - a.cost, rel=RTOL)


def test_find_alloc_spreads_when_no_machine_holds_the_gang():
    inst = _inst(capacity=[[1, 0], [1, 0]])
    p = price_parameters(inst)
    free = inst.capacity.copy()
    a = find_alloc(inst, 0, free, price(0 * free, inst.capacity, p), remaining=1000.0, now=0.0, comm_cost=0.5)
    assert not a.consolidated
    np.testing.assert_array_equal(a.w, [[1, 0], [1, 0]])
    assert a.cost == pytest.approx(2 * p.u_min + 0.5, rel=RTOL)  # one GPU off the main machine
    assert find_alloc(inst, 0, free, price(0 * free, inst.capacity, p), remaining=1000.0, now=0.0,
                      comm_cost=0.5, consolidated_only=True) is None


def test_find_alloc_mixes_types_with_the_bottleneck_rate():
    inst = _inst(capacity=[[1, 1]])
    p = price_parameters(inst)
    a = find_alloc(inst, 0, inst.capacity.copy(), price(0 * inst.capacity, inst.capacity, p), remaining=1000.0,
                   now=0.0, comm_cost=0.0)
    np.testing.assert_array_equal(a.w, [[1, 1]])
    assert a.rate == pytest.approx(2 * 1.0)


def test_find_alloc_rejects_non_positive_payoff():
    inst = _inst()
    price_parameters(inst)  # valid parameters exist for this instance
    full_price = np.full(inst.capacity.shape, 1e9)
    assert find_alloc(inst, 0, inst.capacity.copy(), full_price, remaining=1000.0, now=0.0, comm_cost=0.0) is None
    a = find_alloc(inst, 0, inst.capacity.copy(), full_price, remaining=1000.0, now=0.0, comm_cost=0.0,
                   require_positive=False)
    assert a is not None and a.payoff < 0


def _brute_force(inst, queue, remaining, params):
    """Max total payoff over every admit/skip sequence, each admitted job allocated by FIND_ALLOC."""
    cap = inst.capacity
    best = 0.0
    for choice in itertools.product([0, 1], repeat=len(queue)):
        free, tot, ok = cap.copy(), 0.0, True
        for j, take in zip(queue, choice, strict=True):
            if not take:
                continue
            a = find_alloc(inst, j, free, price(cap - free, cap, params), remaining=remaining[j], now=0.0,
                           comm_cost=params.u_min)
            if a is None:
                ok = False
                break
            free = free - a.w
            tot += a.payoff
        if ok:
            best = max(best, tot)
    return best


@pytest.mark.parametrize("seed", range(8))
def test_exact_dp_equals_brute_force(seed):
    inst = generate_instance(n_jobs=6, n_machines=2, seed=seed, utility="sigmoid" if seed % 2 else "effective_throughput")
    params = price_parameters(inst)
    queue = list(range(inst.n_jobs))
    rem = inst.total_iterations.astype(float)
    res = dp_allocation(inst, queue, rem, 0.0, params=params)
    assert res.exact
    assert res.total_payoff == pytest.approx(_brute_force(inst, queue, rem, params), rel=RTOL, abs=1e-12)
    greedy = dp_allocation(inst, queue, rem, 0.0, params=params, beam_width=1)
    assert greedy.total_payoff <= res.total_payoff + 1e-12
    M = res.matrix(inst.n_jobs, inst.capacity.shape)
    assert np.all(M.sum(axis=0) <= inst.capacity)
    for j, a in res.allocations.items():
        assert a.w.sum() == inst.gpus[j]


def test_work_conserving_fill_uses_idle_gpus():
    inst = generate_instance(n_jobs=6, n_machines=2, seed=3)
    params = price_parameters(inst)
    rem = inst.total_iterations.astype(float)
    base = dp_allocation(inst, range(6), rem, 1e7, params=params)  # late: utilities below prices
    filled = dp_allocation(inst, range(6), rem, 1e7, params=params, work_conserving=True)
    assert len(filled.allocations) >= len(base.allocations)
    assert filled.matrix(6, inst.capacity.shape).sum(axis=0).sum() <= inst.capacity.sum()


def test_bad_beam_width():
    inst = _inst()
    with pytest.raises(ArgumentError, match="beam_width"):
        dp_allocation(inst, [0], [1.0], 0.0, beam_width=0)


@pytest.mark.parametrize("budget", [10, 60, 400])
def test_state_budget_stops_where_the_prefix_runs_first_exceed_it(budget):
    """One budgeted pass equals running the exact DP on ever longer prefixes of the queue."""
    from hetopt.hadar import price_parameters, trace_workload

    inst = trace_workload(40, seed=1, n_machines=4)
    params = price_parameters(inst)
    remaining = inst.total_iterations.astype(float)
    k, states = 0, 0
    while k < inst.n_jobs and states <= budget:
        k += 1
        states = dp_allocation(inst, np.arange(k), remaining, 0.0, params=params).max_states
    res = dp_allocation(inst, np.arange(inst.n_jobs), remaining, 0.0, params=params, state_budget=budget)
    assert (res.processed, res.max_states) == (k, states)
    assert res.exact is (states <= budget)
    full = dp_allocation(inst, np.arange(inst.n_jobs), remaining, 0.0, params=params)
    assert full.processed == inst.n_jobs and full.exact


def test_kept_candidates_give_the_fresh_allocation_and_a_private_matrix():
    """FIND_ALLOC keeps a job's candidate gangs per (free, prices): on random states, a second call and a call
    with the memo emptied give the same allocation to the bit; a returned matrix is the caller's own; a full
    memo starts again."""
    from hetopt.hadar import allocation as A

    rng = np.random.default_rng(3)
    inst = generate_instance(n_jobs=6, seed=4)
    p = price_parameters(inst)
    for _ in range(200):
        free = rng.integers(0, inst.capacity + 1)
        prices = price(inst.capacity - free, inst.capacity, p)
        j, rem, now = int(rng.integers(inst.n_jobs)), float(rng.uniform(1, 1e6)), float(rng.uniform(0, 1e5))
        kw = dict(remaining=rem, now=now, comm_cost=float(rng.uniform(0, 2)), require_positive=False)
        first = find_alloc(inst, j, free, prices, **kw)
        again = find_alloc(inst, j, free, prices, **kw)
        A._CANDIDATES.pop(inst, None)
        fresh = find_alloc(inst, j, free, prices, **kw)
        for a in (first, again):
            assert (a is None) == (fresh is None)
            if a is not None:
                assert (a.rate, a.cost, a.payoff, a.consolidated) == (fresh.rate, fresh.cost, fresh.payoff, fresh.consolidated)
                np.testing.assert_array_equal(a.w, fresh.w)
        if first is not None:
            first.w[:] = -7  # the caller's own matrix: the kept candidates are untouched
            np.testing.assert_array_equal(find_alloc(inst, j, free, prices, **kw).w, fresh.w)
    saved = A.CANDIDATE_MEMO_SIZE
    try:
        A.CANDIDATE_MEMO_SIZE = 3
        for k in range(5):
            find_alloc(inst, 0, inst.capacity.copy(), price(0 * inst.capacity, inst.capacity, p), remaining=10.0 + k,
                       now=0.0, comm_cost=float(k))
        assert 1 <= len(A._CANDIDATES[inst]) <= 3
    finally:
        A.CANDIDATE_MEMO_SIZE = saved
