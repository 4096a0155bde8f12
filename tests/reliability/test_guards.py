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


# ---------------------------------------------------------------- issue 31: guards that crashed formatting their refusal
def test_exhaustive_refuses_with_integers_at_ten_thousand_workers():
    """Before: OverflowError formatting 8**10000 as a float."""
    from hetopt.placement import PlacementInstance, exhaustive

    small = load_instance("liu2024_table2")
    inst = PlacementInstance.from_dict({**small.to_dict(), **{}})
    with pytest.raises(SizeLimitError, match=r"S\*\*K = \d+\*\*\d+ = \d+ assignments, above max_size=1;"):
        exhaustive(inst, max_size=1)
    big = _many_workers(small, 10_000)
    with pytest.raises(SizeLimitError, match=r"a number of \d+ digits assignments.*no max_size reaches it"):
        exhaustive(big)


def _many_workers(inst, k: int):
    from hetopt.placement.generators import generate_instance

    return generate_instance(n_jobs=inst.n_jobs, n_workers=k, seed=0)


def test_hare_brute_force_refuses_a_million_times_its_limit_with_integers():
    """Before: OverflowError in a float power; now the count is exact (or 'more than 2^63')."""
    from hetopt.hare import generate_instance
    from hetopt.hare.exact import BRUTE_FORCE_LIMIT, brute_force
    from hetopt.hare.exact.bruteforce import enumeration_size

    inst = generate_instance(seed=0, n_jobs=5, n_gpus=2, max_total_tasks=14)  # 14 tasks: 14! 2^14 = 1.4e15
    size = enumeration_size(inst)
    assert size == __import__("math").factorial(inst.n_tasks) * inst.n_gpus ** inst.n_tasks
    assert size > 10**6 * BRUTE_FORCE_LIMIT
    with pytest.raises(SizeLimitError, match=rf"= {size} cases"):
        brute_force(inst)
    huge = generate_instance(seed=0, n_jobs=200, n_gpus=8, max_total_tasks=400)
    with pytest.raises(SizeLimitError, match="more than 2\\^63 cases"):
        brute_force(huge)


@pytest.mark.parametrize("kind", ["gavel", "hare", "oasis", "hadar", "placement", "contention"])
def test_generators_refuse_2_to_the_70_jobs_by_name(kind):
    """Before: Gavel's generator hung, the others raised numpy errors (Maximum allowed dimension, C long)."""
    from hetopt.errors import ArgumentError
    from hetopt.registry import kinds

    gen = kinds()[kind].generate_instance
    with pytest.raises(ArgumentError, match=r"n_jobs is 1180591620717411303424; expected an integer >= 1 and <= 1000000"):
        gen(n_jobs=2**70)


@pytest.mark.parametrize("kind", ["hare", "contention", "placement", "hadar", "oasis", "gavel"])
def test_threads_2_to_the_70_is_an_argument_error(kind):
    """Before: OR-Tools raised TypeError (a 32-bit parameter)."""
    from hetopt.errors import ArgumentError
    from hetopt.registry import kinds

    k = kinds()[kind]
    with pytest.raises(ArgumentError, match=r"threads is 1180591620717411303424; expected an integer in \[1, 1024\]"):
        k.solve_exact(k.example(seed=0, size=1), threads=2**70)


# ---------------------------------------------------------------- issue 31, item 7: crashes that are now named errors
def test_item7_crashes_are_argument_errors():
    from hetopt.api import methods_table
    from hetopt.compare import compare
    from hetopt.errors import ArgumentError
    from hetopt.registry import kinds

    hare, oasis = kinds()["hare"], kinds()["oasis"]
    inst = hare.example(seed=0, size=1)
    with pytest.raises(ArgumentError, match=r"sol is a NoneType; expected a HareSolution"):
        hare.check_schedule(inst, None)  # was AttributeError
    with pytest.raises(ArgumentError, match=r"inst is a NoneType"):
        oasis.export_model(None)  # was AttributeError
    with pytest.raises(ArgumentError, match=r"names is 3"):
        methods_table(3)  # was TypeError
    with pytest.raises(ArgumentError, match=r"methods is 3"):
        compare(inst, methods=3)  # was TypeError
    with pytest.raises(ArgumentError, match=r"options is a str"):
        hare.simulate(inst, "srtf", options="x")


def test_placement_exact_counts_the_worker_level_start_in_its_guard():
    """Issue 31: without communication the grouped model of 1 job on 200,000 workers has 5 variables, and the
    guard (variables only) let Optimus-LB's greedy run for 117 s; the start's S K^2 operations are counted now."""
    import hetopt
    from hetopt.placement import generate_instance
    from hetopt.placement.exact.common import OPERATIONS_PER_VARIABLE, route_size

    inst = generate_instance(n_jobs=1, n_workers=200_000, seed=0, communication=False)
    est = route_size(inst)
    ops = 3 * 200_000**2 + 200_000 * (18 + 10_000)  # the pruning's 3 S K^2, the greedy's K (S log2 K + 10^4)
    assert est["operations"] == ops and isinstance(est["size"], int)
    with pytest.raises(SizeLimitError, match=r"max_size=60,000") as err:
        hetopt.solve(inst, "exact")
    assert f"{ops:,}" in str(err.value) and f"max_size={est['size']}" in str(err.value)
    # more than 10^6 times the limit, formatted with integers
    with pytest.raises(SizeLimitError, match=r"max_size=1;") as err:
        hetopt.solve(inst, "exact", max_size=1)
    assert est["size"] > 10**6 and est["size"] == -(-ops // OPERATIONS_PER_VARIABLE)


def test_placement_exact_guard_leaves_small_instances_alone():
    from hetopt.placement import generate_instance
    from hetopt.placement.exact.common import route_size

    inst = generate_instance(n_jobs=4, n_workers=15, seed=0)
    est = route_size(inst)
    assert est["size"] == est["variables"]


def test_gavel_exact_is_guarded_by_its_lp_columns():
    """Issue 31's scan: Gavel's exact LP had no guard (20,000 jobs ran past 30 s); refused in integers now."""
    import hetopt
    from hetopt.gavel import generate_instance

    inst = generate_instance(n_jobs=20_000, seed=0)
    with pytest.raises(SizeLimitError, match=r"60,000 columns .* max_size=20,000: pass max_size=60000"):
        hetopt.solve(inst, "exact")
    with pytest.raises(SizeLimitError, match=r"max_size=1:"):
        hetopt.solve(inst, "exact", max_size=1)  # 60,000 x the limit, counted in integers
