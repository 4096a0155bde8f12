"""Hadar: every option of every public function refuses bad values with an ArgumentError naming it;
time limits are honoured with an incumbent and a bound; the exact routes' size guards refuse before
building, with the estimate and the way out (issue 25, items 3-4)."""

from __future__ import annotations

import functools
import math
import time

import numpy as np
import pytest

import hetopt
from hetopt.certify import Status
from hetopt.errors import ArgumentError, SizeLimitError
from hetopt.hadar import (
    GavelPolicy,
    HadarEPolicy,
    HadarInstance,
    HadarPolicy,
    PriceParameters,
    TiresiasPolicy,
    Utility,
    build_p1,
    build_p2,
    build_p3,
    capacity_lower_bound,
    check_schedule,
    competitive_bound,
    dp_allocation,
    enumerate_schedules,
    estimate_throughput,
    find_alloc,
    finish_utility,
    generate_instance,
    hadar_p1_schedule,
    iterations_per_slot,
    make_policy,
    min_rounds,
    motivating_example,
    physical_mix,
    price,
    price_parameters,
    queue_rank,
    ratio_sweep,
    schedule_utility,
    simulate,
    slot_placements,
    small_instance,
    solve_exact,
    solve_p2,
    total_utility,
    trace_workload,
    validate_ratio,
)
from hetopt.hadar.offline import p1_columns
from tests.conftest import time_allowance
from tests.reliability.matrix import Bad, by_function, function_of, refused

INST = hetopt.load_instance("hadar2024_small")
TINY = generate_instance(n_jobs=2, n_machines=1, seed=3)

NAN, INF = float("nan"), float("inf")
BAD_TIME_LIMIT = [NAN, 0, 0.0, -1, -INF, True, False, "60", 1j, [1.0]]
BAD_GAP = [NAN, -0.1, 1.0, 2.0, INF, True, "0.1", 1j]
BAD_THREADS = [0, -1, 1.5, True, "2", 2.0]
BAD_SEED = [True, False, -1, 1.5, "3", 2**64, 2**63, [1]]
BAD_SIZE = [0, -1, "3", True, 2.5, 3.0, None, [2]]
BAD_SIZE0 = [-1, "3", True, 2.5, 3.0, None]          # sizes that may be 0
BAD_POSITIVE = [NAN, 0, 0.0, -1.0, INF, -INF, True, "60", 1j, None]
BAD_NONNEG = [NAN, -1.0, -1e-9, INF, True, "10", 1j, None]
BAD_FLAG = [1, 0, "yes", None, 1.0]
BAD_CHOICE = ["nope", 1, None, True]


def _sched():
    return [enumerate_schedules(TINY, j) for j in range(TINY.n_jobs)]


