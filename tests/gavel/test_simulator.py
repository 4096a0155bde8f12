"""Gavel's round simulator: completion times derived by hand, invariants on generated workloads.

The hand-derived cases run the clean mechanism (hetopt's idealised loop, HiGHS): its semantics are
those of before issue 23.  Gavel's own loop (the default) has its tests in test_gavel_mechanism.py.
"""

import numpy as np
import pytest

from hetopt.errors import ArgumentError
from hetopt.gavel import GavelInstance, generate_instance, simulate
from hetopt.gavel.policies import POLICIES

CLEAN = {"mechanism": "clean", "solver": "highs"}


def test_single_job_runs_on_the_fastest_type_in_rounds():
    # 1000 steps at 2 steps/s on type 0: 500 s = one full 360 s round + 140 s.
    inst = GavelInstance(["a", "b"], [1, 1], ["J"], [1], [1000.0], [0.0], [[2.0, 1.0]])
    r = simulate(inst, "max_min_fairness", **CLEAN)
    assert r.completion[0] == pytest.approx(500.0)
    assert [rd["placement"] for rd in r.rounds] == [{0: 0}, {0: 0}]
    assert r.rounds[1]["end"] == pytest.approx(500.0)


def test_two_jobs_one_gpu_alternate_and_late_arrival_waits_for_recomputation():
    # One GPU; J0 at 0 (720 steps at 1/s), J1 arrives at 100 s (360 steps).  Round 1 [0, 360]: J0 alone
    # (J1 not yet there).  At 360 the allocation is stale but the last reset was at 0 < 1920 s ago:
    # J1 waits, J0 runs [360, 720] and completes at 720.  At 720 (still < 1920) nothing of the
    # allocation is left to run: time jumps to 1920, the allocation is recomputed, J1 runs to 2280.
    inst = GavelInstance(["a"], [1], ["A", "B"], [1, 1], [720.0, 360.0], [0.0, 100.0], [[1.0], [1.0]])
    r = simulate(inst, "max_min_fairness", **CLEAN)
    np.testing.assert_allclose(r.completion, [720.0, 2280.0])
    np.testing.assert_allclose(r.recompute_times, [0.0, 1920.0])
    # recomputing on every event: J1 joins at 360 and the jobs share the GPU (ties: job order)
    r0 = simulate(inst, "max_min_fairness", recompute_interval=0.0, **CLEAN)
    assert r0.recompute_times[:2] == [0.0, 360.0]
    assert r0.completion.max() == pytest.approx(1080.0)


@pytest.mark.parametrize("mechanism", ["gavel", "clean"])
@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_every_policy_finishes_a_generated_workload(policy, mechanism):
    from hetopt.gavel import check_schedule

    inst = generate_instance(n_jobs=8, capacity=(2, 2, 2), jobs_per_hour=4.0, seed=5)
    if POLICIES[policy].packing and mechanism == "clean":
        with pytest.raises(ArgumentError, match="does not pack"):
            simulate(inst, policy, mechanism=mechanism)
        return
    r = simulate(inst, policy, mechanism=mechanism)
    assert np.all(np.isfinite(r.completion))
    if not POLICIES[policy].packing:  # a packed job may run slower than alone
        bound = inst.total_steps / inst.effective_throughput().max(axis=1)
        assert np.all(r.jct >= bound * (1 - 1e-9))
    assert r.makespan == pytest.approx(r.completion.max()) and r.average_jct == pytest.approx(r.jct.mean())
    check_schedule(inst, r).raise_if_invalid()  # capacity of every type, one type per job, steps, completions


def test_bad_policy_is_named():
    inst = generate_instance(n_jobs=3, seed=0)
    with pytest.raises(ArgumentError, match="policy"):
        simulate(inst, "srtf")


def test_type_order_moves_a_zero_allocation_job():
    # One job faster on type 1 (columns listed slow first): its allocation is all on type 1, but with
    # the column order the work-conserving fill visits type 0 first and runs it there (priority 0).
    inst = GavelInstance(["slow", "fast"], [1, 1], ["J"], [1], [720.0], [0.0], [[1.0, 2.0]])
    assert simulate(inst, "max_min_fairness", **CLEAN).completion[0] == pytest.approx(720.0)
    assert simulate(inst, "max_min_fairness", type_order="fastest", **CLEAN).completion[0] == pytest.approx(360.0)
    assert simulate(inst, "max_min_fairness", type_order=[1, 0], **CLEAN).completion[0] == pytest.approx(360.0)
    for bad in ("slowest", [0, 0], [1, 2], [0.0, 1.0]):
        with pytest.raises(ArgumentError, match="type_order"):
            simulate(inst, "max_min_fairness", type_order=bad)
