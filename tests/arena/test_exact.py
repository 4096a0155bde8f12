"""The exact round model: agreement with a brute force, schedules the checker accepts, its guards and options."""

from __future__ import annotations

import numpy as np
import pytest

from hetopt.arena.checker import check_schedule
from hetopt.arena.exact import solve_exact
from hetopt.arena.schedule import RoundSchedule
from hetopt.certify import Status
from hetopt.errors import ArgumentError, InstanceError, SizeLimitError

from .brute import brute_force_optimum
from .small import ROUND, replace, small_workload

OBJ_RTOL = 1e-6


def _agree_with_brute_force(seeds, objective):
    for seed in seeds:
        w = small_workload(seed, jobs=(2, 4))
        sol = solve_exact(w, objective=objective)
        assert sol.status is Status.OPTIMAL
        brute = brute_force_optimum(w, round_length=ROUND, objective=objective)
        assert sol.objective == pytest.approx(brute, rel=OBJ_RTOL), seed


@pytest.mark.parametrize("objective", ["average_jct", "makespan"])
def test_exact_agrees_with_brute_force(objective):
    """Every (maximal) assignment of every round, 2-4 jobs, against the MILP, both objectives."""
    _agree_with_brute_force(range(30), objective)


@pytest.mark.slow
@pytest.mark.parametrize("objective", ["average_jct", "makespan"])
def test_exact_agrees_with_brute_force_on_hundreds(objective):
    _agree_with_brute_force(range(30, 330), objective)


def _pass_the_checker(seeds, objective):
    for seed in seeds:
        w = small_workload(seed)
        sol = solve_exact(w, objective=objective)
        report = check_schedule(w, sol)
        assert report.ok, (seed, report.violations)
        completion = np.array(report.info["completion"])
        jct = completion - w.arrival
        recomputed = float(w.weight @ jct / w.weight.sum()) if objective == "average_jct" else float(completion.max())
        assert recomputed == pytest.approx(sol.objective, rel=OBJ_RTOL)
        assert sol.status is Status.OPTIMAL and sol.bound is not None


@pytest.mark.parametrize("objective", ["average_jct", "makespan"])
def test_exact_schedules_pass_the_checker(objective):
    _pass_the_checker(range(12), objective)


@pytest.mark.slow
@pytest.mark.parametrize("objective", ["average_jct", "makespan"])
def test_exact_schedules_pass_the_checker_on_hundreds(objective):
    _pass_the_checker(range(12, 312), objective)


def test_exact_is_invariant_under_scaling():
    """Steps and times (arrivals, round length) multiplied by 1e-6 and 1e6: the optimum scales with them."""
    for seed in range(5):
        base = solve_exact(small_workload(seed))
        for scale in (1e-6, 1e6):
            w = small_workload(seed, scale=scale)
            sol = solve_exact(w, round_length=ROUND * scale)
            assert sol.status is Status.OPTIMAL
            assert sol.objective == pytest.approx(base.objective * scale, rel=OBJ_RTOL)
            assert check_schedule(w, sol).ok


def test_weights_change_the_optimum_as_they_should():
    """Unit weights give the plain mean; the weighted optimum is no better under its own weights than any other's."""
    w = small_workload(3, jobs=(5, 5))
    plain = solve_exact(w, weights=np.ones(w.n_jobs))
    weighted = solve_exact(w)
    assert plain.average_jct == pytest.approx(float(np.mean(plain.jct)), rel=1e-12)
    assert weighted.objective <= float(w.weight @ plain.jct / w.weight.sum()) * (1 + OBJ_RTOL)
    assert plain.objective <= float(np.mean(weighted.jct)) * (1 + OBJ_RTOL)


def test_size_guard_refuses_before_building():
    w = small_workload(1, jobs=(6, 6))
    with pytest.raises(SizeLimitError, match=r"max_size=\d+") as exc:
        solve_exact(w, max_size=5)
    count = int(str(exc.value).split(" job-round variables")[0].split()[-1])
    assert solve_exact(w, max_size=count).status is Status.OPTIMAL


@pytest.mark.parametrize("option", [{"gang_rule": "bottleneck"}, {"restart_delay": 30.0}, {"contention": True}])
def test_options_outside_the_model_are_refused(option):
    with pytest.raises(ArgumentError, match=next(iter(option))):
        solve_exact(small_workload(0), **option)


@pytest.mark.parametrize("kwargs", [{"objective": "total"}, {"round_length": 0.0}, {"max_size": 0},
                                    {"weights": [1.0]}, {"restart_delay": -1.0}, {"contention": 1}])
def test_bad_arguments(kwargs):
    with pytest.raises(ArgumentError):
        solve_exact(small_workload(0), **kwargs)


def test_a_gang_that_fits_no_single_type_is_refused():
    w = small_workload(0, jobs=(2, 2), types=(2, 2))
    cap = w.capacity
    g = w.scale_factor.copy()
    g[0] = int(cap.max()) + 1  # spans types under the bottleneck rule only
    T = np.ones_like(w.throughput)
    if int(cap.sum()) < g[0]:
        pytest.skip("this seed's cluster is too small")
    w2 = replace(w, scale_factor=g, throughput=T)
    with pytest.raises(InstanceError, match="job 0"):
        solve_exact(w2)


def test_round_trip():
    w = small_workload(5, jobs=(6, 6))
    sol = solve_exact(w)
    back = RoundSchedule.from_dict(sol.to_dict())
    assert check_schedule(w, back).ok
    assert back.objective == sol.objective and back.options == sol.options


def test_a_stopped_solve_returns_a_checked_incumbent_and_a_bound():
    w = small_workload(17)  # 6 jobs, 159 job-round variables: seconds to prove
    sol = solve_exact(w, time_limit=0.01)
    assert sol.status in (Status.TIME_LIMIT, Status.OPTIMAL)
    assert check_schedule(w, sol).ok
    if sol.bound is not None:
        assert sol.bound <= sol.objective * (1 + OBJ_RTOL)
    if sol.status is Status.TIME_LIMIT:
        assert sol.objective >= solve_exact(w).objective * (1 - OBJ_RTOL)


@pytest.mark.parametrize("seed", range(3))
def test_exported_model_has_the_optimum_of_solve_exact(seed):
    """A second engine on the exported Pyomo model (SCIP) finds solve_exact's optimum (times the round length)."""
    import hetopt.arena as A
    from hetopt.solvers import solve_model

    w = A.KIND.example(seed=seed, size=0)
    ref = solve_exact(w)
    got = solve_model(A.KIND.export_model(w), "scip")
    assert ref.status is Status.OPTIMAL and got.status is Status.OPTIMAL
    assert got.objective * 360.0 == pytest.approx(ref.objective, rel=1e-6)
