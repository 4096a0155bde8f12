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
    for name, r in rows.items():
        assert r["status"] in ("optimal", "feasible")
        assert r["objective"] >= opt * (1 - 1e-9), name  # nothing beats the certified optimum
        assert r["vs_optimum"] == pytest.approx(r["objective"] / opt, rel=1e-9)
    assert rows["has"]["vs_optimum"] > 1.0  # the example's heuristic gap (10592 vs 11225.8 in the docs)


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
    assert capsys.readouterr().out.splitlines()[0].startswith("method,category,status")
    assert main(["compare", "liu2024_table2", "--methods", "nope"]) == 2
    assert "unknown placement methods" in capsys.readouterr().err


def test_compare_extra_user_policy():
    from hetopt.placement import make_solution

    inst = hetopt.load_instance("liu2024_table2")
    # worker k -> job: both V100s to VGG-19 (job 1), both T4s to ResNet-18 (job 0)
    mine = {"v100_to_vgg": lambda i: make_solution(i, [0, 0, 1, 1], solver="user")}
    t = hetopt.compare(inst, methods=["exhaustive"], extra=mine)
    rows = {r[0]: dict(zip(COLUMNS, r)) for r in t.rows}
    assert rows["v100_to_vgg"]["category"] == "user"
    # independent: JCT_i = T_i |Pi_i| / (sum of the job's throughputs), averaged
    expected = (200 * 100_000 / (275 + 275) + 200 * 50_000 / (1754 + 1754)) / 2
    assert rows["v100_to_vgg"]["objective"] == pytest.approx(expected, rel=1e-12)
    assert rows["v100_to_vgg"]["vs_optimum"] == pytest.approx(expected / rows["exhaustive"]["objective"])
    t = hetopt.compare(inst, extra=mine, include_paper_methods=False)
    assert [r[0] for r in t.rows] == ["v100_to_vgg"]
    with pytest.raises(hetopt.HetoptError, match="clash"):
        hetopt.compare(inst, methods=["has"], extra={"has": mine["v100_to_vgg"]})
    with pytest.raises(hetopt.HetoptError, match="expected a hetopt Solution"):
        hetopt.compare(inst, methods=[], extra={"raw": lambda i: [0, 0, 1, 1]})
