"""Generic certificate checks, ratio checks and seeded sweeps.

Validators certify, they do not re-solve: a paper's own checker recomputes the objective
of a returned decision; the helpers here turn (value, reference) pairs into
:class:`~hetopt.result.Certificate` objects with ``proven`` set only when the reference
is an exact optimum or a solver-certified bound, and run a function over many seeded
instances (:func:`sweep`) with a local process pool or a ``dask.distributed`` client.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .result import Certificate, Solution

__all__ = ["FEAS_TOL", "RATIO_TOL", "SweepResults", "gap_certificate", "instance_digest", "ratio_certificate", "sweep", "summarize"]

#: Absolute tolerance used by feasibility checkers.
FEAS_TOL = 1e-6
#: Relative slack granted to a ratio before a claimed bound is called violated.
RATIO_TOL = 1e-9


def _ratio(value: float, reference: float, sense: str) -> float:
    if sense == "min":
        return value / reference if reference > 0 else (1.0 if value == reference else float("inf"))
    return reference / value if value > 0 else (1.0 if value == reference else float("inf"))


def gap_certificate(value: float, reference: Solution | float, *, sense: str = "min", name: str = "gap",
                    proven: bool | None = None, **info: Any) -> Certificate:
    """Certificate comparing ``value`` with a reference optimum or bound.

    ``reference`` may be a :class:`Solution`: its ``bound`` is used and ``proven`` is true
    only if the solution is OPTIMAL (then its objective equals its bound within the
    tolerance) or carries a solver bound.  A plain float counts as proven only when the
    caller says so.
    """
    if isinstance(reference, Solution):
        ref = reference.bound if reference.bound is not None else reference.objective
        if ref is None:
            from .errors import ArgumentError

            raise ArgumentError(f"reference is a {reference.status.value} solution with neither a bound nor an "
                                "objective: there is nothing to certify against")
        is_proven = reference.bound is not None
        info.setdefault("reference_status", reference.status.value)
    else:
        ref, is_proven = float(reference), bool(proven)
    if proven is not None and isinstance(reference, Solution):
        is_proven = is_proven and proven
    return Certificate(name=name, value=float(value), reference=float(ref), ratio=_ratio(value, ref, sense),
                       proven=is_proven, info=dict(info))


def ratio_certificate(value: float, reference: float, limit: float, *, sense: str = "min", proven: bool,
                      name: str = "ratio", **info: Any) -> Certificate:
    """Check a claimed approximation / competitive ratio ``limit`` on one instance.

    ``holds`` is ``ratio <= limit * (1 + RATIO_TOL)`` when ``proven`` and ``limit`` is finite;
    when the reference is not a certified optimum or bound, or the limit is infinite (a
    bound that says nothing, e.g. alpha = inf), the check cannot decide and ``holds`` is
    ``None`` ("not checked"), so that ``assert cert.holds`` cannot pass vacuously.
    """
    r = _ratio(value, reference, sense)
    limit = float(limit)
    holds = (r <= limit * (1 + RATIO_TOL)) if (proven and math.isfinite(limit)) else None
    return Certificate(name=name, value=float(value), reference=float(reference), ratio=r, limit=float(limit),
                       proven=proven, holds=holds, info=dict(info))


def instance_digest(inst: Any) -> str:
    """A digest of an instance's data: two seeds that drew the same digest drew the same instance.

    The data is the instance's ``to_dict()``, keys sorted, names included; ``description`` and
    ``source`` are left out (two instances that differ only in their prose are the same data).
    """
    import hashlib

    data: dict[str, Any] | str
    if hasattr(inst, "to_dict"):
        data = {k: v for k, v in inst.to_dict().items() if k not in ("description", "source")}
    else:  # any other object a user's make_instance returns: its repr
        data = repr(inst)
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=repr).encode()).hexdigest()[:16]


class SweepResults(list):
    """The results of :func:`sweep` (and of every paper's ``ratio_sweep``) in seed order.

    A list (one result per seed, a :class:`~hetopt.result.Certificate` for ``ratio_sweep``) with
    ``seeds``, ``digests`` (one per seed, see :func:`instance_digest`) and ``distinct_instances``
    (how many different instances the seeds drew; a sweep over 20 seeds that drew 5 instances
    has 5 data points, not 20).
    """

    def __init__(self, results: Sequence[Any], digests: Sequence[str], seeds: Sequence[int] | None = None) -> None:
        super().__init__(results)
        self.digests = list(digests)
        self.seeds = list(seeds) if seeds is not None else list(range(len(self.digests)))
        self.distinct_instances = len(set(self.digests))

    def note(self) -> str:
        """One line for a table's notes: distinct instances among the seeds."""
        return f"{self.distinct_instances} distinct instances among {len(self)} seeds"

    @property
    def violations(self) -> int:
        """How many results are certificates whose claimed bound was proven violated."""
        return sum(1 for r in self if isinstance(r, Certificate) and r.holds is False)

    def table(self, title: str = "ratio sweep") -> Any:
        """The certificates as a :class:`~hetopt.report.Table`: seed, value, reference, ratio, limit, proven, holds."""
        from .report import Table

        t = Table(title, ["seed", "value", "reference", "ratio", "limit", "proven", "holds"])
        for seed, r in zip(self.seeds, self, strict=True):
            if isinstance(r, Certificate):
                t.add(seed, r.value, r.reference, r.ratio, r.limit, r.proven,
                      "not checked" if r.holds is None else r.holds)
        t.notes.append(self.note())
        t.violations = self.violations
        return t


def _run_one(make_instance: Callable[..., Any], evaluate: Callable[[Any], Any], seed: int) -> tuple[str, Any]:
    inst = make_instance(seed=seed)
    return instance_digest(inst), evaluate(inst)


def _pack(pairs: Sequence[tuple[str, Any]], seeds: Sequence[int]) -> SweepResults:
    return SweepResults([r for _, r in pairs], [d for d, _ in pairs], seeds)


class _Progress:
    """A minimal progress line on stderr, shown only when stderr is a terminal."""

    def __init__(self, total: int, enabled: bool | None) -> None:
        self.total, self.done, self.t0 = total, 0, time.perf_counter()
        self.enabled = sys.stderr.isatty() if enabled is None else enabled

    def step(self) -> None:
        self.done += 1
        if self.enabled:
            el = time.perf_counter() - self.t0
            sys.stderr.write(f"\r{self.done}/{self.total} instances, {el:.1f} s")
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def sweep(
    make_instance: Callable[..., Any],
    evaluate: Callable[[Any], Any],
    seeds: Iterable[int],
    executor: Any = None,
    *,
    progress: bool | None = None,
) -> SweepResults:
    """Run ``evaluate(make_instance(seed=seed))`` for every seed; results in seed order.

    The returned list also says how many distinct instances the seeds drew
    (:class:`SweepResults`), so that a table built from it can report it.

    Parameters
    ----------
    make_instance, evaluate : callables
        ``make_instance`` is called as ``make_instance(seed=seed)`` (``seed`` is keyword-only in
        every generator of the package).
        Must be picklable (module-level functions or ``functools.partial`` of them) when
        run in a process pool or on a dask cluster.
    seeds : iterable of int
    executor : None, "serial", int, concurrent.futures.Executor or dask.distributed.Client
        None: a local process pool with one worker per core; "serial" (or 1): in this
        process; an int: a process pool of that size; an Executor: used as is; a dask
        ``Client`` (anything with ``map`` and ``gather``): tasks are submitted to it.
    progress : bool, optional
        Progress line on stderr; default: only when stderr is a terminal.
    """
    seeds = list(seeds)
    for s in seeds:
        if not isinstance(s, int) or isinstance(s, bool):
            raise ValueError(f"seeds must be integers; got {s!r}")
    dask_like = hasattr(executor, "gather") and hasattr(executor, "map")
    if not (executor is None or executor == "serial" or dask_like or isinstance(executor, cf.Executor)
            or (isinstance(executor, int) and not isinstance(executor, bool) and executor >= 1)):
        from .errors import ArgumentError  # checked before the serial shortcut: never silently ignored

        raise ArgumentError(f"executor is {executor!r}; expected None, 'serial', an int >= 1, an Executor or a dask "
                            "Client")
    bar = _Progress(len(seeds), progress)
    if executor in ("serial", 1) or len(seeds) <= 1:
        out = []
        for s in seeds:
            out.append(_run_one(make_instance, evaluate, s))
            bar.step()
        return _pack(out, seeds)
    if hasattr(executor, "gather") and hasattr(executor, "map") and not isinstance(executor, cf.Executor):
        futures = executor.map(_run_one, [make_instance] * len(seeds), [evaluate] * len(seeds), seeds, pure=False)
        gathered = executor.gather(futures)
        for _ in seeds:
            bar.step()
        return _pack(list(gathered), seeds)
    own = None
    if executor is None or isinstance(executor, int):
        n = min(len(seeds), executor or os.cpu_count() or 1)
        own = executor = cf.ProcessPoolExecutor(max_workers=n)
    assert isinstance(executor, cf.Executor)  # checked above
    try:
        futs = {executor.submit(_run_one, make_instance, evaluate, s): i for i, s in enumerate(seeds)}
        results: list[Any] = [None] * len(seeds)
        for f in cf.as_completed(futs):
            results[futs[f]] = f.result()
            bar.step()
        return _pack(results, seeds)
    finally:
        if own is not None:
            own.shutdown()


def summarize(values: Sequence[float]) -> dict[str, float]:
    """Mean, min, max and count of a list of numbers (NaN-free)."""
    import numpy as np

    a = np.asarray(values, dtype=float)
    if a.size == 0:
        return {"n": 0, "mean": float("nan"), "min": float("nan"), "max": float("nan")}
    return {"n": int(a.size), "mean": float(a.mean()), "min": float(a.min()), "max": float(a.max())}
