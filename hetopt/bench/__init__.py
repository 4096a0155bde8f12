"""Benchmarks (``hetopt bench KIND``, ``hetopt bench reproduce``): times and ratios measured in one run.

One module per paper (``hetopt.hare.experiments.bench``, ...), named by the paper's
:class:`~hetopt.contract.Kind` (``kind.bench``), each with ``bench(quick=False) -> list[Table]``;
:mod:`hetopt.bench.scale` has the "largest instance certified within a time limit" table they
share.  ``reproduce`` (:mod:`hetopt.bench.reproduce`) is the claims ledger's: per-claim seconds,
the critical path and the speed-up of a process pool.  Timings on a shared machine are inflated; the ratios between methods come from the same
run.
"""

from __future__ import annotations

from typing import Any

from ..registry import get_kind, kinds
from ..report import Table

__all__ = ["run", "available", "TARGETS"]

#: Benchmark targets beside the kinds: ``reproduce``, the claims ledger's run.
TARGETS = ("reproduce",)


def available() -> list[str]:
    """The kinds that have benchmarks, in registry order, then :data:`TARGETS`."""
    return [name for name, kind in kinds().items() if kind.bench] + list(TARGETS)


def run(kind: str, *, quick: bool = False, **options: Any) -> list[Table]:
    """The benchmark tables of ``kind`` or of a target (``quick``: small sizes; ``options`` go to its ``bench``).

    An option the kind's ``bench`` does not take is an :class:`~hetopt.errors.ArgumentError`.
    """
    import inspect

    from ..errors import ArgumentError

    if kind == "reproduce":
        from .reproduce import bench_reproduce

        func = bench_reproduce
        unknown = [o for o in options if o not in inspect.signature(func).parameters or o == "claims"]
        if unknown:
            raise ArgumentError(f"bench reproduce takes no option {', '.join(unknown)}")
        return func(quick=quick, **options)
    k = get_kind(kind)
    if k.bench is None:
        raise ArgumentError(f"kind {kind!r} has no benchmarks; kinds with benchmarks: {', '.join(available())}")
    func = k.load("bench").bench
    unknown = [o for o in options if o not in inspect.signature(func).parameters]
    if unknown:
        raise ArgumentError(f"bench {kind} takes no option {', '.join(unknown)}")
    return func(quick=quick, **options)
