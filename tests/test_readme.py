"""The README's generated tables match the package (regenerate: python tests/readme_blocks.py)."""

from pathlib import Path

import pytest

from tests.readme_blocks import README, blocks, current

BLOCKS = blocks()


@pytest.mark.parametrize("name", list(BLOCKS))
def test_readme_block_is_current(name):
    found = current(README.read_text(), name)
    assert found is not None, f"README.md lacks the block <!-- {name}: ... --> <!-- /{name} -->"
    assert found == BLOCKS[name].strip(), f"README.md's {name} block is stale: run python tests/readme_blocks.py"


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
