"""A round schedule of the arena: which job runs where in each round, and what it gives.

:class:`RoundSchedule` is what :func:`hetopt.arena.exact.solve_exact` returns and what
:func:`hetopt.arena.checker.check_schedule` reads: per round its start and end, the GPU type of
each running job (``placement``; a mapping ``{type: GPUs}`` when a gang spans types), the seconds
it ran, and the GPUs it held on each server (``servers``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Self

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
    round_length : float
        Seconds.
    rounds : list of dict
        ``{"start", "end", "placement": {job: type}, "seconds": {job: s}, "servers": {job: [[server, gpus], ...]}}``
        for each round in which a job runs.
    """

    metric: str = "average_jct"
    weights: np.ndarray = field(default_factory=lambda: np.zeros(0))
    completion: np.ndarray = field(default_factory=lambda: np.zeros(0))
    jct: np.ndarray = field(default_factory=lambda: np.zeros(0))
    average_jct: float = float("nan")
    makespan: float = float("nan")
    round_length: float = float("nan")
    rounds: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The schedule whose :meth:`to_dict` is ``data`` (job and type keys as integers again)."""
        d = dict(data)
        if isinstance(d.get("rounds"), list):
            d["rounds"] = [_round_from_json(rd) for rd in d["rounds"]]
        return super().from_dict(d)

    def summary(self) -> dict[str, Any]:
        """The common fields, the metric, average JCT, makespan, rounds, completions and JCTs."""
        return super().summary() | {"metric": self.metric, "average_jct": self.average_jct,
                                    "makespan": self.makespan, "rounds": len(self.rounds),
                                    "completion": np.asarray(self.completion).tolist(),
                                    "jct": np.asarray(self.jct).tolist()}


def _key(v: Any) -> Any:
    return int(v) if isinstance(v, str) and v.lstrip("-").isdigit() else v


def _round_from_json(rd: Any) -> Any:
    if not isinstance(rd, Mapping):
        return rd
    out = dict(rd)
    if isinstance(rd.get("placement"), Mapping):
        out["placement"] = {_key(j): ({_key(r): n for r, n in v.items()} if isinstance(v, Mapping) else v)
                            for j, v in rd["placement"].items()}
    for name in ("seconds", "servers"):
        if isinstance(rd.get(name), Mapping):
            out[name] = {_key(j): v for j, v in rd[name].items()}
    return out
