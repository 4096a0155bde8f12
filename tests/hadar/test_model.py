"""P1 (exact MILP) against hand-solved cases, the checker, and P2 over all schedules; P2/P3 duality."""

from pathlib import Path

import numpy as np
import pytest

from hetopt.certify import Status
from hetopt.errors import SizeLimitError
from hetopt.hadar import (
    HadarInstance,
    build_p1,
    build_p2,
    build_p3,
    check_schedule,
    enumerate_schedules,
    generate_instance,
    solve_exact,
    solve_p2,
    solve_p3,
    split_schedule,
)
from hetopt.testing import check_card

OBJ_RTOL = 1e-6
CARD = Path(__file__).resolve().parents[2] / "models" / "hadar2024.md"


def test_two_jobs_one_gpu_shortest_first():
    # A: 2 iterations, B: 1 iteration, one GPU at 1 it/s, 1 s slots, U = E N / duration.
    # B first: 1/1 + 2/3 = 5/3; A first: 2/2 + 1/3 = 4/3.
    inst = HadarInstance(capacity=[[1]], arrival=[0, 0], gpus=[1, 1], epochs=[2, 1], iterations_per_epoch=[1, 1],
                         throughput=[[1.0], [1.0]], utility="effective_throughput", slot_length=1.0)
    sol = solve_exact(inst)
    assert sol.status is Status.OPTIMAL
    assert sol.objective == pytest.approx(5 / 3, rel=OBJ_RTOL)
    np.testing.assert_array_equal(sol.finish_slot, [2, 0])


def test_bottleneck_of_a_mixed_gang():
    # a gang of 2 on one fast (4 it/s) and one slow (1 it/s) GPU runs at 2 * 1 it/s:
    # 8 iterations take 4 slots, utility 8 / 4 = 2 (a wrong (1b) would give 8 it/s and 8).
    inst = HadarInstance(capacity=[[1, 1]], arrival=[0], gpus=[2], epochs=[8], iterations_per_epoch=[1],
                         throughput=[[4.0, 1.0]], utility="effective_throughput", slot_length=1.0)
    sol = solve_exact(inst)
    assert sol.objective == pytest.approx(2.0, rel=OBJ_RTOL)
    assert sol.finish_slot[0] == 3


def test_arrival_is_respected():
    inst = HadarInstance(capacity=[[1]], arrival=[2], gpus=[1], epochs=[1], iterations_per_epoch=[1],
                         throughput=[[1.0]], utility="effective_throughput", slot_length=1.0)
    sol = solve_exact(inst)
    assert sol.finish_slot[0] == 2 and sol.objective == pytest.approx(1.0)


@pytest.mark.parametrize("seed", range(6))
def test_p1_schedule_passes_the_independent_checker(seed):
    inst = generate_instance(n_jobs=4, n_machines=2, seed=seed, utility="sigmoid" if seed % 2 else "effective_throughput")
    sol = solve_exact(inst)
    chk = check_schedule(inst, sol.schedule)
    assert chk.ok, chk.violations
    assert chk.objective == pytest.approx(sol.objective, rel=OBJ_RTOL)
    assert sol.bound >= sol.objective * (1 - OBJ_RTOL)


def test_checker_catches_violations():
    inst = generate_instance(n_jobs=3, n_machines=2, seed=1)
    w = solve_exact(inst).schedule.copy()
    j, h, r, t = map(int, np.argwhere(w > 0)[0])
    bad = w.copy()
    bad[j, h, r, t] += 1  # breaks the gang (and maybe capacity)
    assert not check_schedule(inst, bad).ok
    short = w.copy()
    short[j] = 0
    assert any("(1a)" in v for v in check_schedule(inst, short).violations)


@pytest.mark.parametrize("seed", [0, 1, 6, 8, 9, 11, 12, 14])
def test_p1_equals_p2_over_all_schedules(seed):
    """P2 with every schedule of every job (and every job admitted) has P1's optimum;
    the paper's P2 with (2b) '<= 1' can only be larger (it may reject jobs)."""
    inst = generate_instance(n_jobs=3, n_machines=2, seed=seed, max_slots=2)
    p1 = solve_exact(inst)
    S = [enumerate_schedules(inst, j, limit=3000) for j in range(inst.n_jobs)]
    p2_all, _ = solve_p2(inst, S, require_all=True)
    p2, _ = solve_p2(inst, S)
    assert p2_all.objective == pytest.approx(p1.objective, rel=OBJ_RTOL)
    assert p2.objective >= p1.objective * (1 - OBJ_RTOL)


@pytest.mark.parametrize("seed", range(5))
def test_p2_relaxation_and_p3_strong_duality(seed):
    inst = generate_instance(n_jobs=4, n_machines=2, seed=seed)
    rng = np.random.default_rng(seed)
    # candidate schedules: the optimum's plus up to six random ones per job
    S = split_schedule(solve_exact(inst).schedule)
    for j in range(inst.n_jobs):
        try:
            extra = enumerate_schedules(inst, j, limit=200)
        except SizeLimitError:  # too many to list: keep the optimum's schedule only
            extra = []
        for k in rng.permutation(len(extra))[:6]:
            S[j].append(extra[k])
    lp, y = solve_p2(inst, S, relax=True)
    dual, k, mu = solve_p3(inst, S)
    assert lp.objective == pytest.approx(dual.objective, rel=OBJ_RTOL)
    assert np.all(k >= -1e-9) and np.all(mu >= -1e-9)
    ip, _ = solve_p2(inst, S)
    assert ip.objective <= lp.objective * (1 + OBJ_RTOL)


def test_card_components_exist_with_equation_numbers():
    inst = generate_instance(n_jobs=2, n_machines=2, seed=0)
    S = split_schedule(solve_exact(inst).schedule)
    n = check_card(CARD, {"build_p1": build_p1(inst), "build_p2": build_p2(inst, S), "build_p3": build_p3(inst, S)})
    assert n >= 15


def test_checker_takes_a_solution_and_checks_its_reported_utility():
    from dataclasses import replace

    from hetopt.result import CheckReport

    inst = generate_instance(n_jobs=3, n_machines=2, seed=1)
    sol = solve_exact(inst)
    rep = check_schedule(inst, sol)
    assert isinstance(rep, CheckReport) and rep.ok
    np.testing.assert_array_equal(rep.info["finish_slot"], sol.finish_slot)
    lie = replace(sol, total_utility=sol.total_utility + 1.0)
    assert any(v.startswith("(P1)") for v in check_schedule(inst, lie).violations)


@pytest.mark.parametrize("seed", range(3))
def test_warm_start_keeps_the_optimum(seed):
    from hetopt.hadar.offline import solve_exact

    inst = generate_instance(n_jobs=4, n_machines=2, seed=seed)
    cold = solve_exact(inst, warm_start=False)
    warm = solve_exact(inst, warm_start=True)
    assert cold.status.value == warm.status.value == "optimal"
    assert warm.objective == pytest.approx(cold.objective, rel=1e-9)
