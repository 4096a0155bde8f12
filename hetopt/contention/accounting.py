"""Transfer accounting of running all-reduces: the correct one and the published simulator's error.

The simulator (:mod:`hetopt.contention.simulator`) moves every running all-reduce at the
fluid rate of eq. (5).  ``transfer_accounting="correct"`` (the default) does only that: how
much of a transfer remains depends on time and on the rates, never on who asks.

``transfer_accounting="authors"`` reproduces an error of the authors' public simulator
(HKBU-HPML/dl-scheduling, ``online/job.py``), documented here so that a user can see the
paper's headline gain appear and vanish; it is **not** a model of anything physical:

- ``dag_task.get_rest_size(time)`` adds ``(time - last_change_time) * speed`` to
  ``transferred_size`` and returns ``model_size - transferred_size``, but does not move
  ``last_change_time``;
- ``dag_task.update_comm_time(time, node)``, called for every running all-reduce at the
  end of every 1 ms slot, adds ``(time - last_change_time) * speed`` again and then sets
  ``last_change_time = time``.

AdaDUAL (``dag_job.is_all_nodes_free`` with ``adaDual=True`` and ``thres=1``) calls
``get_rest_size`` on the running task of a server that carries exactly one all-reduce,
once per slot for every ready all-reduce it refuses.  Each such query therefore credits
the running transfer with one extra slot of progress: with ``q`` refused all-reduces
querying it, a transfer moves at ``(1 + q)`` times its rate.  SRSF(n) never queries, so
only Ada-SRSF gains.  A lone 526.4 MB all-reduce (450.6 ms at 0.856 ms/MB) with one
refused waiter ends after about 226 ms there (:func:`authors_slotted_transfer`).

In our event-driven simulator the "authors" accounting is the fluid equivalent: every
refused all-reduce records which running tasks its admission rule read (the ``remaining``
mapping is a :class:`QueryLog`), and each running task's rate is multiplied by
``1 + (number of refused all-reduces that read it)`` until that number changes (refused
all-reduces asked before another one starts at the same instant are asked again, so what
they read reflects the state after the instant, as the next 1 ms slot would).  The
rules are stable (a refusal stands while the server task sets do not change), so the
multiplier is constant between events.  The credit applies to the transfer, not to the
latency ``a`` (the authors' simulator has ``alpha = 0``).

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Section V; simulator at
https://github.com/HKBU-HPML/dl-scheduling (``online/job.py``, ``online/job_master.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import TypeVar

from ..errors import ArgumentError, SizeLimitError
from ..inputs import check_positive, check_size

__all__ = ["ACCOUNTINGS", "check_accounting", "QueryLog", "credit_counts", "authors_slotted_transfer"]

#: The transfer accountings :func:`~hetopt.contention.simulate` accepts.
ACCOUNTINGS = ("correct", "authors")


def check_accounting(value: object) -> str:
    """Return ``value`` if it names a transfer accounting; ``ArgumentError`` naming the field otherwise."""
    if not isinstance(value, str) or value not in ACCOUNTINGS:
        raise ArgumentError(f"transfer_accounting is {value!r}; expected one of {', '.join(map(repr, ACCOUNTINGS))}")
    return value


K = TypeVar("K", bound=Hashable)


class QueryLog(Mapping[K, float]):
    """Read-only mapping ``task -> remaining MB`` computed on demand, recording which keys were read.

    Parameters
    ----------
    keys : iterable
        The running tasks the admission rule may ask about.
    remaining : callable
        ``remaining(task) -> float``, called at most once per key.
    """

    def __init__(self, keys: Iterable[K], remaining: Callable[[K], float]) -> None:
        self._keys: tuple[K, ...] | None = tuple(keys)
        self._sets: Sequence[Collection[K]] = (self._keys,)
        self._fn = remaining
        self._cache: dict[K, float] = {}
        self.read: list[K] = []

    @classmethod
    def over(cls, sets: Sequence[Collection[K]], remaining: Callable[[K], float]) -> QueryLog[K]:
        """The log over the union of ``sets``.

        The sorted key list is built only when a rule iterates the log: most queries never do (a rule
        that refuses on the counts reads nothing).
        """
        log = cls((), remaining)
        log._keys, log._sets = None, sets
        return log

    def _all(self) -> tuple[K, ...]:
        if self._keys is None:
            self._keys = tuple(sorted(set().union(*self._sets)))  # type: ignore[type-var]
        return self._keys

    def __getitem__(self, key: K) -> float:
        if key not in self._cache:
            if not any(key in s for s in self._sets):
                raise KeyError(key)
            self._cache[key] = float(self._fn(key))
            self.read.append(key)
        return self._cache[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def credit_counts(queried: Mapping[Hashable, Iterable[Hashable]]) -> dict[Hashable, int]:
    """Number of refused all-reduces that read each running task (``waiter -> tasks read``)."""
    out: dict[Hashable, int] = {}
    for tasks in queried.values():
        for c in set(tasks):
            out[c] = out.get(c, 0) + 1
    return out


#: Most waiters of :func:`authors_slotted_transfer` (each query is one Python step per slot).
MAX_WAITERS = 10**6


def authors_slotted_transfer(size: float, beta: float, n_waiters: int, *, slot: float = 1e-3,
                             max_slots: int = 10_000_000) -> float:
    """End time of a lone all-reduce started at 0 under the authors' slotted accounting.

    An independent, slot-by-slot restatement of ``dag_task`` of the published simulator
    for one running all-reduce (speed ``1 / beta``, alone on its servers) and
    ``n_waiters`` refused all-reduces that each query it once per slot.  In each slot
    ``t``: the task ends if ``t >= end_time``; each waiter's query adds
    ``(t - last_change) * speed`` without moving ``last_change``; then the per-slot update
    adds it once more, moves ``last_change`` to ``t`` and sets
    ``end_time = t + rest / speed``.

    Parameters
    ----------
    size : float
        Message size (MB), > 0.
    beta : float
        Transfer time per MB (s/MB), > 0.
    n_waiters : int
        Refused all-reduces querying the task every slot, >= 0.
    slot : float
        Slot length (s), > 0.

    Returns
    -------
    float
        The end time (s), a multiple of ``slot``.

    Examples
    --------
    >>> round(authors_slotted_transfer(526.4, 8.56e-4, 0), 3)
    0.451
    >>> round(authors_slotted_transfer(526.4, 8.56e-4, 1), 3)
    0.226
    """
    size, beta, slot = (check_positive(v, name) for v, name in ((size, "size"), (beta, "beta"), (slot, "slot")))
    n_waiters = check_size(n_waiters, "n_waiters", minimum=0, maximum=MAX_WAITERS)  # one query each a slot
    max_slots = check_size(max_slots, "max_slots")
    speed = slot / beta  # MB per slot
    transferred, last, end = 0.0, 0, size / speed
    for t in range(max_slots):
        if t >= end:
            return t * slot
        for _ in range(n_waiters):  # get_rest_size: progress added, last_change not moved
            transferred += (t - last) * speed
        transferred += (t - last) * speed  # update_comm_time
        last = t
        end = t + (size - transferred) / speed
    raise SizeLimitError(f"the transfer did not end within max_slots = {max_slots}")
