"""Issue 25, Gavel's part: min-total-duration at any magnitude, the simulator's size guard, every argument checked."""

import numpy as np
import pytest

import hetopt
from hetopt.certify import Status
from hetopt.errors import ArgumentError, InstanceError, SizeLimitError
from hetopt.gavel import GavelInstance, generate_instance, simulate, solve_exact
from hetopt.gavel.makespan import certify_min_total_duration, solve_min_total_duration

#: The instance of issue 25: the LP optimum is 1000 (job 1 on the three GPUs of type 1, job 2 on type 0).
T25 = [[1e6, 1e-3], [1, 1e3], [1e-3, 1e-3]]
S25, C25, STEPS25 = [1, 2, 1], [1, 3], np.array([1e-3, 1e6, 1.0])


@pytest.mark.parametrize("k", [1.0, 1e6, 1e-6])
def test_min_total_duration_tiny_job_at_every_magnitude(k):
    r = solve_min_total_duration(T25, S25, C25, STEPS25 * k)
    assert r.makespan == pytest.approx(1000.0 * k, rel=1e-9)
    cert = certify_min_total_duration(T25, S25, C25, STEPS25 * k)
    assert cert.status is Status.OPTIMAL and cert.makespan == pytest.approx(1000.0 * k, rel=1e-9)
    assert cert.lower_bound <= cert.makespan * (1 + 1e-12)
    X = cert.allocation
    assert np.all(X >= 0) and np.all(X.sum(axis=1) <= 1) and np.all(np.asarray(S25) @ X <= np.asarray(C25))


def test_solve_exact_on_the_issue_instance():
    inst = GavelInstance(["a", "b"], C25, ["J0", "J1", "J2"], S25, STEPS25, [0.0, 0.0, 0.0], T25)
    sol = solve_exact(inst)
    assert sol.status is Status.OPTIMAL and sol.objective == pytest.approx(1000.0, rel=1e-9)
    assert hetopt.gavel.check_schedule(inst, sol).ok


def test_tiny_job_that_needs_the_others_scaled():
    # one GPU, fully used by the big job: the tiny job's 1e-9 s come from scaling the big job's share
    cert = certify_min_total_duration([[1.0], [1.0]], [1, 1], [1], [1000.0, 1e-9])
    assert cert.status is Status.OPTIMAL
    assert cert.makespan == pytest.approx(1000.0 + 1e-9, rel=1e-9)


def test_size_guard_refuses_two_thousand_jobs_with_the_way_out():
    inst = generate_instance(n_jobs=2000, seed=0)
    with pytest.raises(SizeLimitError, match="max_size"):
        simulate(inst, "fifo")
    with pytest.raises(ArgumentError, match="max_size"):
        simulate(inst, "fifo", max_size=-1)


@pytest.mark.parametrize("bad", ["3", 3.0, True, 0, -2])
def test_sizes_are_integers(bad):
    with pytest.raises(ArgumentError, match="n_jobs"):
        generate_instance(n_jobs=bad, seed=0)


@pytest.mark.parametrize("field,value", [("gpu_types", [None, "k80"]), ("job_types", [None]), ("gpu_types", [5, "x"]),
                                         ("job_types", [""])])
def test_names_are_not_coerced(field, value):
    args = {"gpu_types": ["v100", "k80"], "capacity": [1, 1], "job_types": ["A"], "scale_factor": [1],
            "total_steps": [1.0], "arrival": [0.0], "throughput": [[1.0, 1.0]]}
    args[field] = value
    with pytest.raises(InstanceError, match=field):
        GavelInstance(**args)


@pytest.mark.parametrize("kwargs,name", [
    ({"mechanism": None}, "mechanism"), ({"mechanism": "Gavel"}, "mechanism"), ({"solver": "ECOS"}, "solver"),
    ({"seed": "0"}, "seed"), ({"seed": -1}, "seed"), ({"round_length": True}, "round_length"),
    ({"recompute_interval": float("nan")}, "recompute_interval"), ({"max_rounds": 2.5}, "max_rounds"),
    ({"record_rounds": 1}, "record_rounds"), ({"options": [1]}, "options"),
    ({"options": {"zzz": 1}}, "zzz"), ({"type_order": "slowest"}, "type_order")])
def test_simulate_names_every_bad_argument(kwargs, name):
    inst = hetopt.load_instance("gavel2020_three_jobs")
    with pytest.raises(ArgumentError, match=name):
        simulate(inst, "fifo", **kwargs)


def test_helpers_name_bad_arrays():
    from hetopt.gavel import (
        GavelMechanism,
        dual_makespan_bound,
        fastest_first,
        feasible_allocation,
        isolated_allocation,
        makespan_of,
        schedule_round,
    )

    for call in (lambda: fastest_first("x"), lambda: isolated_allocation("x", [1]), lambda: makespan_of("x", "y", "z"),
                 lambda: feasible_allocation("a", "b", "c"), lambda: dual_makespan_bound(*"abcdef"),
                 lambda: schedule_round([[1.0]], [1], [1], [[1.0]], type_order="x")):
        with pytest.raises(InstanceError):
            call()
    for kwargs in ({"n_types": "2"}, {"n_types": 2, "round_length": "x"}, {"n_types": 2, "type_order": [0, 0]}):
        with pytest.raises(ArgumentError):
            GavelMechanism(**kwargs)
    with pytest.raises(ArgumentError, match="n"):
        hetopt.gavel.kind.validate("3")
