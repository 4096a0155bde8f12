from dataclasses import replace

import numpy as np
import pytest

from hetopt import load_instance
from hetopt.gavel import POLICIES, check_schedule, generate_instance, simulate
from hetopt.result import CheckReport


@pytest.mark.parametrize("policy", ["max_min_fairness", "fifo", "max_sum_throughput"])
def test_simulated_rounds_pass_the_checker(policy):
    assert policy in POLICIES
    inst = generate_instance(n_jobs=6, capacity=(2, 2, 2), jobs_per_hour=4.0, seed=1)
    sim = simulate(inst, policy)
    rep = check_schedule(inst, sim)
    assert isinstance(rep, CheckReport) and rep.ok, rep.violations
    assert rep.objective == pytest.approx(sim.average_jct, rel=1e-6)


def test_checker_names_violations():
    inst = load_instance("instances/gavel2020_three_jobs.json")
    sim = simulate(inst, "max_min_fairness")
    assert check_schedule(inst, sim).ok
    assert not check_schedule(inst, simulate(inst, "max_min_fairness", record_rounds=False)).ok
    lie = replace(sim, objective=sim.objective * 0.5)
    assert any("average JCT" in v for v in check_schedule(inst, lie).violations)
    # drop the last round: the jobs in it no longer run all their steps
    short = replace(sim, rounds=[rd for rd in sim.rounds if rd["placement"]][:-1])  # Gavel's last round is empty
    assert any("steps" in v for v in check_schedule(inst, short).violations)
    # put every job of round 0 on type 0 at once with too many GPUs
    rd = dict(sim.rounds[0])
    rd["placement"] = {j: 0 for j in range(inst.n_jobs)}
    crowded = replace(sim, rounds=[rd] + sim.rounds[1:])
    if sum(inst.scale_factor) > inst.capacity[0]:
        assert any("capacity" in v for v in check_schedule(inst, crowded).violations)
    assert not check_schedule(inst, crowded).ok
    np.testing.assert_allclose(check_schedule(inst, sim).info["completion"], sim.completion, rtol=1e-9)


def _shifted_and_scaled(inst, sim, f, shift=1000.0):
    """Every time moved by ``shift`` s and multiplied by ``f`` (throughputs divided by it): the same schedule."""
    i2 = replace(inst, arrival=(inst.arrival + shift) * f, throughput=inst.throughput / f)
    rounds = [{**rd, "start": (rd["start"] + shift) * f, "end": (rd["end"] + shift) * f,
               "seconds": {j: s * f for j, s in (rd.get("seconds") or {}).items()}} for rd in sim.rounds]
    return i2, replace(sim, rounds=rounds, completion=(sim.completion + shift) * f, jct=sim.jct * f,
                       objective=sim.objective * f, average_jct=sim.average_jct * f, makespan=(sim.makespan + shift) * f)


@pytest.mark.parametrize("scale", [1e-9, 1.0, 1e9])
def test_checker_decides_alike_at_every_magnitude(scale):
    # issue 31: times were compared with RTOL * max(1, t), absolute below 1 s: at 1e-9 a valid schedule failed
    # ("round 8: job 0 runs at 3.88e-06 s after its completion 4.6e-06 s") and a start 0.1 % before the arrival
    # passed; relative now, so the decisions at 1e-9 and 1e9 are the ones at 1
    inst = load_instance("instances/gavel2020_three_jobs.json")
    i2, s2 = _shifted_and_scaled(inst, simulate(inst, "max_min_fairness"), scale)
    assert check_schedule(i2, s2).ok
    early = replace(s2, rounds=[{**s2.rounds[0], "start": s2.rounds[0]["start"] * (1 - 1e-3)}] + s2.rounds[1:])
    assert any("before its arrival" in v for v in check_schedule(i2, early).violations)
