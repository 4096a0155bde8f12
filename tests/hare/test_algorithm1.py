"""Algorithm 1 line by line on hand-derived cases."""

import numpy as np
import pytest

from hetopt.errors import HetoptError
from hetopt.hare import HareInstance, check_schedule, generate_instance, list_schedule, schedule, solve_relaxation


def test_lines_5_to_17_by_hand(tiny):
    # tasks: 0 = job0/r0, 1 = job0/r1, 2 = job1/t0, 3 = job1/t1; order pi = 0, 2, 3, 1
    start, gpu = list_schedule(tiny, np.array([0.0, 3.0, 1.0, 2.0]))
    # task0 -> GPU0 at 0 (phi0 = 1); task2 -> GPU1 at 0.5 (phi1 = 2); task3 -> GPU0 at 1 (phi0 = 4);
    # task1 available at 1.25, GPU1 (phi1 = 2) -> starts at 2, ends 4 + sync 0.5
    assert start.tolist() == [0.0, 2.0, 0.5, 1.0]
    assert gpu.tolist() == [0, 1, 1, 0]
    assert check_schedule(tiny, (start, gpu)).raise_if_invalid().objective == pytest.approx(4.5 + 2 * 4.0)


def test_earliest_finish_variant_by_hand(tiny):
    start, gpu = list_schedule(tiny, np.array([0.0, 3.0, 1.0, 2.0]), "earliest_finish")
    assert start.tolist() == [0.0, 1.25, 0.5, 2.0]
    assert gpu.tolist() == [0, 0, 1, 1]
    assert check_schedule(tiny, (start, gpu)).raise_if_invalid().objective == pytest.approx(2.5 + 2 * 3.5)


def test_earliest_start_fastest_by_hand(tiny):
    # task0 (a=0): both GPUs free at 0, tie -> faster GPU0 (1.0 < 2.0), phi0 = 1;
    # task2 (a=0.5): GPU1 starts at 0.5, GPU0 at 1 -> GPU1, phi1 = 2; task3: GPU0 at 1 (vs 2) -> GPU0, phi0 = 4;
    # task1 available 1.25: GPU1 at 2 (vs GPU0 at 4) -> GPU1, ends 4 + 0.5 -- same as printed here
    start, gpu = list_schedule(tiny, np.array([0.0, 3.0, 1.0, 2.0]), "earliest_start_fastest")
    assert start.tolist() == [0.0, 2.0, 0.5, 1.0] and gpu.tolist() == [0, 1, 1, 0]


def test_earliest_start_fastest_prefers_the_fast_idle_gpu():
    # one task, GPU0 slow and GPU1 fast, both idle: printed line 12 takes GPU0 (argmin phi, index tie),
    # the proof's reading takes the fast one
    inst = HareInstance(arrival=[0], weight=[1], rounds=[1], tasks_per_round=[1],
                        compute_time=[[10.0, 1.0]], sync_time=[[0.0, 0.0]])
    assert list_schedule(inst, np.zeros(1))[1].tolist() == [0]
    assert list_schedule(inst, np.zeros(1), "earliest_start_fastest")[1].tolist() == [1]
    assert schedule(inst, gpu_rule="earliest_start_fastest").method == "algorithm1_esf"


def test_order_breaking_rounds_is_rejected(tiny):
    with pytest.raises(HetoptError, match="before all of round 0"):
        list_schedule(tiny, np.array([3.0, 0.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match="gpu_rule"):
        list_schedule(tiny, np.zeros(4), "fastest")


def test_schedule_records_its_ordering(tiny):
    rl = solve_relaxation(tiny)
    a = schedule(tiny, rl)
    # one name for the proven bound: the relaxation's, with the schedule's gap against it (before: bound None
    # beside lower_bound, and an exact solution printed lower_bound: None next to its bound)
    assert a.ordering == "relaxation" and a.bound == rl.bound and a.gap == pytest.approx((a.objective - rl.bound) / rl.bound)
    assert a.status.value == "feasible" and a.method == "algorithm1" and "lower_bound" not in a.summary()
    np.testing.assert_allclose(a.info["H"], rl.x_hat + tiny.task_compute.max(axis=1) / 2)
    b = schedule(tiny, ordering="lp")
    assert b.ordering == "lp" and b.bound is not None
    c = schedule(tiny, gpu_rule="earliest_finish")
    assert c.method == "algorithm1_ef"
    with pytest.raises(ValueError, match="ordering"):
        schedule(tiny, ordering="random")


@pytest.mark.parametrize("seed", range(3))
def test_lp_ordering_on_larger_instances_is_feasible(seed):
    inst = generate_instance(seed=seed, n_jobs=20, n_gpus=5, max_rounds=4, max_tasks=3, max_total_tasks=None)
    for rule in ("earliest_available", "earliest_finish"):
        sol = schedule(inst, ordering="lp", gpu_rule=rule)
        assert check_schedule(inst, sol).raise_if_invalid().objective == pytest.approx(sol.objective)
        assert sol.bound <= sol.objective


def test_task_records(tiny):
    sol = schedule(tiny)
    rec = sol.tasks
    assert len(rec) == tiny.n_tasks and set(rec[0]) == {"job", "round", "task", "gpu", "start", "compute_end", "sync_end"}
    table = sol.task_table()
    np.testing.assert_allclose(table["sync_end"], sol.sync_end)
    csv = sol.to_csv()
    assert csv.splitlines()[0] == "job,round,task,gpu,start,compute_end,sync_end"
    assert len(csv.splitlines()) == tiny.n_tasks + 1
    assert sol.completion.tolist() == [max(r["sync_end"] for r in rec if r["job"] == n) for n in range(2)]


def test_user_gpu_rule_plug_in(tiny):
    # a user's rule written from the earliest-finish definition must give the by-hand schedule above
    def my_earliest_finish(inst, i, t_i, phi):
        n = inst.task_job[i]
        return int(np.argmin(np.maximum(phi, t_i) + inst.compute_time[n]))

    start, gpu = list_schedule(tiny, np.array([0.0, 3.0, 1.0, 2.0]), my_earliest_finish)
    assert start.tolist() == [0.0, 1.25, 0.5, 2.0] and gpu.tolist() == [0, 0, 1, 1]
    # always GPU 1: tasks queue on it in priority order (0, 2, 3, 1) from their available times
    start, gpu = list_schedule(tiny, np.array([0.0, 3.0, 1.0, 2.0]), lambda inst, i, t, phi: 1)
    assert gpu.tolist() == [1, 1, 1, 1]
    assert start.tolist() == [0.0, 5.0, 2.0, 3.5]  # task0 0-2 (+0.5 sync), task2 2-3.5, task3 3.5-5, task1 5
    sol = schedule(tiny, solve_relaxation(tiny), gpu_rule=my_earliest_finish)
    assert sol.method == "my_earliest_finish"
    assert check_schedule(tiny, sol).ok
    with pytest.raises(HetoptError, match="gpu_rule returned 7"):
        list_schedule(tiny, np.array([0.0, 3.0, 1.0, 2.0]), lambda inst, i, t, phi: 7)
