"""Every teaching notebook runs headless, shows its figures, and what it prints and answers is right.

Each notebook is executed once per session (the ``executed_notebook`` fixture of ``conftest.py``,
cached by name, shared with ``tests/test_duality_notebook.py``). The first test runs for every
notebook; the others are one paper's checks, named ``test_<paper>_...``. Every expected value is
computed here independently of the notebook: from the paper's formulas with literal numbers, from
the bundled JSON with plain numpy / itertools, by scipy's LP solver, or by running the simulator
in the test. Whether the stored notebooks are their generators' output is ``tests/test_notebooks.py``.
"""

import itertools
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from hetopt.testing import check_notebook_figures, notebook_answer, notebook_errors, notebook_text

ROOT = Path(__file__).resolve().parents[1]
#: The least number of figures each notebook shows, as its generator records it (metadata "hetopt").
FIGURES = {p.stem: json.loads(p.read_text(encoding="utf-8"))["metadata"]["hetopt"]["min_figures"]
           for p in sorted((ROOT / "notebooks").glob("*.ipynb"))}


def test_every_notebook_records_its_papers_and_figures():
    from hetopt.registry import names

    for p in (ROOT / "notebooks").glob("*.ipynb"):
        meta = json.loads(p.read_text(encoding="utf-8"))["metadata"]["hetopt"]
        assert meta["min_figures"] >= 1 and set(meta["papers"]) <= set(names()), p.name


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_runs_with_figures_and_no_backend_call(executed_notebook, name):
    nb = executed_notebook(name)
    assert not notebook_errors(nb)
    assert check_notebook_figures(nb, min_count=FIGURES[name]) >= FIGURES[name]
    # the kernel's inline backend shows the figures: a notebook neither picks a backend nor closes them
    assert not any("matplotlib.use" in c.source or "plt.close" in c.source for c in nb.cells)


@pytest.fixture
def contention(executed_notebook):
    return executed_notebook("contention")


@pytest.fixture
def gavel(executed_notebook):
    return executed_notebook("gavel")


@pytest.fixture
def hadar(executed_notebook):
    return executed_notebook("hadar")


def _answers(nb):
    return {k: notebook_answer(nb, k) for k in ("answer_1", "answer_2", "answer_3")}


# -- contention (Wang et al.) ------------------------------------------------------------------

def test_contention_model_mapping_printed_from_the_built_model(contention):
    out = notebook_text(contention)
    for eq, comp in [("(6)", "total_jct"), ("(S1)", "start_once"), ("(S3)", "gpu_capacity"),
                     ("(S4)", "network_capacity"), ("(S5)", "completion")]:
        assert re.search(rf"{re.escape(eq)}\s+-> {comp}\s", out), comp
    assert "fluid simulation equals eq. (5): True" in out
    assert "gain appears only with the published accounting: True" in out


def test_contention_happens_and_changes_the_jcts(contention):
    from hetopt.contention import simulate
    from hetopt.contention.experiments.runs import FAST_SCALE, workload

    w = workload(FAST_SCALE)
    ada, s1 = simulate(w, "ada_srsf").jct, simulate(w, "srsf1").jct
    differ = int(np.sum(~np.isclose(ada, s1)))
    assert differ > 0  # the workload of the notebook is one where the policies differ
    assert f"jobs whose JCT differs between Ada-SRSF and SRSF(1): {differ}" in notebook_text(contention)
    # the small Gantt workload: AdaDUAL both accepts and refuses contention, SRSF(1) never stretches
    assert re.search(r"started next to a running task [1-9]\d* times, waited [1-9]\d* times", notebook_text(contention))
    assert re.search(r"SRSF\(1\) .* stretched\s+0 ", notebook_text(contention))


def test_contention_certificate_and_claims(contention):
    out = notebook_text(contention)
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


