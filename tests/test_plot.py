"""hetopt.plot: every chart draws the schedule it is given, with labelled axes, legends and colorbars.

Expected bars are derived from the solutions' own arrays (start times, slots, rounds, traces),
never from the plotting code; a drawn interval is recovered from the bar collections' paths.
"""

from __future__ import annotations

import doctest
import math
import sys

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")

import hetopt  # noqa: E402
import hetopt.plot as hp  # noqa: E402
from hetopt.hadar.experiments import plot as hadar_plot  # noqa: E402
from hetopt.hare.experiments import plot as hare_plot  # noqa: E402
from hetopt.oasis.experiments import plot as oasis_plot  # noqa: E402
from hetopt.report import Table  # noqa: E402
from hetopt.validate import ratio_certificate  # noqa: E402


@pytest.fixture(autouse=True)
def agg_backend(monkeypatch):
    """Agg backend; plt.show() must never be called; every figure closed afterwards."""
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    def no_show(*args, **kwargs):
        raise AssertionError("hetopt.plot called plt.show()")

    monkeypatch.setattr(plt, "show", no_show)
    yield
    plt.close("all")


def bars(ax, gid):
    """(row centre, left, right) of every bar in the collections with ``gid``, sorted."""
    out = []
    for coll in ax.collections:
        if coll.get_gid() != gid:
            continue
        for path in coll.get_paths():
            v = path.vertices
            out.append((round(float((v[:, 1].min() + v[:, 1].max()) / 2), 9), float(v[:, 0].min()),
                        float(v[:, 0].max())))
    return sorted(out)


def assert_labelled(ax, legend=True):
    assert ax.get_xlabel() and ax.get_ylabel()
    assert "[" in ax.get_xlabel() + ax.get_ylabel() or "(" in ax.get_xlabel() + ax.get_ylabel()
    assert (ax.get_legend() is not None) is legend
    assert ax.collections or ax.lines or ax.images or ax.patches


def integer_ticks(locs):
    return all(float(x).is_integer() for x in locs)


# --------------------------------------------------------------------------------------- Hare

@pytest.fixture(scope="module")
def hare_case():
    inst = hetopt.load_instance("hare2022_fig1")
    from hetopt.hare import gavel_fifo

    return inst, gavel_fifo(inst)


def test_hare_gantt_bars_are_the_tasks(hare_case):
    inst, sol = hare_case
    ax = hp.gantt(inst, sol)
    got = bars(ax, "compute")
    want = sorted((float(sol.gpu[i]), float(sol.start[i]), float(sol.compute_end[i])) for i in range(inst.n_tasks))
    assert len(got) == inst.n_tasks
    np.testing.assert_allclose(np.array(got), np.array(want))
    sync = bars(ax, "sync")
    assert len(sync) == int(np.sum(sol.sync_end > sol.compute_end))
    assert_labelled(ax)
    assert ax.get_xlabel() == "time [s]"
    assert integer_ticks(ax.get_yticks()) and [t.get_text() for t in ax.get_yticklabels()] == list(inst.gpu_names)


def test_hare_gantt_simulation_result_and_units(hare_case):
    inst, sol = hare_case
    from hetopt.hare import replay

    res = replay(sol, switch_overhead=0.5)
    ax = hare_plot.gantt(inst, res, time_unit="min")
    want = sorted((float(res.executed.gpu[i]), res.executed.start[i] / 60, res.executed.compute_end[i] / 60)
                  for i in range(inst.n_tasks))
    np.testing.assert_allclose(np.array(bars(ax, "compute")), np.array(want))
    assert ax.get_xlabel() == "time [min]"
    with pytest.raises(ValueError, match="time_unit"):
        hare_plot.gantt(inst, sol, time_unit="days")


