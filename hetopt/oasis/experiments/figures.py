"""Data of the paper's simulation figures, for every scheme of :data:`hetopt.oasis.POLICIES`.

Fig. 3 (total utility vs number of jobs) and Fig. 4 (completion timeliness of time-sensitive
and time-critical jobs).

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Section V-A, Figs. 3-4.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...errors import ArgumentError
from ...inputs import check_seed, check_size
from ..generator import generate_instance
from ..policies import POLICIES
from ..simulator import simulate
from .paper import FIG3_SERVERS, FIG3_SLOTS, FIG4_JOBS_PER_CLASS, FIG4_SLOTS

__all__ = ["fig3_data", "fig4_data"]


def _schemes(schemes: Sequence[str] | None) -> list[str]:
    names = list(POLICIES) if schemes is None else list(schemes)
    unknown = [s for s in names if s not in POLICIES]
    if unknown:
        raise ArgumentError(f"schemes names {unknown}; expected names of POLICIES: {', '.join(POLICIES)}")
    return names


def fig3_data(n_jobs: Sequence[int], horizon: int = FIG3_SLOTS, servers: int = FIG3_SERVERS, *, seed: int = 0,
              schemes: Sequence[str] | None = None) -> dict[str, list[float]]:
    """Total utility of every scheme for each number of jobs (Fig. 3: T = 300, H = K = 50).

    Instance ``j`` uses seed ``seed + j``; all schemes see the same instance.

    Parameters
    ----------
    n_jobs : sequence of int
        Numbers of jobs (the x axis).
    horizon, servers : int
        T and H = K.
    seed : int
        Seed of the first instance.
    schemes : sequence of str, optional
        Names of :data:`~hetopt.oasis.POLICIES` (default: all, in the paper's order).

    Returns
    -------
    dict str -> list of float
        Total utility per scheme, one value per entry of ``n_jobs``.
    """
    names = _schemes(schemes)
    first = check_seed(seed)
    if not isinstance(first, int):
        raise ArgumentError(f"seed is {seed!r}; expected an integer")
    out: dict[str, list[float]] = {s: [] for s in names}
    for j, n in enumerate(n_jobs):
        inst = generate_instance(n_jobs=check_size(int(n), "n_jobs"), horizon=horizon, n_worker_servers=servers,
                                 n_ps_servers=servers, seed=first + j)
        for s in names:
            out[s].append(simulate(inst, s).total_utility)
    return out


def fig4_data(n_per_class: int = FIG4_JOBS_PER_CLASS, horizon: int = FIG4_SLOTS, servers: int = FIG3_SERVERS, *,
              seed: int = 0, schemes: Sequence[str] | None = None, options: Mapping[str, Mapping[str, Any]] | None = None,
              epochs_range: tuple[int, int] = (50, 200), chunks_range: tuple[int, int] = (5, 100),
              minibatches_range: tuple[int, int] = (10, 100)) -> dict[str, dict[str, np.ndarray]]:
    """Completion offset minus target gamma3 of completed jobs, per scheme and class (Fig. 4).

    ``n_per_class`` time-sensitive and as many time-critical jobs in ``horizon`` slots
    (the paper: 100 + 100 jobs, T = 100).  Classes are told apart by the decay gamma2
    (time-critical: gamma2 >= 4).

    Parameters
    ----------
    n_per_class : int
        Jobs of each class.
    horizon, servers : int
        T and H = K.
    seed : int
    schemes : sequence of str, optional
        Names of :data:`~hetopt.oasis.POLICIES` (default: all).  A name ``"oasis@<cap>"`` runs
        OASiS with ln(U/L) capped at ``<cap>``.
    options : mapping, optional
        Options per scheme name, passed to :func:`~hetopt.oasis.simulate`.
    epochs_range, chunks_range, minibatches_range : (int, int)
        Ranges of E_i, N_i, M_i (Section V-A's by default), passed to the generator explicitly.

    Returns
    -------
    dict str -> dict str -> numpy.ndarray
        Per scheme, the timeliness of its completed ``"sensitive"`` and ``"critical"`` jobs.
    """
    capped = {s: float(s.split("@", 1)[1]) for s in (schemes or ()) if s.startswith("oasis@")}
    names = _schemes([s for s in schemes if s not in capped] if schemes is not None else None) + list(capped)
    inst = generate_instance(n_jobs=2 * check_size(n_per_class, "n_per_class"), horizon=horizon,
                             n_worker_servers=servers, n_ps_servers=servers, seed=seed,
                             class_mix=(0.0, 0.5, 0.5), epochs_range=epochs_range, chunks_range=chunks_range,
                             minibatches_range=minibatches_range)
    critical = np.array([getattr(u, "gamma2", 0.0) >= 4 for u in inst.utility])
    out = {}
    for s in names:
        opts = dict((options or {}).get(s, {}))
        if s in capped:
            opts["log_ratio_cap"] = capped[s]
        sol = simulate(inst, "oasis" if s in capped else s, options=opts or None)
        jobs = np.array(sorted(sol.timeliness), dtype=int)
        vals = np.array([sol.timeliness[i] for i in jobs], dtype=float)
        out[s] = {"sensitive": vals[~critical[jobs]] if jobs.size else vals,
                  "critical": vals[critical[jobs]] if jobs.size else vals}
    return out
