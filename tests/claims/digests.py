"""Digests of every claim's outcome: the guard that a change made for speed computes the same ledger.

A claim's :class:`~hetopt.claims.Outcome` (``ours``, the verdict, the detail line, the proxy's
direction, the readings) is written as canonical JSON (floats by ``repr``, which round-trips every
bit; numpy scalars and arrays as Python numbers and lists) and hashed.  ``outcome_digests.json``
holds the digest of every claim's check and of every fast claim's flip (the slow checks re-recorded
after the ledger's third pass changed their outcomes); ``tests/claims/test_ledger.py`` compares each run's digest
with it (fast claims in the default tier, slow ones in the slow tier), and the command below
checks any selection, in parallel:

    python -m tests.claims.digests check [--slow] [--workers 2] [--id ID ...]
    python -m tests.claims.digests record [--slow] [--workers 2] [--dump FILE]   # after a reviewed change

A claim whose outcome carries a measured time is digested without it: ``TIMED_DETAIL`` claims
without their detail line; ``TIMED`` ones not at all (their verdict itself is a timing, which the
verdict tests check).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import enum
import hashlib
import json
import math
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

FILE = Path(__file__).with_name("outcome_digests.json")

#: Claims whose ``ours`` and verdict are a measured time: nothing is digested.
TIMED = frozenset({"oasis2018.section5.decision_time", "hadar2024.sec4.scalability_2048_jobs",
                   "liu2024.table4.art_ratios"})
#: Claims whose detail line states a measured time: their outcome is digested without it.
TIMED_DETAIL = frozenset({"liu2024.beyond.has_large_k", "liu2024.beyond.jps_large_k"})


def _canon(x: Any) -> Any:
    """``x`` as JSON-ready values that keep every bit (floats as their repr)."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, enum.Enum):
        return _canon(x.value)
    if isinstance(x, int):
        return x
    if isinstance(x, float):  # numpy's float64 too (a float subclass): the repr of the Python float, not numpy's
        return {"float": repr(float(x))} if not math.isnan(x) else {"float": "nan"}
    if hasattr(x, "tolist") and callable(x.tolist):  # numpy scalars and arrays
        return _canon(x.tolist())
    if isinstance(x, Mapping):
        return {"map": sorted([[json.dumps(_canon(k), sort_keys=True), _canon(v)] for k, v in x.items()])}
    if isinstance(x, (list, tuple)):
        return [_canon(v) for v in x]
    if isinstance(x, (set, frozenset)):
        return {"set": sorted(json.dumps(_canon(v), sort_keys=True) for v in x)}
    return {"repr": repr(x)}


def canonical(claim_id: str, outcome: Any) -> str:
    """The canonical JSON text of ``outcome`` (without the timed parts of :data:`TIMED`, :data:`TIMED_DETAIL` claims)."""
    if claim_id in TIMED:
        return json.dumps({"timed": True})
    out = {"ours": _canon(outcome.ours), "verdict": outcome.verdict.value, "detail": outcome.detail,
           "proxy_agrees": _canon(outcome.proxy_agrees), "readings": _canon(outcome.readings)}
    if claim_id in TIMED_DETAIL:
        del out["detail"]
    text = json.dumps(out, sort_keys=True)
    numpy_repr = re.search(r"np\.\w+\(", text)
    assert numpy_repr is None, (f"{claim_id}: its outcome prints a numpy scalar's repr ({numpy_repr.group()}...), which "
                                "changes with numpy's version: format the number (float(x), f'{x:g}')")
    return text


def digest(claim_id: str, outcome: Any) -> str:
    """SHA-256 of :func:`canonical`."""
    return hashlib.sha256(canonical(claim_id, outcome).encode()).hexdigest()


def recorded() -> dict[str, dict[str, str]]:
    """Claim id -> {"check": digest, "flip": digest (fast claims)}."""
    return json.loads(FILE.read_text(encoding="utf-8")) if FILE.exists() else {}


def _key(flip: bool) -> str:
    return "flip" if flip else "check"


def assert_unchanged(result: Any) -> None:
    """Fail when ``result`` (a ClaimResult) does not have the recorded digest of its claim (check or flip)."""
    want = recorded().get(result.claim.id, {}).get(_key(result.flipped))
    assert want is not None, f"{result.claim.id}: no recorded digest ({_key(result.flipped)})"
    got = digest(result.claim.id, result.outcome)
    assert got == want, (f"{result.claim.id} ({_key(result.flipped)}): the outcome changed: "
                         f"{canonical(result.claim.id, result.outcome)[:600]}")


def _run(claim_id: str, flip: bool) -> tuple[str, bool, str, float]:
    from hetopt.claims.runner import run_by_id

    outcome, seconds = run_by_id(claim_id, flip)
    return claim_id, flip, canonical(claim_id, outcome), seconds


def _jobs(ids: list[str] | None, slow: bool, flips: bool) -> list[tuple[str, bool]]:
    from hetopt import claims as ledger
    from hetopt.claims.costs import expected_seconds

    chosen = [ledger.get_claim(i) for i in ids] if ids else [c for c in ledger.claims() if slow or c.cost == "fast"]
    jobs = [(c.id, False) for c in chosen] + [(c.id, True) for c in chosen if flips and c.cost == "fast"]
    return sorted(jobs, key=lambda j: -expected_seconds(j[0]))  # longest first


def run_all(jobs: list[tuple[str, bool]], workers: int) -> dict[tuple[str, bool], tuple[str, float]]:
    """Canonical outcome and seconds of every ``(claim id, flip)``, on ``workers`` processes."""
    out = {}
    with cf.ProcessPoolExecutor(max_workers=workers) as pool:
        for f in cf.as_completed([pool.submit(_run, i, fl) for i, fl in jobs]):
            cid, fl, text, sec = f.result()
            out[(cid, fl)] = (text, sec)
            print(f"  {cid}{' (flip)' if fl else ''}: {sec:.1f} s", file=sys.stderr, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.claims.digests")
    ap.add_argument("action", choices=["check", "record"])
    ap.add_argument("--slow", action="store_true", help="the slow claims too (their checks; flips are fast claims')")
    ap.add_argument("--id", action="append", help="only this claim (repeatable)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-flips", action="store_true", help="checks only")
    ap.add_argument("--dump", help="record: also write every canonical outcome to this JSON file")
    args = ap.parse_args(argv)
    jobs = _jobs(args.id, args.slow, not args.no_flips)
    results = run_all(jobs, args.workers)
    if args.action == "record":
        data = recorded()
        for (cid, fl), (text, _) in results.items():
            data.setdefault(cid, {})[_key(fl)] = hashlib.sha256(text.encode()).hexdigest()
        FILE.write_text(json.dumps(dict(sorted(data.items())), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        if args.dump:
            Path(args.dump).write_text(json.dumps({f"{c}|{_key(f)}": [t, s] for (c, f), (t, s) in results.items()},
                                                  indent=1, sort_keys=True), encoding="utf-8")
        print(f"recorded {len(results)} digests in {FILE}")
        return 0
    want = recorded()
    bad = [(cid, fl, text) for (cid, fl), (text, _) in sorted(results.items())
           if want.get(cid, {}).get(_key(fl)) != hashlib.sha256(text.encode()).hexdigest()]
    for cid, fl, text in bad:
        print(f"CHANGED {cid} ({_key(fl)}): {text[:400]}")
    print(f"{len(results) - len(bad)} of {len(results)} outcomes as recorded")
    return 1 if bad else 0


if __name__ == "__main__":  # pragma: no cover - maintenance command
    sys.exit(main())
