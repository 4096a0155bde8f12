"""Recorded seconds of every claim's check, and the speed of this machine relative to the recording one.

``costs.json`` holds each claim's seconds on the recording machine and that machine's time for a
fixed calibration workload (:func:`calibrate`); an estimate here is the recorded seconds times
:func:`speed_factor` (calibration here / recorded).  They order a parallel run (longest first),
feed its progress lines and ETA, and ``hetopt bench reproduce``.  Re-record in one command
(serially, in CPU seconds, calibration first: a shared machine's load does not inflate them)::

    python -m hetopt.claims.costs --run [--id ID ...] [--paper P] [--fast]   # the others keep theirs

or from a run's JSON (wall seconds): ``hetopt claims --run --json > f.json`` (or ``--id ID``), then
``python -m hetopt.claims.costs f.json``.  Seconds measured elsewhere are scaled to the recorded
calibration, so a file recorded in parts stays in one machine's units.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["expected_seconds", "recorded", "recorded_calibration", "record", "calibrate", "speed_factor",
           "DEFAULT_FAST", "DEFAULT_SLOW"]

_FILE = Path(__file__).with_name("costs.json")
#: Seconds assumed for a claim that has no recorded cost yet.
DEFAULT_FAST, DEFAULT_SLOW = 5.0, 120.0
#: Runs of the calibration workload; their median is the calibration time.
CALIBRATION_RUNS = 5


def _load(path: Path = _FILE) -> dict[str, Any]:
    if not path.exists():
        return {"calibration": None, "claims": {}}
    return json.loads(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def recorded() -> dict[str, float]:
    """Claim id -> recorded seconds (on the recording machine)."""
    return {str(k): float(v) for k, v in _load()["claims"].items()}


def recorded_calibration() -> float | None:
    """Seconds of :func:`calibrate` on the machine that recorded the costs (None: not recorded)."""
    cal = _load().get("calibration")
    return None if cal is None else float(cal)


def _workload() -> None:
    """The calibration workload: fixed, about 0.03 s on the recording machine, one thread, no randomness."""
    import numpy as np

    from ..solvers import solve_milp

    acc: dict[int, int] = {}
    for i in range(60_000):  # interpreter: loops, dict, integer arithmetic
        acc[i % 97] = acc.get(i % 97, 0) + i * i % 13
    x = np.arange(200_000, dtype=float)  # numpy: elementwise, sort, small dense products
    for _ in range(5):
        x = np.sort(np.sin(x) * 1e3)
    a = np.cos(np.arange(100 * 100, dtype=float)).reshape(100, 100)
    for _ in range(10):  # einsum's own loop, one thread: a BLAS product would run on every core, and its wall
        a = np.einsum("ij,jk->ik", a, a, optimize=False) / np.abs(a).sum()  # time not be its CPU time
    n = 30  # a small knapsack-like MILP through the solver door
    w = 1.0 + (np.arange(n) * 7919 % 23)
    v = 1.0 + (np.arange(n) * 104729 % 31)
    solve_milp(v, sense="max", A_ub=w[None, :], b_ub=[w.sum() / 3], lb=0, ub=1, integrality=np.ones(n), threads=1)


def calibrate(runs: int = CALIBRATION_RUNS, clock: Callable[[], float] = time.perf_counter) -> float:
    """Median seconds of the calibration workload on this machine now (after one untimed warm-up).

    ``clock``: wall time (default: what a run here will take, under the load of the moment) or
    ``time.process_time`` (CPU time: the machine's speed, whatever the load).
    """
    _workload()
    times = []
    for _ in range(runs):
        t0 = clock()
        _workload()
        times.append(clock() - t0)
    return statistics.median(times)


@lru_cache(maxsize=1)
def speed_factor() -> float:
    """The calibration time here over the recorded one (> 1: slower than the recording machine).

    Measured once per process; 1.0 when no calibration is recorded.
    """
    ref = recorded_calibration()
    return 1.0 if not ref else calibrate() / ref


def expected_seconds(claim_id: str, cost: str = "fast", *, scaled: bool = False) -> float:
    """The recorded seconds of ``claim_id`` (a default by its cost class when none is recorded).

    ``scaled``: times :func:`speed_factor`, an estimate for this machine.
    """
    base = recorded().get(claim_id, DEFAULT_SLOW if cost == "slow" else DEFAULT_FAST)
    return base * speed_factor() if scaled else base


def record(results: list[dict], path: Path = _FILE, *, calibration: float | None = None) -> None:
    """Write the ``wall_time`` of every (not flipped) result of a ``--json`` run to ``path``.

    ``calibration``: seconds of :func:`calibrate` on the machine that ran them (measured now when
    None).  When ``path`` already records a calibration, the seconds are scaled to it; otherwise
    this calibration becomes the file's.  The other claims keep their recorded seconds.
    """
    here = calibrate() if calibration is None else calibration
    lock_path = Path(tempfile.gettempdir()) / f"hetopt-costs-{hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]}.lock"
    with open(lock_path, "w") as lock:  # recorders running side by side take turns
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = _load(path)
        ref = data.get("calibration")
        scale = 1.0 if ref is None else float(ref) / here
        claims = {str(k): float(v) for k, v in data.get("claims", {}).items()}
        for r in results:
            if not r.get("flipped"):
                claims[r["id"]] = round(float(r["wall_time"]) * scale, 1)
        out = {"calibration": round(here if ref is None else float(ref), 4), "claims": dict(sorted(claims.items()))}
        path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    recorded.cache_clear()
    speed_factor.cache_clear()


def main(argv: list[str] | None = None) -> int:
    """``python -m hetopt.claims.costs (FILE | --run [--id ID ...] [--paper P] [--fast])``."""
    ap = argparse.ArgumentParser(prog="python -m hetopt.claims.costs", description="re-record the claims' costs")
    ap.add_argument("file", nargs="?", help="the JSON of `hetopt claims --run --json` (or `hetopt reproduce --json`)")
    ap.add_argument("--run", action="store_true", help="run the claims here, serially, and record them")
    ap.add_argument("--id", action="append", help="with --run: only this claim (repeatable)")
    ap.add_argument("--paper", action="append", help="with --run: only this paper's claims (repeatable)")
    ap.add_argument("--fast", action="store_true", help="with --run: only the fast claims")
    args = ap.parse_args(argv)
    if bool(args.file) == bool(args.run):
        ap.error("give either FILE or --run")
    if args.file:
        record(json.loads(Path(args.file).read_text(encoding="utf-8")))
        print(f"recorded {_FILE}")
        return 0
    from .collect import claims, get_claim

    # CPU seconds, claim and calibration alike: what a quiet machine's wall clock shows, whatever the load now
    here = calibrate(clock=time.process_time)
    chosen = [get_claim(i) for i in args.id] if args.id else [
        c for p in (args.paper or [None]) for c in claims(p) if not args.fast or c.cost == "fast"]
    results = []
    for c in chosen:
        t0 = time.process_time()
        c.run()
        seconds = time.process_time() - t0
        print(f"{c.id}: {seconds:.1f} s", file=sys.stderr, flush=True)
        results.append({"id": c.id, "wall_time": seconds})
    record(results, calibration=here)
    print(f"recorded {len(results)} claims in {_FILE} (calibration here {here:.3f} s of CPU)")
    return 0


if __name__ == "__main__":  # pragma: no cover - maintenance command
    sys.exit(main())
