import doctest

import pytest

import hetopt.gavel.instance
import hetopt.gavel.mechanism


@pytest.mark.parametrize("module", [hetopt.gavel.mechanism, hetopt.gavel.instance])
def test_docstring_examples(module):
    res = doctest.testmod(module)
    assert res.attempted > 0 and res.failed == 0
