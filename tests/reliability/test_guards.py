"""Size guards (SizeLimitError naming the size and the limit) and nonsense arguments rejected."""

from __future__ import annotations

import numpy as np
import pytest

from hetopt.api import load_instance
from hetopt.errors import InstanceError, SizeLimitError


def test_has_refuses_too_many_categories():
    from hetopt.placement.generators import generate_instance
    from hetopt.placement.has import has

    inst = generate_instance(n_jobs=8, n_workers=100, seed=0)
    with pytest.raises(SizeLimitError, match=r"C\(99, 7\).*limit is 50000"):
        has(inst)


def test_has_small_instance_unaffected():
    from hetopt.placement.has import has

    assert has(load_instance("liu2024_table2")).objective > 0


def test_categories_refuses_huge_psi_but_streams():
    from hetopt.placement.categories import categories, iter_categories

    with pytest.raises(SizeLimitError, match="C\\(59, 19\\)"):
        categories(20, 60)
    assert len(categories(3, 5)) == 6
    assert next(iter(iter_categories(20, 60)))  # streaming stays available


def test_hare_schedule_default_refuses_25_tasks_and_lp_ordering_runs():
    from hetopt.hare import generate_instance as random_instance
    from hetopt.hare.algorithm1 import MAX_RELAXATION_TASKS, schedule

    inst = random_instance(seed=0, n_jobs=10, n_gpus=4, max_rounds=3, max_tasks=3, max_total_tasks=25)
    assert inst.n_tasks > MAX_RELAXATION_TASKS
    with pytest.raises(SizeLimitError, match="MAX_RELAXATION_TASKS"):
        schedule(inst)
    assert schedule(inst, ordering="lp").objective > 0


def test_contention_simulation_refuses_huge_iteration_counts():
    from hetopt.contention import simulate
    from hetopt.contention.instance import ContentionInstance

    d = load_instance("wang2019_tiny").to_dict()
    d["iterations"] = [10**18] * len(d["iterations"])
    with pytest.raises(SizeLimitError, match="max_size"):
        simulate(ContentionInstance.from_dict(d), "ada_srsf")
    d["iterations"] = [1e19] * len(d["iterations"])
    with pytest.raises(InstanceError, match="iterations"):
        ContentionInstance.from_dict(d)


X = np.array([[0.5, 0.5], [0.2, 0.8], [1.0, 0.0]])


@pytest.mark.parametrize("scale", [[-1, 1, 1], [0, 1, 1], [1.5, 1, 1], [True, 1, 1], [np.nan, 1, 1]])
def test_schedule_round_rejects_bad_scale_factor(scale):
    from hetopt.gavel.mechanism import priorities, schedule_round

    with pytest.raises(InstanceError, match="scale_factor"):
        schedule_round(X, scale, [2, 1], priorities(X, np.full((3, 2), 1 / 3)))


@pytest.mark.parametrize("scale", [-1, 3, 2.5])
def test_mechanism_rejects_scale_factor_beyond_cluster(scale):
    from hetopt.gavel.mechanism import GavelMechanism

    m = GavelMechanism(2)
    for j in (0, 1):
        m.add_job(j)
    m.reset(0.0, {0: np.array([0.5, 0.5]), 1: np.array([0.2, 0.8])})
    with pytest.raises(InstanceError, match="scale_factor"):
        m.schedule({0: [1.0, 1.0], 1: [1.0, 2.0]}, {0: scale, 1: 1}, [2, 1])


@pytest.mark.parametrize("alloc", [[[np.nan, 0.5], [0.2, 0.8], [1.0, 0.0]], [[0.7, 0.5], [0.2, 0.8], [1.0, 0.0]],
                                   [[-0.5, 0.5], [0.2, 0.8], [1.0, 0.0]]])
def test_mechanism_rejects_bad_allocation(alloc):
    from hetopt.gavel.mechanism import priorities, schedule_round

    with pytest.raises(InstanceError, match="allocation"):
        priorities(alloc, np.full((3, 2), 1 / 3))
    with pytest.raises(InstanceError, match="allocation"):
        schedule_round(alloc, [1, 1, 1], [2, 1], np.ones((3, 2)))


def test_schedule_round_valid_input_unchanged():
    from hetopt.gavel.mechanism import priorities, schedule_round

    out = schedule_round(X, [1, 1, 1], [2, 1], priorities(X, np.full((3, 2), 1 / 3)))
    assert out.sum(axis=0).tolist() <= [2, 1] and out.sum() == 3
