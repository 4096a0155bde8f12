"""OASiS entries of the claims ledger (hetopt.oasis.experiments.claims): the in-premise instances, the ln(U/L) cap, its sweep,
size guards, the figure data and the paper's printed numbers."""

import math

import numpy as np
import pytest

from hetopt import claims as ledger
from hetopt.data import instance_path
from hetopt.errors import ArgumentError, SizeLimitError
from hetopt.oasis import OasisInstance, OasisPolicy, check_schedule, generate_instance, simulate
from hetopt.oasis.experiments.diagnostics import log_ratio_cap_sweep, premise, theorem1_experiment
from hetopt.oasis.instance import MAX_HORIZON
from hetopt.oasis.prices import cap_bounds, price, price_bounds


def _load(stem):
    return OasisInstance.from_json(instance_path(stem))


def test_theorem1_in_premise_instance_by_hand():
    """m = 0.03 slot, N = 10 workers at most, E N = 1000 chunks, f = [10, 10, 10, 1].
    (27): 30 worker-slots = 3 slots of 10 workers -> payoff 10 at zero prices.
    Alg. 2: 10 workers train floor(10 / 0.03) = 333 chunks a slot; 3 slots give 999 < 1000 -> 4 slots, payoff 1."""
    inst = _load("oasis2018_theorem1_in_premise")
    assert math.floor(10 / 0.03) == 333 and 3 * 333 < 1000
    r = theorem1_experiment(inst)
    assert r["ilp"] == pytest.approx(10.0) and r["ilp_completion"] == 3
    assert r["dp"] == pytest.approx(1.0) and r["dp_completion"] == 4
    assert r["premise"]["holds"] and r["premise"]["chunk_time"] == pytest.approx(0.03)


def test_premise_flags_the_old_counterexample():
    p = premise(_load("oasis2018_theorem1_counterexample"))
    assert p["chunk_time"] == pytest.approx(0.4) and p["demand_share"] == pytest.approx(1.0) and not p["holds"]


def test_cap_bounds_rejects_bad_caps_and_none_is_identity():
    inst = generate_instance(n_jobs=5, horizon=10, n_worker_servers=3, n_ps_servers=3, seed=0)
    b = price_bounds(inst)
    assert cap_bounds(b, None) is b
    for bad in (0, -1.0, float("nan"), float("inf"), True, "15"):
        with pytest.raises(ValueError, match="log_ratio_cap"):
            price_bounds(inst, log_ratio_cap=bad)


def test_capped_price_grows_over_the_whole_capacity():
    """ln P(g) = ln U - cap (1 - g / c): at half use the price is U e^{-cap/2}."""
    inst = generate_instance(n_jobs=30, horizon=60, n_worker_servers=10, n_ps_servers=10, seed=0)
    b = price_bounds(inst, log_ratio_cap=10.0)
    r = int(np.argmax(b.log_U1))
    half = price(b.log_L1, b.log_U1[r], np.array(0.5), np.array(1.0))
    assert math.log(float(half)) == pytest.approx(b.log_U1[r] - 5.0)


def test_online_with_cap_is_feasible_and_reports_the_alpha_used():
    inst = generate_instance(n_jobs=20, horizon=30, n_worker_servers=8, n_ps_servers=8, seed=1)
    sol = simulate(inst, "oasis", options={"log_ratio_cap": 15})
    assert check_schedule(inst, sol).ok
    assert sol.info["alpha_used"] <= 15 + 1e-9 < sol.info["alpha"]


def test_long_double_prices_are_positive_where_double_underflows():
    inst = generate_instance(n_jobs=20, horizon=200, n_worker_servers=5, n_ps_servers=5, seed=0)
    b = price_bounds(inst)
    assert b.log_L1 < -745  # exp underflows a double below about -745
    cap = inst.worker_capacity[0]
    p64 = price(b.log_L1, b.log_U1, np.zeros_like(cap), cap)
    pld = price(b.log_L1, b.log_U1, np.zeros_like(cap), cap, dtype=np.longdouble)
    assert np.all(p64 == 0)
    if np.finfo(np.longdouble).eps < np.finfo(float).eps:  # x86-64: 80-bit extended
        assert np.all(pld > 0) and pld.dtype == np.longdouble
        sol = simulate(inst, "oasis", options={"price_dtype": np.longdouble})
        assert check_schedule(inst, sol).ok


