"""OASiS (Bao et al.) as an arena policy: admission at arrival by the price functions, the DP oracle's plan.

The workload becomes OASiS's instance once per run (:func:`~hetopt.arena.convert.to_oasis`: slots of
``slot_length`` seconds, the GPU types as worker servers, a job's worker its gang, one worker per
slot, a sigmoid utility of the completion offset); the price bounds (23)-(26) come from every job.
On the arrival of a job (Alg. 1, in order of arrival), the prices (22) of the resources reserved so
far are computed and the oracle (Alg. 2, :func:`hetopt.oasis.oracle.best_schedule`) finds the job's
schedule of largest payoff on each GPU type that can run it (its work counted at that type's
speed; OASiS's servers are all alike, so one type at a time), and the job is admitted with the best
of them iff its payoff is positive; its schedule is reserved.  Every round, the admitted jobs whose
plan has a worker in the round's slot run on their type; the GPUs left go to the other jobs present
(rejected ones, or ahead of or after their plan), in arrival order, each on its fastest type with
room (not OASiS's: the arena runs every job to completion).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..errors import SizeLimitError
from ..inputs import check_positive, check_size
from .convert import oasis_slots, to_oasis
from .protocol import Gangs, Options, RoundState
from .workload import Workload

__all__ = ["OASiS", "MAX_ORACLE_CELLS"]

#: Default ``max_size``: the oracle's DP cells over the run, sum over jobs and types of (T - a_i + 1) x (E_ir + 1).
#: The oracle computes a slot's options once per distinct (prices, usage) of the slot, so a cell costs far less
#: where slots repeat: Gavel's msr trace of 951 jobs in hour slots, 4.3e8 cells at 2 jobs/hour and 5.25e8 at 1,
#: takes 5.6 and 6.4 s of CPU (4.3e8 took about 4 minutes when every slot was computed, the worst case still).
MAX_ORACLE_CELLS = 1_000_000_000


class OASiS:
    """OASiS's Alg. 1 in the arena (the module docstring).

    Parameters
    ----------
    slot_length : float
        Seconds per slot of OASiS's plan (default 3,600: the hour slots of OASiS's evaluation).
    target, decay : float
        The utility: ``gamma_3 = target x`` the job's slots at its fastest type, ``gamma_2 = decay / gamma_3``.
    log_ratio_cap : float, optional
        Cap of ln(U/L) in the price functions (:func:`hetopt.oasis.prices.cap_bounds`); None: the literal (25)-(26).
    max_size : int
        Refuse (SizeLimitError) a run whose oracle DP cells (:data:`MAX_ORACLE_CELLS`) pass this number.
    """

    mode: ClassVar[str] = "placement"
    name: ClassVar[str] = "oasis"
    description: ClassVar[str] = ("OASiS: each job admitted at arrival iff the DP oracle's best schedule pays more "
                                  "than the resources' prices (22), then run as planned")
    source: ClassVar[str] = "oasis"
    keeps: ClassVar[str] = ("hetopt.oasis's Alg. 1 on arrivals: the price functions (22) with the bounds (23)-(26) "
                            "of every job, the oracle of Alg. 2 (best_schedule: DP over end slots, the cheapest "
                            "slots) for the job's schedule of largest payoff, admission iff the payoff is positive, "
                            "the schedule reserved and its resources priced for later arrivals")
    drops: ClassVar[str] = ("parameter servers (one PS machine that never binds), data chunks and elastic workers (a "
                            "job runs one gang per slot, N_i = 1), the utility functions (a sigmoid of the completion "
                            "offset, halved at twice the job's shortest time); OASiS's servers are alike, so the oracle "
                            "runs on one GPU type at a time with the job's work at that type's speed and the best "
                            "payoff is kept; plans in hour slots run on the arena's rounds; rejected jobs and jobs "
                            "off their plan run on GPUs left idle (OASiS never runs a rejected job)")

    def __init__(self, slot_length: float = 3600.0, target: float = 2.0, decay: float = 4.0,
                 log_ratio_cap: float | None = None, max_size: int = MAX_ORACLE_CELLS):
        self.slot_length = check_positive(slot_length, "slot_length")
        self.target = check_positive(target, "target")
        self.decay = check_positive(decay, "decay")
        self.log_ratio_cap = None if log_ratio_cap is None else check_positive(log_ratio_cap, "log_ratio_cap")
        self.max_size = check_size(max_size, "max_size")

    def reset(self, workload: Workload, options: Options, *, seed: int) -> None:
        """OASiS's instance at each type's speed, the price bounds, nothing reserved."""
        from ..oasis.prices import Usage, price_bounds

        w, L = workload, self.slot_length
        self.w = w
        self.slots = oasis_slots(w, L)
        self.ref = to_oasis(w, slot_length=L, target=self.target, decay=self.decay)
        T = self.ref.horizon
        self.types = [r for r in range(w.n_types) if w.capacity[r] > 0]
        self.by_type = {r: to_oasis(w, slot_length=L, epochs=np.maximum(self.slots[:, r], 1), horizon=T,
                                    target=self.target, decay=self.decay) for r in self.types}
        cells = float(np.sum((T - self.ref.arrival + 1)[:, None] * (self.slots + 1) * (self.slots > 0)))
        if cells > self.max_size:
            raise SizeLimitError(f"arena policy 'oasis': its oracle would fill {cells:.3g} DP cells over the run "
                                 f"({w.n_jobs} jobs, a horizon of {T} slots of {L:g} s), more than max_size = "
                                 f"{self.max_size:.3g}; lengthen slot_length or raise max_size")
        self.bounds = price_bounds(self.ref, self.log_ratio_cap)
        self.used = Usage.empty(self.ref)
        self.plan: dict[int, tuple[int, set[int]]] = {}
        self.payoffs: dict[int, float] = {}
        self.admitted: list[int] = []

    def decide(self, i: int) -> None:
        """Alg. 1, lines 3-13, for job ``i``: the oracle on every type, admission iff the best payoff is > 0."""
        from ..oasis.oracle import best_schedule
        from ..oasis.prices import Usage, prices_from_usage

        w = self.w
        prices = prices_from_usage(self.ref, self.bounds, self.used)
        best: tuple[int, Any] | None = None
        for r in self.types:
            if w.throughput[i, r] <= 0 or w.capacity[r] < w.scale_factor[i]:
                continue
            g = self.used.g.copy()
            others = [h for h in range(w.n_types) if h != r]
            g[:, others, :] = self.ref.worker_capacity[others]  # only type r: the others look full
            res = best_schedule(self.by_type[r], i, prices, Usage(g, self.used.v))
            if res.schedule is not None and (best is None or res.payoff > best[1].payoff):
                best = (r, res)
        self.payoffs[i] = float(best[1].payoff) if best is not None else float("-inf")
        if best is not None and best[1].payoff > 0:
            r, res = best
            self.used.add(self.by_type[r], i, res.schedule.workers, res.schedule.ps)
            self.plan[i] = (r, set((np.flatnonzero(res.schedule.workers[r] > 0) + 1).tolist()))
            self.admitted.append(i)

    def __call__(self, state: RoundState) -> Gangs:
        """Decide the new arrivals, run the plans of the round's slot, and give the idle GPUs to the others."""
        w = self.w
        for j in state.jobs.tolist():
            if j not in self.payoffs:
                self.decide(j)
        slot = int(state.now // self.slot_length) + 1
        free = w.capacity.astype(np.int64).copy()
        out: Gangs = {}
        for j in state.jobs.tolist():
            plan = self.plan.get(j)
            if plan is not None and slot in plan[1] and free[plan[0]] >= w.scale_factor[j]:
                out[j] = plan[0]
                free[plan[0]] -= w.scale_factor[j]
        for j in state.jobs.tolist():
            if j in out:
                continue
            ok = np.flatnonzero((w.throughput[j] > 0) & (free >= w.scale_factor[j]))
            if ok.size:
                r = int(ok[np.argmax(w.throughput[j, ok])])
                out[j] = r
                free[r] -= w.scale_factor[j]
        return out
