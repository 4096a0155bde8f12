import doctest

import pytest

from hetopt.hadar import bounds


@pytest.mark.parametrize("module", [bounds], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    res = doctest.testmod(module)
    assert res.attempted > 0 and res.failed == 0
