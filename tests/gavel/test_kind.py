"""Gavel as a kind: methods, the front door, the command line."""

import json

import numpy as np
import pytest

import hetopt
from hetopt.cli import main
from hetopt.gavel.policies import POLICIES


def test_methods_cover_every_policy_and_its_simulation():
    names = set(hetopt.methods("gavel"))
    static = {p for p, spec in POLICIES.items() if spec.static}  # packing and proportional: simulated only
    assert static <= names and {f"simulate_{p}" for p in POLICIES} <= names
    assert not (set(POLICIES) - static) & names
    assert all("-" not in n for n in names)


def test_allocation_objective_is_the_static_makespan():
    inst = hetopt.load_instance("gavel2020_static8")
    sol = hetopt.solve(inst, "max_min_fairness")
    X, T = sol.allocation, inst.effective_throughput()
    assert np.all(X.sum(axis=1) <= 1 + 1e-6)
    assert np.all(inst.scale_factor @ X <= inst.capacity + 1e-6)
    rate = (X * T).sum(axis=1)
    assert sol.objective == pytest.approx(np.max(inst.total_steps / rate))
    assert sol.status.value == "feasible"  # max-min fairness does not minimize the makespan
    best = hetopt.solve(inst, "exact")
    assert best.status.value == "optimal" and best.objective <= sol.objective * (1 + 1e-6)


def test_cli_solve_simulation_json(capsys):
    assert main(["solve", "gavel2020_three_jobs", "--method", "simulate_max_min_fairness", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["kind"] == "gavel" and out["policy"] == "max_min_fairness"
    # three one-GPU jobs of 3600 steps at 1 step/s on three GPUs: all run every round, done at 3600 s
    assert out["makespan"] == pytest.approx(3600.0) and out["average_jct"] == pytest.approx(3600.0)


def test_cli_lists_methods_claims_and_sweep(capsys):
    assert main(["solve", "--list-methods", "gavel"]) == 0
    assert "simulate_fifo" in capsys.readouterr().out
    assert main(["claims", "gavel"]) == 0
    assert "gavel2021.scheduler.three_job_example" in capsys.readouterr().out
    assert main(["sweep", "gavel.recompute_interval", "--quick"]) == 0
    assert "recomputations" in capsys.readouterr().out


def test_validate_table():
    """The one run of Gavel's validation sweep in the default tier (it simulates every policy on each workload:
    the slowest of the kinds' sweeps); tests/test_validate.py and tests/reliability/test_cli.py hold the other kinds'
    notes and the exit code."""
    from hetopt.gavel.validate import validate

    t = validate(n=2, seed=0)
    for row in t.rows:
        assert row[1] == row[2] == row[3] == 2
    assert t.violations == 0  # set on a passing run, so `hetopt validate` can exit with 1 on a violation
    assert any("distinct instances among 2 seeds" in n for n in t.notes), t.notes


def test_min_total_duration_is_gavels_bisection_and_exact_is_certified():
    """The policy method is Gavel's bisection (within 5 %, no bound); ``exact`` carries the proven bound."""
    from hetopt.gavel.makespan import makespan_of

    inst = hetopt.load_instance("gavel2020_three_jobs")
    sol = hetopt.solve(inst, "exact")
    assert sol.status.value == "optimal" and sol.bound is not None
    assert sol.bound <= sol.objective and sol.gap <= 1e-6
    span = makespan_of(sol.allocation, inst.effective_throughput(), inst.total_steps)
    assert sol.objective == pytest.approx(span, rel=1e-12)
    bis = hetopt.solve(inst, "min_total_duration")
    assert bis.status.value == "feasible" and bis.bound is None
    assert sol.objective * (1 - 1e-9) <= bis.objective <= 1.05 * sol.objective
