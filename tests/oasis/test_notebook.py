"""Execute notebooks/oasis.ipynb and check its figures and its exercises' answers.

The answers are recomputed here from the bundled JSON by hand (formulas (2), (22) and the table utility),
without hetopt.
"""

import json
import math
from pathlib import Path

import pytest

from hetopt.testing import check_notebook_figures, notebook_answer, notebook_errors, run_notebook

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "oasis.ipynb"


@pytest.fixture(scope="module")
def executed():
    return run_notebook(NOTEBOOK, timeout=300)


def test_notebook_runs_with_figures(executed):
    assert not notebook_errors(executed)
    assert check_notebook_figures(executed, min_count=3) >= 5


def test_exercise_answers(executed):
    ans = {k: notebook_answer(executed, k) for k in ("answer_1", "answer_2", "answer_3")}
    # 1: (22) p = L (U / L)^(g / c) with L = 0.5, U = 200, g / c = 1/4: 0.5 * 400^(1/4) = 0.5 * sqrt(20)
    assert ans["answer_1"] == pytest.approx(0.5 * math.sqrt(20.0), rel=1e-12)
    d = json.loads((ROOT / "instances" / "oasis2018_theorem4_in_premise.json").read_text())
    E, N, M = d["epochs"][0], d["chunks"][0], d["minibatches"][0]
    tau, e = d["minibatch_time"][0], d["gradient_size"][0]
    assert e == 0.0  # no communication term, so b_i is not needed
    per_slot = E * M * tau  # (2) per chunk, in slots, with N_i workers each training one chunk at a time
    assert ans["answer_2"] == math.ceil(per_slot - 1e-9) == 3
    # 3: workload E N M tau = 30 worker-slots; at most N = 10 workers per slot (3) and capacity 100 >> 10:
    # the earliest completion is arrival + 3 - 1, utility f(completion - arrival) from the table
    workload = E * N * M * tau
    slots = math.ceil(workload / N - 1e-9)
    values = d["utility"][0]["values"]
    assert ans["answer_3"] == pytest.approx(max(values[slots - 1:]), rel=1e-9)
