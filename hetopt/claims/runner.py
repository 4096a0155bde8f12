"""Run claims: serially, in a process pool (``--workers N``) or on a dask cluster (``--dask ADDRESS``).

Every route returns the results in ledger order with the same verdicts (a test checks it): a
worker process imports the package, looks the claims up by id and runs their checks.  A serial
run lets the claim it runs spread its independent parts over the machine's cores
(:mod:`hetopt.claims.parallel`); in a pool every worker has its claim to itself.

The parallel routes run *units*, longest first by recorded cost (:mod:`hetopt.claims.costs`),
keeping exactly as many units in flight as there are workers, so that the longest claim never
starts last.  A unit is the fast claims of one paper, or its slow claims, in ledger order (a slow
claim recorded above ``SOLO_SECONDS`` alone): they share the paper's experiments (cached in the
process that runs them), so they run in one worker one after the other, as in a serial run,
instead of each worker paying for them.  A pool worker
reports when each claim starts, so the progress names exactly the claims that run.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..errors import ArgumentError
from .collect import conformance, get_claim
from .costs import expected_seconds
from .ledger import Claim, ClaimResult, Conformance, ConformanceResult, Outcome
from .parallel import available_cores, claim_map, free_processes

__all__ = ["run_claims", "run_by_id", "run_unit", "units", "longest_first", "run_conformance"]

#: The queue a pool worker reports claim starts on (set by the pool's initializer).
_EVENTS: Any = None


def run_by_id(claim_id: str, flip: bool = False) -> tuple[Outcome, float]:
    """Run one claim found by id (what a worker process or a dask task executes): its outcome and seconds.

    Only picklable values travel back: a claim's check may be a closure.
    """
    if _EVENTS is not None:
        _EVENTS.put((claim_id, True))
    r = get_claim(claim_id).run(flip=flip)
    if _EVENTS is not None:
        _EVENTS.put((claim_id, False))
    return r.outcome, r.wall_time


def run_unit(claim_ids: Sequence[str], flip: bool = False) -> list[tuple[Outcome, float]]:
    """Run claims one after the other in this process (a unit of :func:`units`): outcomes and seconds."""
    return [run_by_id(i, flip) for i in claim_ids]


def _init_worker(events: Any) -> None:
    global _EVENTS
    _EVENTS = events


#: A slow claim recorded at more than this many seconds (costs.json's units) is a unit of its own.
SOLO_SECONDS = 120.0


def units(selected: Sequence[Claim]) -> list[list[int]]:
    """Positions of ``selected`` grouped into units: the fast claims of a paper, the slow claims of a paper.

    Claims of one paper share its experiments (cached per process: a serial run pays for each
    once), so each group runs in one worker in ledger order.  A slow claim whose recorded cost is
    above :data:`SOLO_SECONDS` is a unit of its own: it is the critical path of a pool, and chained
    behind its paper's other slow claims it would end last (OASiS's Fig. 3 at paper scale, whose
    runs no other claim shares).  Units are in ledger order of their first claim.
    """
    groups: dict[tuple[str, str], list[int]] = {}
    for i, c in enumerate(selected):
        solo = c.cost == "slow" and expected_seconds(c.id, c.cost) > SOLO_SECONDS
        groups.setdefault((c.paper, c.id if solo else c.cost), []).append(i)
    return sorted(groups.values(), key=lambda u: u[0])


def longest_first(selected: Sequence[Claim]) -> list[list[int]]:
    """The :func:`units` of ``selected`` by recorded cost, longest first (ties in ledger order).

    Longest-processing-time-first list scheduling: no worker is left alone with a long unit that
    started last (the makespan is at most 4/3 of the best possible).
    """
    def cost(u: list[int]) -> float:
        return sum(expected_seconds(selected[i].id, selected[i].cost) for i in u)

    return sorted(units(selected), key=lambda u: (-cost(u), u[0]))


def run_claims(selected: Sequence[Claim], *, flip: bool = False, workers: int = 1, dask: str | None = None,
               progress: Any = None) -> list[ClaimResult]:
    """Run ``selected`` and return their results in the same order.

    Parameters
    ----------
    selected : sequence of Claim
    flip : bool
        Run each claim's flip instead of its check (every claim must have one).
    workers : int
        Processes to run claims in (1: in this process, in ledger order; more: longest first).
    dask : str, optional
        Address of a ``dask.distributed`` scheduler; the units run as its tasks, longest first,
        as many at once as it has worker threads.
    progress : ClaimProgress, optional
        Told the claims and the number of workers (``begin``), when each claim starts and ends.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ArgumentError(f"workers is {workers!r}; expected an integer >= 1")
    if flip:
        missing = [c.id for c in selected if c.flip is None]
        if missing:
            raise ArgumentError(f"claims without a flip: {', '.join(missing)}")
    try:
        if dask is not None:
            return _run_dask(selected, flip, dask, progress)
        if workers == 1 or len(selected) <= 1:
            if progress is not None:
                progress.begin(list(selected), workers=1)
            out = []
            # one claim at a time: its independent parts may use every core (hetopt.claims.parallel)
            with free_processes(available_cores()):
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