def test_contention_exercises(contention):
    a, b, eta = 6.69e-4, 8.56e-4, 2.35e-4
    assert notebook_answer(contention, "answer_1") == pytest.approx(a + 3 * b * 200 + (3 - 1) * eta * 200)
    assert notebook_answer(contention, "answer_2") is (150 / 400 < b / (2 * (b + eta)))
    # Theorem 1: smaller first, larger right after: T1 = b M1, T2 = b (M1 + M2)
    assert notebook_answer(contention, "answer_3") == pytest.approx((1e-3 * 100 + 1e-3 * 400) / 2)


# -- Gavel -------------------------------------------------------------------------------------

def test_gavel_model_mechanism_and_certificate(gavel):
    out = notebook_text(gavel)
    for label in ("(G1) max-min fairness", "(G2) max-min fairness", "(G3) max-min fairness", "(G4) z is below",
                  "(G5) every job finishes"):
        assert label in out
    assert re.search(r"round 1: J\d->", out)
    assert "strong duality: True" in out
    assert "solve_exact: optimal" in out  # the certified makespan: feasible allocation meets the dual bound
    assert "checker ok False" not in out and out.count("checker ok True") == 4
    weak = re.findall(r"weak duality: .* scores ([\d.]+) <= dual bound ([\d.]+): (\w+)", out)
    assert len(weak) == 5 and all(flag == "True" and float(a) <= float(b) + 1e-4 for a, b, flag in weak)
    assert "verdict reproduced (recorded reproduced)" in out
    # the user policy, checked by compare, ranked by the simulated methods' objective
    assert re.search(r"^mine\s+user\s+average JCT \(s\) of the simulated rounds\s+feasible\s", out, re.M)


def test_gavel_exercises(gavel):
    from scipy.optimize import linprog

    # exercise 1: max z s.t. z <= A_j . X_j, sum_r X_jr <= 1, sum_j s_j X_jr <= c_r, X >= 0, variables (X00, X01,
    # X10, X11, z); A_jr = s_j T_jr / (T_j . c / C)
    T, s, c = np.array([[2.0, 1.0], [2.0, 1.0]]), np.array([1.0, 2.0]), np.array([2.0, 2.0])
    A = T * (s / (T @ (c / c.sum())))[:, None]
    A_ub = [[-A[0, 0], -A[0, 1], 0, 0, 1], [0, 0, -A[1, 0], -A[1, 1], 1], [1, 1, 0, 0, 0], [0, 0, 1, 1, 0],
            [s[0], 0, s[1], 0, 0], [0, s[0], 0, s[1], 0]]
    b_ub = [0, 0, 1, 1, c[0], c[1]]
    lp = linprog([0, 0, 0, 0, -1], A_ub=A_ub, b_ub=b_ub, bounds=[(0, None)] * 4 + [(None, None)], method="highs")
    assert notebook_answer(gavel, "answer_1") == pytest.approx(-lp.fun, abs=1e-6)
    # exercise 2: priorities X / share on type 0: job 0 has 0.5 / 0.25 = 2, job 1 has 1 / 0.75 = 1.33
    assert notebook_answer(gavel, "answer_2") == int(np.argmax([0.5 / 0.25, 1.0 / 0.75]))
    # exercise 3: the makespan is the slowest job's steps over its throughput on its type
    assert notebook_answer(gavel, "answer_3") == pytest.approx(max(3600 / 10, 7200 / 4))


# -- Hadar -------------------------------------------------------------------------------------

def test_hadar_model_duality_and_certificate(hadar):
    out = notebook_text(hadar)
    for eq, comp in [("(1)", "total_utility"), ("(1a)", "iterations_complete"), ("(1b)", "bottleneck_throughput"),
                     ("(1d)", "capacity"), ("(1e)", "gang")]:
        assert re.search(rf"{re.escape(eq)}\s+-> {comp}\s", out), comp
    assert "strong duality P2-LP = P3: True" in out
    assert "every ratio proven and within 2 alpha: True" in out
    assert re.search(r"beam_width=1: .* proven True, holds False", out)  # the greedy pass breaks Theorem 2
    assert "verdict fails-outside-premise (recorded fails-outside-premise)" in out


