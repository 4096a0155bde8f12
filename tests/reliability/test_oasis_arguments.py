"""Every option of every public OASiS function that takes one, with each bad value: an ArgumentError naming it.

Before issue 25: ``lp_bound`` accepted ``time_limit`` True / NaN / 0 / -1 and crashed with a TypeError on
"1" or [1]; it accepted ``threads`` 0 / -1 / 1.5 / True / "2", ``max_iterations`` 0 / -1 / 2.5 / True and
``compact`` 1 / "yes" / None; the generator crashed in numpy on sizes, ranges and ``slot_hours`` of the
wrong form and accepted fractional or boolean ranges; ``fixed_counts`` accepted ``low`` "1" / 0 / 2.5;
the oracles raised IndexError or TypeError on a bad ``job``.
"""

from __future__ import annotations

import functools
import math
import re

import numpy as np
import pytest

import hetopt.oasis as o
from hetopt.oasis import Prices, Usage
from tests.reliability.matrix import Bad, by_function, function_of, refused

INST = o.generate_instance(n_jobs=3, horizon=5, n_worker_servers=2, n_ps_servers=2, seed=0, epochs_range=(2, 4), chunks_range=(2, 3))
ZERO, EMPTY = Prices.zeros(INST), Usage.empty(INST)

TIME = [True, "1", 1j, [1], math.nan, 0, -1, -math.inf]
GAP = [math.nan, -0.1, 1.0, 2.0, True, math.inf, "0.1", 1j]
THREADS = [0, -1, 1.5, True, "2"]
SEED = [True, -1, 1.5, "3", 2**64]
SIZE = [0, -1, "3", True, 2.5]
FLAG = [1, 0, "yes", None]
CHOICE = ["nope", 1, None]
RANGE = [(0, 3), (3, 2), (1.5, 3), "ab", (True, 3), (1,), 5]
JOB = [-1, 3, "0", True, 0.5]

