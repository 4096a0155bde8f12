"""Gavel's policy functions refuse ``"1"``, ``True`` and ragged input with an ArgumentError naming the argument.

``numpy.asarray(x, dtype=float)`` reads ``"1"`` and ``True`` as 1.0 (also inside a list: ``[True, 2.0]``)
and answers ragged rows with a bare ValueError; every policy of :data:`POLICIES` goes through
:func:`hetopt.gavel.inputs.as_numbers` first (issue 31, item 7).
"""

from __future__ import annotations

import numpy as np
import pytest

from hetopt.errors import ArgumentError
from hetopt.gavel import POLICIES, max_min_fairness, min_total_duration
from hetopt.gavel.inputs import as_numbers

T, S, C = [[1.0, 2.0], [3.0, 1.0]], [1, 1], [2, 2]
BAD = {
    "throughput": ["1", True, [[1.0, 2.0], [3.0]], [[True, 1.0], [1.0, 2.0]], [["1", "2"], ["3", "1"]]],
    "scale_factor": ["1", True, [1, [1]], [True, 1], ["1", "1"], np.array([True, True])],
    "capacity": ["1", True, [[1], [1, 2]], ["2", 2], [True, 2.0], [None, 2]],
}


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_every_policy_refuses_str_bool_and_ragged_by_name(name):
    f = POLICIES[name].make(seed=0)
    failures = []
    for arg, values in BAD.items():
        for value in values:
            kw = dict(throughput=T, scale_factor=S, capacity=C) | {arg: value}
            try:
                f(kw["throughput"], kw["scale_factor"], kw["capacity"])
                failures.append(f"{arg}={value!r}: accepted")
            except ArgumentError as exc:
                if arg not in str(exc):
                    failures.append(f"{arg}={value!r}: {exc}")
            except Exception as exc:  # noqa: BLE001 - any other exception is the failure reported
                failures.append(f"{arg}={value!r}: {type(exc).__name__}: {exc}")
    assert not failures, failures


def test_weights_and_steps_are_checked_the_same_way():
    for bad in ("1", [True, 1.0], ["1", "1"], [[1.0], [1.0, 2.0]]):
        with pytest.raises(ArgumentError, match="priority_weight"):
            max_min_fairness(T, S, C, bad)
        with pytest.raises(ArgumentError, match="remaining_steps"):
            min_total_duration(T, S, C, remaining_steps=bad)


def test_numbers_pass_unchanged():
    assert as_numbers("x", [1, 2.5, np.float32(3)]).tolist() == [1.0, 2.5, 3.0]
    a = np.arange(4.0).reshape(2, 2)
    assert as_numbers("x", a) is a
    np.testing.assert_array_equal(max_min_fairness(np.array(T), np.array(S), np.array(C)),
                                  max_min_fairness(T, S, C))
