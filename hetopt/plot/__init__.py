"""Figures of hetopt schedules and experiments (needs the optional matplotlib: ``pip install "hetopt[plot]"``).

Every function draws into ``ax=`` when given (otherwise into a new figure), returns the
matplotlib Axes, never calls ``plt.show()`` and never chooses a backend; matplotlib is
imported only when a figure is drawn.  Axes are labelled with their units, several series
get a legend, heatmaps a colorbar, and discrete axes (servers, GPUs, jobs, slots) integer
ticks.

* :func:`gantt` - one entry point for the schedule of every kind (Hare, OASiS, Hadar,
  contention, placement, Gavel), dispatching to :func:`hare_gantt`, :func:`oasis_gantt`,
  :func:`hadar_gantt`, :func:`contention_gantt`, :func:`placement_gantt`, :func:`gavel_gantt`;
* :func:`allocation_heatmap` - OASiS y_ih(t) / z_ik(t) per server and slot;
  :func:`gavel_allocation_heatmap` - Gavel's allocation matrix; :func:`throughput_bars` -
  the per-job throughput of a placement;
* :func:`jct_cdf` - empirical JCT CDFs of several methods;
* :func:`ratio_vs_bound` - ratios per instance against a paper's bound (numbers or Certificates);
* :func:`price_curve` - OASiS (22) / Hadar (5) price against utilisation;
* :func:`sweep` - a claims-ledger sweep table as lines.
"""

from ._common import MISSING_MATPLOTLIB
from .curves import jct_cdf, ratio_vs_bound, sweep
from .gantt import gantt
from .intervals import TIME_UNITS, contention_gantt, hare_gantt, placement_gantt, throughput_bars
from .prices import price_curve
from .slots import allocation_heatmap, gavel_allocation_heatmap, gavel_gantt, hadar_gantt, oasis_gantt

__all__ = [
    "gantt",
    "hare_gantt",
    "oasis_gantt",
    "hadar_gantt",
    "contention_gantt",
    "placement_gantt",
    "gavel_gantt",
    "allocation_heatmap",
    "gavel_allocation_heatmap",
    "throughput_bars",
    "jct_cdf",
    "ratio_vs_bound",
    "price_curve",
    "sweep",
    "TIME_UNITS",
    "MISSING_MATPLOTLIB",
]
