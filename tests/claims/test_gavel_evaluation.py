"""Gavel's evaluation claims: the premises their flips remove are measured on the instances."""

import numpy as np
import pytest

from hetopt import claims
from hetopt.gavel import load_trace, simulate
from hetopt.gavel.experiments import evaluation as ev
from hetopt.gavel.simulator import pair_table


def test_homogeneous_instance_has_no_heterogeneity_and_keeps_v100_speeds():
    inst = load_trace("max_min_fairness", ev.PHYSICAL)
    assert ev.heterogeneity(inst) > 2
    h = ev.homogeneous(inst)
    assert ev.heterogeneity(h) == pytest.approx(1.0)
    v = inst.gpu_types.index("v100")
    np.testing.assert_array_equal(h.throughput[:, v], inst.throughput[:, v])
    np.testing.assert_array_equal(h.total_steps, inst.total_steps)


def test_time_sliced_pairs_gain_nothing_and_measured_pairs_do():
    inst = load_trace(ev.SS_TRACE, ev.SS_CLUSTER)
    assert ev.pair_gain(inst, pair_table(inst)) > 1.5
    assert ev.pair_gain(inst, ev.time_sliced_pairs(inst)) == pytest.approx(1.0)


def test_simulate_takes_a_pair_table_only_as_a_callable():
    from hetopt.errors import ArgumentError

    inst = load_trace("small_test", (4, 4, 4))
    with pytest.raises(ArgumentError, match="pair_throughput"):
        simulate(inst, "max_min_fairness_packed", pair_throughput=[[1.0]])


def test_every_evaluation_claim_is_direction_only_and_flips_to_outside_premise():
    ids = {c.id for c in claims.claims("gavel")}
    for c in ev.CLAIMS:
        assert c.id in ids and c.paper_value.startswith("direction")
        assert c.flip.verdict is claims.Verdict.OUTSIDE_PREMISE
