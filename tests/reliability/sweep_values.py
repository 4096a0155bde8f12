"""Valid values for the required arguments of the argument sweep (tests/reliability/argument_sweep.py).

``build(valid, function, name)`` returns a valid value of parameter ``name`` of ``function`` of
``valid.kind`` (a :class:`~tests.reliability.argument_sweep._Valid`, which holds the kind's example
instance and its solution), or raises LookupError when there is none (the function is then listed as
skipped).  The sweep calls each function once with these values before it sweeps it: a function that
fails there is skipped with the reason, never counted as ``named``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

Builder = Callable[[Any], Any]
#: the hand-written Philly log of the Philly reader's tests
PHILLY_LOG = Path(__file__).parent.parent / "gavel" / "data" / "philly_job_log_small.json"

#: Every kind: parameter name -> builder.
COMMON: dict[str, Builder] = {
    "j": lambda v: 0, "job": lambda v: 0, "n": lambda v: 2, "seed": lambda v: 0, "index": lambda v: 0,
}


def _contention(v: Any) -> dict[str, Builder]:
    i = v.inst()
    mem = lambda v: np.full(i.n_servers * i.gpus_per_server, float(i.gpu_memory))  # noqa: E731
    return {
        "algorithm": lambda v: "ring", "alpha": lambda v: 1e-4, "beta": lambda v: 1e-9, "gamma": lambda v: 1e-10,
        "n_nodes": lambda v: 4, "message_size": lambda v: 1.0, "size": lambda v: 1.0, "a": lambda v: float(i.a),
        "b": lambda v: float(i.b), "eta": lambda v: float(i.eta), "k": lambda v: 2, "m1": lambda v: 1.0,
        "m2": lambda v: 2.0, "first": lambda v: 0, "offset": lambda v: 0.0, "m_new": lambda v: 1.0,
        "m_old": lambda v: 2.0, "n_waiters": lambda v: 1, "sizes": lambda v: [1.0, 2.0],
        "starts": lambda v: [0.0, 0.0], "servers": lambda v: [[0], [0]], "free_memory": mem,
        "workload": lambda v: np.zeros(i.n_servers * i.gpus_per_server), "gpus_per_server": lambda v: i.gpus_per_server,
        "n_gpus": lambda v: 1, "memory": lambda v: float(i.memory[0]), "rng": lambda v: np.random.default_rng(0),
        "server_tasks": lambda v: [{"x"}, set()], "remaining": lambda v: {"x": 1.0}, "jct": lambda v: np.array([1.0, 2.0]),
        "values": lambda v: np.array([1.0, 2.0]), "placement": lambda v: v.sol().placement,
        "make_placement.name": lambda v: "lwf", "make_admission.name": lambda v: "srsf1", "two_task_fluid.first": lambda v: 1,
    }


def _gavel(v: Any) -> dict[str, Builder]:
    i = v.inst()

    def alloc(v: Any) -> np.ndarray:
        return np.asarray(v.sol().allocation, dtype=float)

    def text(v: Any) -> str:
        from importlib import resources

        return (resources.files("hetopt") / "tables" / "gavel_trace_debug.trace").read_text()

    return {
        "throughput": lambda v: i.throughput, "scale_factor": lambda v: i.scale_factor, "capacity": lambda v: i.capacity,
        "remaining_steps": lambda v: i.total_steps.astype(float), "n_jobs": lambda v: i.n_jobs,
        "X": alloc, "allocation": alloc, "share": alloc, "floors": lambda v: np.zeros(i.n_jobs),
        "job_weight": lambda v: np.ones(i.n_jobs), "type_price": lambda v: np.ones(len(i.capacity)),
        "priority": lambda v: np.ones_like(alloc(v)), "text": text, "load_trace.name": lambda v: "small_test",
        "reference_type": lambda v: 0, "pairs": lambda v: [(0, 1)], "times_since_start": lambda v: np.ones(i.n_jobs),
        "pair_throughput": lambda v: np.ones((1, len(i.capacity), 2)),
        "parity_rows.traces": lambda v: ("small_test",),  # all five traces take minutes
    }


def _hadar(v: Any) -> dict[str, Builder]:
    import hetopt.hadar as H

    i = v.inst()

    def schedules(v: Any) -> list:
        return H.split_schedule(np.asarray(v.sol().schedule))

    return {
        "schedules": schedules, "schedule": lambda v: schedules(v)[0][0], "w": lambda v: np.asarray(v.sol().schedule),
        "gamma": lambda v: np.zeros_like(i.capacity), "capacity": lambda v: i.capacity,
        "params": lambda v: H.PriceParameters(u_max=2.0, u_min=1.0, eta=1.0), "free": lambda v: i.capacity.copy(),
        "prices": lambda v: np.zeros(i.capacity.shape), "remaining": lambda v: 1.0, "now": lambda v: 0.0,
        "comm_cost": lambda v: 0.0, "queue": lambda v: list(range(i.n_jobs)),
        "dp_allocation.remaining": lambda v: (i.epochs * i.iterations_per_epoch).astype(float),
        "jct": lambda v: np.ones(i.n_jobs), "make_policy.name": lambda v: "hadar",
        "physical_mix.name": lambda v: "M-1", "gpu": lambda v: "V100",
        "model": lambda v: "RS",
    }


def _hare(v: Any) -> dict[str, Builder]:
    i = v.inst()
    n_tasks = lambda v: int(i.n_tasks)  # noqa: E731
    return {
        "start": lambda v: v.sol().start, "gpu": lambda v: v.sol().gpu, "method": lambda v: "sweep",
        "priority": lambda v: np.arange(n_tasks(v), dtype=float), "order": lambda v: tuple(range(n_tasks(v))),
        "plan": lambda v: v.sol(), "n_jobs": lambda v: 2, "gpus": lambda v: ["v100", "k80"],
        "certificates": lambda v: [__import__("hetopt.hare", fromlist=["validate_ratio"]).validate_ratio(i)],
    }


def _oasis(v: Any) -> dict[str, Builder]:
    import hetopt.oasis as O

    i = v.inst()
    n_res = len(i.worker_capacity) if np.ndim(i.worker_capacity) == 1 else i.worker_capacity.shape[-1]
    per = lambda cap: np.zeros((i.horizon, *np.shape(cap)))  # noqa: E731
    prices = lambda v: O.Prices(p=per(i.worker_capacity), q=per(i.ps_capacity))  # noqa: E731

    def schedules(v: Any) -> dict:
        s = v.sol().schedules
        return {j: [x] for j, x in (s.items() if isinstance(s, dict) else enumerate(s))}

    return {
        "schedules": schedules, "prices": prices, "used": lambda v: O.Usage(g=per(i.worker_capacity), v=per(i.ps_capacity)),
        "usage": lambda v: O.Usage(g=per(i.worker_capacity), v=per(i.ps_capacity)), "fraction": lambda v: 0.5,
        "bounds": lambda v: O.estimated_bounds(i, 0.5), "workers": lambda v: 1, "count": lambda v: 1,
        "free": lambda v: np.ones((2, n_res)), "demand": lambda v: np.ones(n_res) / 2, "log_L": lambda v: 0.0,
        "log_U": lambda v: 1.0, "price.used": lambda v: np.zeros(n_res), "capacity": lambda v: np.ones(n_res),
        "x": lambda v: {}, "mu": lambda v: {}, "make_solution.schedules": lambda v: dict(
            (j, x[0]) for j, x in schedules(v).items()), "lp_duals.schedules": schedules,
    }


def _placement(v: Any) -> dict[str, Builder]:
    import hetopt.placement as P

    i = v.inst()
    category = lambda v: v.sol().category  # noqa: E731
    return {
        "assignment": lambda v: v.sol().assignment, "solver": lambda v: "sweep", "category": category,
        "n_jobs": lambda v: i.n_jobs, "n_workers": lambda v: i.n_workers, "n": lambda v: 1,
        "gamma": lambda v: np.asarray(i.throughput, dtype=float), "G": lambda v: P.preferred_graph(
            np.asarray(i.throughput, dtype=float), category(v)), "values": lambda v: np.array([3.0, 1.0, 2.0]),
        "model": lambda v: next(iter(P.TABLE_III)), "per_type": lambda v: np.array([[1.0, 2.0], [1.0, 3.0]]),
        "types": lambda v: np.array([0, 1]), "target": lambda v: 1.5, "epsilon": lambda v: 0.1,
        # Gavel's scale factor 5 needs five workers of one type (the example has two)
        "reset_report.inst": lambda v: P.generate_instance(n_jobs=2, n_workers=15, seed=0),
    }


def _arena(v: Any) -> dict[str, Builder]:
    import hetopt.arena as A

    policy = lambda v: v.kind.policies["max_min_fairness"].factory()  # noqa: E731
    return {
        "w": lambda v: v.inst(), "policy": policy, "counts": lambda v: "2:2:2",
        "gavel_trace.name": lambda v: A.bundled_traces()[0], "jobs_per_hour": lambda v: 60.0,
        "spec": lambda v: v.inst(), "log": lambda v: json.loads(PHILLY_LOG.read_text()), "run": lambda v: A.execute(v.inst(), policy(v)),
    }


PER_KIND = {"contention": _contention, "gavel": _gavel, "hadar": _hadar, "hare": _hare, "oasis": _oasis,
            "placement": _placement, "arena": _arena}


#: optional arguments that some functions need all the same: (kind, function) -> parameter names
NEEDED = {
    ("gavel", "min_total_duration_agnostic"): ("reference_type", "remaining_steps"),
    ("gavel", "parity_rows"): ("traces",),
    **{("gavel", f): ("remaining_steps", "times_since_start") for f in ("finish_time_fairness",
                                                                       "allox")},
    ("gavel", "finish_time_fairness_agnostic"): ("reference_type", "remaining_steps", "times_since_start"),
    ("gavel", "finish_time_fairness_packed"): ("pairs", "pair_throughput", "remaining_steps", "times_since_start"),
    ("gavel", "min_total_duration_packed"): ("pairs", "pair_throughput", "remaining_steps"),
    **{("gavel", f): ("pairs", "pair_throughput") for f in ("max_min_fairness_packed", "max_sum_throughput_normalized_by_cost_packed_slos",
                                          "fifo_packed", "max_min_fairness_water_filling_packed", "gandiva")},
}


def build(valid: Any, function: str, name: str, *, kind_only: bool = False, specific: bool = False) -> Any:
    """A valid value of ``function``'s parameter ``name``; LookupError when there is none.

    ``kind_only``: only the kind's own table (consulted before the sweep's generic rules); ``specific``: only
    its entry for this function (``"function.name"``, consulted first).
    """
    table = {**({} if kind_only else COMMON), **PER_KIND.get(valid.kind.name, lambda v: {})(valid)}
    for key in (f"{function}.{name}",) if specific else (f"{function}.{name}", name):
        if key in table:
            return table[key](valid)
    raise LookupError(name)
