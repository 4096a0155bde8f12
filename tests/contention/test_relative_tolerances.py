"""Contention's tolerances are relative (issue 31): a case scaled by 1e-9 or 1e9 gets the decision it gets at 1.

Before, ``1e-12 * max(1, t)`` (the fluid model's event test), ``1e-12 * max(1, avg)`` (the two-task grid) and
``1e-9 * max(1, objective)`` (the local search) acted as absolute floors below 1 s.
"""

import dataclasses

import pytest

from hetopt.contention import fluid_completion_times, simulate, tiny_instance
from hetopt.contention.search import improve_schedule
from hetopt.contention.two_task import two_task_fluid_optimum

SCALES = [1e-9, 1.0, 1e9]


@pytest.mark.parametrize("scale", SCALES)
def test_fluid_model_ends_a_transfer_only_at_its_end(scale):
    # two all-reduces sharing a server, 1 and 1.0001 MB; the first ends at 2.5 (2b + eta per MB), the second's last
    # 1e-4 MB then move alone at 1/b: it ends at 2.5 + 1e-4 (at 1e-9 the floor ended it with the first, at 2.5)
    ends = fluid_completion_times([1.0, 1.0001], [0.0, 0.0], [[0], [0]], 0.0, 1.0 * scale, 0.5 * scale)
    assert ends[0] / scale == pytest.approx(2.5, rel=1e-12)
    assert ends[1] / scale == pytest.approx(2.5 * 1.0 + 1e-4, rel=1e-12)


def test_two_task_grid_picks_the_same_offset_at_every_magnitude():
    # a fine grid: at 1e-9 steps of avg below 1e-12 s were ignored and (1, 0.999, 1.601) came out, not (1, 1, 1.6)
    # (with 20001 points (1, 0.9991, 1.6009); with 2001 the absolute rule happens to land on the optimum)
    ref = two_task_fluid_optimum(1.0, 1.2, 1.0, 0.5, n_grid=1001)
    for scale in (1e-9, 1e9):
        f, off, avg = two_task_fluid_optimum(1.0, 1.2, 1.0 * scale, 0.5 * scale, n_grid=1001)
        assert (f, off / scale, avg / scale) == (ref[0], pytest.approx(ref[1], rel=1e-9), pytest.approx(ref[2], rel=1e-9))


def _scaled(inst, f):
    return dataclasses.replace(inst, arrival=inst.arrival * f, t_f=inst.t_f * f, t_b=inst.t_b * f, a=inst.a * f,
                               b=inst.b * f, eta=inst.eta * f)


@pytest.mark.parametrize("scale", SCALES)
def test_local_search_improves_at_every_magnitude(scale):
    # seed 1: the search takes SRSF(3)'s 145 to 144 at 1; at 1e-9 the floor kept 145
    inst = _scaled(tiny_instance(seed=1, n_jobs=8, n_servers=2, gpus_per_server=4, max_iterations=3), scale)
    start = simulate(inst, "srsf3", record=True)
    best = improve_schedule(inst, start.placement, start)
    assert start.objective / scale == pytest.approx(145.0, rel=1e-9)
    assert best.objective / scale == pytest.approx(144.0, rel=1e-9)