# (label, call taking the bad value, argument name the error must contain, bad values)
CASES = [
    # generators and workloads
    ("generate_instance.n_jobs", lambda v: generate_instance(n_jobs=v, n_machines=2, seed=0), "n_jobs", BAD_SIZE),
    ("generate_instance.n_machines", lambda v: generate_instance(n_jobs=2, n_machines=v, seed=0), "n_machines", BAD_SIZE),
    ("generate_instance.n_types", lambda v: generate_instance(n_jobs=2, n_machines=2, seed=0, n_types=v), "n_types", BAD_SIZE),
    ("generate_instance.max_gpus_per_type", lambda v: generate_instance(n_jobs=2, n_machines=2, seed=0, max_gpus_per_type=v),
     "max_gpus_per_type", BAD_SIZE0),
    ("generate_instance.max_arrival", lambda v: generate_instance(n_jobs=2, n_machines=2, seed=0, max_arrival=v), "max_arrival",
     BAD_SIZE0),
    ("generate_instance.max_slots", lambda v: generate_instance(n_jobs=2, n_machines=2, seed=0, max_slots=v), "max_slots", BAD_SIZE),
    ("generate_instance.slot_length", lambda v: generate_instance(n_jobs=2, n_machines=2, seed=0, slot_length=v), "slot_length",
     BAD_POSITIVE),
    ("generate_instance.utility", lambda v: generate_instance(n_jobs=2, n_machines=2, seed=0, utility=v), "utility", BAD_CHOICE),
    ("generate_instance.seed", lambda v: generate_instance(n_jobs=2, n_machines=2, seed=v), "seed", BAD_SEED),
    ("small_instance.seed", lambda v: small_instance(seed=v), "seed", BAD_SEED),
    ("small_instance.n_jobs", lambda v: small_instance(seed=0, n_jobs=v), "n_jobs", BAD_SIZE),
    ("trace_workload.n_jobs", lambda v: trace_workload(v), "n_jobs", BAD_SIZE),
    ("trace_workload.seed", lambda v: trace_workload(4, seed=v), "seed", BAD_SEED),
    ("trace_workload.n_machines", lambda v: trace_workload(4, n_machines=v), "n_machines", BAD_SIZE),
    ("trace_workload.gpus_per_machine", lambda v: trace_workload(4, gpus_per_machine=v), "gpus_per_machine",
     BAD_SIZE),
    ("trace_workload.slot_length", lambda v: trace_workload(4, slot_length=v), "slot_length", BAD_POSITIVE),
    ("trace_workload.hours_scale", lambda v: trace_workload(4, hours_scale=v), "hours_scale", BAD_POSITIVE),
    ("trace_workload.iterations_per_epoch", lambda v: trace_workload(4, iterations_per_epoch=v),
     "iterations_per_epoch", BAD_SIZE),
    ("physical_mix.name", lambda v: physical_mix(v), "mix", BAD_CHOICE),
    ("physical_mix.cluster", lambda v: physical_mix("M-1", v), "cluster", BAD_CHOICE),
    ("physical_mix.speeds", lambda v: physical_mix("M-1", speeds=v), "speeds", BAD_CHOICE),
    ("physical_mix.slot_length", lambda v: physical_mix("M-1", slot_length=v), "slot_length", BAD_POSITIVE),
    ("physical_mix.minutes_on_fastest", lambda v: physical_mix("M-1", minutes_on_fastest=v), "minutes_on_fastest",
     BAD_POSITIVE),
    ("estimate_throughput.gpu", lambda v: estimate_throughput(v, "IC"), "gpu", BAD_CHOICE),
    ("estimate_throughput.model", lambda v: estimate_throughput("V100", v), "model", BAD_CHOICE),
    # the exact routes
    ("solve_exact.solver", lambda v: solve_exact(TINY, solver=v), "solver", BAD_CHOICE + ["HiGHS", "cplex"]),
    ("solve_exact.time_limit[highs]", lambda v: solve_exact(TINY, time_limit=v), "time_limit", BAD_TIME_LIMIT),
    ("solve_exact.time_limit[scip]", lambda v: solve_exact(TINY, solver="scip", time_limit=v), "time_limit",
     BAD_TIME_LIMIT),
    ("solve_exact.mip_gap[highs]", lambda v: solve_exact(TINY, mip_gap=v), "mip_gap", BAD_GAP),
    ("solve_exact.mip_gap[scip]", lambda v: solve_exact(TINY, solver="scip", mip_gap=v), "mip_gap", BAD_GAP),
    ("solve_exact.threads", lambda v: solve_exact(TINY, threads=v), "threads", BAD_THREADS),
    ("solve_exact.warm_start", lambda v: solve_exact(TINY, warm_start=v), "warm_start", BAD_FLAG),
    ("solve_exact.max_size", lambda v: solve_exact(TINY, max_size=v), "max_size", BAD_SIZE),
    ("build_p1.scaled", lambda v: build_p1(TINY, scaled=v), "scaled", BAD_FLAG),
    ("build_p2.relax", lambda v: build_p2(TINY, _sched(), relax=v), "relax", BAD_FLAG),
    ("build_p2.require_all", lambda v: build_p2(TINY, _sched(), require_all=v), "require_all", BAD_FLAG),
    ("build_p2.scaled", lambda v: build_p2(TINY, _sched(), scaled=v), "scaled", BAD_FLAG),
    ("build_p3.scaled", lambda v: build_p3(TINY, _sched(), scaled=v), "scaled", BAD_FLAG),
    ("solve_p2.relax", lambda v: solve_p2(TINY, _sched(), relax=v), "relax", BAD_FLAG),
    ("enumerate_schedules.j", lambda v: enumerate_schedules(TINY, v), "j", [-1, 2, True, 0.0, "0", None]),
    ("enumerate_schedules.limit", lambda v: enumerate_schedules(TINY, 0, limit=v), "limit", BAD_SIZE),
    ("slot_placements.j", lambda v: slot_placements(TINY, v), "j", [-1, 2, True, 0.0, "0", None]),
    ("slot_placements.limit", lambda v: slot_placements(TINY, 0, limit=v), "limit", BAD_SIZE),
    ("finish_utility.horizon", lambda v: finish_utility(TINY, v), "horizon", BAD_SIZE[:-2] + [[2]]),
    ("schedule_utility.j", lambda v: schedule_utility(TINY, v, _sched()[0][0]), "j", [-1, 2, True, 0.5, "0"]),
    ("schedule_utility.schedule", lambda v: schedule_utility(TINY, 0, v), "schedule",
     [np.zeros((2, 2)), np.zeros((TINY.n_machines, TINY.n_types, 3))]),
    ("min_rounds.round_length", lambda v: min_rounds(TINY, round_length=v), "round_length", BAD_POSITIVE[:-1]),
    ("min_rounds.max_rounds", lambda v: min_rounds(TINY, max_rounds=v), "max_rounds", BAD_SIZE),
    ("min_rounds.max_states", lambda v: min_rounds(TINY, max_states=v), "max_states", BAD_SIZE),
    ("capacity_lower_bound.one_gang", lambda v: capacity_lower_bound(TINY, one_gang=v), "one_gang", BAD_FLAG),
    ("validate_ratio.time_limit", lambda v: validate_ratio(TINY, time_limit=v), "time_limit", BAD_TIME_LIMIT),
    ("validate_ratio.options", lambda v: validate_ratio(TINY, options={v: 1}), "takes no option",
     ["n_copies", "threshold"]),
    ("validate_ratio.options[type]", lambda v: validate_ratio(TINY, options=v), "options", [[("beam_width", 1)], 1]),
    ("hadar_p1_schedule.beam_width", lambda v: hadar_p1_schedule(TINY, options={"beam_width": v}), "beam_width",
     [0, -1, True, 1.5, "1"]),
    ("ratio_sweep.n", lambda v: ratio_sweep(v), "n", BAD_SIZE),
    ("ratio_sweep.seed", lambda v: ratio_sweep(1, seed=v), "seed", BAD_SEED),
    ("ratio_sweep.n_jobs", lambda v: ratio_sweep(1, n_jobs=v), "n_jobs", BAD_SIZE),
    ("ratio_sweep.n_machines", lambda v: ratio_sweep(1, n_machines=v), "n_machines", BAD_SIZE),
    ("ratio_sweep.executor", lambda v: ratio_sweep(2, executor=v), "executor", [0, -1, True, 2.5, "threads"]),
    # the checker, prices and the allocation
    ("check_schedule.require_completion", lambda v: check_schedule(TINY, np.zeros((2, 1, 2, 3), int),
                                                                   require_completion=v), "require_completion",
     BAD_FLAG),
    ("iterations_per_slot.length", lambda v: iterations_per_slot(TINY, np.zeros((2, 1, 2, 3), int), v), "length",
     BAD_POSITIVE[:-1]),
    ("iterations_per_slot.w", lambda v: iterations_per_slot(TINY, v), "w", [np.zeros((2, 2)), np.zeros((3, 1, 2, 3))]),
    ("price_parameters.eta", lambda v: price_parameters(TINY, v), "eta", BAD_POSITIVE[:-1]),
    ("competitive_bound.eta", lambda v: competitive_bound(TINY, v), "eta", BAD_POSITIVE[:-1]),
    ("PriceParameters.u_max", lambda v: PriceParameters(u_max=v, u_min=1.0, eta=1.0), "u_max", BAD_POSITIVE),
    ("PriceParameters.u_min", lambda v: PriceParameters(u_max=2.0, u_min=v, eta=1.0), "u_min", BAD_POSITIVE + [3.0]),
    ("PriceParameters.eta", lambda v: PriceParameters(u_max=2.0, u_min=1.0, eta=v), "eta", BAD_POSITIVE),
    ("price.params", lambda v: price([[0]], [[1]], v), "params", [None, 1.0, {"u_max": 1}]),
    ("price.gamma", lambda v: price(v, [[1, 1]], PriceParameters(2.0, 1.0, 1.0)), "gamma",
     [[[0]], [["0", 0]], [[-1, 0]], [[NAN, 0]], [[True, 0]]]),
    ("find_alloc.j", lambda v: find_alloc(TINY, v, TINY.capacity, np.ones((1, 2)), remaining=1.0, now=0.0,
                                          comm_cost=0.0), "j", [-1, 2, True, 0.5, "0"]),
    ("find_alloc.free", lambda v: find_alloc(TINY, 0, v, np.ones((1, 2)), remaining=1.0, now=0.0, comm_cost=0.0),
     "free", [np.zeros((2, 2)), -np.ones((1, 2)), TINY.capacity + 1, [[0.5, 0]], [["1", 0]]]),
    ("find_alloc.prices", lambda v: find_alloc(TINY, 0, TINY.capacity, v, remaining=1.0, now=0.0, comm_cost=0.0),
     "prices", [np.ones((2, 2)), [[NAN, 1]], [[-1, 1]], [["1", 1]]]),
    ("find_alloc.remaining", lambda v: find_alloc(TINY, 0, TINY.capacity, np.ones((1, 2)), remaining=v, now=0.0,
                                                  comm_cost=0.0), "remaining", BAD_NONNEG),
    ("find_alloc.now", lambda v: find_alloc(TINY, 0, TINY.capacity, np.ones((1, 2)), remaining=1.0, now=v,
                                            comm_cost=0.0), "now", BAD_NONNEG),
    ("find_alloc.comm_cost", lambda v: find_alloc(TINY, 0, TINY.capacity, np.ones((1, 2)), remaining=1.0, now=0.0,
                                                  comm_cost=v), "comm_cost", BAD_NONNEG),
    ("find_alloc.consolidated_only", lambda v: find_alloc(TINY, 0, TINY.capacity, np.ones((1, 2)), remaining=1.0,
                                                          now=0.0, comm_cost=0.0, consolidated_only=v),
     "consolidated_only", BAD_FLAG),
    ("find_alloc.single_type", lambda v: find_alloc(TINY, 0, TINY.capacity, np.ones((1, 2)), remaining=1.0,
                                                    now=0.0, comm_cost=0.0, single_type=v), "single_type", BAD_FLAG),
    ("dp_allocation.queue", lambda v: dp_allocation(TINY, v, [1.0, 1.0], 0.0), "queue",
     [None, "01", [0, 2], [-1], [True], [0.0], [0, 0]]),
    ("dp_allocation.remaining", lambda v: dp_allocation(TINY, [0, 1], v, 0.0), "remaining",
     [[1.0], [NAN, 1.0], [-1.0, 1.0], ["1", 1.0], None]),
    ("dp_allocation.now", lambda v: dp_allocation(TINY, [0, 1], [1.0, 1.0], v), "now", BAD_NONNEG),
    ("dp_allocation.beam_width", lambda v: dp_allocation(TINY, [0, 1], [1.0, 1.0], 0.0, beam_width=v), "beam_width",
     [0, -1, True, 1.5, "1"]),
    ("dp_allocation.comm_weight", lambda v: dp_allocation(TINY, [0, 1], [1.0, 1.0], 0.0, comm_weight=v),
     "comm_weight", BAD_NONNEG),
    ("dp_allocation.params", lambda v: dp_allocation(TINY, [0, 1], [1.0, 1.0], 0.0, params=v), "params",
     [1.0, {"u_max": 1.0}]),
    ("dp_allocation.work_conserving", lambda v: dp_allocation(TINY, [0, 1], [1.0, 1.0], 0.0, work_conserving=v),
     "work_conserving", BAD_FLAG),
    ("dp_allocation.single_type", lambda v: dp_allocation(TINY, [0, 1], [1.0, 1.0], 0.0, single_type=v),
     "single_type", BAD_FLAG),
    # the simulator and the policies
    ("simulate.policy", lambda v: simulate(TINY, v), "policy", BAD_CHOICE + ["Hadar", "srtf", object()]),
    ("simulate.round_length", lambda v: simulate(TINY, "hadar", round_length=v), "round_length", BAD_POSITIVE[:-1]),
    ("simulate.restart_delay", lambda v: simulate(TINY, "hadar", restart_delay=v), "restart_delay", BAD_NONNEG),
    ("simulate.max_rounds", lambda v: simulate(TINY, "hadar", max_rounds=v), "max_rounds", BAD_SIZE),
    ("simulate.record_rounds", lambda v: simulate(TINY, "hadar", record_rounds=v), "record_rounds", BAD_FLAG),
    ("simulate.options", lambda v: simulate(TINY, "hadar", options=v), "options",
     [[("beam_width", 1)], "beam_width", 1]),
    ("simulate.options[key]", lambda v: simulate(TINY, "hadar", options={v: 1}), "takes no option",
     ["n_copies", "threshold", "round_length"]),
    ("simulate.options[object]", lambda v: simulate(TINY, HadarPolicy(), options=v), "options",
     [{"beam_width": 1}]),
    ("total_utility.jct", lambda v: total_utility(TINY, v), "jct", [[1.0], [NAN, 1.0], [0.0, 1.0], [-1.0, 1.0],
                                                                   ["1", 1.0], None]),
    ("make_policy.name", lambda v: make_policy(v), "policy", BAD_CHOICE),
    ("queue_rank.order", lambda v: queue_rank(TINY, v), "queue_order", BAD_CHOICE),
    ("queue_rank.seed", lambda v: queue_rank(TINY, "random", seed=v), "seed", BAD_SEED),
    ("HadarPolicy.beam_width", lambda v: HadarPolicy(beam_width=v), "beam_width", [0, -1, True, 1.5, "1", "AUTO"]),
    ("HadarPolicy.comm_weight", lambda v: HadarPolicy(comm_weight=v), "comm_weight", BAD_NONNEG),
    ("HadarPolicy.eta", lambda v: HadarPolicy(eta=v), "eta", BAD_POSITIVE[:-1]),
    ("HadarPolicy.work_conserving", lambda v: HadarPolicy(work_conserving=v), "work_conserving", BAD_FLAG),
    ("HadarPolicy.queue_order", lambda v: HadarPolicy(queue_order=v), "queue_order", BAD_CHOICE),
    ("HadarPolicy.seed", lambda v: HadarPolicy(seed=v), "seed", BAD_SEED),
    ("HadarPolicy.single_type", lambda v: HadarPolicy(single_type=v), "single_type", BAD_FLAG),
    ("HadarEPolicy.single_type", lambda v: HadarEPolicy(single_type=v), "single_type", BAD_FLAG),
    ("HadarEPolicy.n_copies", lambda v: HadarEPolicy(n_copies=v), "n_copies", BAD_SIZE[:-2]),
    ("HadarEPolicy.consolidated_only", lambda v: HadarEPolicy(consolidated_only=v), "consolidated_only", BAD_FLAG),
    ("HadarEPolicy.comm_weight", lambda v: HadarEPolicy(comm_weight=v), "comm_weight", BAD_NONNEG),
    ("HadarEPolicy.eta", lambda v: HadarEPolicy(eta=v), "eta", BAD_POSITIVE[:-1]),
    ("HadarEPolicy.initial_throughput", lambda v: HadarEPolicy(initial_throughput=v), "initial_throughput",
     [[["1", 2]], [[True, 1]], [[None, 1]], "x"]),
    ("HadarEPolicy.initial_throughput[shape]", lambda v: simulate(TINY, HadarEPolicy(initial_throughput=v)),
     "initial_throughput", [[[1.0]], [[1.0, 2.0]], [[NAN, 1.0], [1.0, 1.0]], [[-1.0, 1.0], [1.0, 1.0]]]),
    ("GavelPolicy.policy", lambda v: GavelPolicy(policy=v), "policy", [3, "max_min_fairness", None]),
    ("GavelPolicy.recompute_interval", lambda v: GavelPolicy(recompute_interval=v), "recompute_interval",
     [NAN, -1.0, True, "1", None]),
    ("TiresiasPolicy.threshold", lambda v: TiresiasPolicy(threshold=v), "threshold", [NAN, 0.0, -1.0, True, "1",
                                                                                   None]),
]


