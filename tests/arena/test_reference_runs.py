"""The papers' adapters decide as before their speed-ups: completion times recorded before, compared bit for bit."""

import json
from pathlib import Path

import numpy as np
import pytest

from hetopt.arena.convert import to_hadar
from hetopt.arena.engine import execute
from hetopt.arena.policies import make_policy
from hetopt.hadar import find_alloc

from .small import small_workload
from .test_presence import msr

REFERENCE = json.loads((Path(__file__).parent / "reference_completions.json").read_text())


@pytest.mark.parametrize("policy", sorted(REFERENCE["completion"]))
def test_the_completion_times_are_the_recorded_ones(policy):
    run = execute(msr(40, shrink=30), make_policy(policy), seed=0)
    assert run.completion.tolist() == REFERENCE["completion"][policy]


@pytest.mark.parametrize("seed", range(6))
def test_one_gpu_jobs_of_one_type_get_the_best_payoff_over_types_as_type_by_type(seed):
    """find_alloc(single_type=True) for a gang of one GPU: the allocation of the general route on each type alone.

    The general route (single_type=False) on the free GPUs of one type, the best payoff over the types, the
    first type on ties: the definition the one-GPU route shortens.
    """
    w = small_workload(seed, jobs=(6, 10), types=(2, 3))
    w = w.replace(scale_factor=np.ones(w.n_jobs, dtype=np.int64))
    inst = to_hadar(w, slot_length=360.0)
    rng = np.random.default_rng(seed)
    from hetopt.hadar.allocation import _type_order

    for j in range(inst.n_jobs):
        for _ in range(5):
            free = rng.integers(0, inst.capacity + 1)
            prices = rng.uniform(0.0, 3.0, inst.capacity.shape)
            kw = dict(remaining=float(w.steps[j]) * rng.uniform(0.1, 1.0), now=float(rng.uniform(0, 4000)),
                      comm_cost=0.5, require_positive=False)
            got = find_alloc(inst, j, free, prices, single_type=True, **kw)
            top = None
            for r in _type_order(inst, j):
                only = np.zeros_like(free)
                only[:, r] = free[:, r]
                if only.sum() < 1:
                    continue
                a = find_alloc(inst, j, only, prices, **kw)
                if a is not None and (top is None or a.payoff > top.payoff):
                    top = a
            if top is None:
                assert got is None
                continue
            assert (got.w.tolist(), got.rate, got.cost, got.payoff, got.consolidated) == \
                (top.w.tolist(), top.rate, top.cost, top.payoff, top.consolidated)
