import doctest

import hetopt.placement


def test_placement_docstring_examples():
    result = doctest.testmod(hetopt.placement, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 3 and result.failed == 0
