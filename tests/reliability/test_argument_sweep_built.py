"""What the argument sweep found once it could build the required arguments of 143 more public functions (issue 31).

Each case crashed (TypeError, AttributeError, IndexError, a numpy error, a hang), was accepted silently or raised
an error that did not name the argument before; each is now an ArgumentError or InstanceError naming it (the
sweep's ``named``).  ``python -m tests.reliability.argument_sweep`` runs the whole matrix (slow tier).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import hetopt
from hetopt.errors import ArgumentError, InstanceError, SizeLimitError
from hetopt.registry import get_kind

HUGE = 2**70


def _named(call, name: str) -> None:
    with pytest.raises((ArgumentError, InstanceError, SizeLimitError), match=name):
        call()


def _ex(kind: str):
    inst = get_kind(kind).example(seed=0, size=1)
    return inst, hetopt.solve(inst)


def test_solution_fields_are_checked_where_every_solution_is_built():
    from hetopt.certify import Status
    from hetopt.result import Solution

    _named(lambda: Solution(status="optimal"), "status")
    _named(lambda: Solution(status=Status.FEASIBLE, bound="x"), "bound")
    _named(lambda: Solution(status=Status.FEASIBLE, wall_time=-1.0), "wall_time")
    _named(lambda: Solution(status=Status.FEASIBLE, solver=3), "solver")
    _named(lambda: Solution(status=Status.FEASIBLE, info=[]), "info")


def test_takes_instance_accepts_the_first_argument_by_its_own_name():
    from hetopt.arena import jct_lower_bound, makespan_lower_bound

    w = get_kind("arena").example(seed=0, size=1)
    assert makespan_lower_bound(w=w).value > 0  # TypeError before: the wrapper's argument was called inst
    _named(lambda: makespan_lower_bound(w=None), "w is")
    _named(lambda: jct_lower_bound(w, intervals=HUGE), "intervals")


def test_hare():
    from hetopt.hare import generate_workload, list_schedule, make_solution, ratio_table, semi_active
    from hetopt.hare.exact import improve_schedule

    inst, sol = _ex("hare")
    _named(lambda: make_solution(inst, [math.nan] * inst.n_tasks, sol.gpu, method="m"), "start")
    _named(lambda: make_solution(inst, sol.start, [[0], [0, 1]], method="m"), "gpu")
    _named(lambda: make_solution(inst, sol.start, sol.gpu, method=3), "method")
    _named(lambda: make_solution(inst, sol.start, sol.gpu, method="m", wall_time="x"), "wall_time")
    _named(lambda: semi_active(None, (), sol.gpu), "inst")
    _named(lambda: semi_active(inst, (), sol.gpu), "order")
    _named(lambda: semi_active(inst, tuple(range(inst.n_tasks)), [math.nan] * inst.n_tasks), "gpu")
    _named(lambda: list_schedule(inst, "x"), "priority")
    _named(lambda: improve_schedule(inst, sol.start, sol.gpu, kick=HUGE), "kick")  # hung before
    _named(lambda: ratio_table([1.0]), "certificates")
    _named(lambda: ratio_table([], seed="x"), "seed")
    _named(lambda: generate_workload(2, None), "gpus")


def test_oasis():
    from hetopt.oasis import Prices, build_dual, build_primal, make_solution, place_round_robin, price

    inst, sol = _ex("oasis")
    _named(lambda: build_primal(None, {}), "inst")
    _named(lambda: build_primal(inst, {0: "x"}), "schedules")
    _named(lambda: build_primal(inst, {}, relax="x"), "relax")
    _named(lambda: build_dual(inst, None), "schedules")
    _named(lambda: make_solution(inst, None), "schedules")
    _named(lambda: make_solution(inst, dict(sol.schedules), bound="x"), "bound")
    _named(lambda: price(math.nan, 1.0, np.zeros(2), np.ones(2)), "log_L")
    _named(lambda: price(0.0, 1.0, [[1.0], [1.0, 2.0]], np.ones(2)), "used")
    _named(lambda: price(0.0, 1.0, np.zeros(2), np.ones(2), dtype=None), "dtype")
    _named(lambda: place_round_robin(None, np.ones(2), 1), "free")
    _named(lambda: place_round_robin(np.ones((2, 2)), np.ones(2), -1), "count")
    assert price(-math.inf, 1.0, np.zeros(2), np.ones(2)).tolist() == [0.0, 0.0]  # ln L = -inf stays legal
    assert isinstance(Prices, type)


def test_placement():
    from hetopt.placement import categories, check_assignment, iter_categories, make_solution, sum_top

    inst, sol = _ex("placement")
    _named(lambda: check_assignment(inst, [[1.0], [1.0, 2.0]]), "assignment")
    _named(lambda: make_solution(inst, sol.assignment, solver=3), "solver")
    _named(lambda: make_solution(inst, sol.assignment, solver="s", status="optimal"), "status")
    _named(lambda: iter_categories("x", 3), "n_jobs")  # a generator checked its arguments at the first next()
    _named(lambda: categories(2, HUGE), "n_workers")
    _named(lambda: sum_top("x", 1), "values")


def test_contention():
    from hetopt.contention import (
        adadual,
        adadual_threshold,
        authors_slotted_transfer,
        first_fit,
        jct_metrics,
        make_placement,
        srsf_rule,
        starts_immediately,
    )
    from hetopt.contention.two_task import two_task_fluid_optimum

    _named(lambda: adadual([{1}], {1: 1.0}, 1.0, None, 0.1), "b")
    _named(lambda: adadual("x", {1: 1.0}, 1.0, 1.0, 0.1), "server_tasks")
    _named(lambda: srsf_rule([{1}], None, 1.0, 1.0, 0.1, n=2), "remaining")  # accepted before: unused there
    _named(lambda: adadual_threshold(1.0, -1.0), "eta")  # ZeroDivisionError before
    _named(lambda: starts_immediately(math.nan, 1.0, 1.0, 0.1), "m_new")
    _named(lambda: first_fit([1.0], np.zeros(1), 1, 1, 0.1), "free_memory")
    _named(lambda: first_fit(np.ones(4), np.zeros(4), 2, HUGE, 0.1), "n_gpus")
    _named(lambda: make_placement("lwf", seed="x"), "seed")
    _named(lambda: jct_metrics([]), "jct")
    _named(lambda: authors_slotted_transfer(1.0, 1.0, HUGE), "n_waiters")  # hung before
    _named(lambda: two_task_fluid_optimum(1.0, 2.0, 1.0, 0.1, n_grid=HUGE), "n_grid")  # numpy error before


def test_gavel():
    from hetopt.gavel import (
        build_fifo_step,
        fifo_random,
        gavel_max_min_fairness,
        gavel_min_total_duration,
        generate_instance,
        max_min_fairness_objective,
        parse_trace,
        proportional_allocation,
        schedule_round,
        solve_min_total_duration,
    )

    inst = get_kind("gavel").example(seed=0, size=1)
    T, s, c = inst.throughput, inst.scale_factor, inst.capacity
    _named(lambda: gavel_max_min_fairness(None, s, c), "throughput")
    _named(lambda: gavel_max_min_fairness(T, [[1.0], [1.0, 2.0]], c), "scale_factor")
    _named(lambda: gavel_min_total_duration(T, s, c, inst.total_steps, solver="nope"), "solver")
    _named(lambda: gavel_min_total_duration(T, s, c, inst.total_steps, max_brackets=True), "max_brackets")
    _named(lambda: build_fifo_step(T, s, c, HUGE, []), "job")
    _named(lambda: fifo_random(T, s, c, seed="x"), "seed")
    _named(lambda: max_min_fairness_objective(None, T, s, c), "X")
    _named(lambda: parse_trace(""), "text")
    _named(lambda: proportional_allocation(c, HUGE), "n_jobs")  # OverflowError before
    _named(lambda: schedule_round(np.zeros(T.shape), s, c, np.ones(T.shape), work_conserving="x"), "work_conserving")
    _named(lambda: solve_min_total_duration(T, s, c, solver=None), "solver")
    _named(lambda: generate_instance(n_jobs=2, seed=0, description=None), "description")


def test_hadar():
    from hetopt.hadar import build_p2, make_policy, physical_mix, split_schedule

    inst, _ = _ex("hadar")
    _named(lambda: build_p2(inst, None), "schedules")
    _named(lambda: split_schedule("x"), "w")
    _named(lambda: make_policy(None), "name")
    _named(lambda: physical_mix(3), "name")


def test_arena():
    from hetopt.arena import at_load, execute, gavel_trace, load_workload, metrics_of, to_gavel

    w = get_kind("arena").example(seed=0, size=1)
    _named(lambda: to_gavel(None), "w")
    _named(lambda: at_load(object(), 60.0), "w")
    _named(lambda: metrics_of(w, None), "run")
    _named(lambda: execute(w, None), "policy")
    _named(lambda: gavel_trace(None), "name")
    _named(lambda: load_workload(None), "spec")
    _named(lambda: load_workload(w, counts=3), "counts")


def test_refine_beyond_the_integer_range_is_refused():
    from hetopt.contention import solve_contention_bound

    inst = get_kind("contention").example(seed=0, size=1)
    _named(lambda: solve_contention_bound(inst, refine=HUGE), "refine")  # fell back silently before
