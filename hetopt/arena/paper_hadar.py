"""Hadar and HadarE (Sultana et al.) as arena policies: hetopt.hadar's own policies, every round.

The workload becomes Hadar's instance once per run (:func:`~hetopt.arena.convert.to_hadar`:
machines are the servers, arrivals in slots of the round length, the effective-throughput
utility, prices (5)-(7) from every job); every round the adapter hands
:class:`~hetopt.hadar.HadarPolicy` (Algorithm 1: the DP allocation of Algorithm 2 over the queue
at fresh prices) or :class:`~hetopt.hadar.HadarEPolicy` (Section V: forked copies placed
round-robin by FIND_ALLOC, the last-round rule) Hadar's own round state (the jobs present, their
remaining iterations, last round's GPUs) and returns its gangs as GPUs per server.  HadarE's copies
run as several gangs of one job (:class:`~hetopt.arena.protocol.Copies`), their progress added up
by the engine as Hadar's simulator does.  Under the arena's default gang rule ``"single"`` a gang
keeps to one GPU type (FIND_ALLOC's ``single_type``); under ``"bottleneck"`` it may mix types at its
slowest type's rate, Hadar's (1b).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..inputs import check_choice
from .convert import to_hadar
from .protocol import Copies, Gangs, Options, RoundState
from .workload import Workload

__all__ = ["Hadar", "HadarE", "READINGS"]

#: Hadar's readings of what happens to a running job: ``"paper"`` (Algorithm 1: every round the DP
#: allocates the whole queue, running jobs included) or ``"keep"`` (Section IV-B: "without changing the
#: allocated resources of running jobs", only waiting jobs are allocated, on the GPUs left free).
READINGS = ("paper", "keep")

_DROPS = ("arrivals are rounded down to slots of the round length in the utility; a round lasts until its slowest "
          "gang ends (Gavel's rounds), not a fixed slot; under the default gang rule 'single' FIND_ALLOC's candidates "
          "keep to one GPU type (gang_rule='bottleneck' allows Hadar's mixed gangs)")


class _HadarAdapter:
    """A hetopt.hadar policy driven by the arena: Hadar's round state in, GPUs per server out."""

    mode: ClassVar[str] = "placement"
    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    source: ClassVar[str] = "hadar"
    keeps: ClassVar[str] = ""
    drops: ClassVar[str] = _DROPS

    reading: str = "paper"

    def __init__(self, **options: Any):
        self.options = options
        self._make(single_type=False)  # refuse bad options at once (ArgumentError naming the option)

    def _make(self, *, single_type: bool) -> Any:
        raise NotImplementedError

    def reset(self, workload: Workload, options: Options, *, seed: int) -> None:
        """Hadar's instance of ``workload`` (slots of the round length) and a fresh hetopt.hadar policy."""
        from ..hadar.protocol import RoundState as HadarState

        self.w, self.opt = workload, options
        self.inst = to_hadar(workload, slot_length=options.round_length)
        self.policy = self._make(single_type=options.gang_rule == "single")
        self.policy.reset(self.inst)
        J, H, R = workload.n_jobs, self.inst.n_machines, self.inst.n_types
        self.hstate = HadarState(inst=self.inst, index=0, now=0.0, round_length=options.round_length,
                                 restart_delay=options.restart_delay, remaining=np.zeros(J), active=np.zeros(J, bool),
                                 previous=np.zeros((J, H, R), np.int64), attained=np.zeros(J),
                                 rounds_received=np.zeros((J, R), np.int64))
        self.placed: list[int] = []

    def __call__(self, state: RoundState) -> Gangs:
        """Hadar's gangs of this round, as GPUs per server (several for HadarE's copies)."""
        hs = self.hstate
        hs.index, hs.now, hs.remaining, hs.attained = state.index, state.now, state.remaining, state.attained
        hs.active[:] = False
        hs.active[state.jobs] = True
        gangs = self._kept(hs, state) if self.reading == "keep" else (
            self.policy.allocate(hs) if state.jobs.size else [])
        hs.previous[self.placed] = 0
        out: dict[int, list[np.ndarray]] = {}
        stype = self.w.server_type
        for j, w in gangs:
            hs.previous[j] += w
            out.setdefault(int(j), []).append(w[np.arange(stype.size), stype].astype(np.int64))
        self.placed = list(out)
        return {j: c[0] if len(c) == 1 else Copies(c) for j, c in out.items()}

    def _kept(self, hs: Any, state: RoundState) -> list[tuple[int, np.ndarray]]:
        """Section IV-B's reading: running jobs keep last round's GPUs; the DP allocates the others on the rest."""
        from ..hadar.allocation import dp_allocation

        present = set(state.jobs.tolist())
        kept = [(j, hs.previous[j].copy()) for j in self.placed if j in present]
        running = {j for j, _ in kept}
        free = self.inst.capacity - sum((w for _, w in kept), np.zeros_like(self.inst.capacity))
        act = np.array([j for j in state.jobs.tolist() if j not in running], dtype=np.int64)
        if act.size == 0 or not free.any():
            return kept
        p = self.policy
        queue = act[np.lexsort((act, p.rank[act], self.inst.arrival[act]))]
        res = dp_allocation(self.inst, queue, hs.remaining, hs.now, free=free, params=p.params, beam_width=p.beam,
                            comm_weight=p.comm_weight, work_conserving=p.work_conserving, single_type=p.single_type)
        return kept + [(j, a.w) for j, a in res.allocations.items()]


