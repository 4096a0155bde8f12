"""Data of the paper's simulation figures: Fig. 3 (total utility vs number of jobs) and
Fig. 4 (completion timeliness of time-sensitive and time-critical jobs), for every scheme.

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Section V-A, Figs. 3-4.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from .baselines import dorm, drf, fifo, rrh
from .generator import generate_instance
from .instance import OasisInstance
from .online import online
from .schedule import OasisSolution

__all__ = ["SCHEMES", "fig3_data", "fig4_data"]

#: The schemes of Figs. 3-4 in the paper's order.
SCHEMES: Mapping[str, Callable[[OasisInstance], OasisSolution]] = {"oasis": online, "fifo": fifo, "drf": drf, "rrh": rrh,
                                                                   "dorm": dorm}


def fig3_data(n_jobs: Sequence[int], horizon: int = 300, servers: int = 50, *, seed: int = 0,
              schemes: Sequence[str] | None = None) -> dict[str, list[float]]:
    """Total utility of every scheme for each number of jobs (Fig. 3: T = 300, H = K = 50).

    Instance ``j`` uses seed ``seed + j``; all schemes see the same instance.
    """
    names = list(SCHEMES) if schemes is None else list(schemes)
    out: dict[str, list[float]] = {s: [] for s in names}
    for j, n in enumerate(n_jobs):
        inst = generate_instance(int(n), horizon, servers, servers, seed=seed + j)
        for s in names:
            out[s].append(SCHEMES[s](inst).total_utility)
    return out


def fig4_data(n_per_class: int = 100, horizon: int = 100, servers: int = 50, *, seed: int = 0,
              schemes: Sequence[str] | None = None) -> dict[str, dict[str, np.ndarray]]:
    """Completion offset minus target gamma3 of completed jobs, per scheme and class (Fig. 4).

    ``n_per_class`` time-sensitive and as many time-critical jobs in ``horizon`` slots
    (the paper: 100 + 100 jobs, T = 100).  Classes are told apart by the decay gamma2
    (time-critical: gamma2 >= 4).
    """
    names = list(SCHEMES) if schemes is None else list(schemes)
    inst = generate_instance(2 * n_per_class, horizon, servers, servers, seed=seed, class_mix=(0.0, 0.5, 0.5))
    critical = np.array([u.gamma2 >= 4 for u in inst.utility])
    out = {}
    for s in names:
        sol = SCHEMES[s](inst)
        jobs = np.array(sorted(sol.timeliness), dtype=int)
        vals = np.array([sol.timeliness[i] for i in jobs], dtype=float)
        out[s] = {"sensitive": vals[~critical[jobs]] if jobs.size else vals,
                  "critical": vals[critical[jobs]] if jobs.size else vals}
    return out
