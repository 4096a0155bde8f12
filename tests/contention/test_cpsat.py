"""The CP-SAT engine of the contention-free problem, cross-checked against the time-indexed MILP."""

import dataclasses
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from hetopt.certify import Status
from hetopt.contention import (
    POLICIES,
    ContentionInstance,
    check_schedule,
    simulate,
    solve_exact,
    tiny_instance,
)
from hetopt.contention.cpsat import cpsat_tasks, gpu_representatives, solve_cpsat_exact
from hetopt.data import load_json
from hetopt.errors import ArgumentError, InfeasibleError, InstanceError

TOL = 1e-6


def _scaled(inst: ContentionInstance, f: float) -> ContentionInstance:
    """Every time multiplied by f (arrivals, t_f, t_b, and a, b so that a + b sigma scales too)."""
    return dataclasses.replace(inst, arrival=inst.arrival * f, t_f=inst.t_f * f, t_b=inst.t_b * f, a=inst.a * f,
                               b=inst.b * f)


def _check(inst, sol):
    rep = check_schedule(inst, sol, max_concurrent=1)
    assert rep.ok, rep.violations[:3]
    assert rep.objective == pytest.approx(sol.objective, abs=TOL)
    if sol.bound is not None:
        assert sol.bound <= sol.objective + TOL


@pytest.mark.parametrize("seed", range(8))
def test_engines_agree_on_tiny_instances(seed):
    inst = tiny_instance(seed=seed)
    ref = simulate(inst, "srsf1")
    cp = solve_exact(inst, placement=ref.placement, engine="cpsat")
    mi = solve_exact(inst, placement=ref.placement, engine="milp", upper_bound=ref.objective)
    assert cp.status is Status.OPTIMAL and mi.status is Status.OPTIMAL
    assert cp.objective == pytest.approx(mi.objective, abs=TOL)
    assert cp.bound == pytest.approx(cp.objective, abs=TOL)
    _check(inst, cp)
    assert cp.objective <= ref.objective + TOL  # SRSF(1) is a feasible contention-free schedule


@pytest.mark.parametrize("seed", [0, 4])
def test_engines_agree_on_four_jobs_and_other_placements(seed):
    inst = tiny_instance(seed=seed, n_jobs=4, n_servers=2, gpus_per_server=2)
    for placement in ("ff", "rand"):
        heur = simulate(inst, replace(POLICIES["srsf1"], placement=placement, seed=seed))
        cp = solve_exact(inst, placement=heur.placement, upper_bound=heur.objective)
        mi = solve_exact(inst, placement=heur.placement, upper_bound=heur.objective, engine="milp")
        assert cp.status is Status.OPTIMAL and mi.status is Status.OPTIMAL
        assert cp.objective == pytest.approx(mi.objective, abs=TOL)
        _check(inst, cp)


@pytest.mark.parametrize("seed", [1, 3])
def test_completion_cuts_keep_the_optimum(seed):
    inst = tiny_instance(seed=seed, n_jobs=4)
    p = simulate(inst, "srsf1").placement
    a = solve_cpsat_exact(inst, p, cuts=True)
    b = solve_cpsat_exact(inst, p, cuts=False)
    assert a.status is Status.OPTIMAL and b.status is Status.OPTIMAL
    assert a.objective == pytest.approx(b.objective, abs=TOL)


def test_contention_beats_milp_instance_same_optimum():
    inst = ContentionInstance.from_dict(load_json("wang2019_contention_beats_milp"))
    p = simulate(inst, "srsf1").placement
    cp, mi = solve_exact(inst, placement=p), solve_exact(inst, placement=p, engine="milp")
    assert cp.objective == pytest.approx(mi.objective) == pytest.approx(47.0)  # the card's 47 s
    _check(inst, cp)


