"""Every option of every public Hare function goes through one checker (issue 25): a bad value is an
ArgumentError naming the argument, never a raw TypeError, a numpy error or a silent acceptance.

The matrix: each public function of ``hetopt.hare.__all__`` and ``hetopt.hare.exact.__all__`` that
takes a time limit, a thread count, a gap, a seed or a size, with every bad value of its kind.
The size guards of the exact routes are at the end.
"""

from __future__ import annotations

import functools
import math
import re

import numpy as np
import pytest

from hetopt.certify import Status
from hetopt.errors import ArgumentError, SizeLimitError
from hetopt.hare import (
    HareInstance,
    arrivals,
    brute_force,
    cluster,
    generate_instance,
    generate_workload,
    improve_schedule,
    job_colgen_bound,
    lp_ordering,
    ratio_report,
    ratio_sweep,
    schedule,
    solve_exact,
    solve_relaxation,
    theorem4_counterexample,
    time_indexed_bound,
    validate_ratio,
)
from hetopt.hare.exact import coarse_bound, scaling, solve_cpsat_exact, solve_milp_exact
from tests.reliability.matrix import Bad, by_function, function_of, refused

INST = HareInstance(arrival=[0.0, 0.5], weight=[1.0, 2.0], rounds=[2, 1], tasks_per_round=[1, 2],
                    compute_time=[[1.0, 2.0], [3.0, 1.5]], sync_time=[[0.25, 0.5], [0.0, 0.0]])
START, GPU = np.array([0.0, 1.25, 0.5, 1.0]), np.array([0, 0, 1, 1])

BAD = {
    "time_limit": [0, -1, -math.inf, math.nan, True, np.bool_(True), "1", 1j, [1]],
    "threads": [0, -1, 1.5, True, "1", [1]],
    "gap": [-0.1, 1.0, 2.0, math.nan, math.inf, True, "0.1"],
    "seed": [True, -1, 1.5, "1", 2**64, [0]],
    "size": [0, -1, 1.5, True, "3", None],
}

SC = scaling(INST)
P = functools.partial

# (label, call taking the bad value as the keyword ``name``, name, kind)
CASES = [
    *((f"solve_exact[{eng}]", P(solve_exact, INST, engine=eng), name, kind)
      for eng in ("cpsat", "milp") for name, kind in (("time_limit", "time_limit"), ("threads", "threads"),
                                                      ("max_size", "size"))),
    ("solve_exact[milp]", P(solve_exact, INST, engine="milp"), "mip_gap", "gap"),
    ("solve_exact[scip]", P(solve_exact, INST, solver="scip"), "time_limit", "time_limit"),
    *(("solve_cpsat_exact", P(solve_cpsat_exact, INST), name, name) for name in ("time_limit", "threads", "seed")),
    *(("solve_milp_exact", P(solve_milp_exact, INST), name, kind)
      for name, kind in (("time_limit", "time_limit"), ("threads", "threads"), ("mip_gap", "gap"))),
    ("solve_milp_exact[scip]", P(solve_milp_exact, INST, solver="scip"), "time_limit", "time_limit"),
    *(("coarse_bound", P(coarse_bound, INST, SC, time_limit=1.0), name, name) for name in ("time_limit", "threads",
                                                                                           "seed")),
    ("brute_force", P(brute_force, INST), "max_size", "size"),
    *(("solve_relaxation", P(solve_relaxation, INST), name, kind)
      for name, kind in (("time_limit", "time_limit"), ("threads", "threads"), ("mip_gap", "gap"))),
    *(("job_colgen_bound", P(job_colgen_bound, INST), name, kind)
      for name, kind in (("time_limit", "time_limit"), ("threads", "threads"), ("max_slots", "size"),
                         ("max_rounds", "size"), ("step", "size"))),
    *(("time_indexed_bound", P(time_indexed_bound, INST), name, kind)
      for name, kind in (("time_limit", "time_limit"), ("threads", "threads"), ("max_slots", "size"),
                         ("max_columns", "size"), ("step", "size"))),
    *(("improve_schedule", P(improve_schedule, INST, START, GPU, max_moves=10), name, kind)
      for name, kind in (("time_limit", "time_limit"), ("seed", "seed"), ("max_moves", "size"), ("stall", "size"))),
    *(("schedule", P(schedule, INST), name, name) for name in ("time_limit", "threads")),
    ("validate_ratio", P(validate_ratio, INST), "time_limit", "time_limit"),
    ("ratio_report", P(ratio_report, INST), "time_limit", "time_limit"),
    *(("ratio_sweep", P(ratio_sweep, n=1), name, name) for name in ("time_limit", "seed")),
    ("ratio_sweep", P(ratio_sweep), "n", "size"),
    ("generate_instance", P(generate_instance), "seed", "seed"),
    *(("generate_instance", P(generate_instance, seed=0), name, "size")
      for name in ("n_jobs", "n_gpus", "max_rounds", "max_tasks", "max_weight")),
    ("generate_workload", P(generate_workload, n_jobs=2, gpus=["v100"]), "seed", "seed"),
    ("generate_workload", P(generate_workload, gpus=["v100"]), "n_jobs", "size"),
    ("generate_workload", P(generate_workload, 2, ["v100"]), "iterations_per_task", "size"),
    ("arrivals", P(arrivals, n_jobs=2), "seed", "seed"),
    ("arrivals", P(arrivals), "n_jobs", "size"),
    *(("lp_ordering", P(lp_ordering, INST), name, "size") for name in ("max_rounds", "cuts_per_round")),
    ("theorem4_counterexample", P(theorem4_counterexample), "k", "size"),
]
#: Sizes whose None is a valid value (their default or "never"), by name or as function.name.
NONE_OK = ("solve_exact.max_size", "step", "max_moves", "stall")


