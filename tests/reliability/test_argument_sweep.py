"""The generated argument sweep (``tests/reliability/argument_sweep.py``) in the slow tier: no crash, hang or unnamed
error in any kind's public functions (the arena, worked on separately, is measured by the script and not held here).
"""

from __future__ import annotations

import pytest

from tests.reliability.argument_sweep import run_kind


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["contention", "gavel", "hadar", "hare", "oasis", "placement"])
def test_no_crash_hang_or_unnamed_error(kind):
    rows, _ = run_kind(kind)
    bad = [r for r in rows if r["outcome"] in ("crash", "hang", "unnamed")]
    assert not bad, "\n".join(f"{r['outcome']} {r['function']}({r['parameter']}={r['value']}) {r['detail']}"
                              for r in bad)
