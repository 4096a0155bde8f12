"""Result types shared by every paper: solutions, certificates, check reports.

One result type and one status vocabulary (:class:`~hetopt.certify.Status`), as in Pyomo's
``contrib/solver/common/results.py`` and scipy's ``milp``: a ``Solution`` carries the
status, the objective of the incumbent, a bound (the solver's dual bound, an exact
optimum, or nothing for heuristics), the relative gap between them, the wall time and
the solver or method that produced it.  Paper subpackages subclass ``Solution`` to add
their own metrics (JCT, utility, makespan, ...); every paper's ``simulate`` returns a
:class:`SimulationResult`, the ``Solution`` with the per-job completion times every simulation has.
"""

from __future__ import annotations

import enum
import json
import math
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Self

import numpy as np

from .certify import Status, certify

__all__ = ["Solution", "SimulationResult", "job_times", "Certificate", "CheckReport"]


@dataclass(frozen=True, kw_only=True)
class Solution:
    """Outcome of a model solve or of an algorithm.

    Attributes
    ----------
    status : Status
    objective : float or None
        Objective value of the returned decision (recomputed from the decision for
        algorithms, the incumbent for solvers).
    bound : float or None
        A proven bound on the optimum in the objective's direction (a lower bound for a
        minimization), or ``None`` when the route proves none (a heuristic carries one only
        when it proves one on the way, e.g. Hare's Algorithm 1 from its relaxation).
    gap : float or None
        ``relative_gap(objective, bound)``.
    wall_time : float
        Seconds.
    solver : str
        The solver or method that produced the result ("highs", "scip", "has", ...).
    sense : str
        "min" or "max".
    message : str
        Free text from the solver or method (termination reason, route taken).
    info : dict
        Extra data of the route that produced it (the same name in every solution type).
    """

    status: Status
    objective: float | None = None
    bound: float | None = None
    gap: float | None = None
    wall_time: float = 0.0
    solver: str = ""
    sense: str = "min"
    message: str = ""
    info: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        from .inputs import check_result_fields

        check_result_fields(self.status, self.bound, self.wall_time, self.solver, self.message, self.info)
        if self.sense not in ("min", "max"):
            raise ValueError(f"sense is {self.sense!r}; expected 'min' or 'max'")
        if self.status is Status.OPTIMAL:
            self._check_optimal()

    def _check_optimal(self) -> None:
        """OPTIMAL means a proven bound that meets the objective, on the right side of it.

        A route that cannot prove this must report TIME_LIMIT or FEASIBLE; a violation here is a
        defect of the route (e.g. an integer scaling that was not exact), raised as
        :class:`~hetopt.errors.SolverError` rather than returned as a wrong optimum.
        """
        from .errors import SolverError

        who = self.solver or "a route"
        if self.objective is None:
            raise ValueError("an OPTIMAL solution needs an objective")
        if self.bound is None:
            raise SolverError(f"{who} reported OPTIMAL without a proven bound")
        try:
            proven = certify(self.objective, self.bound, stopped=False, sense=self.sense) is Status.OPTIMAL
        except SolverError as exc:  # a bound on the wrong side of the objective
            raise SolverError(f"{who} reported OPTIMAL with an invalid bound: {exc}") from exc
        if not proven:
            raise SolverError(f"{who} reported OPTIMAL with objective {self.objective!r} and bound {self.bound!r} "
                              f"({self.sense}): not a proof of optimality")

    @property
    def is_optimal(self) -> bool:
        """True when the status is OPTIMAL."""
        return self.status is Status.OPTIMAL

    @property
    def proven(self) -> bool:
        """True when ``bound`` is a certified bound (solver dual bound or exact optimum)."""
        return self.bound is not None

    def to_dict(self) -> dict[str, Any]:
        """The fields as JSON-ready values: the status as its string, arrays as lists, inf as a string.

        ``type(sol).from_dict(sol.to_dict())`` rebuilds the solution (fields that hold an
        instance are written as the instance's own ``to_dict()``).
        """
        return {f.name: _jsonable(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The solution whose :meth:`to_dict` is ``data`` (unknown keys are an error)."""
        return _from_dict(cls, data)

    def to_json(self, **kwargs: Any) -> str:
        """``json.dumps(self.to_dict())``; keyword arguments go to ``json.dumps``."""
        return json.dumps(self.to_dict(), **kwargs)

    def summary(self) -> dict[str, Any]:
        """The short JSON-ready view ``hetopt solve`` prints: the common fields and the paper's metrics.

        Subclasses extend it with their metrics; arrays longer than a screen stay in :meth:`to_dict`.
        """
        return {"status": self.status.value, "objective": _jsonable(self.objective), "bound": _jsonable(self.bound),
                "gap": _jsonable(self.gap), "wall_time": self.wall_time, "solver": self.solver,
                "message": self.message}


def _no_jobs() -> np.ndarray:
    return np.zeros(0)


@dataclass(frozen=True, kw_only=True)
class SimulationResult(Solution):
    """What every paper's ``simulate(inst, policy, *, options=None, ...)`` returns: a policy run to its end.

    Each paper subclasses it with its own metrics and keeps the name of its paper
    (``PlacementSimulation``, ``HareSimulation``, ``OasisSimulation``, ``ContentionSimulation``,
    ``HadarSimulation``, ``GavelSimulation``); the fields here are the ones every simulation has.
    Times are in the instance's unit: seconds, except OASiS (time slots) and Hare (the unit of
    its task times).  No bound: a simulation is FEASIBLE (a heuristic or a baseline).

    Attributes
    ----------
    policy : str
        The policy simulated: a key of the kind's ``POLICIES``, or a policy object's name.
    completion : numpy.ndarray, shape (J,)
        Every job's completion instant, from time 0; NaN for a job the run did not complete
        (a job OASiS did not admit).
    jct : numpy.ndarray, shape (J,)
        Job completion time, ``completion - arrival`` (NaN where ``completion`` is).
    average_jct : float
        The mean of ``jct`` over the jobs that completed (NaN when none did).
    makespan : float
        The last completion instant, from time 0 (NaN when no job completed).  Wang et al.
        measure it from the first arrival (``ContentionSimulation``), as their utilisation does.
    """

    policy: str = ""
    completion: np.ndarray = field(default_factory=_no_jobs)
    jct: np.ndarray = field(default_factory=_no_jobs)
    average_jct: float = math.nan
    makespan: float = math.nan


def job_times(completion: Any, arrival: Any) -> dict[str, Any]:
    """The fields of :class:`SimulationResult` from completion instants and arrivals (NaN: not completed).

    Returns
    -------
    dict
        ``completion``, ``jct`` (float arrays), ``average_jct`` and ``makespan`` (NaN when no job
        completed), ready to pass to a simulation's constructor.
    """
    done = np.asarray(completion, dtype=float)
    jct = done - np.asarray(arrival, dtype=float)
    ok = np.isfinite(done)
    return {"completion": done, "jct": jct, "average_jct": float(jct[ok].mean()) if ok.any() else math.nan,
            "makespan": float(done[ok].max()) if ok.any() else math.nan}


@dataclass(frozen=True, kw_only=True)
class Certificate:
    """Result of checking a claim on one instance.

    Used for optimality gaps (``value`` against a certified ``reference``) and for
    approximation / competitive ratios (``ratio`` against a claimed ``limit``).

    Attributes
    ----------
    name : str
        What was checked ("gap", "alpha(2+alpha)", ...).
    value : float
        The algorithm's value on the instance.
    reference : float
        The optimum or certified bound it is compared with.
    ratio : float
        ``value / reference`` for minimization, ``reference / value`` for maximization
        (so that ratios are >= 1 when the reference is a valid bound).
    limit : float or None
        The claimed bound on ``ratio`` (None for a plain gap report).
    proven : bool
        True only when ``reference`` is an exact optimum or a solver-certified bound.
    holds : bool or None
        ``ratio <= limit`` (with tolerance) when ``limit`` is given and ``proven``.
    info : dict
    """

    name: str
    value: float
    reference: float
    ratio: float
    limit: float | None = None
    proven: bool = False
    holds: bool | None = None
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def gap(self) -> float:
        """``ratio - 1``: the relative gap to the reference (0 when the value matches it)."""
        return self.ratio - 1.0

    def to_dict(self) -> dict[str, Any]:
        """The fields as JSON-ready values."""
        return {f.name: _jsonable(getattr(self, f.name)) for f in fields(self)}


@dataclass(frozen=True)
class CheckReport:
    """Outcome of every subpackage's ``check_schedule(inst, sol)``.

    Attributes
    ----------
    ok : bool
        True when no violation was found.
    violations : tuple of str
        One message per violation, naming the paper's constraint (equation number) and the
        indices (job, task, GPU, slot) involved.
    objective : float or None
        The objective recomputed from the decision alone by the independent checker (None
        when the decision is too malformed to evaluate).
    info : dict
        Paper-specific recomputed quantities (e.g. hadar's ``finish_slot``).

    Notes
    -----
    The truth value of a report is deliberately undefined (``bool(report)`` raises
    ``TypeError``): write ``report.ok`` or ``report.raise_if_invalid()``, so that neither
    "empty list of violations" nor "feasible" is guessed.
    """

    ok: bool
    violations: tuple[str, ...] = ()
    objective: float | None = None
    info: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "violations", tuple(str(v) for v in self.violations))
        if self.ok and self.violations:
            raise ValueError("a CheckReport with violations cannot be ok")

    @classmethod
    def from_violations(cls, violations, objective: float | None = None, **info: Any) -> CheckReport:
        """``ok`` is True exactly when ``violations`` is empty."""
        v = tuple(violations)
        return cls(ok=not v, violations=v, objective=objective, info=info)

    def __bool__(self) -> bool:
        raise TypeError("the truth value of a CheckReport is ambiguous; use report.ok or report.raise_if_invalid()")

    def raise_if_invalid(self) -> CheckReport:
        """Raise :class:`hetopt.errors.ScheduleViolation` listing the violations; return ``self`` when ok."""
        if not self.ok:
            from .errors import ScheduleViolation

            shown = "; ".join(self.violations[:5])
            more = f" (and {len(self.violations) - 5} more)" if len(self.violations) > 5 else ""
            raise ScheduleViolation(f"{len(self.violations)} violation(s): {shown}{more}")
        return self

    def to_dict(self) -> dict[str, Any]:
        """The fields as JSON-ready values."""
        return {f.name: _jsonable(getattr(self, f.name)) for f in fields(self)}


def _jsonable(v: Any) -> Any:
    """Convert enums, numpy values and containers to plain JSON values (non-finite floats as strings)."""
    if isinstance(v, enum.Enum):
        return v.value
    if hasattr(v, "tolist"):
        v = v.tolist()
    if isinstance(v, float):
        return v if math.isfinite(v) else str(v)
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, (str, int, bool)) or v is None:
        return v
    if is_dataclass(v):
        return {f.name: _jsonable(getattr(v, f.name)) for f in fields(v)}
    return str(v)


def _from_jsonable(value: Any, tp: Any) -> Any:
    """Invert :func:`_jsonable` for a value whose declared type is ``tp``."""
    if value is None:
        return None
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return _from_jsonable(value, args[0])
        for a in args:  # the first that fits
            try:
                return _from_jsonable(value, a)
            except (TypeError, ValueError, KeyError):
                continue
        return value
    if tp is Any:
        return value
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(value)
    if tp is float:
        return float(value)
    if tp is np.ndarray or origin is np.ndarray:
        return np.asarray(value, dtype=float if _all_numbers(value) and _has_float(value) else None)
    if isinstance(tp, type) and is_dataclass(tp):
        if hasattr(tp, "from_dict"):
            return tp.from_dict(value)
        return _from_dict(tp, value)
    if isinstance(tp, type) and hasattr(tp, "from_dict") and isinstance(value, Mapping):
        return tp.from_dict(value)
    if origin in (tuple,):
        item_types = typing.get_args(tp)
        if len(item_types) == 2 and item_types[1] is Ellipsis:
            return tuple(_from_jsonable(v, item_types[0]) for v in value)
        if item_types:
            return tuple(_from_jsonable(v, a) for v, a in zip(value, item_types, strict=False))
        return tuple(value)
    if origin in (list,):
        (a,) = typing.get_args(tp) or (Any,)
        return [_from_jsonable(v, a) for v in value]
    if origin in (dict, Mapping) or tp is dict:
        key_value_types = typing.get_args(tp)
        kt, vt = key_value_types if key_value_types else (Any, Any)
        out = {}
        for k, v in value.items():
            key = int(k) if kt is int else k
            out[key] = _from_jsonable(v, vt)
        return out
    return value


def _all_numbers(value: Any) -> bool:
    return not isinstance(value, (str, dict))


def _has_float(value: Any) -> bool:
    a = np.asarray(value, dtype=object).ravel()
    return any(isinstance(x, (float, str)) for x in a)


def _from_dict(cls: Any, data: Mapping[str, Any]) -> Any:
    if not isinstance(data, Mapping):
        raise TypeError(f"{cls.__name__}.from_dict takes a mapping; got {type(data).__name__}")
    hints = typing.get_type_hints(cls)
    names = {f.name for f in fields(cls) if f.init}
    unknown = sorted(set(data) - names)
    if unknown:
        from .errors import ArgumentError

        raise ArgumentError(f"{cls.__name__}.from_dict: unknown keys {unknown}; expected some of {sorted(names)}")
    kwargs = {k: _from_jsonable(v, hints.get(k, Any)) for k, v in data.items()}
    return cls(**kwargs)
