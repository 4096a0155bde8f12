"""Shared test settings: named tolerances."""

import os

os.environ.setdefault("MPLBACKEND", "Agg")

#: Relative tolerance when comparing objective values of two exact methods.
OBJ_RTOL = 1e-6


def time_allowance(limit: float) -> float:
    """Wall seconds a route given ``time_limit=limit`` may take: 10 % + 0.5 s of slack, the slack
    stretched by the machine's load (on 2 cores under a load of 8, every step after the solver's
    stop takes about 4 times as long, and the limit itself is wall-clock)."""
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    return 1.1 * limit + 0.5 * max(1.0, load)