def test_gantt_draws_into_given_axes_and_rejects_wrong_inputs(hare_case):
    import matplotlib.pyplot as plt

    inst, sol = hare_case
    fig, ax = plt.subplots()
    assert hp.gantt(inst, sol, ax) is ax
    with pytest.raises(hetopt.ArgumentError):
        hp.gantt("hare2022_fig1", sol)
    with pytest.raises(TypeError, match="HareSolution"):
        hp.gantt(inst, [1, 2, 3])
    with pytest.raises(TypeError, match="Axes"):
        hp.gantt(inst, sol, ax="not an axes")


def test_missing_matplotlib_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r'pip install "hetopt\[plot\]"'):
        hp.jct_cdf({"a": [1.0, 2.0]})


def test_gantt_docstring_example():
    res = doctest.testmod(sys.modules["hetopt.plot.gantt"])
    assert res.attempted > 0 and res.failed == 0


# -------------------------------------------------------------------------------------- OASiS

@pytest.fixture(scope="module")
def oasis_case():
    from hetopt.oasis import fig5_setting, simulate

    inst = fig5_setting(seed=0)
    return inst, simulate(inst, "oasis")


def test_oasis_gantt_bars_are_the_busy_slots(oasis_case):
    inst, sol = oasis_case
    ax = hp.gantt(inst, sol)
    want = sorted((float(i), t + 1 - 0.5, t + 1 + 0.5) for i, s in sol.schedules.items()
                  for t in range(inst.horizon) if s.workers[:, t].sum() > 0)
    got = bars(ax, "slot")
    assert len(got) == len(want) > 0
    np.testing.assert_allclose(np.array(got), np.array(want))
    assert_labelled(ax)
    assert integer_ticks(ax.get_yticks()) and integer_ticks(ax.get_xticks())


def test_oasis_allocation_heatmap(oasis_case):
    inst, sol = oasis_case
    job = sol.admitted[0]
    ax = oasis_plot.allocation_heatmap(inst, sol, job=job)
    im = ax.images[0]
    assert im.colorbar is not None and im.colorbar.ax.get_ylabel()
    y = sol.schedules[job].workers
    busy = np.flatnonzero(y.sum(axis=0) > 0)
    c0, c1 = min(int(inst.arrival[job]) - 1, int(busy[0])), int(busy[-1]) + 1
    np.testing.assert_array_equal(np.asarray(im.get_array()), y[:, c0:c1])
    assert integer_ticks(ax.get_yticks()) and integer_ticks(ax.get_xticks())
    assert_labelled(ax, legend=False)
    full = oasis_plot.allocation_heatmap(inst, sol, crop=False, side="ps")
    total = sum(s.ps for s in sol.schedules.values())
    np.testing.assert_array_equal(np.asarray(full.images[0].get_array()), total)
    assert full.images[0].colorbar is not None
    with pytest.raises(ValueError, match="admitted"):
        oasis_plot.allocation_heatmap(inst, sol, job=-1)
    with pytest.raises(ValueError, match="side"):
        oasis_plot.allocation_heatmap(inst, sol, side="gpus")


def test_oasis_price_curve_is_eq22(oasis_case):
    inst, _ = oasis_case
    from hetopt.oasis import price, price_bounds

    b = price_bounds(inst)
    ax = oasis_plot.price_curve(inst)
    assert len(ax.lines) == inst.n_resources
    assert ax.get_yscale() == "log" and "[" in ax.get_ylabel() and "[" in ax.get_xlabel()
    for r, line in enumerate(ax.lines):
        u, p = line.get_data()
        np.testing.assert_allclose(p, price(b.log_L1, b.log_U1[r], u, 1.0), rtol=1e-9)
    assert ax.get_legend() is not None


def test_price_curve_in_logarithms_when_prices_overflow():
    from hetopt.oasis.prices import PriceBounds

    b = PriceBounds(np.array([0.0, 1600.0]), np.array([0.0, 5.0]), -10.0, -10.0)
    ax = oasis_plot.price_curve(b)
    assert ax.get_ylabel().startswith("ln(") and ax.get_yscale() == "linear"
    u, lp = ax.lines[1].get_data()
    np.testing.assert_allclose(lp, -10.0 + u * 1610.0)


