"""One Gantt chart entry point for every schedule type, dispatching on the instance's kind.

The chart of each kind is the adapter its :class:`~hetopt.contract.Kind` names (``kind.plot``).
"""

from __future__ import annotations

from typing import Any

from ..errors import ArgumentError
from ..registry import kind_of
from ._common import require_pyplot

__all__ = ["gantt"]


def gantt(instance: Any, solution_or_result: Any, ax: Any = None, **options: Any) -> Any:
    """Gantt chart of any hetopt schedule; the chart depends on the instance's kind.

    ========== ================================================ ========================================
    kind       accepted result                                  chart
    ========== ================================================ ========================================
    hare       ``HareSolution`` or ``hare.replay`` result       task intervals per GPU, coloured by job
    oasis      ``OasisSolution``                                per-job workers/PS per time slot
    hadar      ``hadar.simulate`` result or ``HadarSolution``   GPUs given to each job in every round
    contention ``ContentionSolution`` with a ``trace``          per-GPU tasks and per-server all-reduces
    placement  ``PlacementSolution`` or ``placement.simulate``  worker busy until its job's JCT, + rates
    gavel      ``gavel.simulate`` result, or an allocation      rounds per job by GPU type, or X heatmap
    ========== ================================================ ========================================

    Parameters
    ----------
    instance : any hetopt instance
    solution_or_result : the matching solution or simulation result (table above)
    ax : matplotlib Axes, optional
        Drawn into when given; otherwise a new figure is created (never shown).
    **options
        Passed to the kind's chart (``hetopt.hare.experiments.plot.gantt``, ...): ``title``,
        ``time_unit`` ("s", "ms", "min", "h"), ``labels``.

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    ImportError
        When matplotlib is missing (``pip install "hetopt[plot]"``).
    hetopt.errors.ArgumentError
        When ``instance`` is not a hetopt instance, or its kind has no chart.
    TypeError
        When the result does not belong to the instance's kind.

    Examples
    --------
    >>> import hetopt, hetopt.plot
    >>> inst = hetopt.load_instance("hare2022_fig1")
    >>> ax = hetopt.plot.gantt(inst, hetopt.solve(inst, "algorithm1"))
    >>> ax.get_xlabel()
    'time [s]'
    """
    require_pyplot()
    kind = kind_of(instance)
    adapter = kind.load("plot")
    if adapter is None:
        raise ArgumentError(f"kind {kind.name} has no Gantt chart (its Kind names no plot adapter)")
    return adapter(instance, solution_or_result, ax, **options)
