"""Wang et al.'s Ada-SRSF with LWF-kappa placement as an arena policy (hetopt.contention's rules, per round).

Algorithm 3 of Wang et al. on the arena's rounds: queued jobs are placed in SRSF order (remaining
service ``L_J``: remaining iterations times the iteration time times the GPUs, the job's best type
before placement) by LWF-kappa (Algorithm 1, :func:`hetopt.contention.placement.lwf_kappa`: the
least-loaded GPUs, consolidated on the least-loaded servers beyond kappa GPUs), and hold their GPUs
until they complete; every round, the placed jobs run in SRSF order, and a job whose gang spans
servers runs only if AdaDUAL (Algorithm 2, :func:`hetopt.contention.admission.adadual`) admits its
all-reduce beside those already admitted on its servers.  The admission matters only when the
arena's contention penalty is on (``Options(contention=True)``, Wang et al.'s eq. (5), and links
of finite bandwidth): without it a shared link costs nothing and every gang runs.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from .execution import ETA_OVER_B
from .protocol import Gangs, Options, RoundState
from .workload import Workload

__all__ = ["AdaSRSF"]


class AdaSRSF:
    """Ada-SRSF with LWF-kappa (hetopt.contention's ``ada_srsf``) in the arena.

    Parameters
    ----------
    kappa : int
        kappa of LWF-kappa (Wang et al.'s default and ``ada_srsf``: 1).
    """

    mode: ClassVar[str] = "placement"
    name: ClassVar[str] = "ada_srsf"
    description: ClassVar[str] = ("Ada-SRSF (Wang et al.): SRSF order, LWF-kappa placement held until completion, "
                                  "AdaDUAL admission of gangs that share links")
    source: ClassVar[str] = "contention"
    keeps: ClassVar[str] = ("hetopt.contention's rules: queued jobs placed in SRSF order (remaining service, E = 0 "
                            "before placement) by lwf_kappa (kappa = 1; server and GPU loads are the remaining service "
                            "of the jobs placed there, raised by each job placed, Algorithm 1 lines 6 and 18), a job "
                            "holds its GPUs until it completes, and a gang spanning servers runs a round only when "
                            "adadual admits it beside the gangs admitted before it on its servers (SRSF order; with "
                            "Options(contention=True) and finite links)")
    drops: ClassVar[str] = ("GPU memory and GPU sharing (a GPU holds one job: Wang et al.'s model with every job "
                            "taking a GPU's memory); per-iteration compute and all-reduce tasks (a refused all-reduce "
                            "waits the whole round, an admitted one runs the round under eq. (5)'s penalty); the "
                            "cluster's GPU types (Wang et al.'s is homogeneous): a job's GPUs are of one type, the "
                            "fastest for the job where LWF-kappa finds them")

    def __init__(self, kappa: int = 1):
        from ..contention.placement import check_kappa

        self.kappa = check_kappa(kappa)

    def reset(self, workload: Workload, options: Options, *, seed: int) -> None:
        """GPU indices server-major (servers padded to the largest, padding never free), nothing placed."""
        w = workload
        self.w = w
        self.N = int(w.server_gpus.max())
        slot = np.arange(self.N)[None, :]
        self.real = (slot < w.server_gpus[:, None]).reshape(-1)
        self.gtype = np.repeat(w.server_type, self.N)
        self.holder = np.full(self.real.size, -1, dtype=np.int64)
        self.gpus: dict[int, np.ndarray] = {}
        self.contend = bool(options.contention and w.contention and np.any(w.model_size > 0))
        self.best = w.throughput.max(axis=1)

    def _service(self, j: int, remaining: np.ndarray) -> float:
        """``L_J`` of a job: GPU-seconds left at its placed type (its best type while queued)."""
        g = self.gpus.get(j)
        thr = self.best[j] if g is None else self.w.throughput[j, self.gtype[g[0]]]
        return float(remaining[j] / thr * self.w.scale_factor[j])

    def _place(self, j: int, load: np.ndarray) -> np.ndarray | None:
        """LWF-kappa on the free GPUs of each type the job runs on, fastest type first."""
        from ..contention.placement import lwf_kappa

        w = self.w
        for r in np.argsort(-w.throughput[j], kind="stable").tolist():
            if w.throughput[j, r] <= 0:
                break
            free = np.where(self.real & (self.gtype == r) & (self.holder < 0), 1.0, 0.0)
            g = lwf_kappa(free, load, self.N, int(w.scale_factor[j]), 1.0, kappa=self.kappa)
            if g is not None:
                return np.asarray(g, dtype=np.int64)
        return None

    def __call__(self, state: RoundState) -> Gangs:
        """Place queued jobs (SRSF, LWF-kappa), then run the placed ones that AdaDUAL admits (SRSF)."""
        from ..contention.admission import adadual

        present = set(state.jobs.tolist())
        for j in [j for j in self.gpus if j not in present]:  # completed: their GPUs are free again
            self.holder[self.gpus.pop(j)] = -1
        rem = state.remaining
        load = np.zeros(self.real.size)
        for j, g in self.gpus.items():
            load[g] += self._service(j, rem)
        queued = sorted((j for j in state.jobs.tolist() if j not in self.gpus),
                        key=lambda j: (self._service(j, rem), j))
        for j in queued:
            got = self._place(j, load)
            if got is not None:
                self.gpus[j] = got
                self.holder[got] = j
                load[got] += self._service(j, rem)
        out: Gangs = {}
        tasks: list[set[int]] = [set() for _ in range(self.w.n_servers)]
        size = self.w.model_size
        for j in sorted(self.gpus, key=lambda j: (self._service(j, rem), j)):
            servers = np.unique(self.gpus[j] // self.N)
            if self.contend and servers.size > 1 and size[j] > 0:
                if not adadual([tasks[s] for s in servers.tolist()], {k: float(size[k]) for k in self.gpus},
                               float(size[j]), 1.0, ETA_OVER_B):
                    continue  # the all-reduce waits: the gang sits this round out
                for s in servers.tolist():
                    tasks[s].add(j)
            out[j] = np.bincount(self.gpus[j] // self.N, minlength=self.w.n_servers).astype(np.int64)
        return out

