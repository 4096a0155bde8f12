"""The front door: hetopt.load_instance / methods / solve, and the CLI that uses them."""

import json

import pytest

import hetopt
from hetopt import api
from hetopt.certify import Status
from hetopt.cli import main
from hetopt.data import instance_path, list_instances
from hetopt.errors import ArgumentError, InstanceError
from hetopt.registry import kinds

#: a small bundled instance of every kind, on which every method of the kind runs in seconds
SMALL = {
    "placement": "liu2024_table2",
    "hare": "hare2022_theorem4_counterexample",
    "oasis": "oasis2018_theorem4_violation",
    "contention": "wang2019_tiny",
    "hadar": "hadar2024_small",
    "gavel": "gavel2020_three_jobs",
    "arena": "arena_workload_small_test",
}
KIND_METHODS = [(k, m.name) for k in SMALL for m in kinds()[k].methods]


@pytest.fixture(scope="module")
def solved():
    """``solved(kind, name)``: the method's solution of the kind's small instance, solved once per module."""
    memo = {}

    def solve(kind, name):
        if (kind, name) not in memo:
            # the arena's hare solves Hare's relaxation at each plan: beyond 18 tasks only time-limited (any order
            # is valid)
            options = {"options": {"time_limit": 2.0}} if (kind, name) == ("arena", "hare") else {}
            memo[kind, name] = hetopt.solve(hetopt.load_instance(SMALL[kind]), name, **options)
        return memo[kind, name]
    return solve


def test_every_kind_has_a_small_instance():
    assert set(SMALL) == set(kinds())


@pytest.mark.parametrize("stem", list_instances())
def test_every_bundled_instance_loads_by_name_path_and_dict(stem):
    path = instance_path(stem)
    data = json.loads(path.read_text())
    a, b, c = hetopt.load_instance(stem), hetopt.load_instance(path), hetopt.load_instance(data)
    assert type(a) is type(b) is type(c)
    assert api.kind_of(a).name == data["kind"]


@pytest.mark.parametrize("kind", list(kinds()))
def test_every_method_has_a_category_a_sentence_and_an_objective(kind):
    table = hetopt.methods(kind)
    assert sum(m.default for m in table.values()) == 1
    for name, m in table.items():
        assert m.category in ("exact", "heuristic", "baseline")
        assert m.description.rstrip().endswith("."), f"{kind}.{name}: the description is one full sentence"
        assert m.objective
        assert "-" not in name, f"{kind}.{name}: method names use underscores"


@pytest.mark.parametrize("kind", list(kinds()))
def test_solve_without_a_method_runs_the_default(kind, solved):
    inst = hetopt.load_instance(SMALL[kind])
    default = kinds()[kind].default_method
    a = hetopt.solve(inst)
    b = solved(kind, default.name)
    assert type(a) is type(b) and a.objective == pytest.approx(b.objective)


def test_solve_takes_paths_names_and_dicts():
    stem = SMALL["hare"]
    by_name = hetopt.solve(stem, "algorithm1")
    by_path = hetopt.solve(str(instance_path(stem)), "algorithm1")
    by_dict = hetopt.solve(json.loads(instance_path(stem).read_text()), "algorithm1")
    assert by_name.objective == by_path.objective == by_dict.objective


def test_unknown_options_are_named():
    with pytest.raises(ArgumentError, match="takes no option 'nope'"):
        hetopt.solve("hare2022_fig1", "algorithm1", nope=1)


@pytest.mark.parametrize(("kind", "name"), KIND_METHODS, ids=[f"{k}-{m}" for k, m in KIND_METHODS])
def test_every_method_solves_a_small_instance(kind, name, solved):
    inst = hetopt.load_instance(SMALL[kind])
    method = hetopt.methods(kind)[name]
    assert method.description and method.category in ("exact", "heuristic", "baseline")
    sol = solved(kind, name)
    assert sol.status in (Status.OPTIMAL, Status.FEASIBLE), sol.status
    assert sol.objective is not None
    json.dumps(sol.to_dict())  # every solution serializes
    # the kind's independent checker accepts the schedule and recomputes the objective
    report = hetopt.registry.get_kind(kind).check_schedule(inst, sol)
    assert report.ok, (name, report.violations)
    if report.objective is not None:
        assert report.objective == pytest.approx(sol.objective, rel=1e-6, abs=1e-9), (name, report.objective)
    if method.category == "exact":
        assert sol.status is Status.OPTIMAL
    # an OPTIMAL status always comes with the proven bound that meets the objective
    assert sol.status is not Status.OPTIMAL or (sol.bound is not None and sol.gap is not None and sol.gap <= 1e-6)


@pytest.mark.parametrize("kind", ["placement", "hare", "oasis"])
def test_no_method_beats_the_certified_optimum(kind, solved):
    table = hetopt.methods(kind)
    exact = [n for n, m in table.items() if m.category == "exact"]
    opt = solved(kind, exact[0])
    assert opt.status is Status.OPTIMAL
    sign = 1.0 if opt.sense == "min" else -1.0
    same = [n for n, m in table.items() if m.objective == table[exact[0]].objective]
    assert len(same) > 2, "the kind has heuristics of the exact method's objective to compare"
    for name in same:
        sol = solved(kind, name)
        assert sign * sol.objective >= sign * opt.objective - 1e-6 * max(1.0, abs(opt.objective)), name


def test_load_instance_errors_name_the_problem(tmp_path):
    with pytest.raises(InstanceError, match="no such file"):
        hetopt.load_instance(tmp_path / "missing.json")
    with pytest.raises(InstanceError, match="directory"):
        hetopt.load_instance(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(InstanceError, match="not valid JSON"):
        hetopt.load_instance(bad)
    lst = tmp_path / "list.json"
    lst.write_text("[1, 2]")
    with pytest.raises(InstanceError, match="JSON list"):
        hetopt.load_instance(lst)
    with pytest.raises(InstanceError, match="kind is missing"):
        hetopt.load_instance({"jobs": []})
    with pytest.raises(InstanceError, match="kind is 'nope'"):
        hetopt.load_instance({"kind": "nope"})
    with pytest.raises(InstanceError, match="expected a path"):
        hetopt.load_instance(42)


def test_solve_rejects_unknown_methods_and_non_instances():
    inst = hetopt.load_instance("liu2024_table2")
    with pytest.raises(ArgumentError, match="placement methods are: .*exact"):
        hetopt.solve(inst, "nope")
    with pytest.raises(InstanceError, match="expected a path"):
        hetopt.solve(42, "exact")
    with pytest.raises(InstanceError, match="looks like JSON text"):
        hetopt.load_instance('{"kind": "hare"}')


def test_cli_lists_methods_and_solves_with_json(capsys):
    assert main(["solve", "--list-methods", "hare"]) == 0
    out = capsys.readouterr().out
    assert "algorithm1" in out and "exact" in out and "baseline" in out
    assert main(["solve", "liu2024_table2", "--method", "exact", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert {"kind", "method", "status", "objective", "bound", "gap", "solver", "wall_time"} <= set(d)
    assert d["status"] == "optimal" and d["kind"] == "placement"


@pytest.mark.parametrize("args", [["solve", "/nonexistent.json", "--method", "exact"],
                                  ["solve", "liu2024_table2", "--method", "nope"],
                                  ["solve", "--list-methods", "nope"]])
def test_cli_errors_are_one_line(args, capsys):
    with pytest.raises(SystemExit) if args[1] == "--list-methods" else _nothing():
        assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("hetopt") and "Traceback" not in err and err.count("\n") == 1


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
