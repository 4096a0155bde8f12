"""Benchmarks (``hetopt bench KIND``, ``hetopt bench reproduce``): times and ratios measured in one run.

One module per paper (``hetopt.hare.experiments.bench``, ...), named by the paper's
:class:`~hetopt.contract.Kind` (``kind.bench``), each with ``bench(quick=False) -> list[Table]``;
:mod:`hetopt.bench.scale` has the "largest instance certified within a time limit" table they
share.  Targets beside the kinds: ``reproduce`` (:mod:`hetopt.bench.reproduce`: per-claim seconds,
the critical path, the speed-up of a pool) and ``cli`` (:mod:`hetopt.bench.cli`: ``--help`` and a
small solve against their goals).  Timings on a shared machine are inflated; ratios come from one run.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..registry import get_kind, kinds, names
from ..report import Table

__all__ = ["run", "available", "target_name", "TARGETS"]

#: Benchmark targets beside the kinds: ``reproduce`` (the claims ledger's run) and ``cli`` (start-up times).
TARGETS = ("reproduce", "cli")


def available() -> list[str]:
    """The kinds that have benchmarks, in registry order, then :data:`TARGETS`."""
    return [name for name, kind in kinds().items() if kind.bench] + list(TARGETS)


def target_name(value: str) -> str:
    """``value`` if it names a kind or a target of :data:`TARGETS` (the argparse type of ``hetopt bench``)."""
    if value not in names() and value not in TARGETS:
        raise argparse.ArgumentTypeError(f"{value!r} is not a kind or a benchmark target; expected one of "
                                         f"{', '.join([*names(), *TARGETS])}")
    return value


def run(kind: str, *, quick: bool = False, **options: Any) -> list[Table]:
    """The benchmark tables of ``kind`` or of a target (``quick``: small sizes; ``options`` go to its ``bench``).

    An option the kind's ``bench`` does not take is an :class:`~hetopt.errors.ArgumentError`; None-valued
    options are left out (the command line's unset options).
    """
    import inspect

    from ..errors import ArgumentError

    options = {name: value for name, value in options.items() if value is not None}
    if kind in TARGETS:
        from .cli import bench_cli
        from .reproduce import bench_reproduce

        func: Callable[..., list[Table]] = bench_reproduce if kind == "reproduce" else bench_cli
        unknown = [o for o in options if o not in inspect.signature(func).parameters or o == "claims"]
        if unknown:
            raise ArgumentError(f"bench {kind} takes no option {', '.join(unknown)}")
        return func(quick=quick, **options)
    k = get_kind(kind)
    if k.bench is None:
        raise ArgumentError(f"kind {kind!r} has no benchmarks; kinds with benchmarks: {', '.join(available())}")
    func = k.load("bench").bench
    unknown = [o for o in options if o not in inspect.signature(func).parameters]
    if unknown:
        raise ArgumentError(f"bench {kind} takes no option {', '.join(unknown)}")
    return func(quick=quick, **options)