def test_hadar_price_curve_runs_from_umin_to_umax():
    from hetopt.hadar import motivating_example, price_parameters

    inst = motivating_example()
    p = price_parameters(inst)
    ax = hadar_plot.price_curve(inst)
    u, k = ax.lines[0].get_data()
    assert math.isclose(k[0], p.u_min, rel_tol=1e-9) and math.isclose(k[-1], p.u_max, rel_tol=1e-9)
    caps = sorted(set(int(c) for c in np.asarray(inst.capacity).ravel() if c > 0))
    assert len(ax.lines) == 1 + min(len(caps), 4)
    assert_labelled(ax, legend=len(ax.lines) > 1)


# -------------------------------------------------------------------------------- CDF and ratios

def test_jct_cdf_steps_through_sorted_jcts():
    data = {"A": np.array([3.0, 1.0, 2.0]), "B": [10.0, 5.0]}
    ax = hp.jct_cdf(data, time_unit="min")
    assert len(ax.lines) == 2
    x, f = ax.lines[0].get_data()
    np.testing.assert_allclose(x[1:], np.array([1.0, 2.0, 3.0]) / 60)
    np.testing.assert_allclose(f, [0.0, 1 / 3, 2 / 3, 1.0])
    assert ax.get_xlabel() == "job completion time [min]"
    assert_labelled(ax)
    one = hp.jct_cdf({"only": [1.0, 2.0]})
    assert one.get_legend() is None
    with pytest.raises(ValueError, match="results"):
        hp.jct_cdf({})
    with pytest.raises(ValueError, match="'bad'"):
        hp.jct_cdf({"bad": [1.0, math.nan]})


def test_jct_cdf_accepts_results_with_jct(hare_case):
    inst, sol = hare_case
    from hetopt.hare import replay

    res = replay(sol)
    ax = hp.jct_cdf({"gavel_fifo": res, "twice": 2 * res.jct})
    np.testing.assert_allclose(ax.lines[0].get_data()[0][1:], np.sort(res.jct))


def test_ratio_vs_bound_arrays_and_scalar_bound():
    ax = hp.ratio_vs_bound({"A": [1.2, 1.0, 1.5], "B": [1.1, 1.3, 1.0]}, 2.0, sort=True)
    a = ax.lines[0].get_data()[1]
    np.testing.assert_allclose(a, [1.0, 1.2, 1.5])
    bound_lines = [ln for ln in ax.lines if np.allclose(ln.get_ydata(), 2.0)]
    assert len(bound_lines) == 1
    assert_labelled(ax)
    assert ax.get_yscale() == "linear"


def test_ratio_vs_bound_certificates():
    certs = [ratio_certificate(10.0, 8.0, 2.0, proven=True),  # ratio 1.25, holds
             ratio_certificate(30.0, 10.0, 2.0, proven=True),  # ratio 3, violated
             ratio_certificate(9.0, 8.0, 2.0, proven=False)]  # reference not certified
    ax = hp.ratio_vs_bound(certs)
    labels = [ln.get_label() for ln in ax.lines]
    assert any("not certified" in s for s in labels) and "bound violated" in labels
    violated = ax.lines[labels.index("bound violated")]
    np.testing.assert_allclose(violated.get_data()[1], [3.0])
    assert any(np.allclose(ln.get_ydata(), 2.0) for ln in ax.lines)
    per_instance = [ratio_certificate(1.0, 1.0, lim, proven=True) for lim in (3.0, 300.0)]
    ax2 = hp.ratio_vs_bound(per_instance)
    marks = [ln for ln in ax2.lines if ln.get_marker() == "_"]
    assert len(marks) == 1 and np.allclose(marks[0].get_ydata(), [3.0, 300.0])
    assert ax2.get_yscale() == "log"
    with pytest.raises(ValueError, match="yscale"):
        hp.ratio_vs_bound([1.0], 2.0, yscale="sqrt")


