"""What an event loop of the round simulator is: its options, its record, the Mechanism protocol.

:mod:`hetopt.gavel.rounds` (Gavel's loop) and :mod:`hetopt.gavel.clean_rounds` (hetopt's idealised
one) implement :class:`Mechanism`; the ``allocator`` they call stays outside.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import numpy as np

from .instance import GavelInstance

__all__ = ["Mechanism", "RunOptions", "RunRecord", "Allocator", "DONE_RTOL"]
#: A job is complete when its remaining steps are at most this fraction of its total (clean mechanism).
DONE_RTOL = 1e-9
#: ``allocator(jobs, now, remaining, since_start, pairs) -> X``: the allocation (len(jobs) + len(pairs), R) of
#: the jobs present (instance indices, in Gavel's job-id order) and of the pairs of them that may share GPUs
#: (packing policies; empty otherwise), in the instance's GPU-type columns.
Allocator = Callable[[np.ndarray, float, np.ndarray, np.ndarray, list[tuple[int, int]]], np.ndarray]


@dataclass(frozen=True)
class RunOptions:
    """What the event loop needs besides the jobs and the allocator.

    Attributes
    ----------
    round_length, recompute_interval : float
        Seconds (Gavel: 360 and 1,920).
    type_order : list of int
        The order in which the per-type queues are visited (Gavel: v100, p100, k80).
    shuffle_types : bool
        Shuffle ``type_order`` every round (Gavel does for its heterogeneity-agnostic policies,
        with ``random.Random(seed + 5)``).
    skip_zero_priority : bool
        Leave entries of priority 0 out of the queues (Gavel's FIFO policies).
    seed : int
        Gavel's driver seed (the type shuffler is seeded with ``seed + 5``).
    max_rounds : int
        Stop with ``HetoptError`` after this many rounds.
    record_rounds : bool
        Keep each round's placement.
    pair_throughput : callable, optional
        ``pair_throughput(a, b) -> (R, 2)``: the steps/s of jobs ``a`` and ``b`` sharing a GPU of each
        type (None: not measured, never packed).  Given for the packing policies (Gavel's ``_packed``):
        every two jobs of the same scale factor then form a pair that the allocation and the queues may
        hold.
    """

    round_length: float
    recompute_interval: float
    type_order: list[int]
    shuffle_types: bool = False
    skip_zero_priority: bool = False
    seed: int = 0
    max_rounds: int = 1_000_000
    record_rounds: bool = True
    pair_throughput: Callable[[int, int], np.ndarray | None] | None = None


@dataclass
class RunRecord:
    """What an event loop returns: completions, resets and rounds (instance job indices)."""

    completion: np.ndarray
    reset_times: list[float] = field(default_factory=list)
    reset_reasons: list[str] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    allocations: list[tuple[float, dict[Any, np.ndarray]]] = field(default_factory=list)
    n_rounds: int = 0


class Mechanism(Protocol):
    """An event loop of the round simulator (``models/gavel.md``, *Mechanism*)."""

    name: ClassVar[str]

    def policy_columns(self, inst: GavelInstance) -> list[int]:
        """The instance's GPU-type columns in the order the policy receives them."""
        ...

    def run(self, inst: GavelInstance, allocator: Allocator, options: RunOptions) -> RunRecord:
        """Simulate until every job of ``inst`` completes."""
        ...


def _arrival_order(inst: GavelInstance) -> list[int]:
    return sorted(range(inst.n_jobs), key=lambda j: (float(inst.arrival[j]), j))
