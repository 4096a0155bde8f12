"""Local search on Hare schedules: feasible, never worse than its start, never below the optimum."""

import numpy as np
import pytest

from hetopt.hare import brute_force, generate_instance
from hetopt.hare.checker import check_schedule
from hetopt.hare.exact import best_known_schedule
from hetopt.hare.exact.localsearch import improve_schedule


@pytest.mark.parametrize("seed", range(4))
def test_feasible_not_worse_not_below_optimum(seed):
    inst = generate_instance(seed=seed, n_jobs=3, n_gpus=2, max_total_tasks=5, homogeneous=bool(seed % 2))
    start, gpu, h = best_known_schedule(inst)
    s2, g2, obj, info = improve_schedule(inst, start, gpu, time_limit=60.0, max_moves=3000, seed=seed)
    report = check_schedule(inst, (s2, g2))
    assert report.ok, report.violations
    assert report.objective == pytest.approx(obj, rel=1e-12)
    assert obj <= h + 1e-9
    assert obj >= brute_force(inst).objective - 1e-9
    assert info["moves_tried"] == 3000


def test_improves_a_poor_schedule_to_the_optimum(tiny):
    # everything on GPU 1, in a poor order: 3000 random moves on 3 tasks reach the brute-force optimum
    order_start = np.array([5.0, 6.0, 0.0, 1.0])[: tiny.n_tasks]
    gpu = np.ones(tiny.n_tasks, dtype=int)
    from hetopt.hare.listsched import semi_active

    order = tuple(np.lexsort((np.arange(tiny.n_tasks), tiny.task_round, order_start)))
    poor = semi_active(tiny, order, gpu)[1]
    _, _, obj, info = improve_schedule(tiny, order_start, gpu, time_limit=60.0, max_moves=3000, seed=0)
    opt = brute_force(tiny).objective
    assert poor > opt + 1e-9
    assert obj == pytest.approx(opt, rel=1e-12)
    assert info["moves_accepted"] >= 1


def test_deterministic_with_max_moves():
    inst = generate_instance(seed=7, n_jobs=5, n_gpus=3, max_rounds=3, max_tasks=2, max_total_tasks=12)
    start, gpu, _ = best_known_schedule(inst)
    a = improve_schedule(inst, start, gpu, time_limit=60.0, max_moves=500, seed=3)
    b = improve_schedule(inst, start, gpu, time_limit=60.0, max_moves=500, seed=3)
    assert a[2] == b[2] and np.array_equal(a[1], b[1])


def test_errors(tiny):
    start, gpu, _ = best_known_schedule(tiny)
    with pytest.raises(ValueError, match="shape"):
        improve_schedule(tiny, start[:-1], gpu, seed=0)
    with pytest.raises(ValueError, match="time_limit"):
        improve_schedule(tiny, start, gpu, time_limit=-1.0, seed=0)
    with pytest.raises(ValueError, match="gpu entries"):
        improve_schedule(tiny, start, np.full(tiny.n_tasks, 5), seed=0)


@pytest.mark.parametrize("seed", range(3))
def test_cpsat_with_polished_hint_keeps_the_optimum(seed):
    from hetopt.hare.exact.cpsat import solve_cpsat_exact

    inst = generate_instance(seed=seed, n_jobs=3, n_gpus=2, max_total_tasks=5)
    sol = solve_cpsat_exact(inst, polish=0.2, seed=seed)
    assert sol.status.value == "optimal"
    assert check_schedule(inst, sol).ok
    assert sol.objective == pytest.approx(brute_force(inst).objective, rel=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_perturbations_keep_the_best_feasible(seed):
    inst = generate_instance(seed=seed, n_jobs=4, n_gpus=2, max_rounds=2, max_total_tasks=6)
    start, gpu, h = best_known_schedule(inst)
    s2, g2, obj, info = improve_schedule(inst, start, gpu, time_limit=60.0, max_moves=4000, stall=1, kick=2,
                                         seed=seed)
    assert info["kicks"] >= 1
    report = check_schedule(inst, (s2, g2))
    assert report.ok and report.objective == pytest.approx(obj, rel=1e-12)
    assert brute_force(inst).objective - 1e-9 <= obj <= h + 1e-9
