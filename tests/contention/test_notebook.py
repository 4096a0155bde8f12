"""The contention teaching notebook runs headless, shows its figures and its exercises are right.

Every expected value here is computed independently of the notebook (from the formulas of the paper
with literal parameters, or by running the simulator in the test).
"""

import re
from pathlib import Path

import numpy as np
import pytest

from hetopt.testing import check_notebook_figures, notebook_answer, notebook_errors, notebook_text, run_notebook

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "contention.ipynb"


@pytest.fixture(scope="module")
def nb():
    return run_notebook(NOTEBOOK, timeout=180)


def test_runs_with_figures_and_no_backend_call(nb):
    assert check_notebook_figures(nb, min_count=3) >= 3
    assert not any("matplotlib.use" in c.source for c in nb.cells)
    assert not notebook_errors(nb)


def test_model_mapping_printed_from_the_built_model(nb):
    out = notebook_text(nb)
    for eq, comp in [("(6)", "total_jct"), ("(S1)", "start_once"), ("(S3)", "gpu_capacity"),
                     ("(S4)", "network_capacity"), ("(S5)", "completion")]:
        assert re.search(rf"{re.escape(eq)}\s+-> {comp}\s", out), comp
    assert "fluid simulation equals eq. (5): True" in out
    assert "gain appears only with the published accounting: True" in out


def test_contention_happens_and_changes_the_jcts(nb):
    from hetopt.claims.contention.runs import FAST_SCALE, workload
    from hetopt.contention import simulate

    w = workload(FAST_SCALE)
    ada, s1 = simulate(w, "ada_srsf").jct, simulate(w, "srsf1").jct
    differ = int(np.sum(~np.isclose(ada, s1)))
    assert differ > 0  # the workload of the notebook is one where the policies differ
    assert f"jobs whose JCT differs between Ada-SRSF and SRSF(1): {differ}" in notebook_text(nb)
    # the small Gantt workload: AdaDUAL both accepts and refuses contention, SRSF(1) never stretches
    assert re.search(r"started next to a running task [1-9]\d* times, waited [1-9]\d* times", notebook_text(nb))
    assert re.search(r"SRSF\(1\) .* stretched\s+0 ", notebook_text(nb))


def test_certificate_and_claims(nb):
    out = notebook_text(nb)
    m = re.search(r"certified optimum ([\d.]+) s \(optimal.*\n.*SRSF\(1\) ([\d.]+) s", out)
    assert m and float(m.group(2)) >= float(m.group(1))  # a contention-free heuristic never beats the optimum
    cross = re.search(r"cross-checks: SCIP ([\d.]+) \(optimal\), HiGHS without the bound's windows ([\d.]+) \(optimal\)",
                      out)
    assert cross and float(cross.group(1)) == float(cross.group(2)) == float(m.group(1))
    assert "verdict fails-paper-error (recorded fails-paper-error)" in out
    assert re.search(r"^mine\s+user\s+total JCT of the jobs \(s\)\s+feasible\s", out, re.M)  # checked by compare
    # validate_ratio: SRSF(1) against the contention-free optimum, Ada-SRSF against the contention-aware bound
    assert re.search(r"^srsf1\s+total JCT\s+49\.0 .*\(contention-free optimum, proven True\)", out, re.M)
    assert re.search(r"^ada_srsf\s+total JCT\s+44\.2 .*\(contention-aware bound, proven True\)", out, re.M)


def test_exercises(nb):
    a, b, eta = 6.69e-4, 8.56e-4, 2.35e-4
    assert notebook_answer(nb, "answer_1") == pytest.approx(a + 3 * b * 200 + (3 - 1) * eta * 200)
    assert notebook_answer(nb, "answer_2") is (150 / 400 < b / (2 * (b + eta)))
    # Theorem 1: smaller first, larger right after: T1 = b M1, T2 = b (M1 + M2)
    assert notebook_answer(nb, "answer_3") == pytest.approx((1e-3 * 100 + 1e-3 * 400) / 2)


def test_card_plugin_example_runs():
    """The card's plug-in example runs and its schedule passes the checker (asserted in the example)."""
    card = (Path(__file__).resolve().parents[2] / "models" / "wang2019-contention.md").read_text()
    section = card.split("## Plug-in protocol", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    scope: dict = {}
    exec(compile(code, "wang2019-contention.md", "exec"), scope)
    assert len(scope["sol"].jct) == 16

