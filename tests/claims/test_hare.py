"""Hare's claims module: its sweeps run (quick mode) and show the effects the ledger's diagnoses cite."""

import numpy as np
import pytest

from hetopt.claims import get_sweep
from hetopt.cli import main
from hetopt.errors import HetoptError
from hetopt.hare import HareInstance, check_schedule, gavel_fifo
from hetopt.hare.experiments.paper import FIG1_MAKESPAN, FIG1_TOTAL, PAPER_RANGE
from hetopt.hare.experiments.section7 import (
    OLD_SETTING,
    PAPER_SETTING,
    Setting,
    compare,
    reductions,
    section7_workload,
    weighted_jct,
)
from hetopt.hare.experiments.sweeps import BASELINE_NAMES, causes_reductions, settings


# ---------------------------------------------------------------- the Section 7 comparison (moved from hetopt.hare)
def test_weighted_jct_by_hand():
    tiny = HareInstance(arrival=[0.0, 0.5], weight=[1.0, 2.0], rounds=[2, 1], tasks_per_round=[1, 2],
                        compute_time=[[1.0, 2.0], [3.0, 1.5]], sync_time=[[0.25, 0.5], [0.0, 0.0]])
    # Gavel FIFO on tiny: C = (2.5, 5.5), a = (0, 0.5), w = (1, 2): sum w C = 13.5, sum w (C - a) = 12.5
    sol = gavel_fifo(tiny)
    assert weighted_jct(sol, "completion") == pytest.approx(check_schedule(tiny, sol).raise_if_invalid().objective) == pytest.approx(13.5)
    assert weighted_jct(sol) == pytest.approx(12.5)
    with pytest.raises(HetoptError, match="metric"):
        weighted_jct(sol, "makespan")


def test_setting_validation_names_the_field():
    with pytest.raises(HetoptError, match="metric"):
        Setting(metric="C")
    with pytest.raises(HetoptError, match="switch_overhead"):
        Setting(switch_overhead=float("nan"))
    assert PAPER_SETTING.baselines()["srtf"] == "srtf" and OLD_SETTING.baselines()["srtf"] == "srtf_round"
    assert OLD_SETTING.baselines()["sched_allox"] == "sched_allox_offline"


def test_compare_without_overhead_equals_the_plans():
    inst = section7_workload(seed=0, n_jobs=12)
    plans = {}
    setting = Setting(switch_overhead=0.0)
    v = compare(inst, setting, plans=plans)
    assert set(v) >= {"algorithm1", "algorithm1_esf", "algorithm1_ef", "gavel_fifo", "srtf", "sched_homo",
                      "sched_allox"}
    for name in ("algorithm1", "gavel_fifo", "sched_allox"):
        assert v[name] == pytest.approx(weighted_jct(plans[name]), rel=1e-9)
    with_overhead = compare(inst, Setting(switch_overhead=0.05), plans=plans)
    assert with_overhead["algorithm1"] > v["algorithm1"]
    red = reductions(v)
    assert red["gavel_fifo"] == pytest.approx(1 - v["algorithm1"] / v["gavel_fifo"])


def test_fig1_schedules_match_the_printed_numbers():
    from hetopt.hare import check_schedule, solve_exact
    from hetopt.hare.experiments.fig1 import fig1_instance, fig1_schedule_a, fig1_schedule_b

    inst = fig1_instance()
    for which, sol in (("a", fig1_schedule_a(inst)), ("b", fig1_schedule_b(inst)), ("c", solve_exact(inst))):
        assert check_schedule(inst, sol).raise_if_invalid().objective == pytest.approx(FIG1_TOTAL[which])
        if which == "a":  # (c)'s makespan 3 is not reproduced (a claim); (b)'s is not printed
            assert sol.makespan == pytest.approx(FIG1_MAKESPAN[which])


# ---------------------------------------------------------------- the sweeps
def _rows(table):
    return {(r[0], r[1]): np.array(r[2:6], dtype=float) for r in table.rows}


@pytest.fixture(scope="module")
def causes():
    return get_sweep("hare.section7_causes").run(quick=True)


def test_section7_causes_shape(causes):
    labels = list(settings())
    assert len(labels) == 6 and labels[-1].startswith("paper")
    assert len(causes.rows) == (len(labels) + 1) * 3  # + the paper setting with one mini-batch per task
    assert all(len(r) == 2 + len(BASELINE_NAMES) + 1 for r in causes.rows)


def test_section7_each_cause_moves_the_reduction_its_way():
    labels = list(settings())
    data = causes_reductions(range(2))
    for seed in range(2):
        old, a, b, c, d = (data[(lbl, "algorithm1")][seed] for lbl in labels[:5])
        # (a) C - a instead of C: the same sum w a leaves both sides, every relative gap widens
        assert (np.abs(a) > np.abs(old)).all() and (np.sign(a) == np.sign(old)).all()
        # (b) the job-level SRTF is weaker than the round-level one: the reduction vs srtf rises
        assert b[1] > old[1] and np.allclose(np.delete(b, 1), np.delete(old, 1))
        # (c) online AlloX / Sched_Homo are stronger than the up-front plans: the reductions vs them fall
        assert c[2] < old[2] and c[3] < old[3] and np.allclose(c[:2], old[:2])
        # (d) the switching overhead costs Algorithm 1 more than one-GPU-per-job AlloX
        assert d[3] < old[3]


