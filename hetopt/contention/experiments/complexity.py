"""Running-time growth of LWF-kappa and AdaDUAL against the orders Section IV states.

Section IV-A: LWF-kappa "commonly has a time complexity of theta(N_s log2 N_s)" (a job of more
than kappa GPUs: sort the servers by their total remaining workload ``L_{S_i}``, an input of
Algorithm 1, then take GPUs server by server).  Section IV-B: AdaDUAL is theta(N_S), "dominated
by scanning all the servers in the for-loop" (lines 2-7; lines 4-5 and 8-21 are theta(1) because
the running task set ``C_{S_i}`` of each server is an input of Algorithm 2).

The experiment times one call of hetopt's implementation at a geometric sweep of cluster sizes
(CPU seconds, best of a few repetitions, each long enough for the clock) and fits the exponent p of
``time ~ N^p`` by least squares on log-log axes; the stated order gives its own exponent over
the same sizes (``N log N``: a little above 1).  The premise of both statements is the input the
algorithms are given: the per-server sums ``L_{S_i}`` and the per-server task sets ``C_{S_i}``.
With ``given=False`` the same implementation is timed after deriving them the naive way (each
server's sum, or task set, by a scan of every GPU, or of every running task), which is what
an implementation that is not given them does: quadratic.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Sequence

import numpy as np

from ..admission import adadual
from ..comm import SIM_BETA, SIM_ETA
from ..placement import lwf_kappa

__all__ = ["LWF_SIZES", "LWF_GPU_SIZES", "FIXED_SERVERS", "ADADUAL_SIZES", "best_time", "fit_exponent",
           "stated_exponent", "lwf_times", "lwf_times_gpus", "adadual_times"]

#: Servers of the LWF sweep (4 GPUs each): 512 ... 8192.
LWF_SIZES = tuple(2 ** k for k in range(9, 14))
#: GPUs per server of the LWF sweep over N_g (the premise N_g << N_s removed), at FIXED_SERVERS servers.
LWF_GPU_SIZES = tuple(2 ** k for k in range(9, 14))
FIXED_SERVERS = 16
#: Servers spanned by the new all-reduce in the AdaDUAL sweep: 128 ... 4096.
ADADUAL_SIZES = tuple(2 ** k for k in range(7, 13))
GPUS_PER_SERVER = 4


def best_time(f: Callable[[], object], *, repeats: int = 5, min_time: float = 0.01) -> float:
    """CPU seconds per call of ``f``: the best of ``repeats`` batches, each of at least ``min_time`` s.

    The process's CPU time (``time.process_time``), which other processes' load does not inflate as it
    does the wall clock (issue 30: no verdict from the machine's load).
    """
    best = math.inf
    for _ in range(repeats):
        n = 1
        while True:
            t0 = time.process_time()
            for _ in range(n):
                f()
            dt = time.process_time() - t0
            if dt >= min_time:
                break
            n *= 2
        best = min(best, dt / n)
    return best


def fit_exponent(sizes: Sequence[float], times: Sequence[float]) -> float:
    """Least-squares slope of log(time) against log(size)."""
    x, y = np.log(np.asarray(sizes, float)), np.log(np.asarray(times, float))
    return float(np.polyfit(x, y, 1)[0])


def stated_exponent(order: str, sizes: Sequence[float]) -> float:
    """The exponent the stated order ("n" or "nlogn") has over ``sizes`` (the same fit)."""
    n = np.asarray(sizes, float)
    return fit_exponent(n.tolist(), (n if order == "n" else n * np.log2(n)).tolist())


def lwf_times(*, given: bool = True, sizes: Sequence[int] = LWF_SIZES) -> list[float]:
    """Seconds per LWF-1 placement of an 8-GPU job (more than kappa: the server path) on N_s servers.

    ``given``: the server sums ``L_{S_i}`` are formed in one pass (hetopt's ``lwf_kappa``, as
    Algorithm 1 takes them as input); False first sums each server by a scan of every GPU.
    """
    out = []
    for ns in sizes:
        rng = np.random.default_rng(ns)
        free = np.full(ns * GPUS_PER_SERVER, 32768.0)
        load = rng.random(ns * GPUS_PER_SERVER)
        server_of = np.arange(ns * GPUS_PER_SERVER) // GPUS_PER_SERVER

        def place(free=free, load=load, server_of=server_of, ns=ns):
            if not given:  # L_{S_i} not an input: each server's load by a scan of all GPUs
                np.array([load[server_of == s].sum() for s in range(ns)])
            return lwf_kappa(free, load, GPUS_PER_SERVER, 8, 4527.0, kappa=1)

        out.append(best_time(place))
    return out


def lwf_times_gpus(*, sizes: Sequence[int] = LWF_GPU_SIZES, n_servers: int = FIXED_SERVERS) -> list[float]:
    """Seconds per LWF-1 placement of an 8-GPU job on ``n_servers`` servers of N_g GPUs, N_g in ``sizes``."""
    out = []
    for ng in sizes:
        rng = np.random.default_rng(ng)
        free = np.full(n_servers * ng, 32768.0)
        load = rng.random(n_servers * ng)
        out.append(best_time(functools.partial(lwf_kappa, free, load, ng, 8, 4527.0, kappa=1)))
    return out


def adadual_times(*, given: bool = True, sizes: Sequence[int] = ADADUAL_SIZES) -> list[float]:
    """Seconds per AdaDUAL decision for a new all-reduce spanning N servers, each carrying one old task.

    ``given``: the running task set of each server is an input (Algorithm 2); False derives
    each server's set by a scan of the list of running tasks (one per server here).
    """
    out = []
    for n in sizes:
        running = [(c, frozenset({c})) for c in range(n)]  # old task c runs on server c
        per_server = [frozenset({c}) for c in range(n)]
        remaining = {c: 1000.0 for c in range(n)}

        def decide(running=running, per_server=per_server, remaining=remaining, n=n):
            sets = per_server if given else [frozenset(c for c, ss in running if s in ss) for s in range(n)]
            return adadual(sets, remaining, 10.0, SIM_BETA, SIM_ETA)

        out.append(best_time(decide))
    return out
