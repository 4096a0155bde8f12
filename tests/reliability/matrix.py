"""The argument-error matrices' runner: every bad value of one public function in one test.

A matrix of ``test_<paper>_arguments.py`` lists, for each public function, each option and each bad
value of its kind.  One test per function runs all of them and fails once, listing every case that
was not refused with an ``ArgumentError`` whose message matches (names the argument): a silent
acceptance, another exception, or a message that does not name it.  Collecting one test per function
instead of one per value keeps the matrices complete at a fraction of the collection time, and the
test ids are the functions' names (deterministic, no reprs of objects).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from hetopt.errors import ArgumentError

__all__ = ["Bad", "by_function", "function_of", "refused"]


@dataclass(frozen=True)
class Bad:
    """One bad value: ``call()`` must raise an ArgumentError whose message matches ``pattern`` (re.search)."""

    function: str                  # the public function (the test's id)
    label: str                     # the case as a reader finds it in the matrix: "solve_exact[milp] time_limit"
    value: object
    call: Callable[[], object]
    pattern: str

    def failure(self) -> str | None:
        """None when the value is refused as it should be, else what happened instead."""
        try:
            out = self.call()
        except ArgumentError as exc:
            if re.search(self.pattern, str(exc)):
                return None
            return f"ArgumentError not matching {self.pattern!r}: {exc}"
        except Exception as exc:  # noqa: BLE001 - every other exception is a failure of the case, reported
            return f"{type(exc).__name__} instead of ArgumentError: {exc}"
        return f"accepted (returned {type(out).__name__})"


def by_function(cases: Iterable[Bad]) -> dict[str, list[Bad]]:
    """The cases grouped by function, in the matrix's order."""
    out: dict[str, list[Bad]] = {}
    for case in cases:
        out.setdefault(case.function, []).append(case)
    return out


def refused(cases: list[Bad]) -> None:
    """Run every case; one AssertionError listing each case that was not refused as it should be."""
    assert cases, "no case"
    failures = [(case, msg) for case in cases if (msg := case.failure()) is not None]
    if failures:
        lines = "\n".join(f"  {case.label}={case.value!r}: {msg}"[:400] for case, msg in failures)
        raise AssertionError(f"{len(failures)} of {len(cases)} bad values of {cases[0].function} not refused with "
                             f"an ArgumentError naming the argument:\n{lines}")


def function_of(label: str) -> str:
    """The function a matrix label names: ``solve_exact[milp]``, ``lp_bound(pyomo)``, ``solve_exact scip``,
    ``generate_instance.n_jobs`` -> the name before the variant or the argument."""
    return re.split(r"[\[(. ]", label, maxsplit=1)[0]
