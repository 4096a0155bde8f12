import json
from pathlib import Path

from hetopt import cli
from hetopt.data import instance_path
from hetopt.placement import build_p1, build_p1_grouped, build_p2, build_p3, build_p3_cvxpy, generate_instance
from hetopt.testing import check_card

ROOT = Path(__file__).resolve().parents[2]


def test_formulation_card_components_exist():
    inst = generate_instance(n_jobs=3, n_workers=8, seed=0)  # communication on two nodes: every component is built
    small = generate_instance(n_jobs=2, n_workers=4, seed=0, gpus_per_node=2)
    models = {
        "build_p1": build_p1(inst, "milp"),
        "build_p1_minlp": build_p1(small, "minlp"),
        "build_p2": build_p2(inst, (3, 3, 2)),
        "build_p3": build_p3(inst, (3, 3, 2)),
        "build_p3_cvxpy": build_p3_cvxpy(inst, (3, 3, 2)),
        "build_p1_grouped": build_p1_grouped(inst),
    }
    assert check_card(ROOT / "models" / "liu2024-placement.md", models) >= 30


def test_cli_solve_export(tmp_path, capsys):
    path = str(instance_path("liu2024_table2"))
    assert cli.main(["solve", path, "--method", "exact", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["status"] == "optimal" and round(res["average_jct"]) == 10592
    for fmt in ("lp", "mps"):
        out_file = tmp_path / f"p1.{fmt}"
        assert cli.main(["export", path, "--format", fmt, "-o", str(out_file)]) == 0
        assert out_file.stat().st_size > 0
    assert cli.main(["solve", path, "--method", "nope"]) != 0
    assert "placement methods are" in capsys.readouterr().err


def test_cli_validate_and_bench(capsys):
    assert cli.main(["validate", "placement", "--n", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "solve_exact" in out and "2/2 certified" in out
    assert cli.main(["bench", "placement", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "jps N=40" in out and "largest certified" in out and "OA + local search + DP size bounds" in out

