"""Hadar's registration (KIND) and its methods on the bundled instances: certified, checked, known values.

The known optima are derived by hand from the instances' numbers (P1 is small enough there) and
cross-checked by a second engine: the enumeration of every job's schedules (the set S_j) with
P2 over them, every job admitted (P2 with (2b) as an equality equals P1).
"""

import dataclasses
import json
import math

import numpy as np
import pytest

import hetopt
from hetopt.certify import Status
from hetopt.data import load_json
from hetopt.hadar import (
    KIND,
    POLICIES,
    HadarSimulation,
    HadarSolution,
    check_schedule,
    enumerate_schedules,
    ratio_sweep,
    simulate,
    solve_exact,
    solve_p2,
)
from hetopt.hadar.kind import sweep_table
from hetopt.report import Table
from hetopt.result import Certificate
from hetopt.validate import SweepResults

OBJ_RTOL = 1e-6


@pytest.fixture(scope="module")
def inst():
    return hetopt.load_instance("hadar2024_small")


@pytest.fixture(scope="module")
def exact(inst):
    return hetopt.solve(inst, "exact")


def test_kind_registration():
    assert KIND.name == "hadar" and KIND.depends_on == ("gavel",)
    assert [m.name for m in KIND.methods] == ["exact", *POLICIES]
    assert KIND.default_method.name == "exact" and KIND.method("exact").category == "exact"
    assert KIND.policies is POLICIES
    for name in POLICIES:
        m = KIND.method(name)
        assert f"policy={name!r}" in m.runs and m.category in ("heuristic", "baseline")
        assert not m.accepts("time_limit")  # a simulation has no time limit: the CLI must not pass one
    assert KIND.method("exact").accepts("time_limit")


def test_exact_is_certified_and_passes_the_checker(inst, exact):
    assert isinstance(exact, HadarSolution)
    assert exact.status is Status.OPTIMAL and exact.bound == pytest.approx(exact.objective, rel=OBJ_RTOL)
    rep = check_schedule(inst, exact)
    assert rep.ok, rep.violations
    assert rep.objective == pytest.approx(exact.objective, rel=1e-12)
    np.testing.assert_array_equal(rep.info["finish_slot"], exact.finish_slot)
    np.testing.assert_allclose(exact.jct, (exact.finish_slot + 1 - inst.arrival) * inst.slot_length)


def _enumerated_p1(inst):
    """P1's optimum by a second engine: every schedule of every job (S_j), P2 with every job admitted."""
    S = [enumerate_schedules(inst, j) for j in range(inst.n_jobs)]
    return solve_p2(inst, S, require_all=True)[0].objective


def test_known_optima_derived_by_hand():
    # hadar2024_theorem2_greedy_violation: one GPU, 1-s slots; 'urgent' (1 iteration) first, finishing at 1 s
    # (U = 100 / (1 + e^{3 (1 - 1.5)})), then 'long_low_value' (2 iterations) at 3 s (U = 1 / (1 + e^0) = 0.5).
    inst = hetopt.load_instance("hadar2024_theorem2_greedy_violation")
    hand = 100.0 / (1.0 + math.exp(-1.5)) + 0.5
    assert solve_exact(inst).objective == pytest.approx(hand, rel=1e-9)
    assert _enumerated_p1(inst) == pytest.approx(hand, rel=1e-9)
    # hadar2024_p2_relaxes_p1: 'blocking' runs only on type 0 and needs both slots of the horizon, so 'urgent'
    # runs on type 1 at 1 it/s and finishes at 2 s: U = 10 / (1 + e^{20 (2 - 1.5)}) + 0.5.
    inst = hetopt.load_instance("hadar2024_p2_relaxes_p1")
    hand = 10.0 / (1.0 + math.exp(10.0)) + 0.5
    assert solve_exact(inst).objective == pytest.approx(hand, rel=1e-9)
    assert _enumerated_p1(inst) == pytest.approx(hand, rel=1e-9)


def test_small_instance_optimum_agrees_across_engines(inst, exact):
    """Too many schedules to enumerate here (over 20,000 for job 0): SCIP is the second engine."""
    scip = solve_exact(inst, solver="scip")
    assert scip.status is Status.OPTIMAL and scip.objective == pytest.approx(exact.objective, rel=OBJ_RTOL)
    assert exact.objective == pytest.approx(load_json("hadar2024_small")["expected"]["exact"], rel=OBJ_RTOL)
    assert exact.objective == pytest.approx(18.704166666666666, rel=OBJ_RTOL)


@pytest.mark.parametrize("method", list(POLICIES))
def test_simulated_methods_complete_every_job_and_pass_the_checker(inst, method):
    sol = hetopt.solve(inst, method)
    assert isinstance(sol, HadarSimulation) and sol.status is Status.FEASIBLE and sol.policy == method
    assert np.all(np.isfinite(sol.completion)) and np.all(sol.jct > 0)
    rep = check_schedule(inst, sol)
    assert rep.ok, rep.violations
    assert rep.objective == pytest.approx(sol.objective, rel=1e-12)
    summary = sol.summary()
    json.dumps(summary)
    assert summary["policy"] == method and summary["rounds"] == len(sol.rounds)


