"""The one policy interface of the arena, and the options of its execution model.

Every scheduler runs in the same execution model, Gavel's round mechanism
(:mod:`hetopt.arena.engine`), as a :class:`Policy`.  A policy has a ``mode``:

``reset(workload, options, *, seed)`` is called once per run.

* ``"allocation"`` -- Gavel's way: at each of the mechanism's resets (an arrival or a completion,
  at most every ``recompute_interval`` seconds) the policy returns the time fractions ``X`` of the
  jobs present (rows: ``state.jobs``, then ``state.pairs`` for the packing policies; columns: the
  workload's GPU types); the mechanism's priorities, deficits and per-type queues turn them into
  rounds.
* ``"placement"`` -- every round the policy returns the gangs of the round: ``{job: type}``
  (the engine picks the servers, keeping a job's servers when it can) or ``{job: counts}`` with
  ``counts`` an int array of GPUs per server.

Both see the same :class:`RoundState`.  A policy joins the arena with one call,
:func:`hetopt.arena.register_policy` (``CONTRIBUTING.md``, *Add an arena policy*).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import numpy as np

from ..errors import ArgumentError
from ..gavel.mechanism import DEFAULT_RECOMPUTE_INTERVAL, DEFAULT_ROUND_LENGTH
from ..inputs import check_choice, check_flag, check_positive, check_size
from .workload import Workload

__all__ = ["Options", "RoundState", "Policy", "Gangs", "MODES", "GANG_RULES"]

#: The two ways a policy speaks to the mechanism.
MODES = ("allocation", "placement")
#: How a gang may use GPU types: one type per round (Gavel) or several at the slowest one's speed (Hadar (1b)).
GANG_RULES = ("single", "bottleneck")

#: What a placement policy returns: job -> GPU type index, or job -> int array (S,) of GPUs per server.
Gangs = dict[int, Any]


@dataclass(frozen=True)
class Options:
    """The execution model's options (``models/arena.md``, *Execution model*).

    Attributes
    ----------
    round_length : float
        Seconds per round (Gavel: 360).
    recompute_interval : float
        Least seconds between two resets of an allocation policy (Gavel: 1,920).
    restart_delay : float
        Seconds of a round lost by a job whose GPUs differ from the previous round's (a
        checkpoint-restart, its first start included); 0 reproduces Gavel.
    contention : bool
        Wang et al.'s eq. (5) on shared links: a gang spread over several servers all-reduces
        ``model_size`` MB per iteration, and ``k >= 2`` such gangs on one server's link each take
        ``(k - 1)(b + eta) model_size`` seconds more per iteration (``b = 0.008 / bandwidth`` s/MB,
        ``eta = 0.2745 b``, the ratio of the authors' simulator).  Off by default.
    gang_rule : {"single", "bottleneck"}
        ``"single"`` (Gavel): a gang runs on one GPU type per round; ``"bottleneck"``: a placement
        policy may spread a gang over types, and it runs at its slowest type's throughput.
    max_rounds : int
        Stop with :class:`~hetopt.errors.HetoptError` after this many rounds.
    record_rounds : bool
        Keep every round's gangs (the checker reads them).
    """

    round_length: float = DEFAULT_ROUND_LENGTH
    recompute_interval: float = DEFAULT_RECOMPUTE_INTERVAL
    restart_delay: float = 0.0
    contention: bool = False
    gang_rule: str = "single"
    max_rounds: int = 1_000_000
    record_rounds: bool = False

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "round_length", check_positive(self.round_length, "round_length"))
        set_(self, "recompute_interval", check_positive(self.recompute_interval, "recompute_interval",
                                                        allow_zero=True))
        set_(self, "restart_delay", check_positive(self.restart_delay, "restart_delay", allow_zero=True))
        if self.restart_delay >= self.round_length:
            raise ArgumentError(f"restart_delay is {self.restart_delay:g} s; expected less than round_length "
                                f"({self.round_length:g} s), or no job could ever run")
        set_(self, "contention", check_flag(self.contention, "contention"))
        check_choice(self.gang_rule, "gang_rule", GANG_RULES)
        set_(self, "max_rounds", check_size(self.max_rounds, "max_rounds"))
        set_(self, "record_rounds", check_flag(self.record_rounds, "record_rounds"))

    @property
    def gavel(self) -> bool:
        """The options that reproduce Gavel's simulator (no delay, no contention)."""
        return self.restart_delay == 0.0 and not self.contention


@dataclass
class RoundState:
    """What a policy sees (read-only by convention; the engine updates it in place).

    Attributes
    ----------
    workload : Workload
    options : Options
    now : float
        The round's start (s).
    index : int
        Rounds so far.
    jobs : numpy.ndarray of int
        The jobs present (arrived, not completed), in Gavel's id order (arrival, then index).
    pairs : list of (int, int)
        Pairs of present jobs that may share GPUs (packing policies; empty otherwise).
    remaining : numpy.ndarray, shape (J,)
        Iterations left of every job.
    attained : numpy.ndarray, shape (J,)
        GPU-seconds every job has occupied so far.
    previous : numpy.ndarray of int, shape (J,)
        The GPU type each job ran on in the previous round (-1: it did not run).
    seed : int
        The run's seed.
    """

    workload: Workload
    options: Options
    now: float
    index: int
    jobs: np.ndarray
    pairs: list[tuple[int, int]]
    remaining: np.ndarray
    attained: np.ndarray
    previous: np.ndarray
    seed: int = 0

    def since_arrival(self) -> np.ndarray:
        """Seconds since each present job arrived (rows of ``jobs``)."""
        return self.now - self.workload.arrival[self.jobs]


class Policy(Protocol):
    """A scheduler of the arena: ``mode``, ``reset`` once per run, then ``__call__`` (``models/arena.md``)."""

    name: str
    mode: ClassVar[str]

    def reset(self, workload: Workload, options: Options, *, seed: int) -> None:
        """Prepare for one run of ``workload``."""
        ...

    def __call__(self, state: RoundState) -> Any:
        """``mode == "allocation"``: X, shape (len(jobs) + len(pairs), R); ``"placement"``: :data:`Gangs`."""
        ...
