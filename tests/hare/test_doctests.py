import doctest

import pytest

import hetopt.hare.algorithm1
import hetopt.hare.generators
import hetopt.hare.instance
import hetopt.hare.simulator


@pytest.mark.parametrize("module", [hetopt.hare.instance, hetopt.hare.algorithm1, hetopt.hare.generators,
                                    hetopt.hare.simulator])
def test_docstring_examples(module):
    res = doctest.testmod(module)
    assert res.attempted > 0 and res.failed == 0
