"""Comparisons of times that are relative to the instance's own scale (issue 31, item 2).

Each test runs the same instance in seconds x 1e-9 and x 1e9 and asks for the schedule of seconds x 1:
an absolute 1e-9 s is a whole round at the first scale and below the float spacing at the second.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

SCALES = (1e-9, 1e9)


def _hadar(time_scale: float):
    from hetopt.hadar import generate_instance

    inst = generate_instance(n_jobs=4, n_machines=2, seed=1, max_arrival=3)
    time_scale /= inst.slot_length  # slots of ``time_scale`` seconds
    return dataclasses.replace(inst, slot_length=inst.slot_length * time_scale,
                               throughput=inst.throughput / time_scale)


@pytest.mark.parametrize("scale", (*SCALES, 1e-12))
def test_hadar_simulator_admits_a_job_at_its_arrival_at_every_scale(scale):
    """The round loop compared arrivals with ``now + 1e-9`` s: with rounds of 6e-8 s a job arriving at round 1 ran
    in round 0 when rounds last 1e-9 s."""
    from hetopt.hadar import RESTART_DELAY, simulate

    base, scaled = _hadar(1.0), _hadar(scale)
    a = simulate(base, "hadar")
    b = simulate(scaled, "hadar", restart_delay=RESTART_DELAY * scaled.slot_length / base.slot_length)
    np.testing.assert_allclose(np.asarray(b.completion) / scaled.slot_length,
                               np.asarray(a.completion) / base.slot_length, rtol=1e-9)


def _gavel(seconds: float):
    """Gavel's instance with rounds of ``seconds`` (360 s x f), every time and rate scaled by f."""
    from hetopt.gavel import generate_instance

    inst = generate_instance(n_jobs=6, seed=0, jobs_per_hour=6.0)
    f = seconds / 360.0
    return dataclasses.replace(inst, arrival=inst.arrival * f, throughput=inst.throughput / f), f


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("policy", ["fifo"])  # the LP policies differ by their solver at 1e-9 and 1e9
def test_gavel_clean_loop_is_the_same_at_every_scale(scale, policy):
    """hetopt's clean loop (not Gavel's code, which compares without a tolerance) took arrivals within 1e-9 s
    and recomputations due 1e-9 s early: a whole round of 1e-9 s."""
    from hetopt.gavel import simulate

    base, _ = _gavel(360.0)
    scaled, f = _gavel(scale)
    a = simulate(base, policy, mechanism="clean")
    b = simulate(scaled, policy, mechanism="clean", round_length=360.0 * f, recompute_interval=1920.0 * f)
    np.testing.assert_allclose(np.asarray(b.completion) / f, np.asarray(a.completion), rtol=1e-6)


@pytest.mark.parametrize("scale", SCALES)
def test_placement_checker_compares_completions_relatively(scale):
    """The replay compared reported completion times with an absolute 1e-9 s besides the relative SIM_RTOL: with
    jobs of 1e-9 s it accepted completions swapped between two jobs (the average unchanged)."""
    from hetopt.placement import check_schedule, generate_instance, simulate

    base = generate_instance(n_jobs=3, n_workers=6, seed=0)
    f = scale / 1e4  # jobs of about 1e4 s -> about ``scale`` s
    inst = dataclasses.replace(base, throughput=base.throughput / f, intra_node_rate=base.intra_node_rate / f,
                               inter_node_rate=base.inter_node_rate / f)
    sim = simulate(inst, "has")
    assert check_schedule(inst, sim).ok
    done = np.asarray(sim.completion, dtype=float).copy()
    done[[0, 1]] = done[[1, 0]]  # two jobs' completions swapped: the mean and the makespan unchanged
    assert not np.allclose(done, sim.completion, rtol=1e-7, atol=0.0)
    bad = dataclasses.replace(sim, completion=done)
    assert not check_schedule(inst, bad).ok
