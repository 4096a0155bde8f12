"""Scaling audit: the package's LP/MILP models keep their coefficient range at any data magnitude.

For every model whose coefficients carried data magnitudes (step counts, sample counts,
iteration counts) the test multiplies those data by 1e6 and checks that (a) the constraint
matrix's coefficient range does not move and (b) the optimum scales as the units say.  The
other models are audited at their real magnitudes (bundled instances, generators' defaults).
"""

import dataclasses

import numpy as np
import pytest

from hetopt import load_instance
from hetopt.scaling import RANGE_LIMIT, coefficient_range

K = 1e6


def _same_range(a, b):
    ra, rb = coefficient_range(a), coefficient_range(b)
    assert ra.matrix == pytest.approx(rb.matrix, rel=1e-9), (ra, rb)
    assert ra.ratio <= RANGE_LIMIT, ra
    return ra


def test_coefficient_range_of_a_known_model():
    import pyomo.environ as pyo

    m = pyo.ConcreteModel()
    m.x, m.y = pyo.Var(bounds=(0, 1)), pyo.Var(bounds=(0, 1))
    m.c = pyo.Constraint(expr=3e-3 * m.x + 2 * m.y <= 5)
    m.d = pyo.Constraint(expr=m.x - 7 * m.y >= -1)
    m.o = pyo.Objective(expr=4 * m.x)
    r = coefficient_range(m)
    assert r.matrix == (3e-3, 7.0) and r.objective == (4.0, 4.0) and r.rhs == (1.0, 5.0)
    assert r.ratio == pytest.approx(7 / 3e-3)


# ---------------------------------------------------------------- Gavel
def hadar_trace_as_gavel_inputs(n_jobs: int):
    """Hadar's trace as Gavel's inputs (T, s, c, steps), as hadar.policies.GavelPolicy builds them."""
    from hetopt.hadar.workloads import trace_workload

    inst = trace_workload(n_jobs, seed=0, n_machines=15)
    per_type = inst.capacity.sum(axis=0).astype(float)
    T = inst.throughput * inst.gpus[:, None]
    T[inst.gpus[:, None] > per_type[None, :]] = 0.0
    return T, inst.gpus.astype(float), per_type, inst.total_iterations.astype(float)


def test_gavel_frozen_trace_table_is_the_hadar_trace():
    from hetopt.gavel.experiments.checks import trace_instance

    for got, want in zip(trace_instance(), hadar_trace_as_gavel_inputs(480), strict=True):
        np.testing.assert_array_equal(got, want)


def test_gavel_min_total_duration_range_and_makespan_scale():
    from hetopt.gavel import build_min_total_duration, solve_min_total_duration

    T, s, c, steps = hadar_trace_as_gavel_inputs(96)
    _same_range(build_min_total_duration(T, s, c, steps)[0], build_min_total_duration(T, s, c, steps * K)[0])
    base = solve_min_total_duration(T, s, c, steps).makespan
    assert solve_min_total_duration(T, s, c, steps * K).makespan == pytest.approx(base * K, rel=1e-6)


def test_gavel_fairness_and_sum_ranges_do_not_see_throughput_units():
    from hetopt.gavel import (
        build_max_min_fairness,
        build_max_sum_throughput,
        max_min_fairness,
        max_min_fairness_objective,
    )

    T, s, c, _ = hadar_trace_as_gavel_inputs(96)
    _same_range(build_max_min_fairness(T, s, c)[0], build_max_min_fairness(T * K, s, c)[0])
    _same_range(build_max_sum_throughput(T, s, c)[0], build_max_sum_throughput(T * K, s, c)[0])
    a = max_min_fairness_objective(max_min_fairness(T, s, c), T, s, c)
    b = max_min_fairness_objective(max_min_fairness(T * K, s, c), T, s, c)
    assert b == pytest.approx(a, rel=1e-6)


# ---------------------------------------------------------------- placement (Liu et al.)
def _placement_pair():
    inst = load_instance("liu2024_table2")
    big = dataclasses.replace(inst, dataset_size=np.asarray(inst.dataset_size) * K,
                              model_size=None if inst.model_size is None else np.asarray(inst.model_size) * K)
    return inst, big