# ------------------------------------------------------------------------ Hadar, contention, placement, Gavel

def test_hadar_gantt_rounds_and_exact_slots():
    from hetopt.hadar import motivating_example, simulate, solve_exact

    inst = motivating_example()
    res = simulate(inst, "hadar", restart_delay=0.0)
    ax = hp.gantt(inst, res)
    got = bars(ax, "round")
    assert len(got) == sum(int(r["allocation"].sum()) for r in res.rounds)
    want_starts = sorted(float(r["start"]) for r in res.rounds for _ in range(int(r["allocation"].sum())))
    assert sorted(b[1] for b in got) == pytest.approx(want_starts)
    assert all(b[2] - b[1] == pytest.approx(res.round_length) for b in got)
    n_gpus = int(np.asarray(inst.capacity).sum())
    assert len(ax.get_yticks()) == n_gpus and integer_ticks(ax.get_yticks())
    assert_labelled(ax, legend=inst.n_jobs > 1)
    opt = solve_exact(inst)
    ax2 = hp.gantt(inst, opt)
    assert len(bars(ax2, "round")) == int(opt.schedule.sum())


def test_contention_gantt_bars_are_the_trace():
    from hetopt.contention import generate_instance, simulate

    inst = generate_instance(seed=3, n_jobs=5, n_servers=2, iterations=(2, 4), arrival_window=1.0)
    sol = simulate(inst, "ada_srsf", record=True)
    ax = hp.gantt(inst, sol)
    fwd = sorted((float(r.where), r.start, r.end) for r in sol.trace if r.kind == "f")
    np.testing.assert_allclose(np.array(bars(ax, "forward")), np.array(fwd))
    assert len(bars(ax, "backward")) == sum(r.kind == "b" for r in sol.trace)
    ar = sorted((float(inst.n_total_gpus + s), r.start, r.end) for r in sol.trace if r.kind == "c" for s in r.where)
    np.testing.assert_allclose(np.array(bars(ax, "allreduce")), np.array(ar))
    assert_labelled(ax)
    with pytest.raises(ValueError, match="record=True"):
        hp.gantt(inst, simulate(inst, "ada_srsf", record=False))


def test_placement_gantt_and_throughput():
    inst = hetopt.load_instance("liu2024_table2")
    sol = hetopt.solve(inst, "las")
    ax = hp.gantt(inst, sol)
    want = sorted((float(k), 0.0, float(sol.jct[sol.assignment[k]])) for k in range(inst.n_workers))
    np.testing.assert_allclose(np.array(bars(ax, "busy")), np.array(want))
    assert_labelled(ax)
    rate_ax = ax.figure.axes[1]
    outline = [p for p in rate_ax.patches if p.get_gid() == "throughput"]
    np.testing.assert_allclose([p.get_height() for p in outline], sol.throughput)
    assert rate_ax.get_ylabel() == "throughput [samples/s]" and rate_ax.get_legend() is not None
    assert integer_ticks(rate_ax.get_xticks())


def test_gavel_gantt_rounds_and_allocation_heatmap():
    from hetopt.gavel import simulate

    inst = hetopt.load_instance("gavel2020_three_jobs")
    res = simulate(inst, "max_min_fairness")
    ax = hp.gantt(inst, res, time_unit="s")
    want = sorted((float(j), rd["start"], rd["end"]) for rd in res.rounds for j in rd["placement"])
    np.testing.assert_allclose(np.array(bars(ax, "round")), np.array(want))
    assert_labelled(ax)
    alloc = hetopt.solve(inst, "max_min_fairness")
    hm = hp.gantt(inst, alloc)
    assert hm.images[0].colorbar is not None
    np.testing.assert_allclose(np.asarray(hm.images[0].get_array()), alloc.allocation)
    assert integer_ticks(hm.get_xticks()) and integer_ticks(hm.get_yticks())


