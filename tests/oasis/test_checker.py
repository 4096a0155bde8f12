"""The independent checker must catch every kind of violation (the tests can fail)."""

import numpy as np
import pytest

from hetopt.oasis import JobSchedule, check_schedule, make_solution, simulate, solve_exact

from .conftest import tiny_instance


def _solution():
    for seed in range(20):
        inst = tiny_instance(seed, n_jobs=3, horizon=5)
        sol = solve_exact(inst)
        if len(sol.admitted) >= 1:
            return inst, sol
    raise AssertionError("no instance with an admitted job")


def _mutate(inst, sol, fn):
    i = sol.admitted[0]
    s = sol.schedules[i]
    y, z = s.workers.copy(), s.ps.copy()
    fn(inst, i, y, z)
    scheds = dict(sol.schedules)
    scheds[i] = JobSchedule(i, y, z)
    return scheds


@pytest.mark.parametrize("eq, fn", [
    ("(2)", lambda inst, i, y, z: y.__setitem__((slice(None), slice(None)), np.where(np.arange(y.shape[1]) == np.argmax(y.sum(0) > 0), y, 0))),
    ("(3)", lambda inst, i, y, z: y.__setitem__((0, -1), inst.chunks[i] + 1)),
    ("(4)", lambda inst, i, y, z: y.__setitem__((0, int(inst.arrival[i]) - 1), 1000)),
    ("(6)", lambda inst, i, y, z: z.__setitem__((slice(None), slice(None)), 0)),
    ("(7)", lambda inst, i, y, z: z.__setitem__((0, int(inst.arrival[i]) - 1), y[:, int(inst.arrival[i]) - 1].sum() + 5)),
])
def test_checker_reports_violations(eq, fn):
    inst, sol = _solution()
    assert check_schedule(inst, sol).ok
    rep = check_schedule(inst, _mutate(inst, sol, fn))
    assert not rep.ok and any(v.startswith(eq) for v in rep.violations), rep.violations


def test_checker_before_arrival_and_reported_utility():
    for seed in range(30):
        inst = tiny_instance(seed, n_jobs=3, horizon=5)
        sol = simulate(inst, "oasis")
        late = [i for i in sol.admitted if inst.arrival[i] > 1]
        if late:
            break
    else:
        pytest.skip("no admitted job arriving after slot 1")
    i = late[0]
    s = sol.schedules[i]
    y = s.workers.copy()
    y[0, 0] = 1
    rep = check_schedule(inst, {i: JobSchedule(i, y, s.ps)})
    assert any(v.startswith("(9)") for v in rep.violations)
    # a solution that misreports its utility is caught
    bad = make_solution(inst, sol.schedules)
    object.__setattr__(bad, "total_utility", bad.total_utility + 1.0)
    assert any(v.startswith("(1)") for v in check_schedule(inst, bad).violations)


def test_relabelling_servers_keeps_the_optimum():
    """Metamorphic: permuting worker and PS servers changes nothing."""
    inst = tiny_instance(4, n_jobs=3, horizon=4, servers=3)
    d = inst.to_dict()
    d["worker_capacity"] = d["worker_capacity"][::-1]
    d["ps_capacity"] = d["ps_capacity"][::-1]
    from hetopt.oasis import OasisInstance

    perm = OasisInstance.from_dict(d)
    assert solve_exact(perm).total_utility == pytest.approx(solve_exact(inst).total_utility, rel=1e-6, abs=1e-9)


def test_report_is_the_shared_type_with_the_recomputed_utility():
    from hetopt.oasis import generate_instance
    from hetopt.result import CheckReport

    inst = generate_instance(n_jobs=6, horizon=8, n_worker_servers=4, n_ps_servers=4, seed=3)
    sol = simulate(inst, "oasis")
    rep = check_schedule(inst, sol)
    assert isinstance(rep, CheckReport) and rep.ok
    assert rep.objective == pytest.approx(sol.total_utility, rel=1e-9, abs=1e-9)


def test_schedule_round_trip_and_bad_arguments():
    import json

    from hetopt.errors import ArgumentError

    inst, sol = _solution()
    s = sol.schedules[sol.admitted[0]]
    again = JobSchedule.from_dict(json.loads(json.dumps(s.to_dict())))
    assert again.job == s.job and again.completion == s.completion and (again.workers == s.workers).all()
    bad = dict(s.to_dict(), completion=s.completion + 1)
    with pytest.raises(ArgumentError, match="completion"):
        JobSchedule.from_dict(bad)
    with pytest.raises(ArgumentError, match="keys"):
        JobSchedule.from_dict({"job": 0})
    with pytest.raises(ArgumentError, match="sol is a list"):
        check_schedule(inst, [s])
    with pytest.raises(ArgumentError, match="expects a OasisInstance"):
        check_schedule(None, sol)