def test_online_rejects_bad_price_dtype_and_cap():
    inst = _load("oasis2018_theorem1_in_premise")
    with pytest.raises(ArgumentError, match="price_dtype"):
        simulate(inst, "oasis", options={"price_dtype": np.float32})
    with pytest.raises(ArgumentError, match="log_ratio_cap"):
        OasisPolicy(inst, log_ratio_cap=float("nan"))


def test_log_ratio_cap_sweep_quick_shows_the_effect():
    t = log_ratio_cap_sweep(quick=True)
    assert t.columns[:4] == ["seed", "cap", "ln(U/L) used", "oasis"] and len(t.rows) == 4
    rows = {r[1]: r for r in t.rows}
    literal, capped = rows["none"], rows[15.0]
    assert literal[2] > 100 and capped[2] <= 15.0
    base = max(literal[4:8])
    assert literal[3] < base < capped[3]  # the literal bounds lose, the capped ones win
    assert literal[-1] != "oasis" and capped[-1] == "oasis"
    assert all(r[4:8] == literal[4:8] for r in t.rows)  # baselines do not depend on the cap


def test_sweep_registered_and_runs_from_the_cli(capsys):
    from hetopt.cli import main

    assert "oasis.log_ratio_cap" in ledger.sweeps("oasis")
    assert main(["sweep", "oasis.log_ratio_cap", "--quick"]) == 0
    assert "ln(U/L)" in capsys.readouterr().out


def test_check_schedule_rejects_nan_and_negative_tol():
    inst = _load("oasis2018_theorem1_in_premise")
    sol = simulate(inst, "oasis")
    for bad in (float("nan"), -1e-6, float("inf"), True, None):
        with pytest.raises(ArgumentError, match="tol"):
            check_schedule(inst, sol, tol=bad)
    assert check_schedule(inst, sol, tol=np.float64(1e-6)).ok


def test_huge_horizon_raises_size_limit_error_not_memory_error():
    d = _load("oasis2018_theorem1_in_premise").to_dict()
    d["horizon"] = 10**7
    d["utility"] = [{"type": "sigmoid", "gamma1": 10.0, "gamma2": 1.0, "gamma3": 3.0}]
    inst = OasisInstance.from_dict(d)
    from hetopt.oasis import solve_exact

    for fn in (lambda i: simulate(i, "oasis"), lambda i: simulate(i, "drf"), lambda i: check_schedule(i, {})):
        with pytest.raises(SizeLimitError, match=f"horizon is 10000000.*{MAX_HORIZON}"):
            fn(inst)
    # the exact route's own guard counts the model's columns before anything is built
    with pytest.raises(SizeLimitError, match="T = 10000000.*max_size = 500,000"):
        solve_exact(inst)


def test_cost_t_experiment_catches_a_wrong_greedy(monkeypatch):
    """The brute force of the COST_t check can fail: a greedy filling the dearest servers first is caught."""
    import hetopt.oasis.oracle as oracle
    from hetopt.oasis.experiments.diagnostics import cost_t_experiment

    ok = cost_t_experiment(seeds=(0,))
    assert ok["cases"] > 0 and ok["mismatch"] == 0 and ok["max_gap"] <= 1e-9
    orig = oracle._fill

    def dearest_first(unit, cap, limit):
        seq, _ = orig(-unit, cap, limit)
        return seq, np.concatenate(([0.0], np.cumsum(unit[seq])))

    monkeypatch.setattr(oracle, "_fill", dearest_first)
    assert cost_t_experiment(seeds=(0,))["max_gap"] > 1e-6


