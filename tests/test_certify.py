"""hetopt.certify: the one rule that grants OPTIMAL, at every magnitude, and the Solution guard that applies it."""

from __future__ import annotations

import ast
import math
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hetopt
from hetopt.certify import OPTIMAL_RTOL, Status, certify
from hetopt.errors import ArgumentError, SolverError
from hetopt.result import Solution

MAGNITUDES = [10.0**e for e in range(-12, 13, 3)]
#: Relative distances well inside and well outside OPTIMAL_RTOL = 1e-6 (no test sits on the threshold).
INSIDE, OUTSIDE = 1e-7, 1e-5


def _toward(value: float, rel: float, sense: str) -> float:
    """A bound ``rel`` away from ``value`` on the valid side (below for min, above for max)."""
    return value - rel * abs(value) if sense == "min" else value + rel * abs(value)


def _beyond(value: float, rel: float, sense: str) -> float:
    """A bound ``rel`` away from ``value`` on the wrong side."""
    return _toward(value, -rel, sense)


@pytest.mark.parametrize("sense", ["min", "max"])
@pytest.mark.parametrize("sign", [1.0, -1.0])
@pytest.mark.parametrize("m", MAGNITUDES)
def test_optimal_only_within_the_relative_tolerance(m, sign, sense):
    obj = sign * m
    assert certify(obj, obj, stopped=False, sense=sense) is Status.OPTIMAL
    assert certify(obj, _toward(obj, INSIDE, sense), stopped=False, sense=sense) is Status.OPTIMAL
    # a proof is a proof even when a limit stopped the run
    assert certify(obj, _toward(obj, INSIDE, sense), stopped=True, sense=sense) is Status.OPTIMAL
    assert certify(obj, _toward(obj, OUTSIDE, sense), stopped=False, sense=sense) is Status.FEASIBLE
    assert certify(obj, _toward(obj, OUTSIDE, sense), stopped=True, sense=sense) is Status.TIME_LIMIT
    # a hair on the wrong side (rounding of the last digits) still meets the objective
    assert certify(obj, _beyond(obj, INSIDE, sense), stopped=False, sense=sense) is Status.OPTIMAL


@pytest.mark.parametrize("sense", ["min", "max"])
@pytest.mark.parametrize("m", MAGNITUDES)
def test_a_bound_on_the_wrong_side_is_raised(m, sense):
    for stopped in (False, True):
        with pytest.raises(SolverError, match="not a valid bound"):
            certify(m, _beyond(m, OUTSIDE, sense), stopped=stopped, sense=sense)


@pytest.mark.parametrize("m", [1e-12, 1e-9, 1e-7])
def test_small_data_gets_no_absolute_slack(m):
    """An absolute tolerance of 1e-6 would call a bound of 0 (or half the objective) a proof at these magnitudes."""
    assert certify(m, 0.0, stopped=False, sense="min") is Status.FEASIBLE
    assert certify(m, m / 2, stopped=False, sense="min") is Status.FEASIBLE
    assert certify(m / 2, m, stopped=False, sense="max") is Status.FEASIBLE
    with pytest.raises(SolverError):
        certify(m / 2, m, stopped=False, sense="min")


@pytest.mark.parametrize("m", MAGNITUDES)
def test_a_bound_shaved_by_the_tolerance_still_meets(m):
    """hetopt.hare's LP bounds are the LP value x (1 - OPTIMAL_RTOL): relative to the larger of the two, they meet."""
    for value in (m, m * 1.2345678901, m * 7.0 / 3.0):
        assert certify(value, value - OPTIMAL_RTOL * value, stopped=False, sense="min") is Status.OPTIMAL
        assert certify(value, value + OPTIMAL_RTOL * value, stopped=False, sense="max") is Status.OPTIMAL
        assert certify(value, value * (1 - 1.001 * OPTIMAL_RTOL), stopped=False, sense="min") is Status.FEASIBLE


