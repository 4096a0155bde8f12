import numpy as np
import pytest

from hetopt import ArgumentError, SolverError, solve_problem
from hetopt.data import load_json
from hetopt.placement import (
    PlacementInstance,
    build_p3_cvxpy,
    categories,
    constricted_set,
    matching_market,
    p3_assignment,
    p3_optimum,
    preferred_graph,
    sum_top,
)

from .conftest import random_instance


def total(inst, a):
    return float(inst.throughput[a, np.arange(inst.n_workers)].sum())


def test_table2_assignments(table2):
    # Table II: {3,1}: ResNet-18 {T4,T4,V100}, VGG-19 {V100}; {2,2}: {T4,T4} / {V100,V100}; {1,3}: {T4} / {T4,V100,V100}
    expect = {(3, 1): 2948.0, (2, 2): 4058.0, (1, 3): 275.0 + 884 + 2 * 1754}
    for cat, value in expect.items():
        for rule in ("dgs", "paper"):
            r = matching_market(table2, cat, rule=rule)
            assert r.throughput == pytest.approx(value)
            assert np.bincount(r.assignment, minlength=2).tolist() == list(cat)


def test_literal_index_tie_break_does_not_end_on_table2(table2):
    # finding: with each job taking exactly K_i workers (ties by index), eq. (22) cycles on Table II's own (3, 1)
    with pytest.raises(SolverError, match="did not end"):
        matching_market(table2, (3, 1), rule="paper", ties=False, max_iter=2000)


def test_paper_rule_does_not_end_on_saved_instance():
    # finding kept in instances/: eq. (22) creeps in unit steps far beyond Theorem 1's bound
    inst = PlacementInstance.from_dict(load_json("liu2024_auction_cycle"))
    with pytest.raises(SolverError, match="Theorem 1"):
        matching_market(inst, (8, 4, 2, 1), rule="paper", max_iter=3000)
    r = matching_market(inst, (8, 4, 2, 1))
    assert r.throughput == pytest.approx(total(inst, p3_assignment(inst, (8, 4, 2, 1))))


@pytest.mark.parametrize("seed", range(12))
def test_auction_equals_direct_p3_optimum(seed):
    """Theorem 2: the pricing ends (Theorem 1) with a P3 optimum; cross-checked three ways."""
    rng = np.random.default_rng(seed)
    inst = random_instance(rng, comm=False)
    for cat in categories(inst.n_jobs, inst.n_workers):
        r = matching_market(inst, cat)
        hung = total(inst, p3_assignment(inst, cat))
        assert r.throughput == pytest.approx(hung, rel=1e-9)
        assert np.bincount(r.assignment, minlength=inst.n_jobs).tolist() == list(cat)
        # clearing prices: every job's workers are a top-K_i set of rho - p (equilibrium)
        gamma = inst.throughput - r.prices
        for i, n in enumerate(cat):
            assert gamma[i, r.assignment == i].sum() == pytest.approx(sum_top(gamma[i], n), abs=1e-6)
    cat = categories(inst.n_jobs, inst.n_workers)[-1]
    value, _ = p3_optimum(inst, cat)
    assert value == pytest.approx(total(inst, p3_assignment(inst, cat)), rel=1e-9)
    lp = solve_problem(build_p3_cvxpy(inst, cat))
    assert lp.objective == pytest.approx(value, rel=1e-7)


def test_paper_rule_agrees_when_it_ends():
    rng = np.random.default_rng(7)
    for _ in range(20):
        inst = random_instance(rng, comm=False)
        for cat in categories(inst.n_jobs, inst.n_workers):
            try:
                r = matching_market(inst, cat, rule="paper", max_iter=20_000)
            except SolverError:
                continue
            assert r.throughput == pytest.approx(total(inst, p3_assignment(inst, cat)), rel=1e-9)


def test_preferred_graph_and_constricted_set():
    gamma = np.array([[5.0, 4.0, 1.0], [5.0, 3.0, 2.0]])
    G = preferred_graph(gamma, [1, 2])
    assert sorted(k for (_, k) in G.neighbors(("job", 0))) == [0]
    assert sorted(k for (_, k) in G.neighbors(("job", 1))) == [0, 1]
    Kc, Sc = constricted_set(G)
    assert Kc == {0} and Sc == {0, 1}  # worker 0 is wanted strictly by both jobs
    G = preferred_graph(np.array([[5.0, 1.0, 1.0], [1.0, 5.0, 4.0]]), [1, 2])
    assert constricted_set(G) == (set(), set())


def test_bad_category(table2):
    with pytest.raises(ArgumentError, match="sums to"):
        matching_market(table2, (2, 1))
    with pytest.raises(ArgumentError, match=r"category\[0\]"):
        matching_market(table2, (0, 4))
    with pytest.raises(ArgumentError, match="shape"):
        p3_assignment(table2, (1, 1, 2))
    for bad in (dict(rule="greedy"), dict(unit=0), dict(unit=float("inf")), dict(ties=1), dict(max_iter=-1)):
        with pytest.raises(ArgumentError, match=next(iter(bad))):
            matching_market(table2, (2, 2), **bad)


