"""OASiS's entry in the registry (:class:`hetopt.contract.Kind`)."""

from __future__ import annotations

import functools

from ..contract import Kind, Method
from ..report import Table
from .baselines import dorm, drf, fifo, rrh
from .generator import generate_instance
from .instance import OasisInstance
from .model import build_offline
from .offline import solve_exact
from .online import online
from .schedule import check_schedule
from .simulator import simulate
from .validate import ratio_sweep, ratio_table

__all__ = ["KIND", "CAPPED_LOG_RATIO", "example", "export_model", "validate"]

#: ln(U/L) cap of the ``oasis_capped`` method (an option of hetopt; ``oasis`` is the literal (25)-(26)).
CAPPED_LOG_RATIO = 15.0

_U = "total utility of the completed jobs, sum_i f_i(t_i - a_i) (maximized)"


def example(seed: int, size: int) -> OasisInstance:
    """A small instance: 2 + ``size`` jobs, horizon 4 + ``size``, 2 worker and 2 PS servers."""
    return generate_instance(2 + size, 4 + size, 2, 2, seed=seed, epochs_range=(2, 6), chunks_range=(2, 4))


def validate(n: int = 9, *, seed: int = 0) -> Table:
    """Theorem 4 on ``n`` Fig. 5 instances (seeds ``seed..seed+n-1``), via :func:`hetopt.validate.sweep`."""
    return ratio_table(ratio_sweep(list(range(seed, seed + n)), executor=None))


def export_model(inst: OasisInstance):
    """The exact offline MILP (1)-(13)."""
    return build_offline(inst)


KIND = Kind(
    name="oasis",
    title='Bao et al., "Online Job Scheduling in Distributed Machine Learning Clusters", INFOCOM 2018',
    instance=OasisInstance,
    generate_instance=generate_instance,
    example=example,
    check_schedule=check_schedule,
    solve_exact=solve_exact,
    simulate=simulate,
    validate=validate,
    export_model=export_model,
    card="models/oasis2018.md",
    plot="hetopt.plot.slots:oasis_gantt",
    claims="hetopt.claims.oasis",
    bench="hetopt.bench.oasis",
    methods=(
        Method("exact", solve_exact, "exact", "The certified optimum of the offline problem (1)-(13), or the "
               "incumbent and the dual bound when time-limited.", _U, default=True),
        Method("oasis", online, "heuristic", "OASiS (Alg. 1): jobs admitted in arrival order at the price "
               "functions (22)-(26), each job's schedule by the dynamic program of Alg. 2.", _U),
        Method("oasis_capped", functools.partial(online, log_ratio_cap=CAPPED_LOG_RATIO), "heuristic",
               "OASiS with ln(U/L) capped at 15 in the price functions (an option of hetopt, not the paper's).",
               _U),
        Method("fifo", fifo, "baseline", "FIFO with fixed worker counts (uniform in [1, 30] per job, seeded, "
               "capped at N_i).", _U),
        Method("drf", drf, "baseline", "Dominant resource fairness, recomputed on arrivals and completions; "
               "every job admitted.", _U),
        Method("rrh", rrh, "baseline", "The risk-reward heuristic with fixed worker counts (as FIFO).", _U),
        Method("dorm", dorm, "baseline", "Dorm: a utilization-maximizing MILP re-solved on arrivals and "
               "completions.", _U),
    ),
)
