"""The DP of Alg. 2 (``oracle._forward``) against a scalar transcription of its recursion.

``_forward`` skips the targets that cannot improve (a binary search on the non-decreasing cost
table, the infinite tail beyond what the slots so far can train).  The reference below visits every
target of every option of every slot with plain Python numbers, in the same order with the same
strict comparison, so the costs AND the choices (which the backtracking turns into schedules) must
agree exactly: with zero, random, tied (small integers) and negative prices, in double and long double.
"""

from __future__ import annotations

import numpy as np
import pytest

from hetopt.oasis import generate_instance
from hetopt.oasis.oracle import _forward, _Job, _slot, best_schedule, chunks_for
from hetopt.oasis.prices import Prices, Usage


def _reference(inst, job, prices, used):
    jb = _Job(inst, job)
    D = jb.D
    F = [0.0] + [float("inf")] * D
    payoffs, choices = [], []
    for t in range(jb.a, inst.horizon + 1):
        n_w, _, cost, _, _ = _slot(inst, jb, t, prices, used)
        opts, last = [], None
        for w, c in zip(n_w.tolist(), cost.tolist(), strict=True):
            k = min(int(chunks_for(w, jb.m)), D)
            if k > 0 and k != last:
                opts.append((k, c))
            last = k
        new, choice = list(F), [0] * (D + 1)
        for j, (k, c) in enumerate(opts):
            for d in range(D + 1):
                cand = c if d < k else F[d - k] + c
                if cand < new[d]:
                    new[d], choice[d] = cand, j + 1
        F = new
        payoffs.append(float(jb.f[t - jb.a]) - F[D])
        choices.append(choice)
    return payoffs, choices


def _prices(inst, kind, rng, dtype):
    T, H, K, R = inst.horizon, inst.n_worker_servers, inst.n_ps_servers, inst.n_resources
    draw = {
        "zero": lambda s: np.zeros(s),
        "random": lambda s: rng.random(s),
        "ties": lambda s: rng.integers(0, 3, s).astype(float),
        "negative": lambda s: rng.random(s) - 0.3,
    }[kind]
    return Prices(draw((T, H, R)).astype(dtype), draw((T, K, R)).astype(dtype))


@pytest.mark.parametrize("dtype", [np.float64, np.longdouble])
@pytest.mark.parametrize("kind", ["zero", "random", "ties", "negative"])
@pytest.mark.parametrize("seed", range(6))
def test_forward_matches_the_scalar_recursion(seed, kind, dtype):
    rng = np.random.default_rng(seed)
    inst = generate_instance(n_jobs=3, horizon=12, n_worker_servers=2, n_ps_servers=2, seed=seed, epochs_range=(2, 6), chunks_range=(2, 12))
    prices = _prices(inst, kind, rng, dtype)
    used = Usage.empty(inst)
    for i in range(inst.n_jobs):
        _, payoff, choices = _forward(inst, i, prices, used)
        ref_payoff, ref_choices = _reference(inst, i, prices, used)
        assert [float(x) for x in payoff] == pytest.approx(ref_payoff, rel=1e-12, abs=1e-12)
        assert [c[0].tolist() for c in choices] == ref_choices


def test_forward_keeps_the_choices_with_usage():
    """Residual capacities (earlier jobs' usage) change the options per slot; the choices still agree."""
    inst = generate_instance(n_jobs=4, horizon=10, n_worker_servers=2, n_ps_servers=2, seed=3, epochs_range=(2, 5), chunks_range=(2, 10))
    rng = np.random.default_rng(3)
    prices = _prices(inst, "ties", rng, np.float64)
    first = best_schedule(inst, 0, prices)
    used = Usage.empty(inst)
    if first.schedule is not None:
        used.add(inst, 0, first.schedule.workers, first.schedule.ps)
    for i in range(1, inst.n_jobs):
        _, _, choices = _forward(inst, i, prices, used)
        assert [c[0].tolist() for c in choices] == _reference(inst, i, prices, used)[1]


def _full_best(inst, job, prices, used):
    """best_schedule's choice from every end slot's payoff (no early stop): the first maximum."""
    from hetopt.oasis.oracle import _backtrack

    jb, payoff, choices = _forward(inst, job, prices, used, every_end=True)
    if not np.isfinite(payoff).any():
        return None
    return _backtrack(inst, jb, choices, jb.a + int(np.argmax(payoff)), prices)


@pytest.mark.parametrize("dtype", [np.float64, np.longdouble])
@pytest.mark.parametrize("kind", ["zero", "random", "ties", "negative"])
@pytest.mark.parametrize("seed", range(8))
def test_early_stop_picks_the_same_end_slot_and_schedule(seed, kind, dtype):
    """best_schedule stops once no later utility beats the best payoff: same schedule, payoff and cost, bit for bit.

    Negative prices switch the stop off (a later payoff may then exceed its utility)."""
    rng = np.random.default_rng(100 + seed)
    inst = generate_instance(n_jobs=4, horizon=16, n_worker_servers=2, n_ps_servers=2, seed=seed, epochs_range=(1, 4),
                             chunks_range=(2, 8))
    prices = _prices(inst, kind, rng, dtype)
    used = Usage.empty(inst)
    for i in range(inst.n_jobs):
        got, want = best_schedule(inst, i, prices, used), _full_best(inst, i, prices, used)
        assert (got.schedule is None) == (want is None)
        if want is not None:
            assert np.array_equal(got.schedule.workers, want.schedule.workers)
            assert np.array_equal(got.schedule.ps, want.schedule.ps)
            assert (got.payoff, got.cost, got.utility) == (want.payoff, want.cost, want.utility)


def test_early_stop_stops_early_when_utilities_fall():
    """With zero prices the first feasible end slot has the largest utility: the DP stops right after it."""
    inst = generate_instance(n_jobs=3, horizon=40, n_worker_servers=2, n_ps_servers=2, seed=1, epochs_range=(1, 2),
                             chunks_range=(2, 4))
    prices = _prices(inst, "zero", np.random.default_rng(0), np.float64)
    used = Usage.empty(inst)
    for i in range(inst.n_jobs):
        _, full, _ = _forward(inst, i, prices, used)
        _, short, choices = _forward(inst, i, prices, used, every_end=False)
        f = inst.utility_table(i)
        if np.isfinite(full).any() and f[-1] < f[int(np.argmax(np.isfinite(full)))]:
            assert len(choices) < full.size  # stopped before the horizon
        assert int(np.argmax(short)) == int(np.argmax(full))
