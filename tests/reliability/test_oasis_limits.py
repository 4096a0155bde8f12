"""OASiS under issue 25: instances where no job fits, time limits on every exact route, the size guard, the generator.

Before the fix: ``lp_bound`` raised "restricted master LP: HiGHS status Empty" on
``generate_instance(n_jobs=4, horizon=6, n_worker_servers=2, n_ps_servers=2, seed=1000)`` (no job fits; 94 of 100 seeds of that call were such);
``solve_exact`` with 500 jobs and T = 300 ran out of memory after 85 s; at ``time_limit=0.5`` the
plan route took 4.3 s on 60 jobs (T = 60, H = K = 20), the Pyomo route 14.8 s, ``lp_bound`` 2.4 s.
"""

from __future__ import annotations

import hashlib
import json
import math
import time

import pytest

from hetopt.certify import Status
from hetopt.errors import SizeLimitError
from hetopt.oasis import check_schedule, compact_lp_bound, generate_instance, lp_bound, solve_exact
from hetopt.oasis.capacity import standalone
from hetopt.oasis.pricing import JobPricer
from tests.conftest import time_allowance

ROUTES = {
    "plan": {"engine": "plan"},
    "arrays": {"engine": "arrays"},
    "pyomo-highs": {"engine": "pyomo"},
    "pyomo-scip": {"engine": "pyomo", "solver": "scip"},
}


def _no_job_fits():
    """The issue's instance, drawn with the paper's ranges (the generator's defaults before issue 25)."""
    return generate_instance(n_jobs=4, horizon=6, n_worker_servers=2, n_ps_servers=2, seed=1000, epochs_range=(50, 200),
                             chunks_range=(5, 100))


def test_no_job_fits_by_hand():
    """Independent of the routes: even with N_i workers in every slot, no job finishes by T."""
    inst = _no_job_fits()
    assert all(int(inst.min_slots[i]) > inst.horizon - int(inst.arrival[i]) + 1 for i in range(inst.n_jobs))


@pytest.mark.parametrize("engine", ["arrays", "pyomo"])
def test_lp_bound_is_zero_when_no_job_fits(engine):
    lb = lp_bound(_no_job_fits(), engine=engine)  # raised "restricted master LP: HiGHS status Empty" (arrays)
    assert lb.bound == 0.0 and lb.status is Status.OPTIMAL
    assert compact_lp_bound(_no_job_fits()) == 0.0


@pytest.mark.parametrize("route", ROUTES)
def test_exact_routes_are_optimal_zero_when_no_job_fits(route):
    inst = _no_job_fits()
    sol = solve_exact(inst, **ROUTES[route])
    assert sol.status is Status.OPTIMAL and sol.total_utility == 0.0 and sol.bound == 0.0 and not sol.admitted


def test_master_without_columns_has_value_zero():
    from hetopt.oasis.master import Master

    value, mu, p, q = Master(_no_job_fits()).solve()
    assert value == 0.0 and not mu.any() and not p.any() and not q.any()


# ----------------------------------------------------------------------------- time limits

def _check_limited(inst, sol, limit, elapsed):
    assert elapsed <= time_allowance(limit), elapsed
    rep = check_schedule(inst, sol)
    assert rep.ok, rep.violations
    assert sol.bound is not None and sol.bound >= sol.total_utility * (1 - 1e-9)
    assert sol.status in (Status.TIME_LIMIT, Status.OPTIMAL, Status.FEASIBLE)


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("size, limit", [((20, 30, 8), 0.5), ((60, 60, 20), 0.5)])
def test_time_limit_on_every_exact_route(route, size, limit):
    """Within 10 % + 0.5 s, with OASiS's online schedule (or better) and a proven bound."""
    n, T, S = size
    inst = generate_instance(n_jobs=n, horizon=T, n_worker_servers=S, n_ps_servers=S, seed=0)
    t0 = time.perf_counter()
    sol = solve_exact(inst, time_limit=limit, **ROUTES[route])
    _check_limited(inst, sol, limit, time.perf_counter() - t0)
    assert sol.info.get("incumbent") == "oasis-online" or "oasis_schedule" in sol.info or route == "plan"