MATRIX = by_function(Bad(function_of(label), label, v, functools.partial(call, v), name)
                     for label, call, name, values in CASES for v in values)


@pytest.mark.parametrize("function", list(MATRIX))
def test_bad_arguments_are_named(function):
    refused(MATRIX[function])


def test_the_matrix_covers_every_public_function_with_options():
    covered = {label.split(".")[0].split("[")[0] for label, *_ in CASES}
    import inspect

    no_options = {"HadarInstance", "Utility", "KIND", "SCHEMA_VERSION", "POLICIES", "QUEUE_ORDERS", "RESTART_DELAY",
                  "Policy", "RoundState", "HadarSolution", "HadarSimulation", "Allocation", "DPResult",
                  "MakespanBound", "YarnCSPolicy", "motivating_example", "makespan_lower_bound", "split_schedule",
                  "solve_p3"}
    missing = []
    for name in hetopt.hadar.__all__:
        obj = getattr(hetopt.hadar, name)
        if name in no_options or name in covered or not callable(obj):
            continue
        params = [p for p in inspect.signature(obj).parameters if p not in ("inst", "self")]
        if params:
            missing.append(name)
    assert not missing, f"public functions with options missing from the matrix: {missing}"


def test_unknown_options_are_named():
    with pytest.raises(TypeError, match="rel_gap"):
        solve_exact(TINY, rel_gap=0.1)  # Python names an unknown keyword itself
    with pytest.raises(ArgumentError, match="'queue'"):
        make_policy("hadar", queue=1)


