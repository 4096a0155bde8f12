"""notebooks/duality.ipynb explains its figures and its exercise answers are right (it runs with its figures:
``tests/test_notebook_contents.py``).

Every answer is recomputed here without the notebook's code path: the dual (19)-(20) from a
hand-built matrix with scipy's linprog, capacities and prices (22) from the raw arrays.
"""

import math

import numpy as np
import pytest
from scipy.optimize import linprog

from hetopt.data import instance_path
from hetopt.oasis import (
    JobSchedule,
    OasisInstance,
    fig5_instance,
    fig5_setting,
    price_bounds,
    simulate,
)
from hetopt.oasis.online import arrival_order
from hetopt.testing import notebook_answer, notebook_text
from tests.oasis.duality_helpers import hand_lp, zero_price_columns


@pytest.fixture
def nb(executed_notebook):
    """The notebook, executed once per session (its figures and errors: ``tests/test_notebook_contents.py``)."""
    return executed_notebook("duality")


def test_weak_duality_figure_separates_the_two_optima(nb):
    """The LP optimum and the integer OPT are 2 % apart: the figure zooms so they are told apart."""
    import re

    m = re.search(r"integer OPT ([\d.]+) and LP optimum ([\d.]+) are (\d+)% of its width apart", notebook_text(nb))
    assert m, "the weak-duality figure has no zoom on the two optima"
    assert float(m.group(1)) < float(m.group(2)) and int(m.group(3)) >= 20


def test_equal_p3_price_panels_are_explained(nb):
    """Two categories of Table II have the same clearing prices: the notebook says why, with the bid."""
    text = notebook_text(nb)
    assert "have the same prices: in both, job 0 holds a slow worker" in text
    assert "= 369" in text  # 644 - 275 from Table II's throughputs, the paper's own numbers


def test_answer_1_dual_optimum_by_linprog(nb):
    inst = fig5_setting(seed=0)
    f, A, b = hand_lp(inst, zero_price_columns(inst))
    dual = linprog(b, A_ub=-A.T, b_ub=-f, bounds=(0, None), method="highs")
    assert dual.status == 0
    assert notebook_answer(nb, "answer_1") == pytest.approx(dual.fun, rel=1e-7)


def test_answer_2_unused_gpu_slots(nb):
    C = fig5_instance(seed=1, n_servers=10, priority_range=(1.0, 10.0))
    sol = simulate(C, "oasis")
    free = 0.0
    for t in range(C.horizon):
        for h in range(C.n_worker_servers):
            used = sum(C.worker_demand[i, 0] * s.workers[h, t] for i, s in sol.schedules.items())
            free += C.worker_capacity[h, 0] - used
    assert notebook_answer(nb, "answer_2") == pytest.approx(free)


def _price(log_L, log_U, used, cap):
    return math.exp(log_L + min(used / cap, 1.0) * (log_U - log_L))


def test_answer_3_lemma2_failures_from_the_price_formula(nb):
    C = fig5_instance(seed=1, n_servers=10, priority_range=(1.0, 10.0))
    sol = simulate(C, "oasis")
    b = price_bounds(C)
    alpha = max(1.0, float(np.max(b.log_U1 - b.log_L1)), float(np.max(b.log_U2 - b.log_L2)))
    g = np.zeros((C.horizon, C.n_worker_servers, C.n_resources))
    v = np.zeros((C.horizon, C.n_ps_servers, C.n_resources))
    fails = []
    for i in arrival_order(C):
        if i not in sol.schedules:
            continue
        s = sol.schedules[i]
        d_price = 0.0
        for t in range(C.horizon):
            for h in range(C.n_worker_servers):
                for r in range(C.n_resources):
                    add = C.worker_demand[i, r] * s.workers[h, t]
                    if add:
                        cap = C.worker_capacity[h, r]
                        d_price += cap * (_price(b.log_L1, b.log_U1[r], g[t, h, r] + add, cap)
                                          - _price(b.log_L1, b.log_U1[r], g[t, h, r], cap))
                        g[t, h, r] += add
            for k in range(C.n_ps_servers):
                for r in range(C.n_resources):
                    add = C.ps_demand[i, r] * s.ps[k, t]
                    if add:
                        cap = C.ps_capacity[k, r]
                        d_price += cap * (_price(b.log_L2, b.log_U2[r], v[t, k, r] + add, cap)
                                          - _price(b.log_L2, b.log_U2[r], v[t, k, r], cap))
                        v[t, k, r] += add
        d_primal = C.utility[i](s.completion - int(C.arrival[i]))
        if d_primal < (sol.payoffs[i] + d_price) / alpha:
            fails.append(i)
    assert fails  # the instance shows failures; an empty answer would be wrong
    assert notebook_answer(nb, "answer_3") == sorted(fails)


def test_answer_4_violation_of_20_by_hand(nb):
    ip = OasisInstance.from_json(instance_path("oasis2018_theorem4_in_premise"))
    sol = simulate(ip, "oasis")
    b = price_bounds(ip)
    (_, s), = sol.schedules.items()
    cost = 0.0
    for t in range(3):  # the schedule of the exercise: 10 workers and 10 PSs in slots 1-3
        for r in range(ip.n_resources):
            p = _price(b.log_L1, b.log_U1[r], ip.worker_demand[0, r] * s.workers[0, t], ip.worker_capacity[0, r])
            q = _price(b.log_L2, b.log_U2[r], ip.ps_demand[0, r] * s.ps[0, t], ip.ps_capacity[0, r])
            cost += p * ip.worker_demand[0, r] * 10 + q * ip.ps_demand[0, r] * 10
    f3 = ip.utility[0](3 - int(ip.arrival[0]))
    expected = f3 - cost - sol.payoffs[0]
    assert expected > 1.0
    assert notebook_answer(nb, "answer_4") == pytest.approx(expected, rel=1e-9)
    assert JobSchedule(0, np.array([[10, 10, 10, 0]]), np.array([[10, 10, 10, 0]])).completion == 3


def test_answer_5_p3_dual_equals_the_assignment_optimum(nb):
    from scipy.optimize import linear_sum_assignment

    from hetopt.placement import PlacementInstance

    pl = PlacementInstance.from_json(instance_path("liu2024_table2"))
    cat = (1, 3)
    slots = np.repeat(np.arange(pl.n_jobs), cat)  # job i appears K_i times
    value = pl.throughput[slots]  # slots x workers
    r, c = linear_sum_assignment(value, maximize=True)
    assert notebook_answer(nb, "answer_5") == pytest.approx(float(value[r, c].sum()), rel=1e-9)
