"""OASiS in the arena: on one GPU type, the arena's admissions are hetopt.oasis's Alg. 1 on the converted instance."""

import numpy as np
import pytest

import hetopt.arena as A
from hetopt import oasis
from hetopt.arena.convert import oasis_slots, to_oasis
from hetopt.arena.paper_oasis import OASiS
from hetopt.errors import ArgumentError, SizeLimitError

L = 360.0


def _workload(seed, n_jobs=10, types=("v100",)):
    """Servers of 1-2 GPUs, jobs of 1-2 GPUs arriving on slot boundaries, 1-5 slots of work."""
    rng = np.random.default_rng(seed)
    R = len(types)
    server_type = np.repeat(np.arange(R), 2)
    thr = np.round(rng.uniform(1.0, 4.0, size=(n_jobs, R)), 2)
    sf = rng.choice([1, 1, 2], size=n_jobs)
    steps = np.round(thr.max(axis=1) * L * rng.uniform(0.5, 5.0, size=n_jobs))
    arrival = np.sort(rng.integers(0, 4, size=n_jobs)) * L
    return A.Workload(tuple(types), server_type, rng.choice([1, 2], size=2 * R), [float("inf")] * (2 * R),
                      tuple(f"job{j}" for j in range(n_jobs)), arrival.astype(float), sf, steps, np.ones(n_jobs),
                      thr * sf[:, None], np.zeros(n_jobs))


def test_slots_and_converter():
    w = _workload(0, types=("k80", "v100"))
    slots = oasis_slots(w, L)
    for j in range(w.n_jobs):
        for r in range(w.n_types):
            t = w.steps[j] / (w.throughput[j, r] * L)
            assert slots[j, r] - 1 < t <= slots[j, r]
    inst = to_oasis(w, slot_length=L)
    assert np.array_equal(inst.arrival, w.arrival // L + 1)
    assert np.array_equal(inst.epochs, slots.min(axis=1))
    assert np.array_equal(inst.worker_capacity[:, 0], w.capacity)
    assert np.array_equal(inst.worker_demand[:, 0], w.scale_factor)
    with pytest.raises(ArgumentError, match="slot_length"):
        to_oasis(w, slot_length=0.0)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("cap", [None, 3.0])
def test_one_type_admissions_are_oasis_alg1(seed, cap):
    w = _workload(seed)
    ref = oasis.simulate(to_oasis(w, slot_length=L), "oasis", options={"log_ratio_cap": cap})
    pol = OASiS(slot_length=L, log_ratio_cap=cap)
    sim = A.simulate(w, pol)
    assert pol.payoffs == pytest.approx(ref.payoffs, rel=1e-9)
    admitted = {i for i, p in ref.payoffs.items() if p > 0}
    assert set(pol.admitted) == admitted
    for i in admitted:  # the reserved plan is OASiS's schedule: its worker slots on the one type
        assert pol.plan[i] == (0, set((np.flatnonzero(ref.schedules[i].workers[0] > 0) + 1).tolist()))
    A.check_schedule(w, sim).raise_if_invalid()
    assert np.isfinite(sim.completion).all()  # the arena runs every job, rejected ones on idle GPUs


def test_two_types_best_payoff_over_types():
    w = _workload(3, n_jobs=8, types=("k80", "v100"))
    pol = OASiS(slot_length=L)
    sim = A.simulate(w, pol)
    A.check_schedule(w, sim).raise_if_invalid()
    for i, (r, slots) in pol.plan.items():
        assert w.throughput[i, r] > 0 and len(slots) == oasis_slots(w, L)[i, r]
    assert sorted(pol.payoffs) == list(range(w.n_jobs))


def test_options_and_size_guard():
    with pytest.raises(ArgumentError, match="slot_length"):
        A.simulate(_workload(0), "oasis", options={"slot_length": -1.0})
    w = _workload(0)
    huge = A.Workload(w.gpu_types, w.server_type, w.server_gpus, w.link_bandwidth, w.job_type, w.arrival,
                      w.scale_factor, w.steps * 1e5, w.weight, w.throughput, w.model_size)
    with pytest.raises(SizeLimitError, match="max_size"):
        A.simulate(huge, "oasis", options={"slot_length": 36.0})
