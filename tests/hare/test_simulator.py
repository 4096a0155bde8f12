import numpy as np
import pytest

from hetopt.errors import ArgumentError, ScheduleViolation
from hetopt.hare import POLICIES, check_schedule, cluster, generate_workload, replay, schedule, simulate, srtf
from hetopt.hare.generators import arrivals


def test_workload_is_seeded_and_uses_gavel_times():
    a = generate_workload(12, cluster(v100=2, p100=1, k80=1), seed=3)
    b = generate_workload(12, cluster(v100=2, p100=1, k80=1), seed=3)
    assert a.to_dict() == b.to_dict()
    assert a.n_gpus == 4 and a.gpu_names[0] == "v100" + "0"
    # iterations_per_task / throughput; ResNet-50 (bs 64) on a K80 is ~7x slower than on a V100
    from hetopt.data import gavel_throughputs

    tab = {e["job_type"]: e["iterations_per_second"] for e in gavel_throughputs()["entries"] if e["scale_factor"] == 1}
    k = [n for n, name in enumerate(a.job_names) if name.endswith("ResNet50")]
    if k:
        assert a.compute_time[k[0], 0] == pytest.approx(50 / tab["ResNet-50 (batch size 64)"]["v100"], rel=1e-5)
    assert (a.tasks_per_round <= 4).all()


def test_workload_rejects_unknown_gpus_and_categories():
    with pytest.raises(ArgumentError, match="gpus"):
        generate_workload(3, ["t4"], seed=0)
    with pytest.raises(ArgumentError, match="category"):
        generate_workload(3, ["v100"], seed=0, category_mix={"HPC": 1.0})


@pytest.mark.parametrize("process", ["poisson", "google"])
def test_arrivals(process):
    t = arrivals(200, process=process, rate=1.0, seed=1)
    assert t[0] == 0 and (np.diff(t) >= 0).all()
    assert 0.2 < 200 / t[-1] < 5  # about the requested rate
    with pytest.raises(ArgumentError, match="process"):
        arrivals(3, process="weibull")


def test_replay_without_overhead_reproduces_the_plan():
    inst = generate_workload(15, cluster(v100=2, p100=2, k80=2), seed=0, rate=1.0)
    for plan in (schedule(inst, ordering="lp"), srtf(inst)):
        res = replay(plan)
        if plan.method == "algorithm1":  # semi-active: replayed exactly
            assert res.weighted_jct == pytest.approx(plan.objective, rel=1e-12)
        else:  # event-driven plans may leave gaps that the executor closes
            assert res.weighted_jct <= plan.objective * (1 + 1e-12)
            assert (res.executed.start <= plan.start + 1e-9).all()
        x, f = res.jct_cdf()
        assert f[-1] == 1.0 and (np.diff(x) >= 0).all()
        assert ((res.utilization > 0) & (res.utilization <= 1 + 1e-12)).all()


def test_switching_overhead_delays():
    inst = generate_workload(15, cluster(v100=2, p100=2, k80=2), seed=0, rate=1.0)
    plan = schedule(inst, ordering="lp")
    res = replay(plan, switch_overhead=0.5)
    assert res.switches > 0
    assert res.weighted_jct > plan.objective
    check_schedule(inst, res.executed).raise_if_invalid()
    with pytest.raises(ArgumentError, match="switch_overhead"):
        replay(plan, switch_overhead=-1)


def test_keep_plan_times_replays_any_plan_exactly_and_only_delays():
    from hetopt.hare import gavel_fifo

    inst = generate_workload(15, cluster(v100=2, p100=1, k80=1), seed=3, rate=0.5, iterations_per_task=20)
    for plan in (gavel_fifo(inst), srtf(inst), schedule(inst, ordering="lp")):
        same = replay(plan, keep_plan_times=True)
        assert same.executed.start.tolist() == plan.start.tolist()
        late = replay(plan, switch_overhead=0.5, keep_plan_times=True)
        assert (late.executed.start >= plan.start - 1e-12).all()
        assert late.weighted_jct > plan.objective


def test_simulate_runs_every_policy_as_its_function_does():
    """``simulate(inst, name)`` is the policy's schedule; with an overhead, its replay keeping the decisions."""
    inst = generate_workload(12, cluster(v100=2, p100=1, k80=1), seed=1, rate=0.5, iterations_per_task=20)
    for name, policy in POLICIES.items():
        direct, sim = policy(inst), simulate(inst, name)
        assert sim.method == direct.method == name
        assert sim.start.tolist() == direct.start.tolist() and sim.gpu.tolist() == direct.gpu.tolist()
        assert sim.objective == direct.objective
        check_schedule(inst, sim).raise_if_invalid()
        late = simulate(inst, name, switch_overhead=0.5)
        same = replay(direct, switch_overhead=0.5, keep_plan_times=True)
        assert late.objective == same.weighted_jct and late.info["switches"] == same.switches
        check_schedule(inst, late).raise_if_invalid()


