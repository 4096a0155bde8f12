"""The engine's copies: a placement policy with ``copies = True`` runs a job as several gangs whose progress adds up."""

import dataclasses

import numpy as np
import pytest

import hetopt.arena as A
from hetopt.arena.copies import split_shares
from hetopt.arena.protocol import Copies
from hetopt.errors import ScheduleViolation


class TwoCopies:
    """Every present job on one k80 and one v100 (types 0 and 1), as two single-GPU copies."""

    mode = "placement"
    name = "two_copies"
    copies = True

    def __init__(self, where=(0, 1)):
        self.where = where

    def reset(self, workload, options, *, seed):
        pass

    def __call__(self, state):
        return {int(j): Copies(list(self.where)) for j in state.jobs}


def _one_job(steps, rates=(1.0, 3.0), gpus=(1, 1)):
    return A.Workload(("k80", "v100"), [0, 1], list(gpus), [float("inf")] * 2, ("A",), [0.0], [1], [steps], [1.0],
                      [list(rates)], [0.0])


def test_copies_divide_the_steps_by_rate_and_finish_together():
    w = _one_job(1000.0)
    sim = A.simulate(w, TwoCopies())
    gangs = sim.rounds[0]["gangs"]
    # 1000 iterations at 1 and 3 iterations/s: 250 and 750, both done at 250 s
    assert [g["steps"] for g in gangs] == [[250.0], [750.0]]
    assert sim.completion.tolist() == [250.0]
    A.check_schedule(w, sim).raise_if_invalid()


def test_copies_keep_their_servers_and_pay_one_restart_each():
    w = _one_job(3000.0)
    sim = A.simulate(w, TwoCopies(), restart_delay=10.0)
    steps = [(g["steps"][0], g["delay"]) for r in sim.rounds for g in r["gangs"]]
    # round 1: 350 s of compute after the delay; round 2: a whole round; round 3: the 160 left, split 1:3
    assert steps == [(350.0, 10.0), (1050.0, 10.0), (360.0, 0.0), (1080.0, 0.0), (40.0, 0.0), (120.0, 0.0)]
    assert sim.info["restarts"] == 2
    assert sim.completion.tolist() == [760.0]
    A.check_schedule(w, sim).raise_if_invalid()


def test_a_copy_left_without_a_share_does_not_run():
    w = _one_job(2.0, rates=(1.0, 100.0))
    sim = A.simulate(w, TwoCopies())
    gangs = sim.rounds[0]["gangs"]
    assert [g["type"] for g in gangs] == [1]  # 2 x 1/101 rounds to 0 on the k80: only the v100 copy runs
    assert sim.completion.tolist() == [0.02]
    A.check_schedule(w, sim).raise_if_invalid()


def test_copies_are_refused_to_a_policy_without_the_flag_and_beyond_capacity():
    w = _one_job(1000.0)

    class NoFlag(TwoCopies):
        copies = False

    with pytest.raises(ScheduleViolation, match="copies = True"):
        A.simulate(w, NoFlag())
    with pytest.raises(ScheduleViolation, match="GPUs of type"):
        A.simulate(w, TwoCopies(where=(1, 1)))


def test_the_checker_allows_several_gangs_of_a_job_only_for_a_copies_run():
    w = _one_job(1000.0)
    sim = A.simulate(w, TwoCopies())
    forged = dataclasses.replace(sim, options={**sim.options, "copies": False})
    report = A.check_schedule(w, forged)
    assert not report.ok and any("two gangs" in v for v in report.violations)


@pytest.mark.parametrize("remaining, rates", [(1000.0, [1.0, 3.0]), (7.0, [1.0, 1.0, 1.0]), (10.5, [2.0, 1.0]),
                                              (1.0, [5.0, 1.0, 1.0]), (0.4, [1.0, 2.0])])
def test_shares_add_up_in_whole_iterations(remaining, rates):
    shares = split_shares(remaining, rates)
    assert sum(shares) == pytest.approx(remaining, rel=1e-12)
    whole = [s for s in shares if s != np.floor(s)]
    assert len(whole) <= 1  # at most one share carries the fractional rest
    exact = [remaining * r / sum(rates) for r in rates]
    assert all(abs(s - e) < 1.0 + 1e-9 for s, e in zip(shares, exact, strict=True))
