"""hetopt.gavel.fastlp hands ECOS the arrays CVXPY builds for Gavel's LPs, to the last bit, and so the same allocations."""

import cvxpy as cp
import numpy as np
import pytest

from hetopt.gavel import POLICIES
from hetopt.gavel import fastlp as F
from hetopt.gavel.lp import gavel_base_constraints, gavel_proportional_throughput, sf_array


def _bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def _same_data(problem, lp: F.ConeLP) -> None:
    data, _, _ = problem.get_problem_data(cp.ECOS)
    G = data["G"]
    assert data["A"] is None and data["b"] is None
    assert G.shape == (lp.n_rows, lp.c.size)
    assert _bits(data["c"], lp.c) and _bits(data["h"], lp.h)
    assert _bits(G.data, lp.data) and _bits(G.indices, lp.indices) and _bits(G.indptr, lp.indptr)
    assert data["dims"].nonneg == lp.l and list(data["dims"].soc) == lp.q and data["dims"].exp == 0


def _instance(rng, m: int, n: int):
    T = rng.uniform(0.1, 5.0, (m, n)) * (rng.random((m, n)) > 0.25)  # zeros: jobs that cannot run on a type
    T[T.sum(axis=1) == 0, 0] = 1.0
    s = rng.choice([1, 2, 4, 8], m)
    c = rng.integers(1, 12, n).astype(float)
    return T, s, c, sf_array(s, n), [float(v) for v in c]


SIZES = [(1, 1), (2, 3), (5, 2), (7, 3), (40, 3)]


@pytest.mark.parametrize("m, n", SIZES)
def test_max_min_fairness_and_water_filling_data(m, n):
    rng = np.random.default_rng(m * 10 + n)
    for _ in range(4):
        T, s, c, sfa, cap = _instance(rng, m, n)
        w = rng.choice([1.0, 2.0, 0.5], m)
        coef, _ = F._mmf_coef(T, s, c, w)
        x = cp.Variable(T.shape)
        _same_data(cp.Problem(cp.Maximize(cp.min(cp.sum(cp.multiply(coef, x), axis=1))),
                              gavel_base_constraints(x, sfa, cap)), F.mmf_lp(coef, sfa, cap))
        prop = gavel_proportional_throughput(T, c)
        mult = np.array([1.0 / w[i] * sfa[i, 0] for i in range(m)])
        x = cp.Variable(T.shape)
        normalized = cp.multiply(cp.sum(cp.multiply(T, x), axis=1), 1.0 / prop.reshape(m))
        zero = np.zeros(m)
        problem = cp.Problem(cp.Maximize(cp.min(cp.multiply(normalized - zero, mult) + zero)),
                             gavel_base_constraints(x, sfa, cap) + [normalized >= zero])
        _same_data(problem, F.water_filling_lp(T, 1.0 / prop.reshape(m), mult, sfa, cap))


@pytest.mark.parametrize("m, n", SIZES)
def test_max_sum_throughput_data(m, n):
    rng = np.random.default_rng(100 + m * 10 + n)
    for _ in range(4):
        T, s, c, sfa, cap = _instance(rng, m, n)
        costs = rng.uniform(0.5, 3.0, (1, n))
        slo = {int(i): float(rng.uniform(0.01, 1.0)) for i in rng.choice(m, min(m, 3), replace=False)}
        for rates in ({}, slo):
            x = cp.Variable(T.shape)
            more = [cp.sum(cp.multiply(T[i], x[i])) >= rate for i, rate in rates.items()]
            problem = cp.Problem(cp.Maximize(cp.sum(cp.sum(cp.multiply(T / costs, x), axis=1))),
                                 gavel_base_constraints(x, sfa, cap) + more)
            _same_data(problem, F.mst_lp(T / costs, sfa, cap, T, list(rates), list(rates.values())))


