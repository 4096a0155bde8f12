"""lp_bound: column generation for the LP relaxation of (14), an upper bound on the optimum."""

import pytest

from hetopt.oasis import check_schedule, compact_lp_bound, lp_bound, solve_exact

from .conftest import tiny_instance

BOUND_TOL = 1e-6


@pytest.mark.parametrize("seed", range(4))
def test_lp_bound_above_offline_optimum(seed):
    inst = tiny_instance(seed, n_jobs=4, horizon=5)
    lb = lp_bound(inst, max_iterations=30)
    off = solve_exact(inst)
    assert lb.proven
    assert lb.bound >= off.total_utility - BOUND_TOL
    assert lb.bound <= lb.compact_bound + BOUND_TOL and lb.bound <= lb.colgen_bound + BOUND_TOL
    assert compact_lp_bound(inst) == pytest.approx(lb.compact_bound)
    if lb.converged:  # the master LP value then equals the certified bound
        assert lb.colgen_bound == pytest.approx(lb.lp_value, rel=1e-6, abs=1e-6)
    for i, cols in lb.columns.items():
        for s in cols:
            assert check_schedule(inst, {i: s}).ok


def test_lp_bound_stopped_early_is_still_valid():
    inst = tiny_instance(7, n_jobs=5, horizon=5)
    lb = lp_bound(inst, max_iterations=1)
    assert lb.bound >= solve_exact(inst).total_utility - BOUND_TOL
