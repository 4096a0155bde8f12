"""Baselines of Section V-A and the slotted simulator."""

import numpy as np
import pytest

from hetopt.errors import ArgumentError
from hetopt.oasis import FIFOPolicy, OasisInstance, RRHPolicy, check_schedule, generate_instance, simulate
from hetopt.oasis.cluster import place_round_robin

from .conftest import tiny_instance


def _two_jobs():
    """Two identical jobs, one server that fits 2 workers: 4 worker-slots of work each."""
    return OasisInstance(horizon=6, worker_capacity=[[2, 10]], ps_capacity=[[2, 10]], arrival=[1, 1], epochs=[2, 2],
                         chunks=[2, 2], minibatches=[1, 1], minibatch_time=[1.0, 1.0], gradient_size=[0.0, 0.0],
                         worker_demand=[[1, 1], [1, 1]], ps_demand=[[1, 1], [1, 1]],
                         utility=[{"type": "table", "values": [6, 5, 4, 3, 2, 1]}] * 2, resource_names=("cpu", "bandwidth"))


def test_fifo_known_answer():
    """FIFO with 2 workers each: job 0 runs slots 1-2, job 1 slots 3-4: f(1) + f(3) = 5 + 3."""
    inst = _two_jobs()
    s = simulate(inst, "fifo", options={"workers": 2})
    assert check_schedule(inst, s).ok
    assert {i: x.completion for i, x in s.schedules.items()} == {0: 2, 1: 4}
    assert s.total_utility == pytest.approx(8.0)


def test_drf_known_answer():
    """DRF shares the server: one worker each, both finish in slot 4: 2 f(3) = 6."""
    inst = _two_jobs()
    s = simulate(inst, "drf")
    assert check_schedule(inst, s).ok
    assert {i: x.completion for i, x in s.schedules.items()} == {0: 4, 1: 4}
    assert s.total_utility == pytest.approx(6.0)


@pytest.mark.parametrize("seed", range(3))
def test_baselines_are_feasible(seed):
    inst = generate_instance(n_jobs=15, horizon=30, n_worker_servers=6, n_ps_servers=6, seed=seed)
    for name in ("fifo", "drf", "rrh", "dorm"):
        s = simulate(inst, name)
        rep = check_schedule(inst, s)
        assert rep.ok, (s.solver, rep.violations)
        assert set(s.info["unfinished"]).isdisjoint(s.admitted)


def test_round_robin_placement():
    free = np.array([[2.0], [1.0], [0.0]])
    out, nxt = place_round_robin(free, np.array([1.0]), 3, start=0)
    assert out.tolist() == [2, 1, 0]
    out, _ = place_round_robin(free, np.array([1.0]), 5, start=1)
    assert out.sum() == 3  # only 3 fit


def test_rrh_threshold_rejects_everything_when_high():
    inst = tiny_instance(1, n_jobs=4, horizon=5)
    s = simulate(inst, "rrh", options={"workers": 1, "threshold": 1e9})
    assert s.admitted == () and s.total_utility == 0.0
    assert simulate(inst, RRHPolicy(inst, workers=1, threshold=1e9)).admitted == ()


def test_policy_options_are_checked():
    inst = _two_jobs()
    for bad in (0, [1, 2, 3], 1.5, True):
        with pytest.raises(ArgumentError, match="workers"):
            simulate(inst, "fifo", options={"workers": bad})
    with pytest.raises(ArgumentError, match="threshold"):
        simulate(inst, "rrh", options={"threshold": float("nan")})
    with pytest.raises(ArgumentError, match="theta"):
        simulate(inst, "dorm", options={"theta": 1.0})
    with pytest.raises(ArgumentError, match="seed"):
        FIFOPolicy(inst, seed=-1)
