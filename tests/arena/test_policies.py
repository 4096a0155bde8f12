"""The one policy interface: a user's policy joins with one registration; placement rules; the options."""

import json

import numpy as np
import pytest

import hetopt.arena as A
from hetopt.arena.execution import ETA_OVER_B
from hetopt.errors import ArgumentError, ScheduleViolation


class LongestFirst:
    """A toy placement policy: the job with the most iterations left first, on its fastest type with room."""

    mode = "placement"
    name = "longest_first"

    def reset(self, workload, options, *, seed):
        self.w = workload

    def __call__(self, state):
        free = self.w.capacity.copy()
        out = {}
        for j in sorted(state.jobs.tolist(), key=lambda j: -state.remaining[j]):
            ok = np.flatnonzero((self.w.throughput[j] > 0) & (free >= self.w.scale_factor[j]))
            if ok.size:
                r = int(ok[np.argmax(self.w.throughput[j, ok])])
                free[r] -= self.w.scale_factor[j]
                out[j] = r
        return out


@pytest.fixture
def registered():
    A.register_policy("longest_first", LongestFirst, description="The longest job first (a test's toy)")
    yield
    A.unregister_policy("longest_first")


def test_a_user_policy_joins_with_one_registration(registered):
    w = A.gavel_trace("physical_cluster/medium_test", "4:4:4")
    table = A.run(w, ["longest_first", "srtf"], loads=[3.0], seeds=[0])
    assert table.column("policy") == ["longest_first", "srtf"]
    mine, srtf = table.column("avg_jct")
    assert mine > srtf  # longest-first is the worst order for the average JCT
    sim = A.simulate(w, "longest_first")
    A.check_schedule(w, sim).raise_if_invalid()


def test_registration_refuses_taken_names_and_non_policies(registered):
    with pytest.raises(ArgumentError, match="already registered"):
        A.register_policy("longest_first", LongestFirst, description="again")
    A.register_policy("not_a_policy", lambda: object(), description="broken")
    try:
        with pytest.raises(ArgumentError, match="not a Policy"):
            A.make_policy("not_a_policy")
    finally:
        A.unregister_policy("not_a_policy")


@pytest.mark.parametrize("policy", ["tiresias", "las", "srtf", "yarn_cs"])
def test_rules_pass_the_checker(policy):
    w = A.generate_instance(n_jobs=25, jobs_per_hour=3.0, seed=2, counts="2:2:2")
    A.check_schedule(w, A.simulate(w, policy)).raise_if_invalid()


def test_srtf_runs_the_shortest_job_first():
    w = A.Workload(("v100",), [0], [1], [float("inf")], ("A", "B"), [0.0, 0.0], [1, 1], [3600.0, 360.0],
                   [1.0, 1.0], [[1.0], [1.0]], [0.0, 0.0])
    sim = A.simulate(w, "srtf")
    assert sim.completion.tolist() == [3960.0, 360.0]


class Mixed:
    """A placement policy that spreads job 0's gang of 2 over a k80 and a v100 server."""

    mode = "placement"
    name = "mixed"

    def reset(self, workload, options, *, seed):
        pass

    def __call__(self, state):
        return {0: np.array([1, 1])} if 0 in state.jobs else {}


def test_gang_rule_bottleneck_runs_a_mixed_gang_at_its_slowest_type():
    w = A.Workload(("k80", "v100"), [0, 1], [1, 1], [float("inf")] * 2, ("A",), [0.0], [2], [720.0], [1.0],
                   [[1.0, 4.0]], [0.0])
    with pytest.raises(ScheduleViolation, match="gang rule 'single'"):
        A.simulate(w, Mixed())
    sim = A.simulate(w, Mixed(), gang_rule="bottleneck")
    assert sim.completion.tolist() == [720.0]  # 720 steps at the k80's 1 step/s: two rounds of 360 s
    A.check_schedule(w, sim).raise_if_invalid()


def test_restart_delay_is_paid_when_the_gpus_change():
    w = A.Workload(("v100",), [0], [1], [float("inf")], ("A",), [0.0], [1], [1000.0], [1.0], [[1.0]], [0.0])
    sim = A.simulate(w, "fifo", restart_delay=10.0)
    # first start pays 10 s, then the job keeps its GPU: 350 steps, then 360, then 290
    assert sim.completion.tolist() == [1010.0]
    assert sim.info["restarts"] == 1
    A.check_schedule(w, sim).raise_if_invalid()


def test_contention_penalty_on_a_shared_link():
    """Two gangs of 3 GPUs on three 2-GPU servers share the middle server's link: eq. (5) with k = 2."""
    size, bw, T = 100.0, 10.0, 2.0
    w = A.Workload(("v100",), [0, 0, 0], [2, 2, 2], [bw] * 3, ("A", "B"), [0.0, 0.0], [3, 3], [10_000.0] * 2,
                   [1.0, 1.0], [[T], [T]], [size, size])
    alone = A.simulate(w, "srtf", record_rounds=True)
    shared = A.simulate(w, "srtf", contention=True, record_rounds=True)
    b = 0.008 / bw
    slow = 1.0 / (1.0 / T + (2 - 1) * b * (1 + ETA_OVER_B) * size)
    steps = [g["steps"][0] for g in shared.rounds[0]["gangs"]]
    assert steps == [float(int(slow * 360.0))] * 2
    assert [g["steps"][0] for g in alone.rounds[0]["gangs"]] == [720.0, 720.0]
    assert np.all(shared.completion > alone.completion)
    A.check_schedule(w, shared).raise_if_invalid()


def test_bad_placements_are_violations():
    class Over:
        mode = "placement"
        name = "over"

        def reset(self, *a, **k):
            pass

        def __call__(self, state):
            return {int(j): 0 for j in state.jobs}

    w = A.generate_instance(n_jobs=4, jobs_per_hour=100.0, seed=0, counts="0:0:1", multi_gpu=False)
    with pytest.raises(ScheduleViolation, match="GPUs of type"):
        A.simulate(A.at_load(w, 1000.0, seed=0).replace(arrival=np.zeros(4)), Over())


def test_policy_table_describes_every_adapter():
    from hetopt.arena.policies import describe

    rows = describe()
    assert len([r for r in rows if r["source"] == "gavel"]) == 24
    assert {"tiresias", "las", "srtf", "yarn_cs"} <= {r["name"] for r in rows}
    assert all(r["keeps"] and r["drops"] for r in rows)
    json.dumps(rows)


@pytest.mark.parametrize("policy", ["tiresias", "yarn_cs"])
def test_unaware_rules_visit_the_types_in_the_fixed_order(policy):
    """Heterogeneity-unaware, but in a fixed order that starts with the V100 (as hadar's instances list them)."""
    w = A.Workload(("k80", "p100", "v100"), [0, 1, 2], [1, 1, 1], [float("inf")] * 3, ("A", "B"), [0.0, 0.0],
                   [1, 1], [360.0, 360.0], [1.0, 1.0], [[1.0, 2.0, 4.0], [1.0, 2.0, 4.0]], [0.0, 0.0])
    sim = A.simulate(w, policy)
    assert [g["type"] for g in sim.rounds[0]["gangs"]] == [2, 1]
