"""The bounds on the jobs present (hetopt.arena.presence) hold on real runs; has and hare refuse before the first round."""

import numpy as np
import pytest

import hetopt.arena as A
from hetopt.arena.engine import execute
from hetopt.arena.policies import make_policy
from hetopt.arena.presence import presence_bounds
from hetopt.arena.protocol import Options
from hetopt.arena.sources import SIMULATION_CLUSTER, at_load, gavel_trace
from hetopt.errors import SizeLimitError

from .small import small_workload


class Recorder:
    """A policy that records the time and the jobs present at every call, and asks ``inner`` for the gangs."""

    def __init__(self, inner):
        self.inner, self.mode, self.name = inner, inner.mode, inner.name
        self.copies = getattr(inner, "copies", False)
        self.calls: list[tuple[float, np.ndarray]] = []

    def reset(self, workload, options, *, seed):
        self.inner.reset(workload, options, seed=seed)

    def __call__(self, state):
        self.calls.append((state.now, state.jobs.copy()))
        return self.inner(state)


def msr(n_jobs, *, load=2.0, shrink=1.0):
    """The first ``n_jobs`` arrivals of the page's workload at ``load`` jobs/hour, steps divided by ``shrink``."""
    w = at_load(gavel_trace("msr/seed=0/ed69ec", SIMULATION_CLUSTER), load, seed=0)
    w = w.subset(np.sort(np.argsort(w.arrival, kind="stable")[:n_jobs]))
    return w.replace(steps=np.maximum(1.0, np.ceil(w.steps / shrink)))


def _check_bounds(w, policy):
    """At the first call that sees each arrival: within a round of it, and the jobs present within the bounds."""
    rec = Recorder(make_policy(policy))
    execute(w, rec, seed=0)
    L = Options().round_length
    copies = rec.copies
    s, lower, upper = presence_bounds(w, L, copies=copies, weights=w.scale_factor)
    _, count, _ = presence_bounds(w, L, copies=copies)
    times = np.array([t for t, _ in rec.calls])
    assert np.all(np.diff(times) >= 0)
    for k, t0 in enumerate(s):
        i = int(np.searchsorted(times, t0))  # the first call at or after the arrival
        t, jobs = rec.calls[i]
        assert t <= t0 + L * (1 + 1e-9), (policy, t0, t)
        assert w.scale_factor[jobs].sum() >= lower[k] and jobs.size >= count[k], (policy, t0, jobs, lower[k])
        assert jobs.size <= upper[k]
    return int(count.max())


@pytest.mark.parametrize("policy", ["srtf", "jps", "hadare"])
@pytest.mark.parametrize("seed", range(4))
def test_the_bounds_hold_at_every_call_that_sees_an_arrival(policy, seed):
    _check_bounds(small_workload(seed, jobs=(8, 14), rounds=6.0), policy)


def test_the_bounds_hold_and_bind_on_the_msr_trace():
    """On the first 40 jobs of the page's workload, steps divided by 30, the lower bound reaches several jobs."""
    assert _check_bounds(msr(40, shrink=30), "srtf") >= 3
    assert _check_bounds(msr(40, shrink=30), "jps") >= 1


@pytest.mark.parametrize("load", [1.0, 2.0, 3.0])
def test_has_and_hare_refuse_on_the_page_workload_before_the_first_round(load):
    w = at_load(gavel_trace("msr/seed=0/ed69ec", SIMULATION_CLUSTER), load, seed=0)
    for name, match in (("has", r"arena policy 'has'.* at least 4 .*categories.*max_size=50000"),
                        ("hare", r"arena policy 'hare'.* at least 19 tasks.*MAX_RELAXATION_TASKS = 18")):
        rec = Recorder(make_policy(name))
        with pytest.raises(SizeLimitError, match=match):
            execute(w, rec, seed=0)
        assert rec.calls == []  # refused in reset, before any round
    # the guards' ways out are not refused early: hare with a time limit, hare_lp, has with a larger max_size
    for policy in (make_policy("hare", time_limit=1.0), make_policy("hare_lp"), make_policy("has", max_size=10**40)):
        policy.reset(w, Options(), seed=0)


def test_a_refusal_is_a_row_of_the_table_and_the_other_runs_go_on():
    w = msr(60, shrink=20)
    make_policy("has").reset(w, Options(), seed=0)  # the pre-check proves nothing here
    table = A.run(w, ["has", "fifo", "hare"], bounds=False)
    rows = {r[0]: dict(zip(table.columns, r, strict=True)) for r in table.rows}
    assert rows["has"]["avg_jct"] is None and rows["has"]["rounds"] is None
    assert rows["has"]["refused"].startswith("arena policy 'has' at ")  # partway: the event's time
    assert "C(107, 3)" in rows["has"]["refused"]
    assert rows["hare"]["refused"] and rows["hare"]["avg_jct"] is None
    assert rows["fifo"]["refused"] is None and rows["fifo"]["avg_jct"] > 0
    assert rows["fifo"]["cpu_seconds"] > 0
    assert [r["jct"] for r in table.runs if r["policy"] == "has"] == [None]