# ------------------------------------------------------------------ time limits
def _timed(call):
    t0 = time.perf_counter()
    out = call()
    return out, time.perf_counter() - t0


@pytest.mark.parametrize("solver", ["highs", "scip"])
@pytest.mark.parametrize("n_jobs, limit", [(12, 0.5), (36, 0.5)])
def test_time_limit_is_honoured_with_an_incumbent_and_a_bound(solver, n_jobs, limit):
    from hetopt.hadar.experiments.bench import p1_instance

    inst = p1_instance(n_jobs)
    sol, wall = _timed(lambda: solve_exact(inst, solver=solver, time_limit=limit))
    assert wall <= time_allowance(limit), f"{wall:.2f} s against time_limit={limit}"
    assert sol.status is Status.TIME_LIMIT
    check_schedule(inst, sol).raise_if_invalid()
    assert sol.objective is not None and sol.bound is not None and sol.bound >= sol.objective
    assert math.isclose(check_schedule(inst, sol.schedule).objective, sol.objective, rel_tol=1e-12)
    assert sol.info["bound_source"] and sol.info["start"]


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["highs", "scip"])
def test_time_limit_at_the_size_guard(solver):
    from hetopt.hadar.experiments.bench import p1_instance

    inst = p1_instance(36)
    assert p1_columns(inst) <= hetopt.hadar.offline.MAX_P1_COLUMNS
    for limit in (0.5, 3.0, 8.0):
        sol, wall = _timed(lambda lim=limit: solve_exact(inst, solver=solver, time_limit=lim))
        assert wall <= time_allowance(limit), f"{wall:.2f} s against time_limit={limit}"
        assert sol.bound is not None and sol.bound >= sol.objective


