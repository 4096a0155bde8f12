"""The event-driven fluid simulator: conservation, analytical cases, aggregation, checker."""

import dataclasses

import numpy as np
import pytest

from hetopt.contention import (
    ContentionInstance,
    ada_srsf,
    adadual,
    check_schedule,
    make_admission,
    make_placement,
    schedule,
    simulate,
    srsf,
)
from hetopt.errors import InstanceError

from .contention_workloads import small_workload

REL = 1e-9
POLICIES = [("adadual", 2), ("srsf1", 1), ("srsf2", 2), ("srsf3", 3)]


@pytest.mark.parametrize("admission, limit", POLICIES)
@pytest.mark.parametrize("placement", ["lwf", "ff", "ls", "rand"])
def test_schedule_is_feasible(workload, admission, limit, placement):
    sol = schedule(workload, admission, placement, seed=1, record=True)
    assert check_schedule(workload, sol, max_concurrent=limit).ok
    assert sol.objective == pytest.approx(float(np.sum(sol.jct)))
    assert np.all(sol.jct > 0) and 0 < sol.avg_gpu_utilization <= 1


def test_contention_happens_and_the_checker_sees_it():
    seen = False
    for seed in range(3):
        inst = small_workload(seed)
        sol = srsf(inst, 2, record=True)
        assert check_schedule(inst, sol, max_concurrent=2).ok
        seen |= not check_schedule(inst, sol, max_concurrent=1).ok
    assert seen, "no 2-way contention in the test workloads: the tests would not exercise eq. (5)"


def test_checker_detects_corruption():
    inst = small_workload(0)
    sol = ada_srsf(inst, record=True)
    trace = list(sol.trace)
    i = next(j for j, r in enumerate(trace) if r.kind == "c")
    trace[i] = trace[i]._replace(end=trace[i].end + 0.5)
    bad = dataclasses.replace(sol, trace=tuple(trace))
    assert any("eq. (5)" in m for m in check_schedule(inst, bad).violations)
    dropped = dataclasses.replace(sol, trace=sol.trace[1:])
    assert not check_schedule(inst, dropped).ok


def _one_job(n_gpus, gps, size=500.0, iters=7):
    return ContentionInstance(n_servers=4, gpus_per_server=gps, gpu_memory=16000.0, a=1e-3, b=1e-3, eta=3e-4,
                              arrival=[2.0], n_gpus=[n_gpus], iterations=[iters], t_f=[0.03], t_b=[0.05],
                              model_size=[size], memory=[4000.0])


@pytest.mark.parametrize("n_gpus, multi", [(1, False), (4, False), (8, True), (16, True)])
def test_one_job_jct_is_analytical(n_gpus, multi):
    inst = _one_job(n_gpus, 4)
    period = 0.08 + (1e-3 + 1e-3 * 500.0 if multi else 0.0)
    for sol in (ada_srsf(inst), srsf(inst, 1), srsf(inst, 3, placement="ff")):
        assert sol.jct[0] == pytest.approx(7 * period, rel=REL)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("admission", ["adadual", "srsf1", "srsf2"])
def test_aggregation_is_exact(seed, admission):
    inst = small_workload(seed)
    a = simulate(inst, make_admission(admission), make_placement("lwf"))
    b = simulate(inst, make_admission(admission), make_placement("lwf"), aggregate=False)
    assert np.allclose(a.finish, b.finish, rtol=REL)
    assert np.allclose(a.gpu_busy, b.gpu_busy, rtol=1e-7)
    assert a.placement == b.placement
    assert a.n_events <= b.n_events


def test_time_scaling_is_metamorphic():
    inst = small_workload(1)
    d = inst.to_dict()
    for key in ("a", "b", "eta"):
        d[key] *= 2
    for key in ("arrival", "t_f", "t_b"):
        d[key] = [2 * x for x in d[key]]
    twice = ContentionInstance.from_dict(d)
    assert np.allclose(ada_srsf(twice).jct, 2 * ada_srsf(inst).jct, rtol=1e-7)


def test_memory_makes_jobs_wait():
    inst = ContentionInstance(n_servers=1, gpus_per_server=1, gpu_memory=10.0, a=0.0, b=1.0, eta=0.0,
                              arrival=[0.0, 0.0], n_gpus=[1, 1], iterations=[3, 2], t_f=[1.0, 1.0],
                              t_b=[1.0, 1.0], model_size=[0.0, 0.0], memory=[6.0, 6.0])
    sol = ada_srsf(inst, record=True)
    assert check_schedule(inst, sol).ok
    # SRSF: the shorter job (2 iterations) is placed first and runs alone
    assert sol.finish.tolist() == [10.0, 4.0] and sol.placed_at.tolist() == [4.0, 0.0]


def test_fixed_placement_checks():
    inst = small_workload(0)
    with pytest.raises(InstanceError, match="placement"):
        simulate(inst, adadual, [[0]] * (inst.n_jobs - 1))
    bad = [list(range(int(n))) for n in inst.n_gpus]
    bad[0] = [0] * int(inst.n_gpus[0]) if inst.n_gpus[0] > 1 else [999]
    with pytest.raises(InstanceError, match=r"placement\[0\]"):
        simulate(inst, adadual, bad)


def test_same_seed_same_result():
    inst = small_workload(2)
    a = ada_srsf(inst, placement="rand", seed=7)
    b = ada_srsf(inst, placement="rand", seed=7)
    assert a.placement == b.placement and np.array_equal(a.finish, b.finish)


def test_bad_policy_names():
    with pytest.raises(InstanceError, match="admission"):
        make_admission("srsf0")
    with pytest.raises(InstanceError, match="n is 0"):
        srsf(small_workload(0), 0)


def test_check_report_recomputes_the_objective():
    from hetopt.result import CheckReport

    inst = ContentionInstance(n_servers=1, gpus_per_server=1, gpu_memory=10.0, a=0.0, b=1.0, eta=0.0,
                              arrival=[0.0, 0.0], n_gpus=[1, 1], iterations=[3, 2], t_f=[1.0, 1.0],
                              t_b=[1.0, 1.0], model_size=[0.0, 0.0], memory=[6.0, 6.0])
    rep = check_schedule(inst, ada_srsf(inst, record=True))
    assert isinstance(rep, CheckReport) and rep.ok
    # finishes 10 and 4 (test_memory_makes_jobs_wait), both arrive at 0: eq. (6) = 14
    assert rep.objective == pytest.approx(14.0)
    assert rep.info["finish"].tolist() == [10.0, 4.0]
    unrecorded = check_schedule(inst, ada_srsf(inst))
    assert not unrecorded.ok and unrecorded.objective is None
