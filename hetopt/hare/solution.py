"""The result type of every Hare method: a task-level schedule with its metrics.

A schedule assigns every task ``i`` a GPU (``y_{i,m} = 1``) and a start time ``x_i``; from
these the compute end ``x_i + T^c_{i,m}``, the synchronization end
``x_i + T^c_{i,m} + T^s_{i,m}``, the job completion times ``C_n`` (6) and the objective
``sum_n w_n C_n`` are recomputed here, never taken from a solver.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Self

import numpy as np

from ..certify import Status, relative_gap
from ..errors import ArgumentError
from ..inputs import check_array, check_result_fields, check_text
from ..result import SimulationResult, Solution, job_times
from .instance import HareInstance, alpha, theorem4_bound

__all__ = ["HareSolution", "HareSimulation", "make_solution", "TASK_COLUMNS"]

#: Columns of :attr:`HareSolution.tasks` and of :meth:`HareSolution.task_table`.
TASK_COLUMNS = ("job", "round", "task", "gpu", "start", "compute_end", "sync_end")


@dataclass(frozen=True, kw_only=True)
class HareSolution(Solution):
    """A Hare schedule and its metrics (a :class:`~hetopt.result.Solution`).

    Attributes
    ----------
    objective : float
        Total weighted job completion time ``sum_n w_n C_n``, recomputed from the schedule.
    completion : numpy.ndarray, shape (N,)
        ``C_n``, the latest synchronization end of job ``n``'s tasks.
    start : numpy.ndarray, shape (|D|,)
        ``x_i``, start time of every task.
    gpu : numpy.ndarray of int, shape (|D|,)
        GPU of every task (the ``m`` with ``y_{i,m} = 1``).
    compute_end, sync_end : numpy.ndarray, shape (|D|,)
        ``x_i + T^c_{i,m}`` and ``x_i + T^c_{i,m} + T^s_{i,m}``.
    instance : HareInstance
    method : str
        The scheduler that produced the schedule ("exact", "algorithm1", "gavel_fifo", ...).
    ordering : str
        For Algorithm 1, where its ordering came from ("relaxation", "lp", "given");
        empty otherwise.
    info : dict
        Method-specific extras (relaxation value, alpha, node counts, ...).
    """

    objective: float = float("nan")
    completion: np.ndarray
    start: np.ndarray
    gpu: np.ndarray
    compute_end: np.ndarray
    sync_end: np.ndarray
    instance: HareInstance
    method: str = ""
    ordering: str = ""
    info: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The fields as JSON-ready values, the instance as its own :meth:`HareInstance.to_dict`.

        Returns
        -------
        dict
            ``HareSolution.from_dict`` of it rebuilds the solution.
        """
        out = super().to_dict()
        out["instance"] = self.instance.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The solution whose :meth:`to_dict` is ``data`` (arrays as in the schedule, read-only).

        Parameters
        ----------
        data : mapping
            The output of :meth:`to_dict` (after a JSON round trip).

        Returns
        -------
        HareSolution
        """
        sol = super().from_dict(data)
        for name in ("completion", "start", "gpu", "compute_end", "sync_end"):
            a = np.asarray(getattr(sol, name), dtype=int if name == "gpu" else float)
            a.setflags(write=False)
            object.__setattr__(sol, name, a)
        return sol

    def summary(self) -> dict[str, Any]:
        """The view ``hetopt solve`` prints: the common fields, the schedule's metrics and its tasks.

        Returns
        -------
        dict
            JSON-ready: method, status, objective, bound, gap, ordering, makespan,
            wall time, Lemma 3's ``alpha`` and Theorem 4's ``alpha(2+alpha)``, the completion
            times and the task table.
        """
        return {**super().summary(), "method": self.method, "ordering": self.ordering, "makespan": self.makespan, "alpha": alpha(self.instance),
                "alpha_bound": theorem4_bound(self.instance), "completion": self.completion.tolist(),
                "tasks": self.tasks}

    @property
    def weighted_jct(self) -> float:
        """Alias of ``objective``: total weighted job completion time."""
        return float(self.objective)

    @property
    def makespan(self) -> float:
        """The latest synchronization end of any task."""
        return float(self.sync_end.max())

    @property
    def tasks(self) -> list[dict[str, Any]]:
        """One record per task: job, round, task, gpu, start, compute_end, sync_end."""
        inst = self.instance
        return [
            {"job": int(inst.task_job[i]), "round": int(inst.task_round[i]), "task": int(inst.task_index[i]),
             "gpu": int(self.gpu[i]), "start": float(self.start[i]), "compute_end": float(self.compute_end[i]),
             "sync_end": float(self.sync_end[i])}
            for i in range(inst.n_tasks)
        ]

    def task_table(self) -> np.ndarray:
        """The task records as a structured numpy array (``numpy.savetxt``/CSV, Gantt charts)."""
        inst = self.instance
        dtype = [("job", int), ("round", int), ("task", int), ("gpu", int),
                 ("start", float), ("compute_end", float), ("sync_end", float)]
        out = np.empty(inst.n_tasks, dtype=dtype)
        for name, col in zip(TASK_COLUMNS, (inst.task_job, inst.task_round, inst.task_index, self.gpu,
                                            self.start, self.compute_end, self.sync_end), strict=True):
            out[name] = col
        return out

    def to_csv(self, path: str | None = None) -> str:
        """The task table as CSV text (header :data:`TASK_COLUMNS`); written to ``path`` if given."""
        lines = [",".join(TASK_COLUMNS)]
        for r in self.tasks:
            lines.append(",".join(repr(r[c]) if isinstance(r[c], float) else str(r[c]) for c in TASK_COLUMNS))
        text = "\n".join(lines) + "\n"
        if path is not None:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        return text

    def gpu_utilization(self) -> np.ndarray:
        """Busy (compute) time of every GPU divided by the makespan, shape (M,)."""
        busy = np.bincount(self.gpu, weights=self.compute_end - self.start, minlength=self.instance.n_gpus)
        return busy / max(self.makespan, 1e-300)


@dataclass(frozen=True, kw_only=True)
class HareSimulation(HareSolution, SimulationResult):
    """A schedule of :func:`~hetopt.hare.simulate`: a solution that is a simulation result too.

    A :class:`HareSolution` and a :class:`~hetopt.result.SimulationResult`.  Besides the schedule
    and its metrics: ``policy`` (the policy's name, also ``method``), ``completion`` (``C_n``),
    ``jct`` (``C_n - a_n``), ``average_jct`` (their mean) and ``makespan`` (the latest
    synchronization end, as :attr:`HareSolution.makespan`), in the unit of the instance's task
    times.
    """

    makespan: float = math.nan

    @classmethod
    def of(cls, sol: HareSolution, policy: str) -> HareSimulation:
        """The simulation of ``policy`` whose schedule is ``sol`` (every field kept, the job times added)."""
        times = job_times(sol.completion, sol.instance.arrival)
        return cls(**{f.name: getattr(sol, f.name) for f in fields(HareSolution)}, policy=policy, jct=times["jct"],
                   average_jct=times["average_jct"], makespan=sol.makespan)


def make_solution(
    inst: HareInstance,
    start: np.ndarray,
    gpu: np.ndarray,
    *,
    method: str,
    status: Status = Status.FEASIBLE,
    bound: float | None = None,
    wall_time: float = 0.0,
    solver: str | None = None,
    message: str = "",
    ordering: str = "",
    info: dict[str, Any] | None = None,
) -> HareSolution:
    """Build a :class:`HareSolution` from start times and GPUs, recomputing every metric."""
    if not isinstance(inst, HareInstance):
        raise ArgumentError(f"inst is {inst!r:.60}; expected a HareInstance")
    start = check_array(start, "start", (inst.n_tasks,)).copy()
    gpu = check_array(gpu, "gpu", (inst.n_tasks,), integer=True, minimum=0).copy()
    if (gpu >= inst.n_gpus).any():
        raise ArgumentError(f"gpu has an index >= {inst.n_gpus} (the instance's GPUs)")
    check_text(method, "method")
    check_result_fields(status, bound, wall_time, solver or method, message, {} if info is None else info)
    check_text(ordering, "ordering")
    if solver is not None:
        check_text(solver, "solver")
    idx = np.arange(inst.n_tasks)
    compute_end = start + inst.task_compute[idx, gpu]
    sync_end = compute_end + inst.task_sync[idx, gpu]
    completion = np.full(inst.n_jobs, -np.inf)
    np.maximum.at(completion, inst.task_job, sync_end)
    objective = float(inst.weight @ completion)
    for a in (start, gpu, compute_end, sync_end, completion):
        a.setflags(write=False)
    return HareSolution(
        status=status, objective=objective, bound=bound, gap=relative_gap(objective, bound), wall_time=wall_time,
        solver=solver or method, message=message, completion=completion, start=start, gpu=gpu,
        compute_end=compute_end, sync_end=sync_end, instance=inst, method=method, ordering=ordering,
        info=dict(info or {}),
    )