@pytest.mark.parametrize("m, n", SIZES)
def test_min_total_duration_data(m, n):
    rng = np.random.default_rng(200 + m * 10 + n)
    for _ in range(4):
        T, s, c, sfa, cap = _instance(rng, m, n)
        floor = rng.uniform(100.0, 1e5, m) / rng.uniform(100.0, 1e6)
        x = cp.Variable(T.shape)
        cons = gavel_base_constraints(x, sfa, cap)
        cons.append(cp.sum(cp.multiply(T, x), axis=1) >= floor)
        _same_data(cp.Problem(cp.Maximize(1), cons), F.mtd_lp(T, sfa, cap, floor))


@pytest.mark.parametrize("m, n", [(2, 1), (2, 3), (5, 2), (8, 3), (40, 3)])
def test_finish_time_fairness_data(m, n):
    from hetopt.gavel.lp import gavel_isolated_throughput

    rng = np.random.default_rng(300 + m * 10 + n)
    for _ in range(4):
        T, s, c, sfa, cap = _instance(rng, m, n)
        since, steps, so_far = rng.uniform(0, 1e5, m), rng.uniform(10, 1e6, m), rng.uniform(0, 1e4, m)
        iso = gavel_isolated_throughput(T, s, c)
        x = cp.Variable(T.shape)
        expected_iso = [so_far[i] + steps[i] / iso[i] for i in range(m)]
        ratios = [(since[i] + steps[i] * cp.inv_pos(cp.sum(cp.multiply(T[i], x[i])))) / expected_iso[i]
                  for i in range(m)]
        problem = cp.Problem(cp.Minimize(cp.maximum(*ratios)), gavel_base_constraints(x, sfa, cap))
        _same_data(problem, F.ftf_lp(T, sfa, cap, since, steps, np.concatenate(expected_iso)))


@pytest.mark.parametrize("agnostic", [False, True])
def test_finish_time_fairness_keeps_gavels_state(agnostic):
    """A sequence of calls with jobs arriving and leaving: the same allocations as the CVXPY class, call by call."""
    from hetopt.gavel.variants import FinishTimeFairness

    rng = np.random.default_rng(7)
    T, s, c, _, _ = _instance(rng, 12, 3)
    T[:, 2] = np.maximum(T[:, 2], 0.5)
    steps = rng.uniform(1e4, 1e6, 12)
    ref, got = FinishTimeFairness(agnostic), F.FinishTimeFairness(agnostic)
    for k, jobs in enumerate([[0], [0, 1, 2], [1, 2, 3, 4, 5], [2, 3, 5, 6, 7, 8, 9], [9, 10, 11]]):
        steps[jobs] *= 0.9
        kw = {"remaining_steps": steps[jobs], "times_since_start": np.full(len(jobs), 360.0 * k),
              "job_ids": jobs, "reference_type": 2}
        a = ref(T[jobs], s[jobs], c, **kw)
        b = got(T[jobs], s[jobs], c, **kw)
        assert _bits(a, b), jobs


def test_the_direct_call_is_ecos_solve():
    """csolve with these arrays is what ecos.solve does with a CSC matrix of them."""
    import ecos
    import scipy.sparse as sp

    T, s, c, sfa, cap = _instance(np.random.default_rng(3), 12, 3)
    coef, _ = F._mmf_coef(T, s, c, None)
    lp = F.mmf_lp(coef, sfa, cap)
    flag, x, cost = F.solve(lp)
    G = sp.csc_matrix((lp.data, lp.indices, lp.indptr), shape=(lp.n_rows, lp.c.size))
    ref = ecos.solve(lp.c, G, lp.h, {"l": lp.l, "q": lp.q, "e": 0}, verbose=False)
    assert flag == ref["info"]["exitFlag"] == F.OPTIMAL and cost == ref["info"]["pcost"]
    assert _bits(np.ravel(x, order="F"), ref["x"][1:])


DIRECT = sorted(F.FAST)


