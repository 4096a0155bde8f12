"""What ``allocate`` reports beside the allocation: the solver its LPs used, and no makespan for an
allocation that never finishes every job (issue 32)."""

import importlib
import json

import numpy as np
import pytest

import hetopt
from hetopt.certify import Status
from hetopt.gavel import POLICIES, allocate, check_schedule

STATIC = sorted(name for name, spec in POLICIES.items() if spec.static)
#: The modules of hetopt.gavel that reach a solver (each imports hetopt.solvers.solve_problem by name).
SOLVING = ("fifo", "inputs", "lp", "makespan", "packing", "variants")


@pytest.mark.parametrize("policy", STATIC)
def test_the_solver_column_names_the_solver_the_policy_called(policy, monkeypatch):
    """Before: every policy without a ``solver=`` option reported solver "none", those that solve LPs with ECOS too."""
    import hetopt.solvers

    called = []
    real = hetopt.solvers.solve_problem

    def spy(problem, solver="HIGHS", **kw):
        called.append(solver.lower())
        return real(problem, solver, **kw)

    for name in SOLVING:
        monkeypatch.setattr(importlib.import_module(f"hetopt.gavel.{name}"), "solve_problem", spy)
    sol = allocate(hetopt.load_instance("gavel2020_static8"), policy)
    assert sol.solver == ("+".join(sorted(set(called))) if called else "none"), (sol.solver, called)


def test_fifo_with_more_jobs_than_gpus_has_no_makespan():
    """Before: ``hetopt solve gavel2020_static8 --method fifo`` said feasible, objective inf. FIFO gives whole GPUs
    to the first jobs and queues the rest (rate 0): kept until every job finished, the allocation never finishes
    the queued jobs, so it is no schedule of all the jobs (infeasible) and has no makespan."""
    inst = hetopt.load_instance("gavel2020_static8")  # 8 jobs, 6 GPUs
    sol = allocate(inst, "fifo")
    rate = (sol.allocation * inst.effective_throughput()).sum(axis=1)
    idle = np.flatnonzero(rate == 0)
    assert idle.size == 4  # the 4 jobs FIFO queues: the first four take the six GPUs (scale factors 1, 1, 2, 2 ...)
    assert sol.status is Status.INFEASIBLE and sol.objective is None and not sol.status.has_solution
    assert f"{idle.size} of 8 jobs no GPU time" in sol.message and "simulate" in sol.message
    assert check_schedule(inst, sol).ok
    json.dumps(sol.summary(), allow_nan=False)
    # the checker refuses the old report
    from dataclasses import replace

    old = replace(sol, status=Status.FEASIBLE, objective=float("inf"))
    assert any("never finish" in v for v in check_schedule(inst, old).violations)
    # a FIFO allocation that finishes every job keeps its makespan
    three = allocate(hetopt.load_instance("gavel2020_three_jobs"), "fifo")
    assert three.status is Status.FEASIBLE and three.objective == pytest.approx(3600.0)


def test_cli_solve_fifo_prints_the_honest_status(capsys):
    from hetopt.cli import main

    assert main(["solve", "gavel2020_static8", "--method", "fifo", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "infeasible" and out["objective"] is None and out["solver"] == "none"
