import doctest

import pytest

import hetopt.hare.algorithm1
import hetopt.hare.instance


@pytest.mark.parametrize("module", [hetopt.hare.instance, hetopt.hare.algorithm1])
def test_docstring_examples(module):
    res = doctest.testmod(module)
    assert res.attempted > 0 and res.failed == 0