@pytest.mark.parametrize("name", DIRECT)
def test_direct_policies_give_the_cvxpy_allocations(name):
    """Each direct policy against its hetopt.gavel function (CVXPY): the same allocation, bit for bit."""
    spec = POLICIES[name]
    rng = np.random.default_rng(len(name))
    for m in (1, 4, 25):
        T, s, c, _, _ = _instance(rng, m, 3)
        T[:, 2] = np.maximum(T[:, 2], 0.5)  # column 2 is the agnostic policies' reference type: it must run there
        kw = {}
        if "remaining_steps" in spec.inputs:
            kw["remaining_steps"] = rng.uniform(1e3, 1e6, m)
        if "reference_type" in spec.inputs:
            kw["reference_type"] = 2
        if "gpu_types" in spec.inputs:
            kw["gpu_types"] = ["k80", "p100", "v100"]
        if "time_to_slo" in spec.inputs:
            kw["time_to_slo"] = np.full(m, np.nan)
        if "times_since_start" in spec.inputs:
            kw["times_since_start"] = rng.uniform(0.0, 1e5, m)
        ref = spec.func(T, s, c, **kw)
        got = F.FAST[name][0](T, s, c, **kw)
        assert _bits(got, ref), (name, m)


def test_options_off_gavels_reading_fall_back_to_cvxpy():
    T, s, c, _, _ = _instance(np.random.default_rng(5), 6, 3)
    from hetopt.gavel import max_min_fairness

    assert _bits(F.max_min_fairness(T, s, c, solver="highs"), max_min_fairness(T, s, c, solver="highs"))
    assert _bits(F.max_min_fairness(T, s, c, normalization="isolated"),
                 max_min_fairness(T, s, c, normalization="isolated"))


def test_the_arena_takes_either_path():
    import hetopt.arena as A
    from hetopt.errors import ArgumentError
    from hetopt.gavel import load_trace

    w = A.from_gavel(load_trace("small_test", "4:4:4"))
    direct = A.execute(w, A.make_policy("max_min_fairness"))
    via_cvxpy = A.execute(w, A.make_policy("max_min_fairness", lp="cvxpy"))
    assert np.array_equal(direct.completion, via_cvxpy.completion)
    with pytest.raises(ArgumentError, match="lp"):
        A.make_policy("max_min_fairness", lp="fast")


def _direct_policies() -> list[str]:
    from hetopt.gavel.fastlp_more import FAST_MORE
    from hetopt.gavel.fastlp_packed import FAST_PACKED

    return sorted({**F.FAST, **FAST_PACKED, **FAST_MORE})


@pytest.mark.parametrize("policy", [pytest.param(p, marks=pytest.mark.slow) if p == "max_min_fairness_strategy_proof"
                                    else p for p in _direct_policies()])  # 4.2 s; its allocations: test_fastlp_more.py
def test_simulate_takes_either_path_with_the_same_rounds(policy):
    """hetopt.gavel.simulate's default (direct) and its CVXPY path: the same allocation at every
    recomputation, the same rounds, the same completions (medium_test: 55-91 recomputations)."""
    from hetopt.gavel import load_trace, simulate

    inst = load_trace("medium_test", "4:4:4")
    direct = simulate(inst, policy, max_size=None)
    via_cvxpy = simulate(inst, policy, max_size=None, lp="cvxpy")
    assert direct.info["lp"] == "direct" and via_cvxpy.info["lp"] == "cvxpy"
    assert direct.info["allocations"] == via_cvxpy.info["allocations"]
    assert direct.rounds == via_cvxpy.rounds
    assert np.array_equal(direct.completion, via_cvxpy.completion)


def test_simulate_names_a_bad_lp_path():
    from hetopt.errors import ArgumentError
    from hetopt.gavel import load_trace, simulate

    with pytest.raises(ArgumentError, match="lp is 'fast'"):
        simulate(load_trace("small_test", "4:4:4"), "max_min_fairness", lp="fast")
