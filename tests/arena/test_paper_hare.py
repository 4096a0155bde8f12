"""Hare's Algorithm 1 in the arena: on single-round jobs, Hare's order and GPU choices (hetopt.hare.schedule)."""

import numpy as np
import pytest

import hetopt.arena as A
from hetopt import hare
from hetopt.arena.convert import gpu_servers, to_hare
from hetopt.arena.paper_hare import job_rule
from hetopt.errors import ArgumentError, SizeLimitError
from hetopt.hare.listsched import list_schedule


def _workload(seed, n_jobs=7, counts="1:1:1"):
    """Single-GPU jobs at time 0 on one GPU of each type (Hare's jobs of one training round of one task)."""
    w = A.generate_instance(n_jobs=n_jobs, jobs_per_hour=1.0, seed=seed, counts=counts, multi_gpu=False)
    return w.replace(arrival=np.zeros(n_jobs), steps=np.round(w.steps))


def _sequences_of_arena(w, sim):
    """The jobs every GPU (= server: one GPU each) runs, in order."""
    seq: dict[int, list[int]] = {s: [] for s in range(w.n_servers)}
    for r in sim.rounds:
        for g in r["gangs"]:
            for s, _ in g["servers"]:
                if not seq[s] or seq[s][-1] != g["jobs"][0]:
                    seq[s].append(g["jobs"][0])
    return seq


def _sequences_of_hare(sol):
    """The tasks (= jobs: one task each) every GPU runs in Hare's schedule, by start."""
    seq: dict[int, list[int]] = {}
    for m in range(sol.instance.n_gpus):
        tasks = np.flatnonzero(sol.gpu == m)
        seq[m] = [int(t) for t in tasks[np.argsort(sol.start[tasks], kind="stable")]]
    return seq


def test_the_converter_gives_each_job_one_round_of_gang_tasks():
    w = _workload(0).replace(scale_factor=np.array([1, 2, 1, 1, 1, 1, 1]))
    inst = to_hare(w, [1, 4], [600.0, 900.0], arrival=[0.0, 5.0])
    types = w.server_type[gpu_servers(w)]
    assert inst.n_gpus == int(w.capacity.sum()) and inst.rounds.tolist() == [1, 1]
    assert inst.tasks_per_round.tolist() == [2, 1] and inst.arrival.tolist() == [0.0, 5.0]
    assert np.allclose(inst.compute_time[0], 600.0 / w.throughput[1, types], rtol=1e-12)
    assert not inst.sync_time.any()


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("rule", ["earliest_available", "earliest_start_fastest", "earliest_finish"])
def test_single_round_jobs_run_in_hares_order_on_hares_gpus(rule, seed):
    w = _workload(seed)
    inst = to_hare(w, np.arange(w.n_jobs), w.steps)
    mine = A.simulate(w, "hare", options={"gpu_rule": rule})
    A.check_schedule(w, mine).raise_if_invalid()
    theirs = hare.schedule(inst, gpu_rule=rule)
    seq = {m: s for m, s in _sequences_of_hare(theirs).items() if s}
    assert {s: q for s, q in _sequences_of_arena(w, mine).items() if q} == seq
    # the same with the scalable ordering, against Hare's algorithm1_lp
    lp = A.simulate(w, "hare_lp", options={"gpu_rule": rule})
    seq_lp = {m: s for m, s in _sequences_of_hare(hare.schedule(inst, ordering="lp", gpu_rule=rule)).items() if s}
    assert {s: q for s, q in _sequences_of_arena(w, lp).items() if q} == seq_lp


@pytest.mark.parametrize("rule", ["earliest_available", "earliest_start_fastest", "earliest_finish"])
def test_the_job_level_rule_is_hares_rule_when_every_gpu_is_allowed(rule):
    inst = to_hare(_workload(4, n_jobs=9, counts="2:1:2"), np.arange(9), np.full(9, 1e4))
    H = np.random.default_rng(0).permutation(inst.n_tasks).astype(float)
    everywhere = job_rule(rule, lambda inst, i, chosen: np.ones(inst.n_gpus, dtype=bool))
    assert np.array_equal(list_schedule(inst, H, everywhere)[1], list_schedule(inst, H, rule)[1])


def test_gangs_keep_to_one_type_and_the_relaxation_refuses_large_plans():
    w = A.generate_instance(n_jobs=10, jobs_per_hour=3.0, seed=5, counts="2:2:2")
    assert w.scale_factor.max() > 1
    sim = A.simulate(w, "hare_lp")
    A.check_schedule(w, sim).raise_if_invalid()
    for r in sim.rounds:
        for g in r["gangs"]:
            assert len({int(w.server_type[s]) for s, _ in g["servers"]}) == 1
    crowd = A.generate_instance(n_jobs=30, jobs_per_hour=1000.0, seed=0, counts="12:12:12", multi_gpu=False)
    with pytest.raises(SizeLimitError, match="arena policy 'hare': .* refused before the first round"):
        A.simulate(crowd, "hare")  # the workload proves a plan of more than 18 tasks (hetopt.arena.presence)
    with pytest.raises(SizeLimitError, match=r"arena policy 'hare' at \d+ s: \d+ tasks present"):
        A.simulate(crowd.replace(steps=crowd.steps / 1e3), "hare")  # short jobs: the pre-check proves nothing
    with pytest.raises(ArgumentError, match="gpu_rule"):
        A.make_policy("hare", gpu_rule="fastest")


def test_replanning_at_completions_too():
    """replan='event' remakes the plan at every completion as well as at every arrival: more plans, a valid schedule."""
    w = A.generate_instance(n_jobs=12, jobs_per_hour=6.0, seed=2, counts="2:2:2", multi_gpu=False)
    lazy, eager = A.make_policy("hare_lp"), A.make_policy("hare_lp", replan="event")
    a, b = A.execute(w, lazy), A.execute(w, eager)
    assert 1 <= lazy.plans <= len(set(w.arrival.tolist()))  # one plan per round that sees an arrival
    assert eager.plans > lazy.plans
    A.check_schedule(w, A.simulate(w, "hare_lp", options={"replan": "event"})).raise_if_invalid()
    assert not np.array_equal(a.completion, b.completion)
    with pytest.raises(ArgumentError, match="replan"):
        A.make_policy("hare_lp", replan="always")
