"""The link cuts of the contention-aware relaxation hold on fluid schedules computed by the reference fluid model.

Each case draws all-reduces with random starts on random servers, computes their ends with
:func:`hetopt.contention.fluid_completion_times` (independent of the cut code), rounds every time
DOWN to a unit of 0.1 s, fixes the CP-SAT variables to those values and asks CP-SAT whether the
cuts are satisfied: every cut must hold (FEASIBLE).
"""

import itertools
import math

import numpy as np
import pytest
from ortools.sat.python import cp_model

from hetopt.contention import fluid_completion_times
from hetopt.contention.cpsat import CpTask
from hetopt.contention.cuts import add_pair_cuts
from hetopt.contention.link_cuts import (
    add_overlap_disjunctions,
    add_set_cut,
    add_stretch_cuts,
    add_transfer_completion_cuts,
    add_window_cuts,
    order_literals,
    stretch_violated,
    violated_sets,
)

UNIT = 10  # time units per second


def _case(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 6))
    a, eta = float(rng.choice([0.0, 0.5, 1.0])), float(rng.choice([0.0, 0.5, 1.0]))
    sizes = rng.integers(1, 4, size=n).astype(float)
    starts = np.round(rng.uniform(0, 6, size=n), 3)
    servers = [tuple(sorted(rng.choice(3, size=int(rng.integers(1, 3)), replace=False).tolist())) for _ in range(n)]
    ends = fluid_completion_times(sizes, starts, servers, a, 1.0, eta)
    tasks = [CpTask(("c", k, 0), k, 0, "c", servers[k], a + sizes[k], int(round((a + sizes[k]) * UNIT)))
             for k in range(n)]
    return tasks, starts, ends, a, eta


def _fixed_model(tasks, starts, ends, shift=None):
    m = cp_model.CpModel()
    S = {t.key: m.new_constant(int(math.floor(starts[t.job] * UNIT + 1e-9))) for t in tasks}
    e = {t.key: int(math.floor(ends[t.job] * UNIT + 1e-9)) for t in tasks}
    if shift is not None:
        e[shift[0]] += shift[1]
    E = {t.key: m.new_constant(e[t.key]) for t in tasks}
    return m, S, E


def _add_all(m, tasks, S, E, a, eta, starts):
    lat = int(round(a * UNIT))
    waste = (1.0 + eta) / (2.0 + eta)
    orders = order_literals(m, S, E)
    pairs = [(x, y) for x, y in itertools.combinations(tasks, 2) if set(x.where) & set(y.where)]
    add_stretch_cuts(m, pairs, S, E, lat, waste, 10_000)
    add_overlap_disjunctions(m, pairs, S, E, lat, waste)
    release = {t.key: int(math.floor(starts[t.job] * UNIT)) - t.job for t in tasks}  # lower bounds of the starts
    for s in range(3):
        group = [t for t in tasks if s in t.where]
        if len(group) < 2:
            continue
        add_pair_cuts(m, group, S, E, lat, 10_000, latency_floor=lat, waste=waste)
        add_window_cuts(m, group, S, E, lat, lat, orders)
        add_transfer_completion_cuts(m, group, E, release, lat)
        for size in range(2, len(group) + 1):
            for K in itertools.combinations(group, size):
                add_set_cut(m, list(K), S, E, lat, lat, 10_000)


def _feasible(m):
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    return solver.solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


@pytest.mark.parametrize("seed", range(40))
def test_every_link_cut_holds_on_rounded_fluid_schedules(seed):
    tasks, starts, ends, a, eta = _case(seed)
    m, S, E = _fixed_model(tasks, starts, ends)
    _add_all(m, tasks, S, E, a, eta, starts)
    assert _feasible(m)
    # the separation routines see no violation either
    lat = int(round(a * UNIT))
    sv = {t.key: int(math.floor(starts[t.job] * UNIT + 1e-9)) for t in tasks}
    ev = {t.key: int(math.floor(ends[t.job] * UNIT + 1e-9)) for t in tasks}
    for s in range(3):
        assert violated_sets([t for t in tasks if s in t.where], sv, ev, lat, lat) == []
    waste = (1.0 + eta) / (2.0 + eta)
    assert not any(stretch_violated(x, y, sv, ev, lat, waste) for x, y in itertools.combinations(tasks, 2)
                   if set(x.where) & set(y.where))


