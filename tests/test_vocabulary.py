"""The same verbs in every paper (CONTRIBUTING.md, "The same verbs in every paper").

For every registered kind: ``generate_instance(..., *, seed)``, ``solve_exact(inst, *,
time_limit=...) -> Solution``, ``simulate(inst, policy, ...) -> Solution`` where the paper has a
simulator, ``check_schedule`` in ``checker.py`` returning a ``CheckReport``,
``validate_ratio(inst, *, time_limit, ...) -> Certificate``, ``ratio_sweep(n, *, seed, ...) ->
SweepResults``, ``to_dict``/``from_dict`` round trips of instances and solutions, extra data in
``Solution.info``, and one policy registry that feeds the methods.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pathlib

import numpy as np
import pytest

import hetopt
from hetopt.registry import kinds
from hetopt.result import Certificate, CheckReport, Solution
from hetopt.validate import SweepResults

KINDS = list(kinds())


def _package(name: str):
    return importlib.import_module(f"hetopt.{name}")


def _params(func):
    return list(inspect.signature(func).parameters.values())


@pytest.mark.parametrize("name", KINDS)
def test_generate_instance_takes_seed_by_keyword(name):
    pkg = _package(name)
    assert pkg.generate_instance is kinds()[name].generate_instance
    params = {p.name: p for p in _params(pkg.generate_instance)}
    assert "seed" in params and params["seed"].kind is inspect.Parameter.KEYWORD_ONLY
    a = kinds()[name].example(3, 1)
    b = kinds()[name].example(3, 1)
    assert a.to_dict() == b.to_dict(), "same seed, same instance"


@pytest.mark.parametrize("name", KINDS)
def test_solve_exact_signature_and_result(name):
    pkg = _package(name)
    assert pkg.solve_exact is kinds()[name].solve_exact
    params = _params(pkg.solve_exact)
    assert params[0].name == "inst"
    assert all(p.kind is p.KEYWORD_ONLY for p in params[1:]), [p.name for p in params]
    assert "time_limit" in [p.name for p in params]
    sol = pkg.solve_exact(kinds()[name].example(0, 0), time_limit=60)
    assert isinstance(sol, Solution)
    assert sol.status in ("optimal", "time_limit")


@pytest.mark.parametrize("name", [k for k in KINDS if kinds()[k].simulate is not None])
def test_simulate_signature_and_result(name):
    kind = kinds()[name]
    pkg = _package(name)
    assert pkg.simulate is kind.simulate
    params = _params(pkg.simulate)
    assert [p.name for p in params[:2]] == ["inst", "policy"]
    assert all(p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD) for p in params[2:]), [p.name for p in params]
    assert kind.policies, "a simulator has a policy registry"
    policy = next(iter(kind.policies))
    sol = pkg.simulate(kind.example(0, 0), policy)
    assert isinstance(sol, Solution)
    kind.check_schedule(kind.example(0, 0), sol).raise_if_invalid()


@pytest.mark.parametrize("name", [k for k in KINDS if kinds()[k].policies])
def test_policies_feed_the_methods(name):
    """Every policy of the registry is reachable as a method that simulates it."""
    kind = kinds()[name]
    runs = " ".join(m.runs for m in kind.methods)
    for policy in kind.policies:
        assert f"policy={policy!r}" in runs, f"policy {policy} has no method"


@pytest.mark.parametrize("name", KINDS)
def test_check_schedule_lives_in_checker(name):
    pkg = _package(name)
    checker = importlib.import_module(f"hetopt.{name}.checker")
    assert pkg.check_schedule is checker.check_schedule is kinds()[name].check_schedule
    params = _params(checker.check_schedule)
    assert [p.name for p in params[:2]] == ["inst", "sol"]
    assert all(p.kind is p.KEYWORD_ONLY for p in params[2:])
    assert "CheckReport" in str(inspect.signature(checker.check_schedule).return_annotation)


@pytest.mark.parametrize("name", KINDS)
def test_validate_ratio_and_ratio_sweep(name):
    pkg = _package(name)
    params = _params(pkg.validate_ratio)
    assert params[0].name == "inst" and params[0].kind is params[0].POSITIONAL_OR_KEYWORD
    assert all(p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD) for p in params[1:])
    assert "time_limit" in [p.name for p in params]
    cert = pkg.validate_ratio(kinds()[name].example(1, 0), time_limit=60)
    assert isinstance(cert, Certificate)
    sweep_params = {p.name: p for p in _params(pkg.ratio_sweep)}
    assert _params(pkg.ratio_sweep)[0].name == "n"
    assert sweep_params["seed"].kind is inspect.Parameter.KEYWORD_ONLY
    assert "executor" in sweep_params
    assert "SweepResults" in str(inspect.signature(pkg.ratio_sweep).return_annotation)


@pytest.mark.parametrize("name", KINDS)
def test_instance_round_trip(name):
    kind = kinds()[name]
    inst = kind.example(5, 2)
    data = json.loads(json.dumps(inst.to_dict()))
    again = kind.instance.from_dict(data)
    assert again.to_dict() == inst.to_dict()
    assert hetopt.load_instance(data).to_dict() == inst.to_dict()


def _same(a, b):
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


@pytest.mark.parametrize("name", KINDS)
def test_solution_round_trip_of_every_method_type(name):
    """``type(sol).from_dict(sol.to_dict())`` rebuilds the solution of each method's type."""
    kind = kinds()[name]
    inst = kind.example(2, 0)
    seen = set()
    for m in kind.methods:
        if m.name.startswith(("exhaustive", "brute", "dorm")):
            continue
        sol = m(inst, time_limit=30) if m.accepts("time_limit") else m(inst)
        if type(sol) in seen:
            continue
        seen.add(type(sol))
        data = json.loads(json.dumps(sol.to_dict()))
        again = type(sol).from_dict(data)
        assert _same(again.to_dict(), sol.to_dict()), (m.name, type(sol).__name__)
        assert isinstance(sol.info, dict)
        summary = sol.summary()
        assert summary["status"] == sol.status.value
        json.dumps(summary, default=str)


