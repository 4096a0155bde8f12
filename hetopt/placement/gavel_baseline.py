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

:class:`GavelPolicy` is the entry ``"gavel"`` of :data:`~hetopt.placement.POLICIES`: a policy
that runs its own rounds (``run(inst) -> PlacementSimulation``) instead of placing the jobs at
each reset event.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..errors import ArgumentError, SolverError
from ..gavel import DEFAULT_RECOMPUTE_INTERVAL, GavelMechanism, fastest_first, max_min_fairness
from ..inputs import check_positive, check_size, takes_instance
from .evaluate import PlacementSimulation, simulation_result
from .instance import PlacementInstance

__all__ = ["GavelPolicy", "gavel_simulation", "worker_types", "DEFAULT_SCALE_FACTOR", "DEFAULT_ROUND_LENGTH"]

#: GPUs per job: the paper's best setting of Fig. 18.
DEFAULT_SCALE_FACTOR = 5
#: Seconds per round (Gavel's default, 6 minutes).
DEFAULT_ROUND_LENGTH = 360.0


@takes_instance(PlacementInstance)
def worker_types(inst: PlacementInstance) -> tuple[np.ndarray, list[np.ndarray]]:
    """(type of each worker, workers of each type): classes of identical throughput columns."""
    return inst.worker_groups(by_node=False)


def _jct_on(inst: PlacementInstance, i: int, workers: np.ndarray) -> float:
    n = len(workers)
    V = float(inst.throughput[i, workers].sum())
    spans = len(np.unique(inst.nodes[workers])) > 1
    comm = inst.comm_coefficient[i] * (n - 1) / n * float(inst.inverse_rate(spans))
    return float(inst.epochs[i] * (inst.dataset_size[i] / V + comm))


def _scale_factors(scale_factor: Any, n_jobs: int, cap: np.ndarray) -> np.ndarray:
    """GPUs per job, checked: integers >= 1 and at most the largest GPU type (ArgumentError otherwise)."""
    if scale_factor is None:
        return np.full(n_jobs, min(DEFAULT_SCALE_FACTOR, int(cap.max())), dtype=int)
    raw = np.asarray(scale_factor)
    if raw.dtype.kind not in "iu" or raw.ndim > 1 or (raw.ndim == 1 and raw.shape[0] != n_jobs):
        raise ArgumentError(f"scale_factor is {scale_factor!r}; expected an integer or {n_jobs} integers (GPUs per job)")
    sf = np.broadcast_to(raw, (n_jobs,)).astype(int)
    if (sf < 1).any():
        raise ArgumentError(f"scale_factor {sf.tolist()} must hold integers >= 1")
    if (sf > cap.max()).any():
        j = int(np.flatnonzero(sf > cap.max())[0])
        raise ArgumentError(f"scale_factor[{j}] = {sf[j]} exceeds the largest GPU type ({cap.max()} workers); "
                            "Gavel places one type per round")
    return sf


@takes_instance(PlacementInstance)
def gavel_simulation(inst: PlacementInstance, *, scale_factor: Any = None, round_length: float = DEFAULT_ROUND_LENGTH,
                     max_rounds: int = 1_000_000,
                     recompute_interval: float = DEFAULT_RECOMPUTE_INTERVAL) -> PlacementSimulation:
    """Run Gavel round by round until every job completes.

    Parameters
    ----------
    inst : PlacementInstance
    scale_factor : int, sequence of int or None
        GPUs per job (the paper's ``scale_factor_i``).  None: 5, the paper's best setting in
        Fig. 18, or the size of the largest GPU type when it has fewer than 5 workers.
    round_length : float
        Seconds per round (Gavel's default is 6 minutes).
    max_rounds : int
        Safety limit; reaching it raises :class:`~hetopt.errors.SolverError`.
    recompute_interval : float
        Minimum seconds between two recomputations of the allocation (Gavel: 1,920 s).

    Returns
    -------
    PlacementSimulation
        ``events`` holds one record per round (``time``, ``placed``, ``workers``);
        ``info["round_length"]`` the round length.
    """
    round_length = check_positive(round_length, "round_length")
    recompute_interval = check_positive(recompute_interval, "recompute_interval", allow_zero=True)
    max_rounds = check_size(max_rounds, "max_rounds")
    t_start = time.perf_counter()
    S = inst.n_jobs
    labels, members = worker_types(inst)
    cap = np.array([len(m) for m in members])
    sf = _scale_factors(scale_factor, S, cap)
    # samples/s of job i on sf_i GPUs of type r (equal split on identical GPUs); 0 where it cannot fit
    rep = [int(m[0]) for m in members]
    thr = np.where(sf[:, None] <= cap[None, :], sf[:, None] * inst.throughput[:, rep], 0.0)
    remaining = np.ones(S)
    done = np.full(S, np.nan)
    mech = GavelMechanism(len(members), round_length=round_length, recompute_interval=recompute_interval,
                          type_order=fastest_first(thr))
    mech.sync(range(S))
    events: list[dict[str, Any]] = []
    t = 0.0
    for _ in range(max_rounds):
        active = np.flatnonzero(np.isnan(done))
        if active.size == 0:
            break
        mech.sync(active.tolist())
        if mech.recompute_due(t):
            mech.reset(t, dict(zip(active.tolist(), max_min_fairness(thr[active], sf[active], cap), strict=True)))
        place = mech.schedule({int(i): thr[i] for i in active}, {int(i): int(sf[i]) for i in active}, cap)
        used = np.zeros(len(labels), dtype=bool)
        placed: list[tuple[int, int]] = []
        workers: list[list[int]] = []
        for i, r in sorted((int(cast(int, job)), int(kind)) for job, kind in place.items()):  # keys: the ints passed
            free = [int(k) for k in members[r] if not used[k]][: sf[i]]
            used[free] = True
            jct = _jct_on(inst, i, np.array(free))
            need = remaining[i] * jct
            if need <= round_length:
                remaining[i], done[i] = 0.0, t + need
                mech.record(i, r, need)
            else:
                remaining[i] -= round_length / jct
                mech.record(i, r, round_length)
            placed.append((i, r))
            workers.append(free)
        events.append({"time": t, "placed": placed, "workers": workers})
        t += round_length
    else:
        raise SolverError(f"Gavel did not finish within max_rounds={max_rounds}")
    return simulation_result(done, policy="gavel", reset_on_completion=True, events=events, round_length=round_length,
                             wall_time=time.perf_counter() - t_start,
                             message=f"Gavel rounds of {round_length:g} s, {len(events)} rounds")


@dataclass(frozen=True)
class GavelPolicy:
    """Gavel as a policy of :func:`~hetopt.placement.simulate`: it runs its own rounds.

    Attributes
    ----------
    scale_factor : int, sequence of int or None
        GPUs per job (None: 5, or the largest GPU type when smaller; see :func:`gavel_simulation`).
    round_length : float
        Seconds per round.
    recompute_interval : float
        Minimum seconds between two recomputations of the allocation.
    max_rounds : int
        Safety limit.
    """

    scale_factor: Any = None
    round_length: float = DEFAULT_ROUND_LENGTH
    recompute_interval: float = DEFAULT_RECOMPUTE_INTERVAL
    max_rounds: int = 1_000_000
    name: str = "gavel"

    def run(self, inst: PlacementInstance) -> PlacementSimulation:
        """The whole run on ``inst`` (:func:`gavel_simulation` with these settings)."""
        return gavel_simulation(inst, scale_factor=self.scale_factor, round_length=self.round_length,
                                max_rounds=self.max_rounds, recompute_interval=self.recompute_interval)
