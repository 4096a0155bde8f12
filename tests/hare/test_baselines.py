"""Baselines of Section 7.1: hand-derived cases and feasibility against the exact optimum."""

import pytest

from hetopt.errors import InstanceError
from hetopt.hare import BASELINES, HareInstance, check_schedule, gavel_fifo, random_instance, sched_allox, \
    sched_homo, solve_exact, srtf

OBJ_RTOL = 1e-6


def test_gavel_fifo_by_hand(tiny):
    # job0 alone on its fastest GPU0: rounds end 1.25, 2.5; job1 waits for both GPUs (2.5): 2.5 + 3 = 5.5
    sol = gavel_fifo(tiny)
    assert check_schedule(tiny, sol) == pytest.approx(2.5 + 2 * 5.5)


def test_srtf_by_hand(tiny):
    # t=0 job0 r0 on GPU0; t=1 job1 gang on GPU1 [1, 2.5) and GPU0 [1, 4); t=2.5 job0 r1 on GPU1 -> 5.0
    sol = srtf(tiny)
    assert check_schedule(tiny, sol) == pytest.approx(5.0 + 2 * 4.0)


def test_sched_allox_by_hand(tiny):
    # p = [[2.5, 5], [6, 3]]: matching job0 -> GPU0, job1 -> GPU1; C = 2.5 and 0.5 + 3 = 3.5
    sol = sched_allox(tiny)
    assert check_schedule(tiny, sol) == pytest.approx(2.5 + 2 * 3.5)
    assert sol.gpu.tolist() == [0, 0, 1, 1]


def test_sched_homo_is_speed_oblivious():
    # one job, GPU0 ten times slower: the oblivious scheduler takes the first free GPU (GPU0),
    # Gavel's FIFO the fastest idle one
    inst = HareInstance(arrival=[0], weight=[1], rounds=[1], tasks_per_round=[1],
                        compute_time=[[10.0, 1.0]], sync_time=[[0, 0]])
    assert check_schedule(inst, sched_homo(inst)) == pytest.approx(10.0)
    assert check_schedule(inst, gavel_fifo(inst)) == pytest.approx(1.0)


@pytest.mark.parametrize("seed", range(5))
def test_baselines_feasible_and_not_below_optimum(seed):
    inst = random_instance(seed, n_jobs=3, n_gpus=2, max_total_tasks=6)
    opt = solve_exact(inst)
    for name, f in BASELINES.items():
        sol = f(inst)
        assert sol.bound is None and sol.status.value == "feasible" and sol.method == name
        assert check_schedule(inst, sol) >= opt.objective * (1 - OBJ_RTOL)


def test_gang_baselines_need_enough_gpus():
    inst = HareInstance(arrival=[0], weight=[1], rounds=[1], tasks_per_round=[3],
                        compute_time=[[1.0, 2.0]], sync_time=[[0.0, 0.0]])
    for f in (gavel_fifo, srtf, sched_homo):
        with pytest.raises(InstanceError, match="tasks_per_round"):
            f(inst)
    check_schedule(inst, sched_allox(inst))
