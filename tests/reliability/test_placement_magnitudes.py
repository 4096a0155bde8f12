"""Placement's exact routes at every magnitude (issue 25): unit changes by 1e6 and 1e-6, mixed magnitudes
(1e-10 next to 1) and a property test against brute force at random magnitudes.

Every result is checked on the true data: the objective is the assignment's recomputed average JCT, an
OPTIMAL result equals the brute-force optimum, and a bound never exceeds it.  ``exact`` and
``exact_scip`` run with ``fallback=False`` too, so that the solver routes themselves are held to this
(a route may then say "not certified", never give a wrong optimum or bound).
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hetopt.certify import OPTIMAL_RTOL, Status
from hetopt.placement import PlacementInstance, average_jct, exhaustive, generate_instance, solve_exact

ROUTES = {
    "exact": lambda inst: solve_exact(inst),
    "exact_scip": lambda inst: solve_exact(inst, solver="scip"),
    "exhaustive": exhaustive,
    "exact (no fallback)": lambda inst: solve_exact(inst, fallback=False),
    "exact_scip (no fallback)": lambda inst: solve_exact(inst, solver="scip", fallback=False),
}


def brute_force(inst: PlacementInstance) -> float:
    """The optimum of P1 by enumerating every assignment with the independent evaluator (not ``exhaustive``)."""
    S, K = inst.n_jobs, inst.n_workers
    return min(average_jct(inst, a) for a in itertools.product(range(S), repeat=K) if len(set(a)) == S)


def check(inst: PlacementInstance, sol, opt: float, *, certified: bool) -> None:
    """The result is right on the true data; ``certified``: it must also be OPTIMAL."""
    assert sol.objective == pytest.approx(average_jct(inst, sol.assignment), rel=1e-12)
    assert sol.objective >= opt * (1 - 1e-9)
    assert sol.bound is None or sol.bound <= opt * (1 + OPTIMAL_RTOL)
    if sol.status is Status.OPTIMAL:
        assert sol.objective == pytest.approx(opt, rel=OPTIMAL_RTOL)
    if certified:
        assert sol.status is Status.OPTIMAL, (sol.status, sol.info)


# ---------------------------------------------------------------- unit changes: x1e6 and x1e-6
def _base():
    return generate_instance(n_jobs=3, n_workers=7, seed=2, gpus_per_node=3)


def _times(inst, f):  # seconds -> f seconds: the optimum is multiplied by f
    return dataclasses.replace(inst, epochs=inst.epochs * f), f


def _samples(inst, f):  # samples -> f samples: throughputs and datasets together, the optimum is unchanged
    return dataclasses.replace(inst, throughput=inst.throughput * f, dataset_size=inst.dataset_size * f), 1.0


def _bytes(inst, f):  # bytes -> f bytes: model sizes and link rates together, the optimum is unchanged
    return dataclasses.replace(inst, model_size=inst.model_size * f, intra_node_rate=inst.intra_node_rate * f,
                               inter_node_rate=inst.inter_node_rate * f), 1.0


def _all(inst, f):  # all three units at once: the optimum is multiplied by f
    inst, _ = _bytes(inst, f)
    inst, _ = _samples(inst, f)
    return _times(inst, f)


@pytest.mark.parametrize("route", list(ROUTES))
@pytest.mark.parametrize("factor", [1e6, 1e-6])
@pytest.mark.parametrize("change", [_times, _samples, _bytes, _all], ids=lambda f: f.__name__.strip("_"))
def test_unit_change_scales_the_optimum(route, factor, change):
    base = _base()
    ref = exhaustive(base).objective
    inst, scale = change(base, factor)
    sol = ROUTES[route](inst)
    check(inst, sol, ref * scale, certified=True)
    assert sol.objective == pytest.approx(ref * scale, rel=1e-6)


# ---------------------------------------------------------------- mixed magnitudes: 1e-10 next to 1
def _mixed(kind: str) -> PlacementInstance:
    rho = np.array([[1.0, 2.0, 1e-10, 3.0, 1e-10], [1e-10, 1.0, 2.0, 1e-10, 1.5], [2.0, 1e-10, 1.0, 1.0, 1.0]])
    kw = dict(throughput=np.array([[1.0, 2.0, 1.5, 3.0, 1.0], [1.0, 1.0, 2.0, 0.5, 1.5], [2.0, 1.0, 1.0, 1.0, 1.0]]),
              dataset_size=np.array([1.0, 2.0, 3.0]), epochs=np.array([1.0, 1.0, 1.0]), model_size=np.array([1.0, 2.0, 0.5]),
              worker_node=np.array([0, 0, 1, 1, 2]), intra_node_rate=4.0, inter_node_rate=1.0)
    if kind == "throughput":
        kw["throughput"] = rho
    elif kind == "epochs":
        kw["epochs"] = np.array([1e-10, 1.0, 1.0])
    elif kind == "dataset":
        kw["dataset_size"] = np.array([1.0, 1e-10, 3.0])
    elif kind == "model_size":
        kw["model_size"] = np.array([1e-10, 2.0, 1e10])
    elif kind == "rates":
        kw["inter_node_rate"] = 4e-10
    elif kind == "everything":
        kw.update(throughput=rho, epochs=np.array([1e-10, 1.0, 1e6]), model_size=np.array([1e-10, 2.0, 1e6]),
                  inter_node_rate=4e-10)
    return PlacementInstance(**kw)


@pytest.mark.parametrize("route", list(ROUTES))
@pytest.mark.parametrize("kind", ["throughput", "epochs", "dataset", "model_size", "rates", "everything"])
def test_mixed_magnitudes(route, kind):
    inst = _mixed(kind)
    opt = brute_force(inst)
    check(inst, ROUTES[route](inst), opt, certified="no fallback" not in route)


# ---------------------------------------------------------------- property test at random magnitudes
@st.composite
def tiny_instances(draw) -> PlacementInstance:
    """1-3 jobs on S+1 to S+3 workers (S**K <= 729); every value log-uniform in [1e-9, 1e6], mixed within the
    instance (hypothesis draws the shape and a seed, numpy the values, so that the magnitudes are spread)."""
    S = draw(st.integers(1, 3))
    K = draw(st.integers(S + 1, S + 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))

    def mag(*shape):
        return 10 ** rng.uniform(-9, 6, size=shape)

    kw = {}
    if draw(st.booleans()):
        intra = float(mag())
        kw = dict(model_size=mag(S), worker_node=np.sort(rng.integers(0, 3, K)), intra_node_rate=intra,
                  inter_node_rate=min(intra, float(mag())))
    return PlacementInstance(throughput=mag(S, K), dataset_size=mag(S), epochs=mag(S), **kw)


def _property(route: str, examples: int) -> None:
    @settings(max_examples=examples, derandomize=True, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(tiny_instances())
    def prop(inst):
        check(inst, ROUTES[route](inst), brute_force(inst), certified="no fallback" not in route)

    prop()


@pytest.mark.parametrize("route", list(ROUTES))
def test_random_magnitudes_against_brute_force(route):
    _property(route, 12)


@pytest.mark.slow
@pytest.mark.parametrize("route", list(ROUTES))
def test_random_magnitudes_against_brute_force_long(route):
    _property(route, 300)
