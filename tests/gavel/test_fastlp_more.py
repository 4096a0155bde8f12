"""hetopt.gavel.fastlp_more hands ECOS the arrays CVXPY builds for Gavel's strategy-proof geo_mean program, to the bit."""

import cvxpy as cp
import numpy as np
import pytest

from hetopt.gavel import fastlp as F
from hetopt.gavel import fastlp_more as FM
from hetopt.gavel import variants
from hetopt.gavel.lp import gavel_base_constraints

from .test_fastlp import _bits, _instance, _same_data


@pytest.mark.parametrize("k", [*range(2, 17), 20, 31, 33, *(pytest.param(k, marks=pytest.mark.slow) for k in (47, 64, 67))])
def test_geo_mean_arrays_are_cvxpys(k):
    """Every k of the tree's shapes (dyadic completions with t among the leaves or not, 2^j and 2^j +- 1 terms)."""
    rng = np.random.default_rng(k)
    for n in (1, 3):
        T, s, c, sfa, cap = _instance(rng, k, n)
        coef, _ = F._mmf_coef(T, s, c, None if k % 2 else rng.choice([1.0, 2.0, 0.5], k))
        x = cp.Variable(T.shape)
        problem = cp.Problem(cp.Maximize(cp.geo_mean(cp.sum(cp.multiply(coef, x), axis=1))),
                             gavel_base_constraints(x, sfa, cap))
        lp = FM.geo_mean_lp(coef, sfa, cap)
        _same_data(problem, lp)
        assert lp.q == [3] * len(FM.gm_tree(k)[0])


@pytest.mark.parametrize("m", range(1, 13))
def test_strategy_proof_allocation_and_discounts_are_cvxpys(m):
    rng = np.random.default_rng(100 + m)
    T, s, c, _, _ = _instance(rng, m, 3)
    w = None if m % 2 else rng.choice([1.0, 2.0, 0.5], m)
    X, d = variants.max_min_fairness_strategy_proof(T, s, c, w, return_discounts=True)
    got, dd = FM.max_min_fairness_strategy_proof(T, s, c, w, return_discounts=True)
    assert _bits(got, X) and _bits(dd, d)
    assert _bits(FM.max_min_fairness_strategy_proof(T, s, c, w), X)


def _ecos_exits_with(monkeypatch, flag: int) -> None:
    """Every ECOS solve reports exit flag ``flag`` (with ECOS's own x), under CVXPY and the direct path alike."""
    import _ecos

    csolve = _ecos.csolve

    def flagged(*args, **kwargs):
        sol = csolve(*args, **kwargs)
        sol["info"]["exitFlag"] = flag
        return sol

    monkeypatch.setattr(_ecos, "csolve", flagged)


def _policy_call(policy: str, seed: int):
    """A 5-job, 3-type call of ``policy``: its spec, the arrays and the keyword inputs it takes."""
    from hetopt.gavel import POLICIES

    rng = np.random.default_rng(seed)
    T, s, c, _, _ = _instance(rng, 5, 3)
    kw = {"remaining_steps": rng.uniform(1e3, 1e6, 5), "times_since_start": rng.uniform(0.0, 1e5, 5)}
    spec = POLICIES[policy]
    kw = {k: v for k, v in kw.items() if k in spec.inputs}
    if spec.packing:
        kw |= {"pairs": [(0, 1), (1, 3), (2, 4)], "pair_throughput": rng.uniform(0.0, 3.0, (3, 3, 2))}
    return spec, (T, s, c), kw


@pytest.mark.parametrize("policy", ["max_min_fairness", "max_sum_throughput", "finish_time_fairness",
                                    "max_min_fairness_strategy_proof", "max_min_fairness_packed",
                                    "finish_time_fairness_packed", "max_min_fairness_water_filling_packed"])
def test_an_iteration_limit_gives_cvxpys_allocation(policy, monkeypatch):
    """ECOS stopped at its iteration limit (exit flag -1): CVXPY reads its last iterate (USER_LIMIT is among its
    SOLUTION_PRESENT), and so does the direct path (every solve here reports -1, with ECOS's own x)."""
    from hetopt.gavel.policies import lp_path

    _ecos_exits_with(monkeypatch, -1)
    spec, args, kw = _policy_call(policy, 9)
    direct = lp_path(policy, spec, "direct").func
    assert direct is not spec.func
    assert _bits(direct(*args, **kw), spec.func(*args, **kw))


@pytest.mark.parametrize("policy", ["finish_time_fairness", "finish_time_fairness_packed"])
def test_ecos_failing_gives_the_isolated_share_on_both_paths(policy, monkeypatch):
    """ECOS exits with flag -3 (the packed policy's run on the arena page at reset 356): Gavel's run ends there
    with CVXPY's SolverError; both of hetopt's paths return every job's isolated share and no pair, and go on."""
    from hetopt.gavel.lp import gavel_isolated_share, sf_array
    from hetopt.gavel.policies import lp_path

    _ecos_exits_with(monkeypatch, -3)
    spec, (T, s, c), kw = _policy_call(policy, 3)
    want = gavel_isolated_share(c, sf_array(s, 3))
    for func in (spec.func, lp_path(policy, spec, "direct").func):
        X = func(T, s, c, **kw)
        assert _bits(X[:5], want) and not X[5:].any()
