"""Contention's exact routes under a short time limit: honoured, with an incumbent AND a bound (issue 25).

Before: ``exact_milp`` at ``time_limit=0.5`` on an 8-job instance built its 28,552-binary model
(5.6 s) and handed it to HiGHS (4.4 s more) before the limit could act, and returned TIME_LIMIT
without a bound; ``exact_cpsat`` returned the bound 0.
"""

from __future__ import annotations

import time

import pytest

import hetopt
from hetopt.certify import Status
from hetopt.contention import check_schedule, simulate, solve_exact, tiny_instance
from hetopt.contention.timescale import isolated_bound
from tests.conftest import time_allowance

LIMIT = 0.5


@pytest.fixture(scope="module")
def eight_jobs():
    inst = tiny_instance(seed=0, n_jobs=8, n_servers=4, gpus_per_server=4, max_iterations=2)
    for method in ("exact_milp", "exact_cpsat", "contention_bound"):  # imports (OR-Tools: 0.3 s) outside the timed calls
        hetopt.solve(tiny_instance(seed=0), method)
    return inst


@pytest.mark.parametrize("method", ["exact_milp", "exact_cpsat", "contention_bound"])
def test_time_limit_honoured_with_incumbent_and_bound(eight_jobs, method):
    inst = eight_jobs
    t0 = time.perf_counter()
    sol = hetopt.solve(inst, method, time_limit=LIMIT)
    elapsed = time.perf_counter() - t0
    assert elapsed <= time_allowance(LIMIT), f"{method} took {elapsed:.2f} s at time_limit={LIMIT}"
    assert sol.status in (Status.TIME_LIMIT, Status.OPTIMAL)
    assert sol.objective is not None and sol.bound is not None
    ref = simulate(inst, "srsf1")
    p = ref.placement
    assert sol.bound >= isolated_bound(inst, p) * (1 - 1e-12)  # at least the trivial bound, never 0 or None
    assert sol.bound <= sol.objective <= ref.objective * (1 + 1e-9)  # SRSF(1)'s schedule at least
    rep = check_schedule(inst, sol, max_concurrent=None if method == "contention_bound" else 1)
    assert rep.ok, rep.violations[:3]


def test_milp_time_limited_run_says_what_it_skipped(eight_jobs):
    sol = solve_exact(eight_jobs, engine="milp", time_limit=LIMIT)
    assert sol.status is Status.TIME_LIMIT and "skipped" in sol.info
    assert sol.info["incumbent"] == "srsf1" and sol.info["bound_from"] == "isolated job times"


def test_a_route_that_finishes_in_time_is_not_cut_short():
    inst = tiny_instance(seed=1)
    for method in ("exact_milp", "exact_cpsat", "contention_bound"):
        sol = hetopt.solve(inst, method, time_limit=30)
        assert sol.status is Status.OPTIMAL or method == "contention_bound"
