"""The checker finds every kind of violation in a schedule the exact model got right."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
import pytest

from hetopt.arena.checker import check_schedule
from hetopt.arena.exact import solve_exact
from hetopt.errors import ArgumentError, ScheduleViolation

from .random_runs import random_run
from .small import small_workload


@pytest.fixture(scope="module")
def solved():
    w = small_workload(4, jobs=(6, 6))
    return w, solve_exact(w)


def _with_rounds(sol, rounds, **changes):
    return dataclasses.replace(sol, rounds=rounds, **changes)


def test_the_exact_schedule_passes(solved):
    w, sol = solved
    report = check_schedule(w, sol)
    assert report.ok and report.objective == pytest.approx(sol.objective, rel=1e-9)


def _first_busy(sol):
    return next(k for k, rd in enumerate(sol.rounds) if rd["placement"])


def test_over_capacity(solved):
    w, sol = solved
    rounds = copy.deepcopy(sol.rounds)
    rd = rounds[_first_busy(sol)]
    j, r = next(iter(rd["placement"].items()))
    for other in range(w.n_jobs):  # every job on j's type in that round
        rd["placement"].setdefault(other, r)
    report = check_schedule(w, _with_rounds(sol, rounds))
    assert not report.ok and any("capacity" in v for v in report.violations)


def test_a_run_before_arrival(solved):
    w, sol = solved
    late = int(np.argmax(w.arrival))
    rounds = copy.deepcopy(sol.rounds)
    rounds.insert(0, {"start": 0.0, "end": 1.0, "placement": {late: int(np.argmax(w.throughput[late]))},
                      "seconds": {late: 0.0}})
    report = check_schedule(w, _with_rounds(sol, rounds))
    assert any("before its arrival" in v for v in report.violations)


def test_missing_steps_and_wrong_completion(solved):
    w, sol = solved
    rounds = copy.deepcopy(sol.rounds)
    rd = rounds[-1]
    j = next(iter(rd["seconds"]))
    rd["seconds"][j] *= 0.5
    report = check_schedule(w, _with_rounds(sol, rounds))
    assert any(f"job {j} runs" in v and "steps" in v for v in report.violations)
    assert any("completion" in v for v in report.violations)


def test_a_broken_gang_and_a_spread_gang_under_the_single_rule(solved):
    w, sol = solved
    rounds = copy.deepcopy(sol.rounds)
    rd = rounds[_first_busy(sol)]
    j, r = next(iter(rd["placement"].items()))
    rd["placement"][j] = {r: int(w.scale_factor[j]) + 1}
    assert any("gangs are whole" in v for v in check_schedule(w, _with_rounds(sol, rounds)).violations)
    if w.n_types > 1 and w.scale_factor[j] > 1:
        rd["placement"][j] = {0: 1, 1: int(w.scale_factor[j]) - 1}
        assert any("'single' rule" in v for v in check_schedule(w, _with_rounds(sol, rounds)).violations)


def test_servers(solved):
    w, sol = solved
    rounds = copy.deepcopy(sol.rounds)
    rd = rounds[_first_busy(sol)]
    j = next(iter(rd["servers"]))
    s = rd["servers"][j][0][0]
    rd["servers"][j] = [[s, int(w.server_gpus[s]) + 5]]
    report = check_schedule(w, _with_rounds(sol, rounds))
    assert any(f"server {s}" in v for v in report.violations)


def test_misreported_objective_and_bound(solved):
    w, sol = solved
    assert not check_schedule(w, dataclasses.replace(sol, objective=sol.objective * 0.9, bound=None,
                                                     status="feasible")).ok
    assert not check_schedule(w, dataclasses.replace(sol, bound=sol.objective * 1.1, status="feasible")).ok
    with pytest.raises(ScheduleViolation):
        check_schedule(w, dataclasses.replace(sol, jct=sol.jct + 1.0)).raise_if_invalid()


def test_random_runs_of_both_rules_pass():
    for seed in range(20):
        w = small_workload(seed, jobs=(2, 8), single_fit=False)
        assert check_schedule(w, random_run(w, seed, rule="bottleneck"), rule="bottleneck").ok
        w = small_workload(seed, jobs=(2, 8))
        assert check_schedule(w, random_run(w, seed, rule="single"), rule="single").ok


def test_not_a_schedule():
    w = small_workload(0)
    with pytest.raises(ArgumentError, match="RoundSchedule"):
        check_schedule(w, {"rounds": []})
    with pytest.raises(ArgumentError, match="rule"):
        check_schedule(w, solve_exact(w), rule="spread")