# ------------------------------------------------------------------------------------------ sweeps

def sweep_table():
    t = Table("toy sweep", ["h", "algorithm", "max slow/fast", "vs a [%]", "vs b [%]"])
    for alg in ("x", "y"):
        for h in (0, 1, 2):
            t.add(h, alg, 10.0 ** h, 10.0 * h + (alg == "y"), -5.0 * h)
    return t


def test_sweep_lines_by_group():
    t = sweep_table()
    ax = hp.sweep(t, x="h", y=["vs a [%]", "vs b [%]"], by="algorithm")
    assert len(ax.lines) == 4
    labels = [ln.get_label() for ln in ax.lines]
    assert labels == ["x: vs a", "x: vs b", "y: vs a", "y: vs b"]
    x, y = ax.lines[2].get_data()
    np.testing.assert_allclose(x, [0, 1, 2])
    np.testing.assert_allclose(y, [1.0, 11.0, 21.0])
    assert ax.get_xlabel() == "h" and ax.get_ylabel() == "value [%]"
    assert ax.get_legend() is not None
    one = hp.sweep(t, x="algorithm", y="vs a [%]")
    assert [tk.get_text() for tk in one.get_xticklabels()] == ["x", "y"]
    assert one.get_ylabel() == "vs a [%]" and one.get_legend() is None
    default = hp.sweep(t, by="algorithm")  # every numeric column but x and by
    assert len(default.lines) == 6
    with pytest.raises(ValueError, match="columns"):
        hp.sweep(t, x="nope")


@pytest.mark.slow
def test_sweep_of_a_ledger_sweep():
    from hetopt.claims import get_sweep

    t = get_sweep("hare.heterogeneity").run(quick=True)
    ys = [c for c in t.columns if c.startswith("vs ")]
    ax = hp.sweep(t, x="h", y=ys, by="algorithm")
    assert len(ax.lines) == len(ys) * len({r[1] for r in t.rows})
    assert_labelled(ax)


# ------------------------------------------------------------------------------- README and legacy