@pytest.mark.parametrize("factor,scale", [(0.1, 10), (0.25, 100), (1000.0, Fraction(1, 1000))])
def test_scaling_invariance_exact_scalings(factor, scale):
    inst = tiny_instance(seed=2, n_jobs=4)
    p = simulate(inst, "srsf1").placement
    base = solve_exact(inst, placement=p)
    other = _scaled(inst, factor)
    assert cpsat_tasks(other, p)[1].time == scale and cpsat_tasks(other, p)[1].exact
    sol = solve_exact(other, placement=p)
    assert sol.status is Status.OPTIMAL
    assert sol.objective == pytest.approx(base.objective * factor, rel=1e-9)
    _check(other, sol)


def test_rounded_scaling_keeps_a_valid_bound():
    # times / 3 have no finite decimal form: rounded down to units of 1e-8 s or so, bound on the true data
    inst = tiny_instance(seed=5, n_jobs=3)
    p = simulate(inst, "srsf1").placement
    opt = solve_exact(inst, placement=p).objective
    other = _scaled(inst, 1.0 / 3.0)
    tasks, sc = cpsat_tasks(other, p)
    assert not sc.exact and all(t.scaled <= t.duration * sc.unit for t in tasks)
    sol = solve_exact(other, placement=p)
    _check(other, sol)
    assert sol.bound is not None and sol.bound <= opt / 3 * (1 + 1e-12)
    assert sol.objective == pytest.approx(opt / 3, rel=1e-6)
    assert sol.status is Status.OPTIMAL  # the rounding costs far less than OPTIMAL_RTOL here


def test_half_second_data_against_milp_on_half_slots():
    inst = _scaled(tiny_instance(seed=3, n_jobs=3), 0.5)
    p = simulate(inst, "srsf1").placement
    with pytest.raises(InstanceError, match="multiple of slot = 1"):
        solve_exact(inst, placement=p, engine="milp", slot=1.0)  # not multiples of a 1 s slot
    mi = solve_exact(inst, placement=p, engine="milp", slot=0.5)
    auto = solve_exact(inst, placement=p, engine="milp")  # the data's own grid: 0.5 s
    assert "x2" in auto.info["scale"]
    cp = solve_exact(inst, placement=p)
    assert cp.objective == pytest.approx(mi.objective, abs=TOL) == pytest.approx(auto.objective, abs=TOL)


def test_upper_bound_below_the_optimum_is_never_optimal():
    inst = tiny_instance(seed=4)
    p = simulate(inst, "srsf1").placement
    opt = solve_exact(inst, placement=p).objective
    for u in (opt - 1.0, opt - 0.5, opt - 1e-3):
        with pytest.raises(InfeasibleError):
            solve_exact(inst, placement=p, upper_bound=u)
    at = solve_exact(inst, placement=p, upper_bound=opt)
    assert at.status is Status.OPTIMAL and at.objective == pytest.approx(opt)
    with pytest.raises(InfeasibleError):
        solve_exact(inst, placement=p, upper_bound=1.0)  # below the critical paths: refused before solving


def test_time_limit_is_never_optimal():
    # 8 jobs on 16 GPUs, 2 iterations: not provable in half a second
    inst = tiny_instance(seed=0, n_jobs=8, n_servers=4, gpus_per_server=4, max_iterations=2)
    ref = simulate(inst, "srsf1")
    sol = solve_exact(inst, placement=ref.placement, upper_bound=ref.objective, time_limit=0.5)
    assert sol.status is Status.TIME_LIMIT
    _check(inst, sol)
    assert sol.objective <= ref.objective + TOL
    assert sol.gap is None or sol.gap > 0


