"""OASiS's registration (hetopt.oasis.kind): methods from the policy registry, summaries, validate, bench."""

import json

import pytest

import hetopt
from hetopt.data import load_json
from hetopt.errors import ArgumentError
from hetopt.oasis import POLICIES, OasisSolution, ratio_sweep, simulate
from hetopt.oasis.experiments.bench import bench
from hetopt.oasis.experiments.figures import fig3_data, fig4_data
from hetopt.oasis.kind import KIND, POLICY_METHODS, export_model, validate
from hetopt.report import Table
from hetopt.result import Certificate
from hetopt.validate import SweepResults


def test_solve_every_method_on_a_bundled_instance():
    inst = hetopt.load_instance(load_json("oasis2018_theorem1_counterexample"))
    for method in KIND.methods:
        sol = hetopt.solve(inst, method.name)
        summary = sol.summary()
        json.dumps(summary)
        assert summary["total_utility"] <= 8.0 + 1e-9
        assert summary["status"] == sol.status.value
    assert hetopt.solve(inst, "exact").summary()["completion"] == {0: 2}
    with pytest.raises(hetopt.HetoptError, match="methods are"):
        hetopt.solve(inst, "nope")


def test_methods_are_the_policy_registry():
    names = [m.name for m in KIND.methods]
    assert names == ["exact", "oasis", "oasis_capped", "fifo", "drf", "rrh", "dorm"]
    assert set(POLICY_METHODS) == set(POLICIES) and KIND.policies is POLICIES
    for name in POLICIES:
        m = KIND.method(name)
        assert m.runs.endswith(f"(policy={name!r})") and m.options() == ["options"]
        assert not m.accepts("time_limit")  # the CLI passes no time limit to a simulation
    assert "options={'log_ratio_cap': 15.0}" in KIND.method("oasis_capped").runs


def test_method_options_reach_the_policy():
    inst = hetopt.load_instance("oasis2018_lemma2_contested")
    a = hetopt.solve(inst, "fifo", options={"seed": 3})
    assert a.total_utility == simulate(inst, "fifo", options={"seed": 3}).total_utility
    with pytest.raises(ArgumentError, match="its options are: workers, seed"):
        hetopt.solve(inst, "fifo", options={"sed": 3})
    with pytest.raises(ArgumentError, match="takes no option 'time_limit'"):
        hetopt.solve(inst, "oasis", time_limit=3)


def test_solution_round_trip_and_summary():
    inst = hetopt.load_instance("oasis2018_lemma2_contested")
    for sol in (simulate(inst, "oasis", options={"record_prices": True}), simulate(inst, "drf"),
                hetopt.solve(inst, "exact")):
        data = json.loads(json.dumps(sol.to_dict()))
        again = type(sol).from_dict(data)  # an OasisSimulation for a policy
        assert isinstance(again, OasisSolution)
        assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(sol.to_dict(), sort_keys=True)
        assert again.total_utility == sol.total_utility and again.admitted == sol.admitted
        for i, s in sol.schedules.items():
            assert (again.schedules[i].workers == s.workers).all() and again.schedules[i].completion == s.completion
        summary = sol.summary()
        assert summary["total_utility"] == sol.total_utility and summary["admitted"] == list(sol.admitted)


def test_export_model_writes_lp(tmp_path):
    inst = hetopt.load_instance(load_json("oasis2018_theorem4_violation"))
    m = export_model(inst)
    out = tmp_path / "m.lp"
    m.write(str(out), format="lp", io_options={"symbolic_solver_labels": True})
    assert "work_done" in out.read_text()


def test_bench_quick():
    tables = bench(quick=True)
    assert len(tables) == 6 and all(isinstance(t, Table) for t in tables)
    assert [r[0] for r in tables[2].rows] == list(POLICIES)
    assert all(r[3] for r in tables[2].rows)  # every scheme feasible
    scale, seeds, colgen = tables[3], tables[4], tables[5]
    assert len({r[-1] for r in seeds.rows}) == 1  # every engine certifies the same optima
    assert all(a.objective <= a.bound * (1 + 1e-9) + 1e-9 for a in scale.attempts if a.bound is not None)
    # same instance, both engines converged: the same LP value
    arrays, pyomo = colgen.rows[0], colgen.rows[1]
    if arrays[6] and pyomo[6]:
        assert abs(arrays[7] - pyomo[7]) <= 1e-6 * max(1.0, abs(pyomo[7]))
    assert all(r[8] >= r[7] - 1e-6 for r in colgen.rows)  # every bound above its master LP value


def test_validate_table_and_ratio_sweep():
    t = validate(n=1, seed=3)
    seed, ratio, limit, holds = t.rows[0][0], t.rows[0][-3], t.rows[0][-2], t.rows[0][-1]
    assert seed == 3 and t.rows[0][5] == "optimum"  # a certified optimum: the claim is decided
    assert holds is (ratio <= limit * (1 + 1e-9))
    res = ratio_sweep(1, seed=4, executor="serial")
    assert isinstance(res, SweepResults) and res.seeds == [4] and isinstance(res[0], Certificate)
    c = res[0]
    assert c.ratio >= 1 - 1e-9 and c.proven and c.holds is True and "instance" in c.info
    assert c.info["servers"] == 20 + 20 and c.limit > 1  # seed 4: 40 servers (FIG5_SERVERS[4 % 3])
    with pytest.raises(ArgumentError, match="n is 0"):
        ratio_sweep(0)
    with pytest.raises(ArgumentError, match="seed"):
        ratio_sweep(1, seed=-1)


def test_validate_ratio_takes_the_offline_schedule_you_have():
    from hetopt.oasis import solve_exact, validate_ratio

    inst = hetopt.load_instance("oasis2018_theorem4_in_premise")
    opt = solve_exact(inst)
    fresh, given = validate_ratio(inst), validate_ratio(inst, offline=opt)
    assert (given.value, given.reference, given.ratio, given.holds) == (fresh.value, fresh.reference, fresh.ratio,
                                                                         fresh.holds)
    on = simulate(inst, "oasis")  # a feasible schedule, no proof: OPT between its utility and the LP bound
    weak = validate_ratio(inst, offline=on)
    assert weak.info["reference_kind"] == "lp bound" and weak.info["opt_lower"] == on.total_utility
    assert weak.reference >= opt.total_utility * (1 - 1e-9)
    with pytest.raises(ArgumentError, match="node_limit"):
        validate_ratio(inst, offline=opt, node_limit=10)
    with pytest.raises(ArgumentError, match="offline"):
        validate_ratio(inst, offline=opt.schedules)


def test_reproduce_is_gone_the_ledger_has_the_claims():
    from hetopt.claims import claims

    assert len(claims("oasis")) >= 10


def test_figure_data_small():
    f3 = fig3_data([6, 12], horizon=20, servers=6, schemes=["oasis", "fifo", "drf"])
    assert set(f3) == {"oasis", "fifo", "drf"} and all(len(v) == 2 for v in f3.values())
    f4 = fig4_data(n_per_class=5, horizon=20, servers=6, schemes=["oasis", "drf"])
    assert set(f4["oasis"]) == {"sensitive", "critical"}
    with pytest.raises(ArgumentError, match="schemes"):
        fig3_data([6], horizon=20, servers=6, schemes=["sjf"])
