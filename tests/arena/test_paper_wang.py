"""Wang et al.'s Ada-SRSF in the arena: on homogeneous GPUs, the placement and order of hetopt.contention.simulate."""

import numpy as np
import pytest

import hetopt.arena as A
from hetopt.arena.convert import from_contention
from hetopt.arena.execution import ETA_OVER_B
from hetopt.contention import ContentionInstance, adadual, simulate
from hetopt.contention.comm import SIM_BETA, SIM_ETA


def _instance(seed, n_jobs=14, sizes=(1, 2, 4), arrivals=6):
    """4 servers of 4 GPUs; every job takes a whole GPU's memory (one job per GPU, as the arena's gangs), runs
    0.5 s iterations for whole rounds of 360 s and arrives at a round boundary, and has no all-reduce (model
    size 0, latency 0): the events of Wang's simulator fall on boundaries of the arena's rounds."""
    rng = np.random.default_rng(seed)
    return ContentionInstance(n_servers=4, gpus_per_server=4, gpu_memory=16384.0, a=0.0, b=SIM_BETA, eta=SIM_ETA,
                              arrival=360.0 * rng.integers(0, arrivals, size=n_jobs),
                              n_gpus=rng.choice(sizes, size=n_jobs), iterations=720 * rng.integers(1, 12, size=n_jobs),
                              t_f=np.full(n_jobs, 0.2), t_b=np.full(n_jobs, 0.3), model_size=np.zeros(n_jobs),
                              memory=np.full(n_jobs, 16384.0))


def _first_runs(w, sim):
    """(start of its first round, GPUs per server then) of every job."""
    start = np.full(w.n_jobs, np.nan)
    servers: dict[int, list[int]] = {}
    for r in sim.rounds:
        for g in r["gangs"]:
            j = g["jobs"][0]
            if np.isnan(start[j]):
                start[j] = r["start"]
                row = [0] * w.n_servers
                for s, c in g["servers"]:
                    row[s] += c
                servers[j] = row
    return start, servers


def test_the_converter_keeps_the_cluster_and_the_jobs():
    inst = _instance(0)
    w = from_contention(inst)
    assert w.capacity.tolist() == [16] and w.server_gpus.tolist() == [4] * 4
    assert np.allclose(0.008 / w.link_bandwidth, SIM_BETA, rtol=1e-12)
    assert np.allclose(SIM_ETA / SIM_BETA, ETA_OVER_B, rtol=1e-12)  # the arena's penalty is the simulator's eta
    assert np.array_equal(w.scale_factor, inst.n_gpus) and np.array_equal(w.steps, inst.iterations)
    assert np.allclose(w.throughput[:, 0] * (inst.t_f + inst.t_b), 1.0, rtol=1e-12)


def _compare(inst, jobs=None):
    wang = simulate(inst, "ada_srsf", record=False)
    w = from_contention(inst)
    sim = A.simulate(w, "ada_srsf")
    A.check_schedule(w, sim).raise_if_invalid()
    start, servers = _first_runs(w, sim)
    jobs = range(w.n_jobs) if jobs is None else jobs(wang)
    for j in jobs:
        assert start[j] == wang.placed_at[j], j  # placed when Wang's simulator places it: the same order
        assert servers[j] == np.bincount(np.asarray(wang.placement[j]) // 4, minlength=4).tolist(), j
    return wang, sim


@pytest.mark.parametrize("seed", range(4))
def test_single_gpu_jobs_are_placed_in_wangs_order_on_wangs_gpus(seed):
    """Jobs queue for GPUs (24 jobs on 16 GPUs over 3 rounds of arrivals): SRSF order, LWF's least-loaded GPU."""
    wang, sim = _compare(_instance(seed, n_jobs=24, sizes=(1,), arrivals=3))
    assert np.allclose(sim.completion, wang.finish, rtol=1e-12)
    assert np.any(wang.placed_at > wang.placed_at.min())  # some job waited: the order is tested


@pytest.mark.parametrize("seed", range(4))
def test_gangs_placed_at_once_get_wangs_servers(seed):
    """Gangs of 1, 2 and 4 GPUs arriving together: SRSF order, LWF-1's consolidation by server load raised by
    each placement (Algorithm 1 lines 6 and 18).  Later placements are not compared: Wang's simulator counts a
    spread job's iteration after its all-reduce, which ends after the placement at the same instant."""
    _compare(_instance(seed, n_jobs=10, arrivals=1), jobs=lambda wang: np.flatnonzero(wang.placed_at == 0.0))


def _two_spread_jobs(size_b):
    """Three servers of 2 GPUs; two 3-GPU jobs, so both spread and share the middle server's link."""
    return A.Workload(("v100",), [0, 0, 0], [2, 2, 2], [10.0] * 3, ("A", "B"), [0.0, 0.0], [3, 3], [1e5, 2e5],
                      [1.0, 1.0], [[2.0], [2.0]], [100.0, size_b])


@pytest.mark.parametrize("size_b", [20.0, 60.0])
def test_adadual_admits_a_gang_sharing_a_link_as_algorithm_2_does(size_b):
    w = _two_spread_jobs(size_b)
    sim = A.simulate(w, "ada_srsf", contention=True)
    first = sim.rounds[0]["gangs"]
    admitted = adadual([{0}], {0: 100.0}, size_b, SIM_BETA, SIM_ETA)  # B beside A (A first: less service)
    assert admitted == (size_b / 100.0 < 1.0 / (2.0 * (1.0 + ETA_OVER_B)))
    assert [g["jobs"][0] for g in first] == ([0, 1] if admitted else [0])
    A.check_schedule(w, sim).raise_if_invalid()
    alone = A.simulate(w, "ada_srsf")  # no contention penalty: nothing to avoid, both run
    assert [g["jobs"][0] for g in alone.rounds[0]["gangs"]] == [0, 1]
