"""Gantt charts of Hare schedules (needs the optional ``matplotlib``)."""

from __future__ import annotations

from typing import Any

from .solution import HareSolution

__all__ = ["gantt"]


def gantt(sol: HareSolution, ax: Any = None, *, title: str | None = None) -> Any:
    """Draw one row per GPU: compute as solid bars, synchronization hatched; returns the axes.

    Bars are coloured by job and labelled ``job/round``.  Synchronization may overlap the
    next task on the GPU (constraint (8) only reserves the compute time).
    """
    import matplotlib.pyplot as plt

    inst = sol.instance
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 0.6 + 0.5 * inst.n_gpus))
    cmap = plt.get_cmap("tab10")
    for rec in sol.tasks:
        color = cmap(rec["job"] % 10)
        y = rec["gpu"]
        ax.broken_barh([(rec["start"], rec["compute_end"] - rec["start"])], (y - 0.35, 0.7), facecolors=color,
                       edgecolor="black", linewidth=0.5)
        if rec["sync_end"] > rec["compute_end"]:
            ax.broken_barh([(rec["compute_end"], rec["sync_end"] - rec["compute_end"])], (y - 0.15, 0.3),
                           facecolors="none", edgecolor=color, hatch="///", linewidth=0.5)
        ax.text((rec["start"] + rec["compute_end"]) / 2, y, f"{inst.job_names[rec['job']]}/r{rec['round']}",
                ha="center", va="center", fontsize=7)
    ax.set_yticks(range(inst.n_gpus), labels=list(inst.gpu_names))
    ax.set_xlabel("time")
    ax.set_title(title or f"{sol.method}: sum w C = {sol.objective:.4g}")
    return ax
