"""Liu et al.'s HAS and JPS in the arena: with no arrivals, the placement of hetopt.placement on the same instance."""

import numpy as np
import pytest

import hetopt.arena as A
from hetopt import placement
from hetopt.arena.convert import gpu_servers, to_placement
from hetopt.errors import ArgumentError, SizeLimitError


def _workload(seed, n_jobs=4, counts="2:2:2"):
    """Single-GPU jobs at time 0 on a few GPUs of each type (Liu et al.'s workers are GPUs)."""
    w = A.generate_instance(n_jobs=n_jobs, jobs_per_hour=1.0, seed=seed, counts=counts, multi_gpu=False)
    return w.replace(arrival=np.zeros(n_jobs), steps=np.round(w.steps))


def _first_round(w, sim):
    """The GPUs per server of every job in the first round (summed over its copies)."""
    out: dict[int, list[int]] = {}
    for g in sim.rounds[0]["gangs"]:
        row = out.setdefault(g["jobs"][0], [0] * w.n_servers)
        for s, c in g["servers"]:
            row[s] += c
    return out


def _liu(w, assignment):
    """Liu et al.'s assignment (job of every worker = GPU) as GPUs per server of every job."""
    servers = gpu_servers(w)
    return {j: np.bincount(servers[assignment == j], minlength=w.n_servers).tolist()
            for j in range(w.n_jobs) if np.any(assignment == j)}


def test_the_converter_makes_every_gpu_a_worker_with_the_jobs_rates():
    w = _workload(0).replace(scale_factor=np.array([1, 2, 1, 1]))
    inst = to_placement(w, [1, 3], [500.0, 700.0])
    assert inst.n_workers == int(w.capacity.sum()) and inst.n_jobs == 2
    types = w.server_type[gpu_servers(w)]
    assert np.allclose(inst.throughput[0], w.throughput[1, types] / 2, rtol=1e-12)  # per GPU of a 2-GPU gang
    assert np.allclose(inst.throughput[1], w.throughput[3, types], rtol=1e-12)
    assert inst.dataset_size.tolist() == [500.0, 700.0] and inst.epochs.tolist() == [1.0, 1.0]
    assert not inst.has_communication


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("policy", ["has", "jps"])
def test_no_arrivals_give_liu_et_al_s_first_placement(policy, seed):
    w = _workload(seed)
    inst = to_placement(w, np.arange(w.n_jobs), w.steps)
    liu = placement.simulate(inst, policy)  # Liu et al.'s dynamic run: placed at 0, again at every completion
    sim = A.simulate(w, policy)
    A.check_schedule(w, sim).raise_if_invalid()
    assert _first_round(w, sim) == _liu(w, np.asarray(liu.events[0]["assignment"]))
    assert _first_round(w, sim) == _liu(w, np.asarray(getattr(placement, policy)(inst, **(
        {"seed": 0} if policy == "jps" else {})).assignment))


def test_a_job_on_all_workers_runs_at_the_sum_of_their_rates():
    """One job on every GPU: Liu et al.'s JCT (7) is |Pi| / sum_k rho_k; the arena's copies add their rates."""
    w = _workload(1, n_jobs=1)
    rate = float(w.throughput[0] @ w.capacity)
    w = w.replace(steps=np.array([np.floor(rate * 200.0)]))  # done within one round
    inst = to_placement(w, [0], w.steps)
    sim = A.simulate(w, "has")
    assert len(sim.rounds[0]["gangs"]) == int(w.capacity.sum())  # a copy per GPU
    assert sim.completion[0] == pytest.approx(placement.job_jct(inst, np.zeros(inst.n_workers, int))[0], rel=1e-2)
    A.check_schedule(w, sim).raise_if_invalid()


def test_the_placement_is_recomputed_at_completions_and_arrivals():
    w = _workload(2, n_jobs=5).replace(arrival=np.array([0.0, 0.0, 0.0, 5000.0, 5000.0]))
    sim = A.simulate(w, "jps")
    A.check_schedule(w, sim).raise_if_invalid()
    sets = [tuple(sorted({g["jobs"][0] for g in r["gangs"]})) for r in sim.rounds if r["gangs"]]
    changes = sum(a != b for a, b in zip(sets, sets[1:], strict=False))
    assert changes >= 4  # 5 completions and an arrival change the set of jobs running


def test_has_refuses_an_event_beyond_its_categories_and_jps_checks_its_options():
    w = _workload(3, n_jobs=6, counts="12:12:12")
    with pytest.raises(SizeLimitError, match="arena policy 'has' at 0 s"):
        A.simulate(w, "has")
    for bad in ({"alpha": 1.0}, {"beta": 1.5}, {"n_samples": 0}, {"market": "x"}):
        with pytest.raises(ArgumentError):
            A.make_policy("jps", **bad)