def test_hadar_round_walkthrough_and_forking(hadar):
    out = notebook_text(hadar)
    assert re.search(r"J1 \(W = 3\).*\n.*utility [\d.]+ - cost [\d.]+ = payoff [\d.]+", out)
    assert "copy of J1" in out and "copy of J2" in out
    # the text after the user-policy figure rests on these two outcomes
    assert "lowest mean JCT: mine (SRTF, fastest type);  shortest total duration: hadare" in out


def test_hadar_exercises(hadar):
    u_min, u_max = 0.01, 10.0
    assert notebook_answer(hadar, "answer_1") == pytest.approx(u_min * math.sqrt(u_max / u_min))
    assert notebook_answer(hadar, "answer_2") == pytest.approx(2 * math.log(1000.0))
    assert notebook_answer(hadar, "answer_3") == pytest.approx(3 * 10 * 360)  # the gang runs at its K80's speed


# -- Hare --------------------------------------------------------------------------------------

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


def test_hare_exercise_answers(executed_notebook):
    """Recomputed from the data with plain Python (enumeration), without hetopt."""
    ans = _answers(executed_notebook("hare"))
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


def test_hare_section7_legend_clear_of_the_bars_and_the_paper_band(monkeypatch):
    """Section 7's bar chart, drawn by the notebook's own cell on bars that fill the paper's band.

    Every setting of the sweep (the real labels) has bars from below 0 through the band to above
    it, so a legend inside the axes would cover the band or a bar: it stands outside, whole.
    """
    import runpy
    import sys
    import types

    import matplotlib.pyplot as plt

    from hetopt.hare.experiments.sweeps import ONE_BATCH, settings

    monkeypatch.syspath_prepend(str(ROOT / "notebooks" / "generate"))
    sys.modules.pop("nbgen", None)
    cells = runpy.run_path(str(ROOT / "notebooks" / "generate" / "hare.py"), run_name="generator")["CELLS"]
    (cell,) = [src for kind, src in cells if kind == "code" and "ax.axhspan(47.6, 75.3" in src]
    rows = [(label, "algorithm1", -20.0, 50.0, 70.0, 90.0, False) for label in [*settings(), ONE_BATCH]]
    sweep = types.SimpleNamespace(run=lambda quick: types.SimpleNamespace(rows=rows))
    monkeypatch.setattr(plt, "show", lambda *a, **k: None)
    scope = {"plt": plt, "np": np, "get_sweep": lambda name: sweep}
    exec(compile(cell, "notebooks/generate/hare.py", "exec"), scope)  # noqa: S102 - the notebook's cell
    fig, ax = scope["fig"], scope["ax"]
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        legend = ax.get_legend().get_window_extent(renderer)
        (band,) = [p for p in ax.patches if p.get_label().startswith("paper:")]
        bars = [p for p in ax.patches if p is not band]
        assert len(bars) == 4 * len(rows)
        assert not legend.overlaps(band.get_window_extent(renderer)), "the legend covers the paper's band"
        assert not any(legend.overlaps(b.get_window_extent(renderer)) for b in bars), "the legend covers a bar"
        assert fig.bbox.contains(legend.x0, legend.y0) and fig.bbox.contains(legend.x1, legend.y1), \
            "the legend is cut off by the figure's edge"
    finally:
        plt.close(fig)


# -- OASiS -------------------------------------------------------------------------------------

def test_oasis_exercise_answers(executed_notebook):
    """Recomputed from the bundled JSON by hand (formulas (2), (22) and the table utility), without hetopt."""
    ans = _answers(executed_notebook("oasis"))
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


# -- placement (Liu et al.) --------------------------------------------------------------------

def test_placement_exercise_answers(executed_notebook):
    """Recomputed from the bundled JSON with plain numpy / itertools, without hetopt."""
    ans = _answers(executed_notebook("placement"))
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
