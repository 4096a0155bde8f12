"""Dorm's per-event MILP: the numpy/scipy formulation against the Pyomo reference model."""

import numpy as np
import pyomo.environ as pyo
import pytest

from hetopt import Status, solve_model
from hetopt.oasis import check_schedule, generate_instance, simulate
from hetopt.oasis.baselines import DormPolicy, build_dorm_model, dorm_arrays, dorm_data
from hetopt.solvers import solve_milp

OBJ_RTOL = 1e-6
FEAS_TOL = 1e-7


def _event_state(seed):
    """A random instance and a random event state: active jobs and their previous worker counts
    (not necessarily an allocation the simulator could reach)."""
    rng = np.random.default_rng(seed)
    inst = generate_instance(n_jobs=int(rng.integers(8, 20)), horizon=30, n_worker_servers=int(rng.integers(3, 8)), n_ps_servers=int(rng.integers(3, 8)), seed=seed,
                             chunks_range=(2, 30))
    J = sorted(rng.choice(inst.n_jobs, size=int(rng.integers(2, min(inst.n_jobs, 12) + 1)), replace=False).tolist())
    running = rng.random(len(J)) < 0.6
    prev = [int(rng.integers(1, min(inst.chunks[j], 4) + 1)) if r else 0 for j, r in zip(J, running)]
    max_adjust = None if seed % 3 else int(rng.integers(0, 3))
    return inst, dorm_data(inst, J, prev, theta=float(rng.uniform(0.0, 0.5)), max_adjust=max_adjust)


def _load(m, d, x):
    n = len(d.J)
    for k, j in enumerate(d.J):
        m.W[j].value, m.Z[j].value = x[k], x[n + k]
        m.slack[j].value, m.chg[j].value = x[2 * n + k], x[3 * n + k]


@pytest.mark.parametrize("seed", range(10))
def test_dorm_arrays_match_pyomo_model(seed):
    inst, d = _event_state(seed)
    arrays = dorm_arrays(d)
    m = build_dorm_model(d)
    n_rows = sum(len(c) for c in m.component_objects(pyo.Constraint, active=True))
    assert arrays["A_ub"].shape == (n_rows, 4 * len(d.J))
    sol = solve_milp(**arrays, raise_on_failure=False)  # to optimality: no node limit, default gap
    ref = solve_model(m, "highs", threads=1, raise_on_failure=False)
    if sol.status is Status.INFEASIBLE or ref.status is Status.INFEASIBLE:
        # a random previous allocation may exceed the capacity with too few jobs allowed to resize
        assert sol.status is ref.status is Status.INFEASIBLE and d.running.size > d.limit
        return
    assert sol.status is Status.OPTIMAL and ref.status is Status.OPTIMAL
    assert sol.objective == pytest.approx(ref.objective, rel=OBJ_RTOL, abs=1e-9)
    # the arrays' optimum is feasible in the Pyomo model, with the same objective there
    _load(m, d, sol.info["x"])
    assert pyo.value(m.obj) == pytest.approx(sol.objective, rel=OBJ_RTOL, abs=1e-9)
    for con in m.component_data_objects(pyo.Constraint, active=True):
        body = pyo.value(con.body)
        assert con.lower is None or body >= pyo.value(con.lower) - FEAS_TOL, con.name
        assert con.upper is None or body <= pyo.value(con.upper) + FEAS_TOL, con.name


def test_dorm_data_accepts_mapping_and_counts_running():
    inst = generate_instance(n_jobs=6, horizon=20, n_worker_servers=3, n_ps_servers=3, seed=1)
    d1 = dorm_data(inst, [0, 2, 4], {0: 3, 2: 0, 4: 1})
    d2 = dorm_data(inst, [0, 2, 4], [3, 0, 1])
    assert d1.prev.tolist() == d2.prev.tolist() == [3, 0, 1]
    assert d1.running.tolist() == [0, 2] and d1.limit == 1
    assert np.allclose(d1.target, 0.8 * np.minimum(1 / 3, d1.chunks * d1.unit))


def test_dorm_counts_solves_and_is_feasible():
    inst = generate_instance(n_jobs=15, horizon=30, n_worker_servers=6, n_ps_servers=6, seed=4)
    pol = DormPolicy(inst)
    s = simulate(inst, pol)
    assert pol.solves > 0 and check_schedule(inst, s).ok
    assert simulate(inst, "dorm").total_utility == pytest.approx(s.total_utility)  # deterministic
