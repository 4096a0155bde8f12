"""The simulator's round arithmetic, all gangs at once, against the job-by-job loop it replaced, bit for bit.

``_reference`` is that loop (one job at a time, each gang's rate, restart and share in its own small
arrays), driven by the same policies; every result array and metric must be the same double.  The
rule checks name the first gang that breaks a rule, with the first rule it breaks.
"""

import numpy as np
import pytest

from hetopt.errors import ScheduleViolation
from hetopt.hadar import HadarInstance, Utility, generate_instance, simulate, trace_workload
from hetopt.hadar.protocol import RoundState
from hetopt.hadar.simulator import DONE_RTOL
from hetopt.hadar.policies import make_policy


def _reference(inst, pol, RL, restart):
    """The former simulator loop, job by job; returns the arrays the result is built from."""
    J, H, R = inst.n_jobs, inst.n_machines, inst.n_types
    pol.reset(inst)
    state = RoundState(inst=inst, index=0, now=0.0, round_length=RL, restart_delay=restart,
                       remaining=inst.total_iterations.astype(float), active=np.zeros(J, bool),
                       previous=np.zeros((J, H, R), np.int64), attained=np.zeros(J),
                       rounds_received=np.zeros((J, R), np.int64))
    total = inst.total_iterations.astype(float)
    completion, busy_gpu, busy_machine = np.full(J, np.nan), 0.0, np.zeros(H)
    job_busy, first_start, iterations = np.zeros(J), np.full(J, np.nan), []
    k = 0
    while np.isnan(completion).any():
        state.index, state.now = k, k * RL
        arrival_s = inst.arrival * inst.slot_length
        state.active = np.isnan(completion) & (arrival_s <= state.now + DONE_RTOL * max(RL, state.now))
        gangs = pol.allocate(state) if state.active.any() else []
        alloc = np.zeros((J, H, R), np.int64)
        for j, w in gangs:
            alloc[j] += w
        now, remaining = state.now, state.remaining
        done_iter, machine_round, by_job = np.zeros(J), np.zeros(H), {}
        for j, w in gangs:
            by_job.setdefault(j, []).append(w)
        for j, ws in by_job.items():
            rates = np.array([w.sum() * inst.throughput[j, w.sum(axis=0) > 0].min() for w in ws])
            prev = state.previous[j]
            delays = np.array([0.0 if (prev.any() and np.array_equal(w[w.sum(axis=1) > 0], prev[w.sum(axis=1) > 0]))
                               else restart for w in ws])
            share = remaining[j] * rates / rates.sum()
            it = np.minimum(share, rates * np.maximum(RL - delays, 0.0))
            compute = it / rates
            got = float(it.sum())
            if remaining[j] - got <= DONE_RTOL * total[j]:
                completion[j] = now + float(np.max(np.where(it > 0, delays + compute, 0.0)))
                got = remaining[j]
            remaining[j] -= got
            done_iter[j] = got
            for w, c in zip(ws, compute):
                busy_gpu += w.sum() * c
                mach = w.sum(axis=1) > 0
                machine_round[mach] = np.maximum(machine_round[mach], c)
            state.attained[j] += float(sum(w.sum() * c for w, c in zip(ws, compute)))
            job_busy[j] += float(np.max(compute))
            if np.isnan(first_start[j]):
                first_start[j] = now
            state.rounds_received[j, alloc[j].sum(axis=0) > 0] += 1
        busy_machine += machine_round
        iterations.append(done_iter)
        state.previous = alloc
        k += 1
    return dict(completion=completion, busy_gpu=busy_gpu, busy_machine=busy_machine, job_busy=job_busy,
                first_start=first_start, attained=state.attained, received=state.rounds_received,
                iterations=np.array(iterations))


class _Mover:
    """A policy that moves jobs at random (restarts, idle rounds, several jobs per machine), seeded."""

    name = "mover"

    def __init__(self, seed):
        self.seed = seed

    def reset(self, inst):
        self.rng = np.random.default_rng(self.seed)

    def allocate(self, state):
        inst, rng = state.inst, self.rng
        if rng.random() < 0.15:
            return []  # an idle round
        free, gangs = inst.capacity.copy(), []
        for j in rng.permutation(np.flatnonzero(state.active)).tolist():
            prev = state.previous[j]
            if prev.any() and rng.random() < 0.5 and np.all(prev <= free):
                w = prev.copy()
            else:
                w = np.zeros_like(free)
                usable = np.flatnonzero(inst.throughput[j] > 0)
                cells = [(h, r) for h in range(inst.n_machines) for r in usable for _ in range(free[h, r])]
                if len(cells) < inst.gpus[j]:
                    continue
                for i in rng.choice(len(cells), size=int(inst.gpus[j]), replace=False):
                    w[cells[i]] += 1
            free -= w
            gangs.append((j, w))
        return gangs


