"""Calling any policy of the registry with the inputs it needs (for the generic tests)."""

from __future__ import annotations

import itertools

import numpy as np

from hetopt.gavel.policies import PolicySpec, policy_arguments

ATOL = 1e-6


def call(spec: PolicySpec, T, s, c, *, seed: int = 0):
    """``(X, pairs)``: the spec's allocation of jobs ``T`` (and of every same-scale-factor pair when it packs)."""
    T, s, c = (np.asarray(a, dtype=float) for a in (T, s, c))
    J, R = T.shape
    kwargs = policy_arguments(spec, priority_weight=np.ones(J), remaining_steps=np.full(J, 1000.0),
                              times_since_start=np.zeros(J), job_ids=list(range(J)), reference_type=0,
                              time_to_slo=np.full(J, np.nan), gpu_types=[f"t{r}" for r in range(R)])
    pairs: list[tuple[int, int]] = []
    if spec.packing:
        pairs = [(a, b) for a, b in itertools.combinations(range(J), 2) if s[a] == s[b]]
        kwargs["pairs"] = pairs
        kwargs["pair_throughput"] = np.array([np.stack([0.6 * T[a], 0.7 * T[b]], axis=1) for a, b in pairs]
                                             ).reshape(len(pairs), R, 2)
    return np.asarray(spec.make(seed=seed)(T, s, c, **kwargs), dtype=float), pairs


def feasible(X, s, c, pairs=()) -> None:
    """(G1)-(G3), with a job's time counting its pairs' rows and a pair's GPUs counted once."""
    s = np.asarray(s, dtype=float)
    J = s.size
    assert X.shape[0] == J + len(pairs)
    assert np.all(X >= -ATOL)
    time = X[:J].sum(axis=1).copy()
    used = s @ X[:J]
    for k, (a, b) in enumerate(pairs):
        time[a] += X[J + k].sum()
        time[b] += X[J + k].sum()
        used = used + s[a] * X[J + k]
    assert np.all(time <= 1 + ATOL)
    assert np.all(used <= np.asarray(c) + ATOL)
