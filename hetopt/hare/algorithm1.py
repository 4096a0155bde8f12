"""Algorithm 1 of Hare (Chen et al., HPDC 2022): list scheduling by middle completion times.

Lines 1-18 as printed: sort tasks by ``H_i = max_m (x-hat_i + T^c_{i,m}/2)`` (line 4);
for each task in that order, its available time is its job's arrival (round 0) or the
latest synchronization end of the previous round (lines 7-11); it goes to the GPU with
the earliest available time ``phi_m`` (line 12), starts at ``max(t_i, phi_{m*})``
(line 13), and occupies the GPU for its compute time only (line 16): synchronization
overlaps the next task on that GPU.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from ..errors import ArgumentError, SizeLimitError, a_type
from ..inputs import check_choice, check_flag, check_threads, check_time_limit, takes_instance
from .instance import HareInstance
from .listsched import GPU_RULES, GpuRule, list_schedule
from .lp_ordering import lp_ordering
from .model import FORMS
from .relaxation import HareRelaxation, solve_relaxation
from .solution import HareSolution, make_solution

__all__ = ["schedule", "ORDERINGS", "RULE_METHOD", "MAX_RELAXATION_TASKS"]

#: Where Algorithm 1's ``x-hat`` can come from.
ORDERINGS = ("relaxation", "lp")
#: gpu_rule -> method name of the resulting schedule.
RULE_METHOD = {"earliest_available": "algorithm1", "earliest_start_fastest": "algorithm1_esf",
               "earliest_finish": "algorithm1_ef"}


#: Largest task count :func:`schedule` accepts with the exact relaxation and no time limit
#: (measured: 12 tasks 1.8 s, 16 tasks 10 s, 25 tasks > 230 s on one core).
MAX_RELAXATION_TASKS = 18


@takes_instance(HareInstance)
def schedule(inst: HareInstance, relaxation: HareRelaxation | None = None, *, ordering: str = "relaxation",
             form: str = "linear", subsets: bool = False, time_limit: float | None = None,
             threads: int | None = 1, gpu_rule: str | GpuRule = "earliest_available") -> HareSolution:
    """Algorithm 1 of Hare: order tasks by ``H_i`` from a relaxation, then list-schedule.

    Parameters
    ----------
    inst : HareInstance
        The instance.
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
        heterogeneity-aware variant; see :func:`hetopt.hare.listsched.list_schedule`.  Reported as methods
        ``"algorithm1"``, ``"algorithm1_esf"`` and ``"algorithm1_ef"``; a callable (a user's
        rule, see :func:`hetopt.hare.listsched.list_schedule`) is reported under its ``__name__``.

    Returns
    -------
    HareSolution
        Status FEASIBLE (a heuristic: never OPTIMAL); ``ordering`` records the source of
        ``x-hat``; ``bound`` is the relaxation's (or LP's) proven lower bound on the optimum,
        found on the way (None when it was not proven), and ``gap`` the schedule's proven gap
        against it; ``info["relaxation_status"]``.

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
    check_choice(ordering, "ordering", ORDERINGS)
    if not callable(gpu_rule):
        check_choice(gpu_rule, "gpu_rule", GPU_RULES)
    time_limit = check_time_limit(time_limit)
    check_threads(threads)
    check_choice(form, "form", FORMS)
    check_flag(subsets, "subsets")
    if relaxation is not None and not isinstance(relaxation, HareRelaxation):
        raise ArgumentError(f"relaxation is {a_type(relaxation)}; expected a HareRelaxation "
                            "(hetopt.hare.solve_relaxation) or None")
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
    else:  # pragma: no cover - ordering was checked above
        raise ArgumentError(f"ordering is {ordering!r}; expected one of {ORDERINGS}")
    start, gpu = list_schedule(inst, H, gpu_rule)
    info["relaxation_status"] = st.value
    method = str(getattr(gpu_rule, "__name__", "user_rule")) if callable(gpu_rule) else RULE_METHOD[gpu_rule]
    return make_solution(inst, start, gpu, method=method, wall_time=time.perf_counter() - t0, solver=method,
                         ordering=source, bound=lb, info=info | {"H": np.asarray(H)},
                         message=f"x-hat from {source} ({st.value})")