# (label, call taking the one keyword under test, {argument: bad values})
MATRIX = [
    ("solve_exact", lambda **k: o.solve_exact(INST, **k),
     {"time_limit": TIME, "mip_gap": GAP, "threads": THREADS, "engine": CHOICE, "solver": CHOICE,
      "tighten": [1, "V1", ["V9"], None], "warm_start": FLAG, "max_size": SIZE}),
    ("lp_bound", lambda **k: o.lp_bound(INST, **k),
     {"time_limit": TIME, "threads": THREADS, "max_iterations": SIZE, "engine": CHOICE,
      "smoothing": [math.nan, -1, 1.0, True, "0.5"], "compact": FLAG, "subgradient_iterations": [-1, "3", True, 2.5],
      "max_columns": SIZE}),
    ("lp_bound(pyomo)", lambda **k: o.lp_bound(INST, engine="pyomo", **k),
     {"time_limit": TIME, "threads": THREADS, "max_iterations": SIZE, "compact": FLAG}),
    ("compact_lp_bound", lambda **k: o.compact_lp_bound(INST, **k),
     {"threads": THREADS, "engine": CHOICE, "max_columns": SIZE}),
    ("generate_instance", lambda **k: o.generate_instance(**{"n_jobs": 3, "horizon": 5, "n_worker_servers": 2,
                                                            "n_ps_servers": 2, "seed": 0, **k}),
     {"n_jobs": SIZE, "horizon": SIZE, "n_worker_servers": SIZE, "n_ps_servers": SIZE, "seed": SEED,
      "resources": ["bandwidth", 5, ("gpu",), ("gpu", "gpu", "bandwidth"), ("gpu", 1)],
      "priority_range": [(5, 1), (-1, 2), "ab", (math.nan, 1), (True, 2)], "class_mix": [(1, 0, 0, 0), "abc", (0.5, 0.5, 0.5)],
      "slot_hours": [0, -1, math.nan, "1", True, math.inf], "epochs_range": RANGE, "chunks_range": RANGE,
      "minibatches_range": RANGE}),
    ("fig5_instance", lambda **k: o.fig5_instance(**{"seed": 0, **k}),
     {"seed": SEED, "n_servers": [*SIZE, 1], "n_jobs": SIZE, "horizon": SIZE, "epochs_range": RANGE,
      "priority_range": [(5, 1)]}),
    ("fig5_setting", lambda **k: o.fig5_setting(**k), {"seed": SEED}),
    ("fixed_counts", lambda **k: o.fixed_counts(INST, **k),
     {"seed": SEED, "low": [0, -1, "1", True, 2.5, 40], "high": [0, "3", True, 2.5]}),
    ("best_schedule", lambda **k: o.best_schedule(INST, **{"job": 0, "prices": ZERO, "used": EMPTY, **k}),
     {"job": JOB, "prices": [None, 1], "used": [1, "x"]}),
    ("schedules_by_end", lambda **k: o.schedules_by_end(INST, **{"job": 0, "prices": ZERO, "used": EMPTY, **k}),
     {"job": JOB, "prices": [None]}),
    ("algorithm2_literal", lambda **k: o.algorithm2_literal(INST, **{"job": 0, "prices": ZERO, "used": EMPTY, **k}),
     {"job": JOB}),
    ("best_schedule_ilp", lambda **k: o.best_schedule_ilp(INST, **{"job": 0, "prices": ZERO, "used": EMPTY, **k}),
     {"job": JOB, "time_limit": TIME, "threads": THREADS}),
    ("build_oracle", lambda **k: o.build_oracle(INST, **{"job": 0, "prices": ZERO, "used": EMPTY, **k}), {"job": JOB}),
    ("ps_needed", lambda **k: o.ps_needed(INST, **{"job": 0, "workers": 1, **k}), {"job": JOB, "workers": [-1, "2", 1.5, True]}),
    ("simulate", lambda **k: o.simulate(INST, **{"policy": "oasis", **k}), {"policy": CHOICE, "options": [5, {"bogus": 1}]}),
    ("simulate(oasis)", lambda **k: o.simulate(INST, "oasis", options=k),
     {"log_ratio_cap": [-1, "1", math.nan, True, 0], "record_prices": FLAG[:3], "estimates": ["x", -1, True, math.nan],
      "price_dtype": ["x", int]}),
    ("simulate(fifo)", lambda **k: o.simulate(INST, "fifo", options=k), {"seed": SEED, "workers": [0, -1, "3", True, 2.5]}),
    ("simulate(rrh)", lambda **k: o.simulate(INST, "rrh", options=k),
     {"seed": SEED, "workers": [0, -1, "3", True, 2.5], "threshold": ["x", math.nan, True]}),
    ("simulate(dorm)", lambda **k: o.simulate(INST, "dorm", options=k),
     {"theta": [-1, "x", math.nan, True, 2], "max_adjust": [-1, "x", True, 2.5]}),
    ("validate_ratio", lambda **k: o.validate_ratio(INST, **k), {"time_limit": TIME, "threads": THREADS,
                                                                  "offline": ["x", 1, {}]}),
    ("ratio_sweep", lambda **k: o.ratio_sweep(**{"n": 1, "time_limit": 5, "executor": "serial", **k}),
     {"n": SIZE, "seed": SEED, "time_limit": TIME}),
    ("lp_duals", lambda **k: o.lp_duals(INST, **{"schedules": {}, **k}), {"solver": CHOICE}),
    ("dual_fitting_trace", lambda **k: o.dual_fitting_trace(INST, **k),
     {"log_ratio_cap": [-1, "1", math.nan, True], "estimates": ["x", -1]}),
    ("price_bounds", lambda **k: o.price_bounds(INST, **k), {"log_ratio_cap": [-1, "1", math.nan, True, 0]}),
    ("estimated_bounds", lambda **k: o.estimated_bounds(INST, **k), {"fraction": [-1, "1", math.nan, True, 0]}),
    ("check_schedule", lambda **k: o.check_schedule(INST, **{"sol": {}, **k}), {"tol": [-1, math.nan, "0", True, math.inf]}),
]

# the message names the argument (a range names its element: "epochs_range[0]"; a policy option its name)
CASES = by_function(Bad(function_of(label), f"{label} {arg}", bad, functools.partial(call, **{arg: bad}), re.escape(arg))
                    for label, call, args in MATRIX for arg, bads in args.items() for bad in bads)


@pytest.mark.parametrize("function", list(CASES))
def test_bad_arguments_are_named(function):
    refused(CASES[function])


def test_the_matrix_covers_every_public_function_with_options():
    """Each function of hetopt.oasis.__all__ with a time_limit, gap, threads, seed, size or choice is in the matrix."""
    import inspect

    covered = {label.split("(")[0] for label, _, _ in MATRIX}
    covered.add("make_solution")  # its ``solver`` is a free label of the solution, not a choice
    options = {"time_limit", "mip_gap", "threads", "seed", "engine", "solver", "max_iterations", "n", "n_jobs", "job"}
    for name in o.__all__:
        f = getattr(o, name)
        if not inspect.isfunction(f):
            continue
        params = set(inspect.signature(f).parameters)
        if params & options:
            assert name in covered, name


@pytest.mark.parametrize("limit", [math.inf, np.float64(0.5), np.int64(1)])
def test_valid_limits_are_accepted(limit):
    sol = o.solve_exact(INST, time_limit=limit)
    assert sol.status.has_solution


def test_seeds_accept_generators_and_the_largest_int():
    a = o.generate_instance(n_jobs=3, horizon=5, n_worker_servers=2, n_ps_servers=2, seed=np.random.default_rng(1))
    b = o.generate_instance(n_jobs=3, horizon=5, n_worker_servers=2, n_ps_servers=2, seed=2**63 - 1)
    assert a.n_jobs == b.n_jobs == 3
