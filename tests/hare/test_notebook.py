"""Execute notebooks/hare.ipynb and check its figures and its exercises' answers.

The answers are recomputed here from the data with plain Python (enumeration), without hetopt.
"""

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from hetopt.testing import check_notebook_figures, notebook_answer, notebook_errors, run_notebook

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "hare.ipynb"


def best_single_task_schedule(tc, w):
    """min sum w C over every GPU assignment and every order per GPU (single-task jobs at time 0, no sync)."""
    n, g = len(tc), len(tc[0])
    best = float("inf")
    for gpus in itertools.product(range(g), repeat=n):
        for order in itertools.permutations(range(n)):
            t, total = [0.0] * g, 0.0
            for j in order:  # jobs in this global order; each GPU runs its jobs back to back
                t[gpus[j]] += tc[j][gpus[j]]
                total += w[j] * t[gpus[j]]
            best = min(best, total)
    return best


@pytest.fixture(scope="module")
def executed():
    return run_notebook(NOTEBOOK, timeout=300)


def test_notebook_runs_with_figures(executed):
    assert not notebook_errors(executed)
    assert check_notebook_figures(executed, min_count=3) >= 5


def test_exercise_answers(executed):
    ans = {k: notebook_answer(executed, k) for k in ("answer_1", "answer_2", "answer_3")}
    d = json.loads((ROOT / "instances" / "hare2022_fig1.json").read_text())
    tc, ts = np.array(d["compute_time"], dtype=float), np.array(d["sync_time"], dtype=float)
    ratios = list(tc.max(axis=1) / tc.min(axis=1))
    ratios += [hi / lo for hi, lo in zip(ts.max(axis=1), ts.min(axis=1), strict=True) if hi > 0]  # Lemma 3; zero sync adds none
    a = max(ratios)
    assert ans["answer_1"] == pytest.approx(a * (2 + a), rel=1e-12)
    assert ans["answer_2"] == pytest.approx(best_single_task_schedule([[2.0], [1.0]], [100, 1]), rel=1e-9)
    assert ans["answer_2"] == pytest.approx(203.0)  # Smith's rule by hand: heavy job first, 100 * 2 + 1 * 3
    assert ans["answer_3"] == pytest.approx(
        best_single_task_schedule([[1.0, 3.0], [2.0, 2.0], [4.0, 1.0]], [1, 2, 1]), rel=1e-9)
