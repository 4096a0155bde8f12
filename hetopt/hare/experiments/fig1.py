"""The toy example of Fig. 1 of Hare, as far as its text gives the data.

The figure's table of training times is not recoverable from the text; the bundled
instance ``instances/hare2022_fig1.json`` is the closest reconstruction (its
``description`` says how it was built; ``hetopt.load_instance("hare2022_fig1")`` reads it).
The two schedules that the text describes in words, (a) and (b), are built here task by task
and checked like any other schedule; the paper's numbers are in
:data:`hetopt.hare.experiments.paper.FIG1`.
"""

from __future__ import annotations

import numpy as np

from ...data import load_json
from .. import HareInstance, HareSolution, make_solution

__all__ = ["fig1_instance", "fig1_schedule_a", "fig1_schedule_b"]


def fig1_instance() -> HareInstance:
    """The reconstructed Fig. 1 instance (3 jobs, 3 GPUs), the bundled ``hare2022_fig1``.

    Returns
    -------
    HareInstance
    """
    return HareInstance.from_dict(load_json("hare2022_fig1"))


def fig1_schedule_a(inst: HareInstance) -> HareSolution:
    """Fig. 1(a), heterogeneity-oblivious [47]: J2 alone on GPU1, J3 on GPU2 and GPU3, then J1 on GPU1 and GPU3.

    Parameters
    ----------
    inst : HareInstance
        The Fig. 1 instance.

    Returns
    -------
    HareSolution
    """
    start, gpu = np.zeros(inst.n_tasks), np.zeros(inst.n_tasks, dtype=int)
    j2 = inst.task_id(1, 0, 0)
    start[j2], gpu[j2] = 0.0, 0
    t = 0.0
    for r in range(2):
        for k, g in enumerate((1, 2)):
            i = inst.task_id(2, r, k)
            start[i], gpu[i] = t, g
        t += inst.compute_time[2, 1:3].max()
    s1 = max(t, inst.compute_time[1, 0])
    for k, g in enumerate((0, 2)):
        i = inst.task_id(0, 0, k)
        start[i], gpu[i] = s1, g
    return make_solution(inst, start, gpu, method="fig1(a)")


def fig1_schedule_b(inst: HareInstance) -> HareSolution:
    """Fig. 1(b), AlloX-like: one dedicated GPU per job (J1 on GPU1, J2 on GPU3, J3 on GPU2), tasks in sequence.

    Parameters
    ----------
    inst : HareInstance
        The Fig. 1 instance.

    Returns
    -------
    HareSolution
    """
    start, gpu = np.zeros(inst.n_tasks), np.zeros(inst.n_tasks, dtype=int)
    for n, g in ((0, 0), (1, 2), (2, 1)):
        t = 0.0
        for r in range(int(inst.rounds[n])):
            for i in inst.round_tasks(n, r):
                start[i], gpu[i] = t, g
                t += inst.compute_time[n, g]
    return make_solution(inst, start, gpu, method="fig1(b)")
