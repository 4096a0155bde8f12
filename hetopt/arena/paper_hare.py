"""Hare's Algorithm 1 (Chen et al.) as an arena policy: its relaxation ordering and GPU rule, at job level.

At every arrival the adapter poses Hare_Sched on the jobs present (:func:`~hetopt.arena.convert.to_hare`:
every GPU of the cluster is one of Hare's GPUs, a job is one training round of ``scale_factor`` tasks
that compute its remaining iterations at the gang's rate), orders the tasks by ``H_i`` (from the
relaxation Hare_Sched_RL, :func:`hetopt.hare.solve_relaxation`, or from Hare's scalable round-level
LP, :func:`hetopt.hare.lp_ordering.lp_ordering`) and list-schedules them with Algorithm 1's GPU rule
(:func:`hetopt.hare.listsched.list_schedule`).  The plan gives every job its GPUs and every GPU its
sequence of jobs; each round a job runs on its planned GPUs when no job of higher priority (the
least ``H_i`` of its tasks) planned on one of them is still present, so every GPU runs its jobs in
the plan's order (with one GPU per job: exactly Hare's sequence).  Under the gang rule ``"single"`` the
tasks of a job go to GPUs of the type its first task chose (the rule restricted to that type).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..errors import HetoptError, SizeLimitError
from .convert import gpu_servers, to_hare
from .protocol import Gangs, Options, RoundState
from .workload import Workload

__all__ = ["HareAlgorithm1", "HareAlgorithm1LP", "job_rule", "GPU_RULES", "REPLANS"]

#: Hare's GPU rules (line 12 as printed; the reading of Theorem 4's proof; the heterogeneity-aware variant).
GPU_RULES = ("earliest_available", "earliest_start_fastest", "earliest_finish")
#: When the plan is remade: at every arrival (the adapter's reading of Hare's online use), or at every arrival
#: and completion (so no GPU idles between replans while a job waits for its planned GPUs).
REPLANS = ("arrival", "event")


def job_rule(rule: str, allowed: Any) -> Any:
    """Hare's GPU rule ``rule`` as a user rule of :func:`~hetopt.hare.listsched.list_schedule`, with a job-level mask.

    ``allowed(inst, i, chosen)`` gives the GPUs task ``i`` may use given the GPUs its job's earlier tasks
    chose (a bool array); among them the rule picks as :func:`~hetopt.hare.listsched.list_schedule` does:
    ``"earliest_available"`` the least ``phi_m`` (ties: lowest index), ``"earliest_start_fastest"`` the
    earliest start, then the least ``T^c``, then the lowest index, ``"earliest_finish"`` the least
    ``max(t_i, phi_m) + T^c``.
    """
    chosen: dict[int, list[int]] = {}

    def pick(inst: Any, i: int, t_i: float, phi: np.ndarray) -> int:
        n = int(inst.task_job[i])
        ok = allowed(inst, i, chosen.get(n, []))
        idx = np.flatnonzero(ok)
        tc = inst.task_compute[i, idx]
        start = np.maximum(phi[idx], t_i)
        if rule == "earliest_available":
            m = int(idx[np.argmin(phi[idx])])
        elif rule == "earliest_start_fastest":
            m = int(idx[np.lexsort((idx, tc, start))[0]])
        else:
            m = int(idx[np.argmin(start + tc)])
        chosen.setdefault(n, []).append(m)
        return m

    pick.__name__ = rule
    return pick


class HareAlgorithm1:
    """Hare's Algorithm 1 at job level, replanned at every arrival (the module docstring).

    Parameters
    ----------
    gpu_rule : {"earliest_available", "earliest_start_fastest", "earliest_finish"}
        Line 12 as printed (default), the reading of Theorem 4's proof, or the heterogeneity-aware variant.
    time_limit : float, optional
        Seconds for each relaxation; without one, a plan of more than Hare's ``MAX_RELAXATION_TASKS`` tasks
        is refused (SizeLimitError), as :func:`hetopt.hare.schedule` refuses it.
    replan : {"arrival", "event"}
        Remake the plan at every arrival (default), or at every arrival and completion (:data:`REPLANS`).
    """

    mode: ClassVar[str] = "placement"
    name: ClassVar[str] = "hare"
    ordering: ClassVar[str] = "relaxation"
    description: ClassVar[str] = ("Hare's Algorithm 1 at job level: jobs planned by H_i from the relaxation "
                                  "Hare_Sched_RL and its GPU rule, replanned at every arrival")
    source: ClassVar[str] = "hare"
    keeps: ClassVar[str] = ("hetopt.hare's Algorithm 1 at every arrival on the jobs present (every GPU one of Hare's "
                            "GPUs, arrivals at the replan): x-hat from Hare_Sched_RL solved exactly (HiGHS), "
                            "H_i = x-hat_i + max_m T^c/2, list scheduling in H order with the GPU rule (line 12 as "
                            "printed by default); the arena runs each GPU's jobs in the plan's order")
    drops: ClassVar[str] = ("Hare's task-level rounds: a job is one round of scale_factor tasks computing its "
                            "remaining iterations, and its tasks run together as a gang (Hare's tasks of a round start "
                            "independently); synchronization times are 0 (the arena's throughputs include "
                            "communication); plan start times are not kept (a GPU runs its next job at the next "
                            "round); under the gang rule 'single' a job's tasks keep to one type; the relaxation is "
                            "exact only up to 18 tasks present: beyond, the policy refuses (hare_lp scales)")

    def __init__(self, gpu_rule: str = "earliest_available", time_limit: float | None = None, replan: str = "arrival"):
        from ..inputs import check_choice, check_time_limit

        self.gpu_rule = check_choice(gpu_rule, "gpu_rule", GPU_RULES)
        self.time_limit = check_time_limit(time_limit)
        self.replan = check_choice(replan, "replan", REPLANS)

    def reset(self, workload: Workload, options: Options, *, seed: int) -> None:
        """Every GPU one of Hare's GPUs (servers in order); no plan yet."""
        w = workload
        self.w = w
        self.gpu_server = gpu_servers(w)
        self.gpu_type = w.server_type[self.gpu_server]
        self.single = options.gang_rule == "single"
        self.present: set[int] = set()
        self.gpus: dict[int, np.ndarray] = {}
        self.rank: dict[int, int] = {}
        self.plans = 0
        if self.ordering == "relaxation" and self.time_limit is None:
            self.refuse_early(options)

    def refuse_early(self, options: Options) -> None:
        """SizeLimitError when some plan will surely pose more than ``MAX_RELAXATION_TASKS`` tasks.

        A plan is made at the call that first sees an arrival; there the jobs surely present
        (:func:`~hetopt.arena.presence.presence_bounds`, weighted by their tasks, ``scale_factor``) bound
        the plan's tasks from below.
        """
        from ..hare.algorithm1 import MAX_RELAXATION_TASKS
        from .presence import presence_bounds

        s, tasks, _ = presence_bounds(self.w, options.round_length, copies=False, weights=self.w.scale_factor)
        over = np.flatnonzero(tasks > MAX_RELAXATION_TASKS)
        if over.size:
            k = int(over[0])
            raise SizeLimitError(f"arena policy {self.name!r}: the workload holds jobs of at least {tasks[k]:.0f} tasks "
                                 f"at the plan made for the arrival at {s[k]:.0f} s (from the arrivals and each job's "
                                 "shortest time on its fastest type), more than Hare's relaxation without time_limit "
                                 f"handles, MAX_RELAXATION_TASKS = {MAX_RELAXATION_TASKS}; refused before the first "
                                 "round: pass time_limit=... or use hare_lp (Hare's scalable round-level LP ordering)")

    def _allowed(self, jobs: np.ndarray) -> Any:
        w, types = self.w, self.gpu_type

        def allowed(inst: Any, i: int, chosen: list[int]) -> np.ndarray:
            j = int(jobs[int(inst.task_job[i])])
            ok = w.throughput[j, types] > 0
            if self.single:
                ok &= w.capacity[types] >= w.scale_factor[j]  # a type that holds the gang
                if chosen:
                    ok &= types == types[chosen[0]]
            ok[chosen] = False  # a task per GPU
            if not ok.any():
                raise HetoptError(f"arena policy {self.name!r}: job {j} ({w.scale_factor[j]} GPUs) fits on no GPU type "
                                  "it can run on; the gang rule 'single' runs a gang on one type")
            return ok

        return allowed

    def order(self, inst: Any) -> np.ndarray:
        """``H`` of every task: from the relaxation Hare_Sched_RL."""
        from ..hare.algorithm1 import MAX_RELAXATION_TASKS
        from ..hare.relaxation import solve_relaxation

        if self.time_limit is None and inst.n_tasks > MAX_RELAXATION_TASKS:
            raise SizeLimitError(f"{inst.n_tasks} tasks present; Hare's relaxation without time_limit handles at most "
                                 f"MAX_RELAXATION_TASKS = {MAX_RELAXATION_TASKS}: pass time_limit=... or use hare_lp "
                                 "(Hare's scalable round-level LP ordering)")
        return np.asarray(solve_relaxation(inst, time_limit=self.time_limit).H)

    def plan(self, state: RoundState) -> None:
        """Algorithm 1 on the jobs present with their remaining iterations: every job's GPUs and priority."""
        from ..hare.listsched import list_schedule

        jobs = state.jobs
        inst = to_hare(self.w, jobs, state.remaining[jobs])
        try:
            H = self.order(inst)
        except SizeLimitError as exc:
            raise SizeLimitError(f"arena policy {self.name!r} at {state.now:.0f} s: {exc}") from None
        _, gpu = list_schedule(inst, H, job_rule(self.gpu_rule, self._allowed(jobs)))
        first = np.full(jobs.size, np.inf)
        np.minimum.at(first, inst.task_job, H)
        self.gpus = {int(j): np.sort(gpu[inst.task_job == n]) for n, j in enumerate(jobs.tolist())}
        self.rank = {int(jobs[n]): k for k, n in enumerate(np.lexsort((np.arange(jobs.size), first)).tolist())}
        self.plans += 1

    def __call__(self, state: RoundState) -> Gangs:
        """The plan's next job on every GPU (replanned when a job has arrived)."""
        present = set(state.jobs.tolist())
        if present - self.present or (self.replan == "event" and present and present != self.present):
            self.plan(state)
        self.present = present
        held = np.full(self.gpu_server.size, -1, dtype=np.int64)
        out: Gangs = {}
        for j in sorted(present, key=self.rank.__getitem__):
            g = self.gpus[j]
            if np.all(held[g] < 0):  # the first job of its plan on every GPU it uses
                out[j] = np.bincount(self.gpu_server[g], minlength=self.w.n_servers).astype(np.int64)
            held[g] = j  # a job that waits still keeps its GPUs from jobs after it in the plan
        return out


class HareAlgorithm1LP(HareAlgorithm1):
    """Hare's Algorithm 1 at job level with ``x-hat`` from Hare's scalable round-level LP (``algorithm1_lp``)."""

    name = "hare_lp"
    ordering = "lp"
    description = ("Hare's Algorithm 1 at job level with H_i from Hare's round-level LP (a documented substitute "
                   "for the relaxation), replanned at every arrival")
    keeps = HareAlgorithm1.keeps.replace("x-hat from Hare_Sched_RL solved exactly (HiGHS)",
                                         "x-hat from hetopt.hare's round-level LP with Queyranne cuts (algorithm1_lp)")
    drops = HareAlgorithm1.drops.split("; the relaxation is exact")[0] + (
        "; the LP's x-hat replaces the relaxation's (Theorem 4 does not cover it)")

    def order(self, inst: Any) -> np.ndarray:
        """``H`` of every task: from the round-level LP."""
        from ..hare.lp_ordering import lp_ordering

        return np.asarray(lp_ordering(inst).H)
