"""Hadar's problem instance: a heterogeneous cluster and a batch of gang-scheduled DL jobs.

Notation of Sultana et al., Table I: H machines, R GPU types, ``c^r_h`` GPUs of type r on
machine h; job j arrives in slot ``a_j``, needs ``W_j`` GPUs at a time (gang), trains
``E_j`` epochs of ``N_j`` iterations, runs ``X^r_j`` iterations per second per type-r GPU,
and earns ``U_j(f_j - a_j)``.  Time is slotted with slot length ``L`` seconds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..data import check_header, meta_dict, meta_kwargs, read_json
from ..errors import InstanceError
from ..inputs import (
    INT64_LIMIT,
    check_choice,
    check_positive,
    check_size,
    names_tuple,
    numeric_array,
    real_scalar,
    rng_from,
)
from ..schema import Field
from .utility import UTILITY_KINDS, Utility

__all__ = ["HadarInstance", "generate_instance", "KIND", "SCHEMA_VERSION", "FIELDS"]

KIND = "hadar"
SCHEMA_VERSION = 1
#: The default horizon must stay below this many slots (exact in float64 and int64).
_MAX_HORIZON = 2.0**53
#: Default of ``gpu_types``, ``job_names`` and ``horizon``: filled in by ``__post_init__``.
_DERIVED: Any = None
_FIELDS = ("capacity", "arrival", "gpus", "epochs", "iterations_per_epoch", "throughput", "utility",
           "slot_length", "gpu_types", "job_names", "horizon")
#: Fields that hold one entry per job: the number of jobs is the length most of them agree on, and a
#: field of another length is named as the wrong one.
_PER_JOB = ("arrival", "gpus", "epochs", "iterations_per_epoch", "throughput")

_UTILITY_TEXT = (
    "U_j, the non-increasing utility of the completion time f_j - a_j (seconds): an object "
    "{\"kind\": \"effective_throughput\", \"params\": null} (U_j = E_j N_j / tau) or {\"kind\": \"sigmoid\", "
    "\"params\": [[theta1, theta2, theta3], ...]} with one row per job (U_j = theta1 / (1 + exp(theta2 (tau - "
    "theta3)))), theta1 > 0 the value, theta2 >= 0 the urgency (1/s), theta3 >= 0 the soft deadline (s).")

class _UtilityField(Field):
    """The ``utility`` field: its leaf is the object ``{"kind": ..., "params": ...}`` with both keys' schemas."""

    def leaf_schema(self) -> dict[str, Any]:
        theta = [{"type": "number", "exclusiveMinimum": 0, "description": "theta1: the value"},
                 {"type": "number", "minimum": 0, "description": "theta2: the urgency (1/s)"},
                 {"type": "number", "minimum": 0, "description": "theta3: the soft deadline (s)"}]
        rows = {"type": "array", "minItems": 1, "description": "One row [theta1, theta2, theta3] per job (n_jobs, 3).",
                "items": {"type": "array", "prefixItems": theta, "items": False, "minItems": 3}}
        return {
            "type": "object",
            "properties": {"kind": {"enum": sorted(UTILITY_KINDS), "description": "The form of U_j."},
                           "params": {"anyOf": [{"type": "null"}, rows]}},
            "required": ["kind"],
            "additionalProperties": False,
            "allOf": [
                {"if": {"properties": {"kind": {"const": "sigmoid"}}},
                 "then": {"required": ["params"], "properties": {"params": rows}}},
                {"if": {"properties": {"kind": {"const": "effective_throughput"}}},
                 "then": {"properties": {"params": {"type": "null"}}}},
            ],
        }


