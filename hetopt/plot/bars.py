"""Bars of Gantt charts: time units, the bar limit, and one ``broken_barh`` per (row, colour).

The papers' chart adapters (``hetopt.<paper>.experiments.plot``) draw with these helpers; every
bar collection carries a ``gid`` naming what it shows ("compute", "sync", "slot", "round", ...)
so that tests and readers can recover the drawn intervals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["TIME_UNITS", "MAX_BARS", "MAX_LABELLED_BARS", "check_bars", "time_scale", "draw_segments"]

#: Time units accepted by ``time_unit=``: seconds per unit.
TIME_UNITS: Mapping[str, float] = {"s": 1.0, "ms": 1e-3, "min": 60.0, "h": 3600.0}

#: Text labels are written inside bars only when there are at most this many bars.
MAX_LABELLED_BARS = 60

#: Default limit on the bars of one chart (about 30 s to draw 500,000 on one core).
MAX_BARS = 500_000


def check_bars(n: int, max_bars: int | None, what: str) -> None:
    """SizeLimitError when a chart would draw more than ``max_bars`` bars (None: no limit)."""
    if max_bars is not None and n > max_bars:
        from ..errors import SizeLimitError

        raise SizeLimitError(f"the chart would draw {n} bars ({what}); max_bars is {max_bars}: pass a larger "
                             "max_bars=, or None, or draw a smaller instance")


def time_scale(time_unit: str) -> float:
    """Seconds per ``time_unit``; ValueError naming the accepted units."""
    if time_unit not in TIME_UNITS:
        raise ValueError(f"time_unit is {time_unit!r}; expected one of {', '.join(TIME_UNITS)}")
    return TIME_UNITS[time_unit]


def draw_segments(ax: Any, segments: Mapping[tuple[float, Any], list[tuple[float, float]]], height: float,
                  gid: str, **style: Any) -> None:
    """One ``broken_barh`` per (row, colour) key: ``segments[(y, color)] = [(left, width), ...]``."""
    for (y, color), segs in segments.items():
        coll = ax.broken_barh(segs, (y - height / 2, height), facecolors=color, **style)
        coll.set_gid(gid)


