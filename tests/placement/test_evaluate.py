import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hetopt import ArgumentError
from hetopt.placement import (
    PlacementInstance,
    average_jct,
    equal_share_jct,
    fairness,
    heterogeneity_degree,
    job_metrics,
    worker_samples,
)


def test_table2_numbers_by_hand(table2):
    # eqs. (11) and (14) by hand: T_i |Pi_i| / V_i, averaged over the two jobs
    hand = {
        (0, 0, 0, 1): (200 * 100_000 / (275 + 275 + 644) + 200 * 50_000 / 1754) / 2,
        (0, 0, 1, 1): (200 * 100_000 / 550 + 200 * 50_000 / 3508) / 2,
        (1, 1, 0, 0): (200 * 100_000 / 1288 + 200 * 50_000 / 1768) / 2,
        (0, 1, 0, 1): (200 * 100_000 / 919 + 200 * 50_000 / 2638) / 2,
    }
    for a, value in hand.items():
        assert average_jct(table2, a) == pytest.approx(value, rel=1e-12)
    # the paper's printed values (Table II, Section IV-A)
    assert round(average_jct(table2, (0, 0, 0, 1)), 1) == 11225.8
    assert round(average_jct(table2, (1, 1, 0, 0))) == 10592
    assert round(average_jct(table2, (0, 1, 0, 1)), 1) == 12776.8


def test_samples_are_proportional_and_complete(table2):
    s = worker_samples(table2, (0, 0, 0, 1))
    assert s[:3].sum() == pytest.approx(100_000) and s[3] == pytest.approx(50_000)
    assert s[2] / s[0] == pytest.approx(644 / 275)  # eq. (12)
    eq = worker_samples(table2, (0, 0, 0, 1), split="equal")
    assert np.allclose(eq[:3], 100_000 / 3)


def test_equal_split_straggler(table2):
    m = job_metrics(table2, (0, 0, 0, 1), split="equal")
    assert m["throughput"][0] == pytest.approx(3 * 275)  # the slowest worker sets the pace
    assert average_jct(table2, (0, 0, 0, 1), split="equal") > average_jct(table2, (0, 0, 0, 1))


def test_communication_ring_bottleneck():
    inst = PlacementInstance(throughput=[[100.0] * 4, [50.0] * 4], dataset_size=[1000, 1000], epochs=[1, 1],
                             model_size=[1e9, 1e9], worker_node=[0, 0, 1, 1], intra_node_rate=1e10, inter_node_rate=1e9)
    m = job_metrics(inst, (0, 0, 1, 1))  # both jobs inside one node: intra rate
    assert m["communication"][0] == pytest.approx(2 * 1e9 * (2 - 1) / (2 * 1e10))
    m = job_metrics(inst, (0, 1, 0, 1))  # both jobs span nodes: inter rate
    assert m["communication"][0] == pytest.approx(2 * 1e9 * (2 - 1) / (2 * 1e9))
    m = job_metrics(inst, (0, 0, 0, 1))  # a single worker has no ring
    assert m["communication"][1] == 0.0


def test_bad_assignments(table2):
    with pytest.raises(ArgumentError, match="shape"):
        average_jct(table2, [0, 1])
    with pytest.raises(ArgumentError, match="job 1 gets no worker"):
        average_jct(table2, [0, 0, 0, 0])
    with pytest.raises(ArgumentError, match=r"assignment\[2\]"):
        average_jct(table2, [0, 1, 2, 0])
    with pytest.raises(ArgumentError, match="integer"):
        average_jct(table2, [0, 1, 0.5, 1])


def test_heterogeneity_degree():
    same = PlacementInstance(throughput=[[3.0, 3.0], [1.0, 1.0]], dataset_size=[1, 1], epochs=[1, 1])
    assert heterogeneity_degree(same) == 1.0
    het = PlacementInstance(throughput=[[3.0, 1.0], [1.0, 1.0]], dataset_size=[1, 1], epochs=[1, 1])
    assert heterogeneity_degree(het) == pytest.approx(6 / (2 * 2))  # eq. (35)


@settings(derandomize=True, deadline=None, max_examples=40)
@given(st.integers(1, 4), st.integers(0, 4), st.integers(0, 2**32 - 1))
def test_fairness_in_range_and_metamorphic(S, extra, seed):
    rng = np.random.default_rng(seed)
    K = S + extra
    inst = PlacementInstance(throughput=rng.uniform(1, 10, (S, K)), dataset_size=rng.uniform(1, 10, S), epochs=rng.uniform(1, 5, S))
    a = np.concatenate([np.arange(S), rng.integers(0, S, extra)])
    F = fairness(inst, a)
    assert 1 / S - 1e-12 <= F <= 1 + 1e-12
    # scaling time (all throughputs x c) divides every JCT by c; fairness is unchanged
    scaled = PlacementInstance(throughput=inst.throughput * 2.5, dataset_size=inst.dataset_size, epochs=inst.epochs)
    assert average_jct(scaled, a) == pytest.approx(average_jct(inst, a) / 2.5)
    assert fairness(scaled, a) == pytest.approx(F)
    # relabelling jobs relabels the assignment
    perm = rng.permutation(S)
    relabelled = PlacementInstance(throughput=inst.throughput[perm], dataset_size=inst.dataset_size[perm], epochs=inst.epochs[perm])
    inv = np.argsort(perm)
    assert average_jct(relabelled, inv[a]) == pytest.approx(average_jct(inst, a))


def test_equal_share_is_fair():
    # two identical jobs on four identical workers, two each: Lambda_i = Lambda_i^[e], F = 1
    inst = PlacementInstance(throughput=[[5.0] * 4] * 2, dataset_size=[10, 10], epochs=[1, 1])
    assert fairness(inst, [0, 0, 1, 1]) == pytest.approx(1.0)
    assert np.allclose(equal_share_jct(inst), 10 / (2 * 20))
