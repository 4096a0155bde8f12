"""The simulator of Section 7.1: policies run on an instance, plans replayed by Hare's executors.

Two verbs:

* :func:`simulate` runs one policy of :data:`hetopt.hare.policies.POLICIES` (or a policy object of
  its protocol, ``policy(inst) -> HareSolution``) on an instance: online policies decide at the
  arrival and release events, up-front ones plan at time 0.  With a task-switching overhead the
  policy's per-GPU sequences are then executed by :func:`replay`, its decisions kept.
* :func:`replay` executes any method's plan as Hare's executors do (each GPU runs its tasks in
  the received order; a task starts when its GPU is free and its round's barrier (7) is met),
  adding an optional task-switching overhead whenever a GPU switches between jobs.  With zero
  overhead the replay reproduces a semi-active plan exactly.

The workloads of Section 7.1 are built by :func:`hetopt.hare.generate_workload`.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..errors import ArgumentError, a_type
from ..inputs import check_flag, check_positive, takes_instance
from .checker import check_schedule
from .instance import HareInstance
from .policies import POLICIES
from .solution import HareSimulation, HareSolution, make_solution

__all__ = ["simulate", "replay", "HareReplay"]


@dataclass(frozen=True)
class HareReplay:
    """Outcome of :func:`replay`: the executed schedule and the metrics of Section 7.

    Attributes
    ----------
    executed : HareSolution
        The schedule as executed.
    weighted_jct : float
        ``sum_n w_n C_n`` of the executed schedule.
    jct : numpy.ndarray, shape (N,)
        ``C_n - a_n``.
    utilization : numpy.ndarray, shape (M,)
        Compute time of every GPU over the makespan.
    switches : int
        Task starts on a GPU whose previous task belonged to another job.
    switch_overhead : float
        Seconds added per switch.
    """

    executed: HareSolution
    weighted_jct: float
    jct: np.ndarray
    utilization: np.ndarray
    switches: int
    switch_overhead: float

    def jct_cdf(self) -> tuple[np.ndarray, np.ndarray]:
        """Sorted JCTs ``C_n - a_n`` and their empirical CDF values (Fig. 13).

        Returns
        -------
        (x, F) : numpy.ndarray
        """
        x = np.sort(self.jct)
        return x, np.arange(1, x.size + 1) / x.size


def replay(plan: HareSolution, *, switch_overhead: float = 0.0, keep_plan_times: bool = False) -> HareReplay:
    """Execute a plan's per-GPU task sequences, with an optional task-switching overhead.

    Parameters
    ----------
    plan : HareSolution
        Any method's schedule; only its GPU assignment and the order of starts on each
        GPU are used, as by Hare's executors.
    switch_overhead : float
        Seconds added before a task whose GPU last ran a task of another job (Table 3:
        a few ms for Hare, seconds without fast switching).  0 by default, as in the model.
    keep_plan_times : bool
        Never start a task before its planned start.  With it, the replay of any feasible
        plan without overhead is the plan itself (a gang scheduler's waits and held GPUs are
        kept) and an overhead only delays; without it, each GPU runs its sequence as early as
        it can (Hare's executors), which can also move a plan's tasks earlier.

    Returns
    -------
    HareReplay
        Weighted JCT, per-job JCT ``C_n - a_n``, GPU utilization (compute time over the
        makespan) and the number of switches.

    Raises
    ------
    ArgumentError
        ``plan`` is not a :class:`HareSolution`, or ``switch_overhead`` is negative or not finite.
    """
    if not isinstance(plan, HareSolution):
        raise ArgumentError(f"plan is {a_type(plan)}; expected a HareSolution (any Hare method's result)")
    check_positive(switch_overhead, "switch_overhead", allow_zero=True)
    check_flag(keep_plan_times, "keep_plan_times")
    inst = plan.instance
    L = inst.task_lists  # Python lists: the same numbers, a faster loop
    order = np.lexsort((inst.task_round, plan.start)).tolist()
    gpu, planned = plan.gpu.tolist(), plan.start.tolist()
    free = [0.0] * inst.n_gpus
    last_job = [-1] * inst.n_gpus
    round_end: dict[tuple[int, int], float] = {}
    start = np.zeros(inst.n_tasks)
    switches = 0
    for i in order:
        n, r, m = L.job[i], L.round[i], gpu[i]
        ready = L.arrival[n] if r == 0 else round_end[(n, r - 1)]
        gpu_ready = free[m]
        if last_job[m] not in (-1, n):
            switches += 1
            gpu_ready += switch_overhead
        s = max(ready, gpu_ready, planned[i] if keep_plan_times else -np.inf)
        start[i] = s
        free[m] = end = s + L.compute[n][m]
        last_job[m] = n
        round_end[(n, r)] = max(round_end.get((n, r), -np.inf), end + L.sync[n][m])
    executed = make_solution(inst, start, plan.gpu, method=f"simulated {plan.method}",
                             info={"switch_overhead": switch_overhead, "keep_plan_times": keep_plan_times})
    return HareReplay(executed=executed, weighted_jct=float(executed.objective),
                            jct=executed.completion - inst.arrival, utilization=executed.gpu_utilization(),
                            switches=switches, switch_overhead=switch_overhead)


def _run_policy(inst: HareInstance, policy: str | Callable[..., Any], options: Mapping[str, Any]) -> HareSolution:
    """The schedule a policy decides (a registry name, or a callable of the protocol, checked)."""
    if isinstance(policy, str):
        if policy not in POLICIES:
            raise ArgumentError(f"policy is {policy!r}; expected one of {', '.join(POLICIES)} or a callable "
                                "policy(inst) -> HareSolution")
        return _call(POLICIES[policy], policy, inst, options)
    if not callable(policy):
        raise ArgumentError(f"policy is {a_type(policy)}; expected a name of POLICIES "
                            f"({', '.join(POLICIES)}) or a callable policy(inst) -> HareSolution")
    t0 = time.perf_counter()
    name = str(getattr(policy, "__name__", "policy"))
    out = _call(policy, name, inst, options)
    if isinstance(out, HareSolution):
        check_schedule(inst, out).raise_if_invalid()
        return out
    if isinstance(out, tuple) and len(out) == 2:
        check_schedule(inst, out).raise_if_invalid()
        return make_solution(inst, out[0], out[1], method=name, wall_time=time.perf_counter() - t0)
    raise ArgumentError(f"policy {name} returned {a_type(out)}; expected a HareSolution or (start, gpu)")


def _call(func: Callable[..., Any], name: str, inst: HareInstance, options: Mapping[str, Any]) -> Any:
    """``func(inst, **options)``; options it does not take are an :class:`ArgumentError` naming them."""
    try:
        inspect.signature(func).bind(inst, **options)
    except TypeError:
        raise ArgumentError(f"policy {name} takes no options {sorted(options)}") from None
    except ValueError:  # a builtin without a signature: let the call decide
        pass
    return func(inst, **options)


@takes_instance(HareInstance)
def simulate(inst: HareInstance, policy: str | Callable[..., Any], *, options: Mapping[str, Any] | None = None,
             switch_overhead: float = 0.0) -> HareSimulation:
    """Run a scheduling policy on ``inst`` in the simulator of Section 7.1.

    Parameters
    ----------
    inst : HareInstance
        The instance (its arrivals are the trace).
    policy : str or callable
        A name of :data:`hetopt.hare.policies.POLICIES` (``"gavel_fifo"``, ``"srtf"``,
        ``"sched_homo"``, ``"sched_allox"``, and the up-front ``"srtf_round"``,
        ``"sched_homo_offline"``, ``"sched_allox_offline"``), or a policy object:
        ``policy(inst) -> HareSolution`` or ``-> (start, gpu)`` (checked by
        :func:`hetopt.hare.check_schedule`; a violation raises :class:`~hetopt.errors.ScheduleViolation`).
    options : mapping, optional
        Keyword options of the policy (``{"backfill": True}`` for ``srtf`` and ``sched_homo``).
    switch_overhead : float
        Seconds added whenever a GPU switches between jobs (Section 5.1): the policy's per-GPU
        sequences are executed by :func:`replay` with ``keep_plan_times=True`` (its decisions
        stand, the overhead only delays them).  0 (default): the policy's schedule as decided.

    Returns
    -------
    HareSimulation
        A :class:`~hetopt.hare.HareSolution` and a :class:`~hetopt.result.SimulationResult`:
        FEASIBLE, no bound; ``policy`` is the policy's name and ``method`` too
        (``"simulated <name>"`` with an overhead, ``info["switches"]`` then counts the switches).

    Raises
    ------
    ArgumentError
        An unknown policy name, an option the policy does not take, or a bad overhead.

    Examples
    --------
    >>> import hetopt
    >>> inst = hetopt.load_instance("hare2022_fig1")
    >>> hetopt.hare.simulate(inst, "gavel_fifo").method
    'gavel_fifo'
    """
    check_positive(switch_overhead, "switch_overhead", allow_zero=True)
    if options is not None and not isinstance(options, Mapping):
        raise ArgumentError(f"options is {a_type(options)}; expected a mapping of the policy's options or None")
    plan = _run_policy(inst, policy, dict(options or {}))
    name = policy if isinstance(policy, str) else str(getattr(policy, "__name__", "policy"))
    if switch_overhead == 0:
        return HareSimulation.of(plan, name)
    run = replay(plan, switch_overhead=switch_overhead, keep_plan_times=True)
    return HareSimulation.of(replace(run.executed, info={**run.executed.info, "switches": run.switches}), name)