@pytest.mark.parametrize("scale", [1e-9, 1e9])
def test_preferred_graph_is_the_same_at_every_magnitude(scale):
    # issue 31: ties were within 1e-9 * max(1, max |gamma|), absolute below 1: at 1e-9 the job's two workers
    # (valuations 1 and 0.5, scaled) were tied and both linked; relative now, as at 1
    from hetopt.placement.matching_market import preferred_graph

    gamma = np.array([[1.0, 0.5, 0.25], [0.5, 0.5, 1.0]])
    ref = preferred_graph(gamma, [1, 1])
    got = preferred_graph(gamma * scale, [1, 1])
    assert sorted(got.edges) == sorted(ref.edges) == [(("job", 0), ("worker", 0)), (("job", 1), ("worker", 2))]
    assert [got.edges[e]["strict"] for e in sorted(got.edges)] == [ref.edges[e]["strict"] for e in sorted(ref.edges)]


def test_a_kept_market_is_the_computed_one_and_a_copy():
    """``matching_market`` keeps cleared markets by throughputs and category: a kept one equals a fresh
    computation (the traced run is never kept) and its arrays are the caller's own."""
    from hetopt.placement import categories

    rng = np.random.default_rng(11)
    for ties in (False, True):
        inst = random_instance(rng, S=3, K=8, ties=ties)
        for cat in categories(3, 8):
            first, again = matching_market(inst, cat), matching_market(inst, cat)
            fresh = matching_market(inst, cat, trace=True)
            for r in (first, again):
                assert np.array_equal(r.assignment, fresh.assignment) and np.array_equal(r.prices, fresh.prices)
                assert (r.iterations, r.throughput) == (fresh.iterations, fresh.throughput)
            first.assignment[:] = -1
            first.prices[:] = -1.0
            assert np.array_equal(matching_market(inst, cat).assignment, fresh.assignment)
            # the step limit is part of what is kept: enough steps clear, one fewer raises, on both routes
            assert matching_market(inst, cat, max_iter=fresh.iterations).iterations == fresh.iterations
            if fresh.iterations:
                for trace in (False, True):
                    with pytest.raises(SolverError):
                        matching_market(inst, cat, max_iter=fresh.iterations - 1, trace=trace)
    a, b = random_instance(rng, S=3, K=8, ties=False), random_instance(rng, S=3, K=8, ties=False)
    assert all(matching_market(a, c).throughput != matching_market(b, c).throughput for c in categories(3, 8))


def test_constricted_arrays_are_what_clear_finds():
    """The paper rule's loop finds the constricted set from arrays; on the same valuations the preferred graph's
    ``_clear`` finds the same K_c and S_c, by a worker held strictly twice or by a Hall violator (whichever
    maximum matching each finds), and the arrays answer None exactly when the market clears."""
    from hetopt.placement.matching_market import _clear, _constricted_arrays, preferred_graph

    rng = np.random.default_rng(5)
    seen = {"strict": 0, "hall": 0, "clears": 0}
    for _ in range(1500):
        S, K = int(rng.integers(2, 5)), int(rng.integers(4, 10))
        cat = rng.multinomial(K - S, np.ones(S) / S) + 1
        gamma = rng.integers(0, 4, size=(S, K)).astype(float) * 10.0 ** rng.integers(-6, 7)  # ties, magnitudes
        gamma -= rng.integers(0, 2) * rng.random() * gamma.max()  # valuations below zero, as prices rise
        Kc, Sc, owner = _clear(preferred_graph(gamma, cat))
        fast = _constricted_arrays(gamma, cat)
        if not Kc:
            assert fast is None and len(owner) == cat.sum()
            seen["clears"] += 1
        else:
            assert fast == (Kc, Sc)
            G = preferred_graph(gamma, cat)
            twice = any(sum(1 for i in range(S) if G.has_edge(("job", i), ("worker", k))
                            and G.edges[("job", i), ("worker", k)]["strict"]) >= 2 for k in range(K))
            seen["strict" if twice else "hall"] += 1
    assert min(seen.values()) > 50, seen


def test_paper_rule_runs_as_on_the_graph():
    """eq. (22)'s pricing, traced, against the loop of Algorithm 2 written on the preferred graph alone."""
    from hetopt.placement import categories
    from hetopt.placement.matching_market import _clear, _loss, _tolerance, preferred_graph

    rng = np.random.default_rng(8)
    for _ in range(6):
        inst = random_instance(rng, S=3, K=7, ties=bool(rng.integers(0, 2)))
        rho, tol = inst.throughput, _tolerance(inst.throughput)
        for cat in list(categories(3, 7))[:6]:
            try:
                got = matching_market(inst, cat, rule="paper", trace=True, max_iter=300)
            except SolverError:
                got = None
            prices, gamma, steps = np.zeros(7), rho.copy(), []
            while True:
                Kc, Sc, owner = _clear(preferred_graph(gamma, cat))
                if not Kc or len(steps) > 300:
                    break
                k = min(Kc)
                inc = max(1.0, max(_loss(gamma[i], k, int(cat[i]), tol) for i in Sc))
                prices[k] += inc
                gamma[:, k] = rho[:, k] - prices[k]
                steps.append((k, inc, sorted(Kc), sorted(Sc)))
            if len(steps) > 300:
                assert got is None
                continue
            assert got is not None and got.iterations == len(steps)
            assert [(r["raised"][0], r["increment"], r["competed"], r["competing_jobs"]) for r in got.trace] == steps
            assert got.assignment.tolist() == [owner[k] for k in range(7)] and np.array_equal(got.prices, prices)