# ------------------------------------------------------------------ size guards
def test_solve_exact_refuses_before_building_with_the_estimate_and_the_way_out(monkeypatch):
    from hetopt.hadar import offline
    from hetopt.hadar.experiments.bench import p1_instance

    inst = p1_instance(40)
    built = []
    monkeypatch.setattr(offline, "_build_p1", lambda *a, **k: built.append(1))
    with pytest.raises(SizeLimitError, match=rf"{p1_columns(inst)} columns.*max_size={p1_columns(inst)}"):
        solve_exact(inst)
    assert not built
    with pytest.raises(SizeLimitError, match="max_size=10"):
        solve_exact(TINY, max_size=10)


def test_a_build_past_its_share_of_the_limit_stops_and_reports_the_start(monkeypatch):
    # issue 31: P1's Pyomo build did not check the clock (2 s took 2.25 s under load, ~3 x its estimate); it now
    # stops once its hand-over (TRANSLATE_FACTOR x the build) would not fit.  A factor of 1e12 leaves the build no
    # time: it stops at its first check and Hadar's start schedule is reported, TIME_LIMIT, with the upper bound.
    from hetopt.hadar import model, offline

    inst = generate_instance(n_jobs=3, n_machines=2, seed=0)
    built = []
    real = model._build_p1
    monkeypatch.setattr(offline, "_build_p1", lambda *a: built.append(a[2]) or real(*a))
    monkeypatch.setattr(offline, "TRANSLATE_FACTOR", 1e12)
    sol = solve_exact(inst, time_limit=60)
    assert built and built[0] is not None
    assert sol.status is Status.TIME_LIMIT and sol.info["bound_source"] == "utility upper bound (MILP not built)"
    assert check_schedule(inst, sol.schedule).ok and sol.bound >= sol.objective
    assert solve_exact(inst).status is Status.OPTIMAL  # no limit: no deadline, built and solved


