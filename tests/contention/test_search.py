"""Local search over fluid schedules (hetopt.contention.search): every result is a checked schedule."""

import pytest

from hetopt.contention import check_schedule, simulate, solve_contention_bound, tiny_instance
from hetopt.contention.cpsat import solve_cpsat_exact
from hetopt.contention.search import fluid_retime, improve_schedule


def _starts(sol):
    return {(r.kind, r.job, r.iteration) if r.kind == "c" else (r.kind, r.job, r.iteration, r.where): r.start
            for r in sol.trace}


@pytest.mark.parametrize("seed", range(4))
def test_exclusive_retime_reproduces_the_contention_free_optimum(seed):
    inst = tiny_instance(seed=seed, n_jobs=3, n_servers=2, gpus_per_server=2, max_iterations=2)
    pl = simulate(inst, "srsf1").placement
    free = solve_cpsat_exact(inst, pl)
    sol = fluid_retime(inst, pl, _starts(free))
    assert check_schedule(inst, sol, max_concurrent=1).ok
    assert sol.objective == pytest.approx(free.objective)


def test_search_improves_srsf2_to_a_checked_schedule_above_the_bound():
    inst = tiny_instance(seed=7, n_jobs=3, n_servers=2, gpus_per_server=2, max_iterations=2)
    pl = simulate(inst, "srsf1").placement
    start = simulate(inst, "srsf2", placement=[list(p) for p in pl], record=True)
    best = improve_schedule(inst, pl, start)
    rep = check_schedule(inst, best)
    assert rep.ok
    assert rep.objective == pytest.approx(best.objective)
    assert best.objective < start.objective - 1e-6  # SRSF(2): 33.4, improved to 32 (the contention-free optimum)
    bound = solve_contention_bound(inst, placement=pl, search=False).bound
    assert best.objective >= bound - 1e-9


@pytest.mark.parametrize("seed", range(3))
def test_search_from_ada_srsf_is_checked(seed):
    inst = tiny_instance(seed=seed, n_jobs=4, n_servers=2, gpus_per_server=2, max_iterations=2)
    pl = simulate(inst, "srsf1").placement
    start = simulate(inst, "ada_srsf", placement=[list(p) for p in pl], record=True)
    best = improve_schedule(inst, pl, start)
    assert check_schedule(inst, best).ok
    assert best.objective <= start.objective + 1e-9


def test_fluid_retime_starts_no_round_after_its_deadline():
    # issue 31: one candidate of a 40-job instance ran 0.9 s of fixed-point rounds on a local search's 0.05 s share
    import time

    inst = tiny_instance(seed=2, n_jobs=6, n_servers=2, gpus_per_server=2, max_iterations=3)
    sol = simulate(inst, "srsf2", record=True)
    starts = _starts(sol)
    assert fluid_retime(inst, sol.placement, starts) is not None
    assert fluid_retime(inst, sol.placement, starts, deadline=time.perf_counter()) is None
    assert improve_schedule(inst, sol.placement, sol, time_limit=0.0) is sol
