"""Placement claims (Liu et al. 2024): the paper-setting generator, the P3 trap, the Optimus-LB
readings, distinct instances in gap_report, and the heterogeneity sweep."""

import itertools

import numpy as np
import pytest

from hetopt import claims as ledger
from hetopt.cli import main
from hetopt.data import load_json
from hetopt.errors import ArgumentError
from hetopt.placement import (
    TABLE_III,
    PlacementInstance,
    exhaustive,
    gap_report,
    generate_instance,
    has,
    heterogeneity_degree,
    instance_key,
    jps,
    optimus,
    optimus_lb,
    solve_exact,
)


def eq35(rho):
    col = np.asarray(rho).sum(axis=0)
    return col.sum() / (len(col) * col.min())


def test_paper_setting_follows_section_vi_a():
    inst = generate_instance(n_jobs=4, n_workers=15)  # the default is the paper's setting
    assert list(inst.job_names) == ["ResNet101", "ResNet18", "VGG19", "AlexNet"]  # the first four Table III jobs
    types = [w.split("-")[0] for w in inst.worker_names]
    assert types.count("v100") == types.count("p100") == types.count("t4") == 5
    assert eq35(inst.throughput) == pytest.approx(1.15, abs=1e-6)  # the paper's default H
    # torchvision parameter counts x 4 bytes: resnet101 44,549,160; resnet18 11,689,512; vgg19 143,667,240; alexnet 61,100,840
    assert np.asarray(inst.model_size).tolist() == [4 * 44_549_160, 4 * 11_689_512, 4 * 143_667_240, 4 * 61_100_840]
    # the jobs are fixed: seeds change nothing without noise
    assert instance_key(generate_instance(n_jobs=4, n_workers=15, seed=3)) == instance_key(inst)


def test_paper_setting_keeps_the_published_throughputs_without_the_knob():
    inst = generate_instance(n_jobs=4, n_workers=6, heterogeneity=None, communication=False)
    r18 = list(inst.job_names).index("ResNet18")
    vgg = list(inst.job_names).index("VGG19")
    by_type = {w.split("-")[0]: k for k, w in enumerate(inst.worker_names)}
    assert inst.throughput[r18, by_type["v100"]] == 644 and inst.throughput[r18, by_type["t4"]] == 275  # Table II
    assert inst.throughput[vgg, by_type["v100"]] == 1754 and inst.throughput[vgg, by_type["t4"]] == 884
    assert eq35(inst.throughput) > 1.35  # the published numbers alone cannot give H = 1.15


@pytest.mark.parametrize("H", [1.0, 1.26, 2.0, 4.0])
def test_heterogeneity_knob_hits_the_target_and_keeps_the_order_of_types(H):
    base = generate_instance(n_jobs=4, n_workers=15, heterogeneity=None)
    inst = generate_instance(n_jobs=4, n_workers=15, heterogeneity=H)
    assert eq35(inst.throughput) == pytest.approx(H, rel=1e-6)
    assert heterogeneity_degree(inst) == pytest.approx(H, rel=1e-6)
    # per job, the ranking of the workers is unchanged
    for i in range(4):
        assert np.array_equal(np.argsort(base.throughput[i], kind="stable"), np.argsort(inst.throughput[i], kind="stable")) or H == 1.0


def test_generator_errors_name_the_argument():
    with pytest.raises(ArgumentError, match="setting"):
        generate_instance(n_jobs=4, n_workers=15, setting="testbed")
    with pytest.raises(ArgumentError, match="heterogeneity"):
        generate_instance(n_jobs=4, n_workers=15, heterogeneity=0.9)
    with pytest.raises(ArgumentError, match="heterogeneity"):
        generate_instance(n_jobs=4, n_workers=15, heterogeneity=1.2, type_ratio=(0, 0, 1))  # one type: H = 1 whatever the knob
    with pytest.raises(ArgumentError, match="jobs"):
        generate_instance(n_jobs=2, n_workers=4, jobs=["ResNet18", "GPT"])
    for bad in (dict(seed=-3), dict(seed="1"), dict(epsilon=1.0), dict(epsilon=-0.1), dict(type_ratio=(1.5, 1, 1)),
                dict(gpus_per_node=0), dict(communication="yes"), dict(n_jobs=2.0)):
        with pytest.raises(ArgumentError, match=next(iter(bad))):
            generate_instance(**{"n_jobs": 2, "n_workers": 4} | bad)