def _same(a, b):
    return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("policy", ["hadar", "hadare", "gavel", "tiresias", "yarn_cs", "mover"])
def test_rounds_are_the_job_by_job_loops_bit_for_bit(policy, seed):
    inst = generate_instance(n_jobs=7, n_machines=3, seed=seed, max_arrival=4, max_slots=4,
                             utility="sigmoid" if seed % 2 else "effective_throughput")
    if policy in ("gavel", "tiresias"):
        per_type = inst.capacity.sum(axis=0)
        if not (((inst.throughput > 0) & (inst.gpus[:, None] <= per_type[None, :])).any(axis=1)).all():
            pytest.skip("a job no single type can hold (the policy refuses the instance)")
    RL, restart = 45.0, 7.5

    def make():
        return _Mover(seed) if policy == "mover" else make_policy(policy)

    ref = _reference(inst, make(), RL, restart)
    res = simulate(inst, make(), round_length=RL, restart_delay=restart)
    assert _same(res.completion, ref["completion"])
    assert _same(res.job_busy, ref["job_busy"]) and _same(res.first_start, ref["first_start"])
    assert _same(np.array([r["iterations"] for r in res.rounds]), ref["iterations"])
    ttd = float(np.max(ref["completion"]))
    assert res.utilization == ref["busy_gpu"] / (float(inst.capacity.sum()) * ttd)
    assert res.cluster_utilization == float(ref["busy_machine"].sum() / (inst.n_machines * ttd))


@pytest.mark.parametrize("policy", ["hadar", "hadare", "tiresias", "mover"])
def test_trace_magnitudes_bit_for_bit(policy):
    """A slice of Section IV's trace (iteration counts near 1e7, measured throughputs, 6-minute rounds)."""
    inst = trace_workload(24, seed=3, n_machines=6, hours_scale=0.05)
    make = (lambda: _Mover(3)) if policy == "mover" else (lambda: make_policy(policy))
    ref = _reference(inst, make(), 360.0, 10.0)
    res = simulate(inst, make(), round_length=360.0, restart_delay=10.0)
    assert _same(res.completion, ref["completion"]) and _same(res.job_busy, ref["job_busy"])
    ttd = float(np.max(ref["completion"]))
    assert res.utilization == ref["busy_gpu"] / (float(inst.capacity.sum()) * ttd)


def _one_round(gangs, arrival):
    inst = HadarInstance(capacity=[[2, 1], [1, 0]], arrival=list(arrival), gpus=[2, 1], epochs=[1, 1],
                         iterations_per_epoch=[10, 10], throughput=[[1.0, 0.0], [1.0, 2.0]],
                         utility=Utility("effective_throughput"), slot_length=60.0)

    class Fixed:
        name = "fixed"

        def reset(self, inst):
            pass

        def allocate(self, state):
            return [(j, np.array(w)) for j, w in gangs]

    return simulate(inst, Fixed())


@pytest.mark.parametrize("gangs, arrival, message", [
    ([(0, [[2, 0], [0, 0]]), (1, [[0, 0], [0, 0]])], (0, 0), r"\(1e\) policy gave job 1 a gang of 0 GPUs; it needs 1"),
    ([(0, [[1, 1], [0, 0]]), (1, [[2, 0], [0, 0]])], (0, 0), r"\(1b\) policy placed job 0 on a type"),
    ([(0, [[2, 0], [0, 0]]), (1, [[1, 0], [0, 0]])], (0, 0), r"\(1d\) policy exceeded a machine's capacity in round 0"),
    ([(1, [[0, 1], [0, 0]]), (0, [[1, 1], [0, 0]])], (0, 3), r"job 1, which is not active in round 0"),
    ([(0, [[1, 1], [0, 0]]), (1, [[0, 0], [0, 0]])], (0, 0), r"\(1b\) policy placed job 0"),  # the first gang first
    ([(0, [[1, 0], [0, 0]]), (1, [[0, 1], [0, 0]])], (0, 0), r"\(1e\) policy gave job 0 a gang of 1 GPUs"),
])
def test_a_broken_gang_is_named_first_gang_first_rule(gangs, arrival, message):
    with pytest.raises(ScheduleViolation, match=message):
        _one_round(gangs, arrival)