#: The JSON fields of a Hadar instance (:mod:`hetopt.schema`), in the paper's notation (Table I).
FIELDS: tuple[Field, ...] = (
    Field("capacity", "(n_machines, n_types)", "integer", "c^r_h: GPUs of type r on machine h.", unit="GPUs",
          minimum=0),
    Field("arrival", "(n_jobs,)", "integer", "a_j: the slot in which job j arrives; it may run from that slot on.",
          unit="slots", minimum=0),
    Field("gpus", "(n_jobs,)", "integer", "W_j: the GPUs job j uses in every slot it runs (all or nothing, the "
          "gang of (1e)).", unit="GPUs", minimum=1),
    Field("epochs", "(n_jobs,)", "integer", "E_j: the epochs job j trains.", minimum=1),
    Field("iterations_per_epoch", "(n_jobs,)", "integer", "N_j: the iterations of one epoch of job j.",
          unit="iterations", minimum=1),
    Field("throughput", "(n_jobs, n_types)", "number", "X^r_j: iterations per second of job j per GPU of type r "
          "(0 where the job cannot run on type r); a gang runs at its slowest type's rate (1b).",
          unit="iterations/s", minimum=0),
    _UtilityField("utility", "scalar", "object", _UTILITY_TEXT),
    Field("slot_length", "scalar", "number", "L: the length of a time slot.", unit="s", minimum=0,
          exclusive_minimum=True),
    Field("gpu_types", "(n_types,)", "string", "Names of the GPU types (default type0, type1, ...).",
          required=False),
    Field("job_names", "(n_jobs,)", "string", "Names of the jobs (default job0, job1, ...).", required=False),
    Field("horizon", "scalar", "integer", "T: the number of slots of P1, after the last arrival (default: the "
          "last arrival plus the slots every job needs one after another on its best gang).", unit="slots",
          minimum=1, required=False),
)


def _n_jobs(lengths: dict[str, int]) -> int:
    """The number of jobs: the length most per-job fields agree on (ties: the first field's, ``arrival``)."""
    counts: dict[int, int] = {}
    for n in lengths.values():
        counts[n] = counts.get(n, 0) + 1
    best = max(counts.values())
    return next(n for n in lengths.values() if counts[n] == best)


def _int_array(name: str, value, ndim: int, lo: int) -> np.ndarray:
    a = numeric_array(name, value)
    if a.ndim != ndim:
        raise InstanceError(f"{name} has {a.ndim} dimensions; expected {ndim}")
    bad = np.argwhere(~np.isfinite(a) | (a != np.round(a)) | (a < lo) | (np.abs(a) >= INT64_LIMIT))
    if bad.size:
        idx = ", ".join(str(i) for i in bad[0])
        raise InstanceError(f"{name}[{idx}] is {a[tuple(bad[0])]}; expected an integer >= {lo}")
    raw = value if isinstance(value, np.ndarray) else np.asarray(value)
    if raw.dtype.kind in "iu" and raw.shape == a.shape:  # integers as given (no rounding through float)
        return raw.astype(np.int64)
    return a.astype(np.int64)


