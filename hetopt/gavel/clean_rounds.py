"""hetopt's idealised event loop (``mechanism="clean"``): the round simulator's semantics before issue 23.

Real-valued steps, rounds of exactly ``min(round, remaining / T)`` seconds, arrivals and
completions that wait for the recompute interval (no forced reset), jobs outside the allocation
left out of the queues, ``ALLOCATION_EPS`` for "not allocated"
(:class:`~hetopt.gavel.mechanism.GavelMechanism`).
"""

from __future__ import annotations

from typing import ClassVar, cast

import numpy as np

from ..errors import ArgumentError, HetoptError
from .instance import GavelInstance
from .mechanism import TIME_RTOL, GavelMechanism
from .round_loop import DONE_RTOL, Allocator, RunOptions, RunRecord, _arrival_order

__all__ = ["CleanRounds"]


class CleanRounds:
    """hetopt's idealised loop (:class:`~hetopt.gavel.mechanism.GavelMechanism`): the semantics before issue 23."""

    name: ClassVar[str] = "clean"

    def policy_columns(self, inst: GavelInstance) -> list[int]:
        """Every type, in the instance's column order."""
        return list(range(inst.n_types))

    def run(self, inst: GavelInstance, allocator: Allocator, options: RunOptions) -> RunRecord:
        """Rounds of ``min(round, remaining / T)`` seconds; resets at most every ``recompute_interval``."""
        if options.pair_throughput is not None:
            raise ArgumentError("the clean mechanism does not pack jobs; simulate a packing policy with "
                                "mechanism='gavel'")
        J = inst.n_jobs
        T = inst.effective_throughput()
        s = inst.scale_factor
        cap = inst.capacity
        mech = GavelMechanism(inst.n_types, round_length=options.round_length,
                              recompute_interval=options.recompute_interval, type_order=options.type_order,
                              work_conserving=not options.skip_zero_priority)
        remaining = inst.total_steps.astype(float).copy()
        completion = np.full(J, np.nan)
        order = _arrival_order(inst)
        out = RunRecord(completion)
        nxt, t = 0, 0.0
        for _ in range(options.max_rounds):
            slack = TIME_RTOL * max(options.round_length, t)  # relative: an absolute 1e-9 s was a round of 1e-9 s
            while nxt < J and inst.arrival[order[nxt]] <= t + slack:
                mech.add_job(order[nxt])
                nxt += 1
            if not mech.jobs and nxt == J:
                break
            if mech.jobs and mech.recompute_due(t):
                act = np.array(sorted(cast(list[int], mech.jobs)))
                X = allocator(act, t, remaining[act], t - inst.arrival[act], [])
                alloc = dict(zip(act.tolist(), np.asarray(X, dtype=float), strict=True))
                mech.reset(t, alloc)
                if options.record_rounds:
                    out.allocations.append((t, alloc))
            jobs = cast(list[int], mech.jobs)
            place = cast(dict[int, int], mech.schedule({j: T[j] for j in jobs}, {j: int(s[j]) for j in jobs}, cap))
            if not place:
                later = [inst.arrival[order[nxt]]] if nxt < J else []
                if mech.jobs and mech.stale and mech.last_reset is not None:
                    later.append(mech.last_reset + options.recompute_interval)
                later = [x for x in later if x > t + slack]
                if not later:
                    raise HetoptError(f"clean mechanism: jobs {sorted(jobs)[:5]} can never run at time {t:.1f} s")
                t = float(min(later))
                continue
            end = t
            seconds = {}
            for j, r in place.items():
                dt = min(options.round_length, remaining[j] / T[j, r])
                remaining[j] -= dt * T[j, r]
                mech.record(j, r, dt)
                seconds[j] = dt
                if remaining[j] <= DONE_RTOL * inst.total_steps[j]:
                    remaining[j] = 0.0
                    completion[j] = t + dt
                end = max(end, t + dt)
            for j in place:
                if remaining[j] == 0.0:
                    mech.remove_job(j)
            out.n_rounds += 1
            if options.record_rounds:
                out.rounds.append({"start": t, "end": end, "placement": dict(sorted(place.items())),
                                   "seconds": dict(sorted(seconds.items()))})
            t = end
        else:
            raise HetoptError(f"clean mechanism: jobs left unfinished after {options.max_rounds} rounds")
        out.reset_times = list(mech.reset_times)
        out.reset_reasons = ["interval"] * len(out.reset_times)
        return out
