"""Exact routes stopped by a short time limit report TIME_LIMIT with a checked incumbent.

Each instance below is large enough that the solver has no incumbent after the limit; before
the fix these calls raised ``SolverError: time limit reached with no feasible solution``.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from hetopt.certify import Status
from hetopt.inputs import check_time_limit
from hetopt.solvers import solve_model

INSTANCES = Path(__file__).resolve().parents[2] / "instances"


def test_check_time_limit_rules():
    assert check_time_limit(None) is None
    assert check_time_limit(np.float64(2.5)) == 2.5
    assert check_time_limit(np.int64(3)) == 3.0
    for bad in (0, -5, float("nan"), True, np.bool_(True), "1", 1j):
        with pytest.raises(ValueError, match="time_limit"):
            check_time_limit(bad)


def test_solve_model_require_incumbent_false_returns_time_limit():
    from hetopt.hare import generate_instance as random_instance
    from hetopt.hare.model import build_hare_sched

    inst = random_instance(seed=1, n_jobs=12, n_gpus=4, max_rounds=3, max_tasks=3, max_total_tasks=40)
    m = build_hare_sched(inst)
    sol = solve_model(m, time_limit=0.01, require_incumbent=False)
    assert sol.status is Status.TIME_LIMIT


def test_hare_exact_relaxation_ratio_time_limit():
    from hetopt.hare import check_schedule
    from hetopt.hare import generate_instance as random_instance
    from hetopt.hare.exact import solve_exact
    from hetopt.hare.ratio import ratio_report
    from hetopt.hare.relaxation import solve_relaxation

    inst = random_instance(seed=1, n_jobs=12, n_gpus=4, max_rounds=3, max_tasks=3, max_total_tasks=40)
    sol = solve_exact(inst, time_limit=0.01)
    assert sol.status is Status.TIME_LIMIT
    assert sol.objective is not None and math.isclose(check_schedule(inst, sol).raise_if_invalid().objective, sol.objective, rel_tol=1e-9)
    if sol.bound is None:
        assert sol.gap is None
    else:
        assert sol.bound <= sol.objective + 1e-9
    rl = solve_relaxation(inst, time_limit=0.01)
    assert rl.status is Status.TIME_LIMIT and rl.x_hat.shape == (inst.n_tasks,)
    rep = ratio_report(inst, time_limit=0.01)
    assert not rep.optimum_proven and rep.optimum is not None


def test_oasis_exact_time_limit():
    from hetopt.oasis.checker import check_schedule
    from hetopt.oasis.generator import generate_instance
    from hetopt.oasis.offline import solve_exact

    inst = generate_instance(n_jobs=20, horizon=40, n_worker_servers=10, n_ps_servers=10, seed=0)
    sol = solve_exact(inst, time_limit=0.05)
    assert sol.status is Status.TIME_LIMIT
    rep = check_schedule(inst, sol)
    assert rep.ok and math.isclose(rep.objective, sol.objective, rel_tol=1e-9)
    if sol.bound is not None:
        assert sol.bound >= sol.objective - 1e-6


def test_contention_exact_time_limit():
    from hetopt.contention import check_schedule, simulate, solve_exact, tiny_instance

    inst = tiny_instance(seed=6, n_jobs=4)
    placement = simulate(inst, "srsf1").placement
    sol = solve_exact(inst, placement=placement, engine="milp", time_limit=0.02)  # CP-SAT proves this one at once
    assert sol.status is Status.TIME_LIMIT
    assert check_schedule(inst, sol).ok
    assert math.isclose(sol.objective, float(sol.jct.sum()))
    if sol.bound is not None:
        assert sol.bound <= sol.objective + 1e-9


def test_hadar_exact_time_limit():
    from hetopt.hadar.checker import check_schedule
    from hetopt.hadar.instance import HadarInstance
    from hetopt.hadar.offline import solve_exact

    inst = HadarInstance.from_json(INSTANCES / "hadar2024_small.json")
    sol = solve_exact(inst, time_limit=0.01)
    assert sol.status is Status.TIME_LIMIT
    chk = check_schedule(inst, sol.schedule)
    assert chk.ok and math.isclose(chk.objective, sol.objective)


@pytest.mark.parametrize("solver", ["scip", "highs"])
def test_placement_exact_time_limit_has_bound_and_gap(solver):
    from hetopt.placement.evaluate import average_jct
    from hetopt.placement.exact import solve_exact
    from hetopt.placement.generators import generate_instance

    inst = generate_instance(seed=0, n_jobs=8)
    sol = solve_exact(inst, solver=solver, time_limit=0.05)
    assert sol.status is Status.TIME_LIMIT
    assert math.isclose(average_jct(inst, sol.assignment), sol.objective, rel_tol=1e-9)
    assert sol.bound is not None and sol.bound <= sol.objective + 1e-9
    assert sol.gap is not None and sol.gap >= 0


@pytest.mark.parametrize("bad", [0, -5, float("nan"), True])
def test_placement_exact_rejects_bad_time_limit(bad):
    from hetopt.placement.exact import solve_exact
    from hetopt.placement.generators import generate_instance

    with pytest.raises(ValueError, match="time_limit"):
        solve_exact(generate_instance(seed=0, n_jobs=2), time_limit=bad)
