"""Small OASiS instances shared by the tests."""

from __future__ import annotations

import numpy as np
import pytest

from hetopt.oasis import OasisInstance, SigmoidUtility


def tiny_instance(seed: int, *, n_jobs: int = 3, horizon: int = 4, servers: int = 2,
                  chunk_times=(0.25, 0.5, 1 / 3, 0.4, 0.7, 1.0, 1.5)) -> OasisInstance:
    """A random instance small enough for Alg. 2 transcribed literally and for brute force.

    Two resources (cpu, bandwidth); one mini-batch per chunk and no gradient, so that
    M_i (tau_i + 2 e_i / b_i) = tau_i is drawn from ``chunk_times``.
    """
    rng = np.random.default_rng(seed)
    I, T, H = n_jobs, horizon, servers
    m = rng.choice(chunk_times, size=I)
    return OasisInstance(
        horizon=T, worker_capacity=rng.integers(2, 6, (H, 2)), ps_capacity=rng.integers(2, 6, (H, 2)),
        arrival=rng.integers(1, max(2, T // 2 + 1), I), epochs=rng.integers(1, 4, I), chunks=rng.integers(1, 5, I),
        minibatches=np.ones(I, int), minibatch_time=m, gradient_size=np.zeros(I),
        worker_demand=np.column_stack([rng.integers(1, 3, I), rng.integers(1, 3, I)]),
        ps_demand=np.column_stack([rng.integers(1, 3, I), rng.integers(2, 5, I)]),
        utility=[SigmoidUtility(float(rng.uniform(5, 50)), float(rng.uniform(0, 2)), float(rng.uniform(0, 3))) for _ in range(I)],
        resource_names=("cpu", "bandwidth"))


@pytest.fixture
def tiny():
    return tiny_instance
