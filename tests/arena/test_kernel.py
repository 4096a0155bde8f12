"""The lean loop (hetopt.arena.kernel) is the general loop: the same completions, counters and policy views, bit for bit."""

import numpy as np
import pytest

import hetopt.arena as A
from hetopt.arena.kernel import applies
from hetopt.gavel import load_trace


class _Spy:
    """A policy that records what it sees at every reset (the policy's view of the run) and delegates."""

    def __init__(self, inner):
        self.inner, self.seen = inner, []

    def __getattr__(self, name):  # mode, name, pair_throughput, shuffle_types, ...: the inner policy's
        return getattr(self.inner, name)

    def reset(self, workload, options, *, seed):
        self.inner.reset(workload, options, seed=seed)

    def __call__(self, state):
        self.seen.append((state.now, state.index, state.jobs.copy(), state.attained.copy(), state.previous.copy(),
                          state.remaining.copy()))
        return self.inner(state)


def _both(w, name, **kw):
    runs, views = [], []
    for lean in (True, False):
        spy = _Spy(A.make_policy(name))
        runs.append(A.execute(w, spy, lean=lean, **kw))
        views.append(spy.seen)
    assert np.array_equal(runs[0].completion, A.execute(w, A.make_policy(name), **kw).completion)  # the spy is neutral
    return runs, views


def _assert_same(runs, views):
    lean, general = runs
    assert np.array_equal(lean.completion, general.completion)
    assert (lean.n_rounds, lean.n_resets, lean.restarts) == (general.n_rounds, general.n_resets, general.restarts)
    assert lean.busy_gpu_seconds == general.busy_gpu_seconds
    assert lean.compute_gpu_seconds == general.compute_gpu_seconds
    assert np.array_equal(lean.isolated_time, general.isolated_time)
    assert len(views[0]) == len(views[1]) == lean.n_resets
    for a, b in zip(*views, strict=True):
        assert a[:2] == b[:2]
        for x, y in zip(a[2:], b[2:], strict=True):
            assert np.array_equal(x, y)


@pytest.mark.parametrize("policy", ["max_min_fairness", "fifo", "max_sum_throughput", "fifo_random", "isolated",
                                    "finish_time_fairness", "max_min_fairness_water_filling", "allox"])
def test_lean_loop_is_the_general_loop_on_medium_test(policy):
    w = A.from_gavel(load_trace("medium_test", "4:4:4"))
    assert applies(A.make_policy(policy), A.Options(), w)
    _assert_same(*_both(w, policy))


@pytest.mark.parametrize("policy", [pytest.param("max_min_fairness", marks=pytest.mark.slow),  # 2.6 s each
                                    pytest.param("fifo_random", marks=pytest.mark.slow), "max_sum_throughput"])
def test_lean_loop_on_large_rounds(policy):
    """Rounds of many gangs (the array paths of both loops) and mixed scale factors."""
    w = A.at_load(A.gavel_trace("msr/seed=0/ed69ec", "36:36:36").subset(range(200)), 6.0, seed=0)
    _assert_same(*_both(w, policy))


def test_lean_loop_is_taken_only_where_it_applies():
    w = A.from_gavel(load_trace("small_test", "4:4:4"))
    assert applies(A.make_policy("fifo"), A.Options(), w)
    assert not applies(A.make_policy("tiresias"), A.Options(), w)
    assert not applies(A.make_policy("max_min_fairness"), A.Options(record_rounds=True), w)
    assert not applies(A.make_policy("max_min_fairness"), A.Options(restart_delay=10.0), w)
    packed = A.make_policy("max_min_fairness_packed")
    packed.reset(w, A.Options(), seed=0)
    assert not applies(packed, A.Options(), w)