def test_one_name_for_extra_data():
    """``info`` is the only name of extra data on results (no ``details`` field anywhere)."""
    root = pathlib.Path(hetopt.__file__).parent
    offenders = []
    for p in sorted(root.rglob("*.py")):
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == "details":
                offenders.append(f"{p.relative_to(root)}:{n.lineno}")
    assert offenders == [], offenders


def test_check_report_has_no_truth_value():
    rep = CheckReport.from_violations(["(1) x"], 1.0)
    with pytest.raises(TypeError, match="ambiguous"):
        bool(rep)
    with pytest.raises(ValueError):
        CheckReport(ok=True, violations=("x",))
    assert rep.to_dict() == {"ok": False, "violations": ["(1) x"], "objective": 1.0, "info": {}}


def test_status_is_its_string():
    assert hetopt.Status.OPTIMAL == "optimal"
    assert str(hetopt.Status.TIME_LIMIT) == "time_limit"
    assert f"{hetopt.Status.FEASIBLE}" == "feasible"


def test_seed_is_keyword_only_in_every_public_function():
    """No public function of the package takes ``seed`` positionally."""
    root = pathlib.Path(hetopt.__file__).parent
    offenders = []
    for p in sorted(root.rglob("*.py")):
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and not n.name.startswith("_") \
                    and n.name not in ("rng_from", "check_seed", "example"):
                if "seed" in [a.arg for a in n.args.posonlyargs + n.args.args]:
                    offenders.append(f"{p.relative_to(root)}:{n.lineno} {n.name}")
    assert offenders == [], offenders


def test_no_check_instance_calls_left():
    """Instances are checked in one place: ``@takes_instance`` (or the front door), not by hand."""
    root = pathlib.Path(hetopt.__file__).parent
    offenders = [f"{p.relative_to(root)}" for p in sorted(root.rglob("*.py"))
                 if "check_instance(" in p.read_text(encoding="utf-8")]
    assert offenders == [], offenders
    assert not hasattr(importlib.import_module("hetopt.inputs"), "check_instance")


@pytest.mark.parametrize("name", KINDS)
def test_example_is_small_and_valid(name):
    kind = kinds()[name]
    for seed in range(3):
        inst = kind.example(seed, 1)
        assert isinstance(inst, kind.instance)
        assert np.isfinite(kind.solve_exact(inst, time_limit=60).objective)


def test_messages_name_types_with_their_article():
    """'is an int', not 'is a int': messages build the phrase with hetopt.errors.a_type."""
    import re

    pat = re.compile(r"\ban? \{type\(")
    root = pathlib.Path(hetopt.__file__).parent
    bad = [str(p.relative_to(root)) for p in root.rglob("*.py") if pat.search(p.read_text(encoding="utf-8"))]
    assert bad == [], bad
    from hetopt.errors import a_type

    assert (a_type(3), a_type("x"), a_type(None), a_type(1.5)) == ("an int", "a str", "a NoneType", "a float")
