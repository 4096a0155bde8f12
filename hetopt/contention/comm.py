"""Communication model of Wang et al.: all-reduce costs (eq. (2), Table I) and contention (eq. (5)).

Units used throughout :mod:`hetopt.contention`: times in seconds, message sizes in MB
(10^6 bytes), so ``b`` and ``eta`` are in s/MB.  The paper fits ``a = 6.69e-4 s`` and
``b = 8.53e-10 s/byte`` (= 8.53e-4 s/MB) on 10 GbE; the authors' public simulator uses
``beta = 0.856 ms/MB`` and ``eta = 0.235 ms/MB``.

The contention model (5) is read as a *fluid* model: a communication task sharing the
network of its busiest server with ``k - 1`` other tasks moves its message at the rate
``1 / (k b + (k - 1) eta)`` MB/s, after a latency of ``a`` seconds during which it already
occupies the network.  With ``k`` tasks of equal size started together this gives exactly
eq. (5); with rates recomputed whenever a task starts or ends it gives eqs. (10)-(12).

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Section II-B and III-A.2.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence

import numpy as np

from ..errors import ArgumentError

__all__ = [
    "PAPER_A",
    "PAPER_B",
    "SIM_BETA",
    "SIM_ETA",
    "ALLREDUCE_ALGORITHMS",
    "allreduce_cost",
    "allreduce_time",
    "transfer_rate",
    "fluid_completion_times",
]

#: Latency of one ring all-reduce on two 10 GbE nodes, fitted in Fig. 2(a) (seconds).
PAPER_A = 6.69e-4
#: Transfer time per MB fitted in Fig. 2(a): 8.53e-10 s/byte = 8.53e-4 s/MB.
PAPER_B = 8.53e-4
#: beta of the authors' public simulator (HKBU-HPML/dl-scheduling) on 10 GbE: 0.856 ms/MB.
SIM_BETA = 8.56e-4
#: Contention penalty eta of the authors' public simulator on 10 GbE: 0.235 ms/MB.
SIM_ETA = 2.35e-4


def _check_positive(name: str, value: float, *, allow_zero: bool = False) -> float:
    if isinstance(value, (bool, str)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ArgumentError(f"{name} is {value!r}; expected a number")
    v = float(value)
    if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        raise ArgumentError(f"{name} is {value!r}; expected a finite number {'>= 0' if allow_zero else '> 0'}")
    return v


def _binary_tree(alpha: float, beta: float, gamma: float, n: int) -> tuple[float, float]:
    lg = math.log2(n)
    return 2 * alpha * lg, (2 * beta + gamma) * lg


def _recursive_doubling(alpha: float, beta: float, gamma: float, n: int) -> tuple[float, float]:
    lg = math.log2(n)
    return alpha * lg, (beta + gamma) * lg


def _halving_doubling(alpha: float, beta: float, gamma: float, n: int) -> tuple[float, float]:
    lg = math.log2(n)
    return 2 * alpha * lg, 2 * beta - (2 * beta + gamma) / n + gamma


def _ring(alpha: float, beta: float, gamma: float, n: int) -> tuple[float, float]:
    return 2 * (n - 1) * alpha, 2 * (n - 1) / n * beta + (n - 1) / n * gamma


#: Table I: name -> function (alpha, beta, gamma, N) -> (a, b) of eq. (2).
ALLREDUCE_ALGORITHMS = {
    "binary_tree": _binary_tree,
    "recursive_doubling": _recursive_doubling,
    "recursive_halving_doubling": _halving_doubling,
    "ring": _ring,
}


def allreduce_cost(algorithm: str, alpha: float, beta: float, gamma: float, n_nodes: int) -> tuple[float, float]:
    """Constants ``(a, b)`` of eq. (2), ``T_ar = a + b M``, for an all-reduce algorithm of Table I.

    Parameters
    ----------
    algorithm : {"binary_tree", "recursive_doubling", "recursive_halving_doubling", "ring"}
    alpha : float
        Latency of one point-to-point message (s), >= 0.
    beta : float
        Transmission time per unit of message (s/MB), >= 0.
    gamma : float
        Reduction (computation) time per unit of message (s/MB), >= 0.
    n_nodes : int
        Number of nodes N, a power of two >= 2 (the paper assumes powers of two).

    Returns
    -------
    (a, b) : tuple of float

    Raises
    ------
    ArgumentError
        Unknown algorithm, negative constants, or N not a power of two >= 2.

    Examples
    --------
    >>> allreduce_cost("ring", alpha=1.0, beta=1.0, gamma=0.0, n_nodes=4)
    (6.0, 1.5)
    """
    if not isinstance(algorithm, str) or algorithm not in ALLREDUCE_ALGORITHMS:
        raise ArgumentError(f"algorithm is {algorithm!r}; expected one of {sorted(ALLREDUCE_ALGORITHMS)}")
    alpha = _check_positive("alpha", alpha, allow_zero=True)
    beta = _check_positive("beta", beta, allow_zero=True)
    gamma = _check_positive("gamma", gamma, allow_zero=True)
    if not isinstance(n_nodes, (int, np.integer)) or n_nodes < 2 or (n_nodes & (n_nodes - 1)):
        raise ArgumentError(f"n_nodes is {n_nodes!r}; expected a power of two >= 2 (Table I assumes it)")
    a, b = ALLREDUCE_ALGORITHMS[algorithm](alpha, beta, gamma, int(n_nodes))
    return float(a), float(b)


def allreduce_time(message_size: float, a: float, b: float, eta: float, k: int = 1) -> float:
    """Time of one all-reduce among ``k`` concurrent ones of the same size, eq. (5).

    ``T = a + k b M + (k - 1) eta M``; with ``k = 1`` this is eq. (2).

    Parameters
    ----------
    message_size : float
        M in MB, >= 0.
    a : float
        Latency (s), >= 0.
    b : float
        Transfer time per MB without contention (s/MB), > 0.
    eta : float
        Contention penalty per MB (s/MB), >= 0.
    k : int
        Number of concurrent communication tasks (>= 1).

    Examples
    --------
    >>> allreduce_time(100.0, a=0.0, b=1e-3, eta=0.0, k=2)
    0.2
    """
    m = _check_positive("message_size", message_size, allow_zero=True)
    a = _check_positive("a", a, allow_zero=True)
    b = _check_positive("b", b)
    eta = _check_positive("eta", eta, allow_zero=True)
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ArgumentError(f"k is {k!r}; expected an integer >= 1")
    return a + k * b * m + (k - 1) * eta * m


def transfer_rate(k: int, b: float, eta: float) -> float:
    """Fluid transfer rate (MB/s) of a task sharing its busiest server with ``k - 1`` others.

    The rate ``1 / (k b + (k - 1) eta)`` reproduces eq. (5) for ``k`` equal tasks started
    together, and eqs. (10)-(12) when tasks start at different times.

    Raises
    ------
    ArgumentError
        ``k`` not an integer >= 1, ``b`` not finite and > 0, ``eta`` not finite and >= 0.
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ArgumentError(f"k is {k!r}; expected an integer >= 1 (the number of concurrent tasks)")
    b = _check_positive("b", b)
    eta = _check_positive("eta", eta, allow_zero=True)
    return 1.0 / (k * b + (k - 1) * eta)


