"""hetopt.oasis.duality: LP duals from the Pyomo suffix, complementary slackness, dual fitting.

The LP of (14)-(18) is rebuilt here by hand from the schedule arrays (dense matrices) and solved
with scipy's linprog, as the second method against the Pyomo models.
"""

import dataclasses

import numpy as np
import pytest
from scipy.optimize import linprog

from hetopt.data import instance_path
from hetopt.oasis import (
    OasisInstance,
    Prices,
    Usage,
    best_schedule_ilp,
    build_dual,
    fig5_setting,
    solve_exact,
)
from hetopt.oasis.duality import (
    complementary_slackness,
    dual_fitting_trace,
    dual_objective,
    dual_payoffs,
    fit_mu,
    lp_duals,
)
from hetopt.solvers import solve_model
from tests.oasis.conftest import tiny_instance
from tests.oasis.duality_helpers import hand_lp, zero_price_columns


@pytest.fixture(scope="module")
def setting():
    inst = fig5_setting(seed=0)
    return inst, zero_price_columns(inst)


def test_lp_duals_strong_duality_against_hand_built_lp(setting):
    inst, cols = setting
    d = lp_duals(inst, cols)
    f, A, b = hand_lp(inst, cols)
    primal = linprog(-f, A_ub=A, b_ub=b, bounds=(0, None), method="highs")
    dual = linprog(b, A_ub=-A.T, b_ub=-f, bounds=(0, None), method="highs")  # min b y, A^T y >= f, y >= 0
    assert primal.status == 0 and dual.status == 0
    assert d.objective == pytest.approx(-primal.fun, rel=1e-7)
    assert d.objective == pytest.approx(dual.fun, rel=1e-7)
    assert dual_objective(inst, d.prices, d.mu) == pytest.approx(d.objective, rel=1e-7)
    assert solve_model(build_dual(inst, cols), "highs").objective == pytest.approx(d.objective, rel=1e-7)


def test_suffix_duals_are_dual_feasible_and_complementary(setting):
    inst, cols = setting
    d = lp_duals(inst, cols)
    assert np.all(d.prices.p >= 0) and np.all(d.prices.q >= 0)
    for (i, l), rhs in dual_payoffs(inst, cols, d.prices).items():
        assert d.mu[i] >= rhs - 1e-7, f"(20) violated for column {(i, l)}"
    rows = complementary_slackness(inst, cols, d.x, d.prices, d.mu)
    assert min(r["slack"] for r in rows) >= -1e-7
    assert max(abs(r["product"]) for r in rows) <= 1e-7


def test_products_sum_to_the_duality_gap(setting):
    """For any feasible pair, (19) - (14) = sum of the complementary-slackness products."""
    inst, cols = setting
    rng = np.random.default_rng(7)
    prices = Prices(rng.uniform(0, 0.05, Prices.zeros(inst).p.shape), rng.uniform(0, 0.05, Prices.zeros(inst).q.shape))
    mu = fit_mu(inst, cols, prices)
    x = {(i, 0): 0.5 for i in cols}  # half of every first schedule: feasible (each fits an empty cluster)
    rows = complementary_slackness(inst, cols, x, prices, mu)
    assert min(r["slack"] for r in rows) >= -1e-9
    primal = sum(inst.utility_of(i, cols[i][l].completion) * v for (i, l), v in x.items())
    gap = dual_objective(inst, prices, mu) - primal
    assert gap > 0.01  # not an optimal pair: the check below can fail
    assert sum(r["product"] for r in rows) == pytest.approx(gap, rel=1e-9)


def test_fit_mu_is_the_smallest_feasible_payoff(setting):
    inst, cols = setting
    prices = Prices(np.full(Prices.zeros(inst).p.shape, 0.01), Prices.zeros(inst).q)
    mu = fit_mu(inst, cols, prices)
    pay = dual_payoffs(inst, cols, prices)
    for i in cols:
        assert mu[i] == pytest.approx(max(0.0, max(pay[i, l] for l in range(len(cols[i])))))


def test_dual_fitting_trace_accounts(setting):
    inst, _ = setting
    tr = dual_fitting_trace(inst)
    assert tr.cumulative_primal[-1] == pytest.approx(tr.primal)
    assert tr.cumulative_dual[-1] == pytest.approx(tr.dual, rel=1e-9)  # increments telescope to D_I
    for s in tr.steps:
        if s.admitted:  # (20) is tight for the chosen schedule: f_i = mu_i + its price
            assert s.delta_primal == pytest.approx(s.mu + s.price_paid, rel=1e-9)
        else:
            assert s.delta_primal == 0 and s.delta_dual == 0 and s.holds
        assert s.holds == (s.delta_primal >= s.delta_dual / tr.alpha
                           - 1e-9 * max(abs(s.delta_primal), abs(s.delta_dual) / tr.alpha))


@pytest.mark.parametrize("seed", [0, 1, 3])
def test_lemma2_flags_are_invariant_under_utility_scale(seed):
    """Utilities x 1e-12: the same steps hold and fail (an absolute 1e-9 floor made every step hold)."""
    inst = tiny_instance(seed, n_jobs=4, horizon=5, servers=2)
    small = dataclasses.replace(inst, utility=[dataclasses.replace(u, gamma1=u.gamma1 * 1e-12) for u in inst.utility])
    a, b = dual_fitting_trace(inst), dual_fitting_trace(small)
    assert not all(s.holds for s in a.steps)
    assert [s.holds for s in b.steps] == [s.holds for s in a.steps]
    assert b.dual == pytest.approx(a.dual * 1e-12, rel=1e-9)


def test_in_premise_instance_dual_is_infeasible():
    ip = OasisInstance.from_json(instance_path("oasis2018_theorem4_in_premise"))
    opt = solve_exact(ip).total_utility
    tr = dual_fitting_trace(ip)
    assert all(s.holds for s in tr.steps)  # Lemma 2 holds here
    assert tr.dual < opt  # so weak duality must fail: the fitted dual is infeasible
    best = best_schedule_ilp(ip, 0, tr.final_prices, Usage.empty(ip))
    assert best.payoff > tr.mu[0] + 1.0
    exact = dual_fitting_trace(ip, oracle=best_schedule_ilp)
    assert exact.dual >= opt - 1e-9 and exact.primal == pytest.approx(opt)


def test_bad_input_names_the_field(setting):
    from hetopt.errors import ArgumentError

    inst, cols = setting
    with pytest.raises(ArgumentError, match="expects a OasisInstance"):
        lp_duals(None, cols)
    with pytest.raises(ArgumentError, match="schedules must be a mapping"):
        lp_duals(inst, [cols[0]])
    other = next(i for i in cols if i != 0)
    with pytest.raises(ArgumentError, match=r"schedules\[0\]\[0\] must be a JobSchedule of job 0"):
        fit_mu(inst, {0: [cols[other][0]]}, Prices.zeros(inst))
    with pytest.raises(ArgumentError, match="expected a job index"):
        dual_payoffs(inst, {99: []}, Prices.zeros(inst))