def test_placement_models_range_is_invariant_to_sample_counts():
    from hetopt.placement.model import build_p1, build_p1_grouped, build_p2

    inst, big = _placement_pair()
    cat = [1] * inst.n_jobs
    cat[0] = inst.n_workers - inst.n_jobs + 1
    for build in (build_p1, build_p1_grouped, lambda i: build_p2(i, cat)):
        _same_range(build(inst), build(big))


def test_placement_exact_average_jct_scales_with_sample_counts():
    from hetopt.placement import solve_exact
    from hetopt.placement.evaluate import average_jct

    inst, big = _placement_pair()
    a, b = solve_exact(inst), solve_exact(big)
    assert b.status.value == "optimal" and a.status.value == "optimal"
    assert average_jct(big, b.assignment) == pytest.approx(K * average_jct(inst, a.assignment), rel=1e-6)


# ---------------------------------------------------------------- Hadar P1
def test_hadar_p1_range_is_invariant_to_iteration_counts():
    from hetopt.hadar.instance import generate_instance
    from hetopt.hadar.model import build_p1

    inst = generate_instance(n_jobs=4, n_machines=2, seed=0)
    big = dataclasses.replace(inst, iterations_per_epoch=np.asarray(inst.iterations_per_epoch) * 1000,
                              throughput=np.asarray(inst.throughput) * 1000)
    r = _same_range(build_p1(inst), build_p1(big))
    assert r.matrix[1] <= inst.gpus.max() + 1e-12  # GPU counts and shares of a slot, nothing else


def test_hadar_offline_schedule_is_invariant_to_iteration_units():
    from hetopt.hadar.instance import generate_instance
    from hetopt.hadar.offline import solve_exact

    inst = generate_instance(n_jobs=4, n_machines=2, seed=0)
    big = dataclasses.replace(inst, iterations_per_epoch=np.asarray(inst.iterations_per_epoch) * 1000,
                              throughput=np.asarray(inst.throughput) * 1000)
    a, b = solve_exact(inst), solve_exact(big)
    np.testing.assert_allclose(b.jct, a.jct)


# ---------------------------------------------------------------- the other models, at their real magnitudes
def _audit_models():
    from hetopt.contention import simulate
    from hetopt.contention.model import build_milp
    from hetopt.hare import generate_instance as random_instance
    from hetopt.hare.model import build_hare_sched, build_relaxation
    from hetopt.oasis.baselines import build_dorm_model, dorm_data
    from hetopt.oasis.generator import generate_instance as oasis_instance
    from hetopt.oasis.model import build_offline
    from hetopt.placement.baselines import build_las
    from hetopt.placement.model import build_p3

    out = {}
    ci = load_instance("wang2019_tiny")
    ref = simulate(ci, "srsf1")
    out["contention milp"] = build_milp(ci, ref.placement, upper_bound=ref.objective)
    hi = random_instance(seed=0)
    out["hare sched"] = build_hare_sched(hi)
    out["hare relaxation"] = build_relaxation(hi)
    out["hare sched fig1"] = build_hare_sched(load_instance("hare2022_fig1"))
    from hetopt.hare import cluster, generate_workload

    wi = generate_workload(3, cluster(v100=1, k80=1), seed=0)  # task times from Gavel's measured throughputs
    out["hare sched workload"] = build_hare_sched(wi)
    out["hare relaxation workload"] = build_relaxation(wi)
    oi = oasis_instance(n_jobs=4, horizon=6, n_worker_servers=4, n_ps_servers=4, seed=0)
    out["oasis offline"] = build_offline(oi)
    out["oasis dorm"] = build_dorm_model(dorm_data(oi, range(oi.n_jobs), [0] * oi.n_jobs))
    pi = load_instance("liu2024_table2")
    out["placement las"] = build_las(pi)
    out["placement p3"] = build_p3(pi, [1] * (pi.n_jobs - 1) + [pi.n_workers - pi.n_jobs + 1])
    return out


def test_other_models_are_within_the_range_limit():
    for name, model in _audit_models().items():
        r = coefficient_range(model)
        assert r.ratio <= RANGE_LIMIT, (name, r)
