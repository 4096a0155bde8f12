"""LWF-kappa (Algorithm 1) and the FF / LS / RAND baselines."""

import numpy as np
import pytest

from hetopt.contention import first_fit, list_scheduling, lwf_kappa, make_placement, random_placement
from hetopt.errors import ArgumentError

# 3 servers x 2 GPUs; server loads: s0 = 5, s1 = 1, s2 = 3
LOAD = np.array([4.0, 1.0, 0.5, 0.5, 0.0, 3.0])
FREE = np.full(6, 10.0)


def test_lwf_small_job_is_least_loaded_gpus():
    assert lwf_kappa(FREE, LOAD, 2, 1, 1.0, kappa=1).tolist() == [4]
    assert lwf_kappa(FREE, LOAD, 2, 2, 1.0, kappa=2).tolist() == [2, 4]


def test_lwf_large_job_goes_server_by_server():
    # n = 3 > kappa = 1: servers by load s1 (1.0), s2 (3.0), s0 (5.0); in s2 GPU 4 (0.0) first
    assert lwf_kappa(FREE, LOAD, 2, 3, 1.0, kappa=1).tolist() == [2, 3, 4]


def test_lwf_skips_gpus_without_memory_and_waits():
    free = FREE.copy()
    free[[2, 3]] = 0.5
    # s1 has no memory; s2 gives GPUs 4 (0.0) and 5 (3.0); s0 then GPU 1 (1.0)
    assert lwf_kappa(free, LOAD, 2, 3, 1.0, kappa=1).tolist() == [1, 4, 5]
    assert lwf_kappa(np.zeros(6), LOAD, 2, 1, 1.0) is None
    assert lwf_kappa(np.array([5.0, 0, 0, 0, 0, 0]), LOAD, 2, 2, 1.0, kappa=4) is None


def test_baselines():
    assert first_fit(FREE, LOAD, 2, 3, 1.0).tolist() == [0, 1, 2]
    assert list_scheduling(FREE, LOAD, 2, 3, 1.0).tolist() == [2, 3, 4]
    rng = np.random.default_rng(0)
    r = random_placement(FREE, LOAD, 2, 3, 1.0, rng=rng)
    assert len(set(r.tolist())) == 3
    a = make_placement("rand", seed=4)(FREE, LOAD, 2, 3, 1.0)
    b = make_placement("rand", seed=4)(FREE, LOAD, 2, 3, 1.0)
    assert a.tolist() == b.tolist()


@pytest.mark.parametrize("kappa", [0, -1, 1.5, True])
def test_kappa_below_one_is_an_error(kappa):
    with pytest.raises(ArgumentError, match="kappa"):
        make_placement("lwf", kappa=kappa)
    with pytest.raises(ArgumentError, match="kappa"):
        lwf_kappa(FREE, LOAD, 2, 1, 1.0, kappa=kappa)


def test_unknown_placement():
    with pytest.raises(ArgumentError, match="name is 'best-fit'; expected one of 'lwf'"):
        make_placement("best-fit")
