"""Baselines of Section 7.1: hand-derived cases and feasibility against the exact optimum."""

import pytest

from hetopt.errors import InstanceError
from hetopt.hare import (
    POLICIES,
    HareInstance,
    check_schedule,
    gavel_fifo,
    generate_instance,
    sched_allox,
    sched_allox_offline,
    sched_homo,
    sched_homo_offline,
    simulate,
    solve_exact,
    srtf,
    srtf_round,
)
from hetopt.hare.policies import OFFLINE, ONLINE

OBJ_RTOL = 1e-6


def test_gavel_fifo_by_hand(tiny):
    # job0 alone on its fastest GPU0: rounds end 1.25, 2.5; job1 waits for both GPUs (2.5): 2.5 + 3 = 5.5
    sol = gavel_fifo(tiny)
    assert check_schedule(tiny, sol).raise_if_invalid().objective == pytest.approx(2.5 + 2 * 5.5)


def test_srtf_round_by_hand(tiny):
    # t=0 job0 r0 on GPU0; t=1 job1 gang on GPU1 [1, 2.5) and GPU0 [1, 4); t=2.5 job0 r1 on GPU1 -> 5.0
    sol = srtf_round(tiny)
    assert check_schedule(tiny, sol).raise_if_invalid().objective == pytest.approx(5.0 + 2 * 4.0)


@pytest.mark.parametrize("f", [sched_allox_offline, sched_allox])
def test_sched_allox_by_hand(tiny, f):
    # p = [[2.5, 5], [6, 3]]: job0 -> GPU0 (C = 2.5, GPU0 free at 2.25); online at t = 0.5, job1 costs
    # 6 + 1.75 on GPU0 and 3 on the idle GPU1 -> GPU1, C = 0.5 + 3 = 3.5 (the offline matching agrees)
    sol = f(tiny)
    assert check_schedule(tiny, sol).raise_if_invalid().objective == pytest.approx(2.5 + 2 * 3.5)
    assert sol.gpu.tolist() == [0, 0, 1, 1]


def test_srtf_job_level_by_hand():
    # one GPU; A (a=0, p=1), B (a=0.1, p=5), C (a=0.2, p=1): A runs [0, 1); at 1 the shorter C goes first
    # (SRTF): C = 2, B = 7 -> 10; FIFO runs B before C: 1 + 6 + 7 = 14
    inst = HareInstance(arrival=[0, 0.1, 0.2], weight=[1, 1, 1], rounds=[1, 1, 1], tasks_per_round=[1, 1, 1],
                        compute_time=[[1.0], [5.0], [1.0]], sync_time=[[0.0], [0.0], [0.0]])
    assert check_schedule(inst, srtf(inst)).raise_if_invalid().objective == pytest.approx(10.0)
    assert check_schedule(inst, gavel_fifo(inst)).raise_if_invalid().objective == pytest.approx(14.0)


def test_srtf_job_level_holds_its_gang(tiny):
    # job0 takes GPU0 (its fastest) for both rounds (C = 2.5); job1 needs both GPUs and waits: 2.5 + 3 = 5.5.
    # The round-level SRTF preempts job0 between rounds instead (test above: 13.0)
    sol = srtf(tiny)
    assert check_schedule(tiny, sol).raise_if_invalid().objective == pytest.approx(2.5 + 2 * 5.5)
    assert check_schedule(tiny, srtf_round(tiny)).raise_if_invalid().objective == pytest.approx(13.0)


def test_sched_homo_online_vs_offline(tiny):
    # Smith ratios at mean speed: job0 1/3.75, job1 2/2.25.  Online, job0 is alone at 0 and takes GPU0 until
    # 2.5; job1 then runs [2.5, 5.5): 2.5 + 11.  Offline, job1 (not yet arrived) goes first at 0.5 on both
    # GPUs (3.5) and job0 after it on GPU0: 6 + 7
    assert check_schedule(tiny, sched_homo(tiny)).raise_if_invalid().objective == pytest.approx(13.5)
    assert check_schedule(tiny, sched_homo_offline(tiny)).raise_if_invalid().objective == pytest.approx(13.0)


@pytest.mark.parametrize("name", ["srtf", "sched_homo", "sched_allox"])
@pytest.mark.parametrize("seed", range(3))
def test_online_baselines_do_not_see_the_future(name, seed):
    # removing the last-arriving job cannot change any start decided before it arrives
    from hetopt.hare.generators import cluster, generate_workload

    inst = generate_workload(12, cluster(v100=2, p100=1, k80=1), seed=seed, rate=0.5, iterations_per_task=20)
    last = int(inst.arrival.argmax())
    keep = [n for n in range(inst.n_jobs) if n != last]
    d = inst.to_dict()
    for key in ("arrival", "weight", "rounds", "tasks_per_round", "compute_time", "sync_time", "job_names"):
        d[key] = [d[key][n] for n in keep]
    sub = HareInstance.from_dict(d)
    full, part = simulate(inst, name), simulate(sub, name)
    t_last = inst.arrival[last]
    for k, n in enumerate(keep):
        tasks_full = [i for r in range(int(inst.rounds[n])) for i in inst.round_tasks(n, r)]
        tasks_sub = [i for r in range(int(sub.rounds[k])) for i in sub.round_tasks(k, r)]
        for i_full, i_sub in zip(tasks_full, tasks_sub, strict=True):
            if part.start[i_sub] < t_last - 1e-9 or full.start[i_full] < t_last - 1e-9:
                assert full.start[i_full] == pytest.approx(part.start[i_sub])
                assert full.gpu[i_full] == part.gpu[i_sub]


def test_sched_homo_is_speed_oblivious():
    # one job, GPU0 ten times slower: the oblivious scheduler takes the first free GPU (GPU0),
    # Gavel's FIFO the fastest idle one
    inst = HareInstance(arrival=[0], weight=[1], rounds=[1], tasks_per_round=[1],
                        compute_time=[[10.0, 1.0]], sync_time=[[0, 0]])
    assert check_schedule(inst, sched_homo(inst)).raise_if_invalid().objective == pytest.approx(10.0)
    assert check_schedule(inst, sched_homo_offline(inst)).raise_if_invalid().objective == pytest.approx(10.0)
    assert check_schedule(inst, gavel_fifo(inst)).raise_if_invalid().objective == pytest.approx(1.0)


@pytest.mark.parametrize("seed", range(5))
def test_baselines_feasible_and_not_below_optimum(seed):
    inst = generate_instance(seed=seed, n_jobs=3, n_gpus=2, max_total_tasks=6)
    opt = solve_exact(inst)
    assert list(POLICIES) == [*ONLINE, *OFFLINE]
    for name in POLICIES:
        sol = simulate(inst, name)
        assert sol.bound is None and sol.status.value == "feasible" and sol.method == name
        assert check_schedule(inst, sol).raise_if_invalid().objective >= opt.objective * (1 - OBJ_RTOL)


def test_gang_baselines_need_enough_gpus():
    inst = HareInstance(arrival=[0], weight=[1], rounds=[1], tasks_per_round=[3],
                        compute_time=[[1.0, 2.0]], sync_time=[[0.0, 0.0]])
    for f in (gavel_fifo, srtf, sched_homo, srtf_round, sched_homo_offline):
        with pytest.raises(InstanceError, match="tasks_per_round"):
            f(inst)
        with pytest.raises(InstanceError, match="tasks_per_round"):
            simulate(inst, f.__name__)
    check_schedule(inst, sched_allox(inst)).raise_if_invalid()
    check_schedule(inst, sched_allox_offline(inst)).raise_if_invalid()