def test_p3_trap_by_brute_force():
    inst = PlacementInstance.from_dict(load_json("liu2024_p3_trap"))
    rho, n, T = [[1000, 500], [100, 50]], [1e5, 1e5], [1, 1]
    avg = {perm: np.mean([T[i] * n[i] / rho[i][perm[i]] for i in range(2)]) for perm in itertools.permutations(range(2))}
    assert avg == {(0, 1): 1050.0, (1, 0): 600.0}  # job i on worker perm[i]
    assert solve_exact(inst).objective == pytest.approx(600) == exhaustive(inst).objective
    for sol in (has(inst), jps(inst, seed=0), optimus_lb(inst), optimus_lb(inst, reading="balanced_gains")):
        assert sol.objective == pytest.approx(1050), sol.solver


def test_optimus_lb_readings():
    inst = PlacementInstance.from_dict(load_json("liu2024_has_gap"))
    paper = optimus_lb(inst)
    assert paper.assignment.tolist() == optimus(inst).assignment.tolist()  # the paper's reading keeps Optimus' placement
    bal = optimus_lb(inst, reading="balanced_gains")
    assert bal.objective < paper.objective  # the other reading is the stronger one here
    assert paper.objective <= optimus(inst).objective + 1e-9  # proportional split never hurts a fixed placement
    with pytest.raises(ArgumentError, match="reading"):
        optimus_lb(inst, reading="greedy")


def test_gap_report_averages_distinct_instances_only():
    t = gap_report(n=20, n_jobs=4, n_workers=5, setting="gavel", epsilon=0.0,
                   methods={"optimus_lb": optimus_lb}, executor="serial")
    assert "over 5 distinct instances of 20 seeds" in t.title  # 20 seeds draw 5 job sets of Table III
    assert t.rows[0][3].endswith("/5")
    t = gap_report(n=4, n_jobs=3, n_workers=4, setting="paper", epsilon=0.0, methods={"optimus_lb": optimus_lb}, executor="serial")
    assert "over 1 distinct instances of 4 seeds" in t.title


def test_instance_key_ignores_the_order_of_jobs():
    a = generate_instance(n_jobs=3, n_workers=6, jobs=["ResNet18", "VGG19", "AlexNet"])
    b = generate_instance(n_jobs=3, n_workers=6, jobs=["AlexNet", "ResNet18", "VGG19"])
    c = generate_instance(n_jobs=3, n_workers=6, jobs=["AlexNet", "ResNet18", "ResNet101"])
    assert instance_key(a) == instance_key(b) != instance_key(c)
    assert set(TABLE_III) >= {"ResNet18", "VGG19", "AlexNet"}


def test_heterogeneity_sweep_quick_shows_the_gap_appear():
    sw = ledger.get_sweep("placement.heterogeneity")
    t = sw.run(quick=True)
    assert t.columns[:4] == ["K", "H", "optimum [s]", "has"] and len(t.rows) == 3
    H = [r[1] for r in t.rows]
    assert H == sorted(H) and H[0] == pytest.approx(1.1) and H[-1] == pytest.approx(4.0)
    has_gap = [r[3] for r in t.rows]
    assert all(g >= -1e-9 for r in t.rows for g in r[3:])  # nothing beats a certified optimum
    assert has_gap[0] <= 0.015 < has_gap[-1]  # near-optimal at low H, not at high H
    assert any("3 distinct instances" in n for n in t.notes)


