"""The exact time-indexed MILP of the contention-free problem, and the heuristics against it."""

from dataclasses import replace
from pathlib import Path

import pytest

from hetopt.certify import Status
from hetopt.contention import (
    POLICIES,
    ContentionInstance,
    build_milp,
    check_schedule,
    simulate,
    solve_exact,
    tiny_instance,
)
from hetopt.data import load_json
from hetopt.errors import ArgumentError, InfeasibleError, InstanceError, SizeLimitError
from hetopt.testing import check_card

CARD = Path(__file__).resolve().parents[2] / "models" / "wang2019-contention.md"
OBJ_TOL = 1e-6


def _inst(**kw):
    d = dict(n_servers=2, gpus_per_server=1, gpu_memory=100.0, a=0.0, b=1.0, eta=0.3, arrival=[0.0, 0.0],
             n_gpus=[1, 1], iterations=[1, 1], t_f=[1.0, 2.0], t_b=[1.0, 2.0], model_size=[1.0, 1.0],
             memory=[1.0, 1.0])
    d.update(kw)
    return ContentionInstance(**d)


def test_card_components_exist():
    inst = tiny_instance(seed=1)
    m = build_milp(inst, simulate(inst, "srsf1").placement)
    assert check_card(CARD, {"build_milp": m}) >= 8


def test_known_answer_spt_on_one_gpu():
    # two single-GPU jobs on the same GPU: p = 2 and 4; SPT gives 2 + 6 = 8
    inst = _inst()
    opt = solve_exact(inst, placement=[[0], [0]])
    assert opt.status is Status.OPTIMAL and opt.objective == pytest.approx(8.0)
    assert opt.bound == pytest.approx(8.0)


def test_known_answer_one_multi_server_job():
    # 3 iterations of (1 + 1 + (0 + 1 * 2)) = 12
    inst = _inst(arrival=[3.0], n_gpus=[2], iterations=[3], t_f=[1.0], t_b=[1.0], model_size=[2.0], memory=[1.0])
    opt = solve_exact(inst, placement=[[0, 1]])
    assert opt.objective == pytest.approx(12.0)
    assert simulate(inst, "ada_srsf").objective == pytest.approx(12.0)


def test_known_answer_shared_network():
    # two 2-server jobs on disjoint GPUs, same servers: all-reduces 5 and 1 cannot overlap;
    # both ready at 2: the short one first, 3 + 8 = 11 (by hand)
    inst = ContentionInstance(n_servers=2, gpus_per_server=2, gpu_memory=100.0, a=0.0, b=1.0, eta=0.3,
                              arrival=[0.0, 0.0], n_gpus=[2, 2], iterations=[1, 1], t_f=[1.0, 1.0],
                              t_b=[1.0, 1.0], model_size=[5.0, 1.0], memory=[1.0, 1.0])
    opt = solve_exact(inst, placement=[[0, 2], [1, 3]])
    assert opt.objective == pytest.approx(11.0)
    assert check_schedule(inst, opt, max_concurrent=1).ok


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 5, 8])
def test_milp_schedule_is_feasible_and_below_contention_free_heuristics(seed):
    inst = tiny_instance(seed=seed)
    for placement in ("lwf", "ff", "ls", "rand"):
        heur = simulate(inst, replace(POLICIES["srsf1"], placement=placement, seed=seed), record=True)
        assert check_schedule(inst, heur, max_concurrent=1).ok
        opt = solve_exact(inst, placement=heur.placement, upper_bound=heur.objective)
        assert opt.status is Status.OPTIMAL
        assert check_schedule(inst, opt, max_concurrent=1).ok
        assert heur.objective >= opt.objective - OBJ_TOL


@pytest.mark.parametrize("seed", [1, 3])
def test_time_windows_do_not_cut_the_optimum(seed):
    inst = tiny_instance(seed=seed)
    heur = simulate(inst, "srsf1")
    tight = solve_exact(inst, placement=heur.placement, upper_bound=heur.objective)
    loose = solve_exact(inst, placement=heur.placement)
    assert tight.objective == pytest.approx(loose.objective)


def test_finding_contention_beats_the_contention_free_optimum():
    inst = ContentionInstance.from_dict(load_json("wang2019_contention_beats_milp"))
    ada = simulate(inst, "ada_srsf", record=True)
    assert check_schedule(inst, ada, max_concurrent=2).ok
    opt = solve_exact(inst, placement=ada.placement, upper_bound=simulate(inst, "srsf1").objective)
    assert opt.is_optimal
    # by hand: Ada-SRSF 26.6 + 17.6; contention-free optimum 35 + 12
    assert ada.objective == pytest.approx(44.2) and opt.objective == pytest.approx(47.0)
    assert ada.objective < opt.objective


def test_bad_input():
    inst = _inst(t_f=[1.5, 2.0])
    with pytest.raises(InstanceError, match=r"t_f\[0\] is 1.5.*slot = 1"):
        build_milp(inst, [[0], [1]], slot=1.0)
    assert build_milp(inst, [[0], [1]]).slot == 0.5  # the data's own grid
    with pytest.raises(ArgumentError, match="placement"):
        build_milp(_inst(), [[0]])
    with pytest.raises(ArgumentError, match="slot"):
        build_milp(_inst(), [[0], [1]], slot=0.0)
    with pytest.raises(InstanceError, match="memory"):
        build_milp(_inst(memory=[60.0, 60.0]), [[0], [0]])
    with pytest.raises(SizeLimitError):
        build_milp(tiny_instance(seed=4), simulate(tiny_instance(seed=4), "srsf1").placement, max_binaries=10)


def test_upper_bound_below_the_optimum_is_infeasible_never_optimal():
    # tiny_instance(6) on SRSF(1)'s placement: the optimum (no bound) is 22; a bound of 21 once gave "optimal 24"
    inst = tiny_instance(seed=6)
    placement = simulate(inst, "srsf1").placement
    free = solve_exact(inst, placement=placement)
    assert free.status is Status.OPTIMAL
    with pytest.raises(InfeasibleError, match="upper_bound"):
        solve_exact(inst, placement=placement, upper_bound=free.objective - 1)
    at = solve_exact(inst, placement=placement, upper_bound=free.objective)
    assert at.status is Status.OPTIMAL and at.objective == pytest.approx(free.objective)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 6])
def test_no_bound_below_the_optimum_returns_a_schedule_above_it(seed):
    inst = tiny_instance(seed=seed)
    placement = simulate(inst, "srsf1").placement
    opt = solve_exact(inst, placement=placement).objective
    for u in (opt - 1, opt - 0.5):
        with pytest.raises(InfeasibleError):
            solve_exact(inst, placement=placement, upper_bound=u)
