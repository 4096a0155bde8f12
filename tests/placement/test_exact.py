import itertools

import numpy as np
import pytest

from hetopt import ArgumentError, SizeLimitError, Status, solve_model
from hetopt.placement import (
    PlacementInstance,
    average_jct,
    build_p1,
    build_p2,
    exhaustive,
    generate_instance,
    has,
    jps,
    las,
    optimus,
    optimus_lb,
    solve_exact,
)

from .conftest import random_instance

OBJ_RTOL = 1e-6


def test_table2_optimum(table2):
    for solver in ("highs", "scip"):
        sol = solve_exact(table2, solver=solver)
        assert sol.status is Status.OPTIMAL and round(sol.objective) == 10592
        assert sol.bound <= sol.objective * (1 + 1e-12) and sol.gap <= 1e-6
        assert sorted(sol.throughput.round().tolist()) == [1288, 1768]


@pytest.mark.parametrize("seed", range(16))
def test_solve_exact_equals_exhaustive(seed):
    """Both solver routes reach exhaustive search, with and without communication and nodes."""
    rng = np.random.default_rng(100 + seed)
    inst = random_instance(rng, comm=seed % 2 == 0, ties=seed % 3 == 0)
    ex = exhaustive(inst)
    for solver in ("highs", "scip"):
        sol = solve_exact(inst, solver=solver)
        assert sol.status is Status.OPTIMAL
        assert sol.objective == pytest.approx(ex.objective, rel=OBJ_RTOL)
        assert sol.bound <= ex.objective * (1 + OBJ_RTOL)
        assert average_jct(inst, sol.assignment) == pytest.approx(sol.objective, rel=1e-12)
    for heuristic in (has, optimus_lb, optimus, las, lambda i: jps(i, seed=seed)):
        assert heuristic(inst).objective >= ex.objective * (1 - 1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_per_worker_models_match(seed):
    """build_p1: the exact MILP (HiGHS) and the direct MINLP (SCIP) equal exhaustive search."""
    rng = np.random.default_rng(200 + seed)
    inst = random_instance(rng, S=2, K=int(rng.integers(2, 5)), comm=seed % 2 == 0)
    ex = exhaustive(inst).objective
    milp = solve_model(build_p1(inst, "milp"))
    assert milp.status is Status.OPTIMAL and milp.objective == pytest.approx(ex, rel=OBJ_RTOL)
    minlp = solve_model(build_p1(inst, "minlp"), "scip", time_limit=60)
    assert minlp.status is Status.OPTIMAL and minlp.objective == pytest.approx(ex, rel=1e-5)


@pytest.mark.parametrize("seed", range(4))
def test_p2_equals_best_of_its_category(seed):
    rng = np.random.default_rng(300 + seed)
    inst = random_instance(rng, S=2, K=4, comm=True)
    cat = (1, 3)
    best = min(average_jct(inst, a) for a in itertools.product(range(2), repeat=4)
               if np.bincount(a, minlength=2).tolist() == list(cat))
    sol = solve_model(build_p2(inst, cat), "scip")
    assert sol.objective == pytest.approx(best, rel=1e-5)


@pytest.mark.parametrize("bad", [dict(rel_gap=float("nan")), dict(rel_gap=-0.1), dict(rel_gap=2.0), dict(rel_gap=True),
                                 dict(rel_gap=None), dict(solver="cplex"), dict(threads=0), dict(max_iterations=0),
                                 dict(tangent_points=1.5), dict(prune="yes"), dict(improve=1), dict(neighbour_cuts=None),
                                 dict(time_limit=-1)])
def test_solve_exact_refuses_bad_options(table2, bad):
    with pytest.raises(ArgumentError, match=next(iter(bad))):
        solve_exact(table2, **bad)


def test_solve_exact_options_are_keyword_only(table2):
    with pytest.raises(TypeError):
        solve_exact(table2, "scip")


def test_exhaustive_refuses_large_instances():
    inst = PlacementInstance(throughput=np.ones((4, 30)), dataset_size=np.ones(4), epochs=np.ones(4))
    with pytest.raises(SizeLimitError, match="4\\*\\*30"):
        exhaustive(inst)


def test_time_limited_run_is_not_optimal():
    # K = 100 takes about 20 s to certify on 2 cores: 0.05 s cannot prove it
    inst = generate_instance(4, 100, seed=3)
    sol = solve_exact(inst, time_limit=0.05)
    assert sol.status is Status.TIME_LIMIT
    assert sol.bound is None or sol.bound <= sol.objective


def test_relabelled_workers_same_optimum():
    rng = np.random.default_rng(5)
    inst = random_instance(rng, S=3, K=6, comm=True)
    perm = rng.permutation(inst.n_workers)
    d = inst.to_dict()
    d["throughput"] = inst.throughput[:, perm].tolist()
    d["worker_node"] = inst.nodes[perm].tolist()
    d["worker_names"] = None
    other = PlacementInstance.from_dict(d)
    assert solve_exact(other).objective == pytest.approx(solve_exact(inst).objective, rel=OBJ_RTOL)


@pytest.mark.parametrize("seed", range(3))
def test_tangent_point_count_changes_iterations_not_the_optimum(seed):
    from hetopt.placement import exhaustive, generate_instance

    inst = generate_instance(3, 9, seed=seed)
    ref = exhaustive(inst).objective
    few, many = solve_exact(inst, tangent_points=2, prune=False), solve_exact(inst, tangent_points=64)
    assert few.is_optimal and many.is_optimal
    assert few.objective == pytest.approx(ref, rel=1e-6) and many.objective == pytest.approx(ref, rel=1e-6)
    assert many.bound <= ref * (1 + 1e-9) and few.bound <= ref * (1 + 1e-9)
    assert many.info["iterations"] <= few.info["iterations"]


def test_pruning_fixes_sizes_and_keeps_the_optimum():
    from hetopt.placement import generate_instance

    inst = generate_instance(4, 20, seed=1)
    a, b = solve_exact(inst), solve_exact(inst, prune=False)
    assert a.is_optimal and b.is_optimal and a.info["pruned_sizes"] > 0 and b.info["pruned_sizes"] == 0
    assert a.objective == pytest.approx(b.objective, rel=1e-6)


@pytest.mark.parametrize("seed", range(6))
def test_relaxed_lower_bound_below_exhaustive_optimum(seed):
    from hetopt.placement.exact import relaxed_lower_bound

    rng = np.random.default_rng(seed)
    inst = random_instance(rng, S=2, K=int(rng.integers(2, 6)), comm=seed % 2 == 0)
    best = exhaustive(inst)
    lb = relaxed_lower_bound(inst)
    assert 0 < lb <= best.objective * (1 + 1e-12)
