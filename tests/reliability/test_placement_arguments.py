"""Argument matrix of the placement paper (issue 25): every option of every public function of
``hetopt.placement.__all__``, each bad value refused with an ArgumentError naming the option.

Each row is (function, the keyword that is bad, the other arguments, the class of bad values); a
value must give an ``ArgumentError`` whose message names the option: never a raw TypeError, a numpy
error, a silent coercion (``True`` as 1, ``"3"`` as 3) or a clipped value.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from hetopt import ArgumentError, SizeLimitError
from hetopt import placement as P
from hetopt.placement.exact import relaxed_lower_bound  # noqa: F401  (imported: the module is public)
from tests.reliability.matrix import Bad, by_function, function_of, refused

INST = P.generate_instance(n_jobs=2, n_workers=4, seed=0, gpus_per_node=2)

#: Bad values by class of option.
BAD = {
    "time_limit": [math.nan, 0, -1, -math.inf, True, "1", 1j, [1]],
    "gap": [math.nan, -0.1, 2.0, 1.0, True, math.inf, "0.1", 1j, [0.1]],
    "threads": [0, -1, 1.5, True, "2", [2]],
    "seed": [True, -1, 1.5, "1", 2**64, [1]],
    "size": [0, -1, 1.5, True, "3", None, [3]],
    "size0": [-1, 1.5, True, "3", [3]],  # counts that may be 0 (None: the default)
    "size_or_none": [0, -1, 1.5, True, "3", [3]],  # None: the default
    "choice": ["nope", 1, None, True],
    "choice_or_none": ["nope", 1, True],  # None: the default
    "unit_closed": [math.nan, -0.1, 1.1, True, "0.5", math.inf],  # in [0, 1]
    "flag": [1, 0, "yes", None, np.float64(1)],
    "fraction": [math.nan, -0.1, 1.0, 2.0, True, "0.1", math.inf, 1j],  # in [0, 1)
    "positive": [math.nan, 0, -1, True, "1", 1j],
    "array": ["x", None, 5, [[]], [["1", "2"]], [[1, math.nan]], [[True, False]], {"a": 1}],
    "mapping": [5, "has", [P.has], {}, {"has": 5}, {1: P.has}],
    "huge": [2**70, 10**6],
    "options": [5, "scale_factor", [("scale_factor", 2)], {"scale_factor": 2, "seed": 1}, {"zzz": 1}],
}

# (name, function, bad keyword, other keyword arguments, class of bad values)
ROWS = [
    ("solve_exact", P.solve_exact, "time_limit", {}, "time_limit"),
    ("solve_exact", P.solve_exact, "mip_gap", {}, "gap"),
    ("solve_exact scip", P.solve_exact, "mip_gap", {"solver": "scip"}, "gap"),
    ("solve_exact scip", P.solve_exact, "time_limit", {"solver": "scip"}, "time_limit"),
    ("solve_exact", P.solve_exact, "threads", {}, "threads"),
    ("solve_exact", P.solve_exact, "max_iterations", {}, "size"),
    ("solve_exact", P.solve_exact, "tangent_points", {}, "size"),
    ("solve_exact", P.solve_exact, "max_size", {}, "size_or_none"),
    ("solve_exact", P.solve_exact, "solver", {}, "choice"),
    ("solve_exact", P.solve_exact, "prune", {}, "flag"),
    ("solve_exact", P.solve_exact, "improve", {}, "flag"),
    ("solve_exact", P.solve_exact, "neighbour_cuts", {}, "flag"),
    ("solve_exact", P.solve_exact, "fallback", {}, "flag"),
    ("exhaustive", P.exhaustive, "max_size", {}, "size"),
    ("exhaustive", P.exhaustive, "chunk", {}, "size"),
    ("las", P.las, "time_limit", {}, "time_limit"),
    ("has", P.has, "market", {}, "choice"),
    ("has", P.has, "max_size", {}, "size_or_none"),
    ("jps", P.jps, "n_samples", {}, "size"),
    ("jps", P.jps, "seed", {}, "seed"),
    ("jps", P.jps, "market", {}, "choice"),
    ("jps", P.jps, "alpha", {}, "fraction"),
    ("jps", P.jps, "beta", {}, "unit_closed"),
    ("optimus_lb", P.optimus_lb, "reading", {}, "choice"),
    ("average_jct", P.average_jct, "split", {"assignment": [0, 0, 1, 1]}, "choice"),
    ("fairness", P.fairness, "split", {"assignment": [0, 0, 1, 1]}, "choice"),
    ("check_schedule", P.check_schedule, "split", {"sol": P.has(INST)}, "choice_or_none"),
    ("simulate", P.simulate, "reset_on_completion", {"policy": "has"}, "flag"),
    ("simulate", P.simulate, "policy", {}, "choice"),
    ("simulate", P.simulate, "options", {"policy": "has"}, "options"),
    ("simulate gavel", P.simulate, "options", {"policy": "gavel"}, "options"),
    ("matching_market", P.matching_market, "rule", {"category": (2, 2)}, "choice"),
    ("matching_market", P.matching_market, "ties", {"category": (2, 2)}, "flag"),
    ("matching_market", P.matching_market, "trace", {"category": (2, 2)}, "flag"),
    ("matching_market", P.matching_market, "max_iter", {"category": (2, 2)}, "size0"),
    ("p3_optimum", P.p3_optimum, "solver", {"category": (2, 2)}, "choice"),
    ("build_p1", P.build_p1, "form", {}, "choice"),
    ("build_p1_grouped", P.build_p1_grouped, "computation", {}, "choice"),
    ("build_p1_grouped", P.build_p1_grouped, "tangent_points", {}, "size"),
    ("validate_ratio", P.validate_ratio, "method", {}, "choice"),
    ("validate_ratio", P.validate_ratio, "time_limit", {}, "time_limit"),
    ("evaluate_methods", P.evaluate_methods, "methods", {}, "mapping"),
]

# functions without an instance argument
FREE_ROWS = [
    ("generate_instance", P.generate_instance, "n_jobs", {}, "size"),
    ("generate_instance", P.generate_instance, "n_workers", {}, "size"),
    ("generate_instance", P.generate_instance, "seed", {}, "seed"),
    ("generate_instance", P.generate_instance, "setting", {}, "choice"),
    ("generate_instance", P.generate_instance, "gpus_per_node", {}, "size"),
    ("generate_instance", P.generate_instance, "communication", {}, "flag"),
    ("generate_instance", P.generate_instance, "epsilon", {}, "fraction"),
    ("generate_instance", P.generate_instance, "heterogeneity", {}, "positive"),
    ("generate_instance", P.generate_instance, "type_ratio", {}, "choice"),
    ("generate_instance", P.generate_instance, "jobs", {}, "choice_or_none"),
    ("perturb_throughput", lambda **kw: P.perturb_throughput(INST, **kw), "epsilon", {}, "fraction"),
    ("perturb_throughput", lambda **kw: P.perturb_throughput(INST, 0.1, **kw), "seed", {}, "seed"),
    ("ratio_sweep", P.ratio_sweep, "n", {}, "size"),
    ("ratio_sweep", P.ratio_sweep, "seed", {}, "seed"),
    ("ratio_sweep", P.ratio_sweep, "method", {}, "choice"),
    ("ratio_sweep", P.ratio_sweep, "time_limit", {}, "time_limit"),
    ("ratio_sweep", P.ratio_sweep, "n_jobs", {}, "size"),
    ("ratio_sweep", P.ratio_sweep, "n_workers", {}, "size"),
    ("ratio_sweep", P.ratio_sweep, "epsilon", {}, "fraction"),
    ("gap_report", P.gap_report, "n", {}, "size"),
    ("gap_report", P.gap_report, "seed", {}, "seed"),
    ("gap_report", P.gap_report, "n_jobs", {}, "size"),
    ("gap_report", P.gap_report, "setting", {}, "choice"),
    ("gap_report", P.gap_report, "communication", {}, "flag"),
    ("categories", lambda **kw: P.categories(**{"n_jobs": 2, "n_workers": 4, **kw}), "n_jobs", {}, "size"),
    ("categories", lambda **kw: P.categories(**{"n_jobs": 2, "n_workers": 4, **kw}), "n_workers", {}, "size"),
    ("categories", lambda **kw: P.categories(2, 4, **kw), "max_categories", {}, "size_or_none"),
    ("category_index", lambda **kw: P.category_index(**kw), "category", {}, "choice"),
    ("n_categories", lambda **kw: P.n_categories(**{"n_jobs": 2, "n_workers": 4, **kw}), "n_jobs", {}, "size"),
    ("iter_categories", lambda **kw: list(P.iter_categories(**{"n_jobs": 2, "n_workers": 4, **kw})), "n_workers", {},
     "size"),
    ("category_at", lambda **kw: P.category_at(**{"n_jobs": 2, "n_workers": 4, "index": 0, **kw}), "index", {},
     "size0"),
    ("sum_top", lambda **kw: P.sum_top(np.ones(3), **kw), "n", {}, "size0"),
    ("job_throughputs", lambda **kw: P.job_throughputs(**kw), "model", {}, "choice"),
    ("preferred_graph", lambda **kw: P.preferred_graph(**{"gamma": np.ones((2, 4)), "category": (2, 2), **kw}), "gamma",
     {}, "array"),
    ("preferred_graph", lambda **kw: P.preferred_graph(np.ones((2, 4)), **kw), "category", {}, "choice"),
    ("preferred_graph", lambda **kw: P.preferred_graph(np.ones((2, 4)), (2, 2), **kw), "ties", {}, "flag"),
    ("scale_heterogeneity", lambda **kw: P.scale_heterogeneity(**{"per_type": np.ones((2, 3)) * [1, 2, 3],
                                                                  "types": np.arange(3), "target": 1.5, **kw}),
     "per_type", {}, "array"),
    ("scale_heterogeneity", lambda **kw: P.scale_heterogeneity(**{"per_type": np.ones((2, 3)) * [1, 2, 3],
                                                                  "types": np.arange(3), **kw}), "target", {}, "positive"),
    ("scale_heterogeneity", lambda **kw: P.scale_heterogeneity(**{"per_type": np.ones((2, 3)) * [1, 2, 3], "target": 1.5,
                                                                  **kw}), "types", {}, "array"),
    ("gap_report", P.gap_report, "methods", {}, "mapping"),
    ("ratio_sweep", P.ratio_sweep, "n", {}, "huge"),
    ("gap_report", P.gap_report, "n", {}, "huge"),
    ("paper_throughputs", lambda **kw: P.paper_throughputs(**kw), "model", {}, "choice"),
]


def _cases(rows, with_instance):
    args = (INST,) if with_instance else ()
    for name, func, kw, other, kind in rows:
        for bad in BAD[kind]:
            yield Bad(function_of(name), f"{name} {kw}", bad, functools.partial(func, *args, **other, **{kw: bad}), kw)


MATRIX = by_function([*_cases(ROWS, True), *_cases(FREE_ROWS, False)])


@pytest.mark.parametrize("function", list(MATRIX))
def test_bad_options_are_named(function):
    refused(MATRIX[function])


@pytest.mark.parametrize("func", [P.solve_exact, P.exhaustive, P.has, P.jps, P.las, P.optimus, P.optimus_lb,
                                  P.validate_ratio, P.average_jct, P.simulate, P.check_schedule])
@pytest.mark.parametrize("bad", [None, "liu2024_table2", {"kind": "placement"}, 5])
def test_not_an_instance_is_named(func, bad):
    with pytest.raises(ArgumentError, match="inst"):
        func(bad, [0])


@pytest.mark.parametrize("kw", ["time_limt", "relgap", "solvr"])
def test_unknown_option_is_an_error(kw):
    with pytest.raises(TypeError, match=kw):
        P.solve_exact(INST, **{kw: 1})


def test_good_values_pass():
    """The checkers accept what they should: numpy scalars, inf time limit, a Generator seed, gap 0."""
    sol = P.solve_exact(INST, time_limit=np.float64(30), mip_gap=0.0, threads=np.int64(1), max_iterations=np.int64(50))
    assert sol.is_optimal
    assert P.solve_exact(INST, time_limit=math.inf, threads=None).is_optimal
    assert P.solve_exact(INST, solver="scip", mip_gap=0.5).objective >= sol.objective * (1 - 1e-9)
    assert P.generate_instance(n_jobs=2, n_workers=3, seed=np.random.default_rng(0)).n_jobs == 2
    assert P.generate_instance(n_jobs=np.int64(2), n_workers=np.int64(3), seed=2**63 - 1).n_workers == 3


@pytest.mark.parametrize("solver", ["highs", "scip"])
def test_mip_gap_is_honoured(solver):
    """A requested gap above OPTIMAL_RTOL may stop early: then the status is FEASIBLE (never OPTIMAL without a
    proof), and the reported gap is within what was asked."""
    inst = P.generate_instance(n_jobs=4, n_workers=30, seed=1)
    sol = P.solve_exact(inst, solver=solver, mip_gap=0.2)
    assert sol.gap is not None and sol.gap <= 0.2
    assert sol.is_optimal == (sol.gap <= 1e-6)


def test_size_guard_message_names_the_way_out():
    inst = P.generate_instance(n_jobs=8, n_workers=2000, seed=0)
    with pytest.raises(SizeLimitError, match=r"max_size=\d+.*time_limit"):
        P.solve_exact(inst, max_size=1000)
