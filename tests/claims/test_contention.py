"""Claims of Wang et al. (contention): the sweeps run in quick mode and show the effect they claim."""

import pytest

from hetopt import claims as ledger
from hetopt.cli import main


def _col(table, name):
    i = table.columns.index(name)
    return [r[i] for r in table.rows]


def test_contention_claims_cover_the_old_reproduce_rows_and_the_headline():
    ids = {c.id for c in ledger.claims("contention")}
    for needed in ("wang2019.eq14.t_aver_c1", "wang2019.eq14.t_aver_c2a", "wang2019.eq14.t_aver_c2b",
                   "wang2019.theorem1.optimum_over_offsets", "wang2019.theorem2.threshold_eq13",
                   "wang2019.eq7_8.single_job_jct", "wang2019.table5.ada_vs_srsf1",
                   "wang2019.table5.ada_vs_srsf2", "wang2019.fig5.kappa1_best", "wang2019.table4.lwf1_vs_ff",
                   # issue 21: the absent claims
                   "wang2019.table4.utilization_lwf1_vs_rand", "wang2019.table4.utilization_lwf1_vs_ls",
                   "wang2019.fig4a.lwf1_p95_below_5000", "wang2019.fig4.rand_worst",
                   "wang2019.table5.median_ada_vs_srsf1", "wang2019.table5.utilization_srsf2_below_srsf1",
                   "wang2019.table5.utilization_srsf3_below_srsf1", "wang2019.sec4a.lwf_complexity",
                   "wang2019.sec4b.adadual_complexity"):
        assert needed in ids, needed
    assert all(i.startswith("wang2019.") for i in ids)


def test_echoes_and_identities_are_conformance_checks_not_claims():
    ids = {c.id for c in ledger.claims("contention")}
    conf = {c.id for c in ledger.conformance("contention")}
    moved = {f"wang2019.eq5.k{k}_concurrent" for k in (1, 2, 4, 8)} | {"wang2019.eq5.simulator_k_concurrent", "wang2019.sec5a.bundled_workloads"} | {
        f"wang2019.sec5a.workload_{k}" for k in ("jobs", "gpus", "iterations", "arrivals", "gpu1", "gpu2", "gpu4",
                                                  "gpu8", "gpu16", "gpu32")}
    assert moved == conf
    assert not ids & conf


def test_job_set_flips_of_the_slow_claims_run_fast_and_move_the_verdict():
    # kappa1_best and median_ada_vs_srsf1 are slow (six job sets); their flips (single-GPU jobs) are cheap
    for cid in ("wang2019.fig5.kappa1_best", "wang2019.table5.median_ada_vs_srsf1"):
        c = ledger.get_claim(cid)
        assert c.verdict is ledger.Verdict.DEPENDS_ON_WORKLOAD
        r = c.run(flip=True)
        assert r.outcome.verdict is c.flip.verdict is ledger.Verdict.OUTSIDE_PREMISE, r.outcome.detail
        assert set(r.outcome.readings.values()) == {ledger.Verdict.OUTSIDE_PREMISE}
        assert list(r.outcome.readings)[0] == "seed 0 (default)"


def test_job_sets_sweep_builds_its_table(monkeypatch):
    from hetopt.contention.experiments import runs

    fake = {"ada": 80.0, "srsf1": 81.0, "srsf2": 85.0, "srsf3": 87.0, "ff": 140.0, "ls": 240.0, "rand": 340.0,
            "lwf2": 90.0, "lwf4": 180.0}

    def run(p, acc="correct", *a, **k):
        avg = fake[p] * (0.7 if acc == "authors" and not p.startswith("srsf") else 1.0)
        return {"avg": avg, "median": 20.0, "p95": 4 * avg, "util": 20.0 / avg}

    monkeypatch.setattr(runs, "run", run)
    t = runs.job_sets_sweep(quick=True)
    assert _col(t, "seed") == [0, 0, 1, 1, 2, 2]
    assert _col(t, "worst placement") == ["RAND"] * 6 and _col(t, "best kappa") == [1] * 6
    gain = _col(t, "Ada gain vs SRSF(1) %")
    assert gain[1] > gain[0]  # the published accounting speeds Ada-SRSF only


def test_complexity_sweep_quick_scanned_task_sets_grow_faster():
    """The work is counted, not timed (no clock): the exponents are exact and the same on every run."""
    t = ledger.get_sweep("contention.complexity").run(quick=True)
    p = dict(zip(_col(t, "swept"), _col(t, "fitted p"), strict=True))
    ops = dict(zip(_col(t, "swept"), _col(t, "operations"), strict=True))
    assert ops["servers of c_new, task sets given"] == "96 192 384"  # len, iteration step, lookup: 3 per server
    assert p["servers of c_new, task sets given"] == pytest.approx(1.0, rel=1e-9)
    assert p["servers of c_new, task sets scanned"] > 1.9  # N^2 membership tests
    assert t.rows == ledger.get_sweep("contention.complexity").run(quick=True).rows


