"""Shared test settings: named tolerances."""

import os

os.environ.setdefault("MPLBACKEND", "Agg")

#: Relative tolerance when comparing objective values of two exact methods.
OBJ_RTOL = 1e-6
