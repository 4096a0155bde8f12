"""One vocabulary across the subpackages: check_schedule, validate_ratio, seed, average_jct."""

import importlib
import inspect

import pytest

from hetopt.result import Certificate, CheckReport

PACKAGES = ("placement", "hare", "oasis", "contention", "hadar", "gavel")


@pytest.mark.parametrize("name", PACKAGES)
def test_check_schedule_everywhere(name):
    mod = importlib.import_module(f"hetopt.{name}")
    sig = inspect.signature(mod.check_schedule)
    params = list(sig.parameters.values())
    assert [p.name for p in params[:2]] == ["inst", "sol"]
    assert all(p.kind is p.KEYWORD_ONLY for p in params[2:])
    assert "CheckReport" in str(sig.return_annotation)


@pytest.mark.parametrize("name", ["hare", "oasis", "hadar"])
def test_validate_ratio_has_one_signature(name):
    mod = importlib.import_module(f"hetopt.{name}")
    params = list(inspect.signature(mod.validate_ratio).parameters.values())
    assert params[0].name == "inst" and params[0].kind is params[0].POSITIONAL_OR_KEYWORD
    assert all(p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD) for p in params[1:])
    assert "time_limit" in [p.name for p in params]
    assert "Certificate" in str(inspect.signature(mod.validate_ratio).return_annotation)


def test_validate_ratio_returns_certificates():
    from hetopt import load_instance
    from hetopt.hadar import validate_ratio as hadar_ratio
    from hetopt.hare import random_instance
    from hetopt.hare import validate_ratio as hare_ratio
    from hetopt.oasis import validate_ratio as oasis_ratio

    c = hare_ratio(random_instance(seed=3, n_jobs=2, n_gpus=2), time_limit=30)
    assert isinstance(c, Certificate) and c.value >= c.reference * (1 - 1e-9)
    assert c.proven and c.holds is (c.ratio <= c.limit * (1 + 1e-6))
    c = oasis_ratio(load_instance("oasis2018_theorem4_in_premise"), time_limit=30)
    assert isinstance(c, Certificate) and c.limit is not None
    c = hadar_ratio(load_instance("hadar2024_small"), time_limit=30)
    assert isinstance(c, Certificate) and c.reference >= c.value * (1 - 1e-9)


def test_check_report_has_no_truth_value():
    rep = CheckReport.from_violations(["(1) x"], 1.0)
    with pytest.raises(TypeError, match="ambiguous"):
        bool(rep)
    with pytest.raises(ValueError):
        CheckReport(ok=True, violations=("x",))
    assert rep.to_dict() == {"ok": False, "violations": ["(1) x"], "objective": 1.0, "info": {}}


def test_seed_is_keyword_only_in_every_public_function():
    """No public function of the package takes ``seed`` positionally (issue 11)."""
    import ast
    import pathlib

    import hetopt

    root = pathlib.Path(hetopt.__file__).parent
    offenders = []
    for p in sorted(root.rglob("*.py")):
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            # rng_from converts its argument (a seed or a Generator) and has no other parameter
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and not n.name.startswith("_") \
                    and n.name != "rng_from":
                if "seed" in [a.arg for a in n.args.posonlyargs + n.args.args]:
                    offenders.append(f"{p.relative_to(root)}:{n.lineno} {n.name}")
    assert offenders == [], offenders
