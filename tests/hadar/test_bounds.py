"""Makespan lower bounds and the exact fewest-rounds search, against hand-derived values."""

import dataclasses

import numpy as np
import pytest

from hetopt.errors import SizeLimitError
from hetopt.hadar import HadarInstance, motivating_example, simulate, trace_workload
from hetopt.hadar.bounds import capacity_lower_bound, makespan_lower_bound, min_rounds


def _inst(cap, W, work, X, arrival=None, L=1.0):
    J = len(W)
    return HadarInstance(capacity=cap, arrival=arrival or [0] * J, gpus=W, epochs=work, iterations_per_epoch=[1] * J,
                         throughput=X, utility="effective_throughput", slot_length=L)


def test_lp_bound_two_identical_jobs_on_one_gpu():
    # two jobs of 10 iterations at 1 it/s on a single GPU: the makespan is 20 s exactly
    b = makespan_lower_bound(_inst([[1]], [1, 1], [10, 10], [[1.0], [1.0]]))
    assert b.seconds == pytest.approx(20.0, rel=1e-9)
    assert b.closed_form == pytest.approx(20.0, rel=1e-9)


def test_lp_bound_uses_both_types():
    # one GPU of each type, job A 2 it/s on type 0 only, job B 1 it/s on both; 10 iterations each.
    # B must run on type 1 while A runs on type 0: makespan max(5, 10) = 10; the LP also gives 10
    # (B could split, but its gang of one GPU runs at most 1 it/s).
    b = makespan_lower_bound(_inst([[1, 1]], [1, 1], [10, 10], [[2.0, 0.0], [1.0, 1.0]]))
    assert b.seconds == pytest.approx(10.0, rel=1e-9)


def test_lp_bound_respects_arrival():
    # a job arriving in slot 3 (slots of 2 s) with 4 s of work cannot finish before 10 s
    b = makespan_lower_bound(_inst([[1]], [1], [4], [[1.0]], arrival=[3], L=2.0))
    assert b.seconds == pytest.approx(10.0, rel=1e-9)


def test_bound_is_below_every_policy_on_a_small_trace():
    inst = trace_workload(24, seed=3, n_machines=6, hours_scale=0.05)
    b = makespan_lower_bound(inst)
    assert b.closed_form <= b.seconds * (1 + 1e-9)
    for p in ("hadar", "gavel", "tiresias", "yarn_cs"):
        r = simulate(inst, p, round_length=360.0, record_rounds=False)
        assert r.total_duration >= b.seconds * (1 - 1e-9), p


def test_lp_bound_is_scale_invariant():
    # multiplying every job's work by 1e6 multiplies the bound by 1e6 (the LP is scaled)
    inst = trace_workload(30, seed=1, n_machines=6, hours_scale=0.05)
    big = dataclasses.replace(inst, epochs=inst.epochs * 10**6, horizon=None)
    assert makespan_lower_bound(big).seconds == pytest.approx(makespan_lower_bound(inst).seconds * 1e6, rel=1e-6)


def test_capacity_bound_closed_form():
    inst = _inst([[2]], [1, 1, 1], [4, 4, 4], [[1.0], [1.0], [1.0]])
    assert capacity_lower_bound(inst) == pytest.approx(6.0)  # 12 GPU-seconds on 2 GPUs


def test_min_rounds_hand_cases():
    # one GPU, two jobs each needing 1.5 slots of work: 4 rounds (a round holds one gang; half-rounds are lost)
    assert min_rounds(_inst([[1]], [1, 1], [3, 3], [[2.0], [2.0]])) == 4
    # two GPUs, the same jobs: 2 rounds
    assert min_rounds(_inst([[2]], [1, 1], [3, 3], [[2.0], [2.0]])) == 2
    # gang of 2 on one GPU of each type runs at the slower rate: 6 iterations at 2 x 1 it/s -> 3 rounds
    assert min_rounds(_inst([[1, 1]], [2], [6], [[5.0, 1.0]])) == 3


def test_min_rounds_motivating_example_is_at_least_j3_alone():
    inst = motivating_example()
    # J3 (2 GPUs, 50 epochs): with 1 K80 its best gang is K80 + V100 at 10 epochs per round -> >= 5 rounds
    assert min_rounds(inst) >= 5
    assert min_rounds(inst) <= len(simulate(inst, "gavel", restart_delay=0.0).rounds)


def test_min_rounds_size_guard():
    inst = trace_workload(10, seed=0, n_machines=3)
    with pytest.raises(SizeLimitError, match="jobs"):
        min_rounds(inst)


def test_simulate_refuses_huge_jobs_quickly():
    inst = dataclasses.replace(motivating_example(), epochs=np.array([10**12, 1, 1]), horizon=10)
    with pytest.raises(SizeLimitError, match="max_rounds"):
        simulate(inst, "hadar")


def test_gpu_second_bound_holds_for_hadare_copies():
    # one job of 600 iterations at 1 it/s per GPU on 3 single-GPU machines: HadarE's copies
    # finish in about 200 s (+ restart), below the one-gang bound of 600 s but not below 200 s
    inst = HadarInstance(capacity=[[1], [1], [1]], arrival=[0], gpus=[1], epochs=[600], iterations_per_epoch=[1],
                         throughput=[[1.0]], utility="effective_throughput", slot_length=100.0)
    r = simulate(inst, "hadare", restart_delay=0.0)
    assert capacity_lower_bound(inst, one_gang=False) == pytest.approx(200.0)
    assert r.total_duration >= 200.0 - 1e-9
    assert r.total_duration < capacity_lower_bound(inst)  # the one-gang bound does not apply to HadarE
