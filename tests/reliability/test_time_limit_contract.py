"""Time limits are a contract (issue 31, item 5): wall time <= 1.1 x limit + slack, the build included.

The routes below overran before: Hadar's P1 handed to HiGHS after a translation the limit did not count
(2 s -> 4.09 s in the review), Hare's CP-SAT engine built its model after a first stage that had spent
the budget and gave CP-SAT at least 0.1 s (0.5 s -> 1.38 s, 435 tasks), contention's bound route gave
each local search its share on top of its setup (2 s -> 4.32 s, 40 jobs), and the command line's
default time limit let Algorithm 1 build its relaxation at 10^18 tasks (a MemoryError).  The timed
tests run beside two CPU-burning processes (a background load of 2) and are in the slow tier;
``time_allowance`` (tests/conftest.py) stretches the slack with the machine's load.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

import hetopt
from hetopt.registry import get_kind
from tests.conftest import time_allowance


def test_the_relaxation_is_refused_at_1e18_tasks_time_limit_or_not(tmp_path, capsys):
    from hetopt import cli

    data = {"kind": "hare", "schema_version": 1, "arrival": [0.0], "weight": [1.0], "rounds": [10**9],
            "tasks_per_round": [10**9], "compute_time": [[1.0, 2.0]], "sync_time": [[0.0, 0.0]]}
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data))
    assert cli.main(["solve", str(path), "--method", "algorithm1"]) == 2  # the CLI's default limit: 60 s
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "MAX_RELAXATION_BUILD_TASKS = 200" in err and "1000000000000000000 tasks" in err


@pytest.fixture(scope="module")
def load_of_two():
    """Two CPU-burning processes beside the timed calls, ended by their handles."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    yield
    for p in procs:
        p.kill()
        p.wait()


def _cases():
    hare = get_kind("hare").generate_instance
    hadar = get_kind("hadar").generate_instance
    from hetopt.contention import tiny_instance

    return {
        "hadar exact 9,516 columns": (lambda: hadar(seed=0, n_jobs=12, n_machines=4, max_slots=8, max_arrival=4),
                                      "exact"),
        "hadar exact 19,968 columns": (lambda: hadar(seed=0, n_jobs=16, n_machines=4, max_slots=10, max_arrival=4),
                                       "exact"),
        "hare exact_cpsat 435 tasks": (lambda: hare(seed=3, n_jobs=60, n_gpus=8, max_rounds=5, max_tasks=4,
                                                    max_total_tasks=500), "exact_cpsat"),
        "contention contention_bound 40 jobs": (lambda: tiny_instance(seed=2, n_jobs=40, n_servers=8, gpus_per_server=4,
                                                                      max_iterations=6), "contention_bound"),
        "contention exact 40 jobs": (lambda: tiny_instance(seed=2, n_jobs=40, n_servers=8, gpus_per_server=4,
                                                           max_iterations=6), "exact"),
    }


@pytest.mark.slow
@pytest.mark.parametrize("limit", [0.5, 2.0])
@pytest.mark.parametrize("case", sorted(_cases()))
def test_wall_time_within_the_contract(case, limit, load_of_two):
    # contention_bound at 0.5 s took 1.41-2.83 s here before its stages checked the clock (issue 31); Hadar's exact
    # at 2 s 2.25 s (its Pyomo build did not)
    make, method = _cases()[case]
    inst = make()
    kind = get_kind(type(inst).KIND)
    hetopt.solve(kind.example(seed=0, size=1), method, time_limit=5)  # imports outside the timed call
    t0 = time.perf_counter()
    sol = hetopt.solve(inst, method, time_limit=limit)
    wall = time.perf_counter() - t0
    assert wall <= time_allowance(limit), f"{case}: {wall:.2f} s at time_limit={limit}"
    assert sol.status.value in ("time_limit", "optimal") and sol.objective is not None
    assert kind.check_schedule(inst, sol).ok