@pytest.mark.parametrize("engine", ["arrays", "pyomo"])
@pytest.mark.parametrize("size, limit", [((20, 30, 8), 0.5), ((60, 60, 20), 0.5)])
def test_time_limit_on_lp_bound(engine, size, limit):
    n, T, S = size
    inst = generate_instance(n_jobs=n, horizon=T, n_worker_servers=S, n_ps_servers=S, seed=0)
    t0 = time.perf_counter()
    lb = lp_bound(inst, time_limit=limit, engine=engine)
    assert time.perf_counter() - t0 <= time_allowance(limit)
    assert lb.bound <= standalone(inst).bound * (1 + 1e-12)
    assert lb.bound >= solve_exact(inst, time_limit=limit).total_utility * (1 - 1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("route", ROUTES)
def test_time_limit_on_a_large_instance(route):
    inst = generate_instance(n_jobs=150, horizon=100, n_worker_servers=30, n_ps_servers=30, seed=0)
    t0 = time.perf_counter()
    sol = solve_exact(inst, time_limit=2.0, max_size=None, **ROUTES[route])
    _check_limited(inst, sol, 2.0, time.perf_counter() - t0)


# ----------------------------------------------------------------------------- the size guard

def test_size_guard_refuses_500_jobs_at_300_slots_at_once():
    """Issue 25: MemoryError after 85 s.  Now refused before anything is built, with the estimate and the way out."""
    inst = generate_instance(n_jobs=500, horizon=300, n_worker_servers=50, n_ps_servers=50, seed=0)
    t0 = time.perf_counter()
    for route in ROUTES:
        with pytest.raises(SizeLimitError) as exc:
            solve_exact(inst, **ROUTES[route])
        msg = str(exc.value)
        assert "15,073,361 columns" in msg and "max_size=" in msg and "lp_bound" in msg and "time_limit" in msg
    with pytest.raises(SizeLimitError, match="max_columns"):
        compact_lp_bound(inst)
    assert time.perf_counter() - t0 < 2.0


def test_lp_bound_on_the_large_instance_skips_the_compact_lp_and_keeps_its_limit():
    inst = generate_instance(n_jobs=500, horizon=300, n_worker_servers=50, n_ps_servers=50, seed=0)
    t0 = time.perf_counter()
    lb = lp_bound(inst, time_limit=2.0)
    assert time.perf_counter() - t0 <= time_allowance(2.0)
    assert "compact_skipped" in lb.info and math.isfinite(lb.bound) and lb.bound <= standalone(inst).bound


def test_size_guard_can_be_raised_and_counts_like_the_model():
    from hetopt.oasis.arrays import build_offline_arrays
    from hetopt.oasis.offline import model_size

    inst = generate_instance(n_jobs=6, horizon=8, n_worker_servers=3, n_ps_servers=3, seed=1)
    arr = build_offline_arrays(inst)
    est = model_size(inst, "arrays")
    assert est["columns"] == arr.n_cols
    assert est["rows"] >= arr.A_ub.shape[0] + arr.A_eq.shape[0]
    assert est["nonzeros"] >= arr.A_ub.nnz + arr.A_eq.nnz
    with pytest.raises(SizeLimitError):
        solve_exact(inst, max_size=10)
    assert solve_exact(inst, max_size=est["columns"]).status is Status.OPTIMAL


# ----------------------------------------------------------------------------- the generator's defaults

#: sha256 of ``to_dict()`` of the claims' generator calls, computed with the generator of e17ee09 (before
#: the new defaults): the claims' instances must not move.
CLAIM_DIGESTS = {
    "(20, 30, 8, 8) seed 1": "9875d2532d60f52495df7d64e670c501828a53d69bdda576c981a34d26b8cb59",
    "(40, 60, 20, 20) seed 0": "357becae377be96180e033ac36a92841bc13cd0eee978581a5f2498be1582b74",
    "(12, 10, 7, 2) seed 0 epochs (4, 30)": "fc2181c676b0a8c02d8a7d1c1df8a2dcc7a459370e63a082fcf4375dc6f7ba40",
    "(20, 200, 5, 5) seed 0": "bf0cde9211d0b42dc471c5aed9a012e9842130bd817bec63724c721eeeea35a2",
}
CLAIM_CALLS = {
    "(20, 30, 8, 8) seed 1": lambda: generate_instance(n_jobs=20, horizon=30, n_worker_servers=8, n_ps_servers=8, seed=1),
    "(40, 60, 20, 20) seed 0": lambda: generate_instance(n_jobs=40, horizon=60, n_worker_servers=20, n_ps_servers=20, seed=0),
    "(12, 10, 7, 2) seed 0 epochs (4, 30)": lambda: generate_instance(n_jobs=12, horizon=10, n_worker_servers=7, n_ps_servers=2, seed=0, epochs_range=(4, 30)),
    "(20, 200, 5, 5) seed 0": lambda: generate_instance(n_jobs=20, horizon=200, n_worker_servers=5, n_ps_servers=5, seed=0),
}


def _digest(inst) -> str:
    return hashlib.sha256(json.dumps(inst.to_dict(), sort_keys=True).encode()).hexdigest()


@pytest.mark.parametrize("call", CLAIM_CALLS)
def test_the_claims_instances_do_not_move(call):
    assert _digest(CLAIM_CALLS[call]()) == CLAIM_DIGESTS[call]


def _admissible(inst) -> int:
    return sum(JobPricer(inst, i).feasible for i in range(inst.n_jobs))


def test_default_small_instances_have_jobs_that_fit():
    """generate_instance(n_jobs=4, horizon=6, n_worker_servers=2, n_ps_servers=2): 94 of seeds 0..99 had no admissible job with the paper's ranges; now none."""
    old = sum(_admissible(generate_instance(n_jobs=4, horizon=6, n_worker_servers=2, n_ps_servers=2, seed=s, epochs_range=(50, 200), chunks_range=(5, 100))) == 0
              for s in range(100))
    new = [_admissible(generate_instance(n_jobs=4, horizon=6, n_worker_servers=2, n_ps_servers=2, seed=s)) for s in range(100)]
    assert old >= 90
    assert sum(a == 0 for a in new) <= 2 and sum(a >= 2 for a in new) >= 90
    assert generate_instance(n_jobs=4, horizon=6, seed=3).to_dict() == generate_instance(n_jobs=4, horizon=6, n_worker_servers=2, n_ps_servers=2, seed=3).to_dict()


@pytest.mark.slow
def test_default_small_instances_are_contested():
    """In at least 15 of 100 seeds the jobs compete: the optimum is below the sum of their standalone utilities."""
    contested = 0
    for s in range(100):
        inst = generate_instance(n_jobs=4, horizon=6, n_worker_servers=2, n_ps_servers=2, seed=s)
        contested += solve_exact(inst).total_utility < standalone(inst).bound * (1 - 1e-6)
    assert contested >= 15