def test_bad_engine_and_placement():
    inst = tiny_instance(seed=0)
    p = simulate(inst, "srsf1").placement
    with pytest.raises(ArgumentError, match="engine"):
        solve_exact(inst, placement=p, engine="gurobi")
    with pytest.raises(ArgumentError, match="placement"):
        solve_exact(inst, placement=p[:-1])
    bad = [list(x) for x in p]
    bad[0] = [0] * len(bad[0]) if len(bad[0]) > 1 else [99]
    with pytest.raises(ArgumentError, match="placement"):
        solve_exact(inst, placement=bad)
    for limit in (-1, 0, float("nan"), True, "3"):
        with pytest.raises(ArgumentError, match="time_limit"):
            solve_exact(inst, time_limit=limit)
    with pytest.raises(ArgumentError, match="threads"):
        solve_exact(inst, threads=0)
    with pytest.raises(ArgumentError, match="inst"):
        solve_exact(inst.to_dict())
    with pytest.raises(TypeError):
        solve_exact(inst, p)  # the placement is keyword-only


def test_default_placement_is_lwf1_under_srsf1():
    """solve_exact(inst) is the optimum on SRSF(1)'s LWF-1 placement, SRSF(1)'s total JCT its upper bound."""
    inst = tiny_instance(seed=3, n_jobs=4)
    ref = simulate(inst, "srsf1")
    for engine in ("cpsat", "milp"):
        default = solve_exact(inst, engine=engine)
        explicit = solve_exact(inst, placement=ref.placement, upper_bound=ref.objective, engine=engine)
        assert default.placement == ref.placement
        assert default.status is explicit.status is Status.OPTIMAL
        assert default.objective == pytest.approx(explicit.objective, abs=TOL)
        assert default.objective <= ref.objective + TOL


def test_methods_list_both_engines():
    import hetopt

    names = hetopt.methods("contention")
    assert {"exact", "exact_cpsat", "exact_milp"} <= set(names)
    inst = tiny_instance(seed=1)
    a, b = hetopt.solve(inst, "exact_cpsat"), hetopt.solve(inst, "exact_milp")
    assert a.objective == pytest.approx(b.objective) and a.solver == "cpsat" and b.solver.startswith("milp")
    assert np.all(a.jct >= 0)


def test_gpu_representatives_by_hand():
    # GPU 0: jobs {0, 1}; GPU 1: {0}; GPU 2: {0, 1}; GPU 3: {2}
    reps = gpu_representatives([(0, 1, 2), (0, 2), (3,)])
    assert reps == {0: 0, 1: 0, 2: 0, 3: 3}


@pytest.mark.parametrize("seed", [0, 3])
def test_gpu_reduction_keeps_the_optimum(seed):
    inst = tiny_instance(seed=seed, n_jobs=4, n_servers=2, gpus_per_server=2)
    ref = simulate(inst, "srsf1")
    reps = gpu_representatives(ref.placement)
    assert len(set(reps.values())) < len(reps)  # the reduction removes GPUs here
    full = solve_cpsat_exact(inst, ref.placement, reduce=False)
    red = solve_cpsat_exact(inst, ref.placement)
    mi = solve_exact(inst, placement=ref.placement, engine="milp", upper_bound=ref.objective)
    assert full.status is red.status is mi.status is Status.OPTIMAL
    assert full.objective == pytest.approx(red.objective, abs=TOL) == pytest.approx(mi.objective, abs=TOL)
    _check(inst, red)


def test_size_limit():
    from hetopt.errors import SizeLimitError

    inst = tiny_instance(seed=0)
    with pytest.raises(SizeLimitError, match="max_tasks"):
        solve_cpsat_exact(inst, simulate(inst, "srsf1").placement, max_tasks=5)


def test_naming_a_milp_solver_selects_the_milp():
    inst = tiny_instance(seed=1)
    p = simulate(inst, "srsf1").placement
    sol = solve_exact(inst, placement=p, solver="scip")
    assert sol.solver.startswith("milp") and sol.status is Status.OPTIMAL
    assert sol.objective == pytest.approx(solve_exact(inst, placement=p).objective)
    with pytest.raises(ArgumentError, match="solver"):
        solve_exact(inst, placement=p, engine="cpsat", solver="scip")