def _cases():
    for label, call, name, kind in CASES:
        for bad in BAD[kind]:
            if bad is None and (name in NONE_OK or f"{label.split('[')[0]}.{name}" in NONE_OK):
                continue
            yield Bad(function_of(label), f"{label} {name}", bad, P(call, **{name: bad}), re.escape(name.split("[")[0]))


MATRIX = by_function(_cases())


@pytest.mark.parametrize("function", list(MATRIX))
def test_bad_arguments_are_named(function):
    refused(MATRIX[function])


def test_generator_size_zero_is_named():
    """Before: ``generate_instance(seed=0, n_jobs=0)`` raised IndexError; fractional and bool sizes were accepted."""
    for bad in (0, 2.0, True, "3", -2):
        with pytest.raises(ArgumentError, match="n_jobs"):
            generate_instance(seed=0, n_jobs=bad)
    with pytest.raises(ArgumentError, match="max_total_tasks"):
        generate_instance(seed=0, max_total_tasks=0)


def test_cluster_counts_and_workload_options():
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(ArgumentError, match="v100"):
            cluster(v100=bad)
    with pytest.raises(ArgumentError, match="rounds"):
        generate_workload(2, ["v100"], seed=0, rounds=(3, 2))
    with pytest.raises(ArgumentError, match="scales"):
        generate_workload(2, ["v100"], seed=0, scales=(0,))
    with pytest.raises(ArgumentError, match="weights"):
        generate_workload(2, ["v100"], seed=0, weights=("1",))
    with pytest.raises(ArgumentError, match="category_mix"):
        generate_workload(2, ["v100"], seed=0, category_mix={"CV": "0.5"})
    with pytest.raises(ArgumentError, match="switch_prob"):
        arrivals(3, seed=0, process="google", switch_prob=1.5)


def test_cpsat_seed_range_and_generator():
    """CP-SAT's random_seed is 32-bit: a larger seed is named, a Generator gives a seed."""
    with pytest.raises(ArgumentError, match="seed"):
        solve_cpsat_exact(INST, seed=2**40)
    assert solve_cpsat_exact(INST, seed=np.random.default_rng(0)).status is Status.OPTIMAL


def test_engine_options_and_flags():
    with pytest.raises(ArgumentError, match="mip_gap"):
        solve_exact(INST, engine="cpsat", mip_gap=0.1)
    with pytest.raises(ArgumentError, match="solver"):
        solve_exact(INST, engine="milp", solver="gurobi")
    with pytest.raises(ArgumentError, match="symmetry_breaking"):
        solve_exact(INST, symmetry_breaking=1)
    with pytest.raises(ArgumentError, match="round_bound"):
        solve_cpsat_exact(INST, round_bound="yes")
    with pytest.raises(ArgumentError, match="options"):
        solve_cpsat_exact(INST, options=[("linearization_level", 0)])
    with pytest.raises(ArgumentError, match="time_limit and max_moves"):
        improve_schedule(INST, START, GPU, time_limit=None)
    with pytest.raises(ArgumentError, match="form"):
        schedule(INST, form="quadratic")


# ---------------------------------------------------------------- size guards
def _big(tasks: int) -> HareInstance:
    return generate_instance(seed=0, n_jobs=tasks // 3, n_gpus=4, max_rounds=3, max_tasks=2, max_total_tasks=tasks)


def test_exact_without_time_limit_refuses_200_tasks_with_the_way_out():
    """Before: ``exact`` on 200 tasks ran until killed (no default time limit)."""
    inst = _big(200)
    with pytest.raises(SizeLimitError, match="time_limit=.*max_size=") as err:
        solve_exact(inst)
    assert "intervals" in str(err.value)


def test_exact_milp_without_time_limit_refuses_100_tasks_with_the_estimate():
    """Before: ``exact_milp`` on 100 tasks ran until killed."""
    inst = _big(100)
    with pytest.raises(SizeLimitError, match="disjunctions.*rows.*time_limit=.*max_size="):
        solve_exact(inst, engine="milp")
    with pytest.raises(SizeLimitError, match="max_size="):  # beyond the build limit even with a time limit
        solve_exact(_big(150), engine="milp", time_limit=5.0)
    with pytest.raises(SizeLimitError, match="max_size=10"):
        solve_exact(_big(20), time_limit=1.0, max_size=10)


def test_brute_force_guard_names_max_size():
    with pytest.raises(SizeLimitError, match="max_size="):
        brute_force(_big(12))


def test_time_limited_large_instances_return_incumbent_and_bound():
    """200 tasks with a time limit: TIME_LIMIT with a checked incumbent and a bound (CP-SAT); the MILP at
    60 tasks and a limit below its build time: the best cheap schedule and the trivial bound, unbuilt."""
    from hetopt.hare import check_schedule

    inst = _big(200)
    sol = solve_exact(inst, time_limit=1.0)
    check_schedule(inst, sol).raise_if_invalid()
    assert sol.status is Status.TIME_LIMIT and sol.bound is not None and 0 < sol.bound <= sol.objective
    inst = _big(60)
    sol = solve_exact(inst, engine="milp", time_limit=0.5)
    check_schedule(inst, sol).raise_if_invalid()
    assert sol.status is Status.TIME_LIMIT and sol.bound is not None and sol.info["incumbent"] == "heuristic"
