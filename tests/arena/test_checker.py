"""The checker finds every kind of violation in a schedule the exact model got right.

The assertions read ``report.ok`` only (not the messages), so that they hold for any checker of the
arena's round records.
"""

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


def _tampered(sol, change):
    rounds = copy.deepcopy(sol.rounds)
    change(rounds)
    return dataclasses.replace(sol, rounds=rounds)


def test_the_exact_schedule_passes(solved):
    w, sol = solved
    report = check_schedule(w, sol)
    assert report.ok
    assert report.objective == pytest.approx(float(np.mean(sol.jct)), rel=1e-9)
    assert report.info["completion"] == pytest.approx(sol.completion.tolist(), rel=1e-12)


def _first_gang(rounds):
    return next(g for rd in rounds for g in rd["gangs"])


def test_over_capacity(solved):
    w, sol = solved

    def crowd(rounds):
        g = _first_gang(rounds)
        s = g["servers"][0][0]
        g["servers"] = [[s, int(w.server_gpus[s]) + 1]]

    assert not check_schedule(w, _tampered(sol, crowd)).ok


def test_a_broken_gang(solved):
    w, sol = solved

    def shrink(rounds):
        g = _first_gang(rounds)
        g["servers"] = g["servers"][:1]
        g["servers"][0][1] -= 1

    assert not check_schedule(w, _tampered(sol, shrink)).ok


def test_a_job_in_two_gangs(solved):
    w, sol = solved
    assert not check_schedule(w, _tampered(sol, lambda rounds: rounds[0]["gangs"].append(
        copy.deepcopy(rounds[0]["gangs"][0])))).ok


def test_a_run_before_arrival(solved):
    w, sol = solved
    late = int(np.argmax(w.arrival))
    assert w.arrival[late] > 0

    def early(rounds):
        rd = next(rd for rd in rounds if any(late in g["jobs"] for g in rd["gangs"]))
        shift = rd["start"] - w.arrival[late] + 1.0
        rd["start"] -= shift
        for g in rd["gangs"]:
            g["finish"] -= shift

    assert not check_schedule(w, _tampered(sol, early)).ok


def test_missing_steps(solved):
    w, sol = solved

    def halve(rounds):
        g = rounds[-1]["gangs"][0]
        g["steps"] = [g["steps"][0] / 2]

    assert not check_schedule(w, _tampered(sol, halve)).ok


def test_too_fast(solved):
    w, sol = solved

    def hurry(rounds):
        g = _first_gang(rounds)
        g["finish"] = rounds[0]["start"] + (g["finish"] - rounds[0]["start"]) / 2

    assert not check_schedule(w, _tampered(sol, hurry)).ok


def test_spread_gang_under_the_single_rule():
    for seed in range(20):
        w = small_workload(seed, jobs=(4, 8), single_fit=False, types=(2, 3))
        run = random_run(w, seed, rule="bottleneck")
        if any(g["type"] == -1 for rd in run.rounds for g in rd["gangs"]):
            assert check_schedule(w, run).ok
            single = dataclasses.replace(run, options={**run.options, "gang_rule": "single"})
            assert not check_schedule(w, single).ok
            return
    pytest.fail("no random run spread a gang over types")


def test_misreported_completion(solved):
    w, sol = solved
    with pytest.raises(ScheduleViolation):
        check_schedule(w, dataclasses.replace(sol, completion=sol.completion + 1.0)).raise_if_invalid()


def test_random_runs_of_both_rules_pass():
    for seed in range(20):
        w = small_workload(seed, jobs=(2, 8), single_fit=False)
        assert check_schedule(w, random_run(w, seed, rule="bottleneck")).ok
        w = small_workload(seed, jobs=(2, 8))
        assert check_schedule(w, random_run(w, seed, rule="single")).ok


def test_not_a_schedule():
    with pytest.raises(ArgumentError):
        check_schedule(small_workload(0), {"rounds": []})
