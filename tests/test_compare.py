import json

import pytest

import hetopt
from hetopt.cli import main
from hetopt.compare import COLUMNS


def test_compare_placement_all_methods():
    t = hetopt.compare("liu2024_table2")
    assert list(t.columns) == list(COLUMNS)
    assert [r[0] for r in t.rows] == list(hetopt.methods("placement"))
    rows = {r[0]: dict(zip(COLUMNS, r)) for r in t.rows}
    opt = rows["exhaustive"]["objective"]  # enumeration of all 16 assignments
    static = rows["exhaustive"]["objective_is"]
    for name, r in rows.items():
        assert r["status"] in ("optimal", "feasible")
        if r["objective_is"] != static:
            # a run with reset events (simulate_*) measures another objective: never ranked against P1
            assert r["vs_optimum"] is None and r["status"] == "feasible", name
            continue
        assert r["objective"] >= opt * (1 - 1e-9), name  # nothing beats the certified optimum
        assert r["vs_optimum"] == pytest.approx(r["objective"] / opt, rel=1e-9)
    assert rows["has"]["vs_optimum"] > 1.0  # the example's heuristic gap (10592 vs 11225.8 in the docs)
    assert any(r["objective_is"] != static for r in rows.values())
    assert any("different objectives" in n for n in t.notes)


def test_compare_maximization_and_refusals():
    t = hetopt.compare(hetopt.load_instance("hare2022_fig1"), methods=["exact", "brute_force", "sched_homo"])
    rows = {r[0]: dict(zip(COLUMNS, r)) for r in t.rows}
    assert rows["brute_force"]["status"] == "refused" and "SizeLimitError" in rows["brute_force"]["message"]
    assert rows["sched_homo"]["vs_optimum"] >= 1.0
    t = hetopt.compare("oasis2018_theorem4_in_premise", methods=["exact", "drf", "oasis"])
    rows = {r[0]: dict(zip(COLUMNS, r)) for r in t.rows}  # max: optimum / objective >= 1
    for name in ("drf", "oasis"):
        assert rows[name]["vs_optimum"] == pytest.approx(rows["exact"]["objective"] / rows[name]["objective"])
        assert rows[name]["vs_optimum"] >= 1.0 - 1e-9
    # hadar's simulator measures utility over rounds, P1 over slots: different objectives, no ratio
    t = hetopt.compare("hadar2024_small", methods=["exact", "hadar"])
    assert [r[COLUMNS.index("vs_optimum")] for r in t.rows] == [1.0, None]


def test_compare_unknown_method_names_the_methods():
    with pytest.raises(hetopt.HetoptError, match="unknown placement methods.*has"):
        hetopt.compare("liu2024_table2", methods=["nope"])


def test_compare_cli(capsys):
    assert main(["compare", "liu2024_table2", "--methods", "exact,has", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r[0] for r in data["rows"]] == ["exact", "has"] and data["columns"] == list(COLUMNS)
    assert main(["compare", "liu2024_table2", "--methods", "has", "--csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("method,category,objective_is,status")
    assert main(["compare", "liu2024_table2", "--methods", "nope"]) == 2
    assert "unknown placement methods" in capsys.readouterr().err


def test_compare_user_policies_are_checked():
    """A user's policy runs beside the paper's methods; an infeasible result is caught by the checker."""
    import dataclasses

    import numpy as np

    from hetopt.hare import schedule

    def my_rule(inst):  # a feasible schedule: the paper's Algorithm 1 under another name
        return schedule(inst)

    def broken(inst):  # every task starts at time 0 on GPU 0: overlaps
        sol = schedule(inst)
        return dataclasses.replace(sol, start=np.zeros_like(sol.start), gpu=np.zeros_like(sol.gpu))

    inst = hetopt.load_instance("hare2022_fig1")
    t = hetopt.compare(inst, methods=["exact"], policies={"mine": my_rule, "broken": broken})
    rows = {r[0]: dict(zip(COLUMNS, r)) for r in t.rows}
    assert [r[0] for r in t.rows] == ["exact", "mine", "broken"]
    assert rows["mine"]["category"] == "user" and rows["mine"]["status"] in ("feasible", "optimal")
    assert rows["mine"]["vs_optimum"] >= 1.0 - 1e-9
    assert rows["broken"]["status"] == "infeasible" and rows["broken"]["vs_optimum"] is None
    assert rows["broken"]["message"].startswith("infeasible: ")
    only = hetopt.compare(inst, policies={"mine": my_rule}, include_paper_methods=False)
    assert [r[0] for r in only.rows] == ["mine"]


@pytest.mark.parametrize("policies, match", [({"exact": lambda i: None}, "method of the paper"),
                                             ({"x": 3}, "callable"), ([lambda i: None], "mapping")])
def test_compare_rejects_bad_policies(policies, match):
    with pytest.raises(hetopt.HetoptError, match=match):
        hetopt.compare("hare2022_fig1", methods=["sched_homo"], policies=policies)


def test_compare_policy_of_wrong_type_is_named():
    with pytest.raises(hetopt.HetoptError, match="cannot read"):
        hetopt.compare("hare2022_fig1", policies={"bad": lambda inst: 42}, include_paper_methods=False)


def test_compare_user_policy_objective():
    from hetopt.placement import make_solution

    inst = hetopt.load_instance("liu2024_table2")
    # worker k -> job: both V100s to VGG-19 (job 1), both T4s to ResNet-18 (job 0)
    mine = {"v100_to_vgg": lambda i: make_solution(i, [0, 0, 1, 1], solver="user")}
    t = hetopt.compare(inst, methods=["exhaustive"], policies=mine)
    rows = {r[0]: dict(zip(COLUMNS, r)) for r in t.rows}
    assert rows["v100_to_vgg"]["category"] == "user"
    # independent: JCT_i = T_i |Pi_i| / (sum of the job's throughputs), averaged
    expected = (200 * 100_000 / (275 + 275) + 200 * 50_000 / (1754 + 1754)) / 2
    assert rows["v100_to_vgg"]["objective"] == pytest.approx(expected, rel=1e-12)
    assert rows["v100_to_vgg"]["vs_optimum"] == pytest.approx(expected / rows["exhaustive"]["objective"])
    t = hetopt.compare(inst, policies=mine, include_paper_methods=False)
    assert [r[0] for r in t.rows] == ["v100_to_vgg"]
    with pytest.raises(hetopt.HetoptError, match="method of the paper"):
        hetopt.compare(inst, methods=["has"], policies={"has": mine["v100_to_vgg"]})
    with pytest.raises(hetopt.HetoptError, match="returned a list"):
        hetopt.compare(inst, policies={"raw": lambda i: [0, 0, 1, 1]}, include_paper_methods=False)
