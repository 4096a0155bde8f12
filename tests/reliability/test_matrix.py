"""The argument-matrix runner fails on every kind of miss and lists each failing case."""

import pytest

from hetopt.errors import ArgumentError
from tests.reliability.matrix import Bad, by_function, function_of, refused


def _raise(exc):
    raise exc


def test_refused_lists_every_failing_case():
    cases = [Bad("f", "f x", 1, lambda: _raise(ArgumentError("x is 1; expected ...")), "x"),
             Bad("f", "f y", 2, lambda: 3, "y"),
             Bad("f", "f z", "3", lambda: _raise(TypeError("bad operand")), "z"),
             Bad("f", "f w", None, lambda: _raise(ArgumentError("something else")), r"\bw\b")]
    with pytest.raises(AssertionError) as err:
        refused(cases)
    msg = str(err.value)
    assert msg.startswith("3 of 4 bad values of f")
    assert "f y=2: accepted (returned int)" in msg
    assert "f z='3': TypeError instead of ArgumentError: bad operand" in msg
    assert "f w=None: ArgumentError not matching" in msg and "f x" not in msg
    refused(cases[:1])


def test_grouping_by_function():
    assert [function_of(s) for s in ("solve_exact[milp]", "lp_bound(pyomo)", "solve_exact scip",
                                      "generate_instance.n_jobs", "has")] == \
        ["solve_exact", "lp_bound", "solve_exact", "generate_instance", "has"]
    groups = by_function([Bad("b", "", 0, int, ""), Bad("a", "", 0, int, ""), Bad("b", "", 1, int, "")])
    assert list(groups) == ["b", "a"] and [c.value for c in groups["b"]] == [0, 1]