def test_exact_zero_is_optimal_and_zero_against_a_tiny_bound_is_not():
    assert certify(0.0, 0.0, stopped=False, sense="min") is Status.OPTIMAL
    assert certify(0.0, -1e-20, stopped=False, sense="min") is Status.FEASIBLE
    assert certify(1e-20, 0.0, stopped=False, sense="min") is Status.FEASIBLE


@pytest.mark.parametrize("sense", ["min", "max"])
def test_no_bound(sense):
    assert certify(3.0, None, stopped=False, sense=sense) is Status.FEASIBLE
    assert certify(3.0, None, stopped=True, sense=sense) is Status.TIME_LIMIT
    assert certify(None, None, stopped=True, sense=sense) is Status.TIME_LIMIT
    assert certify(None, 2.0, stopped=True, sense=sense) is Status.TIME_LIMIT


@pytest.mark.parametrize("sense", ["min", "max"])
def test_nan_is_never_a_proof(sense):
    nan = math.nan
    for obj, bound in ((nan, 1.0), (1.0, nan), (nan, nan)):
        assert certify(obj, bound, stopped=False, sense=sense) is Status.FEASIBLE
        assert certify(obj, bound, stopped=True, sense=sense) is Status.TIME_LIMIT


def test_infinities():
    inf = math.inf
    assert certify(inf, inf, stopped=False, sense="min") is Status.FEASIBLE
    assert certify(1.0, -inf, stopped=False, sense="min") is Status.FEASIBLE
    assert certify(1.0, inf, stopped=False, sense="max") is Status.FEASIBLE
    with pytest.raises(SolverError):
        certify(1.0, inf, stopped=False, sense="min")
    with pytest.raises(SolverError):
        certify(1.0, -inf, stopped=False, sense="max")


def test_bad_arguments_are_named():
    with pytest.raises(ArgumentError, match="sense"):
        certify(1.0, 1.0, stopped=False, sense="minimize")
    with pytest.raises(ArgumentError, match="stopped"):
        certify(1.0, 1.0, stopped=1, sense="min")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="objective is None"):
        certify(None, 1.0, stopped=False, sense="min")


@settings(derandomize=True, deadline=None, max_examples=300)
@given(obj=st.floats(-1e12, 1e12, allow_nan=False).filter(lambda v: v == 0 or abs(v) >= 1e-12),
       rel=st.floats(-1e-4, 1e-4), sense=st.sampled_from(["min", "max"]))
def test_agrees_with_exact_arithmetic(obj, rel, sense):
    """The verdict against |objective - bound| <= OPTIMAL_RTOL max(|objective|, |bound|) in exact rationals."""
    bound = obj * (1 + rel)
    diff, scale = abs(Fraction(obj) - Fraction(bound)), max(abs(Fraction(obj)), abs(Fraction(bound)))
    threshold = Fraction(OPTIMAL_RTOL) * scale
    if scale and abs(diff - threshold) <= threshold * Fraction(1, 10**6):
        return  # on the threshold itself, rounding decides
    wrong = (bound > obj) if sense == "min" else (bound < obj)
    if diff <= threshold:
        assert certify(obj, bound, stopped=False, sense=sense) is Status.OPTIMAL
    elif wrong:
        with pytest.raises(SolverError):
            certify(obj, bound, stopped=False, sense=sense)
    else:
        assert certify(obj, bound, stopped=False, sense=sense) is Status.FEASIBLE


@pytest.mark.parametrize("sense", ["min", "max"])
@pytest.mark.parametrize("m", [1e-12, 1.0, 1e12])
def test_solution_applies_the_same_rule(m, sense):
    Solution(status=Status.OPTIMAL, objective=m, bound=_toward(m, INSIDE, sense), sense=sense)
    with pytest.raises(SolverError, match="not a proof of optimality"):
        Solution(status=Status.OPTIMAL, objective=m, bound=_toward(m, OUTSIDE, sense), sense=sense)
    with pytest.raises(SolverError, match="invalid bound"):
        Solution(status=Status.OPTIMAL, objective=m, bound=_beyond(m, OUTSIDE, sense), sense=sense)
    with pytest.raises(SolverError, match="without a proven bound"):
        Solution(status=Status.OPTIMAL, objective=m, sense=sense)
    # the rule binds OPTIMAL only: a stopped run may carry any gap
    Solution(status=Status.TIME_LIMIT, objective=m, bound=_toward(m, OUTSIDE, sense), sense=sense)


