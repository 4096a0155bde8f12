"""One policy in the arena as a :class:`~hetopt.result.Solution`: ``hetopt.solve(workload, "hadar")`` runs this.

:func:`simulate` executes a registered policy (:mod:`hetopt.arena.engine`) and returns an
:class:`ArenaSimulation` with the run's metrics and, when recorded, every round's gangs (which
:func:`hetopt.arena.check_schedule` checks independently).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Self

from ..certify import Status
from ..errors import ArgumentError, a_type
from ..gavel.mechanism import DEFAULT_RECOMPUTE_INTERVAL, DEFAULT_ROUND_LENGTH
from ..gavel.simulator import json_number, same_fields
from ..inputs import MAX_SEED, check_size, takes_instance
from ..result import SimulationResult, job_times
from .engine import execute
from .metrics import METRIC_COLUMNS, metrics_of
from .policies import make_policy
from .protocol import Options
from .workload import Workload

__all__ = ["ArenaSimulation", "simulate"]


@dataclass(frozen=True, kw_only=True, eq=False)
class ArenaSimulation(SimulationResult):
    """Result of :func:`simulate`; ``objective`` is the average JCT (s).

    Attributes
    ----------
    policy, completion, jct, average_jct, makespan
        As every :class:`~hetopt.result.SimulationResult` (seconds).
    metrics : dict
        :data:`~hetopt.arena.metrics.METRIC_COLUMNS` of the run.
    options : dict
        The execution model's options.
    rounds : list of dict
        ``{"start", "end", "gangs": [{"jobs", "type", "servers", "steps", "finish", "delay"}]}``.
    """

    metrics: dict[str, float] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    rounds: list[dict[str, Any]] = field(default_factory=list)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return same_fields(self, other)

    def summary(self) -> dict[str, Any]:
        """The common fields, the policy, the metrics and the JCTs."""
        return super().summary() | {"policy": self.policy, **{k: json_number(v) for k, v in self.metrics.items()},
                                    "rounds": len(self.rounds), "jct": [json_number(v) for v in self.jct]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The simulation whose :meth:`to_dict` is ``data``."""
        return super().from_dict(dict(data))


@takes_instance(Workload)
def simulate(inst: Workload, policy: Any, *, seed: int = 0, round_length: float = DEFAULT_ROUND_LENGTH,
             recompute_interval: float = DEFAULT_RECOMPUTE_INTERVAL, restart_delay: float = 0.0,
             contention: bool = False, gang_rule: str = "single", max_rounds: int = 1_000_000,
             record_rounds: bool = True, options: Mapping[str, Any] | None = None) -> ArenaSimulation:
    """Run one policy on ``inst`` in the arena's execution model until every job completes.

    Parameters
    ----------
    inst : Workload
    policy : str or Policy
        A name of :data:`hetopt.arena.POLICIES` or a policy object.
    seed : int
        The run's seed (type shuffling, random policies).
    round_length, recompute_interval, restart_delay, contention, gang_rule, max_rounds, record_rounds
        :class:`~hetopt.arena.protocol.Options`.
    options : mapping, optional
        Options of the policy's factory.

    Examples
    --------
    >>> from hetopt.arena import gavel_trace
    >>> sim = simulate(gavel_trace("physical_cluster/small_test", "4:4:4"), "fifo")
    >>> round(sim.objective, 3)
    324.154
    """
    seed = check_size(seed, "seed", minimum=0, maximum=MAX_SEED - 5)
    opt = Options(round_length=round_length, recompute_interval=recompute_interval, restart_delay=restart_delay,
                  contention=contention, gang_rule=gang_rule, max_rounds=max_rounds, record_rounds=record_rounds)
    if options is not None and not isinstance(options, Mapping):
        raise ArgumentError(f"options is {a_type(options)}; expected a mapping of the policy's options or None")
    if any(not isinstance(k, str) for k in options or {}):
        raise ArgumentError(f"options has a key that is not a string: {sorted(map(repr, options or {}))}")
    pol = make_policy(policy, **dict(options or {}))
    t0 = time.perf_counter()
    run = execute(inst, pol, opt, seed=seed)
    m = metrics_of(inst, run)
    rounds = [asdict(r) for r in run.rounds]
    return ArenaSimulation(status=Status.FEASIBLE, objective=m.avg_jct, wall_time=time.perf_counter() - t0,
                           solver=f"arena:{pol.name}", policy=pol.name, **job_times(run.completion, inst.arrival),
                           metrics={c: float(getattr(m, c)) for c in METRIC_COLUMNS},
                           options={k: getattr(opt, k) for k in ("round_length", "recompute_interval", "restart_delay",
                                                                 "contention", "gang_rule")},
                           rounds=rounds, info={"n_rounds": run.n_rounds, "resets": run.n_resets,
                                                "restarts": run.restarts, "seed": seed})