@dataclass(frozen=True, eq=False)
class HadarInstance:
    """A Hadar instance; every field is checked once, here.

    Parameters
    ----------
    capacity : array_like of int, shape (H, R)
        ``c^r_h``: GPUs of type r on machine h (>= 0).
    arrival : array_like of int, shape (J,)
        ``a_j``: arrival slot (>= 0); the job may run from slot ``a_j`` on.
    gpus : array_like of int, shape (J,)
        ``W_j``: GPUs the job uses in every slot it runs (gang size, >= 1).
    epochs : array_like of int, shape (J,)
        ``E_j`` (>= 1).
    iterations_per_epoch : array_like of int, shape (J,)
        ``N_j`` (>= 1).
    throughput : array_like, shape (J, R)
        ``X^r_j``: iterations/s of job j per type-r GPU; 0 where the job cannot run on type r.
    utility : Utility, str or mapping
        Non-increasing ``U_j`` of the completion time in seconds (see :class:`Utility`).
    slot_length : float
        ``L`` in seconds (> 0).
    gpu_types, job_names : list of str, optional
    horizon : int, optional
        ``T``: number of slots.  Default: the last arrival plus the slots every job would
        need one after another, each on its best gang (the ``W_j`` fastest usable GPUs of the
        cluster), so that P1 is always feasible.

    Raises
    ------
    InstanceError
        Naming the field, the index and the expected form.
    """

    #: The ``kind`` key of this class's JSON (the registry's name of the paper).
    KIND: ClassVar[str] = KIND
    #: The ``schema_version`` of this class's JSON.
    SCHEMA_VERSION: ClassVar[int] = SCHEMA_VERSION
    #: The JSON fields, their shapes, units and ranges (:func:`hetopt.schema.json_schema`).
    FIELDS: ClassVar[tuple[Field, ...]] = FIELDS

    capacity: np.ndarray
    arrival: np.ndarray
    gpus: np.ndarray
    epochs: np.ndarray
    iterations_per_epoch: np.ndarray
    throughput: np.ndarray
    utility: Utility
    slot_length: float
    gpu_types: tuple[str, ...] = _DERIVED
    job_names: tuple[str, ...] = _DERIVED
    horizon: int = _DERIVED
    description: str = field(default="", compare=False)
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731 (frozen dataclass)
        cap = _int_array("capacity", self.capacity, 2, 0)
        H, R = cap.shape
        if H == 0 or R == 0:
            raise InstanceError(f"capacity has shape {cap.shape}; expected at least one machine and one GPU type")
        set_("capacity", cap)
        arr = _int_array("arrival", self.arrival, 1, 0)
        per_job = {"arrival": arr}
        for name in ("gpus", "epochs", "iterations_per_epoch"):
            per_job[name] = _int_array(name, getattr(self, name), 1, 1)
        X = numeric_array("throughput", self.throughput)
        if X.ndim != 2:
            raise InstanceError(f"throughput has {X.ndim} dimensions; expected 2 (jobs x GPU types)")
        per_job["throughput"] = X
        J = _n_jobs({k: int(v.shape[0]) for k, v in per_job.items()})
        if J == 0:
            raise InstanceError("arrival is empty; an instance needs at least one job")
        for name, a in per_job.items():
            if a.shape[0] != J:
                raise InstanceError(f"{name} has length {a.shape[0]}; expected {J}, one entry per job (the length "
                                    f"of {', '.join(k for k, v in per_job.items() if v.shape[0] == J)})")
            if name != "throughput":
                set_(name, a)
        work = per_job["epochs"].astype(object) * per_job["iterations_per_epoch"].astype(object)
        over = [j for j, v in enumerate(work) if v >= INT64_LIMIT]
        if over:
            j = over[0]
            raise InstanceError(f"epochs[{j}] * iterations_per_epoch[{j}] is {work[j]}; the iterations E_j N_j of a "
                                "job must fit int64 (< 2**63)")
        if X.shape != (J, R):
            raise InstanceError(f"throughput has shape {X.shape}; expected ({J}, {R}) (jobs x GPU types of capacity)")
        bad = np.argwhere(~np.isfinite(X) | (X < 0))
        if bad.size:
            j, r = bad[0]
            raise InstanceError(f"throughput[{j}, {r}] is {X[j, r]}; throughputs must be >= 0 (0: cannot run there)")
        set_("throughput", X)
        per_type = cap.sum(axis=0)
        usable = (X > 0) @ per_type
        for j in range(J):
            if usable[j] == 0:
                raise InstanceError(f"throughput[{j}, :] is zero on every GPU type the cluster has; "
                                    f"job {j} can never run (expected > 0 on some type with capacity)")
            if self.gpus[j] > usable[j]:
                raise InstanceError(f"gpus[{j}] is {self.gpus[j]}; job {j} can use only {usable[j]} GPUs of the "
                                    "cluster (types with throughput > 0)")
        util = Utility.coerce(self.utility)
        util.check_jobs(J)
        set_("utility", util)
        L = real_scalar("slot_length", self.slot_length)
        if not np.isfinite(L) or L <= 0:
            raise InstanceError(f"slot_length is {L!r}; expected a positive number of seconds")
        set_("slot_length", float(L))
        set_("gpu_types", names_tuple("gpu_types", self.gpu_types, R, "type"))
        set_("job_names", names_tuple("job_names", self.job_names, J, "job"))
        if self.horizon is None:
            with np.errstate(divide="ignore", over="ignore"):
                need = self.total_iterations / (self.best_gang_rate() * self.slot_length)
            total = float(arr.max()) + float(np.sum(np.ceil(need)))
            if not total < _MAX_HORIZON:
                raise InstanceError(f"the default horizon (last arrival + the slots every job needs one after another, "
                                    f"{total:.3g}) is not below 2**53 slots: throughput * slot_length is too small "
                                    "for the iterations; give horizon or rescale slot_length")
            set_("horizon", int(arr.max() + self.serial_slots().sum()))
        else:
            if isinstance(self.horizon, (bool, np.bool_)) or not isinstance(self.horizon, (int, np.integer)) \
                    or self.horizon < 1 or self.horizon >= INT64_LIMIT:
                raise InstanceError(f"horizon is {self.horizon!r}; expected a positive integer number of slots")
            if self.horizon <= arr.max():
                raise InstanceError(f"horizon is {self.horizon}; every arrival must be before it (last arrival "
                                    f"{arr.max()})")
            set_("horizon", int(self.horizon))

    # ------------------------------------------------------------------ derived data
    @property
    def n_jobs(self) -> int:
        """``J``: the number of jobs."""
        return int(self.arrival.size)

    @property
    def n_machines(self) -> int:
        """``H``: the number of machines."""
        return int(self.capacity.shape[0])

    @property
    def n_types(self) -> int:
        """``R``: the number of GPU types."""
        return int(self.capacity.shape[1])

    @property
    def total_iterations(self) -> np.ndarray:
        """``E_j N_j``."""
        return self.epochs * self.iterations_per_epoch

    def runnable(self) -> np.ndarray:
        """Boolean (J, R): job j can run on type r (throughput > 0)."""
        return self.throughput > 0

    def min_slots(self, slowest: bool = False) -> np.ndarray:
        """Slots job j needs with all ``W_j`` GPUs of its fastest (or slowest usable) type.

        ``ceil(E_j N_j / (W_j X L))``: ``t^min_j`` (or ``t^max_j``) of eq. (7) in slots.
        """
        X = np.where(self.throughput > 0, self.throughput, np.inf if slowest else 0.0)
        rate = (X.min(axis=1) if slowest else X.max(axis=1)) * self.gpus
        with np.errstate(divide="ignore", over="ignore"):
            slots = np.ceil(self.total_iterations / (rate * self.slot_length) - 1e-12)
        return np.minimum(slots, 2.0**62).astype(np.int64)  # beyond any horizon: capped, never wrapped

    def best_gang_rate(self) -> np.ndarray:
        """Iterations/s of job j on the ``W_j`` fastest GPUs it can use in the empty cluster."""
        per_type = self.capacity.sum(axis=0)
        out = np.empty(self.n_jobs)
        for j in range(self.n_jobs):
            order = np.argsort(-self.throughput[j], kind="stable")
            have = np.cumsum(np.where(self.throughput[j, order] > 0, per_type[order], 0))
            k = int(np.searchsorted(have, self.gpus[j]))
            out[j] = self.gpus[j] * self.throughput[j, order[k]]
        return out

    def serial_slots(self) -> np.ndarray:
        """Slots job j needs on its best gang in the empty cluster."""
        with np.errstate(divide="ignore", over="ignore"):
            slots = np.ceil(self.total_iterations / (self.best_gang_rate() * self.slot_length) - 1e-12)
        return np.minimum(slots, 2.0**62).astype(np.int64)  # beyond any horizon: capped, never wrapped

    def utility_of(self, duration) -> np.ndarray:
        """``U_j(duration_j)`` for durations in seconds (shape (J,) or (J, K))."""
        return self.utility(duration, self.total_iterations)

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict:
        """The JSON form (``kind``, ``schema_version`` and every field)."""
        return {
            "kind": KIND,
            "schema_version": SCHEMA_VERSION,
            "capacity": self.capacity.tolist(),
            "arrival": self.arrival.tolist(),
            "gpus": self.gpus.tolist(),
            "epochs": self.epochs.tolist(),
            "iterations_per_epoch": self.iterations_per_epoch.tolist(),
            "throughput": self.throughput.tolist(),
            "utility": self.utility.to_dict(),
            "slot_length": self.slot_length,
            "gpu_types": list(self.gpu_types),
            "job_names": list(self.job_names),
            "horizon": self.horizon,
            **meta_dict(self),
        }

    def to_json(self, path: str | Path | None = None, **kwargs) -> str:
        """The JSON text (``description`` and ``source`` kept); also written to ``path`` when given."""
        text = json.dumps(self.to_dict(), **({"indent": 1} | kwargs))
        if path is not None:
            Path(path).write_text(text + "\n", encoding="utf-8")
        return text

    @classmethod
    def from_dict(cls, data: dict) -> HadarInstance:
        """Build from the JSON form; ``description`` and ``source`` are documentation only.

        The optional ``gpu_types``, ``job_names`` and ``horizon`` take their defaults when absent; a
        ``null`` is refused (omit the key instead), as is any key not in :data:`FIELDS`.
        """
        check_header(data, KIND, SCHEMA_VERSION, _FIELDS, _FIELDS[:8])
        for k in _FIELDS[8:]:
            if k in data and data[k] is None:
                raise InstanceError(f"{k} is null; omit the key for its default, or give "
                                    f"{'an integer' if k == 'horizon' else 'a list of strings'}")
        kwargs: dict[str, Any] = {k: data[k] for k in _FIELDS if k in data}
        kwargs.update(meta_kwargs(data))
        return cls(**kwargs)

    @classmethod
    def from_json(cls, data: str | Path | dict) -> HadarInstance:
        """Parse JSON text, read a file path, or take the already-parsed dict."""
        return cls.from_dict(read_json(data))


