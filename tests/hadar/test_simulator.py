"""The round-based simulator and its policies: capacities, gangs, exact iteration counts, offline >= Hadar."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hetopt.errors import ArgumentError, InstanceError, ScheduleViolation
from hetopt.hadar import (
    POLICIES,
    HadarInstance,
    Utility,
    check_schedule,
    generate_instance,
    hadar_p1_schedule,
    motivating_example,
    simulate,
    solve_exact,
    total_utility,
    validate_ratio,
)

ITER_RTOL = 1e-9
OBJ_RTOL = 1e-6


def _check_rounds(inst, res, *, copies: bool):
    total = np.zeros(inst.n_jobs)
    for k, rnd in enumerate(res.rounds):
        A = rnd["allocation"].astype(np.int64)
        assert np.all(A.sum(axis=0) <= inst.capacity), f"round {k} exceeds a capacity"
        n = A.sum(axis=(1, 2))
        if copies:  # HadarE: whole gangs, one or more copies
            assert np.all(n % inst.gpus == 0)
        else:
            assert np.all((n == 0) | (n == inst.gpus)), f"round {k} breaks a gang"
        assert np.all(rnd["iterations"][n == 0] == 0)
        total += rnd["iterations"]
    np.testing.assert_allclose(total, inst.total_iterations, rtol=ITER_RTOL)


def single_type_gangs_fit(inst) -> bool:
    """Every job has a type it can run on with at least W_j GPUs in the cluster (checked job by job)."""
    return all(any(inst.throughput[j, r] > 0 and int(inst.capacity[:, r].sum()) >= int(inst.gpus[j])
                   for r in range(inst.n_types)) for j in range(inst.n_jobs))


@pytest.mark.parametrize("policy", ["gavel", "tiresias"])
def test_single_type_policies_refuse_a_gang_no_type_holds_at_once(policy):
    """One GPU of each type and a gang of 2: Hadar mixes the types, Gavel and Tiresias run a job on one type.
    Tiresias used to spin to the stall guard (1,000,000 rounds, 16 s) before saying so."""
    import time

    inst = HadarInstance(capacity=[[1, 0], [0, 1]], arrival=[0, 0], gpus=[2, 1], epochs=[2, 1],
                         iterations_per_epoch=[10, 10], throughput=[[1.0, 2.0], [1.0, 2.0]],
                         utility=Utility("effective_throughput"), slot_length=60.0)
    assert not single_type_gangs_fit(inst)
    t0 = time.perf_counter()
    with pytest.raises(InstanceError, match=rf"{policy} cannot run job 0: its gang of 2 GPUs"):
        simulate(inst, policy)
    assert time.perf_counter() - t0 < 1.0
    assert simulate(inst, "hadar").completion.size == 2  # the cross-type gang runs under Hadar


@settings(derandomize=True, deadline=None, max_examples=12)
@given(st.integers(0, 10_000), st.sampled_from(sorted(POLICIES)), st.sampled_from([0.0, 10.0]))
def test_rounds_respect_capacity_gangs_and_iteration_totals(seed, policy, delay):
    inst = generate_instance(n_jobs=5, n_machines=3, seed=seed, max_gpus_per_type=3)
    try:
        res = simulate(inst, policy, restart_delay=delay)
    except InstanceError as exc:  # Gavel and Tiresias cannot run a gang larger than every single type
        assert policy in ("gavel", "tiresias") and f"{policy} cannot run" in str(exc)
        assert not single_type_gangs_fit(inst)
        return
    _check_rounds(inst, res, copies=policy == "hadare")
    assert np.all(res.jct > 0)
    assert res.total_duration == pytest.approx(np.max(res.completion))
    assert 0 < res.utilization <= 1 + 1e-9
    assert 0 < res.cluster_utilization <= 1 + 1e-9
    assert res.total_utility == pytest.approx(total_utility(inst, res.jct))


@pytest.mark.parametrize("seed", range(6))
def test_offline_optimum_is_at_least_hadar(seed):
    inst = generate_instance(n_jobs=4, n_machines=2, seed=seed, utility="sigmoid" if seed % 2 else "effective_throughput")
    w, chk = hadar_p1_schedule(inst)
    assert chk.ok
    opt = solve_exact(inst)
    assert opt.objective >= chk.objective * (1 - OBJ_RTOL)
    cert = validate_ratio(inst)
    assert cert.proven and cert.holds and cert.ratio >= 1 - OBJ_RTOL


def test_restart_delay_costs_time():
    inst = HadarInstance(capacity=[[1]], arrival=[0], gpus=[1], epochs=[10], iterations_per_epoch=[6],
                         throughput=[[1.0]], utility="effective_throughput", slot_length=30.0)
    # 60 iterations at 1 it/s: 10 s restart, then 20 + 30 + 10 s of work over three rounds.
    res = simulate(inst, "hadar", restart_delay=10.0)
    assert res.jct[0] == pytest.approx(70.0)
    assert simulate(inst, "hadar", restart_delay=0.0).jct[0] == pytest.approx(60.0)


def test_hadare_copies_share_the_work_by_rate():
    # one job, two single-GPU machines at 1 and 3 it/s, 8 s rounds, 40 iterations.  Round 1: the
    # fast copy alone (24) cannot finish, so both run, sharing 10 / 30 and completing 8 + 24 = 32.
    # Round 2: the fast copy alone finishes the last 8 in 8/3 s (last-round rule).
    inst = HadarInstance(capacity=[[1, 0], [0, 1]], arrival=[0], gpus=[1], epochs=[40], iterations_per_epoch=[1],
                         throughput=[[1.0, 3.0]], utility="effective_throughput", slot_length=8.0)
    res = simulate(inst, "hadare", restart_delay=0.0)
    assert res.jct[0] == pytest.approx(8.0 + 8.0 / 3.0)
    assert res.rounds[0]["allocation"].sum() == 2 and res.rounds[0]["iterations"][0] == pytest.approx(32.0)
    np.testing.assert_array_equal(res.rounds[1]["allocation"][0], [[0, 0], [0, 1]])
    assert simulate(inst, "hadar", restart_delay=0.0).jct[0] == pytest.approx(40 / 3)


def test_hadare_last_round_keeps_only_the_fastest_copy_needed():
    # 30 iterations: the fast copy alone finishes them within a 100 s round.
    inst = HadarInstance(capacity=[[1, 0], [0, 1]], arrival=[0], gpus=[1], epochs=[30], iterations_per_epoch=[1],
                         throughput=[[0.1, 3.0]], utility="effective_throughput", slot_length=100.0)
    res = simulate(inst, "hadare", restart_delay=0.0)
    np.testing.assert_array_equal(res.rounds[0]["allocation"][0], [[0, 0], [0, 1]])


def test_yarn_cs_is_non_preemptive():
    inst = generate_instance(n_jobs=6, n_machines=2, seed=5)
    res = simulate(inst, "yarn_cs", restart_delay=0.0)
    for j in range(inst.n_jobs):
        ran = [k for k, r in enumerate(res.rounds) if r["allocation"][j].any()]
        assert ran == list(range(ran[0], ran[-1] + 1)), f"job {j} was preempted"
        assert all(np.array_equal(res.rounds[ran[0]]["allocation"][j], res.rounds[k]["allocation"][j]) for k in ran)


def test_gavel_runs_each_job_on_one_type():
    res = simulate(motivating_example(), "gavel", restart_delay=0.0)
    for r in res.rounds:
        assert np.all(np.count_nonzero(r["allocation"].sum(axis=1), axis=1) <= 1)


def test_hadar_rounds_are_p1_schedules():
    inst = generate_instance(n_jobs=4, n_machines=2, seed=2)
    res = simulate(inst, "hadar", restart_delay=0.0)
    assert check_schedule(inst, res.schedule().astype(np.int64)).ok


def test_completed_fraction_is_a_cdf():
    res = simulate(generate_instance(n_jobs=5, n_machines=2, seed=1), "hadar")
    f = res.completed_fraction([0.0, res.total_duration / 2, res.total_duration])
    assert f[0] == 0.0 and f[-1] == 1.0 and np.all(np.diff(f) >= 0)


def test_unknown_policy_and_stuck_policy():
    inst = generate_instance(n_jobs=2, n_machines=2, seed=0)
    with pytest.raises(ArgumentError, match="policy"):
        simulate(inst, "srtf")
    with pytest.raises(ArgumentError, match="policy 'hadar'"):
        simulate(inst, "hadar", options={"time_limit": 3})  # not an option of HadarPolicy

    class Idle:
        name = "idle"

        def reset(self, inst):
            pass

        def allocate(self, state):
            return []

    with pytest.raises(ScheduleViolation, match="unfinished"):
        simulate(inst, Idle(), max_rounds=5)
    with pytest.raises(ArgumentError, match="options"):
        simulate(inst, Idle(), options={"beam_width": 1})
    with pytest.raises(ArgumentError, match="Policy protocol"):
        simulate(inst, object())


def test_hadare_with_eq10_estimates():
    inst = generate_instance(n_jobs=5, n_machines=3, seed=11)
    exact = simulate(inst, "hadare")
    same = simulate(inst, "hadare", options={"initial_throughput": inst.throughput.copy()})
    np.testing.assert_allclose(same.jct, exact.jct)
    wrong = np.where(inst.throughput > 0, inst.throughput[:, ::-1] + 0.5, 1.0)  # misleading estimates
    res = simulate(inst, "hadare", options={"initial_throughput": wrong})
    _check_rounds(inst, res, copies=True)
    with pytest.raises(ArgumentError, match="initial_throughput"):
        simulate(inst, "hadare", options={"initial_throughput": np.zeros_like(inst.throughput)})


def test_theorem2_violated_by_the_greedy_pass_not_by_the_exact_dp():
    """Finding (instances/hadar2024_theorem2_greedy_violation.json): admitting jobs greedily in
    queue order breaks Theorem 2's 2*alpha; the exact DP does not."""
    from hetopt.data import load_json

    inst = HadarInstance.from_json(load_json("hadar2024_theorem2_greedy_violation"))
    greedy = validate_ratio(inst, options={"beam_width": 1})
    assert greedy.proven and greedy.holds is False and greedy.ratio > 3 * greedy.limit
    exact = validate_ratio(inst, options={"beam_width": None})
    assert exact.holds and exact.ratio == pytest.approx(1.0, rel=OBJ_RTOL)


