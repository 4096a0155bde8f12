"""Figures of hetopt schedules and experiments (needs the optional matplotlib: ``pip install "hetopt[plot]"``).

Every function draws into ``ax=`` when given (otherwise into a new figure), returns the
matplotlib Axes, never calls ``plt.show()`` and never chooses a backend; matplotlib is
imported only when a figure is drawn.  Axes are labelled with their units, several series
get a legend, heatmaps a colorbar, and discrete axes (servers, GPUs, jobs, slots) integer
ticks.

* :func:`gantt` - one entry point for the schedule of every kind, dispatching to the chart its
  :class:`~hetopt.contract.Kind` names (``hetopt.<paper>.experiments.plot.gantt``; the papers'
  other figures, such as ``hetopt.oasis.experiments.plot.allocation_heatmap`` or the price
  curves of OASiS and Hadar, live there too);
* :func:`jct_cdf` - empirical JCT CDFs of several methods;
* :func:`ratio_vs_bound` - ratios per instance against a paper's bound (numbers or Certificates);
* :func:`sweep` - a claims-ledger sweep table as lines.
"""

from ._common import MISSING_MATPLOTLIB
from .bars import TIME_UNITS
from .curves import jct_cdf, ratio_vs_bound, sweep
from .gantt import gantt

__all__ = [
    "gantt",
    "jct_cdf",
    "ratio_vs_bound",
    "sweep",
    "TIME_UNITS",
    "MISSING_MATPLOTLIB",
]
