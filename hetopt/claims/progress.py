"""Progress of a ledger run: claims named as they start, a live bar with elapsed time and ETA, a heartbeat.

Each claim is named before it starts, and a line is written at least every :data:`HEARTBEAT`
seconds while a long claim runs, so that nothing looks hung.

The bar is tqdm's (a well-kept library; it draws only on a terminal and degrades to plain lines
elsewhere); its total is the sum of the claims' recorded costs (:mod:`hetopt.claims.costs`), so the
ETA weighs a 20-minute claim as such.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any, TextIO

from .costs import expected_seconds

__all__ = ["ClaimProgress", "HEARTBEAT"]

#: Seconds between "still running" lines while one claim runs.
HEARTBEAT = 30.0


class ClaimProgress:
    """Callbacks for :func:`hetopt.claims.run_claims`: ``start(claim)``, ``done(result)``, ``close()``.

    Parameters
    ----------
    total : int
        Number of claims to run.
    enabled : bool
        False prints nothing (``--json`` output, tests).
    stream : file, optional
        Where lines go (default stderr).
    heartbeat : float
        Seconds between "still running" lines.
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
        self._costs: dict[str, float] = {}

    def _cost(self, claim_id: str) -> float:
        return self._costs.get(claim_id) or expected_seconds(claim_id)

    def _write(self, line: str) -> None:
        if self._bar is not None:
            self._bar.write(line, file=self.stream)
        else:
            print(line, file=self.stream, flush=True)

    def begin(self, claims: list[Any]) -> None:
        """Open the bar for ``claims`` (their recorded costs make its total)."""
        if not self.enabled:
            return
        from tqdm import tqdm

        seconds = sum(expected_seconds(c.id, c.cost) for c in claims)
        self._costs = {c.id: expected_seconds(c.id, c.cost) for c in claims}
        self._bar = tqdm(total=round(seconds, 1), unit="s", file=self.stream, dynamic_ncols=True, mininterval=1.0,
                         bar_format="{l_bar}{bar}| {n:.0f}/{total:.0f} s of recorded cost [{elapsed}<{remaining}]",
                         disable=None)
        self._write(f"running {len(claims)} claims, about {seconds / 60:.0f} min of recorded cost")
        self._thread = threading.Thread(target=self._beat, daemon=True)
        self._thread.start()

    def _beat(self) -> None:
        while not self._stop.wait(self.heartbeat):
            now = time.perf_counter()
            with self._lock:
                running = dict(self._running)
            for cid, t0 in running.items():
                if now - t0 >= self.heartbeat:
                    self._write(f"  ... {cid} still running ({now - t0:.0f} s of about {self._cost(cid):.0f} s)")
            if self._bar is not None:
                self._bar.refresh()

    def start(self, claim: Any) -> None:
        """Name ``claim`` before its check starts: id, fast or slow, expected seconds."""
        with self._lock:
            self._running[claim.id] = time.perf_counter()
        if self.enabled:
            self._write(f"[{self.done_count + 1}/{self.total}] {claim.id} ({claim.cost}, about "
                        f"{self._cost(claim.id):.0f} s)")

    def done(self, result: Any) -> None:
        """Record a finished claim: its verdict and time, and advance the bar by its recorded cost."""
        with self._lock:
            self._running.pop(result.claim.id, None)
            self.done_count += 1
        if self.enabled:
            mark = "" if not result.verdict_changed else "  (differs from the recorded verdict)"
            self._write(f"    {result.claim.id}: {result.outcome.verdict.value} in {result.wall_time:.1f} s{mark}")
            if self._bar is not None:
                self._bar.update(self._cost(result.claim.id))

    def close(self) -> None:
        """Stop the heartbeat and close the bar."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
        if self._bar is not None:
            self._bar.close()
            self._bar = None
