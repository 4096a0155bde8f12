"""Work of LWF-kappa and AdaDUAL against the orders Section IV states, counted, not timed.

Section IV-A: LWF-kappa "commonly has a time complexity of theta(N_s log2 N_s)" (a job of more
than kappa GPUs: sort the servers by their total remaining workload ``L_{S_i}``, an input of
Algorithm 1, then take GPUs server by server).  Section IV-B: AdaDUAL is theta(N_S), "dominated
by scanning all the servers in the for-loop" (lines 2-7; lines 4-5 and 8-21 are theta(1) because
the running task set ``C_{S_i}`` of each server is an input of Algorithm 2).

The experiment runs hetopt's implementation, unchanged, on inputs that count the work done on
them: numbers that count every comparison and addition (numpy object arrays of them, so that
numpy's sums and sorts call them), and task sets and a mapping that count every length, membership
test, iteration step and lookup.  The count of one call is exact and the same on every machine and
every run, unlike a wall time.  The exponent p of ``work ~ N^p`` is fitted by least squares on
log-log axes; the stated order gives its own exponent over the same sizes (``N log N``: a little
above 1).  The premise of AdaDUAL's statement is the input it is given: with ``given=False`` each
server's task set is derived the naive way (a scan of every running task per server), which is
what an implementation that is not given them does: quadratic.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterator, Sequence

import numpy as np

from ..admission import adadual
from ..comm import SIM_BETA, SIM_ETA
from ..placement import lwf_kappa

__all__ = ["LWF_SIZES", "LWF_GPU_SIZES", "FIXED_SERVERS", "ADADUAL_SIZES", "Tally", "fit_exponent",
           "stated_exponent", "lwf_work", "lwf_work_gpus", "adadual_work"]

#: Servers of the LWF sweep (4 GPUs each): 512 ... 8192.
LWF_SIZES = tuple(2 ** k for k in range(9, 14))
#: GPUs per server of the LWF sweep over N_g (the premise N_g << N_s removed), at FIXED_SERVERS servers.
LWF_GPU_SIZES = tuple(2 ** k for k in range(9, 14))
FIXED_SERVERS = 16
#: Servers spanned by the new all-reduce in the AdaDUAL sweep: 32 ... 1024 (the counts are exact, so
#: small sizes show the order; the scan of the premise-removed sweep makes N^2 membership tests).
ADADUAL_SIZES = tuple(2 ** k for k in range(5, 11))
GPUS_PER_SERVER = 4


class Tally:
    """A count of elementary operations, shared by the counting inputs of one call."""

    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0

    def number(self, x: float) -> float:
        """``x`` as a float that adds one to this tally for every comparison and addition made with it."""
        return _number_type(self)(x)

    def numbers(self, values: np.ndarray) -> np.ndarray:
        """An object array of counting numbers (numpy's sums and sorts then compare and add through them)."""
        kind = _number_type(self)
        out = np.empty(len(values), dtype=object)
        out[:] = [kind(v) for v in np.asarray(values, float).tolist()]
        return out


_COUNTED = ("__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__", "__add__", "__radd__", "__sub__", "__rsub__")


def _number_type(tally: Tally) -> type:
    """A float subclass whose comparisons and additions count in ``tally``; sums stay of the subclass."""
    def counted(op):
        def method(self, other):
            tally.n += 1
            out = op(self, other)
            return kind(out) if type(out) is float else out
        return method

    kind = type("CountingFloat", (float,), {**{name: counted(getattr(float, name)) for name in _COUNTED},
                                            "__hash__": float.__hash__, "__slots__": ()})
    return kind


class _Set(Collection[Hashable]):
    """A task set that counts its length, membership tests and iteration steps."""

    __slots__ = ("_items", "_tally")

    def __init__(self, items: Collection[Hashable], tally: Tally) -> None:
        self._items, self._tally = frozenset(items), tally

    def __len__(self) -> int:
        self._tally.n += 1
        return len(self._items)

    def __contains__(self, x: object) -> bool:
        self._tally.n += 1
        return x in self._items

    def __iter__(self) -> Iterator[Hashable]:
        for x in self._items:
            self._tally.n += 1
            yield x


class _Lookup(dict):
    """A mapping that counts its lookups."""

    def __init__(self, items: dict, tally: Tally) -> None:
        super().__init__(items)
        self._tally = tally

    def __getitem__(self, key):
        self._tally.n += 1
        return super().__getitem__(key)


def fit_exponent(sizes: Sequence[float], work: Sequence[float]) -> float:
    """Least-squares slope of log(work) against log(size)."""
    x, y = np.log(np.asarray(sizes, float)), np.log(np.asarray(work, float))
    return float(np.polyfit(x, y, 1)[0])


def stated_exponent(order: str, sizes: Sequence[float]) -> float:
    """The exponent the stated order ("n" or "nlogn") has over ``sizes`` (the same fit)."""
    n = np.asarray(sizes, float)
    return fit_exponent(n.tolist(), (n if order == "n" else n * np.log2(n)).tolist())


def _lwf_call(n_servers: int, gpus_per_server: int, seed: int) -> int:
    """Operations of one LWF-1 placement of an 8-GPU job (more than kappa: the server path)."""
    tally = Tally()
    n = n_servers * gpus_per_server
    free = tally.numbers(np.full(n, 32768.0))
    load = tally.numbers(np.random.default_rng(seed).random(n))
    chosen = lwf_kappa(free, load, gpus_per_server, 8, 4527.0, kappa=1)
    assert chosen is not None and len(chosen) == 8  # every GPU has room: the job is placed
    return tally.n


def lwf_work(*, sizes: Sequence[int] = LWF_SIZES) -> list[int]:
    """Operations per LWF-1 placement of an 8-GPU job on N_s servers of 4 GPUs, N_s in ``sizes``.

    The server sums ``L_{S_i}`` are formed in one pass of the GPU loads (hetopt's ``lwf_kappa``,
    as Algorithm 1 takes them as input), then sorted.
    """
    return [_lwf_call(ns, GPUS_PER_SERVER, ns) for ns in sizes]


def lwf_work_gpus(*, sizes: Sequence[int] = LWF_GPU_SIZES, n_servers: int = FIXED_SERVERS) -> list[int]:
    """Operations per LWF-1 placement of an 8-GPU job on ``n_servers`` servers of N_g GPUs, N_g in ``sizes``."""
    return [_lwf_call(n_servers, ng, ng) for ng in sizes]


def adadual_work(*, given: bool = True, sizes: Sequence[int] = ADADUAL_SIZES) -> list[int]:
    """Operations per AdaDUAL decision for a new all-reduce spanning N servers, each carrying one old task.

    ``given``: the running task set of each server is an input (Algorithm 2); False derives
    each server's set by a scan of the list of running tasks (one per server here), counted too.
    """
    out = []
    for n in sizes:
        tally = Tally()
        running = [(c, _Set({c}, tally)) for c in range(n)]  # old task c runs on server c
        remaining = _Lookup({c: 1000.0 for c in range(n)}, tally)
        if given:
            sets = [_Set({s}, tally) for s in range(n)]
        else:
            sets = [_Set({c for c, servers in running if s in servers}, tally) for s in range(n)]
        adadual(sets, remaining, 10.0, SIM_BETA, SIM_ETA)
        out.append(tally.n)
    return out
