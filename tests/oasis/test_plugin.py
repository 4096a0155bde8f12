"""The simulator's plug-in protocol: a user's Policy driving the Cluster (exported by hetopt.oasis)."""

import numpy as np
import pytest

import hetopt
from hetopt.data import instance_path
from hetopt.oasis import Cluster, OasisInstance, Policy, check_schedule, simulate


class AllWorkers:
    """Every arriving job gets N_i workers (or as many as fit)."""

    name = "all_workers"

    def __call__(self, cl, t, arrived, completed):
        for i in arrived:
            cl.try_place(i, int(cl.inst.chunks[i]), partial=True)


class Idle:
    name = "idle"

    def __call__(self, cl, t, arrived, completed):
        pass


@pytest.fixture
def one_job():
    # one job: E = 100 epochs of N = 10 chunks, 0.03 slot per chunk, arrives in slot 1, f = [10, 10, 10, 1e-3]
    return OasisInstance.from_json(instance_path("oasis2018_theorem4_in_premise"))


def test_user_policy_through_simulate(one_job):
    assert isinstance(AllWorkers(), Policy) and not isinstance(object(), Policy)
    sol = simulate(one_job, AllWorkers())
    assert check_schedule(one_job, sol).ok
    # by hand: 100 * 10 * 0.03 = 30 worker-slots at 10 workers per slot -> slots 1, 2, 3; f(3 - 1) = 10
    assert sol.schedules[0].completion == 3
    assert sol.schedules[0].workers.sum(axis=0).tolist() == [10, 10, 10, 0]
    assert sol.total_utility == pytest.approx(10.0)
    idle = simulate(one_job, Idle())
    assert idle.total_utility == 0.0 and idle.info["unfinished"] == [0]


def test_cluster_try_place_all_or_nothing(one_job):
    cl = Cluster(one_job)
    cl.arrived.append(0)
    assert cl.try_place(0, 200) == 0  # capacity 100 per resource, demand 1: all or nothing
    assert cl.try_place(0, 200, partial=True) == 100
    fw, _ = cl.free()
    assert np.allclose(fw, 0.0)
    cl.release(0)
    assert np.allclose(cl.free()[0], one_job.worker_capacity)


def test_compare_ranks_a_user_policy(one_job):
    t = hetopt.compare(one_job, methods=["exact", "oasis"], policies={"all_workers": lambda i: simulate(i, AllWorkers())})
    rows = {r[0]: r for r in t.rows}
    col = list(t.columns)
    assert rows["all_workers"][col.index("category")] == "user"
    assert rows["all_workers"][col.index("vs_optimum")] == pytest.approx(1.0)  # 10 is the optimum
