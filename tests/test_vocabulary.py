"""The same verbs in every paper (CONTRIBUTING.md, "The same verbs in every paper").

For every registered kind, read from its :class:`~hetopt.contract.Kind`: the instance positional and
every other parameter keyword-only, the shared names and defaults (``generate_instance(*, ...,
seed=None)``, ``example(*, seed, size)``, ``solve_exact(inst, *, time_limit=None, mip_gap=None,
threads=1, max_size=...)``, ``simulate(inst, policy, *, options=None, ...)``, ``check_schedule(inst,
sol, *, ...)``, ``validate_ratio(inst, *, time_limit, ...)``, ``ratio_sweep(n, *, seed=0,
executor, ...)``, ``export_model(inst)``), the return types (annotated and returned), one
simulation result type (:class:`~hetopt.result.SimulationResult`) named after its paper,
``to_dict``/``from_dict`` round trips of instances and solutions, extra data in ``Solution.info``,
and one policy registry that feeds the methods.  ``mypy`` checks each ``kind.py`` against the
Protocols of :mod:`hetopt.contract`; these tests hold what a type checker cannot (defaults,
behaviour).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pathlib
import re
import typing

import numpy as np
import pytest

import hetopt
from hetopt.errors import ArgumentError, SizeLimitError
from hetopt.registry import kinds
from hetopt.result import Certificate, CheckReport, SimulationResult, Solution
from hetopt.validate import SweepResults

KINDS = list(kinds())
#: Names a size guard, a gap or policy options had before they were made one (none may come back).
OLD_NAMES = {"max_columns", "max_tasks", "max_variables", "max_binaries", "max_cases", "max_assignments",
             "max_categories", "max_work", "max_pairs", "rel_gap", "policy_options"}
#: Words a ``max_size`` docstring names its unit with.
UNITS = ("columns", "tasks", "variables", "binar", "categories", "assignments", "pairs", "iterations", "queue entries")
BAD = [None, -1, True, 1.5, 2**70]


def _package(name: str):
    return importlib.import_module(f"hetopt.{name}")


def _params(func) -> list[inspect.Parameter]:
    return list(inspect.signature(func).parameters.values())


def _returns(func) -> typing.Any:
    return typing.get_type_hints(func)["return"]


def _doc_of(func, param: str) -> str:
    """The numpydoc entry of ``param`` in ``func``'s docstring (empty when absent)."""
    m = re.search(rf"^\s*{param} :.*?(?=^\s*\w+ :|^\s*$\n^\s*[A-Z]\w+\n\s*-+|\Z)", inspect.getdoc(func) or "",
                  re.S | re.M)
    return m.group(0) if m else ""


def _instance_first(func, *names: str) -> dict[str, inspect.Parameter]:
    """Assert the leading ``names`` are positional and every other parameter keyword-only; the parameters by name."""
    params = _params(func)
    assert [p.name for p in params[:len(names)]] == list(names), [p.name for p in params]
    assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in params[:len(names)])
    rest = [p for p in params[len(names):] if p.kind is not p.VAR_KEYWORD]
    assert all(p.kind is p.KEYWORD_ONLY for p in rest), [(p.name, str(p.kind)) for p in rest]
    return {p.name: p for p in params}


# ------------------------------------------------------------------------------------------ generators


@pytest.mark.parametrize("name", KINDS)
def test_generate_instance_takes_everything_by_keyword(name):
    kind = kinds()[name]
    assert _package(name).generate_instance is kind.generate_instance
    params = _params(kind.generate_instance)
    assert all(p.kind is p.KEYWORD_ONLY for p in params), [p.name for p in params]
    assert all(p.default is not p.empty for p in params), "every parameter has a default"
    assert {p.name: p for p in params}["seed"].default is None
    assert _returns(kind.generate_instance) is kind.instance
    a, b = kind.generate_instance(seed=3), kind.generate_instance(seed=3)
    assert isinstance(a, kind.instance) and a.to_dict() == b.to_dict(), "same seed, same instance"


@pytest.mark.parametrize("name", KINDS)
def test_example_takes_seed_and_size_by_keyword_and_checks_them(name):
    kind = kinds()[name]
    params = _params(kind.example)
    assert [(p.name, p.kind, p.default) for p in params] == [("seed", inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.empty),
                                                             ("size", inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.empty)]
    assert _returns(kind.example) is kind.instance
    assert kind.example(seed=3, size=1).to_dict() == kind.example(seed=3, size=1).to_dict(), "same seed, same instance"
    with pytest.raises(TypeError):
        kind.example(0, 0)
    for bad in BAD:
        with pytest.raises(ArgumentError, match="seed"):
            kind.example(seed=bad, size=0)
        with pytest.raises(ArgumentError, match="size"):
            kind.example(seed=0, size=bad)


