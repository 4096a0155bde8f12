"""Bounds and local search behind solve_exact's pruning, checked against full enumeration."""

import itertools

import numpy as np
import pytest

from hetopt.placement import (
    average_jct,
    exhaustive,
    generate_instance,
    optimus_lb,
    solve_exact,
)
from hetopt.placement.evaluate import job_metrics
from hetopt.placement.exact_bounds import improve_assignment, size_bounds

from .conftest import random_instance


def _all_assignments(inst):
    S, K = inst.n_jobs, inst.n_workers
    for a in itertools.product(range(S), repeat=K):
        a = np.array(a)
        if np.bincount(a, minlength=S).min() > 0:
            yield a


@pytest.mark.parametrize("seed", range(10))
def test_size_bounds_hold_for_every_assignment_within_the_value(seed):
    """Every assignment with average JCT <= U has allowed counts and throughputs within the bounds."""
    rng = np.random.default_rng(700 + seed)
    inst = random_instance(rng, S=int(rng.integers(2, 4)), K=int(rng.integers(4, 8)), comm=seed % 3 != 0)
    values = [(average_jct(inst, a), a) for a in _all_assignments(inst)]
    opt = min(v for v, _ in values)
    U = opt * (1 + 0.2 * rng.random())  # any value, achieved or not
    b = size_bounds(inst, U)
    inside = [a for v, a in values if v <= U]
    assert inside
    for a in inside:
        mt = job_metrics(inst, a)
        for i, (n, V) in enumerate(zip(mt["workers"], mt["throughput"], strict=True)):
            assert b.allowed[i, n - 1]
            assert b.vmin[i, n - 1] <= V * (1 + 1e-12) and V <= b.vtop[i, n - 1] * (1 + 1e-12)
    # the bounds exclude something on most instances: an assignment outside U breaks some bound
    assert b.allowed.dtype == bool and b.vmin.shape == b.allowed.shape


def test_size_bounds_prune_at_scale():
    inst = generate_instance(n_jobs=4, n_workers=100, seed=1)
    U = optimus_lb(inst, reading="balanced_gains").objective
    b = size_bounds(inst, U)
    assert b.allowed.sum() < b.allowed.size / 2  # more than half of the (job, count) pairs excluded


@pytest.mark.parametrize("seed", range(6))
def test_local_search_never_worse_and_valid(seed):
    rng = np.random.default_rng(800 + seed)
    inst = random_instance(rng, S=3, K=int(rng.integers(3, 8)), comm=seed % 2 == 0, ties=seed % 3 == 0)
    start = optimus_lb(inst, reading="optimus_placement").assignment
    a = improve_assignment(inst, start)
    assert average_jct(inst, a) <= average_jct(inst, start) * (1 + 1e-12)
    assert np.bincount(a, minlength=3).min() >= 1
    assert average_jct(inst, a) >= exhaustive(inst).objective * (1 - 1e-12)


@pytest.mark.parametrize("seed", range(3, 9))
def test_default_solve_equals_exhaustive_on_generated_instances(seed):
    """Generator instances (nodes, communication): pruning + local search keep the exhaustive optimum."""
    inst = generate_instance(n_jobs=3, n_workers=9, seed=seed)
    ref = exhaustive(inst).objective
    for kw in ({}, {"improve": False}, {"neighbour_cuts": False}, {"prune": False, "improve": False}):
        sol = solve_exact(inst, **kw)
        assert sol.is_optimal and sol.objective == pytest.approx(ref, rel=1e-6)
        assert sol.bound <= ref * (1 + 1e-9)


@pytest.mark.parametrize("seed", range(2))
def test_pruned_and_unpruned_agree_at_k40(seed):
    inst = generate_instance(n_jobs=4, n_workers=40, seed=seed)
    a, b = solve_exact(inst), solve_exact(inst, prune=False, improve=False)
    assert a.is_optimal and b.is_optimal
    assert a.objective == pytest.approx(b.objective, rel=1e-6)


def test_master_bound_above_the_incumbent_is_caught(monkeypatch):
    """HiGHS with feasibility tolerances 1e-9 once returned a master 'optimum' above the true P1 optimum
    on this instance; solve_exact must notice (bound above an achieved value), retry the master with
    presolve off and still certify the exhaustive optimum."""
    import dataclasses

    import hetopt.placement.exact.oa as oa
    from hetopt.placement.experiments.runs import paper_instance

    inst = paper_instance(9, 1.5)
    ref = exhaustive(inst).objective
    assert solve_exact(inst).objective == pytest.approx(ref, rel=1e-9)
    real = oa.solve_milp

    def wrong_bound(*args, **kw):
        sol = real(*args, **kw)
        if kw["options"].get("presolve") != "off" and sol.bound is not None:  # a wrong bound with presolve on
            sol = dataclasses.replace(sol, status=oa.Status.FEASIBLE, bound=10 * abs(sol.bound))
        return sol

    monkeypatch.setattr(oa, "solve_milp", wrong_bound)
    sol = solve_exact(inst)
    assert "above the achieved" in sol.info["presolve_off"] and "fallback" not in sol.info
    assert sol.is_optimal and sol.objective == pytest.approx(ref, rel=1e-9) and sol.bound <= ref * (1 + 1e-9)