def test_placement_has_no_reproduce_and_claims_cover_its_rows(capsys):
    import hetopt.placement as placement
    from hetopt.registry import get_kind

    assert not hasattr(placement, "reproduce") and not hasattr(get_kind("placement"), "reproduce")
    ids = {c.id for c in ledger.claims("placement")}
    for needed in ("liu2024.table2.category_3_1", "liu2024.table2.optimum", "liu2024.sec5b.has_loss_table2",
                   "liu2024.sec4a.las_loss", "liu2024.fig9.optimus_lb_loss"):
        assert needed in ids
    # |Psi| = C(K-1, S-1) is the paper's own formula: a conformance check, counted apart
    assert "liu2024.sec5b.psi_size" in {c.id for c in ledger.conformance()} - ids
    assert main(["claims", "placement", "--json"]) == 0
    assert '"liu2024.sec5c.has_near_optimal"' in capsys.readouterr().out


# ----------------------------------------------------------------------------- issue 21: the readings behind the flips
def test_mix_path_moves_h_as_the_paper_says():
    from hetopt.placement.experiments import runs as X

    hs = [heterogeneity_degree(X.mix_instance(c)) for c in X.MIX_PATH]
    assert hs == sorted(hs)  # T4s replaced by V100s: H rises (Section VI-B1)
    assert heterogeneity_degree(X.mix_instance((5, 5, 5))) == pytest.approx(1.15, abs=1e-6)
    base = generate_instance(n_jobs=4, n_workers=15)
    assert np.allclose(X.mix_instance((5, 5, 5)).throughput, base.throughput)  # 5:5:5 is the default cluster


def test_slowed_reading_keeps_h_and_the_fastest_worker():
    from hetopt.placement.experiments import runs as X

    for H in (1.15, 1.26):
        s, k = X.slowed_instance(H), X.paper_instance(15, H)
        assert heterogeneity_degree(s) == pytest.approx(heterogeneity_degree(k), rel=1e-9)
        assert s.throughput.sum(axis=0).max() == pytest.approx(X.paper_instance(15, 1.1).throughput.sum(axis=0).max())


def test_sampling_on_precomputed_categories_is_jps():
    """_sample_mean draws the positions jps draws and takes the best JCT among them (beta = 1)."""
    from hetopt.placement.experiments import absent
    from hetopt.placement.experiments import runs as X

    inst = X.paper_instance(15, 1.15)
    best = X.optimum_of(inst)
    for alpha in (0.0, 0.7):
        ours = absent._sample_mean(15, 20, alpha, "priority", seeds=3)
        ref = np.mean([jps(inst, n_samples=20, alpha=alpha, seed=s).objective for s in range(3)]) / best - 1
        assert ours == pytest.approx(ref, rel=1e-9, abs=1e-12)


def test_market_without_prices_is_a_valid_category_assignment():
    from hetopt.placement.experiments import runs as X

    inst = X.paper_instance(6, 1.15, 3, False)
    a = X.market_without_prices(inst, (3, 2, 1))
    assert [int((a == i).sum()) for i in range(3)] == [3, 2, 1]


def test_optimus_trend_and_jps_scale_sweeps_quick():
    t = ledger.get_sweep("placement.optimus_trend").run(quick=True)
    rows = {r[0]: [] for r in t.rows}
    for r in t.rows:
        rows[r[0]].append(r)
    mix, knob = rows["mix"], rows["knob"]
    assert mix[0][2] < mix[-1][2] and knob[0][2] < knob[-1][2]  # H rises along both axes
    assert mix[-1][4] < mix[0][4]  # the paper's axis: Optimus' loss falls
    assert knob[-1][4] > knob[0][4]  # the knob: it rises
    s = ledger.get_sweep("placement.jps_scale").run(quick=True)
    assert [r[0] for r in s.rows] == [15, 100]
    assert all(r[3] >= -1e-9 for r in s.rows)  # nothing beats a certified optimum
    assert s.rows[0][3] <= 0.0204 < s.rows[1][3]  # within 2.04 % at K = 15, not at K = 100
