"""Hadar and HadarE in the arena: on a workload that fits Hadar's model, the arena's first round is hetopt.hadar's."""

import numpy as np
import pytest

import hetopt.arena as A
from hetopt import hadar
from hetopt.arena.convert import server_capacity, to_hadar
from hetopt.errors import ArgumentError


def _workload(seed, n_jobs=8):
    """Four servers of 2-4 GPUs of two types, jobs of 1-4 GPUs at time 0, whole iterations."""
    rng = np.random.default_rng(seed)
    thr = np.round(rng.uniform(1.0, 10.0, size=(n_jobs, 2)), 2)
    sf = rng.choice([1, 1, 2, 4], size=n_jobs)
    return A.Workload(("k80", "v100"), [0, 0, 1, 1], [4, 2, 2, 4], [float("inf")] * 4,
                      tuple(f"job{j}" for j in range(n_jobs)), np.zeros(n_jobs), sf,
                      np.round(rng.uniform(500.0, 20_000.0, size=n_jobs)), np.ones(n_jobs), thr * sf[:, None],
                      np.zeros(n_jobs))


def _first_round_of_hadar(w, policy, **options):
    """GPUs per server of every gang in round 0 of hetopt.hadar.simulate on the converted instance."""
    inst = to_hadar(w, slot_length=360.0)
    sim = hadar.simulate(inst, policy, round_length=360.0, restart_delay=0.0, options=options)
    alloc = sim.rounds[0]["allocation"]  # (J, H, R), copies summed
    return {j: alloc[j].sum(axis=1).tolist() for j in range(w.n_jobs) if alloc[j].any()}


def _first_round_of_arena(w, policy, gang_rule):
    sim = A.simulate(w, policy, gang_rule=gang_rule)
    A.check_schedule(w, sim).raise_if_invalid()
    out: dict[int, list[int]] = {}
    for g in sim.rounds[0]["gangs"]:
        row = out.setdefault(g["jobs"][0], [0] * w.n_servers)
        for s, c in g["servers"]:
            row[s] += c
    return out


def test_the_converter_keeps_the_cluster_the_gangs_and_their_rates():
    w = _workload(0)
    inst = to_hadar(w, slot_length=360.0)
    assert np.array_equal(inst.capacity.sum(axis=0), w.capacity)
    assert np.array_equal(inst.capacity, server_capacity(w))
    assert np.array_equal(inst.gpus, w.scale_factor)
    assert np.allclose(inst.gpus[:, None] * inst.throughput, w.throughput, rtol=1e-12)  # a gang's rate, (1b)
    assert np.array_equal(inst.total_iterations, w.steps)
    late = w.replace(arrival=np.arange(w.n_jobs) * 500.0)
    assert to_hadar(late, slot_length=360.0).arrival.tolist() == [int(a // 360) for a in late.arrival]
    with pytest.raises(ArgumentError, match="slot_length"):
        to_hadar(w, slot_length=0.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("policy", ["hadar", "hadare"])
def test_one_round_gives_hadars_gangs(policy, seed):
    """Gang rule 'bottleneck' is Hadar's (1b): the arena's first round is hetopt.hadar's, server by server."""
    w = _workload(seed)
    mine = _first_round_of_arena(w, policy, "bottleneck")
    assert mine == _first_round_of_hadar(w, policy)
    assert mine  # some job runs


@pytest.mark.parametrize("policy", ["hadar", "hadare"])
def test_the_single_rule_keeps_every_gang_on_one_type(policy):
    w = _workload(3)
    mine = _first_round_of_arena(w, policy, "single")
    assert mine == _first_round_of_hadar(w, policy, single_type=True)
    for row in mine.values():
        assert len({int(w.server_type[s]) for s, c in enumerate(row) if c}) == 1


def test_single_type_find_alloc_is_the_best_single_type_candidate():
    """FIND_ALLOC's single_type: one type only, and the best payoff among the per-type restricted calls."""
    inst = to_hadar(_workload(4), slot_length=360.0)
    params = hadar.price_parameters(inst)
    free = inst.capacity.copy()
    prices = hadar.price(inst.capacity - free, inst.capacity, params)
    for j in range(inst.n_jobs):
        a = hadar.find_alloc(inst, j, free, prices, remaining=float(inst.total_iterations[j]), now=0.0,
                             comm_cost=params.u_min, single_type=True, require_positive=False)
        per_type = []
        for r in range(inst.n_types):
            only = np.zeros_like(free)
            only[:, r] = free[:, r]
            b = hadar.find_alloc(inst, j, only, prices, remaining=float(inst.total_iterations[j]), now=0.0,
                                 comm_cost=params.u_min, require_positive=False)
            if b is not None:
                per_type.append(b.payoff)
        assert a is not None and np.count_nonzero(a.w.sum(axis=0)) == 1
        assert a.payoff == max(per_type)


def test_hadare_runs_copies_and_passes_the_checker():
    w = _workload(5, n_jobs=3)
    sim = A.simulate(w, "hadare", restart_delay=10.0)
    assert sim.options["copies"]
    assert any(len({g["jobs"][0] for g in r["gangs"]}) < len(r["gangs"]) for r in sim.rounds)  # a job in 2 gangs
    A.check_schedule(w, sim).raise_if_invalid()


def test_copies_policies_get_no_bound():
    """A job run as several gangs may hold more than scale_factor GPUs: the bounds' model does not cover it."""
    assert A.POLICIES["hadare"].copies and A.POLICIES["has"].copies and not A.POLICIES["hadar"].copies
    w = _workload(5, n_jobs=3)
    table = A.run(w, ["hadar", "hadare"])
    ratio = dict(zip(table.column("policy"), table.column("jct_ratio")))
    assert ratio["hadar"] is not None and ratio["hadar"] >= 1.0 and ratio["hadare"] is None
    with pytest.raises(ArgumentError, match="copies"):
        A.validate_ratio(w, policy="hadare")
