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