def test_paper_numbers_feed_the_claims():
    from hetopt.oasis.experiments import paper
    from hetopt.oasis.experiments.claims import CLAIMS

    by_id = {c.id: c for c in CLAIMS}
    assert paper.FIG5_RATIO_RANGE == (1.1, 1.5) and by_id["oasis2018.fig5.ratio_range"].paper_value == "1.1-1.5"
    assert by_id["oasis2018.section5.decision_time"].paper_value == "< 1 s"
    assert paper.DECISION_SERVERS == 80 and paper.FIG3_SLOTS == 300 and paper.FIG3_SERVERS == 50


# --------------------------------------------------------------------- issue 21: flips, conformance, new claims
def test_eq22_identities_are_conformance_checks_not_claims():
    from hetopt.oasis.experiments.claims import CLAIMS, CONFORMANCE

    conf = {c.id for c in CONFORMANCE}
    assert conf == {"oasis2018.eq22.price_at_zero_use", "oasis2018.eq22.price_at_capacity"}
    assert not conf & {c.id for c in CLAIMS}
    assert all(c.run().ok for c in CONFORMANCE)


def test_lemma1_initial_dual_by_hand():
    """D0 = T (sum_h sum_r c_h^r) L1 + T (sum_k sum_r c_k^r) L2, computed from the capacities and (25)-(26)."""
    from hetopt.oasis.duality import capacity_term
    from hetopt.oasis.prices import Usage, prices_from_usage

    inst = _load("oasis2018_theorem1_counterexample")
    b = price_bounds(inst)
    by_hand = inst.horizon * (inst.worker_capacity.sum() * math.exp(b.log_L1) + inst.ps_capacity.sum() * math.exp(b.log_L2))
    d0 = capacity_term(inst, prices_from_usage(inst, b, Usage.empty(inst)))
    assert d0 == pytest.approx(by_hand)
    assert d0 <= 8.0 / 2  # the certified optimum of this instance is 8 (its "expected" in instances/oasis2018_theorem1_counterexample.json)


def test_clear_trend_rule():
    from hetopt.oasis.experiments.claims import _clear_trend, _direction

    assert _direction([1.0, 1.0, 1.0]) == 0 and _direction([1.082, 1.0, 1.0]) == -1
    assert _direction([2.6, 8.8, math.inf]) == 1 and _direction([1.0, 1.04]) == 0
    assert _clear_trend([[1.0, 1.0, 1.0], [1.082, 1.0, 1.0]]) == 0  # one flat group: no clear trend
    assert _clear_trend([[3.6, 3.7, math.inf], [2.6, 8.8, math.inf]]) == 1


def test_readings_name_the_papers_first():
    from hetopt.oasis.experiments.claims import CLAIMS, FIG6_READINGS, LITERAL

    by_id = {c.id: c for c in CLAIMS}
    out = by_id["oasis2018.fig3.oasis_best_small"].check()
    assert list(out.readings)[0] == LITERAL and len(set(out.readings.values())) == 2
    assert "paper's words" in FIG6_READINGS[0][0] and "default" in FIG6_READINGS[0][0]
    for c in CLAIMS:
        assert c.flip is not None and c.flip.verdict is not c.verdict


def test_testbed_proxy_records_direction_and_agrees():
    from hetopt.oasis.experiments.claims import CLAIMS

    c = {c.id: c for c in CLAIMS}["oasis2018.testbed.fig8_oasis_best"]
    out = c.check()
    assert out.proxy_agrees is True and "highest" in c.direction
    assert "strictly on 5" in out.ours


@pytest.mark.slow
def test_ratio_by_size_sweep_quick_certifies_every_row():
    from hetopt.oasis.experiments.diagnostics import ratio_by_size_sweep

    t = ratio_by_size_sweep(quick=True)
    assert [r[0] for r in t.rows] == [10, 10, 20, 20]
    assert all(r[5] == "optimum" and r[4] >= 1 - 1e-6 for r in t.rows)
