from dataclasses import replace

import numpy as np
import pytest

from hetopt.placement import PlacementInstance, check_schedule, has, solve_exact
from hetopt.result import CheckReport


@pytest.fixture
def two_jobs():
    return PlacementInstance(throughput=[[275, 275, 644, 644], [884, 884, 1754, 1754]],
                             dataset_size=[100_000, 50_000], epochs=[200, 200])


def test_solutions_pass_and_the_objective_is_recomputed(two_jobs):
    for sol in (solve_exact(two_jobs), has(two_jobs)):
        rep = check_schedule(two_jobs, sol)
        assert isinstance(rep, CheckReport) and rep.ok, rep.violations
        assert rep.objective == pytest.approx(sol.average_jct, rel=1e-12)
        assert rep.info["jct"].shape == (2,)
    # the optimum of the package's doctest (Liu et al. Table/example numbers, 10592.0)
    assert check_schedule(two_jobs, solve_exact(two_jobs)).objective == pytest.approx(10592.0, abs=0.05)


def test_violations_are_named(two_jobs):
    rep = check_schedule(two_jobs, [0, 0, 0, 0])  # job 1 gets no worker
    assert not rep.ok and rep.objective is None and "(8b)" in rep.violations[0]
    rep = check_schedule(two_jobs, [0, 1, 2, 0])
    assert not rep.ok and "job indices" in rep.violations[0]
    sol = has(two_jobs)
    lie = replace(sol, objective=sol.objective * 0.9)
    rep = check_schedule(two_jobs, lie)
    assert not rep.ok and rep.violations[0].startswith("(8) reported objective")
    assert rep.objective == pytest.approx(sol.average_jct)
    assert check_schedule(two_jobs, np.asarray(sol.assignment)).ok
