"""The independent parts of one claim's experiment, spread over the processes a run leaves free.

A serial run (``hetopt reproduce``, ``hetopt claims --run``) runs one claim at a time, so a claim
may spread its independent parts (seeds, methods) over the machine's cores
(:func:`free_processes`, set by :func:`hetopt.claims.run_claims`); in a pool worker, a test or a
plain ``claim.run()`` they run in the calling process.  Each part is a deterministic function of
its arguments, so the results are those of the plain loop, in the same order.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

__all__ = ["claim_map", "free_processes", "free_count", "available_cores"]

_FREE = 1


def available_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


@contextmanager
def free_processes(n: int) -> Iterator[None]:
    """Within the block, :func:`claim_map` may use up to ``n`` processes."""
    global _FREE
    old, _FREE = _FREE, max(1, int(n))
    try:
        yield
    finally:
        _FREE = old


def free_count() -> int:
    """How many processes :func:`claim_map` may use now (1: it runs its items in the calling process)."""
    return _FREE


def claim_map(func: Callable[..., Any], items: Sequence[tuple], *, processes: int | None = None) -> list[Any]:
    """``[func(*args) for args in items]``, on the free processes (:func:`free_processes`).

    ``func`` must be a module-level function (it is pickled to a child process).  Put the longest
    items first: they are handed out in order.  ``processes`` overrides the free count.
    """
    n = min(_FREE if processes is None else max(1, processes), len(items))
    if n <= 1:
        return [func(*args) for args in items]
    # fork: the children inherit the imported package and its caches, nothing is re-imported
    with cf.ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("fork")) as pool:
        return list(pool.map(_call, [(func, args) for args in items], chunksize=1))


def _call(job: tuple[Callable[..., Any], tuple]) -> Any:
    func, args = job
    return func(*args)
