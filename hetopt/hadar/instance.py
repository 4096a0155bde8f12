"""Hadar's problem instance: a heterogeneous cluster and a batch of gang-scheduled DL jobs.

Notation of Sultana et al., Table I: H machines, R GPU types, ``c^r_h`` GPUs of type r on
machine h; job j arrives in slot ``a_j``, needs ``W_j`` GPUs at a time (gang), trains
``E_j`` epochs of ``N_j`` iterations, runs ``X^r_j`` iterations per second per type-r GPU,
and earns ``U_j(f_j - a_j)``.  Time is slotted with slot length ``L`` seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from ..errors import InstanceError
from ..inputs import INT64_LIMIT, MAX_GENERATED, check_choice, check_positive, check_size, rng_from
from ..schema import Field, FieldsMixin
from .utility import UTILITY_KINDS, Utility

__all__ = ["HadarInstance", "generate_instance", "KIND", "SCHEMA_VERSION", "FIELDS"]

KIND = "hadar"
SCHEMA_VERSION = 1
#: The default horizon must stay below this many slots (exact in float64 and int64).
_MAX_HORIZON = 2.0**53
#: Default of ``gpu_types``, ``job_names`` and ``horizon``: filled in by ``__post_init__``.
_DERIVED: Any = None

_UTILITY_TEXT = (
    "$U_j$, the non-increasing utility of the completion time $f_j - a_j$ (seconds): an object "
    "`{\"kind\": \"effective_throughput\", \"params\": null}` ($U_j = E_j N_j / \\tau$) or `{\"kind\": "
    "\"sigmoid\", \"params\": [[theta1, theta2, theta3], ...]}` with one row per job "
    "($U_j = \\theta_1 / (1 + e^{\\theta_2 (\\tau - \\theta_3)})$), $\\theta_1 > 0$ the value, $\\theta_2 \\ge 0$ "
    "the urgency (1/s), $\\theta_3 \\ge 0$ the soft deadline (s).")


class _UtilityField(Field):
    """The ``utility`` field: its leaf is the object ``{"kind": ..., "params": ...}`` with both keys' schemas."""

    def check(self, value: Any) -> Utility:
        """A :class:`Utility` from a Utility, a kind name or its JSON object (InstanceError naming ``utility``)."""
        return Utility.coerce(value)

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
    Field("capacity", "(n_machines, n_types)", "integer", "$c^r_h$: GPUs of type $r$ on machine $h$.", unit="GPUs",
          minimum=0),
    Field("arrival", "(n_jobs,)", "integer", "$a_j$: the slot in which job $j$ arrives; it may run from that slot "
          "on.", unit="slots", minimum=0),
    Field("gpus", "(n_jobs,)", "integer", "$W_j$: the GPUs job $j$ uses in every slot it runs (all or nothing, the "
          "gang of (1e)).", unit="GPUs", minimum=1),
    Field("epochs", "(n_jobs,)", "integer", "$E_j$: the epochs job $j$ trains.", minimum=1),
    Field("iterations_per_epoch", "(n_jobs,)", "integer", "$N_j$: the iterations of one epoch of job $j$.",
          unit="iterations", minimum=1),
    Field("throughput", "(n_jobs, n_types)", "number", "$X^r_j$: iterations per second of job $j$ per GPU of type "
          "$r$ (0 where the job cannot run on type $r$); a gang runs at its slowest type's rate (1b).",
          unit="iterations/s", minimum=0),
    _UtilityField("utility", "scalar", "object", _UTILITY_TEXT),
    Field("slot_length", "scalar", "number", "$L$: the length of a time slot.", unit="s", minimum=0,
          exclusive_minimum=True),
    Field("gpu_types", "(n_types,)", "string", "Names of the GPU types.", default="type0, type1, ..."),
    Field("job_names", "(n_jobs,)", "string", "Names of the jobs.", default="job0, job1, ..."),
    Field("horizon", "scalar", "integer", "$T$: the number of slots of P1; every arrival is before it.",
          unit="slots", minimum=1, default="the last arrival plus the slots every job needs one after another on "
          "its best gang"),
)


@dataclass(frozen=True, eq=False)
class HadarInstance(FieldsMixin):
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
    #:
    #: :meta hide-value:
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
        dims = self._check_fields()  # types, shapes, ranges and the shared dimensions (FIELDS)
        J, R = dims["n_jobs"], dims["n_types"]
        big = np.flatnonzero(self.epochs * self.iterations_per_epoch.astype(float) >= 2.0**62)  # exact check below
        over = [int(j) for j in big if int(self.epochs[j]) * int(self.iterations_per_epoch[j]) >= INT64_LIMIT]
        if over:
            j = over[0]
            raise InstanceError(f"epochs[{j}] * iterations_per_epoch[{j}] is {int(self.epochs[j]) * int(self.iterations_per_epoch[j])}; "
                                "the iterations E_j N_j of a job must fit int64 (< 2**63)")
        usable = (self.throughput > 0) @ self.capacity.sum(axis=0)
        stuck = np.flatnonzero((usable == 0) | (self.gpus > usable))
        if stuck.size:
            j = int(stuck[0])
            if usable[j] == 0:
                raise InstanceError(f"throughput[{j}, :] is zero on every GPU type the cluster has; "
                                    f"job {j} can never run (expected > 0 on some type with capacity)")
            raise InstanceError(f"gpus[{j}] is {self.gpus[j]}; job {j} can use only {usable[j]} GPUs of the "
                                "cluster (types with throughput > 0)")
        self.utility.check_jobs(J)
        if self.gpu_types is None:
            set_("gpu_types", tuple(f"type{r}" for r in range(R)))
        if self.job_names is None:
            set_("job_names", tuple(f"job{j}" for j in range(J)))
        if self.horizon is None:
            with np.errstate(divide="ignore", over="ignore"):
                need = self.total_iterations / (self.best_gang_rate() * self.slot_length)
            total = float(self.arrival.max()) + float(np.sum(np.ceil(need)))
            if not total < _MAX_HORIZON:
                raise InstanceError(f"the default horizon (last arrival + the slots every job needs one after another, "
                                    f"{total:.3g}) is not below 2**53 slots: throughput * slot_length is too small "
                                    "for the iterations; give horizon or rescale slot_length")
            set_("horizon", int(self.arrival.max() + self.serial_slots().sum()))
        elif self.horizon <= self.arrival.max():
            raise InstanceError(f"horizon is {self.horizon}; every arrival must be before it (last arrival "
                                f"{self.arrival.max()})")

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
    check_size(n_jobs, "n_jobs", maximum=MAX_GENERATED)
    check_size(n_machines, "n_machines", maximum=MAX_GENERATED)
    check_size(n_types, "n_types", maximum=MAX_GENERATED)
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
