"""Gavel as a dynamic baseline for placement (Liu et al. 2024, Section VI-B2, Figs. 17-18).

Gavel (Narayanan et al., OSDI 2020) gives each job a fixed number of GPUs, ``scale_factor_i``,
of a single type per round, computes time fractions per GPU type with its heterogeneity-aware
max-min fairness LP (:func:`hetopt.gavel.max_min_fairness`), and places each round with the
mechanism of Gavel's ``scheduler.py`` (:class:`hetopt.gavel.GavelMechanism`: per-type priority
queues, fastest type first, priority = allocation / share of the type's time received since
the last recomputation, deficits as tie-breaker, work-conserving fill; the allocation is
recomputed after a completion, at most every ``recompute_interval`` seconds).  Within a round the data are split equally over the job's
GPUs, which are identical, so the split is also proportional.

GPU types are the classes of workers with identical throughput columns.  A job placed on
``scale_factor`` workers of a type takes the lowest-index free workers of that type (so it
stays on as few nodes as possible); its progress rate is 1 / Lambda_i of that worker set
(eqs. (6)-(7), communication included).  A job that finishes inside a round frees its GPUs at
the end of the round, as in Gavel.
"""

from __future__ import annotations

import numpy as np

from ..errors import InstanceError
from ..gavel import DEFAULT_RECOMPUTE_INTERVAL, GavelMechanism, fastest_first, max_min_fairness
from .instance import PlacementInstance

__all__ = ["gavel_simulation", "worker_types"]


def worker_types(inst: PlacementInstance) -> tuple[np.ndarray, list[np.ndarray]]:
    """(type of each worker, workers of each type): classes of identical throughput columns."""
    return inst.worker_groups(by_node=False)


def _jct_on(inst: PlacementInstance, i: int, workers: np.ndarray) -> float:
    n = len(workers)
    V = float(inst.throughput[i, workers].sum())
    spans = len(np.unique(inst.nodes[workers])) > 1
    comm = inst.comm_coefficient[i] * (n - 1) / n * float(inst.inverse_rate(spans))
    return float(inst.epochs[i] * (inst.dataset_size[i] / V + comm))


def gavel_simulation(inst: PlacementInstance, scale_factor=5, round_length: float = 360.0, max_rounds: int = 1_000_000,
                     recompute_interval: float = DEFAULT_RECOMPUTE_INTERVAL):
    """Run Gavel round by round until every job completes.

    Parameters
    ----------
    inst : PlacementInstance
    scale_factor : int or sequence of int
        GPUs per job (the paper's ``scale_factor_i``; default 5, its best setting in Fig. 18).
    round_length : float
        Seconds per round (Gavel's default is 6 minutes).
    max_rounds : int
        Safety limit.
    recompute_interval : float
        Minimum seconds between two recomputations of the allocation (Gavel: 1,920 s).

    Returns
    -------
    SimulationResult
    """
    from .simulator import SimulationResult

    S = inst.n_jobs
    sf = np.broadcast_to(np.asarray(scale_factor), (S,)).astype(int)
    labels, members = worker_types(inst)
    cap = np.array([len(m) for m in members])
    if (sf < 1).any():
        raise InstanceError(f"scale_factor {sf.tolist()} must hold integers >= 1")
    if (sf > cap.max()).any():
        j = int(np.flatnonzero(sf > cap.max())[0])
        raise InstanceError(f"scale_factor[{j}] = {sf[j]} exceeds the largest GPU type ({cap.max()} workers); Gavel places one type per round")
    if not round_length > 0:
        raise InstanceError(f"round_length is {round_length!r}; expected a positive number of seconds")
    rep = [int(m[0]) for m in members]
    # samples/s of job i on sf_i GPUs of type r (equal split on identical GPUs); 0 where it cannot fit
    thr = np.where(sf[:, None] <= cap[None, :], sf[:, None] * inst.throughput[:, rep], 0.0)
    remaining = np.ones(S)
    done = np.full(S, np.nan)
    mech = GavelMechanism(len(members), round_length=round_length, recompute_interval=recompute_interval,
                          type_order=fastest_first(thr))
    mech.sync(range(S))
    events = []
    t = 0.0
    for _ in range(max_rounds):
        active = np.flatnonzero(np.isnan(done))
        if active.size == 0:
            break
        mech.sync(active.tolist())
        if mech.recompute_due(t):
            mech.reset(t, dict(zip(active.tolist(), max_min_fairness(thr[active], sf[active], cap))))
        place = mech.schedule({int(i): thr[i] for i in active}, {int(i): int(sf[i]) for i in active}, cap)
        used = np.zeros(len(labels), dtype=bool)
        placed = []
        for i, r in sorted(place.items()):
            free = [k for k in members[r] if not used[k]][: sf[i]]
            used[free] = True
            jct = _jct_on(inst, i, np.array(free))
            need = remaining[i] * jct
            if need <= round_length:
                remaining[i], done[i] = 0.0, t + need
                mech.record(i, r, need)
            else:
                remaining[i] -= round_length / jct
                mech.record(i, r, round_length)
            placed.append((int(i), r))
        events.append({"time": t, "placed": placed})
        t += round_length
    else:
        raise InstanceError(f"Gavel did not finish within max_rounds={max_rounds}")
    return SimulationResult(completion=done, average_jct=float(done.mean()), makespan=float(np.nanmax(done)),
                            reset_on_completion=True, events=events)
