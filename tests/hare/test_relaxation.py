"""Hare_Sched_RL: direct vs linearized forms, and RL <= OPT <= Algorithm 1."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hetopt.certify import Status
from hetopt.errors import SizeLimitError
from hetopt.hare import (
    HareInstance,
    build_relaxation,
    check_schedule,
    generate_instance,
    lp_ordering,
    schedule,
    solve_exact,
    solve_relaxation,
)

OBJ_RTOL = 1e-6
ABS = 1e-6


def test_hand_derived_relaxation_on_one_gpu():
    """p = (2, 1), w = (1, 1), one GPU: (9) reads 2 x0 + x1 >= 2, so RL = 4 = OPT (see the card)."""
    inst = HareInstance(arrival=[0, 0], weight=[1, 1], rounds=[1, 1], tasks_per_round=[1, 1],
                        compute_time=[[2.0], [1.0]], sync_time=[[0.0], [0.0]])
    for form in ("linear", "direct"):
        rl = solve_relaxation(inst, form)
        assert rl.status is Status.OPTIMAL
        assert rl.bound == pytest.approx(4.0, abs=ABS)
    alg = schedule(inst)
    assert alg.objective == pytest.approx(4.0)
    assert alg.start.tolist() == [1.0, 0.0]


@pytest.mark.parametrize("seed", range(4))
def test_direct_and_linear_agree(seed):
    inst = generate_instance(seed=seed, n_jobs=3, n_gpus=2, max_total_tasks=5)
    lin = solve_relaxation(inst, "linear")
    direct = solve_relaxation(inst, "direct")
    assert lin.status is Status.OPTIMAL and direct.status is Status.OPTIMAL
    assert lin.objective == pytest.approx(direct.objective, rel=OBJ_RTOL, abs=ABS)


def test_linear_relaxation_on_scip_agrees():
    inst = generate_instance(seed=7, n_jobs=3, n_gpus=2, max_total_tasks=5)
    a = solve_relaxation(inst, "linear", solver="highs")
    b = solve_relaxation(inst, "linear", solver="scip")
    assert a.objective == pytest.approx(b.objective, rel=OBJ_RTOL, abs=ABS)


@settings(max_examples=8, derandomize=True, deadline=None)
@given(seed=st.integers(0, 10_000), homogeneous=st.booleans())
def test_relaxation_le_optimum_le_algorithm1(seed, homogeneous):
    inst = generate_instance(seed=seed, n_jobs=3, n_gpus=2, max_total_tasks=6, homogeneous=homogeneous)
    rl = solve_relaxation(inst)
    opt = solve_exact(inst)
    alg = schedule(inst, rl)
    lp = schedule(inst, ordering="lp")
    for s in (opt, alg, lp):
        check_schedule(inst, s).raise_if_invalid()
    assert rl.bound <= opt.objective * (1 + OBJ_RTOL) + ABS
    assert opt.objective <= alg.objective * (1 + OBJ_RTOL) + ABS
    assert opt.objective <= lp.objective * (1 + OBJ_RTOL) + ABS
    assert lp.bound <= opt.objective * (1 + OBJ_RTOL) + ABS
    assert alg.bound == rl.bound


def test_subset_relaxation_between_full_and_optimum():
    inst = generate_instance(seed=3, n_jobs=3, n_gpus=2, max_total_tasks=6)
    full = solve_relaxation(inst)
    sub = solve_relaxation(inst, subsets=True)
    opt = solve_exact(inst)
    assert full.bound <= sub.bound * (1 + OBJ_RTOL) + ABS
    assert sub.bound <= opt.objective * (1 + OBJ_RTOL) + ABS
    with pytest.raises(SizeLimitError):
        build_relaxation(generate_instance(seed=0, n_jobs=6, max_rounds=3, max_tasks=3, max_total_tasks=None), subsets=True)


def test_bad_form():
    with pytest.raises(ValueError, match="form"):
        build_relaxation(generate_instance(seed=0), "quadratic")


def test_lp_ordering_is_a_lower_bound_and_respects_rounds():
    inst = generate_instance(seed=5, n_jobs=4, n_gpus=2, max_rounds=3, max_total_tasks=10)
    lp = lp_ordering(inst)
    assert lp.status is Status.OPTIMAL and lp.bound is not None
    # x-hat of round r+1 is at least x-hat of round r plus the fastest round time
    for n in range(inst.n_jobs):
        for r in range(int(inst.rounds[n]) - 1):
            a = lp.x_hat[inst.task_id(n, r, 0)]
            b = lp.x_hat[inst.task_id(n, r + 1, 0)]
            assert b >= a + inst.min_round_time[n] - ABS