@pytest.mark.parametrize("name", KINDS)
def test_example_is_small_and_valid(name):
    kind = kinds()[name]
    for seed in range(3):
        inst = kind.example(seed=seed, size=1)
        assert isinstance(inst, kind.instance)
        assert np.isfinite(kind.solve_exact(inst, time_limit=60).objective)


# ------------------------------------------------------------------------------------------ solve_exact


@pytest.mark.parametrize("name", KINDS)
def test_solve_exact_shared_names_and_defaults(name):
    kind = kinds()[name]
    assert _package(name).solve_exact is kind.solve_exact
    params = _instance_first(kind.solve_exact, "inst")
    assert params["time_limit"].default is None
    assert params["mip_gap"].default is None
    assert params["threads"].default == 1 and "1 by default" in _doc_of(kind.solve_exact, "threads")
    assert issubclass(_returns(kind.solve_exact), Solution)
    sol = kind.solve_exact(kind.example(seed=0, size=0), time_limit=60)
    assert isinstance(sol, _returns(kind.solve_exact))
    assert sol.status in ("optimal", "time_limit")


@pytest.mark.parametrize("name", KINDS)
def test_one_size_guard_named_max_size(name):
    """A guarded exact route calls its guard ``max_size`` (its unit in the docstring) and its refusal names it."""
    kind = kinds()[name]
    params = {p.name: p for p in _params(kind.solve_exact)}
    if "max_size" not in params:
        assert "no size guard" in inspect.getdoc(kind.solve_exact), "say so when the route is not guarded"
        return
    doc = _doc_of(kind.solve_exact, "max_size")
    assert any(u in doc for u in UNITS), f"the docstring of max_size names no unit: {doc!r}"
    with pytest.raises(SizeLimitError, match="max_size"):
        kind.solve_exact(kind.example(seed=0, size=0), max_size=1)


@pytest.mark.parametrize("name", KINDS)
def test_no_method_keeps_an_old_name(name):
    """Size guards are ``max_size``, the gap ``mip_gap``, policy options ``options`` in every method."""
    kind = kinds()[name]
    for m in kind.methods:
        old = OLD_NAMES & set(m.options())
        assert not old, (m.name, sorted(old))
        if "max_size" in m.options():
            func = m.func
            while hasattr(func, "func"):
                func = func.func
            assert any(u in _doc_of(func, "max_size") for u in UNITS), (m.name, "max_size names no unit")


# ------------------------------------------------------------------------------------------ simulate


@pytest.mark.parametrize("name", [k for k in KINDS if kinds()[k].simulate is not None])
def test_simulate_signature_and_result(name):
    kind = kinds()[name]
    assert _package(name).simulate is kind.simulate
    params = _instance_first(kind.simulate, "inst", "policy")
    assert params["options"].default is None
    assert issubclass(_returns(kind.simulate), SimulationResult)
    assert kind.policies, "a simulator has a policy registry"
    inst = kind.example(seed=0, size=0)
    policy = next(iter(kind.policies))
    sol = kind.simulate(inst, policy)
    assert isinstance(sol, _returns(kind.simulate))
    assert type(sol).__name__ == f"{name.capitalize()}Simulation", "a paper's simulation is named after it"
    assert sol.policy == policy and sol.status == "feasible" and sol.bound is None
    done = np.isfinite(sol.completion)
    assert sol.completion.ndim == 1 and sol.completion.size > 0 and sol.completion.shape == sol.jct.shape
    if done.any():
        assert sol.average_jct == pytest.approx(float(np.mean(sol.jct[done])), rel=1e-12)
        assert np.all(sol.jct[done] >= 0)
    kind.check_schedule(inst, sol).raise_if_invalid()
    assert kind.simulate(inst, policy, options=None).objective == sol.objective
    with pytest.raises(ArgumentError, match="option"):
        kind.simulate(inst, policy, options={"no_such_option": 1})
    with pytest.raises(ArgumentError, match="options"):
        kind.simulate(inst, policy, options=5)


