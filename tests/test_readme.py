"""The README's generated tables match the package (regenerate: python -m tests.readme_blocks)."""

from pathlib import Path

import pytest

from tests.readme_blocks import CONTRIBUTING, README, ROOT, SHARED, blocks, current, refusal

BLOCKS = blocks()


@pytest.mark.parametrize("name", list(BLOCKS))
def test_readme_block_is_current(name):
    found = current(README.read_text(), name)
    assert found is not None, f"README.md lacks the block <!-- {name}: ... --> <!-- /{name} -->"
    assert found == BLOCKS[name].strip(), f"README.md's {name} block is stale: run python -m tests.readme_blocks"


def test_readme_blocks_refuses_to_read_another_copy_of_hetopt():
    """Before: ``python tests/readme_blocks.py`` regenerated the tables from the installed copy, silently."""
    import subprocess
    import sys

    before = README.read_bytes()
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "readme_blocks.py")], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode != 0 and README.read_bytes() == before
    assert proc.stderr.count("\n") == 1 and "python -m tests.readme_blocks" in proc.stderr, proc.stderr
    assert refusal("tests", str(ROOT / "hetopt" / "__init__.py")) is None
    installed = "/usr/lib/python3/site-packages/hetopt/__init__.py"
    assert "python -m tests.readme_blocks" in refusal("tests", installed) and "site-packages" in refusal("tests", installed)
    assert "as a script" in refusal("", str(ROOT / "hetopt" / "__init__.py"))


@pytest.mark.parametrize("name", SHARED)
def test_contributing_says_the_same(name):
    """CONTRIBUTING.md's verbs table is the README's (both generated from hetopt.contract.VERBS)."""
    found = current(CONTRIBUTING.read_text(), name)
    assert found is not None, f"CONTRIBUTING.md lacks the block <!-- {name}: ... --> <!-- /{name} -->"
    assert found == BLOCKS[name].strip(), f"CONTRIBUTING.md's {name} block is stale: run python -m tests.readme_blocks"


def test_readme_has_the_two_setup_commands_first():
    head = README.read_text().split("```")[1]
    assert 'pip install . && hetopt reproduce' in head and 'pip install ".[test]" && pytest' in head


def test_readme_python_blocks_run(tmp_path, monkeypatch):
    """Every ```python block of the README runs as written (in order, one namespace)."""
    import re

    import matplotlib

    matplotlib.use("Agg")
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 3
    monkeypatch.chdir(tmp_path)
    ns: dict = {}
    for code in blocks:
        exec(compile(code, "README.md", "exec"), ns)  # noqa: S102 - the README's own examples


def test_readme_json_instances_load_and_its_error_example_is_real():
    """Every ```json block is an instance the loader accepts; the quoted error is the loader's own."""
    import json
    import re

    import hetopt
    from hetopt.errors import InstanceError

    text = README.read_text(encoding="utf-8")
    docs = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, flags=re.S)]
    assert docs, "the README shows how to write an instance"
    for d in docs:
        hetopt.load_instance(d)
    quoted = re.search(r"\(`(weight\[1\] is '2'[^`]*)`\)", text)
    assert quoted is not None
    bad = {**docs[0], "weight": [1, "2"]}
    with pytest.raises(InstanceError) as err:
        hetopt.load_instance(bad)
    assert quoted.group(1) in str(err.value)
