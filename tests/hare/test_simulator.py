import numpy as np
import pytest

from hetopt.errors import InstanceError
from hetopt.hare import cluster, generate_workload, schedule, simulate, srtf
from hetopt.hare.simulator import arrivals


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
    with pytest.raises(InstanceError, match="gpus"):
        generate_workload(3, ["t4"], seed=0)
    with pytest.raises(InstanceError, match="category"):
        generate_workload(3, ["v100"], seed=0, category_mix={"HPC": 1.0})


@pytest.mark.parametrize("process", ["poisson", "google"])
def test_arrivals(process):
    t = arrivals(200, process=process, rate=1.0, seed=1)
    assert t[0] == 0 and (np.diff(t) >= 0).all()
    assert 0.2 < 200 / t[-1] < 5  # about the requested rate
    with pytest.raises(ValueError):
        arrivals(3, process="weibull")


def test_replay_without_overhead_reproduces_the_plan():
    inst = generate_workload(15, cluster(v100=2, p100=2, k80=2), seed=0, rate=1.0)
    for plan in (schedule(inst, ordering="lp"), srtf(inst)):
        res = simulate(plan)
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
    res = simulate(plan, switch_overhead=0.5)
    assert res.switches > 0
    assert res.weighted_jct > plan.objective
    from hetopt.hare import check_schedule

    check_schedule(inst, res.executed).raise_if_invalid()
    with pytest.raises(ValueError):
        simulate(plan, switch_overhead=-1)


def test_keep_plan_times_replays_any_plan_exactly_and_only_delays():
    from hetopt.hare import gavel_fifo

    inst = generate_workload(15, cluster(v100=2, p100=1, k80=1), seed=3, rate=0.5, iterations_per_task=20)
    for plan in (gavel_fifo(inst), srtf(inst), schedule(inst, ordering="lp")):
        same = simulate(plan, keep_plan_times=True)
        assert same.executed.start.tolist() == plan.start.tolist()
        late = simulate(plan, switch_overhead=0.5, keep_plan_times=True)
        assert (late.executed.start >= plan.start - 1e-12).all()
        assert late.weighted_jct > plan.objective
