"""The event-driven fluid simulator: conservation, analytical cases, aggregation, checker, policies."""

import dataclasses
import json
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from hetopt.contention import (
    POLICIES,
    ContentionInstance,
    ContentionSimulation,
    ContentionSolution,
    Policy,
    adadual,
    check_schedule,
    first_fit,
    get_policy,
    simulate,
)
from hetopt.contention.simulator import RECORD_TASKS
from hetopt.errors import ArgumentError, ScheduleViolation

from .contention_workloads import small_workload

REL = 1e-9
ADMISSIONS = [("adadual", 2), ("srsf1", 1), ("srsf2", 2), ("srsf3", 3)]


@pytest.mark.parametrize("admission, limit", ADMISSIONS)
@pytest.mark.parametrize("placement", ["lwf", "ff", "ls", "rand"])
def test_schedule_is_feasible(workload, admission, limit, placement):
    sol = simulate(workload, Policy(admission, placement, seed=1), record=True)
    assert sol.solver == f"{'ada-srsf' if admission == 'adadual' else admission}+" \
                         f"{'lwf1' if placement == 'lwf' else placement}"
    assert check_schedule(workload, sol, max_concurrent=limit).ok
    assert sol.objective == pytest.approx(float(np.sum(sol.jct)))
    assert np.all(sol.jct > 0) and 0 < sol.avg_gpu_utilization <= 1


def test_contention_happens_and_the_checker_sees_it():
    seen = False
    for seed in range(3):
        inst = small_workload(seed)
        sol = simulate(inst, "srsf2", record=True)
        assert check_schedule(inst, sol, max_concurrent=2).ok
        seen |= not check_schedule(inst, sol, max_concurrent=1).ok
    assert seen, "no 2-way contention in the test workloads: the tests would not exercise eq. (5)"


def test_checker_detects_corruption():
    inst = small_workload(0)
    sol = simulate(inst, "ada_srsf", record=True)
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
    for sol in (simulate(inst, "ada_srsf"), simulate(inst, "srsf1"), simulate(inst, replace(POLICIES["srsf3"], placement="ff"))):
        assert sol.jct[0] == pytest.approx(7 * period, rel=REL)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("policy", ["ada_srsf", "srsf1", "srsf2"])
def test_aggregation_is_exact(seed, policy):
    inst = small_workload(seed)
    a = simulate(inst, policy)
    b = simulate(inst, policy, aggregate=False)
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
    assert np.allclose(simulate(twice, "ada_srsf").jct, 2 * simulate(inst, "ada_srsf").jct, rtol=1e-7)


def test_memory_makes_jobs_wait():
    inst = ContentionInstance(n_servers=1, gpus_per_server=1, gpu_memory=10.0, a=0.0, b=1.0, eta=0.0,
                              arrival=[0.0, 0.0], n_gpus=[1, 1], iterations=[3, 2], t_f=[1.0, 1.0],
                              t_b=[1.0, 1.0], model_size=[0.0, 0.0], memory=[6.0, 6.0])
    sol = simulate(inst, "ada_srsf", record=True)
    assert check_schedule(inst, sol).ok
    # SRSF: the shorter job (2 iterations) is placed first and runs alone
    assert sol.finish.tolist() == [10.0, 4.0] and sol.placed_at.tolist() == [4.0, 0.0]


def test_fixed_placement_checks():
    inst = small_workload(0)
    with pytest.raises(ArgumentError, match="placement"):
        simulate(inst, "ada_srsf", placement=[[0]] * (inst.n_jobs - 1))
    bad = [list(range(int(n))) for n in inst.n_gpus]
    bad[0] = [0] * int(inst.n_gpus[0]) if inst.n_gpus[0] > 1 else [999]
    with pytest.raises(ArgumentError, match=r"placement\[0\]"):
        simulate(inst, "ada_srsf", placement=bad)
    fixed = simulate(inst, "ada_srsf").placement
    sol = simulate(inst, "srsf2", placement=[list(p) for p in fixed])
    assert sol.solver == "srsf2+fixed" and sol.placement == fixed


def test_same_seed_same_result():
    inst = small_workload(2)
    a = simulate(inst, replace(POLICIES["ada_srsf_rand"], seed=7))
    b = simulate(inst, replace(POLICIES["ada_srsf_rand"], seed=7))
    assert a.placement == b.placement and np.array_equal(a.finish, b.finish)


def test_bad_policy_names():
    from hetopt.contention import make_admission

    with pytest.raises(ArgumentError, match="name is 'srsf0'"):
        make_admission("srsf0")
    with pytest.raises(ArgumentError, match="admission is 'srsf0'"):
        Policy("srsf0")
    with pytest.raises(ArgumentError, match="policy is 'srsf0'"):
        simulate(small_workload(0), "srsf0")
    with pytest.raises(ArgumentError, match="placement"):
        Policy("adadual", "best")
    with pytest.raises(ArgumentError, match="kappa"):
        Policy("adadual", kappa=0)
    with pytest.raises(ArgumentError, match="policy"):
        simulate(small_workload(0), 3)


