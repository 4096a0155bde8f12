"""The Hare_Sched instance: jobs of synchronized rounds of parallel tasks on heterogeneous GPUs.

An instance of Chen et al. (HPDC 2022), Section 5.1: a set N of training jobs on a set M of
heterogeneous GPUs.  Job ``n`` arrives at ``a_n`` with weight ``w_n`` and runs ``|R_n|``
training rounds of ``|D_r|`` parallel tasks; a task of job ``n`` computes for
``T^c_{n,m}`` and synchronizes for ``T^s_{n,m}`` on GPU ``m`` (the same for every task and
round of the job, as the paper assumes after its Fig. 11).

References
----------
.. [1] F. Chen, P. Li, C. Wu, S. Guo, "Hare: Exploiting Inter-job and Intra-job Parallelism
   of Distributed Machine Learning on Heterogeneous GPUs", HPDC 2022,
   doi:10.1145/3502181.3531462.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import ClassVar, NamedTuple, cast

import numpy as np

from ..inputs import takes_instance
from ..schema import Field, FieldsMixin

__all__ = ["HareInstance", "KIND", "SCHEMA_VERSION", "alpha", "theorem4_bound"]

class TaskLists(NamedTuple):
    """An instance's arrays as Python lists, for the schedulers' per-task loops.

    The same numbers: a float64's list element is the same double, and Python's float arithmetic is the same
    IEEE arithmetic as numpy's.
    """

    job: list[int]
    round: list[int]
    per_round: list[int]
    arrival: list[float]
    compute: list[list[float]]
    sync: list[list[float]]


#: The JSON "kind" of a Hare instance.
KIND = "hare"
#: Version of the JSON layout written by :meth:`HareInstance.to_json`.
SCHEMA_VERSION = 1


@dataclass(frozen=True, eq=False)
class HareInstance(FieldsMixin):
    """Jobs of synchronized training rounds on heterogeneous GPUs (Hare_Sched, Section 5.1).

    Parameters
    ----------
    arrival : array_like, shape (N,)
        ``a_n >= 0``, arrival time of job ``n``.
    weight : array_like, shape (N,)
        ``w_n > 0``, weight of job ``n`` in the objective ``sum_n w_n C_n``.
    rounds : array_like of int, shape (N,)
        ``|R_n| >= 1``, number of training rounds of job ``n``.
    tasks_per_round : array_like of int, shape (N,)
        ``|D_r| >= 1``, number of parallel tasks in every round of job ``n``.
    compute_time : array_like, shape (N, M)
        ``T^c_{n,m} > 0``, training (compute) time of one task of job ``n`` on GPU ``m``.
    sync_time : array_like, shape (N, M)
        ``T^s_{n,m} >= 0``, synchronization time of one task of job ``n`` on GPU ``m``
        (zero allowed: the paper's Fig. 1 ignores communication).
    gpu_names, job_names : sequence of str, optional

    Raises
    ------
    InstanceError
        Naming the field, the index and the expected form.

    Notes
    -----
    Tasks are numbered job by job, round by round (:attr:`task_job`, :attr:`task_round`,
    :attr:`task_index`); task ``i`` of job ``n`` has the times of row ``n``.

    Examples
    --------
    >>> inst = HareInstance(arrival=[0, 0], weight=[1, 2], rounds=[1, 2], tasks_per_round=[2, 1],
    ...                     compute_time=[[1, 2], [2, 3]], sync_time=[[0, 0], [0.5, 0.5]])
    >>> inst.n_tasks
    4
    """

    #: The ``kind`` key of this class's JSON (the registry's name of the paper).
    KIND: ClassVar[str] = KIND
    #: Version of the JSON layout (:meth:`to_dict`).
    SCHEMA_VERSION: ClassVar[int] = SCHEMA_VERSION
    #: The JSON fields (:mod:`hetopt.schema`): shape, type, unit, range and meaning, in the paper's words.
    #:
    #: :meta hide-value:
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("arrival", "(n_jobs,)", "number", "Arrival time $a_n$ of training job $n$: none of its tasks starts "
              "earlier (constraint (4)).", unit="s", minimum=0.0),
        Field("weight", "(n_jobs,)", "number", "Weight $w_n$ of job $n$ in the objective $\\sum_n w_n C_n$ (total "
              "weighted job completion time).", minimum=0.0, exclusive_minimum=True),
        Field("rounds", "(n_jobs,)", "integer", "Number of training rounds of job $n$ (the size of $R_n$); round "
              "$r + 1$ starts after every task of round $r$ synchronizes (constraint (7)).", minimum=1),
        Field("tasks_per_round", "(n_jobs,)", "integer", "Number of parallel tasks in every round of job $n$ (the "
              "size of $D_r$, its synchronization scale).", minimum=1),
        Field("compute_time", "(n_jobs, n_gpus)", "number", "Training (compute) time $T^c_{n,m}$ of one task of "
              "job $n$ on GPU $m$; the GPU is busy for it (constraint (8)).", unit="s", minimum=0.0,
              exclusive_minimum=True),
        Field("sync_time", "(n_jobs, n_gpus)", "number", "Synchronization time $T^s_{n,m}$ of one task of job $n$ "
              "on GPU $m$ after its compute, overlapping the GPU's next task (constraints (6), (7)); zero allowed "
              "(the paper's Fig. 1 ignores communication).", unit="s", minimum=0.0),
        Field("gpu_names", "(n_gpus,)", "string", "Name of every GPU (distinct, non-empty).",
              default="GPU0, GPU1, ...", nonempty=True, unique=True),
        Field("job_names", "(n_jobs,)", "string", "Name of every job (distinct, non-empty).",
              default="J0, J1, ...", nonempty=True, unique=True),
    )

    arrival: np.ndarray
    weight: np.ndarray
    rounds: np.ndarray
    tasks_per_round: np.ndarray
    compute_time: np.ndarray
    sync_time: np.ndarray
    gpu_names: tuple[str, ...] | None = None
    job_names: tuple[str, ...] | None = None
    description: str = field(default="", compare=False)
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        dims = self._check_fields()  # types, shapes, ranges and the shared n_jobs, n_gpus (FIELDS)
        if self.gpu_names is None:
            object.__setattr__(self, "gpu_names", tuple(f"GPU{k}" for k in range(dims["n_gpus"])))
        if self.job_names is None:
            object.__setattr__(self, "job_names", tuple(f"J{k}" for k in range(dims["n_jobs"])))

    # ------------------------------------------------------------------ sizes
    @property
    def n_jobs(self) -> int:
        """``|N|``."""
        return int(self.arrival.shape[0])

    @property
    def n_gpus(self) -> int:
        """``|M|``."""
        return int(self.compute_time.shape[1])

    @cached_property
    def n_tasks(self) -> int:
        """``|D|``, the number of tasks of all jobs."""
        return int((self.rounds * self.tasks_per_round).sum())

    # ------------------------------------------------------------------ task indexing
    @cached_property
    def task_job(self) -> np.ndarray:
        """Job of every task, shape (|D|,)."""
        return np.repeat(np.arange(self.n_jobs), self.rounds * self.tasks_per_round)

    @cached_property
    def task_round(self) -> np.ndarray:
        """Round (0-based, as Algorithm 1's ``r = 0``) of every task, shape (|D|,)."""
        return np.concatenate([np.repeat(np.arange(r), k) for r, k in zip(self.rounds, self.tasks_per_round, strict=True)])

    @cached_property
    def task_index(self) -> np.ndarray:
        """Position of every task inside its round, shape (|D|,)."""
        return np.concatenate([np.tile(np.arange(k), r) for r, k in zip(self.rounds, self.tasks_per_round, strict=True)])

    @cached_property
    def job_offset(self) -> np.ndarray:
        """Index of the first task of every job, shape (N + 1,)."""
        return np.concatenate([[0], np.cumsum(self.rounds * self.tasks_per_round)])

    def task_id(self, job: int, rnd: int, task: int) -> int:
        """Flat index of task ``task`` of round ``rnd`` of job ``job``."""
        return int(self.job_offset[job] + rnd * self.tasks_per_round[job] + task)

    def rescaled(self, *, arrival: np.ndarray, weight: np.ndarray, compute_time: np.ndarray,
                 sync_time: np.ndarray) -> HareInstance:
        """The same jobs, rounds, tasks and names with other times and weights (the exact engines' units)."""
        return HareInstance(arrival=arrival, weight=weight, rounds=self.rounds, tasks_per_round=self.tasks_per_round,
                            compute_time=compute_time, sync_time=sync_time, gpu_names=self.gpu_names,
                            job_names=self.job_names)

    def round_tasks(self, job: int, rnd: int) -> range:
        """Flat indices of the tasks of round ``rnd`` of job ``job`` (the set ``D_r``)."""
        start = self.task_id(job, rnd, 0)
        return range(start, start + int(self.tasks_per_round[job]))

    @cached_property
    def task_compute(self) -> np.ndarray:
        """``T^c_{i,m}`` per task, shape (|D|, M)."""
        return self.compute_time[self.task_job]

    @cached_property
    def task_sync(self) -> np.ndarray:
        """``T^s_{i,m}`` per task, shape (|D|, M)."""
        return self.sync_time[self.task_job]

    @cached_property
    def task_lists(self) -> TaskLists:
        """The arrays the schedulers' per-task loops read, as Python lists (:class:`TaskLists`)."""
        return TaskLists(self.task_job.tolist(), self.task_round.tolist(), self.tasks_per_round.tolist(),
                         self.arrival.tolist(), self.compute_time.tolist(), self.sync_time.tolist())

    @property
    def jobs(self) -> tuple[str, ...]:
        """The job names (``job_names``, filled in at construction)."""
        return cast(tuple[str, ...], self.job_names)

    @property
    def gpus(self) -> tuple[str, ...]:
        """The GPU names (``gpu_names``, filled in at construction)."""
        return cast(tuple[str, ...], self.gpu_names)

    def task_label(self, i: int) -> str:
        """Readable label ``job/round/task`` of flat task ``i``."""
        return f"{self.jobs[self.task_job[i]]}/r{self.task_round[i]}/t{self.task_index[i]}"

    # ------------------------------------------------------------------ simple bounds
    @cached_property
    def min_round_time(self) -> np.ndarray:
        """``min_m (T^c_{n,m} + T^s_{n,m})``: the shortest possible round of job ``n``."""
        return (self.compute_time + self.sync_time).min(axis=1)

    @cached_property
    def completion_lower_bound(self) -> np.ndarray:
        """``a_n + |R_n| min_m (T^c + T^s)``: no job completes earlier in any schedule."""
        return self.arrival + self.rounds * self.min_round_time


@takes_instance(HareInstance)
def alpha(inst: HareInstance) -> float:
    """``alpha`` of Lemma 3: the largest slowest/fastest GPU ratio of any task.

    A job whose synchronization time is zero on every GPU contributes no sync ratio; one
    with zero on some GPUs and positive on others makes the ratio infinite (Lemma 3's
    definition divides by ``T^{s,min} = 0``).

    Parameters
    ----------
    inst : HareInstance
        The instance.

    Returns
    -------
    float
        ``max_i max(T^{c,max}_i / T^{c,min}_i, T^{s,max}_i / T^{s,min}_i)``.
    """
    tc, ts = inst.compute_time, inst.sync_time
    a = float((tc.max(axis=1) / tc.min(axis=1)).max())
    ts_min, ts_max = ts.min(axis=1), ts.max(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        sr = np.where(ts_max == 0, 1.0, np.where(ts_min > 0, ts_max / np.where(ts_min > 0, ts_min, 1), np.inf))
    return max(a, float(sr.max()))


@takes_instance(HareInstance)
def theorem4_bound(inst: HareInstance) -> float:
    """``alpha (2 + alpha)``, the approximation factor claimed by Theorem 4.

    Parameters
    ----------
    inst : HareInstance
        The instance.

    Returns
    -------
    float
    """
    a = alpha(inst)
    return a * (2.0 + a)