def fluid_completion_times(
    sizes: Sequence[float],
    starts: Sequence[float],
    servers: Sequence[Sequence[int]],
    a: float,
    b: float,
    eta: float,
) -> np.ndarray:
    """End times of communication tasks with given start times under the fluid model of eq. (5).

    An independent reference implementation (a plain event loop over start and end
    events), used to check the simulator and the two-task closed forms.

    Parameters
    ----------
    sizes : sequence of float
        Message size of each task (MB).
    starts : sequence of float
        Start time of each task (s).
    servers : sequence of sequences of int
        Servers whose network each task uses.
    a, b, eta : float
        Parameters of eq. (5).

    Returns
    -------
    numpy.ndarray
        End time of each task.

    Raises
    ------
    ArgumentError
        Lengths differ; a size, start or constant that is not a finite number (NaN or
        infinite values would give a rate that never ends a task); a task without servers.
    """
    for name, v in (("sizes", sizes), ("starts", starts), ("servers", servers)):
        if not isinstance(v, Sequence | np.ndarray) or isinstance(v, str):
            raise ArgumentError(f"{name} is {v!r:.60}; expected a sequence, one entry per task")
    n = len(sizes)
    if not (len(starts) == len(servers) == n):
        raise ArgumentError("sizes, starts and servers must have the same length")
    a = _check_positive("a", a, allow_zero=True)
    b = _check_positive("b", b)
    eta = _check_positive("eta", eta, allow_zero=True)
    sizes_a = np.array([_check_positive(f"sizes[{i}]", v, allow_zero=True) for i, v in enumerate(sizes)], dtype=float)
    starts_a = np.array([_check_positive(f"starts[{i}]", v, allow_zero=True) for i, v in enumerate(starts)], dtype=float)
    for i, srv in enumerate(servers):
        if len(srv) == 0:
            raise ArgumentError(f"servers[{i}] is empty; expected the servers task {i} uses")
    latency_left = np.full(n, float(a))
    remaining = sizes_a.copy()
    ends = np.full(n, np.nan)
    order = list(np.argsort(starts_a, kind="stable"))
    active: list[int] = []
    t = float(starts_a[order[0]]) if n else 0.0
    pending = [(float(starts_a[i]), int(i)) for i in order]
    heapq.heapify(pending)
    while pending or active:
        # rates of the active tasks
        load: dict[int, int] = {}
        for i in active:
            for s in servers[i]:
                load[s] = load.get(s, 0) + 1
        rates = {i: transfer_rate(max(load[s] for s in servers[i]), b, eta) for i in active}
        # next event: a start or an end
        t_next = pending[0][0] if pending else math.inf
        finish = {i: t + latency_left[i] + remaining[i] / rates[i] for i in active}
        t_end = min(finish.values(), default=math.inf)
        t_new = min(t_next, t_end)
        dt = t_new - t
        for i in active:
            lat = min(latency_left[i], dt)
            latency_left[i] -= lat
            remaining[i] = max(0.0, remaining[i] - (dt - lat) * rates[i])
        t = t_new
        done = [i for i in active if finish[i] <= t_new + 1e-12 * abs(t_new)]  # relative: no floor (issue 31)
        for i in done:
            ends[i] = finish[i]
            active.remove(i)
        while pending and pending[0][0] <= t + 0.0:
            _, i = heapq.heappop(pending)
            active.append(i)
    return ends
