import concurrent.futures as cf
from functools import partial

import pytest

from hetopt.certify import Status
from hetopt.result import Solution
from hetopt.validate import gap_certificate, ratio_certificate, summarize, sweep


def make(seed):
    return seed * 3


def square(x, offset=0):
    return x * x + offset


def test_sweep_serial_pool_and_executor_keep_seed_order():
    seeds = [5, 1, 4, 2]
    expected = [(3 * s) ** 2 for s in seeds]
    assert sweep(make, square, seeds, executor="serial") == expected
    assert sweep(make, square, seeds) == expected
    with cf.ThreadPoolExecutor(2) as ex:
        assert sweep(make, partial(square, offset=1), seeds, executor=ex) == [e + 1 for e in expected]


def test_sweep_dask_client():
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as client:
        assert sweep(make, square, [1, 2, 3], executor=client) == [9, 36, 81]


def test_sweep_rejects_bad_input():
    with pytest.raises(ValueError, match="seeds"):
        sweep(make, square, [1.5])
    with pytest.raises(ValueError, match="executor"):
        sweep(make, square, [1, 2], executor="gpu")


def test_certificates():
    c = ratio_certificate(12.0, 10.0, 1.5, proven=True)
    assert c.ratio == pytest.approx(1.2) and c.holds is True
    c = ratio_certificate(20.0, 10.0, 1.5, proven=True)
    assert c.holds is False
    assert ratio_certificate(20.0, 10.0, 1.5, proven=False).holds is None
    assert ratio_certificate(5.0, 10.0, 3.0, sense="max", proven=True).ratio == pytest.approx(2.0)
    opt = Solution(status=Status.OPTIMAL, objective=10.0, bound=10.0)
    g = gap_certificate(11.0, opt)
    assert g.proven and g.gap == pytest.approx(0.1)
    heur = Solution(status=Status.FEASIBLE, objective=10.0)
    assert not gap_certificate(11.0, heur).proven
    assert summarize([1, 2, 3])["mean"] == 2


def test_ratio_against_an_infinite_limit_is_not_checked():
    c = ratio_certificate(20.0, 10.0, float("inf"), proven=True)
    assert c.proven and c.holds is None


def test_solution_and_certificate_serialize_to_json():
    import json

    import numpy as np

    # an infinite bound proves nothing (never OPTIMAL): a maximization stopped by a limit may report one
    sol = Solution(status=Status.TIME_LIMIT, objective=1.5, bound=float("inf"), wall_time=0.1, solver="highs",
                   sense="max")
    d = json.loads(sol.to_json())
    assert d["status"] == "time_limit" and d["objective"] == 1.5 and d["bound"] == "inf"
    cert = ratio_certificate(np.float64(3.0), 2.0, 2.0, proven=True)
    assert json.loads(json.dumps(cert.to_dict()))["holds"] is True


def test_sweep_counts_distinct_instances():
    """Seeds that draw the same instance are counted once (the placement Gavel setting draws few)."""
    from functools import partial

    from hetopt.placement.generators import generate_instance
    from hetopt.validate import instance_digest, sweep

    make = partial(generate_instance, n_jobs=4, n_workers=8, setting="gavel")
    res = sweep(make, lambda inst: inst.n_jobs, range(12), executor="serial")
    by_hand = {instance_digest(make(seed=s)) for s in range(12)}
    assert res == [4] * 12
    assert res.distinct_instances == len(by_hand) < 12
    assert res.note() == f"{len(by_hand)} distinct instances among 12 seeds"
    same = sweep(lambda *, seed: make(seed=0), lambda inst: 0, range(3), executor="serial")
    assert same.distinct_instances == 1


@pytest.mark.parametrize("paper", ["hare", "oasis", "contention", "hadar"])  # gavel: tests/gavel/test_kind.py
def test_validate_tables_report_distinct_instances(paper):
    from hetopt.registry import get_kind

    t = get_kind(paper).validate(n=2, seed=0)
    assert any("distinct instances among 2 seeds" in n for n in t.notes), t.notes


def test_gap_certificate_refuses_a_reference_with_nothing_to_compare():
    from hetopt.certify import Status
    from hetopt.errors import ArgumentError
    from hetopt.result import Solution
    from hetopt.validate import gap_certificate

    empty = Solution(status=Status.TIME_LIMIT, objective=None, bound=None)
    with pytest.raises(ArgumentError, match="nothing to certify against"):
        gap_certificate(1.0, empty)
