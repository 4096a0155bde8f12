"""OASiS's entry in the registry (:class:`hetopt.contract.Kind`).

The methods are the exact offline optimum and one method per policy of
:data:`~hetopt.oasis.policies.POLICIES` (``functools.partial(simulate, policy=name)``), plus
OASiS with ln(U/L) capped, an option of hetopt.
"""

from __future__ import annotations

import functools
from typing import Any

from ..contract import Kind, Method
from ..inputs import check_example
from ..report import Table
from .checker import check_schedule
from .generator import generate_instance
from .instance import OasisInstance
from .model import build_offline
from .offline import solve_exact
from .policies import POLICIES
from .simulator import simulate
from .validate import ratio_sweep, ratio_table, validate_ratio

__all__ = ["KIND", "CAPPED_LOG_RATIO", "POLICY_METHODS", "example", "export_model", "validate"]

#: ln(U/L) cap of the ``oasis_capped`` method (an option of hetopt; ``oasis`` is the literal (25)-(26)).
CAPPED_LOG_RATIO = 15.0

_U = "total utility of the completed jobs, sum_i f_i(t_hat_i - a_i) (maximized)"

#: (category, description) of the method of each policy of :data:`~hetopt.oasis.policies.POLICIES`.
POLICY_METHODS: dict[str, tuple[str, str]] = {
    "oasis": ("heuristic", "OASiS (Alg. 1): jobs admitted in arrival order at the price functions (22)-(26), each "
                           "job's schedule by the dynamic program of Alg. 2."),
    "fifo": ("baseline", "FIFO with fixed worker counts (uniform in [1, 30] per job, seeded, capped at N_i)."),
    "drf": ("baseline", "Dominant resource fairness, recomputed on arrivals and completions; every job admitted."),
    "rrh": ("baseline", "The risk-reward heuristic with fixed worker counts (as FIFO)."),
    "dorm": ("baseline", "Dorm: a utilization-maximizing MILP re-solved on arrivals and completions."),
}


def example(*, seed: int, size: int) -> OasisInstance:
    """A small instance: 2 + ``size`` jobs, horizon 4 + ``size``, 2 worker and 2 PS servers."""
    seed, size = check_example(seed, size)
    return generate_instance(n_jobs=2 + size, horizon=4 + size, n_worker_servers=2, n_ps_servers=2, seed=seed,
                             epochs_range=(2, 6), chunks_range=(2, 4))


def validate(n: int = 9, *, seed: int = 0) -> Table:
    """Theorem 4 on ``n`` Fig. 5 instances (seeds ``seed..seed+n-1``), via :func:`hetopt.validate.sweep`."""
    return ratio_table(ratio_sweep(n, seed=seed, executor=None))


def export_model(inst: OasisInstance) -> Any:
    """The exact offline MILP (1)-(13)."""
    return build_offline(inst)


def _policy_method(name: str) -> Method:
    category, description = POLICY_METHODS[name]
    return Method(name, functools.partial(simulate, policy=name), category, description, _U)


def _methods() -> tuple[Method, ...]:
    exact = Method("exact", solve_exact, "exact", "The certified optimum of the offline problem (1)-(13), or the "
                   "incumbent and the dual bound when time-limited.", _U, default=True)
    capped = Method("oasis_capped", functools.partial(simulate, policy="oasis", options={"log_ratio_cap": CAPPED_LOG_RATIO}),
                    "heuristic", "OASiS with ln(U/L) capped at 15 in the price functions (an option of hetopt, not the "
                    "paper's).", _U)
    methods = [exact]
    for name in POLICIES:
        methods.append(_policy_method(name))
        if name == "oasis":
            methods.append(capped)
    return tuple(methods)


KIND = Kind(
    name="oasis",
    title='Bao et al., "Online Job Scheduling in Distributed Machine Learning Clusters", INFOCOM 2018',
    instance=OasisInstance,
    generate_instance=generate_instance,
    example=example,
    check_schedule=check_schedule,
    solve_exact=solve_exact,
    simulate=simulate,
    policies=POLICIES,
    validate=validate,
    validate_ratio=validate_ratio,
    ratio_sweep=ratio_sweep,
    export_model=export_model,
    card="models/oasis2018.md",
    example_instance="oasis2018_theorem4_in_premise",
    plot="hetopt.oasis.experiments.plot:gantt",
    claims="hetopt.oasis.experiments.claims",
    bench="hetopt.oasis.experiments.bench",
    methods=_methods(),
)