def generate_instance(*, n_jobs: int = 4, n_machines: int = 2, seed: int | np.random.Generator | None = None,
                      n_types: int = 2,
                      max_gpus_per_type: int = 2, slot_length: float = 60.0, utility: str = "effective_throughput",
                      max_arrival: int = 2, max_slots: int = 3) -> HadarInstance:
    """A small random instance for exact cross-checks.

    Machines get 0..``max_gpus_per_type`` GPUs of each type (at least one GPU each); jobs
    get a gang of 1-2 GPUs, throughputs in [1, 10] iterations/s (a type is unusable with
    probability 0.15), arrivals in ``0..max_arrival`` and work for 1..``max_slots`` slots on
    their fastest type.  ``utility`` is "effective_throughput" or "sigmoid" (soft deadline
    at twice the fastest completion).  Every parameter is keyword-only; the default size, 4 jobs
    on 2 machines, is the one of :func:`~hetopt.hadar.validate.ratio_sweep`.

    Raises
    ------
    ArgumentError
        A count that is not a positive integer (``max_gpus_per_type`` and ``max_arrival`` may
        be 0), a slot length that is not positive, an unknown ``utility`` or a bad ``seed``.
    """
    check_size(n_jobs, "n_jobs")
    check_size(n_machines, "n_machines")
    check_size(n_types, "n_types")
    check_size(max_gpus_per_type, "max_gpus_per_type", minimum=0)
    check_size(max_arrival, "max_arrival", minimum=0)
    check_size(max_slots, "max_slots")
    slot_length = check_positive(slot_length, "slot_length")
    check_choice(utility, "utility", tuple(UTILITY_KINDS))
    rng = rng_from(seed)
    cap = rng.integers(0, max_gpus_per_type + 1, size=(n_machines, n_types))
    for h in range(n_machines):
        if cap[h].sum() == 0:
            cap[h, rng.integers(n_types)] = 1
    X = np.round(rng.uniform(1.0, 10.0, size=(n_jobs, n_types)), 2)
    X[rng.random((n_jobs, n_types)) < 0.15] = 0.0
    per_type = cap.sum(axis=0)
    for j in range(n_jobs):
        if ((X[j] > 0) * per_type).sum() == 0:
            r = int(np.argmax(per_type))
            X[j, r] = round(float(rng.uniform(1.0, 10.0)), 2)
    usable = (X > 0) @ per_type
    W = np.minimum(rng.integers(1, 3, size=n_jobs), usable)
    slots = rng.integers(1, max_slots + 1, size=n_jobs)
    N = rng.integers(5, 20, size=n_jobs)
    fast = X.max(axis=1) * W * slot_length
    E = np.maximum(1, np.floor(slots * fast / N)).astype(int)
    arrival = rng.integers(0, max_arrival + 1, size=n_jobs)
    if utility == "sigmoid":
        t_min = np.ceil(E * N / fast) * slot_length
        params = np.column_stack([rng.uniform(1.0, 10.0, n_jobs), 4.0 / t_min, 2.0 * t_min])
        util = Utility("sigmoid", params)
    else:
        util = Utility(utility)
    return HadarInstance(capacity=cap, arrival=arrival, gpus=W, epochs=E, iterations_per_epoch=N, throughput=X,
                         utility=util, slot_length=slot_length)
