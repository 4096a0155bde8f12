"""Transfer accounting: the correct one is independent of who asks; "authors" reproduces the published error."""

import pytest

from hetopt.contention import ContentionInstance, Policy, authors_slotted_transfer, generate_instance, simulate
from hetopt.data import instance_path
from hetopt.errors import ArgumentError

from .contention_workloads import small_workload

B, ETA, VGG = 8.56e-4, 2.35e-4, 526.4


def _one_running(n_waiters: int, accounting: str) -> float:
    """Duration of job 0's all-reduce (starts at 3 ms) with n refused waiters ready at 6 ms on its server 0."""
    n = 1 + n_waiters
    gps = max(2, n)
    inst = ContentionInstance(n_servers=1 + n, gpus_per_server=gps, gpu_memory=32768.0, a=0.0, b=B, eta=ETA,
                              arrival=[0.0] * n, n_gpus=[2] * n, iterations=[1] * n,
                              t_f=[0.001] + [0.002] * n_waiters, t_b=[0.002] + [0.004] * n_waiters,
                              model_size=[VGG] * n, memory=[1000.0] * n)
    fixed = [[k, (1 + k) * gps] for k in range(n)]
    sol = simulate(inst, Policy("adadual"), placement=fixed, record=True, transfer_accounting=accounting)
    (rec,) = [r for r in sol.trace if r.kind == "c" and r.job == 0]
    assert rec.start == pytest.approx(0.003)
    return rec.end - rec.start


@pytest.mark.parametrize("n_waiters", [0, 1, 2, 3])
def test_running_allreduce_end_does_not_depend_on_how_many_refused_jobs_query_it(n_waiters):
    assert _one_running(n_waiters, "correct") == pytest.approx(B * VGG, rel=1e-12)


@pytest.mark.parametrize("n_waiters", [0, 1, 2, 3])
def test_authors_accounting_gives_each_querying_waiter_free_bandwidth(n_waiters):
    # by hand: alone for 3 ms, then (1 + q) times the rate for the remaining B * VGG - 3 ms of transfer
    expected = 0.003 + (B * VGG - 0.003) / (1 + n_waiters)
    assert _one_running(n_waiters, "authors") == pytest.approx(expected, rel=1e-9)


def test_bundled_one_waiter_instance():
    inst = ContentionInstance.from_json(str(instance_path("wang2019_authors_accounting_one_waiter")))
    assert inst.gpu_memory == 32768.0
    correct = simulate(inst, "ada_srsf")
    authors = simulate(inst, "ada_srsf", transfer_accounting="authors")
    assert correct.finish[0] == pytest.approx(0.003 + B * VGG)
    assert authors.finish[0] == pytest.approx(0.006 + (B * VGG - 0.003) / 2)
    assert authors.average_jct < correct.average_jct
    # SRSF(1) never reads a running transfer: the accounting cannot change it
    assert list(simulate(inst, "srsf1", transfer_accounting="authors").finish) == list(simulate(inst, "srsf1").finish)


def test_slotted_restatement_of_the_published_code():
    assert authors_slotted_transfer(VGG, B, 0) == pytest.approx(0.451)
    assert authors_slotted_transfer(VGG, B, 1) == pytest.approx(0.226)
    assert authors_slotted_transfer(VGG, B, 3) < authors_slotted_transfer(VGG, B, 2) < 0.226
    with pytest.raises(ArgumentError, match="n_waiters"):
        authors_slotted_transfer(VGG, B, -1)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_srsf_is_unchanged_by_the_authors_accounting(n, workload):
    a = simulate(workload, f"srsf{n}", transfer_accounting="authors")
    c = simulate(workload, f"srsf{n}")
    assert list(a.finish) == list(c.finish)


def test_ada_srsf_gains_with_the_authors_accounting_on_a_loaded_cluster():
    # Section V-A workload with iterations and arrivals scaled by 0.02 (the full workload's load)
    w = generate_instance(seed=0, iterations=(20, 120), arrival_window=24.0)
    assert simulate(w, "ada_srsf", transfer_accounting="authors").average_jct < 0.8 * simulate(w, "ada_srsf").average_jct


@pytest.mark.parametrize("bad", ["Authors", "", None, 1, "buggy"])
def test_bad_accounting_is_named(bad):
    with pytest.raises(ArgumentError, match="transfer_accounting"):
        simulate(small_workload(0), "ada_srsf", transfer_accounting=bad)


def test_authors_accounting_aggregation_is_exact():
    # re-asking refused all-reduces at every instant (aggregate=False) gives the same schedule
    inst = generate_instance(seed=1, n_jobs=24, n_servers=4, iterations=(5, 30), arrival_window=5.0)
    a = simulate(inst, "ada_srsf", transfer_accounting="authors")
    b = simulate(inst, "ada_srsf", transfer_accounting="authors", aggregate=False)
    c = simulate(inst, "ada_srsf")
    assert a.solver == "ada-srsf+lwf1 (authors' accounting)" and c.solver == "ada-srsf+lwf1"
    assert a.placement == b.placement
    assert a.finish == pytest.approx(b.finish, rel=1e-9)
    assert a.average_jct < c.average_jct  # the published accounting gives free bandwidth here
