"""Job scheduling front doors: Ada-SRSF (Algorithm 3) and the SRSF(n) baselines.

Both run the event-driven simulator (:func:`hetopt.contention.simulator.simulate`) with a
placement (LWF-kappa by default, or FF / LS / RAND, or a fixed GPU list per job) and an
admission rule for all-reduces: AdaDUAL for Ada-SRSF, "at most n tasks per server" for
SRSF(n).  Compute tasks and queued jobs are ordered by SRSF in both.

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Algorithm 3 and Section V.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import InstanceError
from .admission import adadual, make_admission
from .instance import ContentionInstance
from .placement import make_placement
from .simulator import simulate
from .solution import ContentionSolution

__all__ = ["ada_srsf", "srsf", "schedule"]

Placement = str | Sequence[Sequence[int]]


def _placement(placement: Placement, kappa: int, seed: int | np.random.Generator | None):
    if isinstance(placement, str):
        return make_placement(placement, kappa=kappa, seed=seed), (f"lwf{kappa}" if placement == "lwf" else placement)
    return placement, "fixed"


def schedule(
    inst: ContentionInstance,
    admission: str = "adadual",
    placement: Placement = "lwf",
    *,
    kappa: int = 1,
    seed: int | np.random.Generator | None = None,
    record: bool = False,
    transfer_accounting: str = "correct",
) -> ContentionSolution:
    """Schedule ``inst`` with a named admission rule and placement.

    Parameters
    ----------
    admission : str
        "adadual" (Ada-SRSF) or "srsfN" (SRSF(N)).
    placement : str or sequence of GPU lists
        "lwf" (LWF-kappa), "ff", "ls", "rand", or a fixed GPU list per job.
    kappa : int
        kappa of LWF-kappa (>= 1).
    seed : int, Generator or None
        For RAND.
    record : bool
        Keep the task trace.
    transfer_accounting : {"correct", "authors"}
        See :func:`~hetopt.contention.simulator.simulate` ("authors" reproduces the published
        simulator's error, for diagnosis only).
    """
    if not isinstance(admission, str):
        raise InstanceError(f"admission is {admission!r}; expected a rule name")
    rule = make_admission(admission)
    policy, pname = _placement(placement, kappa, seed)
    return simulate(inst, rule, policy, record=record, name=f"{admission}+{pname}",
                    transfer_accounting=transfer_accounting)


def ada_srsf(
    inst: ContentionInstance,
    *,
    placement: Placement = "lwf",
    kappa: int = 1,
    seed: int | np.random.Generator | None = None,
    record: bool = False,
    transfer_accounting: str = "correct",
) -> ContentionSolution:
    """Ada-SRSF (Algorithm 3): SRSF ordering, LWF-kappa placement, AdaDUAL admission.

    ``transfer_accounting="authors"`` reproduces the published simulator's accounting error
    (:mod:`hetopt.contention.accounting`); "correct" is the default.

    Examples
    --------
    >>> from hetopt.contention import generate_workload, ada_srsf
    >>> sol = ada_srsf(generate_workload(seed=0, n_jobs=8, iterations=(20, 40), arrival_window=10.0))
    >>> sol.status.value, len(sol.jct)
    ('feasible', 8)
    """
    from ..inputs import check_instance

    check_instance(inst, ContentionInstance, "inst")
    policy, pname = _placement(placement, kappa, seed)
    return simulate(inst, adadual, policy, record=record, name=f"ada-srsf+{pname}",
                    transfer_accounting=transfer_accounting)


def srsf(
    inst: ContentionInstance,
    n: int = 1,
    *,
    placement: Placement = "lwf",
    kappa: int = 1,
    seed: int | np.random.Generator | None = None,
    record: bool = False,
    transfer_accounting: str = "correct",
) -> ContentionSolution:
    """SRSF(n): all-reduces start whenever each of their servers carries fewer than n.

    ``transfer_accounting`` as in :func:`ada_srsf` (SRSF(n) never reads a running task's
    remaining size, so "authors" changes nothing for it).
    """
    from ..inputs import check_instance

    check_instance(inst, ContentionInstance, "inst")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InstanceError(f"n is {n!r}; expected an integer >= 1")
    policy, pname = _placement(placement, kappa, seed)
    return simulate(inst, make_admission(f"srsf{int(n)}"), policy, record=record, name=f"srsf{int(n)}+{pname}",
                    transfer_accounting=transfer_accounting)
