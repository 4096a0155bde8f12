"""Gantt charts of Hare schedules (needs the optional ``matplotlib``: ``pip install "hetopt[plot]"``).

Kept for ``from hetopt.hare import gantt``; the chart is :func:`hetopt.plot.hare_gantt`
(also reached through :func:`hetopt.plot.gantt` for every kind of schedule).
"""

from __future__ import annotations

from typing import Any

from .solution import HareSolution

__all__ = ["gantt"]


def gantt(sol: HareSolution, ax: Any = None, *, title: str | None = None, time_unit: str = "s") -> Any:
    """Draw one row per GPU: compute as solid bars, synchronization hatched; returns the axes.

    Bars are coloured by job (legend) and labelled ``job/round``.  Synchronization may overlap
    the next task on the GPU (constraint (8) only reserves the compute time).  Same as
    ``hetopt.plot.hare_gantt(sol.instance, sol, ax, title=title, time_unit=time_unit)``.
    """
    from ..plot import hare_gantt

    return hare_gantt(sol.instance, sol, ax, title=title, time_unit=time_unit)
