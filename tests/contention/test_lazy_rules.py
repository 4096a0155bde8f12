"""The simulator asks every admission rule through ``lazy_rule``: the same decisions and the same reads.

``lazy_rule`` hands the simulator AdaDUAL and SRSF(n) without their argument checks (they were half of
a run's time) and without a QueryLog per query (the remaining sizes read through a function); any
other rule reads a QueryLog. A user's rule that wraps the checked public function must give the same
run, to the bit, under both accountings (the authors' accounting also depends on which running tasks
the rule read, in order).
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from hetopt.contention import Policy, adadual, generate_instance, simulate, srsf_rule
from hetopt.contention.accounting import QueryLog
from hetopt.contention.admission import lazy_rule, make_admission
from hetopt.errors import ArgumentError


def _wrapped(rule):
    """The checked rule behind a plain function: the simulator cannot recognise it and calls it as is."""
    def user_rule(server_tasks, remaining, m_new, b, eta):
        return rule(server_tasks, remaining, m_new, b, eta)
    return user_rule


@pytest.fixture(scope="module")
def workload():
    # 60 jobs: AdaDUAL starts all-reduces SRSF(1) holds back, and the authors' accounting changes the JCTs
    return generate_instance(seed=3, n_jobs=60, iterations=(10, 30), arrival_window=10.0)


@pytest.mark.parametrize("accounting", ["correct", "authors"])
@pytest.mark.parametrize("name", ["adadual", "srsf2"])
def test_built_in_rule_runs_as_the_checked_rule(workload, name, accounting):
    fast = simulate(workload, Policy(name, "rand", seed=1), transfer_accounting=accounting, record=False)
    slow = simulate(workload, Policy(_wrapped(make_admission(name)), "rand", seed=1, label=name),
                    transfer_accounting=accounting, record=False)
    assert np.array_equal(fast.jct, slow.jct)
    assert fast.avg_gpu_utilization == slow.avg_gpu_utilization


def test_lazy_rule_maps_only_the_built_ins():
    from hetopt.contention import admission

    assert lazy_rule(adadual) is admission._adadual_lazy
    core = lazy_rule(partial(srsf_rule, n=3))
    assert core([{1, 2}], {1: 1.0, 2: 1.0}.__getitem__, 1.0, 1.0, 0.5) == (True, [])
    assert core([{1, 2, 3}], {1: 1.0, 2: 1.0, 3: 1.0}.__getitem__, 1.0, 1.0, 0.5) == (False, [])
    for user in (_wrapped(adadual), partial(srsf_rule, 2)):  # positional n: not make_admission's shape, asked as given
        asked = lazy_rule(user)
        assert asked is not admission._adadual_lazy and not isinstance(asked, partial)
    with pytest.raises(ArgumentError, match="n"):
        lazy_rule(partial(srsf_rule, n=0))


def test_lazy_rules_decide_and_read_as_the_rules_on_a_query_log():
    rng = np.random.default_rng(1)
    for _ in range(2_000):
        servers = [set(rng.choice(6, size=rng.integers(0, 3), replace=False).tolist()) for _ in range(rng.integers(1, 4))]
        left = {c: float(rng.choice([0.0, rng.uniform(0, 500)])) for c in range(6)}
        m_new, b, eta = float(rng.uniform(0, 600)), float(rng.uniform(1e-4, 1e-2)), float(rng.uniform(0, 1e-2))
        for rule in (adadual, partial(srsf_rule, n=1), partial(srsf_rule, n=3), _wrapped(adadual)):
            calls = []
            log = QueryLog.over(servers, lambda c: calls.append(c) or left[c])
            expected = (rule(servers, log, m_new, b, eta), log.read)
            got_calls = []
            got = lazy_rule(rule)(servers, lambda c: got_calls.append(c) or left[c], m_new, b, eta)
            assert got == expected and got_calls == calls, (servers, left, m_new)


def test_a_log_over_server_sets_is_the_log_over_their_union():
    sets = [{3, 1}, set(), {1, 7}]
    for reads in ([], [7], [1, 3, 1], [9]):
        logs = [QueryLog(sorted({1, 3, 7}), float), QueryLog.over(sets, float)]
        got = []
        for log in logs:
            try:
                got.append([log[k] for k in reads])
            except KeyError as exc:
                got.append(("KeyError", exc.args))
        assert got[0] == got[1] and logs[0].read == logs[1].read
        assert list(logs[0]) == list(logs[1]) == [1, 3, 7] and len(logs[1]) == 3 and (5 in logs[1]) is False
