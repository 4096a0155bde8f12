"""Every option of every public function of hetopt.contention, with each bad value (issue 25).

A bad time limit, gap, thread count, seed, size, name, choice or flag is an ArgumentError naming
the argument: never accepted, never a raw TypeError / ValueError from numpy or a solver.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

import hetopt.contention as c
from hetopt.contention.cpsat import solve_cpsat_exact
from hetopt.contention.validate import validate
from hetopt.errors import ArgumentError, InstanceError
from tests.reliability.matrix import Bad, by_function, function_of, refused

INST = c.tiny_instance(seed=0, n_jobs=2)
P = c.simulate(INST, "srsf1").placement
FREE, WORK = np.full(4, 10.0), np.zeros(4)

BAD = {
    "time_limit": [-1, 0, -math.inf, math.nan, True, "3", 1j, [1]],
    "threads": [0, -1, True, 1.5, "2", [1]],
    "seed": [True, -1, 1.5, "1", 2**64, [0]],
    "size": [0, -1, True, 1.5, "3", None],
    "size0": [-1, True, 1.5, "3", None],
    "flag": [1, 0, "yes", None, np.float64(1.0)],
    "choice": ["nope", 1, None, ["lwf"]],
    "fraction": [math.nan, -0.1, 1.0, 2.0, True, "0.1", math.inf, None],
    "positive": [0, -1, math.nan, math.inf, True, "1", 1j, None],
    "nonnegative": [-1, math.nan, math.inf, True, "1", 1j, None],
    "options": [5, "linearization_level=2", {"no_such_parameter": 1}, {"linearization_level": "two"}],
    "generator": [True, -1, 1.5, "1", 2**64, None],
    "first": [0, 3, True, 1.0, "1"],
}

B = functools.partial(c.solve_contention_bound, INST, placement=P, search=False)
CASES = [
    ("allreduce_cost", lambda v: c.allreduce_cost(v, 1, 1, 1, 4), "algorithm", "choice"),
    ("allreduce_cost", lambda v: c.allreduce_cost("ring", 1, 1, 1, v), "n_nodes", "size"),
    ("allreduce_time", lambda v: c.allreduce_time(1, 1, 1, 1, k=v), "k", "size"),
    ("transfer_rate", lambda v: c.transfer_rate(v, 1, 1), "k", "size"),
    ("two_task_fluid_optimum", lambda v: c.two_task_fluid_optimum(1, 2, 1, 1, n_grid=v), "n_grid", "size"),
    ("two_task_fluid_optimum", lambda v: c.two_task_fluid_optimum(1, 2, 1, 1, first=v), "first", "first"),
    ("two_task_fluid", lambda v: c.two_task_fluid(1, 2, 1, 1, v, 0.0), "first", "first"),
    ("two_task_fluid", lambda v: c.two_task_fluid(1, 2, 1, 1, 1, v), "offset", "nonnegative"),
    ("two_task_cases", lambda v: c.two_task_cases(v, 2, 1, 1), "m1", "positive"),
    ("authors_slotted_transfer", lambda v: c.authors_slotted_transfer(1, 1, v), "n_waiters", "size0"),
    ("authors_slotted_transfer", lambda v: c.authors_slotted_transfer(1, 1, 1, max_slots=v), "max_slots", "size"),
    ("authors_slotted_transfer", lambda v: c.authors_slotted_transfer(1, 1, 1, slot=v), "slot", "positive"),
    *[("generate_instance", functools.partial(lambda a, v: c.generate_instance(seed=0, **{a: v}), a), a, "size")
      for a in ("n_jobs", "n_servers", "gpus_per_server")],
    ("generate_instance", lambda v: c.generate_instance(seed=v, n_jobs=4), "seed", "seed"),
    ("generate_instance", lambda v: c.generate_instance(seed=0, n_jobs=4, iterations=(v, 5)), "iterations", "size"),
    ("generate_instance", lambda v: c.generate_instance(seed=0, n_jobs=4, gpu_memory=v), "gpu_memory", "positive"),
    ("generate_instance", lambda v: c.generate_instance(seed=0, n_jobs=4, b=v), "b", "positive"),
    ("generate_instance", lambda v: c.generate_instance(seed=0, n_jobs=4, arrival_window=v), "arrival_window",
     "positive"),
    *[("tiny_instance", functools.partial(lambda a, v: c.tiny_instance(seed=0, **{a: v}), a), a, "size")
      for a in ("n_jobs", "n_servers", "gpus_per_server", "max_iterations")],
    ("tiny_instance", lambda v: c.tiny_instance(seed=0, max_arrival=v), "max_arrival", "size0"),
    ("tiny_instance", lambda v: c.tiny_instance(seed=v), "seed", "seed"),
    ("lwf_kappa", lambda v: c.lwf_kappa(FREE, WORK, 2, 1, 1.0, kappa=v), "kappa", "size"),
    *[(fn.__name__, functools.partial(lambda fn, v: fn(FREE, WORK, v, 1, 1.0), fn), "gpus_per_server", "size")
      for fn in (c.lwf_kappa, c.first_fit, c.list_scheduling)],
    *[(fn.__name__, functools.partial(lambda fn, v: fn(FREE, WORK, 2, v, 1.0), fn), "n_gpus", "size")
      for fn in (c.lwf_kappa, c.first_fit, c.list_scheduling)],
    ("random_placement", lambda v: c.random_placement(FREE, WORK, 2, 1, 1.0, rng=v), "rng", "generator"),
    ("make_placement", lambda v: c.make_placement(v), "name", "choice"),
    ("make_placement", lambda v: c.make_placement("lwf", kappa=v), "kappa", "size"),
    ("make_placement", lambda v: c.make_placement("rand", seed=v), "seed", "seed"),
    ("srsf_rule", lambda v: c.srsf_rule([set()], {}, 1.0, 1, 1, n=v), "n", "size"),
    ("make_admission", lambda v: c.make_admission(v), "name", "choice"),
    ("Policy", lambda v: c.Policy(v), "admission", "choice"),
    ("Policy", lambda v: c.Policy("srsf1", placement=v), "placement", "choice"),
    ("Policy", lambda v: c.Policy("srsf1", kappa=v), "kappa", "size"),
    ("Policy", lambda v: c.Policy("srsf1", seed=v), "seed", "seed"),
    ("Policy", lambda v: c.Policy("srsf1", category=v), "category", "choice"),
    ("get_policy", lambda v: c.get_policy(v), "policy", "choice"),
    ("simulate", lambda v: c.simulate(INST, v), "policy", "choice"),
    ("simulate", lambda v: c.simulate(INST, "srsf1", record=v if v is not None else "no"), "record", "flag"),
    ("simulate", lambda v: c.simulate(INST, "srsf1", aggregate=v), "aggregate", "flag"),
    ("simulate", lambda v: c.simulate(INST, "srsf1", transfer_accounting=v), "transfer_accounting", "choice"),
    ("simulate", lambda v: c.simulate(INST, "srsf1", max_size=v if v is not None else "x"), "max_size", "size"),
    ("simulate", lambda v: c.simulate(INST, "srsf1", options=v if v is not None else "x"), "options", "options"),
    ("simulate", lambda v: c.simulate(INST, "srsf1", options={"kappa": v}), "kappa", "size"),
    ("build_milp", lambda v: c.build_milp(INST, P, slot=v if v is not None else "x"), "slot", "positive"),
    ("build_milp", lambda v: c.build_milp(INST, P, max_binaries=v), "max_binaries", "size"),
    ("build_milp", lambda v: c.build_milp(INST, P, upper_bound=v if v is not None else "x"), "upper_bound",
     "nonnegative"),
    ("task_grid", lambda v: c.task_grid(INST, P, slot=v if v is not None else "x"), "slot", "positive"),
    *[(f"solve_exact[{e}]", functools.partial(lambda e, v: c.solve_exact(INST, engine=e, time_limit=v), e),
       "time_limit", "time_limit") for e in ("cpsat", "milp")],
    *[(f"solve_exact[{e}]", functools.partial(lambda e, v: c.solve_exact(INST, engine=e, threads=v), e), "threads",
       "threads") for e in ("cpsat", "milp")],
    *[(f"solve_exact[{e}]", functools.partial(lambda e, v: c.solve_exact(INST, engine=e, seed=v), e), "seed", "seed")
      for e in ("cpsat", "milp")],
    *[(f"solve_exact[{e}]", functools.partial(lambda e, v: c.solve_exact(INST, engine=e, upper_bound=v if v is not None
                                                                         else "x"), e), "upper_bound", "nonnegative")
      for e in ("cpsat", "milp")],
    ("solve_exact[milp]", lambda v: c.solve_exact(INST, engine="milp", slot=v if v is not None else "x"), "slot",
     "positive"),
    *[(f"solve_exact[{e}]", functools.partial(lambda e, v: c.solve_exact(INST, engine=e, max_size=v if v is not None
                                                                         else "x"), e), "max_size", "size")
      for e in ("cpsat", "milp")],
    ("solve_exact[milp]", lambda v: c.solve_exact(INST, engine="milp", mip_gap=v if v is not None else "x"), "mip_gap",
     "fraction"),
    ("solve_exact", lambda v: c.solve_exact(INST, engine=v if v is not None else "x"), "engine", "choice"),
    ("solve_exact", lambda v: c.solve_exact(INST, engine="milp", solver=v), "solver", "choice"),
    ("solve_cpsat_exact", lambda v: solve_cpsat_exact(INST, P, seed=v), "seed", "seed"),
    ("solve_cpsat_exact", lambda v: solve_cpsat_exact(INST, P, time_limit=v), "time_limit", "time_limit"),
    ("solve_cpsat_exact", lambda v: solve_cpsat_exact(INST, P, threads=v), "threads", "threads"),
    ("solve_cpsat_exact", lambda v: solve_cpsat_exact(INST, P, max_tasks=v), "max_tasks", "size"),
    ("solve_cpsat_exact", lambda v: solve_cpsat_exact(INST, P, options=v), "options", "options"),
    *[("solve_cpsat_exact", functools.partial(lambda f, v: solve_cpsat_exact(INST, P, **{f: v}), f), f, "flag")
      for f in ("cuts", "reduce")],
    ("solve_contention_bound", lambda v: B(time_limit=v), "time_limit", "time_limit"),
    ("solve_contention_bound", lambda v: B(threads=v), "threads", "threads"),
    ("solve_contention_bound", lambda v: B(seed=v), "seed", "seed"),
    ("solve_contention_bound", lambda v: B(refine=v), "refine", "size"),
    ("solve_contention_bound", lambda v: B(max_size=v), "max_size", "size"),
    ("solve_contention_bound", lambda v: B(options=v), "options", "options"),
    *[("solve_contention_bound", functools.partial(lambda f, v: B(**{f: v}), f), f, "flag")
      for f in ("cuts", "search", "energy")],
    ("solve_contention_bound", lambda v: B(literals=v if v is not None else "x"), "literals", "choice"),
    ("solve_contention_bound", lambda v: B(lb_share=v), "lb_share", "fraction"),
    ("check_schedule", lambda v: c.check_schedule(INST, c.simulate(INST, "srsf1", record=True),
                                                  max_concurrent=v if v is not None else "x"), "max_concurrent", "size"),
    ("check_schedule", lambda v: c.check_schedule(INST, v), "sol", "choice"),
    ("validate_ratio", lambda v: c.validate_ratio(INST, method=v), "method", "choice"),
    ("validate_ratio", lambda v: c.validate_ratio(INST, time_limit=v), "time_limit", "time_limit"),
    ("validate_ratio", lambda v: c.validate_ratio(INST, method="srsf1", threads=v), "threads", "threads"),
    ("validate_ratio", lambda v: c.validate_ratio(INST, method="srsf1", seed=v), "seed", "seed"),
    ("ratio_sweep", lambda v: c.ratio_sweep(v, n_jobs=2), "n", "size"),
    ("ratio_sweep", lambda v: c.ratio_sweep(1, seed=v, n_jobs=2), "seed", "seed"),
    ("ratio_sweep", lambda v: c.ratio_sweep(1, time_limit=v, n_jobs=2), "time_limit", "time_limit"),
    ("ratio_sweep", lambda v: c.ratio_sweep(1, method=v, n_jobs=2), "method", "choice"),
    *[("ratio_sweep", functools.partial(lambda a, v: c.ratio_sweep(1, **{a: v}), a), a, "size")
      for a in ("n_jobs", "n_servers", "gpus_per_server")],
    ("validate", lambda v: validate(v), "n", "size"),
    ("validate", lambda v: validate(1, seed=v), "seed", "seed"),
]

MATRIX = by_function(Bad(function_of(name), f"{name} {arg}", v, functools.partial(fn, v), rf"\b{arg}\b")
                     for name, fn, arg, cat in CASES for v in BAD[cat])


@pytest.mark.parametrize("function", list(MATRIX))
def test_bad_arguments_are_named(function):
    refused(MATRIX[function])


def test_huge_sizes_are_refused_before_any_work():
    with pytest.raises(ArgumentError, match="n"):
        validate(2**70)
    with pytest.raises(ArgumentError, match="n_jobs"):
        c.generate_instance(seed=0, n_jobs=2**40)
    with pytest.raises(ArgumentError, match="seed"):
        c.ratio_sweep(3, seed=2**63 - 2)  # the last seed would pass 2**63 - 1


def test_options_of_the_other_engine_are_refused_not_ignored():
    for kwargs in ({"slot": 1.0}, {"mip_gap": 0.1}, {"solver": "scip", "engine": "cpsat"}):
        with pytest.raises(ArgumentError, match="engine='milp'"):
            c.solve_exact(INST, **kwargs)


def test_loader_names_a_bad_names_field():
    # before: names=5 raised TypeError ("'int' object is not iterable")
    d = INST.to_dict()
    for bad in (5, None, "ab", [1, 2], ["a"]):
        with pytest.raises(InstanceError, match="names"):
            c.ContentionInstance.from_dict({**d, "names": bad})


def test_loader_names_the_array_of_the_wrong_length():
    d = c.tiny_instance(seed=0, n_jobs=3).to_dict()
    for field in ("arrival", "t_f", "memory"):
        with pytest.raises(InstanceError, match=rf"^{field} has 2 entries; expected 3"):
            c.ContentionInstance.from_dict({**d, field: d[field][:2]})


def test_good_values_still_accepted():
    assert c.two_task_fluid(1, 2, 1, 1, 2, 0.5)[0] > 0
    assert c.srsf_rule([set()], {}, 1.0, 1, 1, n=np.int64(2))
    assert c.solve_exact(INST, seed=np.random.default_rng(0)).is_optimal
    assert c.solve_exact(INST, seed=2**63 - 1).is_optimal
    assert c.validate_ratio(INST, method="srsf1", time_limit=np.float64(10)).proven
    assert c.random_placement(FREE, WORK, 2, 2, 1.0, rng=np.random.default_rng(0)).size == 2
