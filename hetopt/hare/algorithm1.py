"""Algorithm 1 of Hare (Chen et al., HPDC 2022): list scheduling by middle completion times.

Lines 1-18 as printed: sort tasks by ``H_i = max_m (x-hat_i + T^c_{i,m}/2)`` (line 4);
for each task in that order, its available time is its job's arrival (round 0) or the
latest synchronization end of the previous round (lines 7-11); it goes to the GPU with
the earliest available time ``phi_m`` (line 12), starts at ``max(t_i, phi_{m*})``
(line 13), and occupies the GPU for its compute time only (line 16): synchronization
overlaps the next task on that GPU.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import replace

import numpy as np

from ..errors import HetoptError, SizeLimitError
from .instance import HareInstance
from .lp_ordering import lp_ordering
from .relaxation import HareRelaxation, solve_relaxation
from .solution import HareSolution, make_solution

__all__ = ["list_schedule", "schedule", "ORDERINGS", "GPU_RULES", "RULE_METHOD"]

#: Where Algorithm 1's ``x-hat`` can come from.
ORDERINGS = ("relaxation", "lp")
#: GPU choice of line 12: as printed; "earliest start, fastest among ties" (the reading that the
#: proof of Theorem 4, step (21), uses); or the heterogeneity-aware variant (not the paper's).
GPU_RULES = ("earliest_available", "earliest_start_fastest", "earliest_finish")
#: gpu_rule -> method name of the resulting schedule.
RULE_METHOD = {"earliest_available": "algorithm1", "earliest_start_fastest": "algorithm1_esf",
               "earliest_finish": "algorithm1_ef"}


def list_schedule(inst: HareInstance, priority: np.ndarray, gpu_rule: str = "earliest_available",
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Lines 4-17 of Algorithm 1 for a given priority ``H`` (smaller first).

    Ties are broken by task index (a stable sort), ties of ``phi_m`` by GPU index.

    Parameters
    ----------
    inst : HareInstance
    priority : numpy.ndarray, shape (|D|,)
    gpu_rule : {"earliest_available", "earliest_start_fastest", "earliest_finish"} or callable
        A callable is a user's own GPU choice (the plug-in protocol of the card):
        ``gpu_rule(inst, i, t_i, phi) -> m`` with ``t_i`` the task's available time and ``phi``
        a copy of the GPUs' available times (compute ends, line 16); the task starts at
        ``max(t_i, phi[m])``.  ``"earliest_available"`` is line 12 as printed, ``m* = argmin_m phi_m``, which
        ignores the GPU's speed.  ``"earliest_start_fastest"`` reads line 12 as the proof of
        Theorem 4 uses it ("schedules tasks on machines with the earliest start time", (21)):
        ``m*`` minimizes the start ``max(t_i, phi_m)``, and among GPUs with the same start the
        one with the smallest ``T^c_{i,m}`` is taken (GPUs idle before ``t_i`` all tie).
        ``"earliest_finish"`` is a variant that is *not* the paper's:
        ``m* = argmin_m max(t_i, phi_m) + T^c_{i,m}`` (heterogeneity-aware).

    Returns
    -------
    start, gpu : numpy.ndarray
        ``x-tilde`` and the GPU of every task.

    Raises
    ------
    HetoptError
        If the order puts a task before a task of its job's previous round (line 10 would
        read start times that are not yet decided).  Orders from (7)-feasible ``x-hat`` never
        do, since then ``H`` strictly increases from round to round.
    """
    priority = np.asarray(priority, dtype=float)
    if priority.shape != (inst.n_tasks,) or not np.all(np.isfinite(priority)):
        raise HetoptError(f"priority must be {inst.n_tasks} finite numbers")
    pi = np.argsort(priority, kind="stable")
    tc, ts = inst.task_compute, inst.task_sync
    job, rnd = inst.task_job, inst.task_round
    k_round = inst.tasks_per_round
    start = np.zeros(inst.n_tasks)
    gpu = np.zeros(inst.n_tasks, dtype=int)
    user_rule = callable(gpu_rule)
    if not user_rule and gpu_rule not in GPU_RULES:
        raise ValueError(f"gpu_rule is {gpu_rule!r}; expected one of {GPU_RULES} or a callable")
    aware = gpu_rule != "earliest_available"
    phi = [(0.0, g) for g in range(inst.n_gpus)]  # line 2: phi_m = 0, a heap (phi_m, m)
    phi_arr = np.zeros(inst.n_gpus)
    round_end = {}
    scheduled = {}
    for i in pi:  # line 5
        n, r = int(job[i]), int(rnd[i])  # line 6
        if r == 0:
            t_i = float(inst.arrival[n])  # line 8
        else:
            if scheduled.get((n, r - 1), 0) < k_round[n]:
                raise HetoptError(f"ordering puts task {inst.task_label(i)} before all of round {r - 1} of its job")
            t_i = round_end[(n, r - 1)]  # line 10
        if user_rule:
            m = gpu_rule(inst, int(i), float(t_i), phi_arr.copy())
            if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or not 0 <= m < inst.n_gpus:
                raise HetoptError(f"gpu_rule returned {m!r} for task {inst.task_label(i)}; expected a GPU index "
                                  f"in [0, {inst.n_gpus - 1}]")
            m = int(m)
            x = max(t_i, phi_arr[m])
        elif gpu_rule == "earliest_finish":
            m = int(np.argmin(np.maximum(phi_arr, t_i) + tc[i]))
            x = max(t_i, phi_arr[m])
        elif aware:  # earliest start, fastest among ties, then lowest index
            st = np.maximum(phi_arr, t_i)
            m = int(np.lexsort((np.arange(inst.n_gpus), tc[i], st))[0])
            x = st[m]
        else:
            phi_m, m = heapq.heappop(phi)  # line 12: m* = argmin phi_m
            x = max(t_i, phi_m)  # line 13
        start[i], gpu[i] = x, m  # line 14
        end_c = x + tc[i, m]  # line 15
        if aware:
            phi_arr[m] = end_c
        else:
            heapq.heappush(phi, (end_c, m))  # line 16: phi_{m*} = x + T^c
        round_end[(n, r)] = max(round_end.get((n, r), -np.inf), end_c + ts[i, m])
        scheduled[(n, r)] = scheduled.get((n, r), 0) + 1
    return start, gpu


