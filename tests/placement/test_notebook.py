"""Execute notebooks/placement.ipynb and check its figures and its exercises' answers.

The answers are recomputed here from the bundled JSON with plain numpy / itertools, without hetopt.
"""

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from hetopt.testing import check_notebook_figures, notebook_answer, notebook_errors, run_notebook

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "placement.ipynb"


@pytest.fixture(scope="module")
def executed():
    return run_notebook(NOTEBOOK, timeout=300)


def test_notebook_runs_with_figures(executed):
    assert not notebook_errors(executed)
    assert check_notebook_figures(executed, min_count=3) >= 5


def test_exercise_answers(executed):
    ans = {k: notebook_answer(executed, k) for k in ("answer_1", "answer_2", "answer_3")}
    d = json.loads((ROOT / "instances" / "liu2024_table2.json").read_text())
    rho = np.array(d["throughput"], dtype=float)
    work = np.array(d["epochs"], dtype=float) * np.array(d["dataset_size"], dtype=float)
    # 1: proportional split (12): JCT_i = T_i |Pi_i| / sum of the job's throughputs; no model size, no communication
    a = [0, 0, 1, 1]
    jct = [work[i] / sum(rho[i, k] for k in range(4) if a[k] == i) for i in range(2)]
    assert ans["answer_1"] == pytest.approx(np.mean(jct), rel=1e-12)
    # 2: compositions of 30 into 4 positive parts, by stars and bars
    assert ans["answer_2"] == math.comb(29, 3) == 3654
    # 3: P3 for category (2, 2) by enumerating every choice of job 0's two workers
    best = max(rho[0, list(c)].sum() + rho[1, [k for k in range(4) if k not in c]].sum()
               for c in itertools.combinations(range(4), 2))
    assert ans["answer_3"] == pytest.approx(best, rel=1e-9)
