"""The wheel must ship every subpackage: pyproject lists them by hand (hetopt.instances lives outside hetopt/)."""

import json
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(cfg["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "hetopt").rglob("__init__.py")}
    assert found <= listed, f"add to pyproject's packages list: {sorted(found - listed)}"
    assert "hetopt.instances" in listed


def test_bundled_instances_are_valid_json_with_kind():
    for p in (ROOT / "instances").glob("*.json"):
        data = json.loads(p.read_text())
        assert "kind" in data and "schema_version" in data, p.name


def test_readme_opens_with_the_two_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```(?:bash|sh)?\n(.*?)```", readme, flags=re.S)
    first = [ln for ln in blocks[0].splitlines() if ln.strip() and not ln.startswith("#")]
    assert len(first) == 2 and "hetopt reproduce" in first[0] and "pytest" in first[1]
    ci = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text().splitlines()]
    install, test = (part.strip() for part in first[1].split("&&"))
    assert install in ci and test in ci, "CI installs and tests as the README says"
    assert ci.index("ruff check hetopt") < ci.index(test) and ci.index("mypy") < ci.index(test), (
        "CI runs ruff and mypy before the tests")


def test_gavel_numbers_ship_with_their_licence():
    from hetopt.data import gavel_license, gavel_throughputs

    assert "MIT" in gavel_license() and "Permission is hereby granted" in gavel_license()
    assert len(gavel_throughputs()["entries"]) > 0


def test_licence_and_typing_marker_ship():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert (ROOT / "LICENSE").read_text().startswith("MIT License") and cfg["project"]["license"] == "MIT"
    assert (ROOT / "hetopt" / "py.typed").exists() and "py.typed" in cfg["tool"]["setuptools"]["package-data"]["hetopt"]
    assert "notebooks" in cfg["project"]["optional-dependencies"]
