"""The MILP's size guard counts constraint entries from the time windows before anything is built (issue 31, item 2).

Two jobs on an 8,750-slot grid passed the binaries' guard (16,511 of 60,000) and built for more than
300 s: the rows (S2)-(S4) hold a task's window times its duration.  :func:`milp_nonzeros` counts them from
the windows alone, and the builder refuses beyond ``MILP_NONZEROS_PER_BINARY`` per binary of the guard.
"""

from __future__ import annotations

import re

import pyomo.environ as pyo
import pytest
from pyomo.core.expr.visitor import identify_variables

import hetopt
from hetopt.contention import ContentionInstance, check_schedule, simulate, solve_exact, tiny_instance
from hetopt.contention.model import MILP_MAX_BINARIES, MILP_NONZEROS_PER_BINARY, build_milp, milp_nonzeros, task_grid
from hetopt.errors import SizeLimitError

#: the review's reproducer
SLOW = dict(kind="contention", schema_version=1, n_servers=2, gpus_per_server=1, gpu_memory=1.0, a=0.002, b=0.009,
            eta=0.005, arrival=[0, 0.001], n_gpus=[2, 1], iterations=[1, 2], t_f=[.001, .006], t_b=[.006, .008],
            model_size=[.004, .005], memory=[0.2, 0.2])


def _entries(m) -> int:
    return sum(len(list(identify_variables(c.body))) for c in m.component_data_objects(pyo.Constraint, active=True))


@pytest.mark.parametrize("seed", range(6))
def test_the_count_bounds_the_built_model(seed):
    """An upper bound of the entries Pyomo builds, and not a loose one (within a factor 2)."""
    inst = tiny_instance(seed=seed, n_jobs=4, n_servers=2, gpus_per_server=2, max_iterations=2)
    ref = simulate(inst, "srsf1", record=True)
    grid = task_grid(inst, ref.placement, upper_bound=ref.objective)
    built = _entries(build_milp(inst, ref.placement, upper_bound=ref.objective))
    assert built <= milp_nonzeros(grid) <= 2 * built


def test_the_reproducer_is_refused_before_the_build():
    inst = hetopt.load_instance(SLOW)
    for call in (lambda: solve_exact(inst, engine="milp"), lambda: hetopt.solve(inst, "exact_milp")):
        with pytest.raises(SizeLimitError, match=r"max_size = 60000") as info:
            call()
        entries = int(re.search(r"up to (\d+) constraint entries", str(info.value)).group(1))
        assert entries > MILP_MAX_BINARIES * MILP_NONZEROS_PER_BINARY
        suggested = int(re.findall(r"max_size=(\d+)", str(info.value))[-1])
        assert suggested * MILP_NONZEROS_PER_BINARY >= entries
    sol = solve_exact(inst)  # CP-SAT, the default engine, solves it (in about half a second)
    assert sol.is_optimal and check_schedule(inst, sol, max_concurrent=1).ok


def test_the_guard_at_a_million_times_its_limit():
    """One job, 1e9-slot tasks in one-slot windows: three binaries, 2e9 entries, refused with integers."""
    inst = ContentionInstance(n_servers=1, gpus_per_server=1, gpu_memory=1.0, a=1.0, b=1.0, eta=1.0, arrival=[0.0],
                              n_gpus=[1], iterations=[1], t_f=[1.0], t_b=[1.0], model_size=[1.0], memory=[0.1])
    grid = task_grid(inst, [[0]], slot=1e-9, upper_bound=2.0)
    assert sum(ls - es + 1 for (_, _, _, es, ls) in grid.tasks.values()) == 3
    assert milp_nonzeros(grid) >= 10**6 * 3 * MILP_NONZEROS_PER_BINARY
    with pytest.raises(SizeLimitError, match=r"^the MILP would have 3 binaries but up to \d+ constraint entries") as info:
        build_milp(inst, [[0]], slot=1e-9, upper_bound=2.0, max_binaries=3)
    assert "e+" not in str(info.value)
    # 1e12-slot passes in one-slot windows: 3 (S1) + 2e12 (S3) + 2 x (1 + 1) (S2) entries, 3e7 times the default guard
    with pytest.raises(SizeLimitError, match=r"3 binaries but up to 2000000000007 constraint entries .* max_binaries=20000000001 "):
        build_milp(inst, [[0]], slot=1e-12)