def test_section7_printed_line12_loses_in_the_paper_setting(causes):
    rows = _rows(causes)
    paper = list(settings())[-1]
    assert (rows[(paper, "algorithm1")] < PAPER_RANGE[0] * 100).all()
    assert (rows[(paper, "algorithm1_ef")] > rows[(paper, "algorithm1")]).all()


def test_heterogeneity_sweep():
    t = get_sweep("hare.heterogeneity").run(quick=True)
    assert len(t.rows) == 3 * 2
    rows = {(r[0], r[1]): r for r in t.rows}
    assert rows[(0.0, "algorithm1")][2] == pytest.approx(1.0)
    assert rows[(2.0, "algorithm1")][2] > rows[(1.0, "algorithm1")][2] > 1.0
    lo, hi = (np.array(rows[(h, "algorithm1")][3:], dtype=float) for h in (0.0, 2.0))
    assert (hi < lo).all()  # as printed, the reduction falls as heterogeneity grows (the opposite of Fig. 16)


def test_with_heterogeneity_rejects_bad_h():
    from hetopt.errors import ArgumentError
    from hetopt.hare.experiments.section7 import section7_workload
    from hetopt.hare.experiments.sweeps import with_heterogeneity

    inst = section7_workload(seed=0, n_jobs=5)
    assert with_heterogeneity(inst, 1.0).compute_time == pytest.approx(inst.compute_time, rel=1e-8)
    with pytest.raises(ArgumentError, match="h is"):
        with_heterogeneity(inst, float("nan"))


def test_cli_runs_the_sweep(capsys):
    assert main(["sweep", "hare.section7_causes", "--quick"]) == 0
    assert "paper (all four)" in capsys.readouterr().out


def test_lemma2_ratio_by_hand():
    # all-at-zero instance: x-hat = 0 except the sink (35), so H = 0.5 for the six unit jobs and 1 for the heavy
    # one; Algorithm 1 runs the unit jobs first on the one GPU: after the sixth, prefix work 6 > 2 H = 1
    from hetopt.hare import solve_relaxation, theorem4_counterexample
    from hetopt.hare.experiments.checks import lemma_ratios

    inst = theorem4_counterexample()
    l2, l3 = lemma_ratios(inst, solve_relaxation(inst))
    assert l2 == pytest.approx(6.0) and l3 == 0.0
    assert lemma_ratios(inst, solve_relaxation(inst, subsets=True))[0] <= 1 + 1e-9


# ---------------------------------------------------------------- issue 21: the Fig. 1 table search and the flips
def test_fig1_search_pieces_on_the_found_table():
    """The table of instances/hare2022_fig1_all_five.json passes the search's filters and its (c) plan is a valid
    schedule with total 8.5 and makespan 3 (hetopt's checker); the old reconstruction's structure has no (c)."""
    from hetopt.data import load_json
    from hetopt.hare import check_schedule, make_solution
    from hetopt.hare.experiments.fig1_search import _ab_candidates, _prune, feasible_c, table_instance

    T = (2 * np.asarray(load_json("hare2022_fig1_all_five")["compute_time"])).astype(int)
    cands = _prune(_ab_candidates(2, 1, 3, 6), (2, 1, 3), 17, 6)
    assert any((c == T).all() for c in cands)
    plan = feasible_c(T, 2, 1, 3, (6, 5, 6))
    assert plan is not None
    inst = table_instance(T, 2, 1, 3)
    start, gpu = np.zeros(inst.n_tasks), np.zeros(inst.n_tasks, dtype=int)
    used: dict = {}
    for n, r, g, t in plan:
        k = used.get((n, r), 0)
        used[(n, r)] = k + 1
        i = inst.task_id(n, r, k)
        start[i], gpu[i] = t / 2, g
    sol = make_solution(inst, start, gpu, method="fig1(c) search")
    assert check_schedule(inst, sol).raise_if_invalid().objective == pytest.approx(8.5)
    assert sol.makespan == pytest.approx(3.0)
    # no schedule of this table finishes every job by 2.5 s
    assert feasible_c(T, 2, 1, 3, (5, 5, 5)) is None


def test_fig1_search_finds_none_on_a_tiny_grid():
    from hetopt.hare.experiments.fig1_search import search

    r = search(vmax_seconds=1.5, structures=((2, 1, 2),))
    assert r.matches == [] and r.n_ab >= 0


def test_hare_flips_are_the_diagnosed_mechanisms():
    from hetopt.claims import claims

    by_id = {c.id: c for c in claims("hare")}
    assert "every subset" in by_id["hare2022.theorem4.ratio_all_at_zero"].flip.change
    assert by_id["hare2022.theorem4.ratio_all_at_zero"].flip.verdict.value == "reproduced"
    for cid in ("hare2022.fig12.reduction_range", "hare2022.fig13.jct_within_25min", "hare2022.fig15.reduction_300_jobs"):
        assert by_id[cid].verdict.value == "depends-on-reading" and by_id[cid].direction