@pytest.mark.parametrize("sense", ["min", "max"])
def test_solution_refuses_an_infinite_or_nan_proof(sense):
    """The guard used to scale its tolerance by max(|objective|, |bound|) and compare with ``>``: an infinite
    bound (scale inf) and a NaN objective or bound (every comparison False) passed as a proof."""
    for objective, bound in ((1.5, math.inf), (1.5, -math.inf), (1.5, math.nan), (math.nan, 1.5), (math.nan, math.nan)):
        with pytest.raises(SolverError):
            Solution(status=Status.OPTIMAL, objective=objective, bound=bound, sense=sense)


def _tolerance_uses(tree: ast.AST) -> list[int]:
    """Lines where code reads ``OPTIMAL_RTOL`` as a value (a comparison, arithmetic, an argument).

    Its import and its mention in a message (an f-string) are not uses; docstrings and comments
    are not code.
    """
    in_message = {id(n) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for n in ast.walk(node)}
    return sorted(node.lineno for node in ast.walk(tree)
                  if (isinstance(node, ast.Name) and node.id == "OPTIMAL_RTOL"
                      or isinstance(node, ast.Attribute) and node.attr == "OPTIMAL_RTOL")
                  and id(node) not in in_message)


def test_only_certify_compares_with_the_tolerance(sources):
    """Every route's OPTIMAL goes through certify: no hand-written "gap <= OPTIMAL_RTOL" anywhere else in hetopt/."""
    root = Path(hetopt.__file__).resolve().parent
    found = {str(p.relative_to(root)): lines for p in sorted(root.rglob("*.py")) if p.name != "certify.py" or
             p.parent != root for lines in [_tolerance_uses(sources.tree(p))] if lines}
    assert found == {}, f"OPTIMAL_RTOL used outside hetopt/certify.py (call certify instead): {found}"


def test_the_tolerance_check_can_fail():
    assert _tolerance_uses(ast.parse("from x import OPTIMAL_RTOL\nok = gap <= OPTIMAL_RTOL\n")) == [2]
    assert _tolerance_uses(ast.parse("import hetopt\nbad = a > b * (1 + hetopt.certify.OPTIMAL_RTOL)\n")) == [2]
    assert _tolerance_uses(ast.parse("t = max(rel_gap, OPTIMAL_RTOL)\n")) == [1]
    message_only = 'from x import OPTIMAL_RTOL\nmsg = f"more than {OPTIMAL_RTOL:g}"\n"""gap <= OPTIMAL_RTOL"""\n'
    assert _tolerance_uses(ast.parse(message_only)) == []


MOVED = {"Status", "relative_gap", "OPTIMAL_RTOL", "GAP_FLOOR"}


def _imports_of_moved_names_from_result(nodes: Iterable[ast.AST]) -> list[int]:
    """Lines that import a name of hetopt.certify from hetopt.result (where it lived before; only an alias now)."""
    return sorted(node.lineno for node in nodes if isinstance(node, ast.ImportFrom)
                  and (node.module or "").split(".")[-1] == "result" and MOVED & {a.name for a in node.names})


def test_the_status_vocabulary_is_imported_from_certify(sources):
    root = Path(hetopt.__file__).resolve().parents[1]
    files = [p for d in ("hetopt", "tests", "notebooks/generate", "docs/_ext")
             for p in sorted((root / d).rglob("*.py"))]
    found = {str(p.relative_to(root)): lines for p in files
             for lines in [_imports_of_moved_names_from_result(sources.nodes(p))] if lines}
    assert found == {}, f"import Status / relative_gap / OPTIMAL_RTOL / GAP_FLOOR from hetopt.certify: {found}"
    assert _imports_of_moved_names_from_result(ast.walk(ast.parse("from ..result import Solution, Status\n"))) == [1]
    assert _imports_of_moved_names_from_result(ast.walk(ast.parse("from hetopt.result import Solution\n"))) == []