def test_complexity_counts_are_the_work_of_the_unchanged_placement():
    """LWF-kappa on counting numbers places the same GPUs as on floats, and its comparisons are counted: at least
    the N_s - 1 of any sort of the servers, at most 2 N_s log2 N_s (numpy's merge sort of objects, insertion sort
    on short runs: about 1.4 N_s log2 N_s) + the linear passes."""
    import numpy as np

    from hetopt.contention.experiments import complexity as cx
    from hetopt.contention.placement import lwf_kappa

    for ns in (16, 512):
        load, free = np.random.default_rng(ns).random(4 * ns), np.full(4 * ns, 32768.0)
        tally = cx.Tally()
        assert list(lwf_kappa(tally.numbers(free), tally.numbers(load), 4, 8, 4527.0)) == \
            list(lwf_kappa(free, load, 4, 8, 4527.0))
        linear = 4 * ns + 3 * ns  # the memory test of every GPU, the three additions of each server's load
        assert linear + ns - 1 <= tally.n <= linear + 2 * ns * np.log2(ns) + 200


def test_accounting_sweep_quick_gain_appears_only_with_the_published_accounting():
    t = ledger.get_sweep("contention.accounting").run(quick=True)
    assert len(t.rows) == 4  # 16 / 32 GB x correct / authors
    acc, mem = _col(t, "accounting"), _col(t, "GPU memory (GB)")
    assert sorted(set(mem)) == [16, 32]
    for m in (16, 32):
        rows = {a: r for a, r, mm in zip(acc, t.rows, mem, strict=True) if mm == m}
        c, a = rows["correct"], rows["authors"]
        for col in ("SRSF(1)", "SRSF(2)", "SRSF(3)"):  # SRSF(n) never queries: unchanged
            i = t.columns.index(col)
            assert c[i] == a[i]
        i1, i2 = t.columns.index("gain vs SRSF(1)"), t.columns.index("gain vs SRSF(2)")
        assert a[i1] > c[i1] + 10 and a[i2] > c[i2] + 10  # the gain appears with the error
        assert c[i1] < 10  # and is gone without it


def test_waiters_sweep_quick():
    t = ledger.get_sweep("contention.waiters").run(quick=True)
    assert _col(t, "refused waiters") == [0, 1, 2]
    correct = _col(t, "correct accounting")
    authors = _col(t, "authors' accounting")
    assert max(correct) - min(correct) < 1e-6  # independent of who asks
    assert authors[0] == pytest.approx(correct[0]) and authors[2] < authors[1] < authors[0]
    assert _col(t, "authors' slotted simulator")[1] == pytest.approx(226.0)


def test_cli_sweep_waiters_quick(capsys):
    assert main(["sweep", "contention.waiters", "--quick"]) == 0
    assert "refused waiters" in capsys.readouterr().out


def test_headline_verdict_needs_the_toggle_to_move_the_gain(monkeypatch):
    # if the published accounting changed nothing, the failing verdict would have no mechanism: unexplained
    from hetopt.contention.experiments import claims as mod

    fake = {"ada": 100.0, "srsf1": 99.0, "srsf2": 101.0, "srsf3": 102.0}
    monkeypatch.setattr(mod, "run", lambda p, acc="correct", *a, **k: {"avg": fake[p], "util": 0.2, "p95": fake[p]})
    monkeypatch.setattr(mod, "gains", lambda acc, *a, **k: {p: 100 * (1 - fake["ada"] / fake[p]) for p in fake if p != "ada"})
    out = ledger.get_claim("wang2019.table5.ada_vs_srsf1").check()
    assert out.verdict is ledger.Verdict.UNEXPLAINED
    # and a gain equal to the paper's under the correct accounting would be "reproduced"
    fake["srsf1"] = 100.0 / (1 - 0.201)
    out = ledger.get_claim("wang2019.table5.ada_vs_srsf1").check()
    assert out.verdict is ledger.Verdict.REPRODUCED


def test_placement_direction_rules(monkeypatch):
    # a placement claim off the paper's number is data-missing while its direction holds, unexplained when the
    # direction fails on a workload that keeps the premise, outside the premise when no placement can matter
    from hetopt.contention.experiments import claims as mod

    V = ledger.Verdict
    fake = {"ada": 100.0, "ls": 120.0}
    monkeypatch.setattr(mod, "run", lambda p, acc="correct", *a, **k: {"avg": fake[p], "util": 1.0 / fake[p]})
    assert mod._placement_saving("ls").verdict is V.DATA_MISSING
    fake["ls"] = 100.0 / (1 - 0.519)
    assert mod._placement_saving("ls").verdict is V.REPRODUCED
    fake["ls"] = 90.0
    assert ledger.enforce(mod._placement_saving("ls")).verdict is V.UNEXPLAINED
    fake["ls"] = 100.0
    assert mod._placement_saving("ls", variant="exclusive_single_gpu").verdict is V.OUTSIDE_PREMISE


def test_utilization_vs_ls_is_a_paper_error_only_if_the_published_accounting_gives_it(monkeypatch):
    from hetopt.contention.experiments import claims as mod

    V = ledger.Verdict
    util = {("ada", "correct"): 0.28, ("ls", "correct"): 0.10, ("ada", "authors"): 0.45, ("ls", "authors"): 0.27}
    monkeypatch.setattr(mod, "run", lambda p, acc="correct", *a, **k: {"util": util[p, acc]})
    assert mod._util_ratio("ls").verdict is V.PAPER_ERROR  # 2.8x correct, 1.67x published, paper 1.7x
    assert mod._util_ratio("ls", model="authors").verdict is V.REPRODUCED
    util["ada", "authors"] = 0.6  # 2.2x published: the error does not give the paper's number either
    assert mod._util_ratio("ls").verdict is V.DATA_MISSING
