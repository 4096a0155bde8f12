"""Execute notebooks/oasis.ipynb and check its figures and its exercises' answers.

The answers are recomputed here from the bundled JSON by hand (formulas (2), (22) and the table utility),
without hetopt.
"""

import json
import math
from pathlib import Path

import pytest

from hetopt.testing import check_notebook_figures, run_notebook

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "oasis.ipynb"


def notebook_answers(nb):
    for cell in nb.cells:
        for out in cell.get("outputs", []) if cell.cell_type == "code" else []:
            for line in out.get("text", "").splitlines():
                if line.startswith("ANSWERS "):
                    return json.loads(line[len("ANSWERS "):])
    raise AssertionError("the notebook printed no ANSWERS line")


@pytest.fixture(scope="module")
def executed():
    return run_notebook(NOTEBOOK, timeout=300)


def test_notebook_runs_with_figures(executed):
    errors = [o for c in executed.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    assert check_notebook_figures(executed, min_count=3) >= 5


def test_stored_without_outputs_and_no_backend_call():
    raw = json.loads(NOTEBOOK.read_text())
    code = [c for c in raw["cells"] if c["cell_type"] == "code"]
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in code)
    assert not any("matplotlib.use" in "".join(c["source"]) for c in code)


def test_exercise_answers(executed):
    ans = notebook_answers(executed)
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