def test_check_report_recomputes_the_objective():
    from hetopt.result import CheckReport

    inst = ContentionInstance(n_servers=1, gpus_per_server=1, gpu_memory=10.0, a=0.0, b=1.0, eta=0.0,
                              arrival=[0.0, 0.0], n_gpus=[1, 1], iterations=[3, 2], t_f=[1.0, 1.0],
                              t_b=[1.0, 1.0], model_size=[0.0, 0.0], memory=[6.0, 6.0])
    rep = check_schedule(inst, simulate(inst, "ada_srsf", record=True))
    assert isinstance(rep, CheckReport) and rep.ok
    # finishes 10 and 4 (test_memory_makes_jobs_wait), both arrive at 0: eq. (6) = 14
    assert rep.objective == pytest.approx(14.0)
    assert rep.info["finish"].tolist() == [10.0, 4.0]
    unrecorded = check_schedule(inst, simulate(inst, "ada_srsf", record=False))
    assert not unrecorded.ok and unrecorded.objective is None


def test_every_policy_of_the_registry_is_a_method_that_simulates_it():
    from hetopt.registry import get_kind

    kind = get_kind("contention")
    inst = small_workload(1)
    for name, policy in POLICIES.items():
        method = kind.method(name)
        assert method.category == policy.category and method.description == policy.description
        a, b = method(inst), simulate(inst, name)
        assert a.solver == b.solver and np.array_equal(a.finish, b.finish)
    assert kind.policies is POLICIES


def test_registry_names_give_the_documented_pairs():
    assert POLICIES["ada_srsf"].admission == "adadual" and POLICIES["ada_srsf"].placement == "lwf"
    assert POLICIES["ada_srsf_lwf4"].kappa == 4 and POLICIES["ada_srsf_rand"].placement == "rand"
    assert [POLICIES[f"srsf{n}"].admission for n in (1, 2, 3)] == ["srsf1", "srsf2", "srsf3"]
    assert get_policy("srsf2") is POLICIES["srsf2"]


def test_a_policy_object_of_the_protocol():
    """Any object with an admission rule and a placement; the same schedule as the registry's pair."""
    inst = small_workload(2)
    mine = SimpleNamespace(admission=adadual, placement=first_fit, label="mine")
    sol = simulate(inst, mine, record=True)
    assert sol.solver == "mine+first_fit"
    assert np.array_equal(sol.finish, simulate(inst, "ada_srsf_ff").finish)
    assert check_schedule(inst, sol, max_concurrent=2).ok
    named = simulate(inst, Policy("srsf1", "ls"))
    assert named.solver == "srsf1+ls"


def test_a_placement_that_breaks_the_rules_is_a_violation():
    inst = small_workload(0)
    with pytest.raises(ScheduleViolation, match="distinct GPUs"):
        simulate(inst, Policy("adadual", lambda free, load, gps, n, mem: np.zeros(n, dtype=int)))


def test_rand_draws_afresh_each_run():
    inst = small_workload(2)
    a, b = simulate(inst, "ada_srsf_rand"), simulate(inst, "ada_srsf_rand")
    assert a.placement == b.placement
    other = simulate(inst, replace(POLICIES["ada_srsf_rand"], seed=8))
    assert other.placement != a.placement


def test_record_default_follows_the_size():
    small = small_workload(0)
    assert simulate(small, "srsf1").trace
    big = ContentionInstance(n_servers=1, gpus_per_server=1, gpu_memory=10.0, a=0.0, b=1.0, eta=0.0,
                             arrival=[0.0], n_gpus=[1], iterations=[RECORD_TASKS + 1], t_f=[1.0], t_b=[1.0],
                             model_size=[0.0], memory=[1.0])
    assert simulate(big, "srsf1").trace == ()
    assert len(simulate(big, "srsf1", record=True).trace) == 2 * (RECORD_TASKS + 1)


@pytest.mark.parametrize("option, value", [("record", 1), ("aggregate", "yes"), ("transfer_accounting", "mine"),
                                           ("max_size", -1), ("options", {"zzz": 1}), ("options", "kappa")])
def test_bad_options_are_argument_errors(option, value):
    with pytest.raises(ArgumentError, match=option):
        simulate(small_workload(0), "srsf1", **{option: value})


def test_simulated_solution_round_trip_and_summary():
    inst = small_workload(1)
    sol = simulate(inst, "ada_srsf", record=True)
    again = ContentionSimulation.from_dict(json.loads(json.dumps(sol.to_dict())))
    assert again.to_dict() == sol.to_dict() and isinstance(again, ContentionSolution)
    assert (again.completion == sol.finish).all() and again.policy == "ada_srsf"
    assert again.trace == sol.trace and isinstance(again.trace[0].where, (int, tuple))
    assert check_schedule(inst, again).ok
    summary = sol.summary()
    assert summary["total_jct"] == pytest.approx(sum(summary["jct"])) == pytest.approx(sol.objective)
    assert summary["method"] == sol.solver == "ada-srsf+lwf1" and "trace" not in summary
    json.dumps(summary)
