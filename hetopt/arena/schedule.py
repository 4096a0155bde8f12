"""A round schedule of the arena: which job runs where in each round, and what it gives.

:class:`RoundSchedule` is what :func:`hetopt.arena.exact.solve_exact` returns and what
:func:`hetopt.arena.checker.check_schedule` reads.  Its rounds are recorded as the arena's engine
records them: ``{"start", "end", "gangs": [{"jobs", "type", "servers", "steps", "finish", "delay"}]}``,
a gang's ``jobs`` (one job), its GPU ``type`` (-1 when it spans types), the ``[server, GPUs]`` it
holds, the ``steps`` each job ran, when it finished and the seconds of restart ``delay``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..result import Solution

__all__ = ["RoundSchedule", "METRICS"]

#: What a schedule's ``objective`` measures: the weighted average JCT or the makespan (seconds).
METRICS = ("average_jct", "makespan")


@dataclass(frozen=True, kw_only=True, eq=False)
class RoundSchedule(Solution):
    """A schedule in rounds and its metrics; ``objective`` is ``metric`` in seconds.

    Attributes
    ----------
    metric : str
        ``"average_jct"`` (``sum_j w_j (C_j - a_j) / sum_j w_j`` with ``weights``) or ``"makespan"``.
    weights : numpy.ndarray, shape (J,)
        The weights of the average JCT.
    completion : numpy.ndarray, shape (J,)
        Completion time of each job (seconds from time 0).
    jct : numpy.ndarray, shape (J,)
        ``completion - arrival``.
    average_jct, makespan : float
        Seconds (the average weighted by ``weights``; the makespan is the last completion).
    options : dict
        The execution model's options the schedule obeys (``round_length``, ``restart_delay``,
        ``contention``, ``gang_rule``).
    rounds : list of dict
        Each round in which a gang runs (the module docstring).
    """

    metric: str = "average_jct"
    weights: np.ndarray = field(default_factory=lambda: np.zeros(0))
    completion: np.ndarray = field(default_factory=lambda: np.zeros(0))
    jct: np.ndarray = field(default_factory=lambda: np.zeros(0))
    average_jct: float = float("nan")
    makespan: float = float("nan")
    options: dict[str, Any] = field(default_factory=dict)
    rounds: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """The common fields, the metric, average JCT, makespan, rounds, completions and JCTs."""
        return super().summary() | {"metric": self.metric, "average_jct": self.average_jct,
                                    "makespan": self.makespan, "rounds": len(self.rounds),
                                    "completion": np.asarray(self.completion).tolist(),
                                    "jct": np.asarray(self.jct).tolist()}