def _schedule(selected: Sequence[Claim], flip: bool, slots: int, progress: Any,
              submit: Callable[[list[str]], Any], stream: Any, announce: bool) -> list[ClaimResult]:
    """Keep ``slots`` units in flight, longest first.

    ``submit(ids)`` returns a future whose result is a list of ``(Outcome, seconds)``; ``stream``
    yields the futures added to it (``stream.add(f)``) as they finish, including those added while
    it is iterated (dask's ``as_completed``, or :class:`_AsCompleted`).  ``announce``: tell the
    progress that a unit's first claim starts when it is submitted (when the workers do not report
    starts themselves).
    """
    results: list[ClaimResult | None] = [None] * len(selected)
    pending = iter(longest_first(selected))
    index: dict[Any, list[int]] = {}

    def launch() -> None:
        unit = next(pending, None)
        if unit is not None:
            f = submit([selected[i].id for i in unit])
            index[f] = unit
            if progress is not None and announce:
                progress.start(selected[unit[0]], queued_behind=len(unit) - 1)
            stream.add(f)

    for _ in range(slots):
        launch()
    for f in stream:
        unit = index.pop(f)
        for i, (outcome, seconds) in zip(unit, f.result(), strict=True):
            results[i] = ClaimResult(claim=selected[i], outcome=outcome, wall_time=seconds, flipped=flip)
            if progress is not None:
                progress.done(results[i])
        launch()
    return [r for r in results if r is not None]


class _AsCompleted:
    """Futures of a process pool as they finish, including those added while it is iterated."""

    def __init__(self) -> None:
        self.waiting: set[cf.Future] = set()

    def add(self, f: cf.Future) -> None:
        """Watch ``f`` too."""
        self.waiting.add(f)

    def __iter__(self) -> Iterator[cf.Future]:
        while self.waiting:
            done, _ = cf.wait(self.waiting, return_when=cf.FIRST_COMPLETED)
            for f in done:
                self.waiting.discard(f)
                yield f


def _listen(events: Any, selected: Sequence[Claim], progress: Any, stop: threading.Event) -> None:
    """Forward the workers' "claim started" and "claim ended" events to ``progress`` until ``stop``.

    A unit's results come back when all its claims have run; the end events tell the progress
    in the meantime that a claim no longer runs.
    """
    by_id = {c.id: c for c in selected}
    while not stop.is_set():
        try:
            cid, started = events.get(timeout=0.2)
        except queue.Empty:
            continue
        except (EOFError, OSError):  # pragma: no cover - the queue closed under us
            return
        if started:
            progress.start(by_id[cid])
        else:
            progress.ended(by_id[cid])


def _run_pool(selected: Sequence[Claim], flip: bool, workers: int, progress: Any) -> list[ClaimResult]:
    n_units = len(units(selected))
    slots = min(workers, n_units)
    if progress is not None:
        progress.begin(list(selected), workers=slots)
    ctx = multiprocessing.get_context()
    events = ctx.Queue() if progress is not None else None
    stop = threading.Event()
    listener = None
    if events is not None:
        listener = threading.Thread(target=_listen, args=(events, selected, progress, stop), daemon=True)
        listener.start()
    try:
        with cf.ProcessPoolExecutor(max_workers=slots, mp_context=ctx, initializer=_init_worker,
                                    initargs=(events,)) as pool:
            return _schedule(selected, flip, slots, progress, lambda ids: pool.submit(run_unit, ids, flip),
                             _AsCompleted(), announce=False)
    finally:
        stop.set()
        if listener is not None:
            listener.join(timeout=2.0)
        if events is not None:
            events.close()


def _run_dask(selected: Sequence[Claim], flip: bool, address: str, progress: Any) -> list[ClaimResult]:
    try:
        from dask.distributed import Client, as_completed
    except ImportError as exc:  # pragma: no cover - dask is in the test extra
        raise ArgumentError('--dask needs dask.distributed: pip install "hetopt[dask]"') from exc
    with Client(address) as client:
        slots = max(1, min(sum(client.nthreads().values()), len(units(selected))))
        if progress is not None:
            progress.begin(list(selected), workers=slots)
        return _schedule(selected, flip, slots, progress,
                         lambda ids: client.submit(run_unit, ids, flip, pure=False,
                                                   key=f"claims-{ids[0]}-{len(ids)}-{int(flip)}"),
                         as_completed(), announce=True)


def _conformance_by_id(check_id: str) -> tuple[Outcome, float]:
    (check,) = [c for c in conformance() if c.id == check_id]
    r = check.run()
    return r.outcome, r.wall_time


def run_conformance(checks: Sequence[Conformance], *, workers: int = 1) -> list[ConformanceResult]:
    """Run conformance checks, in order; on ``workers`` processes (1: on the cores a serial run leaves free)."""
    with free_processes(workers if workers > 1 else available_cores()):
        done = claim_map(_conformance_by_id, [(c.id,) for c in checks])
    return [ConformanceResult(c, outcome, seconds) for c, (outcome, seconds) in zip(checks, done, strict=True)]