def test_simulate_takes_policy_objects_and_options(tiny):
    def first_gpu_in_order(inst):  # every task on GPU 0, one after another (feasible by construction)
        start, t = np.zeros(inst.n_tasks), 0.0
        ends = {}
        for i in range(inst.n_tasks):
            n, r = int(inst.task_job[i]), int(inst.task_round[i])
            t = max(t, inst.arrival[n], ends.get((n, r - 1), 0.0))
            start[i] = t
            t += inst.compute_time[n, 0]
            ends[(n, r)] = max(ends.get((n, r), 0.0), t + inst.sync_time[n, 0])
        return start, np.zeros(inst.n_tasks, dtype=int)

    sol = simulate(tiny, first_gpu_in_order)
    assert sol.method == "first_gpu_in_order"
    assert sol.objective == pytest.approx(check_schedule(tiny, sol).raise_if_invalid().objective)
    with pytest.raises(ScheduleViolation):
        simulate(tiny, lambda inst: (np.zeros(inst.n_tasks), np.zeros(inst.n_tasks, dtype=int)))
    assert simulate(tiny, "srtf", options={"backfill": True}).method == "srtf"
    with pytest.raises(ArgumentError, match="takes no options"):
        simulate(tiny, "gavel_fifo", options={"backfill": True})
    with pytest.raises(ArgumentError, match="policy is 'fifo'"):
        simulate(tiny, "fifo")
    with pytest.raises(ArgumentError, match="policy is an int"):
        simulate(tiny, 3)
    with pytest.raises(ArgumentError, match="inst"):
        simulate({"kind": "hare"}, "srtf")
    with pytest.raises(ArgumentError, match="switch_overhead"):
        simulate(tiny, "srtf", switch_overhead=float("nan"))


def _numpy_loop(inst, order, gpu, ready0, switch=None):
    """The per-task loop as it was written on numpy scalars (the reference of the list-based loops)."""
    free, start, round_end, last, switches = np.zeros(inst.n_gpus), np.zeros(inst.n_tasks), {}, np.full(inst.n_gpus, -1), 0
    for i in order:
        n, r, m = int(inst.task_job[i]), int(inst.task_round[i]), int(gpu[i])
        ready = inst.arrival[n] if r == 0 else round_end[(n, r - 1)]
        gpu_ready = free[m]
        if switch is not None and last[m] not in (-1, n):
            switches += 1
            gpu_ready += switch
        start[i] = max(ready, gpu_ready, ready0[i])
        free[m] = start[i] + inst.compute_time[n, m]
        last[m] = n
        round_end[(n, r)] = max(round_end.get((n, r), -np.inf), free[m] + inst.sync_time[n, m])
    return start, switches


def test_the_list_loops_are_the_numpy_loops_to_the_bit():
    """replay and the local searches' semi-active schedule run on Python lists: on plans of every kind, with
    integer and fractional arrivals and an overhead, the starts equal the numpy-scalar loop's bit for bit."""
    from hetopt.hare import gavel_fifo
    from hetopt.hare.listsched import _semi_active, start_order

    for seed, rate in ((0, 1.0), (3, 0.5), (7, 2.0)):
        inst = generate_workload(12, cluster(v100=2, p100=1, k80=2), seed=seed, rate=rate)
        for plan in (gavel_fifo(inst), srtf(inst), schedule(inst, ordering="lp")):
            order = np.lexsort((inst.task_round, plan.start))
            for overhead, keep in ((0.0, False), (0.37, False), (0.37, True)):
                got = replay(plan, switch_overhead=overhead, keep_plan_times=keep)
                ref, switches = _numpy_loop(inst, order, plan.gpu, plan.start if keep else np.full(inst.n_tasks, -np.inf),
                                            overhead)
                assert got.executed.start.tolist() == ref.tolist() and got.switches == switches
            semi = _semi_active(inst, start_order(inst, plan.start), plan.gpu)
            ref, _ = _numpy_loop(inst, start_order(inst, plan.start), plan.gpu, np.full(inst.n_tasks, -np.inf))
            assert semi is not None and semi[0].tolist() == ref.tolist()


def _numpy_list_schedule(inst, priority, rule):
    """Lines 4-17 of Algorithm 1 as they were written on numpy arrays (the reference of the list-based loop)."""
    import heapq

    tc, ts, start, gpu = inst.task_compute, inst.task_sync, np.zeros(inst.n_tasks), np.zeros(inst.n_tasks, dtype=int)
    phi, phi_arr, round_end = [(0.0, g) for g in range(inst.n_gpus)], np.zeros(inst.n_gpus), {}
    for i in np.argsort(priority, kind="stable"):
        n, r = int(inst.task_job[i]), int(inst.task_round[i])
        t_i = float(inst.arrival[n]) if r == 0 else round_end[(n, r - 1)]
        if rule == "earliest_finish":
            m = int(np.argmin(np.maximum(phi_arr, t_i) + tc[i]))
            x = max(t_i, phi_arr[m])
        elif rule == "earliest_start_fastest":
            st = np.maximum(phi_arr, t_i)
            m = int(np.lexsort((np.arange(inst.n_gpus), tc[i], st))[0])
            x = st[m]
        else:
            phi_m, m = heapq.heappop(phi)
            x = max(t_i, phi_m)
        start[i], gpu[i] = x, m
        end_c = x + tc[i, m]
        if rule == "earliest_available":
            heapq.heappush(phi, (end_c, m))
        else:
            phi_arr[m] = end_c
        round_end[(n, r)] = max(round_end.get((n, r), -np.inf), end_c + ts[i, m])
    return start, gpu


def test_list_schedule_is_the_numpy_loop_to_the_bit():
    """Algorithm 1's list scheduling runs on Python lists: every GPU rule gives the numpy loop's starts and GPUs
    bit for bit, on priorities with ties (GPUs idle before a task all tie on its start)."""
    from hetopt.hare.listsched import GPU_RULES, list_schedule

    rng = np.random.default_rng(2)
    for seed in range(4):
        inst = generate_workload(10, cluster(v100=2, p100=1, k80=2), seed=seed, rate=1.5)
        base = inst.task_round * 1e3 + inst.task_job  # rounds in order
        for priority in (base, base + rng.integers(0, 3, inst.n_tasks) * 0.25):
            for rule in GPU_RULES:
                got, ref = list_schedule(inst, priority, rule), _numpy_list_schedule(inst, priority, rule)
                assert got[0].tolist() == ref[0].tolist() and got[1].tolist() == ref[1].tolist(), (seed, rule)
