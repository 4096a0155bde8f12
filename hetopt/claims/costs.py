"""Recorded seconds of every claim's check, measured on the CI machine (2 cores).

They feed the progress bar of ``hetopt reproduce`` (its ETA), the line printed before each claim
starts, and the README's time estimate.  To re-record them after a change::

    hetopt reproduce --json > ledger.json
    python -m hetopt.claims.costs ledger.json      # rewrites hetopt/claims/costs.json
"""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path

__all__ = ["expected_seconds", "recorded", "record", "DEFAULT_FAST", "DEFAULT_SLOW"]

_FILE = Path(__file__).with_name("costs.json")
#: Seconds assumed for a claim that has no recorded cost yet.
DEFAULT_FAST, DEFAULT_SLOW = 5.0, 120.0


@lru_cache(maxsize=1)
def recorded() -> dict[str, float]:
    """Claim id -> recorded seconds."""
    if not _FILE.exists():
        return {}
    return {str(k): float(v) for k, v in json.loads(_FILE.read_text(encoding="utf-8")).items()}


def expected_seconds(claim_id: str, cost: str = "fast") -> float:
    """The recorded seconds of ``claim_id`` (a default by its cost class when none is recorded)."""
    return recorded().get(claim_id, DEFAULT_SLOW if cost == "slow" else DEFAULT_FAST)


def record(results: list[dict], path: Path = _FILE) -> None:
    """Write the ``wall_time`` of every result of ``hetopt reproduce --json`` to ``path``."""
    data = {**recorded()} if path == _FILE else {}
    for r in results:
        if not r.get("flipped"):
            data[r["id"]] = round(float(r["wall_time"]), 1)
    path.write_text(json.dumps(dict(sorted(data.items())), indent=1) + "\n", encoding="utf-8")
    recorded.cache_clear()


if __name__ == "__main__":  # pragma: no cover - maintenance command
    record(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")))
