"""The Examples sections of the docstrings run."""

import doctest
import importlib

import pytest

MODULES = ["comm", "two_task", "simulator", "solution", "accounting", "generators", "exact", "validate"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    mod = importlib.import_module(f"hetopt.contention.{name}")
    result = doctest.testmod(mod)
    assert result.attempted > 0 and result.failed == 0
