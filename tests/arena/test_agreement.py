"""With the default options the arena is Gavel's mechanism: every Gavel policy gives hetopt.gavel.simulate's completions, bit for bit."""

import numpy as np
import pytest

import hetopt.arena as A
from hetopt.gavel import POLICIES, load_trace, simulate
from hetopt.gavel.parity import small_test_sf1


def _same(inst, policy):
    sim = simulate(inst, policy, record_rounds=False, max_size=None)
    run = A.execute(A.from_gavel(inst), A.make_policy(policy))
    assert np.array_equal(run.completion, sim.completion), policy
    assert run.n_rounds == sim.info["n_rounds"] and run.n_resets == sim.recomputations


@pytest.mark.parametrize("policy", [p for p in POLICIES if p != "max_min_fairness_strategy_proof"])
def test_every_gavel_policy_on_medium_test(policy):
    _same(load_trace("medium_test", "4:4:4"), policy)


@pytest.mark.parametrize("policy", list(POLICIES))
def test_every_gavel_policy_on_small_test_sf1(policy):
    _same(small_test_sf1("4:4:4"), policy)


@pytest.mark.parametrize("trace, cluster", [("small_test", "8:16:24"), ("max_min_fairness", "8:16:24")])
@pytest.mark.parametrize("policy", ["max_min_fairness", "fifo", "max_sum_throughput", "fifo_random", "isolated"])
def test_mixed_scale_factors(trace, cluster, policy):
    _same(load_trace(trace, cluster), policy)


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["max_min_fairness_strategy_proof", "min_total_duration"])
def test_slow_policies_on_medium_test(policy):
    _same(load_trace("medium_test", "4:4:4"), policy)


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["fifo", "max_min_fairness", "min_total_duration", "max_sum_throughput"])
def test_msr_rows_of_the_parity_table(policy):
    """The msr rows (20,000 rounds and more): Gavel's own runs in the parity table, through the arena."""
    _same(load_trace("ed69ec_first60", "4:4:4"), policy)


def test_the_drawn_fifo_reading_is_a_policy_option():
    inst = load_trace("medium_test", "8:16:24")
    sim = simulate(inst, "fifo_random", options={"reading": "drawn"}, record_rounds=False)
    run = A.execute(A.from_gavel(inst), A.make_policy("fifo_random", reading="drawn"))
    assert np.array_equal(run.completion, sim.completion)
    assert not np.array_equal(run.completion, A.execute(A.from_gavel(inst), A.make_policy("fifo_random")).completion)


@pytest.mark.parametrize("policy", ["fifo", pytest.param("max_min_fairness", marks=pytest.mark.slow),
                                    pytest.param("fifo_random", marks=pytest.mark.slow)])  # 2.8 s each
def test_large_rounds_take_the_array_paths(policy):
    """200 jobs at 6 jobs/hour on 108 GPUs: rounds of 16 gangs and more, queues of 48 entries and more."""
    from hetopt.arena.engine import FAST_KEYS
    from hetopt.arena.execution import FAST_GANGS

    w = A.at_load(A.gavel_trace("msr/seed=0/ed69ec", "36:36:36").subset(range(200)), 6.0, seed=0)
    inst = A.to_gavel(w)
    sim = simulate(inst, policy, record_rounds=True, max_size=None)
    assert max(len(r["placement"]) for r in sim.rounds) >= max(FAST_GANGS, 2 * FAST_KEYS // 3)
    run = A.execute(w, A.make_policy(policy))
    assert np.array_equal(run.completion, sim.completion)