def test_livelock_is_reported_not_looped():
    """Gavel moves both jobs of hadar2024_p2_relaxes_p1 every 1 s round and each move costs a 10 s
    restart: no job ever advances.  The simulator stops with the cause instead of looping."""
    import hetopt
    from hetopt.hadar.simulator import STALL_ROUNDS, simulate

    inst = hetopt.load_instance("hadar2024_p2_relaxes_p1")
    with pytest.raises(ScheduleViolation, match=f"{STALL_ROUNDS} consecutive rounds without advancing"):
        simulate(inst, "gavel")
    assert simulate(inst, "gavel", restart_delay=0.0).total_duration > 0  # the same policy ends without the delay


@pytest.mark.parametrize("policy", ["hadar", "hadare", "gavel", "tiresias", "yarn_cs"])
def test_check_schedule_reads_simulation_traces(policy):
    import copy

    import hetopt
    from hetopt.hadar import check_schedule, simulate

    inst = hetopt.load_instance("hadar2024_motivating")
    res = simulate(inst, policy)
    rep = check_schedule(inst, res)
    assert rep.ok, rep.violations
    assert rep.objective == pytest.approx(res.total_utility, rel=1e-12)
    busy = next(k for k, rd in enumerate(res.rounds) if rd["allocation"].sum() > 0)
    over = copy.copy(res)
    object.__setattr__(over, "rounds", [dict(rd) for rd in res.rounds])
    a = over.rounds[busy]["allocation"].astype(np.int64).copy()
    j, h, r = np.argwhere(a > 0)[0]
    a[j, h, r] += inst.capacity[h, r]  # more GPUs of that type than the machine has
    over.rounds[busy]["allocation"] = a
    assert any("capacity" in v for v in check_schedule(inst, over).violations)
    fast = copy.copy(res)
    object.__setattr__(fast, "rounds", [dict(rd) for rd in res.rounds])
    fast.rounds[busy]["iterations"] = np.asarray(res.rounds[busy]["iterations"]) * 2 + 1.0
    assert not check_schedule(inst, fast).ok


def test_compare_ranks_a_user_round_policy():
    import hetopt
    from hetopt.hadar import simulate

    inst = hetopt.load_instance("hadar2024_small")
    t = hetopt.compare(inst, methods=["hadar", "gavel"], policies={"mine": lambda i: simulate(i, "tiresias")})
    rows = {r[0]: dict(zip(t.columns, r, strict=True)) for r in t.rows}
    assert rows["mine"]["status"] == "feasible", rows["mine"]