def test_readme_figures_example_runs(tmp_path, monkeypatch):
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = text.split("## Figures", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    assert (tmp_path / "hare_fig1.png").stat().st_size > 1000


def test_hare_gantt_through_the_one_entry_point(hare_case):
    from hetopt.plot import gantt

    inst, sol = hare_case
    ax = gantt(inst, sol, title="t")
    assert ax.get_title() == "t" and len(bars(ax, "compute")) == inst.n_tasks


def test_placement_gantt_of_a_simulation():
    from hetopt.placement import generate_instance, simulate

    inst = generate_instance(n_jobs=4, n_workers=8, seed=1)
    static = simulate(inst, "has", reset_on_completion=False)
    ax = hp.gantt(inst, static)
    first = static.events[0]["assignment"]
    want = sorted((float(k), 0.0, float(static.completion[first[k]])) for k in range(inst.n_workers))
    np.testing.assert_allclose(np.array(bars(ax, "busy")), np.array(want))
    dyn = simulate(inst, "has")
    ax = hp.gantt(inst, dyn)
    got = bars(ax, "busy")
    # every job's last bar ends at its completion; no worker runs two bars at once
    colors = {}
    for coll in ax.collections:
        if coll.get_gid() == "busy":
            for path in coll.get_paths():
                colors.setdefault(tuple(coll.get_facecolor()[0]), []).append(float(path.vertices[:, 0].max()))
    assert sorted(max(v) for v in colors.values()) == pytest.approx(sorted(dyn.completion))
    for k in range(inst.n_workers):
        row = sorted(b[1:] for b in got if b[0] == k)
        assert all(a[1] <= b[0] + 1e-9 for a, b in zip(row, row[1:]))
    assert_labelled(ax)


def test_charts_refuse_more_bars_than_max_bars():
    from hetopt.contention import generate_instance
    from hetopt.contention import simulate as contention_simulate
    from hetopt.gavel import simulate

    inst = generate_instance(seed=3, n_jobs=3, n_servers=2, iterations=(2, 3), arrival_window=1.0)
    sol = contention_simulate(inst, "ada_srsf", record=True)
    with pytest.raises(hetopt.SizeLimitError, match="max_bars"):
        hp.gantt(inst, sol, max_bars=len(sol.trace) - 1)
    g = hetopt.load_instance("gavel2020_three_jobs")
    res = simulate(g, "max_min_fairness")
    with pytest.raises(hetopt.SizeLimitError, match="max_bars"):
        hp.gantt(g, res, max_bars=1)


def test_ratio_vs_bound_of_hare_ratio_reports():
    import hetopt
    from hetopt.hare import ratio_report

    rep = ratio_report(hetopt.load_instance("hare2022_fig1"))
    ax = hp.ratio_vs_bound([rep])
    np.testing.assert_allclose(ax.lines[0].get_ydata(), [rep.vs_optimum.ratio])
    assert any(np.allclose(ln.get_ydata(), rep.vs_optimum.limit) for ln in ax.lines[1:])


def test_sweep_integer_x_gets_integer_ticks():
    ax = hp.sweep(sweep_table(), x="h", y="vs b [%]")
    assert integer_ticks(ax.get_xticks())


def test_importing_hetopt_plot_does_not_import_matplotlib():
    import subprocess

    code = "import sys, hetopt.plot; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_sweep_keeps_parenthesised_names_and_strips_units():
    from hetopt.plot.curves import _UNIT

    assert _UNIT.sub("", "450.6 / (1 + waiters)") == "450.6 / (1 + waiters)"
    assert _UNIT.sub("", "JCT (ms)") == "JCT"
    assert _UNIT.sub("", "vs srtf [%]") == "vs srtf"


def test_placement_panels_share_the_job_palette_and_name_the_method():
    """Both panels colour by job (one palette, one meaning), the title names the method, and every
    sample count is written the same way (no '2e+04' beside '7143')."""
    import matplotlib.colors as mcolors

    import hetopt.plot

    inst = hetopt.load_instance("liu2024_table2")
    sol = hetopt.solve(inst, "exact")
    ax = hetopt.plot.gantt(inst, sol)
    rate_ax = ax.figure.axes[1]
    assert ax.get_title().startswith("exact:"), ax.get_title()
    gantt_colors = {}
    for coll in ax.collections:
        if coll.get_gid() == "busy":
            for k, fc in enumerate(coll.get_facecolors()):
                gantt_colors.setdefault(mcolors.to_hex(fc), True)
    rate_colors = {mcolors.to_hex(p.get_facecolor()) for p in rate_ax.patches if p.get_gid() == "worker_rate"}
    assert rate_colors and rate_colors <= set(gantt_colors), (rate_colors, gantt_colors)
    labels = [t.get_text() for t in ax.texts if t.get_text().endswith("samples")]
    assert labels and all("e+" not in t and "e-" not in t for t in labels), labels


def test_an_infinite_bound_is_shown_not_dropped():
    import math

    import hetopt.plot
    from hetopt.result import Certificate

    certs = [Certificate(name="r", value=2.0, reference=1.0, ratio=2.0, limit=math.inf, proven=True),
             Certificate(name="r", value=3.0, reference=1.0, ratio=3.0, limit=4.0, proven=True, holds=True)]
    ax = hetopt.plot.ratio_vs_bound(certs)
    assert any(t.get_text() == "bound = inf" for t in ax.texts)
    assert any("= inf" in t.get_text() for t in ax.get_legend().get_texts())
