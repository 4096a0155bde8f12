"""``--max-size`` on ``hetopt solve`` and ``hetopt compare``, size refusals that name it, numbers in ``--json``.

No method takes ``max_size`` yet everywhere (every exact route's size guard is being renamed to it):
the stub method below stands for one, and every real method that takes it is checked too.
"""

from __future__ import annotations

import csv
import dataclasses
import json

import pytest

import hetopt
from hetopt import registry
from hetopt.cli import main
from hetopt.contract import Method
from hetopt.errors import SizeLimitError

TASKS = hetopt.load_instance("hare2022_fig1").n_tasks  # 7


def guarded(inst, *, time_limit=None, max_size=3):
    """A route with a size guard on the tasks (the protocol of the exact routes: refuse, naming max_size)."""
    if inst.n_tasks > max_size:
        raise SizeLimitError(f"the instance has {inst.n_tasks} tasks; the route handles at most max_size={max_size}: "
                             f"pass max_size={inst.n_tasks}")
    return hetopt.hare.solve_exact(inst, time_limit=time_limit)


@pytest.fixture
def stub(monkeypatch):
    kind = registry.get_kind("hare")
    extra = Method("guarded", guarded, "exact", "A stub route with a size guard.", kind.default_method.objective)
    monkeypatch.setitem(registry._registered, "hare", dataclasses.replace(kind, methods=(*kind.methods, extra)))


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_refusal_names_max_size_and_the_option_raises_the_guard(stub, capsys):
    code, _, err = _run(capsys, "solve", "hare2022_fig1", "--method", "guarded")
    assert code == 2 and err.count("\n") == 1
    assert f"max_size={TASKS}" in err and f"(on the command line: --max-size {TASKS})" in err
    code, out, _ = _run(capsys, "solve", "hare2022_fig1", "--method", "guarded", "--max-size", str(TASKS), "--json")
    summary = json.loads(out)
    assert code == 0 and summary["status"] == "optimal" and summary["max_size"] == TASKS


def test_max_size_is_refused_for_a_method_without_a_guard(stub, capsys):
    code, _, err = _run(capsys, "solve", "hare2022_fig1", "--method", "algorithm1", "--max-size", "5")
    assert code == 2 and err.count("\n") == 1 and "'algorithm1' has no size guard" in err and "--max-size" in err
    code, _, err = _run(capsys, "compare", "hare2022_fig1", "--methods", "algorithm1,srtf", "--max-size", "5")
    assert code == 2 and err.count("\n") == 1 and "none of the compared hare methods" in err and "--max-size" in err


def test_compare_passes_max_size_to_the_methods_that_take_it(stub, capsys):
    code, out, _ = _run(capsys, "compare", "hare2022_fig1", "--methods", "guarded,algorithm1", "--json")
    rows = {r[0]: dict(zip(json.loads(out)["columns"], r, strict=True)) for r in json.loads(out)["rows"]}
    assert code == 0 and rows["guarded"]["status"] == "refused"
    assert rows["guarded"]["message"].endswith(f"(on the command line: --max-size {TASKS})")
    code, out, _ = _run(capsys, "compare", "hare2022_fig1", "--methods", "guarded,algorithm1", "--max-size",
                        str(TASKS), "--json")
    rows = {r[0]: dict(zip(json.loads(out)["columns"], r, strict=True)) for r in json.loads(out)["rows"]}
    assert code == 0 and rows["guarded"]["status"] == "optimal" and rows["algorithm1"]["status"] == "feasible"


REAL = [(k.name, m.name) for k in registry.kinds().values() for m in k.methods if m.accepts("max_size")]


@pytest.mark.parametrize("kind, method", REAL)
def test_every_real_size_guard_is_reached_from_the_command_line(kind, method, capsys):
    example = registry.get_kind(kind).example_instance
    if example is None:
        pytest.skip(f"kind {kind} has no example instance")
    limit = ["--time-limit", "5"] if registry.get_kind(kind).method(method).accepts("time_limit") else []
    code, _, err = _run(capsys, "solve", example, "--method", method, "--max-size", "1", *limit)
    assert code == 0 or (code == 2 and err.count("\n") == 1 and "--max-size" in err), err


def test_json_and_csv_give_the_time_limit_as_a_number(capsys):
    """Before: ``--json`` printed "time_limit": "60 s (default; --time-limit to change)"."""
    code, out, _ = _run(capsys, "solve", "hare2022_fig1", "--method", "exact", "--json")
    assert code == 0 and json.loads(out)["time_limit"] == 60.0
    code, out, _ = _run(capsys, "solve", "hare2022_fig1", "--method", "exact", "--time-limit", "7.5", "--csv")
    header, row = list(csv.reader(out.splitlines()))[:2]
    assert dict(zip(header, row, strict=True))["time_limit"] == "7.5"
    code, out, _ = _run(capsys, "solve", "hare2022_fig1", "--method", "exact")
    assert "time_limit: 60 s (default; --time-limit to change)" in out.splitlines()
    code, out, _ = _run(capsys, "solve", "hare2022_fig1", "--method", "srtf", "--json")
    assert "time_limit" not in json.loads(out)  # a method without a time limit gets none


def test_instances_fits_120_columns_and_json_keeps_the_whole_description(capsys):
    """Before: ``hetopt instances`` printed lines about 330 characters wide (the description cut at 120)."""
    from hetopt.data import instance_path, list_instances, load_json

    code, out, _ = _run(capsys, "instances")
    assert code == 0 and max(map(len, out.splitlines())) <= 120
    assert all(f"\n{name} " in out for name in list_instances())
    code, out, _ = _run(capsys, "instances", "--json")
    rows = {r[0]: r for r in json.loads(out)["rows"]}
    for name in list_instances():
        assert rows[name][-1] == " ".join(load_json(instance_path(name))["description"].split())


def test_table_wraps_the_columns_it_is_told_to():
    from hetopt.report import Table

    t = Table("t", ["name", "values", "text"], wrap={"values": None, "text": 2}, width=40)
    t.add("a", "x=1, y=2, z=3, w=4, v=5, u=6", "one two three four five six seven eight nine ten eleven twelve")
    lines = str(t).splitlines()
    assert max(map(len, lines)) <= 40 and len(lines) == 8  # title, rule, header, rule, 3 wrapped lines, rule
    body = lines[4:-1]
    assert body[1].endswith("five six seven...") and "twelve" not in str(t)  # the text cut after 2 lines
    assert "".join(line[6:16] for line in body).count("=") == 6  # the values whole, in their 10 columns
    assert t.to_dict()["rows"][0][2].endswith("twelve")  # the data keeps the cell whole
