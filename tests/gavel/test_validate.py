"""validate_ratio / ratio_sweep: a policy's makespan against the certified optimum (Gavel claims no ratio)."""

import json
import math

import numpy as np
import pytest

import hetopt
from hetopt.errors import ArgumentError
from hetopt.gavel import (
    POLICIES,
    GavelInstance,
    GavelSimulation,
    allocate,
    generate_instance,
    ratio_sweep,
    simulate,
    solve_exact,
    validate_ratio,
)
from hetopt.result import Certificate
from hetopt.validate import SweepResults, instance_digest


@pytest.mark.parametrize("policy", sorted(p for p, spec in POLICIES.items() if spec.static))
def test_certificate_is_a_gap_report_against_the_proven_optimum(policy):
    inst = hetopt.load_instance("gavel2020_static8")
    cert = validate_ratio(inst, policy=policy, time_limit=60)
    assert isinstance(cert, Certificate)
    assert cert.limit is None and cert.holds is None  # Gavel claims no ratio
    assert cert.proven  # the reference is the dual bound of the exact LP
    exact = solve_exact(inst)
    assert cert.reference == pytest.approx(exact.bound, rel=1e-12)
    sol = allocate(inst, policy)
    # an allocation that leaves a job without GPU time (FIFO's) has no makespan: its ratio is infinite
    assert cert.value == (sol.objective if sol.status.has_solution else math.inf)
    assert cert.ratio >= 1 - 1e-9
    if policy == "min_total_duration":  # Gavel's bisection: within its 5 % bracket of the optimum
        assert cert.ratio <= 1.05


def test_max_min_fairness_is_slower_than_the_optimum_on_the_static_workload():
    # max-min fairness balances normalized throughputs, not finishing times: its makespan is larger
    cert = validate_ratio(hetopt.load_instance("gavel2020_static8"))
    assert cert.ratio > 1.01
    assert cert.info["policy"] == "max_min_fairness" and cert.info["exact_status"] == "optimal"


def test_a_callable_policy_is_accepted():
    def everything_on_type_0(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None):
        X = np.zeros_like(np.asarray(throughput, dtype=float))
        X[:, 0] = np.minimum(1.0, capacity[0] / np.sum(scale_factor))
        return X

    inst = GavelInstance(["a", "b"], [2, 2], ["A", "B"], [1, 1], [10.0, 10.0], [0.0, 0.0], [[1.0, 1.0], [1.0, 1.0]])
    cert = validate_ratio(inst, policy=everything_on_type_0)
    # both jobs on type 0 full time (2 GPUs): 10 s; the optimum is also 10 s (each job alone on a GPU)
    assert cert.ratio == pytest.approx(1.0, rel=1e-9) and cert.info["policy"] == "everything_on_type_0"


def test_bad_arguments_are_named():
    inst = hetopt.load_instance("gavel2020_three_jobs")
    with pytest.raises(ArgumentError, match="policy"):
        validate_ratio(inst, policy="srtf")
    with pytest.raises(ArgumentError, match="time_limit"):
        validate_ratio(inst, time_limit=-1)
    with pytest.raises(ArgumentError, match="GavelInstance"):
        validate_ratio(inst.to_dict())
    with pytest.raises(ArgumentError, match="n"):
        ratio_sweep(0, executor="serial")
    with pytest.raises(ArgumentError, match="seed"):
        ratio_sweep(2, seed=-1, executor="serial")
    with pytest.raises(ArgumentError, match="policy"):
        ratio_sweep(2, policy="srtf", executor="serial")
    with pytest.raises(ArgumentError, match="capacity"):
        ratio_sweep(2, capacity=(1, 1), executor="serial")


def test_ratio_sweep_returns_sweep_results_of_certificates():
    res = ratio_sweep(3, seed=5, executor="serial", n_jobs=5)
    assert isinstance(res, SweepResults) and len(res) == 3 and res.seeds == [5, 6, 7]
    assert all(isinstance(c, Certificate) and c.proven and c.limit is None for c in res)
    assert res.violations == 0  # no claimed limit: nothing can be violated
    assert res.digests == [instance_digest(generate_instance(n_jobs=5, seed=s, capacity=(2, 2, 2))) for s in (5, 6, 7)]
    assert res.distinct_instances == 3
    table = res.table()
    assert len(table.rows) == 3 and all(row[-1] == "not checked" for row in table.rows)
    again = ratio_sweep(3, seed=5, executor="serial", n_jobs=5)
    assert [c.ratio for c in again] == [c.ratio for c in res]  # seeded


def test_simulation_round_trip_and_summary():
    inst = hetopt.load_instance("gavel2020_workload12")
    sim = simulate(inst, "max_min_fairness")
    again = GavelSimulation.from_dict(json.loads(json.dumps(sim.to_dict())))
    assert again == sim and again.to_dict() == sim.to_dict()
    assert all(isinstance(j, int) for rd in again.rounds for j in rd["placement"])  # job keys are ints again
    assert hetopt.gavel.check_schedule(inst, again).ok
    summary = sim.summary()
    assert summary["rounds"] == len(sim.rounds) and summary["average_jct"] == pytest.approx(sim.average_jct)
    json.dumps(summary, allow_nan=False)
    assert simulate(inst, "fifo") != sim


def test_simulate_checks_its_options_and_the_policy_output():
    inst = hetopt.load_instance("gavel2020_three_jobs")
    for kwargs, name in [({"round_length": 0}, "round_length"), ({"recompute_interval": -1}, "recompute_interval"),
                         ({"max_rounds": 0}, "max_rounds"), ({"record_rounds": 1}, "record_rounds")]:
        with pytest.raises(ArgumentError, match=name):
            simulate(inst, "max_min_fairness", **kwargs)
    with pytest.raises(ArgumentError, match="policy"):
        simulate(inst, 3)
    with pytest.raises(TypeError):
        simulate(inst)  # the policy is required

    def greedy(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None):
        return np.ones_like(np.asarray(throughput, dtype=float))  # every job on every type full time: (G2)

    with pytest.raises(hetopt.ScheduleViolation, match=r"\(G2\).*greedy"):
        simulate(inst, greedy)

    def wrong_shape(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None):
        return np.zeros((1, 1))

    with pytest.raises(hetopt.ScheduleViolation, match="shape"):
        simulate(inst, wrong_shape)