def test_min_rounds_refuses_a_round_with_too_many_gang_assignments():
    # a gang of 60 over 3 types of 60 GPUs: C(62, 2) = 1891 gangs per job, 1892^2 joint assignments
    inst = HadarInstance(capacity=[[60, 60, 60]], arrival=[0, 0], gpus=[60, 60], epochs=[1, 1],
                         iterations_per_epoch=[100, 100], throughput=[[1.0, 2.0, 3.0]] * 2,
                         utility=Utility("effective_throughput"), slot_length=1.0)
    t0 = time.perf_counter()
    with pytest.raises(SizeLimitError, match=r"3579664 joint gang assignments.*max_states=3579664"):
        min_rounds(inst)
    assert time.perf_counter() - t0 < 1.0


def test_min_rounds_refuses_too_many_rounds_before_searching():
    inst = motivating_example()
    t0 = time.perf_counter()
    with pytest.raises(SizeLimitError, match=r"max_rounds=\d+"):
        min_rounds(inst, round_length=1.0)
    assert time.perf_counter() - t0 < 1.0


def test_slot_placements_counts_before_enumerating():
    inst = HadarInstance(capacity=[[50, 50, 50]], arrival=[0], gpus=[60], epochs=[1], iterations_per_epoch=[100],
                         throughput=[[1.0, 2.0, 3.0]], utility=Utility("effective_throughput"), slot_length=1.0)
    # a + b + c = 60 with each <= 50: C(62, 2) - 3 C(11, 2) = 1891 - 165 = 1726 placements
    with pytest.raises(SizeLimitError, match=r"1726 placements.*limit=1726"):
        slot_placements(inst, 0, limit=1000)
    assert len(slot_placements(inst, 0, limit=1726)) == 1726


def test_enumerate_schedules_stops_a_search_that_finds_nothing():
    # the job needs 40 slots and the horizon has 30: no schedule exists, and the search without a node
    # budget walks all 2^30 subsets of slots before saying so
    inst = HadarInstance(capacity=[[1]], arrival=[0], gpus=[1], epochs=[1], iterations_per_epoch=[40],
                         throughput=[[1.0]], utility=Utility("effective_throughput"), slot_length=1.0, horizon=30)
    t0 = time.perf_counter()
    with pytest.raises(SizeLimitError, match=r"limit="):
        enumerate_schedules(inst, 0, limit=1000)
    assert time.perf_counter() - t0 < 5.0
