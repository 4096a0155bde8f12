"""Run claims: serially, in a process pool (``--workers N``) or on a dask cluster (``--dask ADDRESS``).

Every route returns the results in ledger order with the same verdicts (a test checks it): a
worker process imports the package, looks the claim up by id and runs its check.
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Sequence
from typing import Any

from ..errors import ArgumentError
from .collect import get_claim
from .ledger import Claim, ClaimResult, Outcome

__all__ = ["run_claims", "run_by_id"]


def run_by_id(claim_id: str, flip: bool = False) -> tuple[Outcome, float]:
    """Run one claim found by id (what a worker process or a dask task executes): its outcome and seconds.

    Only picklable values travel back: a claim's check may be a closure.
    """
    r = get_claim(claim_id).run(flip=flip)
    return r.outcome, r.wall_time


def run_claims(selected: Sequence[Claim], *, flip: bool = False, workers: int = 1, dask: str | None = None,
               progress: Any = None) -> list[ClaimResult]:
    """Run ``selected`` and return their results in the same order.

    Parameters
    ----------
    selected : sequence of Claim
    flip : bool
        Run each claim's flip instead of its check (every claim must have one).
    workers : int
        Processes to run claims in (1: in this process).
    dask : str, optional
        Address of a ``dask.distributed`` scheduler; the claims run as its tasks.
    progress : ClaimProgress, optional
        Told when each claim starts and ends.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ArgumentError(f"workers is {workers!r}; expected an integer >= 1")
    if flip:
        missing = [c.id for c in selected if c.flip is None]
        if missing:
            raise ArgumentError(f"claims without a flip: {', '.join(missing)}")
    if progress is not None:
        progress.begin(list(selected))
    try:
        if dask is not None:
            return _run_dask(selected, flip, dask, progress)
        if workers == 1 or len(selected) <= 1:
            out = []
            for c in selected:
                if progress is not None:
                    progress.start(c)
                out.append(c.run(flip=flip))
                if progress is not None:
                    progress.done(out[-1])
            return out
        return _run_pool(selected, flip, workers, progress)
    finally:
        if progress is not None:
            progress.close()


def _run_pool(selected: Sequence[Claim], flip: bool, workers: int, progress: Any) -> list[ClaimResult]:
    results: list[ClaimResult | None] = [None] * len(selected)
    with cf.ProcessPoolExecutor(max_workers=min(workers, len(selected))) as pool:
        futures = {}
        for i, c in enumerate(selected):
            futures[pool.submit(run_by_id, c.id, flip)] = i
            if progress is not None:
                progress.start(c)
        for f in cf.as_completed(futures):
            i = futures[f]
            outcome, seconds = f.result()
            results[i] = ClaimResult(claim=selected[i], outcome=outcome, wall_time=seconds, flipped=flip)
            if progress is not None:
                progress.done(results[i])
    return [r for r in results if r is not None]


def _run_dask(selected: Sequence[Claim], flip: bool, address: str, progress: Any) -> list[ClaimResult]:
    try:
        from dask.distributed import Client, as_completed
    except ImportError as exc:  # pragma: no cover - dask is in the test extra
        raise ArgumentError('--dask needs dask.distributed: pip install "hetopt[dask]"') from exc
    with Client(address) as client:
        futures = []
        for c in selected:
            futures.append(client.submit(run_by_id, c.id, flip, pure=False, key=f"claim-{c.id}-{int(flip)}"))
            if progress is not None:
                progress.start(c)
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[ClaimResult | None] = [None] * len(selected)
        for f in as_completed(futures):
            i = index[f.key]
            outcome, seconds = f.result()
            results[i] = ClaimResult(claim=selected[i], outcome=outcome, wall_time=seconds, flipped=flip)
            if progress is not None:
                progress.done(results[i])
    return [r for r in results if r is not None]
