"""Progress of a ledger run: claims named as they start, a live bar with elapsed time and ETA, a heartbeat.

Each claim is named when it starts (id, fast or slow, the seconds expected here), and every
:data:`HEARTBEAT` seconds a line names the claims running (elapsed and expected seconds) and
how many wait, so that nothing looks hung and nothing queued looks running.

The expected seconds are the recorded costs (:mod:`hetopt.claims.costs`) times this machine's
speed factor (a calibration workload timed when the run begins, against its time on the
recording machine).  The bar is tqdm's (it draws only on a terminal and degrades to plain lines
elsewhere); its total is the recorded cost of the claims, so the ETA weighs a long claim as such.
"""

from __future__ import annotations

import heapq
import sys
import threading
import time
from typing import Any, TextIO

from .costs import expected_seconds, speed_factor

__all__ = ["ClaimProgress", "HEARTBEAT", "makespan"]

#: Seconds between heartbeat lines.
HEARTBEAT = 30.0


def makespan(seconds: list[float], workers: int) -> float:
    """Wall seconds of running jobs of these ``seconds`` longest first on ``workers`` (list scheduling)."""
    ends = [0.0] * max(1, workers)
    for s in sorted(seconds, reverse=True):
        heapq.heapreplace(ends, ends[0] + s)
    return max(ends)


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"


class ClaimProgress:
    """Callbacks for :func:`hetopt.claims.run_claims`: ``begin(claims, workers)``, ``start``, ``ended``, ``done``, ``close``.

    Parameters
    ----------
    total : int
        Number of claims to run.
    enabled : bool
        False prints nothing (``--json`` output, tests) and measures no speed factor.
    stream : file, optional
        Where lines go (default stderr).
    heartbeat : float
        Seconds between heartbeat lines.
    """

    def __init__(self, total: int, *, enabled: bool = True, stream: TextIO | None = None,
                 heartbeat: float = HEARTBEAT) -> None:
        self.total, self.enabled, self.heartbeat = total, enabled, heartbeat
        self.stream = sys.stderr if stream is None else stream
        self._bar: Any = None
        self._running: dict[str, float] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.done_count = 0
        self.factor = 1.0
        self._costs: dict[str, float] = {}
        self._seen: set[str] = set()  # started or finished
        self._finished: set[str] = set()
        self._behind: dict[str, int] = {}  # claims queued behind a running one in its worker (dask chains)

    def _cost(self, claim_id: str) -> float:
        """Seconds expected here for ``claim_id``."""
        return self._costs.get(claim_id, expected_seconds(claim_id)) * self.factor

    def _write(self, line: str) -> None:
        if self._bar is not None:
            self._bar.write(line, file=self.stream)
        else:
            print(line, file=self.stream, flush=True)

    def begin(self, claims: list[Any], workers: int = 1) -> None:
        """Measure this machine's speed, print the estimate and open the bar for ``claims`` on ``workers``."""
        self._costs = {c.id: expected_seconds(c.id, c.cost) for c in claims}
        if not self.enabled:
            return
        from tqdm import tqdm

        self.factor = speed_factor()
        recorded = sum(self._costs.values())
        from .runner import units  # a pool runs a paper's fast (slow) claims one after the other

        here = makespan([sum(self._costs[claims[i].id] for i in u) * self.factor for u in units(claims)], workers)
        longest = max(self._costs.values(), default=0.0) * self.factor
        self._bar = tqdm(total=round(recorded, 1), unit="s", file=self.stream, dynamic_ncols=True, mininterval=1.0,
                         bar_format="{l_bar}{bar}| {n:.0f}/{total:.0f} s of recorded cost [{elapsed}<{remaining}]",
                         disable=None)
        on = f"on {workers} workers" if workers > 1 else "serially"
        self._write(f"running {len(claims)} claims {on}: about {_duration(here)} here (recorded cost "
                    f"{_duration(recorded)} x speed factor {self.factor:.2f} of this machine; longest claim "
                    f"{_duration(longest)})")
        self._thread = threading.Thread(target=self._beat, daemon=True)
        self._thread.start()

    def heartbeat_line(self, now: float | None = None) -> str | None:
        """The heartbeat: the claims running (elapsed and expected seconds) and how many wait; None when none runs."""
        now = time.perf_counter() if now is None else now
        with self._lock:
            running = sorted(self._running.items(), key=lambda kv: kv[1])
            waiting = self.total - len(self._seen)
            behind = dict(self._behind)
        if not running:
            return None
        names = ", ".join(f"{cid} ({now - t0:.0f} s of about {self._cost(cid):.0f} s"
                          + (f"; {behind[cid]} more of its chain queued behind it" if behind.get(cid) else "") + ")"
                          for cid, t0 in running)
        return f"  ... running: {names}; {waiting} waiting, {self.done_count} done"

    def _beat(self) -> None:
        while not self._stop.wait(self.heartbeat):
            line = self.heartbeat_line()
            if line is not None:
                self._write(line)
            if self._bar is not None:
                self._bar.refresh()

    def start(self, claim: Any, queued_behind: int = 0) -> None:
        """Name ``claim`` as its check starts: id, fast or slow, expected seconds here.

        ``queued_behind``: claims that will run after it in the same worker (not running yet).  A
        start reported after the claim's end (a worker's event that arrives late) is ignored.
        """
        with self._lock:
            if claim.id in self._seen:
                return
            self._seen.add(claim.id)
            self._running[claim.id] = time.perf_counter()
            if queued_behind:
                self._behind[claim.id] = queued_behind
            n = len(self._seen)
        if self.enabled:
            self._write(f"[{n}/{self.total}] {claim.id} ({claim.cost}, about {self._cost(claim.id):.0f} s)")

    def ended(self, claim: Any) -> None:
        """``claim``'s check has ended in a worker (its result comes with its unit's): it no longer runs."""
        with self._lock:
            self._running.pop(claim.id, None)
            self._behind.pop(claim.id, None)
            self._seen.add(claim.id)

    def done(self, result: Any) -> None:
        """Record a finished claim: its verdict and time, and advance the bar by its recorded cost."""
        if result.claim.id not in self._seen:  # its start event is still on its way: name it first
            self.start(result.claim)
        with self._lock:
            self._running.pop(result.claim.id, None)
            self._behind.pop(result.claim.id, None)
            self._seen.add(result.claim.id)
            self._finished.add(result.claim.id)
            self.done_count += 1
        if self.enabled:
            mark = "" if not result.verdict_changed else "  (differs from the recorded verdict)"
            self._write(f"    {result.claim.id}: {result.outcome.verdict.value} in {result.wall_time:.1f} s{mark}")
            if self._bar is not None:
                self._bar.update(self._costs.get(result.claim.id, 0.0))

    def close(self) -> None:
        """Stop the heartbeat and close the bar."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
        if self._bar is not None:
            self._bar.close()
            self._bar = None
