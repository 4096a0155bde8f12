"""The schedule relabellings of CP-SAT's symmetry breaking (:func:`hetopt.hare.exact.cpsat.build_cpsat`)."""

from __future__ import annotations

import numpy as np

from ..instance import HareInstance


def canonical(inst: HareInstance, start: np.ndarray, gpu: np.ndarray, by_round: bool,
               groups: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """The same schedule relabelled to satisfy the symmetry breaking of :func:`build_cpsat`.

    Identical tasks of a round in start order (if ``by_round``), each group of identical GPUs
    ordered by the index of its first task.
    """
    start, gpu = start.copy(), gpu.copy()
    if by_round:
        for n in range(inst.n_jobs):
            for r in range(int(inst.rounds[n])):
                idx = np.array(inst.round_tasks(n, r))
                k = np.lexsort((gpu[idx], start[idx]))
                start[idx], gpu[idx] = start[idx][k], gpu[idx][k]
    for group in groups:
        first = {g: next((i for i in range(inst.n_tasks) if gpu[i] == g), inst.n_tasks) for g in group}
        relabel = dict(zip(sorted(group, key=lambda g: (first[g], g)), group, strict=True))
        gpu = np.array([relabel.get(int(g), int(g)) for g in gpu])
    return start, gpu


def identical_gpus(cols: np.ndarray) -> list[list[int]]:
    """Groups (of two or more) of GPUs whose rows in ``cols`` (GPU x data) are equal."""
    groups: dict[bytes, list[int]] = {}
    for g, row in enumerate(np.ascontiguousarray(cols)):
        groups.setdefault(row.tobytes(), []).append(g)
    return [v for v in groups.values() if len(v) > 1]


def completions(inst: HareInstance, start: np.ndarray, gpu: np.ndarray) -> np.ndarray:
    """Every job's completion time in the schedule (``start``, ``gpu``): its last task's end."""
    idx = np.arange(inst.n_tasks)
    end = start + inst.task_compute[idx, gpu] + inst.task_sync[idx, gpu]
    comp = np.full(inst.n_jobs, -np.inf)
    np.maximum.at(comp, inst.task_job, end)
    return comp