def test_one_simulation_result_type():
    """Every simulation is a SimulationResult; no two result types share a name."""
    for k in KINDS:
        _package(k)
    seen: dict[str, type] = {}

    def walk(cls: type) -> None:
        for sub in cls.__subclasses__():
            if sub.__module__.startswith("hetopt."):
                assert seen.setdefault(sub.__name__, sub) is sub, f"two result types named {sub.__name__}"
            walk(sub)

    walk(Solution)
    assert seen["SimulationResult"] is SimulationResult
    assert issubclass(seen["HareSimulation"], seen["HareSolution"])  # the checker reads a simulation as a schedule


@pytest.mark.parametrize("name", [k for k in KINDS if kinds()[k].policies])
def test_policies_feed_the_methods(name):
    """Every policy of the registry is reachable as a method that simulates it."""
    kind = kinds()[name]
    runs = " ".join(m.runs for m in kind.methods)
    for policy in kind.policies:
        assert f"policy={policy!r}" in runs, f"policy {policy} has no method"


# ------------------------------------------------------------------------------------------ the other verbs


@pytest.mark.parametrize("name", KINDS)
def test_check_schedule_lives_in_checker(name):
    pkg = _package(name)
    checker = importlib.import_module(f"hetopt.{name}.checker")
    assert pkg.check_schedule is checker.check_schedule is kinds()[name].check_schedule
    _instance_first(checker.check_schedule, "inst", "sol")
    assert _returns(checker.check_schedule) is CheckReport


@pytest.mark.parametrize("name", KINDS)
def test_validate_ratio_and_ratio_sweep_are_read_from_the_kind(name):
    kind = kinds()[name]
    pkg = _package(name)
    assert kind.validate_ratio is pkg.validate_ratio and kind.ratio_sweep is pkg.ratio_sweep
    params = _instance_first(kind.validate_ratio, "inst")
    assert "time_limit" in params
    assert _returns(kind.validate_ratio) is Certificate
    assert isinstance(kind.validate_ratio(kind.example(seed=1, size=0), time_limit=60), Certificate)
    sweep = _instance_first(kind.ratio_sweep, "n")
    assert sweep["seed"].default == 0 and "executor" in sweep
    assert _returns(kind.ratio_sweep) is SweepResults


@pytest.mark.parametrize("name", KINDS)
def test_export_model_takes_the_instance(name):
    kind = kinds()[name]
    assert [p.name for p in _params(kind.export_model)] == ["inst"]


# ------------------------------------------------------------------------------------------ round trips


@pytest.mark.parametrize("name", KINDS)
def test_instance_round_trip(name):
    kind = kinds()[name]
    inst = kind.example(seed=5, size=2)
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
    inst = kind.example(seed=2, size=0)
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


# ------------------------------------------------------------------------------------------ the whole package


def test_one_name_for_extra_data(sources):
    """``info`` is the only name of extra data on results (no ``details`` field anywhere)."""
    root = pathlib.Path(hetopt.__file__).parent
    offenders = []
    for p in sorted(root.rglob("*.py")):
        for n in sources.nodes(p):
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


def test_seed_is_keyword_only_in_every_public_function(sources):
    """No public function of the package takes ``seed`` positionally."""
    root = pathlib.Path(hetopt.__file__).parent
    offenders = []
    for p in sorted(root.rglob("*.py")):
        for n in sources.nodes(p):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and not n.name.startswith("_") \
                    and n.name not in ("rng_from", "check_seed", "check_example"):
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


def test_messages_name_types_with_their_article():
    """'is an int', not 'is a int': messages build the phrase with hetopt.errors.a_type."""
    pat = re.compile(r"\ban? \{type\(")
    root = pathlib.Path(hetopt.__file__).parent
    bad = [str(p.relative_to(root)) for p in root.rglob("*.py") if pat.search(p.read_text(encoding="utf-8"))]
    assert bad == [], bad
    from hetopt.errors import a_type

    assert (a_type(3), a_type("x"), a_type(None), a_type(1.5)) == ("an int", "a str", "a NoneType", "a float")


def test_every_verb_is_typed_by_its_protocol():
    """The fields of Kind carry the Protocols of hetopt.contract.VERBS (what mypy checks each kind.py against)."""
    from hetopt.contract import VERBS, Kind

    for verb, proto in VERBS.items():
        assert proto.__name__ in Kind.__annotations__[verb], (verb, Kind.__annotations__[verb])
        assert callable(getattr(proto, "__call__", None))