#: Largest task count :func:`schedule` accepts with the exact relaxation and no time limit
#: (measured: 12 tasks 1.8 s, 16 tasks 10 s, 25 tasks > 230 s on one core).
MAX_RELAXATION_TASKS = 18


def schedule(inst: HareInstance, relaxation: HareRelaxation | None = None, *, ordering: str = "relaxation",
             form: str = "linear", subsets: bool = False, time_limit: float | None = None,
             threads: int | None = 1, gpu_rule: str = "earliest_available") -> HareSolution:
    """Algorithm 1 of Hare: order tasks by ``H_i`` from a relaxation, then list-schedule.

    Parameters
    ----------
    inst : HareInstance
    relaxation : HareRelaxation, optional
        A solved Hare_Sched_RL (from :func:`hetopt.hare.solve_relaxation`); solved here
        when not given and ``ordering="relaxation"``.
    ordering : {"relaxation", "lp"}
        ``"relaxation"``: ``x-hat`` from Hare_Sched_RL, as in the paper (line 3).
        ``"lp"``: ``x-hat`` from the scalable round-level LP of
        :func:`hetopt.hare.lp_ordering.lp_ordering`, for instances too large for the
        relaxation (a documented substitute; Theorem 4 does not cover it).
    form, subsets, time_limit, threads
        Passed to :func:`hetopt.hare.solve_relaxation` when it is solved here.
    gpu_rule : {"earliest_available", "earliest_start_fastest", "earliest_finish"} or callable
        Line 12 as printed (default), the reading of the Theorem 4 proof, or the
        heterogeneity-aware variant; see :func:`list_schedule`.  Reported as methods
        ``"algorithm1"``, ``"algorithm1_esf"`` and ``"algorithm1_ef"``; a callable (a user's
        rule, see :func:`list_schedule`) is reported under its ``__name__``.

    Returns
    -------
    HareSolution
        Status FEASIBLE, ``bound`` None (a heuristic); ``ordering`` records the source of
        ``x-hat``; ``lower_bound`` is the relaxation's (or LP's) proven lower bound on the
        optimum, or None when it was not proven; ``info["relaxation_status"]``.

    References
    ----------
    .. [1] F. Chen et al., "Hare", HPDC 2022, Algorithm 1 and Section 5.2.

    Examples
    --------
    >>> from hetopt.hare import HareInstance, schedule
    >>> inst = HareInstance(arrival=[0, 0], weight=[1, 1], rounds=[1, 1], tasks_per_round=[1, 1],
    ...                     compute_time=[[2.0], [1.0]], sync_time=[[0.0], [0.0]])
    >>> schedule(inst).objective  # the short job first: C = 1 and 3
    4.0
    """
    from ..inputs import check_instance

    check_instance(inst, HareInstance, "inst")
    t0 = time.perf_counter()
    if relaxation is not None:
        source = "relaxation (subsets)" if relaxation.subsets else "relaxation"
        H, lb, st = relaxation.H, relaxation.bound, relaxation.status
        info = {"relaxation_objective": relaxation.objective, "relaxation_form": relaxation.form}
    elif ordering == "relaxation":
        if time_limit is None and inst.n_tasks > MAX_RELAXATION_TASKS:
            raise SizeLimitError(
                f"the instance has {inst.n_tasks} tasks; Algorithm 1 with the exact relaxation and no time_limit "
                f"handles at most MAX_RELAXATION_TASKS = {MAX_RELAXATION_TASKS} (about a minute; 25 tasks took "
                f"over 230 s): pass time_limit=..., or ordering='lp' for the scalable round-level LP")
        relaxation = solve_relaxation(inst, form, subsets=subsets, time_limit=time_limit, threads=threads)
        sol = schedule(inst, relaxation, gpu_rule=gpu_rule)
        return replace(sol, wall_time=time.perf_counter() - t0)
    elif ordering == "lp":
        lp = lp_ordering(inst)
        source, H, lb, st = "lp", lp.H, lp.bound, lp.status
        info = {"lp_objective": lp.objective, "lp_cuts": lp.cuts, "lp_iterations": lp.iterations}
    else:
        raise ValueError(f"ordering is {ordering!r}; expected one of {ORDERINGS}")
    start, gpu = list_schedule(inst, H, gpu_rule)
    info["relaxation_status"] = st.value
    method = getattr(gpu_rule, "__name__", "user_rule") if callable(gpu_rule) else RULE_METHOD[gpu_rule]
    return make_solution(inst, start, gpu, method=method, wall_time=time.perf_counter() - t0, solver=method,
                         ordering=source, lower_bound=lb, info=info | {"H": np.asarray(H)},
                         message=f"x-hat from {source} ({st.value})")
