"""The Section 7 comparison: the metric, the settings and the comparison's bookkeeping."""

import pytest

from hetopt.errors import HetoptError
from hetopt.hare import check_schedule, gavel_fifo
from hetopt.hare.section7 import OLD_SETTING, PAPER_SETTING, Setting, compare, reductions, section7_workload, \
    weighted_jct


def test_weighted_jct_by_hand(tiny):
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
