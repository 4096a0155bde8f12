"""The error policy on Hadar's public functions: ArgumentError naming the argument, SolverError for the
LP of the makespan bound, ScheduleViolation for a policy that breaks a constraint."""

import numpy as np
import pytest

import hetopt
from hetopt.errors import ArgumentError, InfeasibleError, ScheduleViolation, SolverError
from hetopt.hadar import (
    GavelPolicy,
    HadarEPolicy,
    HadarPolicy,
    TiresiasPolicy,
    Utility,
    check_schedule,
    dp_allocation,
    enumerate_schedules,
    estimate_throughput,
    generate_instance,
    make_policy,
    makespan_lower_bound,
    min_rounds,
    motivating_example,
    physical_mix,
    price_parameters,
    simulate,
    solve_exact,
    trace_workload,
    validate_ratio,
)
from hetopt.hadar import bounds as bounds_module


@pytest.fixture(scope="module")
def inst():
    return hetopt.load_instance("hadar2024_small")


@pytest.mark.parametrize("func", [solve_exact, simulate, check_schedule, validate_ratio, makespan_lower_bound,
                                  price_parameters, dp_allocation])
def test_functions_taking_an_instance_refuse_anything_else(func):
    other = hetopt.load_instance("gavel2020_three_jobs")
    for bad in (None, "hadar2024_small", other):
        with pytest.raises(ArgumentError, match="inst is a"):
            func(bad)


@pytest.mark.parametrize("kwargs, name", [
    ({"solver": "cplex"}, "solver"), ({"time_limit": -1.0}, "time_limit"), ({"time_limit": "60"}, "time_limit"),
    ({"threads": 0}, "threads"), ({"warm_start": 1}, "warm_start"),
])
def test_solve_exact_options(inst, kwargs, name):
    with pytest.raises(ArgumentError, match=name):
        solve_exact(inst, **kwargs)


@pytest.mark.parametrize("kwargs, name", [
    ({"round_length": 0.0}, "round_length"), ({"round_length": float("nan")}, "round_length"),
    ({"restart_delay": -1.0}, "restart_delay"), ({"max_rounds": 0}, "max_rounds"),
    ({"max_rounds": 2.5}, "max_rounds"), ({"record_rounds": 1}, "record_rounds"),
    ({"options": [("beam_width", 1)]}, "options"),
])
def test_simulate_options(inst, kwargs, name):
    with pytest.raises(ArgumentError, match=name):
        simulate(inst, "hadar", **kwargs)


def test_simulate_takes_only_keywords_after_the_policy(inst):
    with pytest.raises(TypeError):
        simulate(inst, "hadar", 60.0)  # round_length must be named


@pytest.mark.parametrize("make, name", [
    (lambda: HadarPolicy(beam_width=0), "beam_width"), (lambda: HadarPolicy(beam_width=True), "beam_width"),
    (lambda: HadarPolicy(comm_weight=-1.0), "comm_weight"), (lambda: HadarPolicy(eta=0.0), "eta"),
    (lambda: HadarPolicy(work_conserving="yes"), "work_conserving"), (lambda: HadarPolicy(seed=-1), "seed"),
    (lambda: HadarEPolicy(n_copies=0), "n_copies"), (lambda: HadarEPolicy(consolidated_only=0), "consolidated_only"),
    (lambda: GavelPolicy(recompute_interval=-1.0), "recompute_interval"), (lambda: GavelPolicy(policy=3), "policy"),
    (lambda: TiresiasPolicy(threshold=0.0), "threshold"), (lambda: make_policy("srtf"), "policy"),
    (lambda: make_policy("tiresias", beam_width=1), "tiresias"),
])
def test_options(make, name):
    with pytest.raises(ArgumentError, match=name):
        make()


@pytest.mark.parametrize("call, name", [
    (lambda: generate_instance(n_jobs=0, n_machines=2, seed=0), "n_jobs"), (lambda: generate_instance(n_jobs=3, n_machines=2, seed=0, utility="linear"),
                                                          "utility"),
    (lambda: generate_instance(n_jobs=3, n_machines=2, seed=-5), "seed"), (lambda: generate_instance(n_jobs=3, n_machines=2, seed=0, slot_length=0),
                                                         "slot_length"),
    (lambda: trace_workload(0), "n_jobs"), (lambda: trace_workload(10, hours_scale=-1.0), "hours_scale"),
    (lambda: physical_mix("M-2"), "mix"), (lambda: physical_mix("M-5", "gcp"), "cluster"),
    (lambda: estimate_throughput("H100", "IC"), "gpu"), (lambda: estimate_throughput("V100", "GPT"), "model"),
    (lambda: min_rounds(motivating_example(), max_rounds=0), "max_rounds"),
    (lambda: enumerate_schedules(motivating_example(), 3), "j"),
    (lambda: price_parameters(motivating_example(), eta=-1.0), "eta"),
])
def test_generators_and_helpers(call, name):
    with pytest.raises(ArgumentError, match=name):
        call()


def test_dp_allocation_options(inst):
    q, rem = np.arange(inst.n_jobs), inst.total_iterations.astype(float)
    with pytest.raises(ArgumentError, match="beam_width"):
        dp_allocation(inst, q, rem, 0.0, beam_width=0)
    for bad in (0, -1, True, 2.5, "9"):
        with pytest.raises(ArgumentError, match="state_budget"):
            dp_allocation(inst, q, rem, 0.0, state_budget=bad)
    with pytest.raises(ArgumentError, match="free"):
        dp_allocation(inst, q, rem, 0.0, free=inst.capacity + 1)


def test_utility_round_trip_and_errors():
    u = Utility("sigmoid", [[1.0, 0.5, 10.0]])
    again = Utility.from_dict(u.to_dict())
    assert again.to_dict() == u.to_dict() == {"kind": "sigmoid", "params": [[1.0, 0.5, 10.0]]}
    assert Utility.from_dict({"kind": "effective_throughput", "params": None}).kind == "effective_throughput"
    with pytest.raises(hetopt.InstanceError, match="unknown keys"):
        Utility.from_dict({"kind": "sigmoid", "theta": 1})
    with pytest.raises(hetopt.InstanceError, match="mapping"):
        Utility.from_dict(["sigmoid"])


def test_makespan_lp_failure_is_a_solver_error(monkeypatch):
    def infeasible(*args, **kwargs):
        raise InfeasibleError("highs: infeasible")

    monkeypatch.setattr(bounds_module, "solve_milp", infeasible)
    with pytest.raises(SolverError, match="makespan LP failed"):
        makespan_lower_bound(motivating_example())


def test_min_rounds_beyond_its_limit_is_a_size_limit():
    with pytest.raises(hetopt.SizeLimitError, match="max_rounds"):
        min_rounds(motivating_example(), max_rounds=2)  # the exact answer is 6


def test_a_policy_breaking_the_gang_is_a_schedule_violation(inst):
    class Half:
        name = "half"

        def reset(self, inst):
            pass

        def allocate(self, state):
            j = int(np.flatnonzero(state.active)[0])
            w = np.zeros_like(state.inst.capacity)
            w[np.argwhere(state.inst.capacity > 0)[0][0], np.argwhere(state.inst.capacity > 0)[0][1]] = 1
            return [(j, w)] if state.inst.gpus[j] > 1 else [(j, w * 0)]

    with pytest.raises(ScheduleViolation, match=r"\(1e\)"):
        simulate(inst, Half())
