"""Liu et al.'s HAS and JPS as arena policies: their placement recomputed at every arrival and completion.

Liu et al. place ``S`` jobs on ``K >= S`` heterogeneous workers at once, every job on ``K_i >= 1``
workers with its data split in proportion to their speeds (eq. (12)), and recompute the placement
among the remaining jobs at each completion (reset events, Section VI-B2; hetopt.placement's
``simulate``).  In the arena every GPU is a worker (:func:`~hetopt.arena.convert.to_placement`);
at each event (the set of present jobs changes) the adapter poses Liu et al.'s problem on the
jobs present with their remaining iterations and runs :func:`hetopt.placement.has` or
:func:`hetopt.placement.jps`; until the next event every job runs on its workers as copies
(:class:`~hetopt.arena.protocol.Copies`): ``K_i`` GPUs of a job are ``K_i / scale_factor`` gangs per
GPU type, whose rates add up as eq. (13)'s do.  More jobs than GPUs: the earliest ``K`` (by arrival)
are placed, the others wait for the next event.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..errors import SizeLimitError
from .convert import gpu_servers, to_placement
from .protocol import Copies, Gangs, Options, RoundState
from .workload import Workload

__all__ = ["LiuHAS", "LiuJPS"]

_DROPS = ("the communication term (6) and nodes (to_placement gives no model sizes: the arena's contention option is "
          "its model of communication); a job's GPUs of one type form gangs of scale_factor GPUs (GPUs beyond a "
          "multiple stay idle, a job given fewer than scale_factor GPUs of every type waits); the placement holds "
          "between events while Liu et al.'s jobs progress continuously (the arena's rounds, whole iterations)")


class _Liu:
    """Liu et al.'s placement at each event (arrival or completion), run as copies until the next one."""

    mode: ClassVar[str] = "placement"
    copies: ClassVar[bool] = True
    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    source: ClassVar[str] = "placement"
    keeps: ClassVar[str] = ""
    drops: ClassVar[str] = _DROPS

    def reset(self, workload: Workload, options: Options, *, seed: int) -> None:
        """Every GPU a worker; no placement yet."""
        self.w = workload
        self.gpu_server = gpu_servers(workload)
        self.gpu_type = workload.server_type[self.gpu_server]
        self.present: tuple[int, ...] = ()
        self.gangs: Gangs = {}
        self.events = 0
        self.refuse_early(options)

    def refuse_early(self, options: Options) -> None:
        """Refuse the run before its first round when the workload proves a size guard will be passed (HAS)."""

    def solve(self, inst: Any) -> np.ndarray:
        """Liu et al.'s assignment (the job of every worker) of the instance."""
        raise NotImplementedError

    def __call__(self, state: RoundState) -> Gangs:
        """The placement of the last event; a new one when the jobs present have changed."""
        present = tuple(state.jobs.tolist())
        if present != self.present:
            self.present = present
            self.gangs = self._place(state) if present else {}
            self.events += 1
        return self.gangs

    def _place(self, state: RoundState) -> Gangs:
        w = self.w
        K = self.gpu_server.size
        jobs = np.asarray(self.present[:K], dtype=np.int64)  # Liu et al. need S <= K: the earliest K
        inst = to_placement(w, jobs, state.remaining[jobs])
        try:
            assignment = self.solve(inst)
        except SizeLimitError as exc:
            raise SizeLimitError(f"arena policy {self.name!r} at {state.now:.0f} s ({jobs.size} jobs present on {K} "
                                 f"GPUs): {exc}") from None
        out: Gangs = {}
        idle = np.ones(K, dtype=bool)
        for i, j in enumerate(jobs.tolist()):
            mine = np.flatnonzero(assignment == i)
            sf = int(w.scale_factor[j])
            copies = []
            for r in np.unique(self.gpu_type[mine]).tolist():
                gpus = mine[self.gpu_type[mine] == r]
                if w.throughput[j, r] <= 0:
                    continue
                for c in range(gpus.size // sf):
                    copies.append(self._gang(gpus[c * sf:(c + 1) * sf]))
                    idle[gpus[c * sf:(c + 1) * sf]] = False
            if copies:
                out[j] = Copies(copies)
        return self._fill(out, idle)

    def _gang(self, gpus: np.ndarray) -> np.ndarray:
        return np.bincount(self.gpu_server[gpus], minlength=self.w.n_servers).astype(np.int64)

    def _fill(self, out: Gangs, idle: np.ndarray) -> Gangs:
        """GPUs no copy uses go to jobs left without one (arrival order), a gang on the fastest type with room.

        Not Liu et al.'s (every worker has a job there): it keeps a job that Liu et al.'s placement gives fewer
        than ``scale_factor`` GPUs of each type, or that waits beyond the first ``K``, from starving.
        """
        w = self.w
        for j in self.present:
            if j in out:
                continue
            sf = int(w.scale_factor[j])
            for r in np.argsort(-w.throughput[j], kind="stable").tolist():
                free = np.flatnonzero(idle & (self.gpu_type == r))
                if w.throughput[j, r] > 0 and free.size >= sf:
                    idle[free[:sf]] = False
                    out[j] = self._gang(free[:sf])
                    break
        return out


class LiuHAS(_Liu):
    """HAS (Liu et al., Section V-C) at every event: the best placement over all categories.

    Parameters
    ----------
    market : {"auction", "assignment"}
        P3's route (hetopt.placement.has): Algorithm 2's matching market (the paper's) or the Hungarian
        algorithm (the same P3 optimum, faster).
    max_size : int
        Refuse (SizeLimitError) an event with more than this many categories C(K-1, S-1) (HAS enumerates
        them all; hetopt.placement's default, about a minute of HAS per event).
    """

    name = "has"
    description = "HAS (Liu et al.): the placement of least average JCT over all categories, recomputed at events"
    keeps = ("hetopt.placement.has itself at every arrival and completion: Algorithm 1's categories (K_1..K_S), each "
             "category's P3 optimum (max total throughput) by Algorithm 2's matching market, the category of least "
             "average JCT (14); a job on K_i workers with the proportional split (12), i.e. its copies' rates added")
    drops = _DROPS + "; HAS enumerates C(K-1, S-1) categories: it refuses (SizeLimitError) beyond max_size"

    def __init__(self, market: str = "auction", max_size: int | None = None):
        from ..inputs import check_choice, check_size
        from ..placement.categories import HAS_MAX_CATEGORIES

        self.market = check_choice(market, "market", ("auction", "assignment"))
        self.max_size = HAS_MAX_CATEGORIES if max_size is None else check_size(max_size, "max_size")

    def refuse_early(self, options: Options) -> None:
        """SizeLimitError when some event will surely pose more than ``max_size`` categories (:mod:`~.presence`).

        At the call that first sees an arrival at ``s``, the jobs present number ``S`` in ``[lower, upper]``
        (:func:`~hetopt.arena.presence.presence_bounds`) and HAS enumerates ``C(K-1, min(S, K)-1)`` categories,
        a unimodal function of ``S``: its least value over the range is at one end.
        """
        from math import comb

        from .presence import presence_bounds

        K = int(self.gpu_server.size)
        s, lower, upper = presence_bounds(self.w, options.round_length, copies=True)
        for t, lo, hi in zip(s.tolist(), lower.astype(np.int64).tolist(), upper.tolist(), strict=True):
            lo, hi = min(max(lo, 1), K), min(hi, K)
            least = min(comb(K - 1, lo - 1), comb(K - 1, hi - 1))
            if least > self.max_size:
                raise SizeLimitError(
                    f"arena policy {self.name!r}: the workload holds at least {lo} (at most {hi}) jobs on K={K} GPUs at "
                    f"the round that first sees the arrival at {t:.0f} s (from the arrivals and each job's shortest "
                    f"time on the whole cluster), so HAS would enumerate at least {least:.3g} categories C(K-1, S-1) "
                    f"at that event; refused before the first round: the limit is max_size={self.max_size} (jps "
                    "samples the categories)")

    def solve(self, inst: Any) -> np.ndarray:
        """:func:`hetopt.placement.has`'s assignment."""
        from ..placement import has

        return np.asarray(has(inst, market=self.market, max_size=self.max_size).assignment)


class LiuJPS(_Liu):
    """JPS (Liu et al., Algorithm 3) at every event: Algorithm 2 on N categories sampled from the rear of Psi.

    Parameters
    ----------
    n_samples, alpha, beta, market
        :func:`hetopt.placement.jps`'s (N = 20, alpha = 0.7, beta = 1, the matching market).
    seed : int
        The seed of every event's sample (hetopt.placement's ``jps`` policy: 0).
    """

    name = "jps"
    description = "JPS (Liu et al.): the best of 20 categories sampled from the rear of Psi, recomputed at events"
    keeps = ("hetopt.placement.jps itself at every arrival and completion: jobs prioritized by line 1 of Algorithm 3, "
             "N = 20 categories sampled from Psi[alpha |Psi|, |Psi|] (alpha = 0.7), each category's P3 optimum by "
             "Algorithm 2's matching market, the sample maximizing eq. (34) (beta = 1: least average JCT), seed 0 at "
             "every event as hetopt.placement's jps policy; a job on K_i workers with the proportional split (12)")
    drops = _DROPS

    def __init__(self, n_samples: int = 20, alpha: float = 0.7, beta: float = 1.0, market: str = "auction",
                 seed: int = 0):
        from ..errors import ArgumentError
        from ..inputs import check_choice, check_positive, check_seed, check_size

        self.n_samples = check_size(n_samples, "n_samples")
        self.alpha = check_positive(alpha, "alpha", allow_zero=True)
        self.beta = check_positive(beta, "beta", allow_zero=True)
        if self.alpha >= 1 or self.beta > 1:
            raise ArgumentError(f"alpha is {alpha!r} and beta {beta!r}; expected alpha in [0, 1) and beta in [0, 1]")
        self.market = check_choice(market, "market", ("auction", "assignment"))
        self.seed = check_seed(seed)

    def solve(self, inst: Any) -> np.ndarray:
        """:func:`hetopt.placement.jps`'s assignment."""
        from ..placement import jps

        return np.asarray(jps(inst, n_samples=self.n_samples, alpha=self.alpha, beta=self.beta, seed=self.seed,
                              market=self.market).assignment)
