"""Exceptions raised by hetopt.

Every failure is an exception with a message that names what went wrong, in the
spirit of networkx's ``exception.py``: an instance field that is malformed, a
model that is infeasible, a solver that failed.
"""

from __future__ import annotations

__all__ = [
    "HetoptError",
    "ArgumentError",
    "InstanceError",
    "InfeasibleError",
    "UnboundedError",
    "SolverError",
    "SizeLimitError",
    "ScheduleViolation",
    "a_type",
]


class HetoptError(Exception):
    """Base class of every exception raised by hetopt."""


class ArgumentError(HetoptError, ValueError):
    """An argument of a function or an option of a method is invalid.

    The message names the argument and the expected form, e.g. ``"time_limit is -3.0;
    expected a positive number of seconds or None"``.  Also a :class:`ValueError`, so that
    ``except ValueError`` keeps working.
    """


class InstanceError(HetoptError, ValueError):
    """An instance (or an argument describing one) is malformed.

    The message names the field, the index where relevant, and the expected form,
    e.g. ``"throughput[2, 5] is -3.0; throughputs must be > 0"``.
    """


class InfeasibleError(HetoptError):
    """A model was proven infeasible."""


class UnboundedError(HetoptError):
    """A model was proven unbounded."""


class SolverError(HetoptError, RuntimeError):
    """A solver failed, is unavailable, or returned no usable result."""


class SizeLimitError(HetoptError, ValueError):
    """A method refuses an instance beyond the size it can handle (e.g. exhaustive search)."""


class ScheduleViolation(HetoptError):
    """A schedule breaks a constraint of its model; the message names the constraint and the indices.

    Raised by :meth:`hetopt.result.CheckReport.raise_if_invalid`.
    """


def a_type(obj: object) -> str:
    """The type of ``obj`` with its indefinite article, for messages: ``"an int"``, ``"a str"``, ``"a NoneType"``."""
    name = type(obj).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"
