"""The README's generated tables match the package (regenerate: python tests/readme_blocks.py)."""

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