class Hadar(_HadarAdapter):
    """Hadar's Algorithm 1 in the arena: every round, the DP allocation at fresh prices (hetopt.hadar.HadarPolicy).

    Parameters
    ----------
    **options
        :class:`~hetopt.hadar.HadarPolicy`'s (``beam_width``, ``comm_weight``, ``eta``, ``work_conserving``,
        ``queue_order``, ``seed``); ``single_type`` comes from the arena's gang rule.  ``reading``: ``"paper"``
        (default, Algorithm 1 over the whole queue every round) or ``"keep"`` (Section IV-B: running jobs keep
        their GPUs until they complete, the DP places waiting jobs on the free GPUs), :data:`READINGS`.
    """

    name = "hadar"
    description = "Hadar: every round, Algorithm 2's DP allocation over the queue at the prices of eq. (5)"
    keeps = ("hetopt.hadar's HadarPolicy itself every round: the queue in arrival order, FIND_ALLOC's consolidated and "
             "spread candidates priced by eq. (5) with U_max, U_min from every job, the payoff U_j(finish) - cost with "
             "the effective-throughput utility, the DP over (job, free GPUs) (exact up to 10,000 free-GPU states, "
             "greedy beyond), the work-conserving fill, the communication cost of a spread gang")
    drops = _DROPS

    def __init__(self, reading: str = "paper", **options: Any):
        self.reading = check_choice(reading, "reading", READINGS)
        super().__init__(**options)

    def _make(self, *, single_type: bool) -> Any:
        from ..hadar import HadarPolicy

        return HadarPolicy(**self.options, single_type=single_type)


class HadarE(_HadarAdapter):
    """HadarE in the arena: forked copies as several gangs of one job (hetopt.hadar.HadarEPolicy).

    Parameters
    ----------
    **options
        :class:`~hetopt.hadar.HadarEPolicy`'s (``n_copies``, ``consolidated_only``, ``comm_weight``, ``eta``,
        ``initial_throughput``); ``single_type`` comes from the arena's gang rule.
    """

    name = "hadare"
    copies: ClassVar[bool] = True
    description = "HadarE: every job forked into copies placed round-robin by FIND_ALLOC, their progress added up"
    keeps = ("hetopt.hadar's HadarEPolicy itself every round: n copies per job (n = servers), placed round-robin by "
             "FIND_ALLOC while GPUs are free, each on one server unless none holds the gang, the last-round rule "
             "(only the fastest copies needed to finish); the engine divides a job's remaining iterations among its "
             "copies in proportion to their rates and adds their progress (the Job Tracker)")
    drops = _DROPS + "; model consolidation between copies is not simulated (as in hetopt.hadar)"

    def _make(self, *, single_type: bool) -> Any:
        from ..hadar import HadarEPolicy

        return HadarEPolicy(**self.options, single_type=single_type)
