"""The plug-in protocol of the round-based simulator: what a policy sees and what it must do.

:class:`RoundState` is what every policy receives at the start of a round; :class:`Policy` is
the protocol a policy object satisfies (``name``, ``reset``, ``allocate``).  Both live here,
apart from the simulator that drives them (:mod:`hetopt.hadar.simulator`) and the built-in
policies (:mod:`hetopt.hadar.policies`), so that imports run one way:
``simulator -> policies -> protocol``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .instance import HadarInstance

__all__ = ["RoundState", "Policy", "Gangs"]

#: What ``Policy.allocate`` returns: gangs ``(job, w)`` with ``w`` an H x R integer matrix of GPUs.
Gangs = list[tuple[int, np.ndarray]]


@dataclass
class RoundState:
    """What a policy sees at the start of a round (read-only by convention).

    The simulator updates the same object in place every round: copy any array you keep
    across rounds.

    Attributes
    ----------
    inst : HadarInstance
    index : int
        Round number, from 0.
    now : float
        Start of the round (s).
    round_length, restart_delay : float
        Seconds.
    remaining : numpy.ndarray, shape (J,)
        Iterations left per job.
    active : numpy.ndarray of bool, shape (J,)
        Arrived and unfinished.
    previous : numpy.ndarray of int, shape (J, H, R)
        The job's GPUs in the previous round (summed over its gangs).
    attained : numpy.ndarray, shape (J,)
        GPU-seconds of computation received so far (restart delays excluded).
    rounds_received : numpy.ndarray of int, shape (J, R)
        Rounds run on each type (a gang counts once per type used).
    """

    inst: HadarInstance
    index: int
    now: float
    round_length: float
    restart_delay: float
    remaining: np.ndarray
    active: np.ndarray
    previous: np.ndarray
    attained: np.ndarray
    rounds_received: np.ndarray


class Policy(Protocol):
    """A scheduling policy: ``reset`` once per simulation, ``allocate`` once per round."""

    name: str

    def reset(self, inst: HadarInstance) -> None:
        """Prepare for a simulation of ``inst`` (called once, before the first round)."""
        ...

    def allocate(self, state: RoundState) -> Gangs:
        """The gangs ``(job, w)`` to run in this round (``w``: H x R GPUs, exactly ``W_j`` of them)."""
        ...