def test_stretch_cut_is_tight_for_two_equal_transfers_started_together():
    # a = 1, b = 1, eta = 0.5, sigma = 2: both end at 1 + (2 + 0.5) * 2 = 6 (eq. (5) with k = 2)
    tasks = [CpTask(("c", k, 0), k, 0, "c", (0, 1), 3.0, 30) for k in range(2)]
    starts, ends = np.zeros(2), fluid_completion_times([2.0, 2.0], [0.0, 0.0], [(0, 1), (0, 1)], 1.0, 1.0, 0.5)
    assert ends == pytest.approx([6.0, 6.0])
    m, S, E = _fixed_model(tasks, starts, ends)
    _add_all(m, tasks, S, E, 1.0, 0.5, starts)
    assert _feasible(m)
    # the stretch cut alone, at end E (units) of task 0: 1000 (E - 30) >= 600 (E - 10) - (999 + 600), i.e.
    # E >= 56.0025: it admits 57 (the allowance for rounding) and not 56
    for shift, ok in ((-3, True), (-4, False)):
        m, S, E = _fixed_model(tasks, starts, ends, shift=(("c", 0, 0), shift))
        add_stretch_cuts(m, [tuple(tasks)], S, E, 10, 0.6, 10_000)
        assert _feasible(m) is ok


def test_set_cut_catches_three_overlapping_transfers():
    # three transfers of 1 s started together: pairs may end at 3, 3, 2 (pair cuts) but the set needs 4
    tasks = [CpTask(("c", k, 0), k, 0, "c", (0,), 2.0, 20) for k in range(3)]
    sv = {t.key: 0 for t in tasks}
    ev = {("c", 0, 0): 20, ("c", 1, 0): 30, ("c", 2, 0): 30}
    assert violated_sets(tasks, sv, ev, 10, 10) == [tuple(t.key for t in tasks)]
    m = cp_model.CpModel()
    S = {t.key: m.new_constant(0) for t in tasks}
    E = {key: m.new_constant(v) for key, v in ev.items()}
    add_set_cut(m, tasks, S, E, 10, 10, 100)
    assert not _feasible(m)


def test_set_cuts_are_added_while_the_relaxation_is_solved():
    # three transfers of 1 s after a 1 s latency, all started at 0, pair cuts only: the relaxation ends
    # them at 2, 3, 3 (sum 8 s); the window cut of the three (max end >= 1 + 3) adds one round: 2, 3, 4
    import time

    from hetopt.contention.shared import _solve_with_set_cuts

    tasks = [CpTask(("c", k, 0), k, 0, "c", (0,), 2.0, 20) for k in range(3)]
    m = cp_model.CpModel()
    S = {t.key: m.new_int_var(0, 0, "") for t in tasks}
    E = {t.key: m.new_int_var(20, 100, "") for t in tasks}
    add_pair_cuts(m, tasks, S, E, 10, 200, latency_floor=10, waste=0.0)
    m.minimize(sum(E.values()))
    res, bound, rounds = _solve_with_set_cuts(None, m, {"S": S, "E": E, "top": 200}, tasks, None,
                                              time.perf_counter(), 1, 0, True, 10, 10)
    assert rounds == 1 and bound == 90 and res.objective == 90
    assert sorted(int(res.info["values"][E[t.key].index]) for t in tasks) == [20, 30, 40]
    _, _, rounds = _solve_with_set_cuts(None, m.clone(), {"S": S, "E": E, "top": 200}, tasks, None,
                                        time.perf_counter(), 1, 0, False, 10, 10)
    assert rounds == 0
