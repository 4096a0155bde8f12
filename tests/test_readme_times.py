"""The times the README states are the ones ``.ci/run`` measured on a clean clone, within 50 %.

``.ci/run`` writes ``.ci/timings.json`` at the end of a passing run (the wall seconds of each of its
steps and the load average when each started); it is committed with the README that quotes it.
The README states the time of its test command (the install of the test extra and the suite) and,
where ``.ci/timings.json`` records them, the times of ``hetopt reproduce``. Both files are
committed, so this test compares two files and never a clock.
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TIMINGS = ROOT / ".ci" / "timings.json"
#: A stated time may differ from the recorded one by this fraction of it.
TOLERANCE = 0.5
#: Step of .ci/timings.json -> where the README states its minutes. The first two are always recorded; the
#: reproduce ones are checked when a recorded time exists (the README's sentence on them is the ledger's).
STATED = {
    "install": r"installs the test extra \((?:about )?([\d.]+) minutes?",
    "tests": r"runs the test suite[^(]*\((?:about )?([\d.]+) minutes?",
    "reproduce": r"claims ledger\*\*:.*?\(measured on the 2-core CI machine: (?:about )?([\d.]+) minutes",
    "reproduce_workers2": r"([\d.]+)(?: minutes)? with `--workers 2`",
    "reproduce_fast": r"`hetopt reproduce --fast`, (?:about )?([\d.]+) minutes",
}
ALWAYS = ("install", "tests")


def stated_minutes(readme: str, step: str) -> float | None:
    """The minutes the README states for ``step``, or None when it states none."""
    m = re.search(STATED[step].replace(" ", r"\s+"), readme, flags=re.S)  # a sentence may wrap anywhere
    return None if m is None else float(m.group(1))


def off(stated_min: float, recorded_s: float) -> bool:
    """A stated time off by more than TOLERANCE of the recorded one."""
    return abs(stated_min * 60 - recorded_s) > TOLERANCE * recorded_s


def test_the_check_reads_the_readme_sentences():
    text = ("The second installs the test extra (2 minutes) and runs the test suite on two workers (4.5 minutes on the "
            "2-core CI machine). The first command runs the **claims ledger**: every claim (measured on the 2-core CI "
            "machine: 12 minutes, 6.5 with `--workers 2`; `hetopt reproduce --fast`, 1.5 minutes, skips ...)")
    assert [stated_minutes(text, s) for s in STATED] == [2, 4.5, 12, 6.5, 1.5]
    assert stated_minutes("no times here", "tests") is None
    assert not off(4.5, 270) and not off(4.5, 181) and off(4.5, 179) and off(8, 300)


def test_readme_states_the_times_dotci_run_measured():
    assert TIMINGS.is_file(), "no .ci/timings.json: run .ci/run (it writes the file) and commit it"
    recorded = json.loads(TIMINGS.read_text(encoding="utf-8"))
    seconds = recorded["seconds"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    wrong = []
    for step in STATED:
        if step not in seconds:
            assert step not in ALWAYS, f".ci/timings.json has no {step!r} step: .ci/run records it"
            continue
        minutes = stated_minutes(readme, step)
        if minutes is None:
            wrong.append(f"{step}: recorded {seconds[step]:g} s, and the README states no time ({STATED[step]!r})")
        elif off(minutes, seconds[step]):
            wrong.append(f"{step}: the README states {minutes:g} min, .ci/run measured {seconds[step] / 60:.1f} min "
                         f"({seconds[step]:g} s, {recorded.get('date')}, commit {str(recorded.get('commit'))[:10]})")
    assert not wrong, "the README's times are off by more than 50 % (update it from .ci/timings.json):\n" + \
        "\n".join(wrong)


@pytest.mark.parametrize("step", ALWAYS)
def test_recorded_steps_are_positive(step):
    if not TIMINGS.is_file():
        pytest.skip("no .ci/timings.json (test_readme_states_the_times_dotci_run_measured fails and says so)")
    assert json.loads(TIMINGS.read_text(encoding="utf-8"))["seconds"][step] > 0