def _p1_schedule(inst, sim):
    """A simulation with one-slot rounds as a (J, H, R, T) schedule on T = the instance's horizon slots."""
    w = sim.schedule().astype(np.int64)
    T = inst.horizon
    if w.shape[3] >= T:
        assert not np.any(w[..., T:])
        return w[..., :T]
    return np.concatenate([w, np.zeros(w.shape[:3] + (T - w.shape[3],), dtype=np.int64)], axis=3)


@pytest.mark.parametrize("method", list(POLICIES))
def test_exact_optimum_dominates_every_comparable_simulated_schedule(inst, exact, method):
    """With rounds of one slot and no restart delay a simulation is a slotted schedule; where it is a P1
    schedule (one gang per job and slot), its P1 utility is at most the optimum.  A schedule that runs past
    the horizon is compared with the optimum over a horizon that holds it (at least the bundled optimum)."""
    sim = simulate(inst, method, round_length=inst.slot_length, restart_delay=0.0)
    ref, opt = inst, exact
    if len(sim.rounds) > inst.horizon:
        ref = dataclasses.replace(inst, horizon=len(sim.rounds))
        opt = solve_exact(ref)
        assert opt.status is Status.OPTIMAL and opt.objective >= exact.objective * (1 - 1e-9)
    rep = check_schedule(ref, _p1_schedule(ref, sim))
    if method != "hadare":  # one gang per job and slot: a P1 schedule
        assert rep.ok, rep.violations
    if not rep.ok:
        pytest.skip(f"{method}'s schedule is not a P1 schedule on this instance (HadarE's copies are several gangs)")
    assert opt.objective >= rep.objective * (1 - 1e-9)
    # a slotted P1 schedule finishes at the end of a slot, the simulation at the instant the work is done
    assert sim.total_utility >= rep.objective * (1 - 1e-9)


def test_solution_round_trips(inst, exact):
    for sol in (exact, hetopt.solve(inst, "hadare")):
        again = type(sol).from_dict(json.loads(json.dumps(sol.to_dict())))
        assert again.to_dict() == sol.to_dict()
        assert again.summary() == sol.summary()
        assert check_schedule(inst, again).ok
    again = HadarSolution.from_dict(json.loads(json.dumps(exact.to_dict())))
    assert again.schedule.dtype == np.int64 and again.finish_slot.dtype == np.int64
    np.testing.assert_array_equal(again.schedule, exact.schedule)
    sim = HadarSimulation.from_dict(json.loads(hetopt.solve(inst, "gavel").to_json()))
    assert sim.rounds[0]["allocation"].dtype == np.int64 and sim.schedule().ndim == 4


def test_validate_builds_its_table_from_the_sweep():
    certs = ratio_sweep(3, seed=0)
    assert isinstance(certs, SweepResults) and certs.seeds == [0, 1, 2]
    assert all(isinstance(c, Certificate) and c.proven and c.holds for c in certs)
    assert certs.violations == 0
    t = KIND.validate(3, seed=0)
    assert isinstance(t, Table) and len(t.rows) == 3 and t.violations == 0
    assert all(r[-1] is True for r in t.rows)  # 2*alpha held on these certified instances
    assert [tuple(r[:4]) for r in t.rows] == [(s, c.value, c.reference, c.ratio) for s, c in zip(certs.seeds, certs, strict=True)]
    assert sweep_table(certs).rows == t.rows


def test_ratio_sweep_rejects_bad_arguments():
    with pytest.raises(hetopt.ArgumentError, match="n is 0"):
        ratio_sweep(0)
    with pytest.raises(hetopt.ArgumentError, match="seed"):
        ratio_sweep(2, seed=-1)


def test_bench_quick():
    from hetopt.hadar.experiments.bench import bench

    tables = bench(quick=True)
    assert len(tables) == 3 and all(len(t.rows) > 0 for t in tables)
    p1 = tables[2]
    # HiGHS and SCIP certify the same optimum wherever both prove one
    by_size = {}
    for a in p1.attempts:
        if a.certified:
            by_size.setdefault(a.size, []).append(a.objective)
    assert by_size and all(max(v) - min(v) <= 1e-6 * max(1.0, abs(max(v))) for v in by_size.values())


def test_export_model_writes_lp(inst, tmp_path):
    m = KIND.export_model(inst)
    out = tmp_path / "p1.lp"
    m.write(str(out), format="lp", io_options={"symbolic_solver_labels": True})
    assert out.stat().st_size > 0


def test_cli_solve_validate_export(tmp_path, capsys):
    from hetopt import cli
    from hetopt.data import instance_path

    path = str(instance_path("hadar2024_small"))
    assert cli.main(["solve", path, "--method", "hadar", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["policy"] == "hadar" and out["status"] == "feasible"
    assert cli.main(["solve", path, "--json"]) == 0  # the default method: the certified optimum
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "optimal" and out["objective"] == pytest.approx(18.704166666666666, rel=OBJ_RTOL)
    assert cli.main(["validate", "hadar", "--n", "2", "--seed", "5"]) == 0
    out = tmp_path / "p1.mps"
    assert cli.main(["export", path, "--format", "mps", "-o", str(out)]) == 0
    assert out.stat().st_size > 0
